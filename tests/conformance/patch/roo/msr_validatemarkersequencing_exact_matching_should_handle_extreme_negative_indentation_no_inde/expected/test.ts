class Example {
    constructor() {
        if (true) {
this.init();
        }
    }
}