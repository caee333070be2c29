#!/usr/bin/env bash
# agentpad build driver.
#
#   ./build.sh serve   build the core to wasm, the npm package and the playground; serve it on 127.0.0.1
#   ./build.sh test    run every test layer (with clippy's no-panic lints); the last line is "N passed, N failed"
#   ./build.sh pack    build and write the npm tarballs (@agentpad/core, @agentpad/mcp) to target/npm/
#   ./build.sh bench   native (criterion) and wasm-vs-JS benchmarks; report in target/bench/
#   ./build.sh fuzz [TARGET]  cargo fuzz each target in fuzz/ for FUZZ_SECONDS (default 1800); crashes in fuzz/artifacts/
#
# Every step installs what a fresh machine lacks (rustup target, the pinned wasm-bindgen-cli, wasm-pack,
# Debian chromium + chromium-driver + fonts-noto-cjk, Debian binaryen for wasm-split, npm packages from the committed
# lockfiles, wasm-opt among them)
# and skips what is already there. Environment: PORT (serve, default 5173), CARGO_TARGET_DIR, FUZZ_SECONDS, RETRY_CASES and
# NEVER_WRONG_CASES (fuzz: the retry_model and never_wrong property tests, default 100000 cases each).
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")"
ROOT="$PWD"
export PATH="$HOME/.cargo/bin:$PATH"
TARGET_DIR="${CARGO_TARGET_DIR:-$ROOT/target}"
case "$TARGET_DIR" in /*) ;; *) TARGET_DIR="$ROOT/$TARGET_DIR" ;; esac
WASM_TARGET=wasm32-unknown-unknown
CHROMIUM=/usr/bin/chromium
CHROMEDRIVER_BIN=/usr/bin/chromedriver
LOG_DIR="$TARGET_DIR/test-logs"

# Each step says how far into the run it starts (minutes:seconds), so a slow layer shows in the log.
say() { printf '==> [%d:%02d] %s\n' $((SECONDS / 60)) $((SECONDS % 60)) "$*"; }
die() {
  printf 'build.sh: error: %s\n' "$*" >&2
  exit 1
}
as_root() {
  if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi
}

# ---------------------------------------------------------------- toolchain ---

ensure_wasm_target() {
  if rustup target list --installed 2>/dev/null | grep -qx "$WASM_TARGET"; then
    say "rust target: $WASM_TARGET present"
  else
    say "rust target: adding $WASM_TARGET"
    rustup target add "$WASM_TARGET"
  fi
}

# The wasm-bindgen version pinned in Cargo.toml (`wasm-bindgen = "=X.Y.Z"`).
pinned_wasm_bindgen() {
  local v
  v="$(sed -nE 's/^[[:space:]]*wasm-bindgen[[:space:]]*=[[:space:]]*(\{[^}]*version[[:space:]]*=[[:space:]]*)?"=([0-9]+\.[0-9]+\.[0-9]+)".*/\2/p' Cargo.toml | head -n1)"
  [ -n "$v" ] || die 'Cargo.toml does not pin wasm-bindgen with "=X.Y.Z"; build.sh needs the exact version to install the matching wasm-bindgen-cli'
  printf '%s\n' "$v"
}

ensure_wasm_bindgen() {
  local want have_bg have_runner
  want="$(pinned_wasm_bindgen)"
  have_bg="$(wasm-bindgen --version 2>/dev/null | awk '{print $2}' || true)"
  have_runner="$(wasm-bindgen-test-runner --version 2>/dev/null | awk '{print $2}' || true)"
  if [ "$have_bg" = "$want" ] && [ "$have_runner" = "$want" ]; then
    say "wasm-bindgen-cli: $want present"
  else
    say "wasm-bindgen-cli: installing $want (found ${have_bg:-none}; takes several minutes once)"
    cargo install wasm-bindgen-cli --version "$want"
  fi
}

# wasm-pack from crates.io (its own release binaries are a download this machine may not reach).
# `wasm-pack test` finds the pinned wasm-bindgen-cli and chromedriver on PATH and downloads nothing.
ensure_wasm_pack() {
  if wasm-pack --version >/dev/null 2>&1; then
    say "wasm-pack: $(wasm-pack --version | awk '{print $2}') present"
  else
    say "wasm-pack: installing from crates.io (takes a few minutes once)"
    cargo install wasm-pack --locked
  fi
}

# A CJK font goes with the browser: without one a zh page shows empty boxes where the Chinese
# is, and a zh screenshot cannot be checked by looking at it (docs/responses.md#locales-and-styles).
CJK_FONT_PACKAGE=fonts-noto-cjk

ensure_chromium() {
  if [ -x "$CHROMIUM" ] && [ -x "$CHROMEDRIVER_BIN" ] && dpkg -s "$CJK_FONT_PACKAGE" >/dev/null 2>&1; then
    say "chromium: $CHROMIUM, $CHROMEDRIVER_BIN and $CJK_FONT_PACKAGE present"
  else
    say "chromium: installing Debian chromium + chromium-driver + $CJK_FONT_PACKAGE"
    as_root apt-get update
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y chromium chromium-driver "$CJK_FONT_PACKAGE"
  fi
}

ensure_node() {
  command -v node >/dev/null && command -v npm >/dev/null ||
    die "node and npm are needed (Node >= 20)"
  local major
  major="$(node -p 'process.versions.node.split(".")[0]')"
  [ "$major" -ge 20 ] || die "Node >= 20 is needed, found $(node --version)"
}

