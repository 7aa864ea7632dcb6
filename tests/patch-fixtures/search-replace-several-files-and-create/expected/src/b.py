def b() -> int:
    return 2
