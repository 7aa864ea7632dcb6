class A:
    def foo(self):
        return 1

    def bar(self):
        return 2
