def g():
    value = load(1)
    return value
