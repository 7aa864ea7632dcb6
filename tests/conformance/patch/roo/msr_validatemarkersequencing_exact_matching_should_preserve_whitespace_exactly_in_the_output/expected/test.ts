    modified
        still indented
    end
