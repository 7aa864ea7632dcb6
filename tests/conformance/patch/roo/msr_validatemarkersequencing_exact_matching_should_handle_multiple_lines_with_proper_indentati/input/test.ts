class Example {
    constructor() {
        this.value = 0
    }

    getValue() {
        return this.value
    }
}
