#!/usr/bin/env python3
"""Times a 50-line snippet into a 10,000-line file through the whole `surgical` process (issue 17:
"well under 50 ms"). Not a test: speed is measured, not asserted.

usage: timing.py SURGICAL_BINARY [RUNS]   (e.g. timing.py target/release/surgical 30)

Each run writes a fresh 10,000-line Python file (500 functions of 20 lines) into a temporary
directory and runs `surgical call apply_snippet --root DIR` with a snippet that rewrites function
250 (header and docstring as anchors, 15 lines changed, 30 inserted, `return` as the tail anchor,
markers around), checks the file is exactly what the snippet says, and prints the minimum, median
and maximum wall time and CPU time of the process (CPU time is the steadier figure on a loaded
machine).
"""
import json
import resource
import os
import statistics
import subprocess
import sys
import tempfile
import time


def main():
    binary, runs = sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 30
    lines = []
    for i in range(500):
        lines += [f"def handler_{i}(request, ctx):", f'    """Handle request kind {i}."""']
        lines += [f"    value_{j} = request.get('field_{i}_{j}', {j})" for j in range(15)]
        lines += [f"    return ctx.respond({i}, value_0)", "", ""]
    content = "\n".join(lines) + "\n"
    start = 250 * 20
    snippet = ["# ... existing code ...", lines[start], lines[start + 1]]
    snippet += [f"    value_{j} = request.get('field_250_{j}', {j}) or default_{j}" for j in range(15)]
    snippet += [f"    log.debug('value {j}', value_{j})" for j in range(30)]
    snippet += [lines[start + 17], "# ... existing code ..."]
    assert len(lines) == 10000 and len(snippet) == 50
    expected = lines[:start + 2] + snippet[3:48] + lines[start + 17 :]
    call = json.dumps({"path": "big.py", "snippet": "\n".join(snippet) + "\n"}).encode()
    times, cpu = [], []
    with tempfile.TemporaryDirectory() as root:
        path = os.path.join(root, "big.py")
        for _ in range(runs):
            with open(path, "w") as f:
                f.write(content)
            r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
            t0 = time.perf_counter()
            out = subprocess.run(
                [binary, "call", "apply_snippet", "--root", root], input=call, capture_output=True
            )
            times.append(time.perf_counter() - t0)
            r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpu.append(r1.ru_utime - r0.ru_utime + r1.ru_stime - r0.ru_stime)
            result = json.loads(out.stdout)
            with open(path) as f:
                merged = f.read()
            if merged != "\n".join(expected) + "\n":
                sys.exit(f"not placed as expected: {json.dumps(result)[:2000]}")
    for what, ts in (("wall time", times), ("CPU time (user + system)", cpu)):
        ms = [t * 1000 for t in ts]
        print(f"{runs} runs, whole process, {what}: min {min(ms):.1f} ms, median {statistics.median(ms):.1f} ms, max {max(ms):.1f} ms")


if __name__ == "__main__":
    main()
