class H:
    def h(self):
        b = 2
        c = 3
