import { a } from "a";
function sum(a, b) {

    return a + b;
}