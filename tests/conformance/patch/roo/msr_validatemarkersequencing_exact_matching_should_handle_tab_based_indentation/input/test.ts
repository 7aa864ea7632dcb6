function test() {
	return true;
}
