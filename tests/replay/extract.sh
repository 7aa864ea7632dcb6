#!/usr/bin/env bash
# Extracts replay cases from a git repository (a bare mirror is fine) for the replay test
# (crates/surgical-tool/tests/replay.rs). For every non-merge COMMIT given and every file the
# commit modifies (not added, deleted or renamed; text, valid UTF-8, at most MAX_BYTES), writes
#   OUT/cases/<commit12>-<n>/path    the file's path in the repository
#   OUT/cases/<commit12>-<n>/before  the file in the commit's parent (bytes as stored)
#   OUT/cases/<commit12>-<n>/after   the file in the commit
#   OUT/cases/<commit12>-<n>/diff    `git diff` of the file between the two, as git writes it
# and appends "<commit id> <subject>" to OUT/ORIGIN for every commit with cases. Copy the
# repository's LICENSE beside it yourself (and name the repository and licence in ORIGIN).
#
# usage: extract.sh GIT_DIR OUT COMMIT... [-- PATHSPEC...]
#   e.g. extract.sh /work/.mirror/o+r/repo /tmp/replay/r $(git --git-dir=... rev-list --no-merges -n 200 HEAD)
# env: MAX_BYTES (default 100000), MAX_FILES_PER_COMMIT (default 20)
set -euo pipefail
git_dir=$1; out=$2; shift 2
commits=(); pathspec=()
while [ $# -gt 0 ]; do
  if [ "$1" = "--" ]; then shift; pathspec=("$@"); break; fi
  commits+=("$1"); shift
done
max_bytes=${MAX_BYTES:-100000}
max_files=${MAX_FILES_PER_COMMIT:-20}
g() { git --git-dir="$git_dir" -c core.quotepath=off -c core.autocrlf=false "$@"; }
mkdir -p "$out/cases"
for c in "${commits[@]}"; do
  c=$(g rev-parse "$c^{commit}")
  parents=$(g rev-list --parents -n 1 "$c" | wc -w)
  [ "$parents" -eq 2 ] || continue # root commits and merges are left out
  short=${c:0:12}
  n=0
  while IFS= read -r -d '' status && IFS= read -r -d '' path; do
    [ "$status" = M ] || continue
    [ "$n" -lt "$max_files" ] || break
    # Text only: git's own binary detection, then size and UTF-8 validity of both sides.
    numstat=$(g diff --numstat --no-renames "$c^" "$c" -- "$path")
    case "$numstat" in -*) continue ;; esac
    tmp=$(mktemp -d)
    g show "$c^:$path" >"$tmp/before"
    g show "$c:$path" >"$tmp/after"
    g diff --no-color --no-ext-diff --no-renames --no-textconv "$c^" "$c" -- "$path" >"$tmp/diff"
    ok=1
    for f in before after; do
      [ "$(stat -c %s "$tmp/$f")" -le "$max_bytes" ] || ok=0
      iconv -f UTF-8 -t UTF-8 "$tmp/$f" >/dev/null 2>&1 || ok=0
    done
    if [ "$ok" = 1 ] && [ -s "$tmp/diff" ]; then
      dir="$out/cases/$short-$n"
      mkdir -p "$dir"
      printf '%s\n' "$path" >"$dir/path"
      mv "$tmp/before" "$tmp/after" "$tmp/diff" "$dir/"
      n=$((n + 1))
    fi
    rm -rf "$tmp"
  done < <(g diff --name-status -z --no-renames "$c^" "$c" -- "${pathspec[@]}")
  [ "$n" -eq 0 ] || printf '%s %s\n' "$c" "$(g log -1 --format=%s "$c")" >>"$out/ORIGIN"
done
