function test() {
    const x = 1;
    
    // Check x
    if (x) {
        return true;
    }
}