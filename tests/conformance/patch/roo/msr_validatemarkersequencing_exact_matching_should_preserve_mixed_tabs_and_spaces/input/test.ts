	class Example {
	    constructor() {
		this.value = 0;
	    }
	}