class H:
    def h(self):
        a = 1
        b = 2
