#!/usr/bin/env python3
"""Builds the lazy-snippet corpus (eval/snippets/) from real commits of a git repository.

usage: make.py GIT_DIR OUT_DIR MAX_CASES GLOB... (e.g. make.py .git rust 60 '*.rs')
env: REV (the history read, default HEAD), MAX_BYTES, MAX_PER_PATH, EXCLUDE (path prefixes never
taken, space-separated), MARKER_STYLE (`#` or `//`: the markers' comment for every file, for
names without a telling extension), FILES_PER_COMMIT (default 1), NATURAL_ONLY, SKIP_TAKEN (skip
the commit and file pairs OUT_DIR/ORIGIN already lists), and for fresh sets ENDINGS, MARKERS, THIN
(below).

For the newest non-merge commits that modify a file matching GLOB (at most one file per commit;
LF-only UTF-8 text with a final newline, at most MAX_BYTES; 1 to 3 hunks in `git diff -U0`),
writes OUT_DIR/cases/<commit12>/ with `path`, `before` (the parent's file), `after` (the
commit's) and one directory per variant holding `snippet` and, where the variant changes them,
its own `before`/`after`, `expect` (`refuse`) and `free-endings`. Appends "<commit> <subject>"
to OUT_DIR/ORIGIN. Variants (see README.md): plain, deletion, deletion-revert, header, header-narrowed,
no-first-marker, no-last-marker, crlf, mixed, ambiguous-copy, ambiguous-natural.

With NATURAL_ONLY=1, writes only ambiguous-natural cases (to scan deeper for repetitive code).

Fresh sets from any repository and file type (issue 31; see README.md, "Fresh sets"):
- ENDINGS=any takes files as they come: CRLF and mixed endings, a UTF-8 BOM (the snippet is written
  as a model writes it, LF and no BOM; the expected file keeps the file's bytes; lines a commit adds
  to a mixed-ending file get free endings). Commits that change a file's endings or BOM are left out.
- MARKERS=models writes the markers a model writes for each file type, rotating through the comment
  syntaxes it uses for that type (`.. ...` in reStructuredText, a plain `... existing rows ...` line
  in text and CSV, `<!-- ... -->`, `#`, `//`, `--`, `;`, `REM`, `{# ... #}`, ...; see STYLES) and
  through the words (existing, unchanged, rest, remaining, previous, same, keep, omitted, "N lines",
  a bare `...` or `…`). Each case records its style in `<case>/marker-style`.
- THIN=1 adds one-hunk cases with a fixed context of 1 to 3 lines (rotating) that does not anchor
  alone (the context lines occur elsewhere too), labelled by an oracle that lists every reading
  "the context before, then the nearest copy of the context after" (see `thin_variant`):
  `thin` (the commit's reading is the only one, or the clearly most compact one: every other reading
  deletes at least 2*d+3 file lines where the commit deletes d), `ambiguous-thin` (a refusal:
  another reading deletes the same lines' text, or both readings insert between adjacent anchors)
  and `thin-contested` (the commit's file expected, but another reading about as compact exists:
  a refusal is a right answer too; `snippets_fresh.py` counts it apart).

Deterministic: the same repository and arguments give the same files.
"""
import fnmatch
import os
import re
import subprocess
import sys