# npm install (with the committed lockfile) when node_modules is missing or older than the lockfile.
npm_install() {
  local dir="$1" stamp="$1/node_modules/.package-lock.json"
  if [ -f "$stamp" ] && [ ! "$dir/package-lock.json" -nt "$stamp" ] && [ ! "$dir/package.json" -nt "$stamp" ]; then
    say "npm: ${dir#"$ROOT"/} dependencies present"
  else
    say "npm: install in ${dir#"$ROOT"/}"
    (cd "$dir" && npm install --no-audit --no-fund)
    touch "$stamp"
  fi
}

# ------------------------------------------------------------------- builds ---

TOOLCHAIN_READY=0 # set once the checks passed, so later steps don't repeat them

# `./build.sh test` starts the package's release wasm build in the background while the lint and
# wasm layers run (they build into target/lint and target/wasm-test, so none waits on another's
# build-directory lock):
# the build's last minute and a half is one rustc process (fat LTO, one codegen unit) on one core.
# build_wasm waits for it and runs the same command, which then finds the build done; a failure
# shows there, with its output. Its own output goes to target/test-logs/wasm-prebuild.log.
PREBUILD_PID=""
prebuild_wasm_start() {
  mkdir -p "$LOG_DIR"
  say "cargo: the release build for $WASM_TARGET starts in the background (test-logs/wasm-prebuild.log)"
  cargo build --release --target "$WASM_TARGET" --lib >"$LOG_DIR/wasm-prebuild.log" 2>&1 &
  PREBUILD_PID=$!
}

prebuild_wasm_wait() {
  [ -n "$PREBUILD_PID" ] || return 0
  wait "$PREBUILD_PID" || true
  PREBUILD_PID=""
}

build_wasm() {
  prebuild_wasm_wait
  if [ "$TOOLCHAIN_READY" != 1 ]; then
    ensure_wasm_target
    ensure_wasm_bindgen
  fi
  # wasm-opt comes from www's devDependencies (the npm `binaryen` package, wasm-opt built to JS and
  # wasm: no system package, runs on Node 20), so www's npm install happens here, before the build.
  ensure_node
  npm_install "$ROOT/www"
  say "cargo: build the core for $WASM_TARGET (release)"
  cargo build --release --target "$WASM_TARGET" --lib
  say "wasm-bindgen: www/pkg"
  # No name section (~260 KB of function names, a quarter of the file): panics still print
  # their message through console_error_panic_hook.
  # Without "multivalue" in the module's target_features, wasm-bindgen keeps return pointers:
  # V8 then compiles no wrapper per multi-value export signature at compile time
  # (docs/decisions.md#exports-keep-return-pointers).
  node www/scripts/no-multivalue.mjs "$TARGET_DIR/$WASM_TARGET/release/agentpad.wasm" \
    "$TARGET_DIR/$WASM_TARGET/release/agentpad.bindgen-input.wasm"
  wasm-bindgen --target web --remove-name-section --out-dir www/pkg --out-name agentpad \
    "$TARGET_DIR/$WASM_TARGET/release/agentpad.bindgen-input.wasm"
  # The glue's import object and finalize step, exported for the browser entry's split loader.
  node www/scripts/glue-exports.mjs www/pkg
  optimize_wasm www/pkg/agentpad_bg.wasm
}

# wasm-opt -Oz on the module wasm-bindgen wrote, without inlining functions into their only caller
# (-ocimfs 0): V8 validates every function when the module is compiled and compiles each one whole
# on its first call, and that inlining grew the functions the first call compiles by half. What it
# buys, measured (code 9 % smaller, 7 % less to compile on the first call, hot paths unchanged):
# docs/performance.md#wasm-size. The wasm features come from the module's target_features section.
optimize_wasm() {
  local wasm="$1" before
  before="$(wc -c <"$wasm")"
  say "wasm-opt: -Oz ${wasm} (binaryen $("$ROOT/www/node_modules/.bin/wasm-opt" --version | awk '{print $3}'); ~30 s)"
  "$ROOT/www/node_modules/.bin/wasm-opt" -Oz --one-caller-inline-max-function-size 0 "$wasm" -o "$wasm.opt"
  mv "$wasm.opt" "$wasm"
  say "wasm-opt: $before -> $(wc -c <"$wasm") bytes"
}

# binaryen's wasm-split, for the browser entry's two modules and the split probe
# (docs/performance.md#wasm-split): the npm `binaryen` package that provides wasm-opt has no
# wasm-split, so Debian's binaryen provides it (108; www/scripts/split-wasm.mjs works around its
# one bug, table exports written as table 0).
ensure_wasm_split() {
  if command -v wasm-split >/dev/null; then
    say "wasm-split: $(wasm-split --version | awk '{print $3}') present"
  else
    say "wasm-split: installing Debian binaryen"
    as_root apt-get update
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y binaryen
  fi
}

