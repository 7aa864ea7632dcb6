first
line
