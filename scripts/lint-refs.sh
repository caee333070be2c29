#!/usr/bin/env bash
# docs-lint: the repository stands alone. Comments and docs cite docs/ (e.g.
# "docs/workflow.md#states-and-flags"), never files outside the repository, the design notes it
# was built from, their seed documents, or tracker issue numbers: a reader of this repository has
# none of those. (www/test/docs.test.mjs checks that each cited docs/…#anchor exists.) One check per kind of
# reference; each hit is printed as file:line. The last line is "N passed, N failed".
#
#   scripts/lint-refs.sh            lint the repository
#   scripts/lint-refs.sh DIR...     lint only these paths (relative to the repository root)
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

# What is linted: the sources, tests, benches, docs and build files; not build outputs, installed
# packages, fuzz corpora, nor third-party documents kept as benchmark inputs (bench/edits/docs, bench/edits/docs-v2, bench/edits/retrieval/docs)
# and the frozen lazy-snippet cases, which copy regions of them (bench/edits/cases/lazy-*).
if [ "$#" -gt 0 ]; then
  SCOPE=("$@")
else
  SCOPE=()
  for p in src tests benches fuzz examples www docs bench scripts .ci README.md build.sh Cargo.toml; do
    [ -e "$p" ] && SCOPE+=("$p")
  done
fi
EXCLUDES=(
  --exclude-dir=node_modules --exclude-dir=pkg --exclude-dir=dist --exclude-dir=target
  --exclude-dir=corpus --exclude-dir=artifacts --exclude-dir=.git
  --exclude=lint-refs.sh --exclude='*.wasm' --exclude='*.tgz' --exclude=package-lock.json
)

passed=0
failed=0
# check NAME GREP-FLAGS REGEX: grep -E the scope; any hit fails the check.
check() {
  local name="$1" flags="$2" regex="$3" hits
  # shellcheck disable=SC2086
  hits="$(grep -rInE $flags "${EXCLUDES[@]}" -e "$regex" "${SCOPE[@]}" 2>/dev/null | grep -vE '^bench/edits/(docs(-v2)?|retrieval/docs|cases/lazy-[a-z]+)/' || true)"
  if [ -z "$hits" ]; then
    passed=$((passed + 1))
    echo "ok      $name"
  else
    failed=$((failed + 1))
    echo "FAILED  $name: $(printf '%s\n' "$hits" | wc -l) reference(s); cite docs/ instead"
    printf '%s\n' "$hits" | cut -c1-220 | sed 's/^/    /'
  fi
}

check "no path outside the repository (../shared)" "" '\.\./shared|/work/shared'
check "no design-note citation (DESIGN §, DESIGN.md)" "" '\bDESIGN\b|DESIGN\.md'
check "no research-note path (shared/research)" "" 'shared/research'
check "no issue number (issue 7, issues 6 and 7, issue #7)" "-i" '\bissues? #?[0-9]+\b'
check "no seed file name (000_0123456789abcdef)" "" '\b0[0-9][0-9]_[0-9a-f]{16}\b'
check "no seed citation (\`003\` §6, 000 Appendix A, the seed's)" "" '`00[0-9]`|\b00[0-9] ?(§|Appendix|Phase)|\b00[0-9]'"'"'s\b|\bthe seeds?('"'"'s?)?( |\b)(example|wording|names|name|text|headings|phrasing|Chinese|flows?|three|\+5|delta|form|layout|document|documents)\b|\bseeds'"'"'|\bseed'"'"'s\b|\b[Tt]he seeds? (says?|do not|does not)\b|\bthis slice\b'
check "no old product name (ATELIA)" "-i" '\bATELIA'

echo "docs-lint: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