build_package() {
  ensure_node
  build_wasm
  npm_install "$ROOT/www"
  say "tsc: www/src -> www/dist"
  rm -rf www/dist
  (cd www && ./node_modules/.bin/tsc -p .)
  (cd www && node scripts/strip-private-marker.mjs dist)
  # The session `agentpad replay --sample` runs: one of the recorded flows, shipped in dist/.
  cp tests/fixtures/sessions/scenario-2-multi-match.json www/dist/sample-transcript.json
  say "rolldown: www/dist/{node,browser}.js -> www/dist/agentpad.{node,browser}.js (each entry as one module)"
  (cd www && ./node_modules/.bin/rolldown -c rolldown.config.mjs >/dev/null)
  # The browser entry's pair: the functions an editing page runs, and the rest it loads on first
  # use (docs/decisions.md#the-browser-entry-loads-the-rest-of-the-engine-on-first-use).
  ensure_wasm_split
  say "wasm-split: www/pkg/agentpad_bg.wasm -> www/pkg/agentpad_{core,rest}.wasm (the exact editing workload)"
  node www/scripts/split-wasm.mjs
  # @agentpad/yjs (tsc): its "@agentpad/core": "file:.." links www/; @agentpad/mcp links it (--collab).
  npm_install "$ROOT/www/yjs"
  say "tsc: www/yjs/src -> www/yjs/dist"
  rm -rf www/yjs/dist
  (cd www/yjs && ./node_modules/.bin/tsc -p .)
  # @agentpad/mcp (plain ESM, no build): its "@agentpad/core": "file:.." dependency links www/.
  npm_install "$ROOT/www/mcp"
}

build_playground() {
  [ -f www/playground/package.json ] ||
    die "www/playground/package.json does not exist yet: there is no playground to build"
  npm_install "$ROOT/www/playground"
  say "playground: build to target/playground"
  npm --prefix www/playground run build
}

package_version() { node -p 'require("./www/package.json").version'; }

# npm names a scoped package's tarball <scope>-<name>-<version>.tgz.
tarball_path() { printf '%s/npm/agentpad-core-%s.tgz\n' "$TARGET_DIR" "$(package_version)"; }

mcp_tarball_path() { printf '%s/npm/agentpad-mcp-%s.tgz\n' "$TARGET_DIR" "$(package_version)"; }

yjs_tarball_path() { printf '%s/npm/agentpad-yjs-%s.tgz\n' "$TARGET_DIR" "$(package_version)"; }

# npm pack of the built www/ into target/npm/ (no build).
pack_only() {
  local out="$TARGET_DIR/npm" tarball
  tarball="$(tarball_path)"
  mkdir -p "$out"
  rm -f "$tarball"
  say "npm pack: ${tarball#"$ROOT"/}"
  cp LICENSE-MIT LICENSE-APACHE www/
  (cd www && npm pack --silent --pack-destination "$out" >/dev/null)
  [ -f "$tarball" ] || die "npm pack did not write $tarball"
  # @agentpad/mcp with its "@agentpad/core" dependency set from "file:.." to this version (pack.sh).
  local mcp
  mcp="$(mcp_tarball_path)"
  say "npm pack: ${mcp#"$ROOT"/}"
  rm -f "$mcp"
  bash www/mcp/pack.sh "$out" >/dev/null
  say "npm pack: target/npm/agentpad-yjs-$(package_version).tgz"
  bash www/yjs/pack.sh "$out" >/dev/null
}

# attempt CMD...: runs CMD in a subshell with errexit in force (unlike `if (CMD)`, where bash
# ignores errexit), and leaves its exit code in ATTEMPT_RC. Never exits the script.
attempt() {
  set +e
  (
    set -e
    "$@"
  )
  ATTEMPT_RC=$?
  set -e
}

# -------------------------------------------------------------------- tests ---

TOTAL_PASSED=0
TOTAL_FAILED=0
LAYER_LINES=()
declare -A LAYER_TOTAL=()
declare -A LAYER_SECONDS=()

# Sums cargo's and wasm-bindgen-test's "test result: ok. N passed; M failed" lines.
counts_cargo() {
  sed -nE 's/.*test result: [A-Za-z]+\. ([0-9]+) passed; ([0-9]+) failed.*/\1 \2/p' "$1" |
    awk '{p+=$1; f+=$2; n++} END {if (n) print p, f}'
}

