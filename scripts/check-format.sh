#!/usr/bin/env bash
# Checks that every C++ file of src/ and fuzz/ is formatted as .clang-format says (clang-format 14, Debian
# package clang-format). Lists the files that are not and exits 1; `clang-format -i FILE` formats one.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v clang-format >/dev/null 2>&1; then
  echo "check-format: clang-format is not installed (scripts/install-deps.sh installs it)" >&2
  exit 1
fi
bad=0
while IFS= read -r -d '' f; do
  if ! clang-format --style=file --dry-run --Werror "$f" >/dev/null 2>&1; then
    echo "not formatted: $f"
    bad=1
  fi
done < <(find src fuzz -name '*.cc' -print0 -o -name '*.h' -print0 | sort -z)
if [ "$bad" -ne 0 ]; then exit 1; fi
echo "check-format: all files formatted"
