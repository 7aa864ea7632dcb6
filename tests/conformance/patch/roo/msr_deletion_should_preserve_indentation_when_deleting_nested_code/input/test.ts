function outer() {
    if (true) {
        // Remove this
        console.log("test");
        // And this
    }
    return true;
}