MAX_BYTES = int(os.environ.get("MAX_BYTES", "8000"))
MAX_PER_PATH = int(os.environ.get("MAX_PER_PATH", "3"))
# The revision whose history is read (newest first).
REV = os.environ.get("REV", "HEAD")
# Path prefixes never taken (space-separated): data ported from or extracted out of other
# repositories, which this corpus must not copy.
EXCLUDE = os.environ.get("EXCLUDE", "").split()
# The marker's comment style for files whose name has no telling extension ("#" or "//").
MARKER_STYLE = os.environ.get("MARKER_STYLE")
# Files taken per commit (a deeper scan of a short history takes more than one).
FILES_PER_COMMIT = int(os.environ.get("FILES_PER_COMMIT", "1"))
# Only ambiguous-natural cases (repetitive code is rare among the newest commits: a deeper scan).
NATURAL_ONLY = os.environ.get("NATURAL_ONLY") == "1"
# Fresh sets (issue 31): endings as they come, the markers models write per file type, thin context.
ENDINGS_ANY = os.environ.get("ENDINGS") == "any"
MODEL_MARKERS = os.environ.get("MARKERS") == "models"
THIN = os.environ.get("THIN") == "1"
MAX_HUNK_LINES = 40
MARKER_WORDS = ["... existing code ...", "... rest of code ...", "... keep existing code ..."]
# MARKERS=models: the comment syntaxes a model writes a marker in, per file type (the first is the
# usual one; the case number rotates through them), and the words it writes, per kind of file.
WRAP = {
    "hash": "# {}",
    "slash": "// {}",
    "block": "/* {} */",
    "xml": "<!-- {} -->",
    "dash": "-- {}",
    "semi": "; {}",
    "percent": "% {}",
    "rem": "REM {}",
    "colons": ":: {}",
    "apos": "' {}",
    "jinja": "{{# {} #}}",
    "ml": "(* {} *)",
    "rst": ".. {}",
    "plain": "{}",
    "gotmpl": "{{{{/* {} */}}}}",
    "jsp": "<%-- {} --%>",
    "jsx": "{{/* {} */}}",
}
STYLES = {}
for _exts, _styles in (
    (".py .pyi .sh .bash .rb .toml .lock .yml .yaml .cfg .properties .gitignore .gitattributes .in "
     ".ps1 .coveragerc .flake8 .pylintrc .yamllint .editorconfig .conf .mod .sln .spec .ansible-lint "
     ".dockerignore .npmrc .r .pl .mk .tf", ["hash"]),
    (".ini", ["semi", "hash"]),
    (".cs .java .go .rs .ts .js .mjs .cjs .kt .swift .c .h .cpp .hpp .groovy .gradle .cake .y .rl "
     ".proto .dart .scala .php .jsonc .kts", ["slash", "slash", "block"]),
    (".tsx .jsx", ["slash", "jsx"]),
    (".css .css_t", ["block"]),
    (".scss .less", ["slash", "block"]),
    (".html .htm", ["xml"]),
    (".xml .csproj .props .targets .nuspec .config .projitems .shproj .vbproj .fsproj .resx .svg "
     ".jmx .xproj .springbeans .classpath .xaml .vue .wxs", ["xml"]),
    (".jsp .tag", ["jsp", "xml"]),
    (".md .markdown .mdx", ["xml", "plain"]),
    (".rst", ["rst", "plain"]),
    (".txt .csv .tsv .golden .result .input .t .text .out", ["plain", "hash"]),
    (".json", ["slash", "plain"]),
    (".sql .lua .hs .elm .cabal", ["dash"]),
    (".cmd .bat", ["rem", "colons"]),
    (".hcl .hcldec .hcle .hclt", ["hash", "slash"]),
    (".tmpl .gotmpl", ["gotmpl", "slash"]),
    (".tex .m .erl", ["percent"]),
    (".vb .vbs .bas", ["apos"]),
    (".ml .mli .pas .sml", ["ml"]),
    (".el .lisp .clj .asm .s", ["semi"]),
):
    for _e in _exts.split():
        STYLES[_e] = _styles
