// The documentation is checked against the BUILT package (./build.sh pack builds it):
//
// 1. docs/tools.md is what www/scripts/gen-tools-doc.mjs generates from the tool registry today
//    (regenerated in memory; a stale file fails with the command that rewrites it).
// 2. Every TypeScript block (```ts, ```typescript) of README.md, www/README.md,
//    www/mcp/README.md and docs/*.md compiles under `tsc --strict` in a scratch project where
//    @agentpad/core and the SDKs are linked into node_modules, as a user's project would see them.
//    The HTML comment on the line before a block says what else happens to it:
//      (none)                          compiled, then run with node (it must exit 0)
//      <!-- snippet: compile-only … --> compiled only (needs an API key, a network, a server on stdio)
//      <!-- snippet: browser … -->      compiled against the browser entry (moduleResolution bundler), not run
// 3. Every "docs/<file>.md#<anchor>" cited in comments and docs names a heading that exists.
// Run: node --test www/test/docs.test.mjs
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { after, before, test } from "node:test";
import { fileURLToPath } from "node:url";
import { TOOLS_DOC, generateToolsDoc } from "../scripts/gen-tools-doc.mjs";
import { snippets } from "../scripts/snippets.mjs";

const www = fileURLToPath(new URL("..", import.meta.url));
const root = join(www, "..");
const DOCS = [
  "README.md",
  "www/README.md",
  "www/mcp/README.md",
  ...readdirSync(join(root, "docs"))
    .filter((f) => f.endsWith(".md"))
    .sort()
    .map((f) => `docs/${f}`),
];

const ALL = DOCS.flatMap((f) => snippets(f, readFileSync(join(root, f), "utf8")));

let scratch;
const compiled = {}; // mode group → { status, output }

/**
 * node_modules of the scratch project: @agentpad/core → www/, @agentpad/yjs → www/yjs/ (its own
 * dependencies resolve from there), every other package → www/node_modules.
 */
function linkModules(dir) {
  const nm = join(dir, "node_modules");
  mkdirSync(join(nm, "@agentpad"), { recursive: true });
  symlinkSync(www, join(nm, "@agentpad", "core"), "dir");
  symlinkSync(join(www, "yjs"), join(nm, "@agentpad", "yjs"), "dir");
  for (const entry of readdirSync(join(www, "node_modules"))) {
    if (entry.startsWith(".") || entry === "@agentpad") continue;
    symlinkSync(join(www, "node_modules", entry), join(nm, entry), "dir");
  }
}

function tsc(project) {
  const r = spawnSync(process.execPath, [join(www, "node_modules/typescript/bin/tsc"), "-p", project, "--pretty", "false"], { cwd: scratch, encoding: "utf8" });
  return { status: r.status, output: `${r.stdout}${r.stderr}` };
}

const BASE = {
  target: "ES2022",
  lib: ["ES2023", "DOM"],
  strict: true,
  noUncheckedIndexedAccess: true,
  verbatimModuleSyntax: true,
  skipLibCheck: true,
  types: ["node"],
};

before(() => {
  scratch = mkdtempSync(join(tmpdir(), "agentpad-docs-"));
  writeFileSync(join(scratch, "package.json"), JSON.stringify({ name: "docs-snippets", private: true, type: "module" }));
  linkModules(scratch);
  for (const group of ["node", "browser"]) {
    const files = ALL.filter((s) => (s.mode === "browser") === (group === "browser"));
    mkdirSync(join(scratch, group));
    for (const s of files) writeFileSync(join(scratch, group, `${s.name}.ts`), s.code);
    const compilerOptions =
      group === "node"
        ? { ...BASE, module: "NodeNext", moduleResolution: "NodeNext", outDir: "out-node", rootDir: "node" }
        : { ...BASE, module: "ESNext", moduleResolution: "Bundler", noEmit: true };
    writeFileSync(join(scratch, `tsconfig.${group}.json`), JSON.stringify({ compilerOptions, files: files.map((s) => `${group}/${s.name}.ts`) }));
    compiled[group] = files.length ? tsc(`tsconfig.${group}.json`) : { status: 0, output: "" };
  }
});

after(() => rmSync(scratch, { recursive: true, force: true }));

test("docs/tools.md is what www/scripts/gen-tools-doc.mjs generates from the registry", async () => {
  const expected = await generateToolsDoc();
  const actual = readFileSync(TOOLS_DOC, "utf8");
  if (actual !== expected) {
    const a = actual.split("\n");
    const e = expected.split("\n");
    let i = 0;
    while (i < a.length && a[i] === e[i]) i++;
    assert.fail(`docs/tools.md is stale from line ${i + 1}: ${JSON.stringify(a[i])} but the registry gives ${JSON.stringify(e[i])}. Run: node www/scripts/gen-tools-doc.mjs`);
  }
});

