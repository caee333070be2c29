#!/usr/bin/env bash
# Consumer test: a fresh project installs the packed tarball (npm pack), compiles main.ts with
# tsc --strict and runs it on plain Node ESM; esm-check.mjs imports the package from plain JS;
# types-matrix.mjs compiles the documentation's snippets under each moduleResolution × TypeScript;
# `npx agentpad replay` runs the package's bin; mcp-check.mjs runs the companion package
# @agentpad/mcp (www/mcp) installed next to it; a second project installs the MCP tarball alone.
# Usage: www/consumer/run.sh target/npm/agentpad-core-<version>.tgz [target/npm/agentpad-mcp-<version>.tgz]
# (without the second tarball, www/mcp/pack.sh packs one here).
# Last line: "N passed, N failed" over both programs (a program that dies without its own
# count line counts as 1 failed).
set -euo pipefail

{ [ $# -eq 1 ] || { [ $# -eq 2 ] && [ -f "$2" ]; }; } && [ -f "$1" ] || {
  echo "usage: $0 path/to/agentpad-core-<version>.tgz [path/to/agentpad-mcp-<version>.tgz]" >&2
  exit 2
}
tarball="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
mcp_tarball=""
[ $# -eq 1 ] || mcp_tarball="$(cd "$(dirname "$2")" && pwd)/$(basename "$2")"
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
work="$(mktemp -d "${TMPDIR:-/tmp}/agentpad-consumer.XXXXXX")"
trap 'rm -rf "$work"' EXIT

cp "$here/package.json" "$here/tsconfig.json" "$here/main.ts" "$here/esm-check.mjs" "$here/mcp-check.mjs" "$work/"
cd "$work"
echo "consumer: installing $tarball in $work"
# The TypeScript matrix (types-matrix.mjs) needs the oldest 5.x and TypeScript 7 (the Go port,
# published as @typescript/native-preview; a dev build, pinned) beside the current 5.9.
npm install --no-audit --no-fund --loglevel=error "$tarball" typescript@~5.9.3 @types/node@~20.19.8 \
  typescript-5.0@npm:typescript@5.0.4 @typescript/native-preview@7.0.0-dev.20260707.2
echo "consumer: tsc --strict"
./node_modules/.bin/tsc -p . --strict

passed=0
failed=0
run() {
  local name="$1" out line p f
  shift
  set +e
  out="$("$@" 2>&1)"
  set -e
  printf '%s\n' "$out"
  line="$(printf '%s\n' "$out" | sed -nE "s/^$name: ([0-9]+) passed, ([0-9]+) failed$/\1 \2/p" | tail -n1)"
  if [ -z "$line" ]; then
    echo "FAILED: $name printed no count line"
    failed=$((failed + 1))
    return
  fi
  read -r p f <<<"$line"
  passed=$((passed + p))
  failed=$((failed + f))
}
run consumer-main node dist/main.js
run consumer-esm node esm-check.mjs
# The documentation's snippets under node16 / nodenext / bundler × TypeScript 5.0 / 5.9 / 7.
run consumer-types node "$here/types-matrix.mjs" "$work"
# The package's bin, as `npx agentpad` finds it in a project that installed the package: a
# built-in transcript replays as recorded (exit 0), one changed response is reported (exit 1).
cli_check() {
  local p=0 f=0 out rc
  cp "$here/../../tests/fixtures/sessions/scenario-2-multi-match.json" flow.json
  set +e
  out="$(npx --no-install agentpad replay flow.json --check 2>&1)"
  rc=$?
  set -e
  printf '%s\n' "$out"
  if [ "$rc" -eq 0 ] && [[ "$out" == *"0 of 3 responses differ"* ]]; then p=$((p + 1)); else echo "FAILED: npx agentpad replay --check (exit $rc)"; f=$((f + 1)); fi
  node -e 'const fs=require("fs");const t=JSON.parse(fs.readFileSync("flow.json","utf8"));t.steps[0].expect.status="NoMatch";fs.writeFileSync("changed.json",JSON.stringify(t))'
  set +e
  out="$(npx --no-install agentpad replay changed.json --check 2>&1)"
  rc=$?
  set -e
  printf '%s\n' "$out"
  if [ "$rc" -eq 1 ] && [[ "$out" == *"status: recorded NoMatch, now MultiMatch"* ]]; then p=$((p + 1)); else echo "FAILED: a changed recording is reported with exit 1 (exit $rc)"; f=$((f + 1)); fi
  echo "consumer-cli: $p passed, $f failed"
}
run consumer-cli cli_check
# @agentpad/mcp: its tarball (the second argument, or packed by www/mcp/pack.sh, which sets the
# "@agentpad/core": "file:.." dependency of the repository to this version, as publishing does)
# is installed next to @agentpad/core, whose tarball must satisfy that dependency (mcp-check.mjs
# checks no registry copy came in); then `npx agentpad-mcp --help` and a replace → select →
# commit through the server it starts.
mcp_check() {
  if [ -z "$mcp_tarball" ] && ! mcp_tarball="$(bash "$here/../mcp/pack.sh" "$work")"; then
    echo "FAILED: www/mcp/pack.sh"
    echo "consumer-mcp: 0 passed, 1 failed"
    return
  fi
  if ! npm install --no-audit --no-fund --loglevel=error "$mcp_tarball"; then
    echo "FAILED: npm install $mcp_tarball"
    echo "consumer-mcp: 0 passed, 1 failed"
    return
  fi
  node mcp-check.mjs
}
run consumer-mcp mcp_check
# The MCP tarball alone, as `npm install @agentpad/mcp` will be once both are published: a fresh
# project installs only it; its @agentpad/core dependency is served by the core tarball beside
# it (an override stands in for the registry, where that name is not published yet). Anything
# fetched in its place — a registry copy of @agentpad/core, or the unrelated unscoped `agentpad`
# — fails the check, and so does a failed install.
mcp_alone_check() {
  local p=0 f=0 alone="$work/mcp-alone"
  [ -n "$mcp_tarball" ] || mcp_tarball="$(bash "$here/../mcp/pack.sh" "$work")"
  mkdir -p "$alone"
  cp "$tarball" "$mcp_tarball" "$alone/"
  (
    cd "$alone"
    node -e 'const [core] = process.argv.slice(1); require("fs").writeFileSync("package.json", JSON.stringify({ name: "mcp-alone", private: true, version: "0.0.0", overrides: { "@agentpad/core": "file:./" + core } }, null, 2))' "$(basename "$tarball")"
  )
  if (cd "$alone" && npm install --no-audit --no-fund --loglevel=error "./$(basename "$mcp_tarball")"); then p=$((p + 1)); else echo "FAILED: npm install of the MCP tarball alone"; f=$((f + 1)); fi
  if (cd "$alone" && node -e '
      const lock = require("./package-lock.json");
      const pkgs = Object.entries(lock.packages ?? {}).filter(([k]) => k !== "");
      const bad = pkgs.filter(([k, v]) => /(^|\/)node_modules\/(agentpad|@agentpad\/[^/]+)$/.test(k) && !String(v.resolved ?? "").startsWith("file:"));
      const core = lock.packages?.["node_modules/@agentpad/core"];
      if (!core || bad.length) { console.log("FAILED: not ours:", JSON.stringify(bad), "core:", JSON.stringify(core)); process.exit(1); }'); then
    p=$((p + 1))
  else f=$((f + 1)); fi
  if (cd "$alone" && npx --no-install agentpad-mcp --version | grep -q '^agentpad-mcp '); then p=$((p + 1)); else echo "FAILED: npx agentpad-mcp --version in the MCP-alone project"; f=$((f + 1)); fi
  echo "consumer-mcp-alone: $p passed, $f failed"
}
run consumer-mcp-alone mcp_alone_check
echo "consumer: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