WORDS = {
    "code": ["... existing code ...", "... rest of code ...", "... keep existing code ...", "... unchanged ...",
             "... remaining code unchanged ...", "...", "... previous code ...", "... {n} lines unchanged ...",
             "... same as before ...", "…", "... omitted ...", "... rest of the file ..."],
    "docs": ["... existing content ...", "... rest of the document ...", "...", "... unchanged ...",
             "... remaining sections ...", "... {n} lines omitted ...", "... previous text ...",
             "… existing content …", "... keep existing text ..."],
    "data": ["... existing rows ...", "... existing entries ...", "...", "... unchanged ...",
             "... {n} more lines ...", "... rest of the file ...", "… remaining items …"],
    "config": ["... existing config ...", "... rest of file ...", "...", "... unchanged ...",
               "... keep existing ...", "... {n} lines unchanged ...", "... remaining entries ...",
               "... same as before ...", "… omitted …"],
}
KIND = {}
for _kind, _exts in (
    ("docs", ".md .markdown .mdx .rst .txt .text"),
    ("data", ".csv .tsv .golden .result .input .t .json .lock .sum"),
    ("config", ".toml .yml .yaml .cfg .ini .properties .xml .csproj .props .targets .nuspec .config "
               ".projitems .shproj .vbproj .fsproj .resx .xproj .springbeans .classpath .jmx .in "
               ".gitignore .gitattributes .editorconfig .coveragerc .flake8 .pylintrc .yamllint .conf "
               ".mod .sln .ansible-lint .npmrc .dockerignore"),
):
    for _e in _exts.split():
        KIND[_e] = _kind


def model_style(path, k, text=""):
    """The marker style and words a model writes for `path` in case `k` (MARKERS=models)."""
    name = os.path.basename(path)
    ext = os.path.splitext(name)[1].lower()
    if not ext and name.startswith("."):
        ext = name.lower()
    styles = STYLES.get(ext, ["hash"])
    if ext in (".html", ".htm") and ("{%" in text or "{{" in text):
        styles = ["jinja", "xml"]  # a Jinja template: its comments are `{# ... #}`
    words = WORDS[KIND.get(ext, "code")]
    return styles[k % len(styles)], words[(k // len(styles)) % len(words)]


HEADER = re.compile(
    r"^\s*(async\s+def\s|def\s|class\s|fn\s|pub(\(crate\))?\s|impl[\s<]|func\s|function[\s*]|"
    r"export\s|interface\s|type\s\w+\s*=|describe\(|it\(|test\(|static\s|struct\s|enum\s|"
    r"(const|let)\s+\w+\s*=\s*(async\s*)?\(|<(html|head|body|main|section|div|ul|table|form)\b|"
    r"[A-Za-z_][\w\s\*]*\s\**\w+\s*\([^;]*\)\s*\{?\s*$)"
)


def git(gd, *args):
    return subprocess.run(
        ["git", "--git-dir", gd, "-c", "core.quotepath=off", *args],
        check=True,
        capture_output=True,
    ).stdout


def indent_of(line):
    return line[: len(line) - len(line.lstrip(" \t"))]


# MARKERS=models: the (style, words) of the case being written (set per case by make_case).
CASE_STYLE = None


def marker(ext, elided, k):
    """The marker line standing for the `elided` lines, at their indentation."""
    first = next((l for l in elided if l.strip()), "")
    ind = indent_of(first.rstrip("\r\n"))
    if CASE_STYLE is not None:
        style, words = CASE_STYLE
        return ind + WRAP[style].format(words.replace("{n}", str(len(elided)))) + "\n"
    words = MARKER_WORDS[k % len(MARKER_WORDS)]
    if MARKER_STYLE == "#":
        text = "# " + words
    elif MARKER_STYLE == "//":
        text = "// " + words
    elif ext in (".py", ".sh", ".rb", ".toml", ".yaml", ".yml"):
        text = "# " + words
    elif ext in (".html", ".xml", ".md", ".vue", ".svg"):
        text = "<!-- " + words + " -->"
    elif ext in (".tsx", ".jsx") and first.strip().startswith(("<", "{", "/>", ")}")):
        text = "{/* " + words + " */}"
    elif ext == ".css":
        text = "/* " + words + " */"
    else:
        text = "// " + words
    return ind + text + "\n"


def count_block(lines, block):
    """Occurrences of `block` (lines compared without surrounding whitespace) in `lines`."""
    if not block:
        return 1
    b = [l.strip() for l in block]
    s = [l.strip() for l in lines]
    n = len(b)
    return sum(1 for i in range(len(s) - n + 1) if s[i : i + n] == b)


def hunks_of(gd, c, path):
    out = git(gd, "diff", "-U0", "--no-color", "--no-ext-diff", "--no-renames", c + "^", c, "--", path)
    hs = []
    for m in re.finditer(rb"^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@", out, re.M):
        os_, ol, ns, nl = (int(m.group(i)) if m.group(i) is not None else 1 for i in range(1, 5))
        # git numbers an empty side's position as the line before it.
        o0 = os_ if ol == 0 else os_ - 1
        n0 = ns if nl == 0 else ns - 1
        hs.append((o0, ol, n0, nl))
    return hs


def choose_context(before, hunks):
    """Context per hunk (1 to 3 lines) such that the lines before and after each hunk occur once
    in the file (compared without surrounding whitespace); None if some hunk cannot be so anchored."""
    ctx = []
    for o0, ol, _, _ in hunks:
        for n in (1, 2, 3):
            cb = before[max(0, o0 - n) : o0]
            ca = before[o0 + ol : o0 + ol + n]
            if (not cb or count_block(before, cb) == 1) and (not ca or count_block(before, ca) == 1):
                if any(l.strip() for l in cb) or any(l.strip() for l in ca):
                    ctx.append(n)
                    break
        else:
            return None
    return ctx


def edge_deletes(before, hunks):
    """A hunk replaces or deletes the file's first or last lines: without a marker there, a
    snippet cannot say so (a missing edge marker means "keep the rest"), so no positive case."""
    return any(ol > 0 and (o0 == 0 or o0 + ol == len(before)) for o0, ol, _, _ in hunks)


def segments(before, after, hunks, ctx):
    """Merged segments: (start, end) in `before` and the snippet lines standing for them."""
    merged = []  # [start, end, [hunks]]
    for h, n in zip(hunks, ctx):
        o0, ol = h[0], h[1]
        s, e = max(0, o0 - n), min(len(before), o0 + ol + n)
        if merged and s <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], e)
            merged[-1][2].append(h)
        else:
            merged.append([s, e, [h]])
    segs = []
    for start, end, hs in merged:
        lines, i = [], start
        for o0, ol, n0, nl in hs:
            lines += before[i:o0]
            lines += after[n0 : n0 + nl]
            i = o0 + ol
        lines += before[i:end]
        segs.append((start, end, lines))
    return segs