test("the documents hold TypeScript snippets to check", () => {
  // A guard against the extractor finding nothing (a renamed fence would silently skip them all).
  for (const f of ["README.md", "www/README.md", "docs/workflow.md"]) {
    assert.ok(ALL.some((s) => s.file === f), `no TypeScript block found in ${f}`);
  }
  assert.ok(ALL.some((s) => s.mode === "run"), "no runnable snippet");
});

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens. */
function slug(heading) {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}_\- ]/gu, "")
    .replaceAll(" ", "-");
}

function anchorsOf(file) {
  const text = readFileSync(file, "utf8").replace(/^(`{3,}|~{3,})[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, "");
  return new Set([...text.matchAll(/^#{1,6} (.*)$/gm)].map((m) => slug(m[1])));
}

function walk(dir, out = []) {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    if (["node_modules", "pkg", "dist", "target", "corpus", "artifacts", "generated"].includes(e.name) || e.name.startsWith(".")) continue;
    const p = join(dir, e.name);
    if (e.isDirectory()) walk(p, out);
    else if (/\.(rs|ts|mjs|js|md|css|html|sh)$/.test(e.name)) out.push(p);
  }
  return out;
}

test("every docs/…md#anchor cited in comments and docs names a heading that exists", () => {
  const sources = ["src", "tests", "bench/native", "bench/speed", "bench/coedit", "fuzz", "examples", "www", "docs", "scripts"].flatMap((d) => {
    try {
      return walk(join(root, d));
    } catch {
      return [];
    }
  });
  sources.push(join(root, "README.md"));
  const bad = [];
  const cache = new Map();
  for (const file of sources) {
    const text = readFileSync(file, "utf8");
    // "docs/<file>.md#<anchor>" anywhere, and "(<file>.md#<anchor>)" links inside docs/.
    const cites = [...text.matchAll(/\bdocs\/([a-z0-9-]+\.md)#([\p{L}\p{N}_-]+)/gu)].map((m) => [join(root, "docs", m[1]), m[2], m[0]]);
    if (file.startsWith(join(root, "docs"))) {
      for (const m of text.matchAll(/\]\(([a-z0-9-]+\.md)?#([\p{L}\p{N}_-]+)\)/gu)) cites.push([m[1] ? join(root, "docs", m[1]) : file, m[2], m[0]]);
    }
    for (const [target, anchor, as] of cites) {
      if (!cache.has(target)) {
        let anchors = null;
        try {
          anchors = anchorsOf(target);
        } catch {}
        cache.set(target, anchors);
      }
      const anchors = cache.get(target);
      if (anchors === null) bad.push(`${relative(root, file)}: ${as}: ${relative(root, target)} does not exist`);
      else if (!anchors.has(anchor)) bad.push(`${relative(root, file)}: ${as}: no heading with the anchor #${anchor}`);
    }
  }
  assert.deepEqual(bad, []);
});

for (const s of ALL) {
  test(`${s.file}:${s.line} compiles (tsc --strict${s.mode === "browser" ? ", browser entry" : ""})`, () => {
    const group = s.mode === "browser" ? "browser" : "node";
    const own = compiled[group].output
      .split("\n")
      .filter((l) => l.includes(`${s.name}.ts`))
      .map((l) => l.replace(/^.*?\.ts\((\d+),(\d+)\)/, (_, line, col) => `${s.file}:${s.line + Number(line)}:${col}`));
    assert.deepEqual(own, [], `${s.file}:${s.line}: the snippet does not compile:\n${own.join("\n")}`);
    if (compiled[group].status !== 0 && own.length === 0) {
      // tsc failed on something that is no snippet's line (a config problem): show it.
      const other = compiled[group].output.split("\n").filter((l) => l.trim() && !ALL.some((x) => l.includes(`${x.name}.ts`)));
      assert.deepEqual(other, [], `tsc failed outside the snippets:\n${other.join("\n")}`);
    }
  });
  if (s.mode === "run") {
    test(`${s.file}:${s.line} runs`, () => {
      const js = join(scratch, "out-node", `${s.name}.js`);
      const cwd = mkdtempSync(join(scratch, "run-"));
      const r = spawnSync(process.execPath, [js], { cwd, encoding: "utf8", timeout: 30_000 });
      assert.equal(r.status, 0, `${s.file}:${s.line} exited ${r.status}${r.signal ? ` (${r.signal})` : ""}:\n${r.stderr}${r.stdout}\n(${relative(root, js)})`);
    });
  }
}
