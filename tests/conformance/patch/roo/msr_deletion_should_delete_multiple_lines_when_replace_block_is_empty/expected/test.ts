class Example {
    constructor() {
    }
}