def rebuild(before, segs):
    """The file the segments describe: what a correct merge must give."""
    out, prev = [], 0
    for start, end, lines in segs:
        out += before[prev:start] + lines
        prev = end
    return out + before[prev:]


def build_snippet(before, segs, ext, k, first=True, last=True, headers=None):
    out = []
    prev = 0
    for si, (start, end, lines) in enumerate(segs):
        h = headers.get(si) if headers else None
        if h is not None:
            if h > prev and (si > 0 or first):
                out.append(marker(ext, before[prev:h], k))
            out.append(before[h])
            out.append(marker(ext, before[h + 1 : start], k))
        elif start > prev and (si > 0 or first):
            out.append(marker(ext, before[prev:start], k))
        out += lines
        prev = end
    if prev < len(before) and last:
        out.append(marker(ext, before[prev:], k))
    return "".join(out)


def find_header(before, start, floor):
    """The nearest line above `start` (and at or below `floor`) indented less than the segment's
    first non-blank line that reads as a header; None if there is none or it is adjacent."""
    first = next((l for l in before[start:] if l.strip()), None)
    if first is None:
        return None
    ind = len(indent_of(first))
    for h in range(start - 1, floor - 1, -1):
        l = before[h]
        if not l.strip():
            continue
        if len(indent_of(l)) < ind:
            fresh = (CASE_EXT in (".yml", ".yaml") and YAML_HEADER.match(l)) or (
                CASE_EXT in (".xml", ".csproj", ".props", ".targets", ".html", ".nuspec", ".config")
                and XML_HEADER.match(l)
            )
            if (HEADER.match(l) or fresh) and h < start - 1:
                return h
            return None
    return None


