class Example {
    constructor() {
        this.value = 0;
        if (true) {
            this.init();
        }
    }
}