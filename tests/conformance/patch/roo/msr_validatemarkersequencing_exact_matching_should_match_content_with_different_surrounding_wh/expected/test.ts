
function example() {
    return 43;
}

