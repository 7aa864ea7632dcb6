class A:
    def foo(self):
        # foo comes first
        return 1

    def bar(self):
        return 2
