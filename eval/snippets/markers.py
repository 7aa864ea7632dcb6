#!/usr/bin/env python3
"""The omission-marker grammar of issue 31 (docs/snippets-fresh.md, "Marker grammar"), as a
reference implementation in Python: the baseline merger (baseline.py) reads markers with it, and
`markers.py --check` runs it against the table that phase B's Rust function must pass
(crates/surgical-core/tests/data/markers/*.tsv).

read(line, path) -> None | ("strong" | "weak", syntax)

- A line reads as an omission marker when, trimmed and unwrapped from at most one comment syntax
  (LEADS, PAIRS) and then at most one pair of brackets, what is left is an ellipsis alone ("bare":
  3 to 5 dots, or 1 to 3 `…`) or a short phrase (1 to 8 words) that holds an omission word
  (OMISSION_WORDS, or a number followed by lines/more/rows/...) and that an ellipsis opens (standing
  apart: not `...args`) or, inside a comment or brackets, closes (`// rest of code...`) ("worded").
- A worded marker is strong in any syntax or none. A bare ellipsis is strong inside a comment
  syntax of a code or data file, or inside the file kind's own comment syntax in prose (`.. ...` in
  reStructuredText, `<!-- ... -->` in Markdown); a bare ellipsis with no syntax (or with a syntax
  the prose kind does not have: `# ...` is a Markdown heading) is weak: Python's `...`, YAML's
  document end, a pause in prose, elided output in a literal block.
- Never a marker: spread syntax and ellipses inside code (`...args`, `f(a...)`), a phrase quoting
  code (a backtick or a double quote), a phrase with code punctuation (`=`, `;`, `<`, `>`, `$`),
  a comment inside a doc-comment continuation (` *     // ...`: code quoted in the doc).
"""
import os
import re
import sys

# Leading comment tokens, longest first. `..` is reStructuredText's comment (`.. ...`); `*` a
# block comment's continuation line; REM and `::` batch files; `'` Visual Basic; `!` Fortran and
# .properties; `%` TeX, Matlab, Erlang; `;` ini, Lisp, assembly; `--` SQL, Lua, Haskell.
LEADS = ["///", "//!", "//", "##", "#", "--", ";;", ";", "%%", "%", "'", "REM", "rem", "::", "..", "*", "!"]
# Comment syntaxes that enclose the phrase on one line.
PAIRS = [
    ("{{!--", "--}}"),
    ("{{/*", "*/}}"),
    ("<%--", "--%>"),
    ("<!--", "-->"),
    ("{/*", "*/}"),
    ("{{!", "}}"),
    ("/*", "*/"),
    ("{#", "#}"),
    ("(*", "*)"),
]
BRACKETS = [("[", "]"), ("(", ")"), ("{", "}")]
ELLIPSIS = re.compile(r"(?:\.{3,}|…+|⋯+|⋮+)")
OMISSION_WORDS = {
    "existing", "unchanged", "rest", "remaining", "remainder", "previous", "previously", "same",
    "keep", "kept", "omitted", "omit", "elided", "skipped", "unmodified", "untouched", "other",
    "others",
}
COUNTED = {"lines", "line", "more", "rows", "entries", "items", "steps", "lines)"}
PROSE = {".md", ".markdown", ".mdx", ".rst", ".txt", ".text", ".adoc", ".rdoc", ""}
# Each prose kind's own comment syntax: a bare ellipsis inside it is a strong marker.
PROSE_COMMENTS = {".md": {"<!--"}, ".markdown": {"<!--"}, ".mdx": {"<!--", "{/*"}, ".rst": {".."}}


def kind_of(path):
    """`prose` or `code` (data and configuration files read as code)."""
    name = os.path.basename(path).lower()
    ext = os.path.splitext(name)[1]
    if name in ("readme", "changelog", "license", "authors", "contributing", "news") or ext in PROSE - {""}:
        return "prose", ext
    return "code", ext


