x = 0
y = 1
x = 0
y = 2
