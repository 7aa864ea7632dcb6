#!/usr/bin/env python3
"""Tables of the fresh sets' verdicts (issue 31): per set, per variant, per file type and per
marker syntax, from the verdict tables crates/surgical-eval/tests/snippets_fresh.rs writes.

usage: fresh_report.py SETS_DIR VERDICTS.tsv [VERDICTS2.tsv ...]   (one column group per file)

Counting (the corpus's scorer, see README.md):
- positives are the variants that expect the commit's file, except `thin-contested`: placed,
  refused (by code), wrong, damaged (a wrong result that changed bytes outside the commit's hunks);
- negatives (`ambiguous-*`, expect a refusal): refused of all; any result is wrong;
- wrong results that differ from the commit's file only in invisible bytes (the verdict table's
  `invisible` column, issue 31's whitespace rule) are counted in "wrong" and named beside it:
  "context" (the file's bytes kept on context lines, by rule), "new-line" (new lines re-keyed);
- `thin-contested` apart: the commit's file expected, a refusal right too; "other" is a result
  that is not the commit's file (another reading the snippet also fits, or worse: damaged).
"""
import collections
import os
import sys


def load(path):
    rows = []
    with open(path, encoding="utf-8") as f:
        head = f.readline().rstrip("\n").split("\t")
        for line in f:
            rows.append(dict(zip(head, line.rstrip("\n").split("\t"))))
    return rows


def ext_of(path):
    name = os.path.basename(path)
    e = os.path.splitext(name)[1].lower()
    return e or name


def style_of(sets, row):
    p = os.path.join(sets, row["set"], "cases", row["case"], "marker-style")
    try:
        return open(p, encoding="utf-8").read().split("\t")[0].strip()
    except OSError:
        return "?"


class Count:
    def __init__(self):
        self.pos = self.placed = self.refused = self.wrong = self.damaged = 0
        self.codes = collections.Counter()
        self.invisible = collections.Counter()
        self.neg = self.neg_refused = 0
        self.cont = self.cont_placed = self.cont_refused = self.cont_other = 0

    def add(self, r):
        v = r["verdict"]
        if r["variant"] == "thin-contested":
            self.cont += 1
            self.cont_placed += v == "placed"
            self.cont_refused += v == "refused"
            self.cont_other += v == "wrong"
            self.damaged += r["damaged"] == "true"
        elif r["expect"] == "refuse":
            self.neg += 1
            self.neg_refused += v == "refused"
            self.wrong += v == "wrong"
            self.damaged += r["damaged"] == "true"
        else:
            self.pos += 1
            self.placed += v == "placed"
            if v == "refused":
                self.refused += 1
                self.codes[r["code"]] += 1
            self.wrong += v == "wrong"
            self.damaged += r["damaged"] == "true"
        if v == "wrong" and r.get("invisible"):
            self.invisible[r["invisible"]] += 1

    def cells(self):
        pct = f"{100 * self.placed / self.pos:.1f}%" if self.pos else "-"
        codes = ", ".join(f"{c} {n}" for c, n in self.codes.most_common())
        cont = f"{self.cont_placed}/{self.cont_refused}/{self.cont_other}" if self.cont else "-"
        return [
            f"{self.placed}/{self.pos} ({pct})",
            f"{self.refused}" + (f" ({codes})" if codes else ""),
            str(self.wrong) + (" (invisible only: " + ", ".join(f"{c} {n}" for c, n in sorted(self.invisible.items())) + ")"
                               if self.invisible else ""),
            str(self.damaged),
            f"{self.neg_refused}/{self.neg}",
            cont,
        ]


def table(title, groups, runs, sets):
    names = [n for n, _ in runs]
    cols = ["placed", "refused (codes)", "wrong", "damaged", "negatives refused", "contested placed/refused/other"]
    print(f"\n### {title}\n")
    if len(runs) == 1:
        print("| " + title + " | " + " | ".join(cols) + " |")
        print("|---" * (len(cols) + 1) + "|")
    else:
        print("| " + title + " | " + " | ".join(f"{n}: {c}" for n in names for c in ("placed", "refused", "wrong", "damaged", "neg. refused")) + " |")
        print("|---" * (5 * len(runs) + 1) + "|")
    keys = sorted({groups(r) for _, rows in runs for r in rows}) + ["all"]
    for k in keys:
        cells = []
        for _, rows in runs:
            c = Count()
            for r in rows:
                if groups(r) == k or k == "all":
                    c.add(r)
            cells += c.cells() if len(runs) == 1 else c.cells()[:5]
        print(f"| {k} | " + " | ".join(cells) + " |")


def main():
    sets = sys.argv[1]
    runs = [(os.path.splitext(os.path.basename(p))[0], load(p)) for p in sys.argv[2:]]
    for title, g in (
        ("set", lambda r: r["set"]),
        ("variant", lambda r: r["variant"]),
        ("file type", lambda r: ext_of(r["path"])),
        ("marker syntax", lambda r: style_of(sets, r)),
    ):
        table(title, g, runs, sets)
    for n, rows in runs:
        c = Count()
        for r in rows:
            c.add(r)
        cells = c.cells()
        print(f"\n{n}: placed {cells[0]}, refused {cells[1]}, wrong {cells[2]}, damaged {cells[3]}, "
              f"negatives refused {cells[4]}, thin-contested placed/refused/other {cells[5]}")


if __name__ == "__main__":
    main()
