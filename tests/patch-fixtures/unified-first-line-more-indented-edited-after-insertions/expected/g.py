def g():
    # loaded once
    check()
    value = load(2)
    return value
