    function test() {
        return false;
    }
