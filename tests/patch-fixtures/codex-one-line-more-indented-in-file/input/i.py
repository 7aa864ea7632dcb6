class A:
    def f(self):
        return compute_value(1)
