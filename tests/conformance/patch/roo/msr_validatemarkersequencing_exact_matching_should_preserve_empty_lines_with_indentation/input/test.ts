function test() {
    const x = 1;
    
    if (x) {
        return true;
    }
}