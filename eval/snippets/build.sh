#!/usr/bin/env bash
# Rebuilds the lazy-snippet corpus from this repository's own history (branch main by default):
# one directory per language, then a deeper scan (every file of every commit, files up to 30 KB)
# whose header-narrowed and ambiguous-natural variants alone are added (those need repeated
# lines, rare in a short history). Only surgical's own files are read: data ported from or
# extracted out of other repositories (EXCLUDE) is never taken.
#
# usage: eval/snippets/build.sh [GIT_DIR] [REV]   (from anywhere; writes eval/snippets/<language>/)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
export REV=${2:-main}
export EXCLUDE="tests/replay/ eval/snippets/ tests/conformance/ eval/corpus/ integrations/pi/test/pi-edit-cases.mjs"
gd=${1:-$(git -C "$here" rev-parse --git-common-dir)}
gd=$(cd "$gd" && pwd)
langs="rust python javascript markdown toml shell"
for l in $langs; do rm -rf "${here:?}/$l"; done
mk() { case $1 in /*) o=$1 ;; *) o=$here/$1 ;; esac; python3 "$here/make.py" "$gd" "$o" "$2" "${@:3}" 2>/dev/null; }
MAX_BYTES=6000 MAX_PER_PATH=4 mk rust 200 '*.rs'
MAX_BYTES=25000 MAX_PER_PATH=5 mk python 60 '*.py'
MAX_BYTES=14000 MAX_PER_PATH=5 mk javascript 60 '*.ts' '*.mjs' '*.js'
MAX_BYTES=20000 MAX_PER_PATH=6 mk markdown 12 '*.md'
MAX_BYTES=12000 MAX_PER_PATH=4 mk toml 60 '*.toml'
MAX_BYTES=12000 MARKER_STYLE='#' mk shell 60 '*.sh' run cross mutants
deep=$(mktemp -d)
trap 'rm -rf "$deep"' EXIT
export FILES_PER_COMMIT=50 MAX_BYTES=30000 MAX_PER_PATH=50
mk "$deep/all" 2000 '*.rs' '*.mjs' '*.ts' '*.py' '*.toml'
NATURAL_ONLY=1 mk "$deep/nat" 2000 '*.rs' '*.mjs' '*.ts' '*.py' '*.toml'
python3 - "$here" "$deep" <<'PY'
import os, shutil, sys
here, deep = sys.argv[1], sys.argv[2]
lang = {".rs": "rust", ".py": "python", ".ts": "javascript", ".mjs": "javascript", ".js": "javascript", ".toml": "toml"}
have = set()
for l in set(lang.values()):
    for line in open(os.path.join(here, l, "ORIGIN")) if os.path.exists(os.path.join(here, l, "ORIGIN")) else []:
        c, p = line.split()[:2]
        have.add((c, p))
for scan, keep in (("all", "header-narrowed"), ("nat", "ambiguous-natural")):
    origin = {}
    for line in open(os.path.join(deep, scan, "ORIGIN")):
        c, p, *_ = line.split(" ", 2)
        origin.setdefault((c[:12], p), line)
    for name in sorted(os.listdir(os.path.join(deep, scan, "cases"))):
        src = os.path.join(deep, scan, "cases", name)
        path = open(os.path.join(src, "path")).read().strip()
        line = origin[(name[:12], path)]
        if not os.path.isdir(os.path.join(src, keep)) or (line.split()[0], path) in have:
            continue
        have.add((line.split()[0], path))
        out = os.path.join(here, lang[os.path.splitext(path)[1]])
        dst = os.path.join(out, "cases", name)
        while os.path.exists(dst):  # the same commit's other file, taken by the other scan
            dst += "x"
        os.makedirs(dst)
        for f in ("path", "before", "after"):
            shutil.copy(os.path.join(src, f), dst)
        shutil.copytree(os.path.join(src, keep), os.path.join(dst, keep))
        with open(os.path.join(out, "ORIGIN"), "a") as f:
            f.write(line)
PY
# Header lines first, then the cases' lines.
for l in $langs; do
  [ -f "$here/$l/ORIGIN" ] || continue
  { printf 'Repository: surgical itself (this repository), history of %s at %s\n' "$REV" "$(git --git-dir="$gd" rev-parse "$REV")"
    printf 'Licence: the project'"'"'s own code; nothing here comes from another repository\n'
    printf 'Made with: eval/snippets/build.sh (make.py; see ../README.md)\n'
    printf 'Cases (commit, file, subject):\n'
    cat "$here/$l/ORIGIN"; } >"$here/$l/ORIGIN.new"
  mv "$here/$l/ORIGIN.new" "$here/$l/ORIGIN"
done
