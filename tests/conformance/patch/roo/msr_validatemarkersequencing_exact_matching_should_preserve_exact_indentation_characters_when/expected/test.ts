	function test() {
		// First comment
		// Second comment
		return true;
	}