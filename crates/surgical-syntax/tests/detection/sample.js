const path = require("path");

function parseArgs(argv) {
  const options = { verbose: false, files: [] };
  for (const arg of argv) {
    if (arg === "--verbose") {
      options.verbose = true;
    } else {
      options.files.push(path.resolve(arg));
    }
  }
  return options;
}

class Counter {
  constructor(start) {
    this.value = start;
  }

  bump(by) {
    this.value += by;
    return this.value;
  }
}

const counter = new Counter(1);
const totals = [counter.bump(2), counter.bump(3)];
console.log("totals", totals, parseArgs(process.argv.slice(2)));
module.exports = {
  parseArgs,
  Counter,
};