def header_narrowed(before, after, hunk, ext, k):
    """A snippet whose context occurs more than once in the file but once below the enclosing
    header, which is kept as an anchor and occurs once: the header decides where it goes."""
    o0, ol, n0, nl = hunk
    for n in (1, 2, 3):
        cb = before[max(0, o0 - n) : o0]
        ca = before[o0 + ol : o0 + ol + n]
        if not cb or not ca or not any(l.strip() for l in cb + ca):
            continue
        h = find_header(before, o0 - n, 0)
        if h is None or count_block(before, [before[h]]) != 1:
            continue
        below = before[h + 1 :]
        if count_block(below, cb) != 1 or count_block(below, ca) != 1:
            continue
        if count_block(before, cb) == 1 and count_block(before, ca) == 1:
            return None  # the context alone anchors it: that is the `header` variant
        end = o0 + ol + n
        out = []
        if h > 0:
            out.append(marker(ext, before[:h], k))
        out.append(before[h])
        out.append(marker(ext, before[h + 1 : o0 - n], k))
        out += cb + after[n0 : n0 + nl] + ca
        if end < len(before):
            out.append(marker(ext, before[end:], k))
        return "".join(out)
    return None


def write(path, data):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        f.write(data.encode("utf-8") if isinstance(data, str) else data)


def variant(case_dir, name, snippet, before=None, after=None, expect=None, free=None):
    d = os.path.join(case_dir, name)
    if ENDINGS_ANY:
        snippet = as_model_writes(snippet)
    write(os.path.join(d, "snippet"), snippet)
    if before is not None:
        write(os.path.join(d, "before"), before)
    if after is not None:
        write(os.path.join(d, "after"), after)
    if expect:
        write(os.path.join(d, "expect"), expect + "\n")
    if free:
        write(os.path.join(d, "free-endings"), "".join(f"{x}\n" for x in free))


def apply_hunks(before, after, hunks):
    """Which lines of `after` are new (True) and which come from `before` (index)."""
    src, i, j = [], 0, 0
    for o0, ol, n0, nl in hunks:
        while i < o0:
            src.append(i)
            i += 1
            j += 1
        src += [None] * nl
        i += ol
        j += nl
    while i < len(before):
        src.append(i)
        i += 1
    assert len(src) == len(after), (len(src), len(after))
    return src


def split_lines(text):
    """Lines with their endings, split at LF only (as git counts them; `str.splitlines` also splits
    at CR, form feeds and U+2028, which would shift the hunks' line numbers)."""
    return re.findall(r"[^\n]*\n|[^\n]+$", text)


def eol_class(lines):
    """`lf`, `crlf` or `mixed`: how the lines end (None when a CR stands alone)."""
    crlf = sum(1 for l in lines if l.endswith("\r\n"))
    if any("\r" in l[:-2] or (l.endswith("\r")) for l in lines):
        return None
    return "lf" if crlf == 0 else "crlf" if crlf == len(lines) else "mixed"


def as_model_writes(snippet):
    """A snippet as a model writes it: LF endings, no byte order mark."""
    return snippet.replace("\r\n", "\n").replace("\ufeff", "")