# node --test's summary: "# pass N" / "# fail N" (tap) or "ℹ pass N" (spec); cancelled counts as failed.
counts_node() {
  awk '
    /^(# |ℹ )pass [0-9]+$/      {p+=$NF; n++}
    /^(# |ℹ )fail [0-9]+$/      {f+=$NF}
    /^(# |ℹ )cancelled [0-9]+$/ {f+=$NF}
    END {if (n) print p, f}' "$1"
}

# A plain "N passed, N failed" line (the consumer test prints one).
counts_plain() {
  sed -nE 's/^([A-Za-z-]+: )?([0-9]+) passed, ([0-9]+) failed.*/\2 \3/p' "$1" | tail -n1
}

record() {
  local name="$1" passed="$2" failed="$3" note="${4:-}"
  TOTAL_PASSED=$((TOTAL_PASSED + passed))
  TOTAL_FAILED=$((TOTAL_FAILED + failed))
  LAYER_TOTAL[$name]=$((passed + failed))
  local took="${LAYER_SECONDS[$name]:+ in ${LAYER_SECONDS[$name]} s}"
  if [ "$failed" -eq 0 ]; then
    LAYER_LINES+=("  ok      $name: $passed passed, $failed failed$took${note:+ ($note)}")
  else
    LAYER_LINES+=("  FAILED  $name: $passed passed, $failed failed$took${note:+ ($note)}")
  fi
}

# run_layer NAME PARSER CMD...: runs CMD (a function or program) with its output shown and kept in
# target/test-logs/NAME.log, then records its counts. A runner that fails without counts, or exits 0
# without running any test, counts as 1 failed.
run_layer() {
  local name="$1" parser="$2"
  shift 2
  local log="$LOG_DIR/$name.log" rc counts passed failed started=$SECONDS
  say "test $name"
  set +e
  (
    set -e
    "$@"
  ) 2>&1 | tee "$log"
  rc=${PIPESTATUS[0]}
  set -e
  counts="$($parser "$log" || true)"
  LAYER_SECONDS[$name]=$((SECONDS - started))
  if [ -z "$counts" ]; then
    record "$name" 0 1 "no test counts in the output; runner exit code $rc; log: ${log#"$ROOT"/}"
    return
  fi
  read -r passed failed <<<"$counts"
  if [ "$rc" -ne 0 ] && [ "$failed" -eq 0 ]; then
    record "$name" "$passed" 1 "runner exited $rc; log: ${log#"$ROOT"/}"
  elif [ "$passed" -eq 0 ] && [ "$failed" -eq 0 ]; then
    record "$name" 0 1 "ran no test; log: ${log#"$ROOT"/}"
  else
    record "$name" "$passed" "$failed"
  fi
}

# A layer that could not run at all (its setup failed): 1 failed, with the reason.
layer_not_run() {
  say "test $1: not run"
  echo "FAILED: $1 not run: $2"
  record "$1" 0 1 "not run: $2"
}

# The integration and unit tests, then the doctests of the public API (`cargo test --tests` does not
# run doctests). Both run; the layer fails if either does.
layer_cargo() {
  local rc=0
  cargo test --tests || rc=$?
  cargo test --doc || rc=$?
  return "$rc"
}

ensure_clippy() {
  if cargo clippy --version >/dev/null 2>&1; then
    say "clippy: present"
  else
    say "clippy: adding the rustup component"
    rustup component add clippy
  fi
  if cargo fmt --version >/dev/null 2>&1; then
    say "rustfmt: present"
  else
    say "rustfmt: adding the rustup component"
    rustup component add rustfmt
  fi
}

# The no-panic lints that src/lib.rs denies outside tests (unwrap, expect, panic!, indexing and
# slicing without a proof), on the core as built natively (with `fs`, so FsStorage is checked
# too) and for wasm: one check per target.
layer_lint() {
  local passed=0 failed=0
  # The native library is linted by the all-targets run below (`internals` only makes two
  # modules public); the wasm32 build has code of its own (src/wasm.rs).
  # Into target/lint: the release wasm build may be running in target/ (prebuild_wasm_start).
  if cargo clippy --target-dir "$TARGET_DIR/lint" --lib --target "$WASM_TARGET"; then passed=$((passed + 1)); else failed=$((failed + 1)); fi
  # Tests too (deny-by-default lints).
  if cargo clippy --target-dir "$TARGET_DIR/lint" --all-targets --features internals; then passed=$((passed + 1)); else failed=$((failed + 1)); fi
  # Formatting, with the committed configs (rustfmt.toml, www/.prettierrc.json): `cargo fmt` and
  # `npx prettier --write <the same paths>` in www/ fix what these report.
  if cargo fmt --check && cargo fmt --check --manifest-path bench/native/Cargo.toml; then passed=$((passed + 1)); else failed=$((failed + 1)); fi
  # prettier is a dev dependency of www/ (pinned in its lockfile); on a fresh machine the lint
  # layer runs before the package build installs it.
  npm_install "$ROOT/www"
  if (cd www && node_modules/.bin/prettier --check src yjs/src playground/src mcp/server.js mcp/stdio.js mcp/bin); then passed=$((passed + 1)); else failed=$((failed + 1)); fi
  echo "lint: $passed passed, $failed failed"
}

# The wasm layer runs through the commands a Rust contributor types: `wasm-pack test --node --
# --test wasm` (tests/wasm.rs) and `wasm-pack test --headless --chrome -- --test wasm_browser` (the
# same tests, configured to run in a browser). Only those two files hold wasm tests: naming them
# skips compiling the library's unit tests and the native-only test files for wasm32 (empty
# binaries there), and the build is unoptimised (WASM_TEST_CONFIG): the optimised dev profile
# is for the native property tests, and seven wasm tests run in a fraction of a second either
# way. chromedriver and the browser come from the machine (PATH, webdriver.json at the crate root).
WASM_TEST_CONFIG=(--config 'profile.dev.opt-level=0')
# Built in target/wasm-test, so that it need not wait for the release build (prebuild_wasm_start).
layer_wasm_node() {
  CARGO_TARGET_DIR="$TARGET_DIR/wasm-test" wasm-pack test --node -- --test wasm "${WASM_TEST_CONFIG[@]}"
}

layer_wasm_chromium() {
  CARGO_TARGET_DIR="$TARGET_DIR/wasm-test" WASM_BINDGEN_TEST_TIMEOUT=120 \
    wasm-pack test --headless --chrome -- --test wasm_browser "${WASM_TEST_CONFIG[@]}"
}

# Only *.test.mjs: Node 20 would run every .mjs under a test/ directory, fixtures included.
# Two test files at a time (Node 20 runs one on a 2-core machine): most of them wait on child
# processes (tsc, the MCP server, the Inspector CLI), and two at once took 184 s to 105 s.
layer_package() { node --test --test-concurrency=2 --test-reporter=spec www/test/*.test.mjs www/mcp/test/*.test.mjs; }

# editbench (bench/edits): the peers' fidelity suites, the frozen cases and a 40-case smoke run
# through the built package. The full benchmark runs in ./build.sh bench.
layer_editbench() {
  npm_install "$ROOT/bench/edits"
  node --test --test-reporter=spec bench/edits/test/*.test.mjs
}

# @agentpad/yjs against real Hocuspocus servers on 127.0.0.1 (in-process and a spawned child).
# chaos.test.mjs runs bench/coedit/chaos.mjs briefly (its dependencies are www/yjs's own).
layer_yjs() { node --test --test-reporter=spec www/yjs/test/*.test.mjs; }

# The packed @agentpad/core + @agentpad/yjs in a scratch project: tsc --strict, a run, the bin.
layer_yjs_consumer() { bash www/yjs/consumer/run.sh "$(tarball_path)" "$(yjs_tarball_path)"; }

layer_consumer() { bash www/consumer/run.sh "$(tarball_path)" "$(mcp_tarball_path)"; }

# The repository stands alone: no reference to files outside it, design notes, seed documents or
# issue numbers (scripts/lint-refs.sh; its last line is "docs-lint: N passed, N failed").
layer_docs_lint() { bash scripts/lint-refs.sh; }

layer_playground() {
  local files=()
  shopt -s nullglob
  files=(www/playground/test/*.test.mjs www/playground/test/*.test.js)
  shopt -u nullglob
  if [ "${#files[@]}" -eq 0 ]; then files=(www/playground/test/); fi
  # Two files at a time, as the package layer: each file serves the page on its own port and
  # launches its own browser, and much of a file's time is waiting on the page.
  node --test --test-concurrency=2 --test-reporter=spec "${files[@]}"
}

run_tests() {
  mkdir -p "$LOG_DIR"
  local toolchain_ok=1 package_ok=0 pack_ok=0 playground_ok=0 chromium_ok=0

  # (0) the repository cites only itself (seconds; no build).
  run_layer docs-lint counts_plain layer_docs_lint

  # (1) the Rust core, natively.
  run_layer cargo counts_cargo layer_cargo

  # (2) + (3) wasm-bindgen tests in Node and in headless Chromium.
  attempt ensure_wasm_target
  [ "$ATTEMPT_RC" = 0 ] || toolchain_ok=0
  attempt ensure_wasm_bindgen
  [ "$ATTEMPT_RC" = 0 ] || toolchain_ok=0
  attempt ensure_wasm_pack
  [ "$ATTEMPT_RC" = 0 ] || toolchain_ok=0
  [ "$toolchain_ok" != 1 ] || TOOLCHAIN_READY=1
  attempt ensure_chromium
  [ "$ATTEMPT_RC" != 0 ] || chromium_ok=1
  attempt ensure_clippy
  [ "$toolchain_ok" != 1 ] || prebuild_wasm_start
  if [ "$ATTEMPT_RC" = 0 ] && [ "$toolchain_ok" = 1 ]; then
    run_layer lint counts_plain layer_lint
  else
    layer_not_run lint "clippy or the wasm target could not be installed"
  fi
  if [ "$toolchain_ok" = 1 ]; then
    run_layer wasm-node counts_cargo layer_wasm_node
    if [ "$chromium_ok" = 1 ]; then
      run_layer wasm-chromium counts_cargo layer_wasm_chromium
      # The browser run must really run the tests, not skip them.
      if [ "${LAYER_TOTAL[wasm-chromium]}" -ne "${LAYER_TOTAL[wasm-node]}" ]; then
        echo "FAILED: wasm-chromium ran ${LAYER_TOTAL[wasm-chromium]} tests, wasm-node ran ${LAYER_TOTAL[wasm-node]}"
        record wasm-chromium-count 0 1 "test counts differ between Node and Chromium"
      fi
    else
      layer_not_run wasm-chromium "chromium/chromedriver could not be installed"
    fi
  else
    layer_not_run wasm-node "rust target, wasm-bindgen-cli or wasm-pack could not be installed"
    layer_not_run wasm-chromium "rust target, wasm-bindgen-cli or wasm-pack could not be installed"
  fi

  # (4) the built npm package.
  say "build: npm package (wasm + dist)"
  attempt build_package
  [ "$ATTEMPT_RC" != 0 ] || package_ok=1
  if [ "$package_ok" = 1 ]; then
    run_layer package counts_node layer_package
    run_layer editbench counts_node layer_editbench
    run_layer yjs counts_node layer_yjs
  else
    layer_not_run package "the package build failed (see above)"
    layer_not_run editbench "the package build failed (see above)"
    layer_not_run yjs "the package build failed (see above)"
  fi

  # (5) a consumer project installing the packed tarball.
  if [ "$package_ok" = 1 ]; then
    attempt pack_only
    [ "$ATTEMPT_RC" != 0 ] || pack_ok=1
  fi
  if [ "$pack_ok" = 1 ]; then
    run_layer consumer counts_plain layer_consumer
    run_layer yjs-consumer counts_plain layer_yjs_consumer
  else
    layer_not_run consumer "no tarball (the package build or npm pack failed)"
    layer_not_run yjs-consumer "no tarball (the package build or npm pack failed)"
  fi

  # (6) the playground, end to end in Chromium.
  if [ ! -f www/playground/package.json ]; then
    layer_not_run playground "www/playground/package.json is missing"
  elif [ ! -d www/playground/test ]; then
    layer_not_run playground "www/playground/test/ is missing"
  else
    if [ "$package_ok" = 1 ]; then
      attempt build_playground
      [ "$ATTEMPT_RC" != 0 ] || playground_ok=1
    fi
    if [ "$playground_ok" = 1 ] && [ "$chromium_ok" = 1 ]; then
      run_layer playground counts_node layer_playground
    else
      layer_not_run playground "the playground build failed or chromium is missing"
    fi
  fi

  echo
  echo "==> summary"
  printf '%s\n' "${LAYER_LINES[@]}"
  echo "$TOTAL_PASSED passed, $TOTAL_FAILED failed"
  [ "$TOTAL_FAILED" -eq 0 ]
}

# -------------------------------------------------------------------- bench ---
# ./build.sh bench: native criterion benches (bench/native/) and the wasm-vs-JS harness (bench/speed/) on
# the same seeded documents (AGENTPAD_BENCH_DOCS, default "code-1MB,code-10MB,cjk-1MB"), merged into
# target/bench/report.md and report.json; the co-editing load and chaos runs (bench/coedit/) and
# editbench (bench/edits/). Not part of ./build.sh test. The layout: bench/README.md.

BENCH_DIR="$TARGET_DIR/bench"

bench_native() {
  say "cargo bench: native matching, session and diff benches (criterion; the first build takes a few minutes)"
  AGENTPAD_BENCH_OUT="$BENCH_DIR" CRITERION_HOME="$TARGET_DIR/criterion" \
    cargo bench --manifest-path bench/native/Cargo.toml --target-dir "$TARGET_DIR" --bench matching --bench session --bench diff
  say "cargo bench: bytes held by kept versions, 40 external changes and 40 commits of 4 MB (bench/native/versions_memory.rs)"
  AGENTPAD_BENCH_OUT="$BENCH_DIR" cargo bench --manifest-path bench/native/Cargo.toml --target-dir "$TARGET_DIR" --bench versions_memory
}

bench_js() {
  say "node: wasm (through the package) vs JS peers, bench/speed/run.mjs"
  # bench/speed has its own package.json (@agentpad/core as file:../../www, the JS peers pinned).
  npm_install "$ROOT/bench/speed"
  node bench/speed/run.mjs --out "$BENCH_DIR"
}

run_bench() {
  local since
  mkdir -p "$BENCH_DIR"
  rm -f "$BENCH_DIR"/report.md "$BENCH_DIR"/report.json "$BENCH_DIR"/js-results.json "$BENCH_DIR"/native-docs-*.json \
    "$BENCH_DIR"/native-session-needles.json
  say "build: npm package (release wasm + dist)"
  build_package
  since="$(date +%s%3N)"
  bench_native
  bench_js
  # The browser entry's two modules against the single one, side by side in headless Chromium.
  say "chromium: the split browser entry vs the unsplit module (bench/speed/split-browser.mjs) -> split-browser.md"
  node bench/speed/split-browser.mjs --runs 9 | tee "$BENCH_DIR/split-browser.md"
  node bench/speed/split-browser.mjs --runs 9 --network 10mbit | tee -a "$BENCH_DIR/split-browser.md"
  say "node: co-editing load, 20 agents + 5 people on 3 documents for 30 s (bench/coedit/load.mjs)"
  node bench/coedit/load.mjs --out "$BENCH_DIR"
  say "node: co-editing chaos, 3 agents + 2 people for 60 s, the server SIGKILLed at random moments (bench/coedit/chaos.mjs)"
  node bench/coedit/chaos.mjs --seconds 60 --out "$BENCH_DIR"
  say "report: merging the native, wasm and JS results"
  echo
  node bench/speed/report.mjs --out "$BENCH_DIR" --criterion "$TARGET_DIR/criterion" --since "$since" \
    --wasm "$ROOT/www/pkg/agentpad_bg.wasm"
  echo
  say "report: ${BENCH_DIR#"$ROOT"/}/report.md and report.json"
  say "editbench: agentpad and ten peers on the frozen edit cases (bench/edits): v2 (test), then v1 (dev)"
  npm_install "$ROOT/bench/edits"
  # --real: aider-chat and openhands-aci (PyPI) and the Codex binary (npm) are installed once under
  # target/editbench-peers/ and run in their rows, beside their emulations (docs/editbench.md#real-code-runs).
  node bench/edits/src/run.mjs --out "$BENCH_DIR" --version v2 --real
  node bench/edits/src/run.mjs --out "$BENCH_DIR" --version v1 --real
  say "editbench real failures: calls agents really sent that failed, the agent's own retry as the intent (its own row)"
  node bench/edits/src/run.mjs --out "$BENCH_DIR" --version real --real
  say "editbench lazy snippets: multi-region sketches with placeholders, one memo_replace each (lazy-test, lazy-dev)"
  node bench/edits/src/lazy/run.mjs --out "$BENCH_DIR"
  say "report: ${BENCH_DIR#"$ROOT"/}/editbench-v2.md, editbench-v1.md, editbench-real.md and editbench-lazy.md (and .json)"
}

# --------------------------------------------------------------------- fuzz ---
# ./build.sh fuzz [TARGET]: libFuzzer (cargo fuzz) on each target of fuzz/fuzz_targets/, one after
# another, FUZZ_SECONDS each (default 1800), or on TARGET alone. The harnesses are fuzz/harness/;
# src/internal_tests/fuzz_replay.rs (run by ./build.sh test) replays every input kept in
# fuzz/regressions/<target>/. A crash stops libFuzzer: the run is restarted on the grown corpus
# until the time is up (at most FUZZ_MAX_CRASHES crashes per target, default 5), and every crash
# input is listed at the end. To keep one: `cargo +nightly fuzz tmin -s none TARGET FILE`, copy
# the minimised file into fuzz/regressions/TARGET/, fix the defect. Not part of ./build.sh test.

FUZZ_DIR="$ROOT/fuzz"
FUZZ_TARGETS=(tool_calls matcher span_markers line_keys markdown_validator)
FUZZ_CARGO=()
# No sanitizer: the crate has no unsafe code and ASan halves the speed. cargo fuzz still builds
# with debug assertions and overflow checks.
FUZZ_FLAGS=(--sanitizer none)

ensure_cargo_fuzz() {
  if cargo fuzz --version >/dev/null 2>&1; then
    say "cargo-fuzz: $(cargo fuzz --version 2>/dev/null | awk '{print $2}') present"
  else
    say "cargo-fuzz: installing (takes a few minutes once)"
    cargo install cargo-fuzz --locked
  fi
}

# cargo fuzz passes nightly-only flags (-Z..., the sancov passes libFuzzer needs). Nightly when
# rustup has it or can install it; otherwise stable with RUSTC_BOOTSTRAP=1, which unlocks the
# same flags (tested with stable 1.95: `RUSTC_BOOTSTRAP=1 cargo fuzz run -s none line_keys`
# builds and fuzzes).
ensure_fuzz_toolchain() {
  if rustup run nightly rustc --version >/dev/null 2>&1; then
    say "rust toolchain: nightly present ($(rustup run nightly rustc --version))"
    FUZZ_CARGO=(cargo +nightly)
  elif say "rust toolchain: installing nightly" && rustup toolchain install nightly --profile minimal; then
    FUZZ_CARGO=(cargo +nightly)
  else
    say "rust toolchain: nightly could not be installed; using stable with RUSTC_BOOTSTRAP=1"
    FUZZ_CARGO=(env RUSTC_BOOTSTRAP=1 cargo)
  fi
}

# Executions in LOG: per libFuzzer run (each starts with `INFO: Seed:`), its final
# `stat::number_of_executed_units`, or its last `#N` status line when it stopped without stats.
fuzz_execs() {
  awk '
    /^INFO: Seed:/ {if (!have) sum += last; have = 0; last = 0}
    /^#[0-9]+/ {n = $1; sub(/^#/, "", n); last = n + 0}
    /^stat::number_of_executed_units:/ {sum += $2; have = 1}
    END {if (!have) sum += last; print sum + 0}' "$1"
}

fuzz_one() {
  local target="$1" seconds="$2" log="$3" corpus artifacts regressions start now left rc execs elapsed runs=0 crashes=0
  local max_crashes="${FUZZ_MAX_CRASHES:-5}"
  corpus="$FUZZ_DIR/corpus/$target"
  artifacts="$FUZZ_DIR/artifacts/$target"
  regressions="$FUZZ_DIR/regressions/$target"
  mkdir -p "$corpus" "$artifacts"
  : >"$log"
  touch "$log.start"
  start="$(date +%s)"
  while :; do
    now="$(date +%s)"
    left=$((seconds - (now - start)))
    [ "$left" -gt 0 ] || break
    runs=$((runs + 1))
    say "fuzz $target: run $runs, ${left}s left (log: ${log#"$ROOT"/})"
    set +e
    # New inputs go to the first corpus directory; the kept regressions seed every run.
    (cd "$ROOT" && "${FUZZ_CARGO[@]}" fuzz run "${FUZZ_FLAGS[@]}" "$target" "$corpus" "$regressions" -- \
      -max_total_time="$left" -timeout=20 -print_final_stats=1) >>"$log" 2>&1
    rc=$?
    set -e
    [ "$rc" -ne 0 ] || break
    crashes="$(find "$artifacts" -type f -newer "$log.start" | wc -l)"
    if [ "$crashes" -eq 0 ]; then
      tail -n 20 "$log" >&2
      die "cargo fuzz run $target failed (exit $rc) without a crash input; see ${log#"$ROOT"/}"
    fi
    say "fuzz $target: crash ($crashes so far)"
    [ "$crashes" -lt "$max_crashes" ] || break
  done
  crashes="$(find "$artifacts" -type f -newer "$log.start" | wc -l)"
  execs="$(fuzz_execs "$log")"
  elapsed=$(($(date +%s) - start))
  [ "$elapsed" -gt 0 ] || elapsed=1
  # exec/s over the wall time, rebuilds included (cargo fuzz run rebuilds when src/ changed).
  FUZZ_SUMMARY+=("$(printf '  %-20s %12s execs  %7s exec/s  %3s crashes  %6s corpus files  %s runs in %ss' \
    "$target" "$execs" "$((execs / elapsed))" "$crashes" "$(find "$corpus" -type f | wc -l)" "$runs" "$elapsed")")
  say "fuzz $target: done: $execs executions, $crashes crashes"
  while IFS= read -r f; do FUZZ_CRASH_FILES+=("${f#"$ROOT"/}"); done < <(find "$artifacts" -type f -newer "$log.start" | sort)
  rm -f "$log.start"
}

run_fuzz() {
  local seconds="${FUZZ_SECONDS:-1800}" targets=() t log_dir="$TARGET_DIR/fuzz-logs"
  [[ "$seconds" =~ ^[0-9]+$ ]] && [ "$seconds" -gt 0 ] || die "FUZZ_SECONDS must be a positive number of seconds, got '$seconds'"
  if [ -n "${1:-}" ]; then
    [[ " ${FUZZ_TARGETS[*]} " == *" $1 "* ]] || die "unknown fuzz target '$1'; targets: ${FUZZ_TARGETS[*]}"
    targets=("$1")
  else
    targets=("${FUZZ_TARGETS[@]}")
  fi
  FUZZ_SUMMARY=()
  FUZZ_CRASH_FILES=()
  if [ -z "${1:-}" ]; then
    # The retrying-model property test at the issue's scale (docs/decisions.md#no-dead-ends-for-a-model-that-retries);
    # cargo test runs 10,000 cases; here ten times as many.
    say "retry_model: ${RETRY_CASES:-100000} cases (release)"
    (cd "$ROOT" && PROPTEST_RNG_SEED="${PROPTEST_RNG_SEED:-$RANDOM$RANDOM}" PROPTEST_CASES="${RETRY_CASES:-100000}" cargo test --release --test engine retry_model::)
    # The never-wrong generator (docs/decisions.md#a-near-miss-pick-completes-what-the-region-already-changed):
    # cargo test runs 10,000 cases; here ten times as many.
    say "never_wrong: ${NEVER_WRONG_CASES:-100000} cases (release)"
    (cd "$ROOT" && NEVER_WRONG_CASES="${NEVER_WRONG_CASES:-100000}" cargo test --release --test engine never_wrong::)
  fi
  ensure_fuzz_toolchain
  ensure_cargo_fuzz
  mkdir -p "$log_dir"
  say "cargo fuzz: build ${targets[*]} (release, debug assertions; the first build takes a few minutes)"
  for t in "${targets[@]}"; do
    (cd "$ROOT" && "${FUZZ_CARGO[@]}" fuzz build "${FUZZ_FLAGS[@]}" "$t")
  done
  for t in "${targets[@]}"; do
    fuzz_one "$t" "$seconds" "$log_dir/$t.log"
  done
  echo
  echo "==> fuzz summary (${seconds}s per target; logs in ${log_dir#"$ROOT"/})"
  printf '%s\n' "${FUZZ_SUMMARY[@]}"
  if [ "${#FUZZ_CRASH_FILES[@]}" -eq 0 ]; then
    echo "no crashes; crash inputs would land in fuzz/artifacts/<target>/"
  else
    echo "crash inputs (fuzz/artifacts/<target>/): minimise with cargo fuzz tmin, keep in fuzz/regressions/<target>/"
    printf '  %s\n' "${FUZZ_CRASH_FILES[@]}"
    return 1
  fi
}

usage() {
  cat <<'EOF'
usage: ./build.sh <command>
  serve   build the core to wasm, the npm package and the playground; serve on 127.0.0.1 (PORT, default 5173)
  test    run every test layer (docs-lint, cargo, lint, wasm in Node and Chromium, package, consumer, playground)
  pack    build the npm tarball into target/npm/
  bench   benchmarks: native (criterion) and wasm vs JS peers in Node; writes target/bench/report.md
  split-probe  what a profile-guided split of the wasm would ship (wasm-split); a measurement, not part of test
  fuzz [TARGET]  cargo fuzz each target (or TARGET) for FUZZ_SECONDS (default 1800); not part of test
  test-scale  two Hocuspocus instances + Redis (Debian redis-server): an agent on one and a person
          on the other converge; opt-in, not part of test
EOF
}

cmd="${1:-}"
case "$cmd" in
  test)
    run_tests
    ;;
  pack)
    build_package
    pack_only
    tarball_path
    ;;
  bench)
    run_bench
    ;;
  split-probe)
    build_package
    node bench/speed/wasm-split.mjs --workload edit
    node bench/speed/wasm-split.mjs --workload exact
    node bench/speed/wasm-split.mjs --workload read
    ;;
  fuzz)
    run_fuzz "${2:-}"
    ;;
  test-scale)
    build_package
    command -v redis-server >/dev/null || {
      say "redis-server: installing Debian redis-server"
      as_root apt-get update
      as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y redis-server
    }
    # The script starts its own redis-server on a free port (--save '') and kills it by pid.
    # Two instances, then three (what a third one costs: docs/scale.md).
    node bench/coedit/scale.mjs --redis-server "$(command -v redis-server)" --instances 2
    node bench/coedit/scale.mjs --redis-server "$(command -v redis-server)" --instances 3
    ;;
  serve)
    [ -f www/playground/package.json ] ||
      die "www/playground/package.json does not exist yet: there is no playground to serve"
    build_package
    build_playground
    port="${PORT:-5173}"
    # The embedded Hocuspocus (docs/co-editing.md): documents in a temp folder, stopped with serve.
    collab_dir="$(mktemp -d "${TMPDIR:-/tmp}/agentpad-collab.XXXXXX")"
    node www/yjs/dist/server-cli.js --port "${COLLAB_PORT:-0}" --dir "$collab_dir" >"$collab_dir.log" 2>&1 &
    collab_pid=$!
    trap 'kill "$collab_pid" 2>/dev/null; rm -rf "$collab_dir" "$collab_dir.log"' EXIT
    for _ in $(seq 1 100); do grep -q '^ready ' "$collab_dir.log" 2>/dev/null && break; sleep 0.1; done
    grep -q '^ready ' "$collab_dir.log" || die "the co-editing server did not start: $(cat "$collab_dir.log")"
    collab_url="$(sed -n 's/^ready //p' "$collab_dir.log")"
    say "co-editing (Hocuspocus): $collab_url"
    # The co-editing page offers this server when opened without one.
    printf '{ "server": "%s" }\n' "$collab_url" >"$ROOT/target/playground/collab.json" # where vite.config.ts builds it
    say "serve: http://127.0.0.1:$port/ (co-editing: http://127.0.0.1:$port/coedit.html#server=$collab_url&room=demo)"
    npm --prefix www/playground run preview -- --host 127.0.0.1 --port "$port" --strictPort
    ;;
  -h | --help | help)
    usage
    ;;
  "")
    usage >&2
    exit 2
    ;;
  *)
    echo "build.sh: unknown command: $cmd" >&2
    usage >&2
    exit 2
    ;;
esac
