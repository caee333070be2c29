// The shell's types of what crosses the wasm boundary are the generated ones
// (src/generated/boundary.ts, rendered from the Rust by src/typescript.rs; a cargo test fails when
// the committed file is stale). This shows the other half: once regenerated, a field renamed in
// Rust fails the package's own compile wherever the shell uses it. A copy of src/ is compiled
// (`tsc --noEmit`, the package's tsconfig) as it is, then with renames planted in boundary.ts as
// regenerating would write them. Needs www/pkg (./build.sh pack).
// Run: node --test test/generated-types.test.mjs
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import test from "node:test";

const www = fileURLToPath(new URL("..", import.meta.url));
const tsc = join(www, "node_modules/typescript/bin/tsc");

/** Compiles a copy of src/ whose boundary.ts is `edit(original)`; returns tsc's status and output. */
function compile(edit) {
  const dir = mkdtempSync(join(tmpdir(), "agentpad-gen-"));
  try {
    cpSync(join(www, "src"), join(dir, "src"), { recursive: true });
    cpSync(join(www, "pkg/agentpad.d.ts"), join(dir, "pkg/agentpad.d.ts"));
    // package.json: its "type": "module" makes src/ ES modules, as in the package.
    for (const file of ["tsconfig.json", "package.json"]) cpSync(join(www, file), join(dir, file));
    symlinkSync(join(www, "node_modules"), join(dir, "node_modules"), "dir");
    const boundary = join(dir, "src/generated/boundary.ts");
    writeFileSync(boundary, edit(readFileSync(boundary, "utf8")));
    const r = spawnSync(process.execPath, [tsc, "-p", dir, "--noEmit", "--pretty", "false"], { encoding: "utf8" });
    return { status: r.status, out: `${r.stdout}${r.stderr}` };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** `text` with `from` replaced by `to`, failing when `from` is not there (the plant must land). */
function plant(text, from, to) {
  assert.ok(text.includes(from), `boundary.ts no longer holds ${JSON.stringify(from)}: update the plant`);
  return text.replace(from, to);
}

test("src/ compiles against the generated boundary types as committed", () => {
  const r = compile((ts) => ts);
  assert.equal(r.status, 0, r.out);
});

test("a field renamed in the Rust fails the shell's compile where it is used", () => {
  const r = compile((ts) => {
    // Read by the shell: a write request's version (PersistRequest.expected_version).
    ts = plant(ts, "  expected_version: string;\n", "  expected_ver: string;\n");
    // Written by the shell: a save report's version (PersistReport, the `ok: true` member).
    ts = plant(ts, "      /** The version storage holds now. */\n      version: string;\n", "      /** The version storage holds now. */\n      saved_version: string;\n");
    // A step's tag (Step, `kind: "persist"`).
    ts = plant(ts, '| { "kind": "persist"; requests: Array<PersistRequest> }', '| { "kind": "write"; requests: Array<PersistRequest> }');
    // Option keys are not here: the shell writes them from CORE_OPTIONS, generated with the
    // keys Config::from_json reads from the same table (src/workspace/options.rs).
    return ts;
  });
  assert.notEqual(r.status, 0, "tsc accepted the renamed fields");
  const errors = r.out.split("\n").filter((l) => l.includes("error TS"));
  for (const [what, pattern] of [
    ["the read of expected_version", /src\/workspace\.ts\(\d+,\d+\): error TS\d+: Property 'expected_version' does not exist on type 'PersistRequest'/],
    ["the report with version", /src\/workspace\.ts\(\d+,\d+\): error TS\d+: .*'version' does not exist in type '\{ path: string; ok: true; saved_version: string;[^}]*\}'/],
    ["the step kind compared", /src\/workspace\.ts\(\d+,\d+\): error TS\d+: .*'"persist"' have no overlap/],
  ]) {
    assert.ok(errors.some((l) => pattern.test(l)), `no error for ${what}:\n${errors.join("\n")}`);
  }
});