def thin_variant(before, after, hunk, ext, k):
    """A one-hunk snippet with a context of n lines each side that does not anchor alone: the n
    lines before or the n lines after the hunk occur elsewhere in the file too (compared without
    surrounding whitespace); n is the first of 1 + k % 3, ..., 1 (rotating with the case number,
    then thinner) for which that holds. The oracle lists every
    reading "the context before at i, then the nearest copy of the context after at j >= i + n"
    (file lines i+n..j deleted, the snippet's new lines written there) and labels the case by the
    readings that give another file than the commit's, d being the file lines each deletes:

    - `thin`: there is none, or every one deletes at least 2*d_commit + 3 lines (the commit's reading
      is the clearly most compact one, anchored by the same lines);
    - `ambiguous-thin` (a refusal expected): one deletes the same text as the commit (the whole old
      block occurs twice) or both insert between adjacent anchors (d = 0);
    - `thin-contested`: the rest (another reading about as compact, deleting other lines): the
      commit's file is expected, a refusal is a right answer too.

    Returns (variant name, snippet) or None (context at a file edge, blank only, or anchoring alone;
    or the commit's reading is no nearest-tail reading)."""
    o0, ol, n0, nl = hunk
    for n in range(1 + k % 3, 0, -1):
        if o0 - n < 0 or o0 + ol + n > len(before):
            continue
        cb, ca = before[o0 - n : o0], before[o0 + ol : o0 + ol + n]
        if not any(l.strip() for l in cb) or not any(l.strip() for l in ca):
            continue
        if count_block(before, cb) > 1 or count_block(before, ca) > 1:
            break
    else:
        return None
    key = [l.strip() for l in before]
    kb, ka = [l.strip() for l in cb], [l.strip() for l in ca]
    new = after[n0 : n0 + nl]
    readings = []
    for i in range(len(before) - n + 1):
        if key[i : i + n] != kb:
            continue
        j = next((j for j in range(i + n, len(before) - n + 1) if key[j : j + n] == ka), None)
        if j is not None:
            readings.append((i, j))
    if (o0 - n, o0 + ol) not in readings:
        return None
    mine = "".join(after)
    rivals = []
    for i, j in readings:
        result = "".join(before[: i + n] + new + before[j:])
        if (i, j) == (o0 - n, o0 + ol):
            assert result == mine
        elif result != mine:
            rivals.append((i, j))
    d = ol
    if all(j - i - n >= 2 * d + 3 for i, j in rivals):
        name = "thin"
    elif any(
        j - i - n == d and (d == 0 or key[i + n : j] == key[o0 : o0 + ol]) for i, j in rivals
    ):
        name = "ambiguous-thin"
    else:
        name = "thin-contested"
    out = []
    if o0 - n > 0:
        out.append(marker(ext, before[: o0 - n], k))
    out += cb + new + ca
    if o0 + ol + n < len(before):
        out.append(marker(ext, before[o0 + ol + n :], k))
    return name, "".join(out)


# Headers a model keeps above a segment in YAML (a key that opens a block) and XML (an open tag),
# for the fresh sets (MARKERS=models) only.
YAML_HEADER = re.compile(r"^\s*(- )?[\w./\"'${}\[\] -]+:\s*$")
XML_HEADER = re.compile(r"^\s*<[\w:.-]+(\s[^>]*)?(?<!/)>\s*$")
CASE_EXT = None


