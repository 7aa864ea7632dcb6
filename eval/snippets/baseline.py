#!/usr/bin/env python3
"""A plain lazy-snippet merger, the comparison figure of issue 31: it scores each reading of a
snippet by how rare its anchor lines are in the file and refuses only when two readings with
different results tie. A few hundred lines, no rule drawn from any set; it is not surgical and
shares none of its code (its markers are read by markers.py, the grammar of issue 31).

usage: baseline.py SETS_DIR OUT_DIR [CASE...]
  Runs every case of SETS_DIR (<repo>/cases/<id>/<variant>/snippet, as make.py writes them) and
  writes OUT_DIR/<repo>/<id>/<variant>/result (the merged bytes) or .../refused ("code<TAB>why").
  The same scorer as surgical's judges them: crates/surgical-eval/tests/snippets_fresh.rs with
  SNIPPETS_MERGED=OUT_DIR (see eval/snippets/README.md, "Fresh sets").

The reading of one segment (the code lines between two markers):
- its anchors are the segment's lines found in the file, compared without surrounding whitespace;
  the first and last anchored lines fix the file region the segment replaces (segment lines
  before the first anchor are inserted before it, after the last one after it); inside the
  region, segment and file lines are aligned by a longest common subsequence: aligned file lines
  are kept byte for byte, the others are deleted, unaligned segment lines are written as new;
- its evidence is the sum over its aligned lines of 1/n (n: how often the line occurs in the file;
  a blank line counts 0, a line without a letter or digit a quarter), less the same for segment
  lines the file holds that the reading writes as new (it ignores what they say);
- its cost is DELETE_COST per file line it deletes beyond the lines it writes (a one-for-one
  rewrite costs nothing, deleting unseen lines does);
- a reading of the whole snippet places every segment in order, each after the previous one; its
  score is the sum of the segments' evidence less their cost. The best reading is applied unless
  another one with a different result scores within TIE of it (refused as `ambiguous`).
"""
import difflib
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import markers  # noqa: E402

DELETE_COST = 0.1
TIE = 0.25
# At most this many places per anchor line, this many region ends per start, readings per segment.
MAX_PLACES = 64
MAX_ENDS = 3
MAX_READINGS = 12
MAX_REGION = 3000


def key(line):
    return line.strip().lstrip("\ufeff")


def weight(k, count):
    if not k or count == 0:
        return 0.0
    w = 1.0 / count
    return w if any(c.isalnum() for c in k) else w / 4


class File:
    def __init__(self, text):
        self.bom = text.startswith("\ufeff")
        self.text = text[1:] if self.bom else text
        self.lines = _split(self.text)
        self.keys = [key(l) for l in self.lines]
        self.places = {}
        for i, k in enumerate(self.keys):
            self.places.setdefault(k, []).append(i)

    def count(self, k):
        return len(self.places.get(k, ()))

    def ending(self, i):
        """The line ending a new line near file line i takes."""
        for j in (i, i - 1, i + 1, 0):
            if 0 <= j < len(self.lines):
                l = self.lines[j]
                if l.endswith("\r\n"):
                    return "\r\n"
                if l.endswith("\n"):
                    return "\n"
        return "\n"


def _split(text):
    out, start = [], 0
    while True:
        i = text.find("\n", start)
        if i < 0:
            if start < len(text):
                out.append(text[start:])
            return out
        out.append(text[start : i + 1])
        start = i + 1


def parse(snippet, f, path):
    """Segments (lists of snippet lines) and whether the snippet starts and ends with a marker."""
    lines = snippet.split("\n")
    if snippet.endswith("\n"):
        lines.pop()
    is_marker = []
    for i, l in enumerate(lines):
        m = markers.read(l, path) is not None
        if m and f.count(key(l)):
            # A marker-like line the file holds next to the snippet's neighbour there: content.
            for j in f.places[key(l)]:
                prev_ok = i > 0 and j > 0 and key(lines[i - 1]) and f.keys[j - 1] == key(lines[i - 1])
                next_ok = i + 1 < len(lines) and j + 1 < len(f.keys) and key(lines[i + 1]) and f.keys[j + 1] == key(lines[i + 1])
                if prev_ok or next_ok:
                    m = False
                    break
        is_marker.append(m)
    segs, cur = [], []
    for l, m in zip(lines, is_marker):
        if m:
            if cur:
                segs.append(cur)
            cur = []
        else:
            cur.append(l)
    if cur:
        segs.append(cur)
    segs = [s for s in segs if any(key(l) for l in s)]
    nonblank = [m for l, m in zip(lines, is_marker) if l.strip()]
    return segs, bool(nonblank and nonblank[0]), bool(nonblank and nonblank[-1])


