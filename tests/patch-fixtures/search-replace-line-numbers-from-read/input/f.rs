fn a() {
    x();
}
