// The consumer layer's type matrix: in the scratch project that installed the packed
// @agentpad/core (run.sh), the documentation's snippets that need nothing but the package are
// compiled — strict, skipLibCheck off, so the package's own .d.ts are checked too — under each
// moduleResolution (node16, nodenext, bundler) with each TypeScript (5.0, the oldest 5.x; 5.9;
// 7, the Go port published as @typescript/native-preview), from the tsconfig README.md shows.
// The node16/nodenext cells are Node projects (@types/node); the bundler cells are browser-side
// ones (lib DOM, no @types), which also shows the .d.ts need neither. A `using` declaration is
// compiled where TypeScript has it (5.2+). Then a bare `tsc --strict` on the Quick start, with
// no tsconfig at all: whatever it reports (TypeScript 5 compiles to CommonJS for ES5, where
// top-level await is an error: the README says so), nothing may come from the package's .d.ts.
// Usage: node types-matrix.mjs <scratch project>   Last line: "consumer-types: N passed, N failed".
import { spawn } from "node:child_process";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { snippets, tsconfigBlock } from "../scripts/snippets.mjs";

const project = process.argv[2];
if (project === undefined) {
  process.stderr.write("usage: node types-matrix.mjs <scratch project with @agentpad/core and the compilers installed>\n");
  process.exit(2);
}
const root = fileURLToPath(new URL("../..", import.meta.url));
const DOCS = ["README.md", "www/README.md", "www/mcp/README.md", "docs/workflow.md"];
const readme = readFileSync(join(root, "README.md"), "utf8");
const base = tsconfigBlock("README.md", readme).compilerOptions;

const COMPILERS = [
  { name: "TS 5.0", bin: "node_modules/typescript-5.0/bin/tsc", hasUsing: false },
  { name: "TS 5.9", bin: "node_modules/typescript/bin/tsc", hasUsing: true },
  // TypeScript 7 refuses files on the command line beside a tsconfig.json unless told to ignore it.
  { name: "TS 7", bin: "node_modules/@typescript/native-preview/bin/tsgo", hasUsing: true, bare: ["--ignoreConfig"] },
];
const RESOLUTIONS = {
  node16: { module: "Node16", moduleResolution: "Node16", lib: ["ES2022"], types: ["node"] },
  nodenext: { module: "NodeNext", moduleResolution: "NodeNext", lib: ["ES2022"], types: ["node"] },
  bundler: { module: "ESNext", moduleResolution: "Bundler", lib: ["ES2022", "DOM"], types: [] },
};

// Only the blocks whose imports are @agentpad/core (and, in a Node project, node: modules): the
// SDK snippets are compiled by the package layer (test/docs.test.mjs), where the SDKs are installed.
const imports = (code) => [...code.matchAll(/^import\s[^;]*?from\s+"([^"]+)"/gm)].map((m) => m[1]);
const all = DOCS.flatMap((f) => snippets(f, readFileSync(join(root, f), "utf8"))).filter((s) =>
  imports(s.code).every((m) => m === "@agentpad/core" || m.startsWith("node:")),
);
const USING = 'import { MemoryStorage, Workspace } from "@agentpad/core";\n\nusing ws = await Workspace.create({ storage: new MemoryStorage({ "a.md": "x\\n" }) });\nws.text();\n';

const work = join(project, "types-matrix");
rmSync(work, { recursive: true, force: true });
mkdirSync(work);
// Each block is its own module (export {}: top-level await needs one).
for (const s of all) writeFileSync(join(work, `${s.name}.ts`), `${s.code}export {};\n`);
writeFileSync(join(work, "using.ts"), USING);

/** One compiler run; the cells of a row run side by side (a few seconds each, on every core). */
const tsc = (compiler, args) =>
  new Promise((resolve) => {
    const child = spawn(process.execPath, [join(project, compiler.bin), ...args, "--pretty", "false"], { cwd: project });
    let output = "";
    child.stdout.on("data", (d) => (output += d));
    child.stderr.on("data", (d) => (output += d));
    child.on("error", (e) => resolve({ status: -1, output: String(e) }));
    child.on("close", (status) => resolve({ status, output: output.trim() }));
  });

let passed = 0;
let failed = 0;
const table = [];
for (const compiler of COMPILERS) {
  const version = (await tsc(compiler, ["--version"])).output;
  const row = [`${compiler.name} (${version.replace(/^Version /, "")})`];
  const cells = Object.entries(RESOLUTIONS).map(([resolution, options]) => {
    const nodeOnly = resolution === "bundler" ? (s) => !imports(s.code).some((m) => m.startsWith("node:")) : () => true;
    const files = all.filter(nodeOnly).map((s) => `types-matrix/${s.name}.ts`);
    if (compiler.hasUsing) files.push("types-matrix/using.ts");
    const config = `types-matrix/tsconfig.${resolution}.${compiler.name.replace(/\W+/g, "")}.json`;
    const compilerOptions = { ...base, ...options, noEmit: true, skipLibCheck: false };
    writeFileSync(join(project, config), JSON.stringify({ compilerOptions, files: files.map((f) => `../${f}`) }, null, 2));
    return tsc(compiler, ["-p", config]).then((r) => ({ resolution, files, r }));
  });
  // The Quick start with no tsconfig: nothing may come from the package's declarations.
  const quick = all.find((s) => s.file === "README.md" && s.code.includes("MemoryStorage"));
  const bareRun = tsc(compiler, [...(compiler.bare ?? []), "--strict", "--noEmit", `types-matrix/${quick.name}.ts`]);
  for (const { resolution, files, r } of await Promise.all(cells)) {
    if (r.status === 0) {
      passed++;
      row.push(`ok (${files.length} files)`);
    } else {
      failed++;
      row.push("FAILED");
      console.log(`FAILED: ${compiler.name} × ${resolution}:\n${r.output}`);
    }
  }
  const bare = await bareRun;
  const errors = bare.output.split("\n").filter((l) => / error TS\d+/.test(l));
  const notTheSnippets = errors.filter((l) => !l.startsWith("types-matrix/"));
  if (bare.status === 0 || (errors.length > 0 && notTheSnippets.length === 0)) {
    passed++;
    row.push(bare.status === 0 ? "ok" : `ok (${errors.length} errors, all in the snippet: ${[...new Set(errors.map((l) => /TS\d+/.exec(l)[0]))].join(", ")})`);
  } else {
    failed++;
    row.push("FAILED");
    console.log(`FAILED: bare ${compiler.name} --strict on the Quick start reports errors outside it (the package's .d.ts?):\n${bare.output}`);
  }
  table.push(row);
}
console.log(`| TypeScript | ${Object.keys(RESOLUTIONS).join(" | ")} | bare tsc --strict (Quick start) |`);
for (const row of table) console.log(`| ${row.join(" | ")} |`);
console.log(`(${all.length} snippets that need only @agentpad/core, from ${DOCS.join(", ")})`);
console.log(`consumer-types: ${passed} passed, ${failed} failed`);
