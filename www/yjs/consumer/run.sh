#!/usr/bin/env bash
# Consumer test of @agentpad/yjs: a fresh project installs the packed @agentpad/core and
# @agentpad/yjs tarballs, compiles check.ts with tsc --strict (the shipped types), runs it against
# a server it starts on 127.0.0.1, and starts the package's bin. Last line: "N passed, N failed".
# Usage: www/yjs/consumer/run.sh target/npm/agentpad-core-<v>.tgz target/npm/agentpad-yjs-<v>.tgz
set -euo pipefail
[ $# -eq 2 ] && [ -f "$1" ] && [ -f "$2" ] || {
  echo "usage: $0 path/to/agentpad-core-<version>.tgz path/to/agentpad-yjs-<version>.tgz" >&2
  exit 2
}
core="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
yjs="$(cd "$(dirname "$2")" && pwd)/$(basename "$2")"
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
work="$(mktemp -d "${TMPDIR:-/tmp}/agentpad-yjs-consumer.XXXXXX")"
bin_pid=""
trap '[ -z "$bin_pid" ] || kill "$bin_pid" 2>/dev/null; rm -rf "$work"' EXIT
cp "$here/check.ts" "$work/"
cd "$work"
cat >package.json <<'JSON'
{ "name": "yjs-consumer", "private": true, "type": "module" }
JSON
cat >tsconfig.json <<'JSON'
{ "compilerOptions": { "target": "ES2022", "module": "NodeNext", "moduleResolution": "NodeNext", "strict": true, "skipLibCheck": false, "types": ["node"], "outDir": "dist" }, "files": ["check.ts"] }
JSON
echo "yjs-consumer: installing the tarballs in $work"
npm install --no-audit --no-fund --loglevel=error "$core" "$yjs" typescript@~5.9.3 @types/node@~20.19.8
./node_modules/.bin/tsc -p .
set +e
out="$(node dist/check.js 2>&1)"
set -e
printf '%s\n' "$out"
line="$(printf '%s\n' "$out" | sed -nE 's/^yjs-consumer: ([0-9]+) passed, ([0-9]+) failed$/\1 \2/p' | tail -n1)"
[ -n "$line" ] || line="0 1"
read -r passed failed <<<"$line"
# The bin, as npx finds it.
mkdir -p docs
./node_modules/.bin/agentpad-collab-server --port 0 --dir docs >bin.log 2>&1 &
bin_pid=$!
for _ in $(seq 1 50); do grep -q '^ready ws://127.0.0.1:' bin.log && break; sleep 0.1; done
if grep -q '^ready ws://127.0.0.1:' bin.log; then passed=$((passed + 1)); else failed=$((failed + 1)); echo "FAILED: the bin did not print ready: $(cat bin.log)"; fi
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
