function test() {
    console.log("hello");
    // Comment to remove
    console.log("world");
}