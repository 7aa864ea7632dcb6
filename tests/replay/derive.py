#!/usr/bin/env python3
"""Derives line-ending and BOM variants of extracted replay cases (this repository's history has
no commit that modifies a CRLF or BOM file: its CRLF/BOM fixtures were only ever added).

usage: derive.py SRC_CASES OUT N   (e.g. derive.py surgical/cases surgical-derived 12)

For the first N cases of SRC_CASES (sorted) of at most 8,000 bytes whose sides are LF-only with a final newline, writes
OUT/cases/<case>-crlf (both sides with every LF made CRLF), <case>-bom (a UTF-8 BOM prepended to
both sides) and <case>-crlf-bom (both), and for every fourth such case <case>-crlf-to-lf (the
commit's file with CRLF endings as the parent, the commit's file as it is as the result: a commit
that only converts line endings). Each `diff` is `git diff --no-index` of the two sides, with the
header naming the case's path as git would. Appends "<case> <variant>" lines to OUT/ORIGIN.
Deterministic.
"""
import os
import subprocess
import sys
import tempfile


def diff(path, before, after):
    with tempfile.TemporaryDirectory() as t:
        a, b = os.path.join(t, "a"), os.path.join(t, "b")
        open(a, "wb").write(before)
        open(b, "wb").write(after)
        out = subprocess.run(
            ["git", "-c", "core.autocrlf=false", "diff", "--no-index", "--no-color", "--no-ext-diff", "a", "b"],
            cwd=t, capture_output=True,
        ).stdout
    lines = out.split(b"\n")
    head = {b"diff --git": b"diff --git a/%s b/%s" % (path, path), b"--- ": b"--- a/" + path, b"+++ ": b"+++ b/" + path}
    for i, l in enumerate(lines):
        if l.startswith(b"@@"):
            break
        for k, v in head.items():
            if l.startswith(k):
                lines[i] = v
    return b"\n".join(lines)


def main():
    src, out, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
    origin = []
    taken = 0
    for name in sorted(os.listdir(src)):
        if taken >= n:
            break
        d = os.path.join(src, name)
        path = open(os.path.join(d, "path"), "rb").read().rstrip(b"\n")
        before = open(os.path.join(d, "before"), "rb").read()
        after = open(os.path.join(d, "after"), "rb").read()
        if len(before) > 8000 or b"\r" in before + after or not before.endswith(b"\n") or not after.endswith(b"\n"):
            continue
        crlf = lambda s: s.replace(b"\n", b"\r\n")
        bom = lambda s: b"\xef\xbb\xbf" + s
        variants = {
            "crlf": (crlf(before), crlf(after)),
            "bom": (bom(before), bom(after)),
            "crlf-bom": (bom(crlf(before)), bom(crlf(after))),
        }
        if taken % 4 == 0:
            variants["crlf-to-lf"] = (crlf(after), after)
        for v, (b, a) in variants.items():
            o = os.path.join(out, "cases", f"{name}-{v}")
            os.makedirs(o, exist_ok=True)
            open(os.path.join(o, "path"), "wb").write(path + b"\n")
            open(os.path.join(o, "before"), "wb").write(b)
            open(os.path.join(o, "after"), "wb").write(a)
            open(os.path.join(o, "diff"), "wb").write(diff(path, b, a))
            origin.append(f"{name} {v}\n")
        taken += 1
    with open(os.path.join(out, "ORIGIN"), "a") as f:
        f.writelines(origin)


if __name__ == "__main__":
    main()
