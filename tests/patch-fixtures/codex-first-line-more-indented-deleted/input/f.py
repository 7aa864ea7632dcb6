def f():
    debug("start")
    total = compute(1)
    return total
