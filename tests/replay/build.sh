#!/usr/bin/env bash
# Rebuilds the replay slice from this repository's own history: every second non-merge commit of
# REV (default main), up to 2 files of at most 12 KB each, never a file ported from or extracted
# out of another repository nor a generated one; then CRLF/BOM variants derived from 10 of them.
#
# usage: tests/replay/build.sh [GIT_DIR] [REV]   (writes tests/replay/surgical{,-derived}/)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
rev=${2:-main}
gd=${1:-$(git -C "$here" rev-parse --git-common-dir)}
gd=$(cd "$gd" && pwd)
rm -rf "${here:?}/surgical" "$here/surgical-derived"
# From outside any work tree, so that the pathspecs are read from the repository's top.
cd /
commits=$(git --git-dir="$gd" rev-list --no-merges "$rev" | awk 'NR % 2 == 1')
# shellcheck disable=SC2086 # one argument per commit
MAX_BYTES=12000 MAX_FILES_PER_COMMIT=2 "$here/extract.sh" "$gd" "$here/surgical" $commits -- \
  ':!tests/replay' ':!eval/snippets' ':!tests/conformance' ':!eval/corpus' \
  ':!integrations/pi/test/pi-edit-cases.mjs' ':!Cargo.lock' ':!*.proptest-regressions' ':!*package-lock.json'
python3 "$here/derive.py" "$here/surgical/cases" "$here/surgical-derived" 10
head="Repository: surgical itself (this repository), history of $rev at $(git --git-dir="$gd" rev-parse "$rev")
Licence: the project's own code; nothing here comes from another repository
Made with: tests/replay/build.sh (see README.md)"
{ printf '%s\nCases: every second non-merge commit (commit, subject):\n' "$head"; cat "$here/surgical/ORIGIN"; } >"$here/surgical/ORIGIN.new"
{ printf '%s\nDerived from ../surgical/cases by derive.py (case, variant):\n' "$head"; cat "$here/surgical-derived/ORIGIN"; } >"$here/surgical-derived/ORIGIN.new"
mv "$here/surgical/ORIGIN.new" "$here/surgical/ORIGIN"
mv "$here/surgical-derived/ORIGIN.new" "$here/surgical-derived/ORIGIN"
