function helloWorld() {
    console.log("hello world")
}
