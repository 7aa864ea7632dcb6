def example():
    if condition:
        do_something()
        for item in items:
            process(item)
    return True