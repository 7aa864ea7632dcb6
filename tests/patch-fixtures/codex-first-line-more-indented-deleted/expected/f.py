def f():
    total = compute(1)
    return total + 1