def unwrap(trimmed):
    """(inner text, syntax) for the comment syntax the line is in, or (trimmed, None)."""
    for open_, close in PAIRS:
        if trimmed.startswith(open_) and trimmed.endswith(close) and len(trimmed) >= len(open_) + len(close):
            return trimmed[len(open_) : len(trimmed) - len(close)].strip(), open_
    for lead in LEADS:
        if not trimmed.startswith(lead):
            continue
        rest = trimmed[len(lead) :]
        if lead in ("REM", "rem", "..") and rest and not rest[0].isspace():
            continue  # `REMOVE`, `...` (the ellipsis itself, not rst's comment)
        if lead == "'" and rest.rstrip().endswith("'"):
            continue  # a quoted string: `'...'`
        inner = rest.strip()
        if lead == "*" and any(inner.startswith(l) for l in ("//", "/*", "#", "<!--", "--")):
            return None, "*"  # code quoted in a doc comment: the doc's own line
        return inner, lead
    return trimmed, None


BARE = re.compile(r"\.{3,5}|…{1,3}|⋯{1,3}|⋮{1,3}")


def phrase_kind(inner, wrapped):
    """"bare", "worded" or None for the text inside the syntax (`wrapped`: inside a comment)."""
    for open_, close in BRACKETS:
        if inner.startswith(open_) and inner.endswith(close):
            inner = inner[1:-1].strip()
            wrapped = True
            break
    if not inner:
        return None
    if BARE.fullmatch(inner):
        return "bare"
    if "`" in inner or '"' in inner or re.search(r"[=;<>$]|->|=>", inner):
        return None
    # The ellipsis opens the phrase (standing apart: not `...args`) or closes it (`rest of code...`
    # or `rest of code ...`; not inside a call: `f(a...)`).
    m_open = re.match(r"(?:\.{3,}|…+)(?=[\s\])}]|$)", inner)
    m_close = re.search(r"(?:\.{3,}|…+)$", inner)
    if not m_open and not (m_close and wrapped):
        return None  # outside a comment or brackets, only a phrase the ellipsis opens (prose ends so)
    if m_close and not m_open:
        before = inner[: m_close.start()]
        if before.endswith(("(", ",")) or re.search(r"\w\($", before):
            return None
    words = [w.lower() for w in re.findall(r"[A-Za-z0-9_']+", ELLIPSIS.sub(" ", inner))]
    if not 1 <= len(words) <= 8:
        return None
    if any(w.strip("'") in OMISSION_WORDS for w in words):
        return "worded"
    if any(w.isdigit() and i + 1 < len(words) and words[i + 1] in COUNTED for i, w in enumerate(words)):
        return "worded"
    return None


def read(line, path="x.py"):
    """None, or (strength, syntax): how `line` reads in a file named `path` (see the module doc)."""
    trimmed = line.strip().lstrip("\ufeff")
    if not trimmed:
        return None
    inner, syntax = unwrap(trimmed)
    if inner is None:
        return None
    kind = phrase_kind(inner, syntax is not None)
    if kind is None and syntax is not None:
        # Not a marker inside that syntax: maybe the line is no comment at all (`...` after `..`).
        inner, syntax = trimmed, None
        kind = phrase_kind(inner, False)
    if kind is None:
        return None
    if kind == "worded":
        return "strong", syntax
    file_kind, ext = kind_of(path)
    if syntax is None or syntax in ("[", "(", "{"):
        return "weak", syntax
    if file_kind == "prose" and syntax not in PROSE_COMMENTS.get(ext, set()):
        return "weak", syntax  # `# ...` is a Markdown heading, `* ...` a list item
    return "strong", syntax


def check(table_dir):
    """Runs every table under `table_dir`: lines `expect<TAB>path<TAB>line` (expect: strong, weak,
    no); `##` lines and blank lines are comments. Prints each disagreement; returns how many."""
    bad = total = 0
    for name in sorted(os.listdir(table_dir)):
        if not name.endswith(".tsv"):
            continue
        for n, raw in enumerate(open(os.path.join(table_dir, name), encoding="utf-8"), 1):
            raw = raw.rstrip("\n")
            if not raw.strip() or raw.startswith("##"):
                continue
            expect, path, line = raw.split("\t", 2)
            got = read(line, path)
            got = "no" if got is None else got[0]
            total += 1
            if got != expect:
                bad += 1
                print(f"{name}:{n}: {line!r} in {path}: expected {expect}, read {got}")
    print(f"{total - bad} of {total} table rows read as expected")
    return bad


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--check":
        sys.exit(1 if check(sys.argv[2]) else 0)
    for arg in sys.argv[1:]:
        print(repr(arg), read(arg))
