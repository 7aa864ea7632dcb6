class Example {
    constructor() {
        if (true) {
            this.init();
            this.setup();
        }
    }
}