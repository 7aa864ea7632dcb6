msg = “hello”  
other = 1
