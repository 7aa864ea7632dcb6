class A:
    def run(self):
        return 0

class B:
    def run(self):
        return 2