def make_case(gd, out, c, path, k, name):
    global CASE_STYLE, CASE_EXT
    ext = os.path.splitext(path)[1]
    try:
        b = git(gd, "show", f"{c}^:{path}").decode("utf-8")
        a = git(gd, "show", f"{c}:{path}").decode("utf-8")
    except (UnicodeDecodeError, subprocess.CalledProcessError):
        return None
    if len(b.encode()) > MAX_BYTES or len(a.encode()) > MAX_BYTES:
        return None
    if not ENDINGS_ANY and "\r" in a + b:
        return None
    if not b.endswith("\n") or not a.endswith("\n") or b.count("\n") < 12:
        return None
    before, after = split_lines(b), split_lines(a)
    eol = eol_class(before)
    if ENDINGS_ANY and (eol is None or eol != eol_class(after) or b.startswith("\ufeff") != a.startswith("\ufeff")):
        return None  # a commit that changes the file's endings or its BOM: no snippet says so
    if "\x00" in a + b:
        return None
    CASE_STYLE = model_style(path, k, b) if MODEL_MARKERS else None
    CASE_EXT = ext.lower() if MODEL_MARKERS else None
    hunks = hunks_of(gd, c, path)
    if not 1 <= len(hunks) <= 3 or any(ol > MAX_HUNK_LINES or nl > MAX_HUNK_LINES for _, ol, _, nl in hunks):
        return None
    ctx = None if edge_deletes(before, hunks) or NATURAL_ONLY else choose_context(before, hunks)
    case_dir = os.path.join(out, "cases", name)
    made = []
    if ctx is not None:
        segs = segments(before, after, hunks, ctx)
        assert rebuild(before, segs) == after, (c, path)
        plain = build_snippet(before, segs, ext, k)
        kind = "deletion" if any(nl == 0 for _, _, _, nl in hunks) else "plain"
        variant(case_dir, kind, plain)
        made.append(kind)
        if all(ol == 0 for _, ol, _, _ in hunks):
            # The revert of an insertion-only commit: every hunk deletes what the commit added.
            rh = [(n0, nl, o0, ol) for o0, ol, n0, nl in hunks]
            rctx = None if edge_deletes(after, rh) else choose_context(after, rh)
            if rctx is not None:
                rsegs = segments(after, before, rh, rctx)
                assert rebuild(after, rsegs) == before, (c, path)
                rfree = None
                if eol == "mixed":  # lines the revert writes again: their ending is free
                    rfree = [i + 1 for i, s in enumerate(apply_hunks(after, before, rh)) if s is None]
                variant(case_dir, "deletion-revert", build_snippet(after, rsegs, ext, k), before=a, after=b, free=rfree)
                made.append("deletion-revert")
        headers, floor = {}, 0
        for si, (start, end, _) in enumerate(segs):
            h = find_header(before, start, floor)
            if h is not None:
                headers[si] = h
            floor = end
        if headers:
            variant(case_dir, "header", build_snippet(before, segs, ext, k, headers=headers))
            made.append("header")
        if segs[0][0] > 0:
            variant(case_dir, "no-first-marker", build_snippet(before, segs, ext, k, first=False))
            made.append("no-first-marker")
        if segs[-1][1] < len(before):
            variant(case_dir, "no-last-marker", build_snippet(before, segs, ext, k, last=False))
            made.append("no-last-marker")
        if k % 4 == 0 and eol == "lf":
            crlf = lambda s: s.replace("\n", "\r\n")
            variant(case_dir, "crlf", plain, before=crlf(b), after=crlf(a))
            made.append("crlf")
        if k % 4 == 2 and eol == "lf":
            # Every fourth line of the parent ends in CRLF, the others in LF. Lines the commit
            # keeps keep their ending; the ending of a new line is free (LF or CRLF).
            mb = [l[:-1] + "\r\n" if i % 4 == 1 else l for i, l in enumerate(before)]
            src = apply_hunks(before, after, hunks)
            ma = [mb[s] if s is not None else l for s, l in zip(src, after)]
            free = [i + 1 for i, s in enumerate(src) if s is None]
            variant(case_dir, "mixed", plain, before="".join(mb), after="".join(ma), free=free)
            made.append("mixed")
        if len(segs) == 1 and 0 < segs[0][0] and segs[0][1] < len(before) and segs[0][1] - segs[0][0] >= 3:
            # The segment's lines copied to the end of the file: the snippet fits both places.
            start, end, _ = segs[0]
            dup = b + ("\r\n" if eol == "crlf" else "\n") + "".join(before[start:end])
            variant(case_dir, "ambiguous-copy", plain, before=dup, expect="refuse")
            made.append("ambiguous-copy")
    if THIN and len(hunks) == 1 and not edge_deletes(before, hunks) and not NATURAL_ONLY:
        thin = thin_variant(before, after, hunks[0], ext, k)
        if thin:
            tname, tsnip = thin
            variant(case_dir, tname, tsnip, expect="refuse" if tname == "ambiguous-thin" else None)
            made.append(tname)
    if len(hunks) == 1 and not edge_deletes(before, hunks) and not NATURAL_ONLY:
        narrowed = header_narrowed(before, after, hunks[0], ext, k)
        if narrowed:
            variant(case_dir, "header-narrowed", narrowed)
            made.append("header-narrowed")
    # Repetitive code: a hunk whose lines, with one line of context each side, occur more than
    # once in the parent, where changing each occurrence gives a different file.
    for o0, ol, n0, nl in hunks:
        if o0 < 1 or o0 + ol >= len(before):
            continue
        block = before[o0 - 1 : o0 + ol + 1]
        if sum(1 for l in block if l.strip()) < 2:
            continue
        at = [i for i in range(len(before) - len(block) + 1) if before[i : i + len(block)] == block]
        if len(at) < 2:
            continue
        new = [before[o0 - 1]] + after[n0 : n0 + nl] + [before[o0 + ol]]
        results = {"".join(before[:i] + new + before[i + len(block) :]) for i in at}
        if len(results) < 2:
            continue
        snip = marker(ext, before[: o0 - 1], k) + "".join(new) + marker(ext, before[o0 + ol + 1 :], k)
        variant(case_dir, "ambiguous-natural", snip, expect="refuse")
        made.append("ambiguous-natural")
        break
    if made and eol == "mixed":
        # A file with mixed endings as it comes: a line the commit adds may end either way.
        free = [i + 1 for i, s in enumerate(apply_hunks(before, after, hunks)) if s is None]
        for v in made:
            d = os.path.join(case_dir, v)
            if v != "deletion-revert" and not os.path.exists(os.path.join(d, "expect")):
                write(os.path.join(d, "free-endings"), "".join(f"{x}\n" for x in free))
    if made and CASE_STYLE is not None:
        write(os.path.join(case_dir, "marker-style"), "%s\t%s\n" % CASE_STYLE)
    if made:
        write(os.path.join(case_dir, "path"), path + "\n")
        write(os.path.join(case_dir, "before"), b)
        write(os.path.join(case_dir, "after"), a)
    return made