def segment_readings(seg, f, lo):
    """Readings of one segment at or after file line `lo`: (score, start, end, aligned pairs)."""
    sk = [key(l) for l in seg]
    anchored = [i for i, k in enumerate(sk) if k and 0 < f.count(k)]
    if not anchored:
        return []
    # First anchor: the first segment line found in the file that is not too common.
    firsts = [i for i in anchored if f.count(sk[i]) <= MAX_PLACES][:3]
    lasts = [i for i in reversed(anchored) if f.count(sk[i]) <= MAX_PLACES][:3]
    out = {}
    for p in firsts:
        for a in f.places[sk[p]]:
            if a < lo:
                continue
            for q in lasts:
                if q < p:
                    continue
                ends = [a] if q == p else [b for b in f.places[sk[q]] if b > a][:MAX_ENDS]
                for b in ends:
                    if b - a > MAX_REGION:
                        continue
                    region = f.keys[a : b + 1]
                    sm = difflib.SequenceMatcher(None, sk[p : q + 1], region, autojunk=False)
                    pairs = []
                    for blk in sm.get_matching_blocks():
                        for t in range(blk.size):
                            pairs.append((p + blk.a + t, a + blk.b + t))
                    if not pairs:
                        continue
                    # Segment lines before the first anchor (after the last) that equal the file's
                    # lines right before (after) the region are the file's too: blanks, closers.
                    s0, f0 = p - 1, a - 1
                    while s0 >= 0 and f0 >= lo and sk[s0] == f.keys[f0]:
                        pairs.insert(0, (s0, f0))
                        s0, f0 = s0 - 1, f0 - 1
                    s1, f1 = q + 1, b + 1
                    while s1 < len(sk) and f1 < len(f.keys) and sk[s1] == f.keys[f1]:
                        pairs.append((s1, f1))
                        s1, f1 = s1 + 1, f1 + 1
                    st, en = f0 + 1, f1
                    evidence = sum(weight(sk[s], f.count(sk[s])) for s, _ in pairs)
                    # A segment line the file holds, written as new: the reading ignores evidence.
                    paired = {s for s, _ in pairs}
                    evidence -= sum(weight(k, f.count(k)) for i, k in enumerate(sk) if i not in paired)
                    deleted = (en - st) - len(pairs)
                    written = len(seg) - len(pairs)
                    cost = DELETE_COST * max(0, deleted - written)
                    start, end = st, en
                    k = (start, end, tuple(pairs))
                    score = evidence - cost
                    if k not in out or out[k] < score:
                        out[k] = score
    ranked = sorted(((s, st, en, pr) for (st, en, pr), s in out.items()), key=lambda r: (-r[0], r[1]))
    return ranked[:MAX_READINGS]


def render(seg, f, start, end, pairs):
    """The segment's region as merged: kept file lines byte for byte, the rest as the snippet has it."""
    kept = dict(pairs)
    out = []
    eol = f.ending(start)
    for s, line in enumerate(seg):
        if s in kept:
            out.append(f.lines[kept[s]])
        else:
            out.append(line + eol)
    # A file whose last line has no line break keeps none.
    if end == len(f.lines) and not f.lines[-1].endswith("\n") and out:
        last = out[-1]
        out[-1] = last[:-2] if last.endswith("\r\n") else last[:-1] if last.endswith("\n") else last
    return out


def merge(text, snippet, path):
    """(result text, None) or (None, (code, why))."""
    f = File(text)
    segs, _, _ = parse(snippet, f, path)
    if not segs:
        return None, ("empty", "the snippet holds no code")
    combos = [(0.0, 0, [])]  # (score, next free line, [(start, end, pairs)])
    for si, seg in enumerate(segs):
        nxt = []
        for score, lo, placed in combos:
            for s, st, en, pr in segment_readings(seg, f, lo):
                nxt.append((score + s, en, placed + [(st, en, pr)]))
        if not nxt:
            return None, ("not_found", f"segment {si + 1} not found")
        nxt.sort(key=lambda c: -c[0])
        combos = nxt[: MAX_READINGS * 4]
    results = []
    for score, _, placed in combos:
        out, prev = [], 0
        for (st, en, pr), seg in zip(placed, segs):
            out += f.lines[prev:st] + render(seg, f, st, en, pr)
            prev = en
        out += f.lines[prev:]
        results.append((score, ("\ufeff" if f.bom else "") + "".join(out)))
    best_score, best = results[0]
    for score, other in results[1:]:
        if other != best and best_score - score <= TIE:
            return None, ("ambiguous", f"two readings score {best_score:.2f} and {score:.2f}")
    if best == text:
        return None, ("no_change", "the snippet changes nothing")
    return best, None


def main():
    sets, out = sys.argv[1], sys.argv[2]
    only = set(sys.argv[3:])
    n = 0
    for repo in sorted(os.listdir(sets)):
        cases = os.path.join(sets, repo, "cases")
        if not os.path.isdir(cases):
            continue
        for cid in sorted(os.listdir(cases)):
            cdir = os.path.join(cases, cid)
            path = open(os.path.join(cdir, "path"), encoding="utf-8").read().strip()
            for v in sorted(os.listdir(cdir)):
                vdir = os.path.join(cdir, v)
                if not os.path.isdir(vdir) or (only and f"{repo}/{cid}/{v}" not in only):
                    continue
                before = os.path.join(vdir, "before")
                raw = open(before if os.path.exists(before) else os.path.join(cdir, "before"), "rb").read()
                snippet = open(os.path.join(vdir, "snippet"), encoding="utf-8").read()
                dest = os.path.join(out, repo, cid, v)
                os.makedirs(dest, exist_ok=True)
                for old in ("result", "refused"):
                    if os.path.exists(os.path.join(dest, old)):
                        os.remove(os.path.join(dest, old))
                try:
                    result, refusal = merge(raw.decode("utf-8"), snippet, path)
                except UnicodeDecodeError:
                    result, refusal = None, ("invalid_input", "not UTF-8")
                if refusal:
                    with open(os.path.join(dest, "refused"), "w", encoding="utf-8") as fh:
                        fh.write(f"{refusal[0]}\t{refusal[1]}\n")
                else:
                    with open(os.path.join(dest, "result"), "wb") as fh:
                        fh.write(result.encode("utf-8"))
                n += 1
    print(f"{n} cases merged into {out}", file=sys.stderr)


if __name__ == "__main__":
    main()
