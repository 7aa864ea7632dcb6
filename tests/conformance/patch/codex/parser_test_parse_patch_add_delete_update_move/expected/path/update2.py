def f():
    return 123
