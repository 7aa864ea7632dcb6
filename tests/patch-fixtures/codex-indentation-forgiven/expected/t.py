def f():
	if x:
		log()
		return 1
	return 2
