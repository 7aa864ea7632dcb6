    function test() {
        return true;
    }
