msg = “hello, world”  
other = 1
