def a():
    return 10
