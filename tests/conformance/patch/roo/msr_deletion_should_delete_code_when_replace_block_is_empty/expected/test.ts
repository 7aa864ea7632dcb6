function test() {
    console.log("hello");
    console.log("world");
}