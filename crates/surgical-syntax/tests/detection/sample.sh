#!/usr/bin/env bash
set -euo pipefail

usage() {
  echo "usage: $0 [-v] FILE..."
  exit 2
}

verbose=0
while getopts "v" opt; do
  case "$opt" in
    v) verbose=1 ;;
    *) usage ;;
  esac
done
shift $((OPTIND - 1))

if [ "$#" -eq 0 ]; then
  usage
fi

for file in "$@"; do
  if [ -f "$file" ]; then
    lines=$(wc -l < "$file")
    echo "$file: $lines lines"
  else
    echo "missing: $file" >&2
  fi
  if [ "$verbose" -eq 1 ]; then
    echo 'checked'
  fi
done
