def example():
    if condition:
        do_something()
        while items:
            item = items.pop()
            process(item)
    return True