function sum(a, b) {
    return a + b + 1;
}