def main():
    gd, out, max_cases, globs = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4:]
    commits = git(gd, "rev-list", "--no-merges", REV).decode().split()
    n = 0
    origin = []
    per_path = {}
    # SKIP_TAKEN=1: (commit, path) pairs an earlier run wrote into OUT_DIR are not taken again.
    taken_before = set()
    if os.environ.get("SKIP_TAKEN") == "1" and os.path.exists(os.path.join(out, "ORIGIN")):
        for line in open(os.path.join(out, "ORIGIN"), encoding="utf-8"):
            parts = line.split(" ", 2)
            if len(parts) >= 2:
                taken_before.add((parts[0], parts[1]))
    for c in commits:
        if n >= max_cases:
            break
        if len(git(gd, "rev-list", "--parents", "-n", "1", c).split()) != 2:
            continue
        taken = 0
        names = git(gd, "diff", "--name-status", "-z", "--no-renames", c + "^", c).decode("utf-8", "replace").split("\0")
        for status, path in zip(names[0::2], names[1::2]):
            if status != "M" or not any(fnmatch.fnmatch(os.path.basename(path), g) for g in globs):
                continue
            if any(path.startswith(p) for p in EXCLUDE) or per_path.get(path, 0) >= MAX_PER_PATH:
                continue
            if (c, path) in taken_before:
                continue
            name = c[:12] if taken == 0 else f"{c[:12]}-{taken}"
            while os.path.exists(os.path.join(out, "cases", name)):
                name += "x"  # the same commit's other file, taken by an earlier run into OUT_DIR
            made = make_case(gd, out, c, path, n, name)
            if made:
                subject = git(gd, "log", "-1", "--format=%s", c).decode().strip()
                origin.append(f"{c} {path} {subject}\n")
                print(name, path, " ".join(made), file=sys.stderr)
                n += 1
                per_path[path] = per_path.get(path, 0) + 1
                taken += 1
                if taken >= FILES_PER_COMMIT or n >= max_cases:
                    break
    with open(os.path.join(out, "ORIGIN"), "a") as f:
        f.writelines(origin)


if __name__ == "__main__":
    main()
