	function test() {
		return true;
	}