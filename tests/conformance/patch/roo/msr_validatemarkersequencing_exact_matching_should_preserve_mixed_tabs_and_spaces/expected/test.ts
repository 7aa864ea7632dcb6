	class Example {
	    constructor() {
		this.value = 1;
	    }
	}