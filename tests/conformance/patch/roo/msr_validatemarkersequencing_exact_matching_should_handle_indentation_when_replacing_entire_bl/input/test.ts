class Test {
    method() {
        if (true) {
            console.log("test");
        }
    }
}