	function test() {
		// Add comment
		return false;
	}