import foo
