    indented
        more indented
    back
