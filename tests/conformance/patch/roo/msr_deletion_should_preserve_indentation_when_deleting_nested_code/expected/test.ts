function outer() {
    if (true) {
    }
    return true;
}