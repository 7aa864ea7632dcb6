function hello() {
    console.log("hello world")
}
