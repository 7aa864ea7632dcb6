fn a() {
    y();
}
