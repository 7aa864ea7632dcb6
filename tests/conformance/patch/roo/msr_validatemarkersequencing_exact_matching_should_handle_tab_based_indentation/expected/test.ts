function test() {
	return false;
}
