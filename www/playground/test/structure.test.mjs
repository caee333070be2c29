// The playground's module structure (docs/architecture.md#the-playground), read with the
// TypeScript compiler API: panes (src/page/*-pane.ts) import no other pane and not the session,
// only the store, the page's shared helpers (dom.ts, derive.ts), modules outside src/page/ and
// packages; only src/main.ts mounts panes and makes the session; no module of the page is
// imported for its side effects (CSS aside); src/ has no import cycle; and no string of the page
// (src/ but the co-editing view) spells a tool name with the prefix written out.
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import ts from "typescript";
import { playground } from "./lib/load-ts.mjs";

const src = path.join(playground, "src");
const rel = (f) => path.relative(playground, f).split(path.sep).join("/");

function tsFiles(dir) {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((d) => {
    const p = path.join(dir, d.name);
    if (d.isDirectory()) return tsFiles(p);
    return d.name.endsWith(".ts") && !d.name.endsWith(".d.ts") ? [p] : [];
  });
}

/** A relative specifier as the file it names (.ts added), or null for a package or an asset. */
function resolve(from, spec) {
  if (!spec.startsWith(".")) return null;
  const base = path.resolve(path.dirname(from), spec);
  for (const f of [base, `${base}.ts`, path.join(base, "index.ts")]) if (f.endsWith(".ts") && fs.existsSync(f)) return f;
  return null;
}

/** Every import and re-export of `file`: the specifier, the file it names, type-only or not, side effect only or not. */
function importsOf(file) {
  const sf = ts.createSourceFile(file, fs.readFileSync(file, "utf8"), ts.ScriptTarget.Latest, true);
  const out = [];
  for (const st of sf.statements) {
    if ((ts.isImportDeclaration(st) || ts.isExportDeclaration(st)) && st.moduleSpecifier && ts.isStringLiteral(st.moduleSpecifier)) {
      const spec = st.moduleSpecifier.text;
      const clause = ts.isImportDeclaration(st) ? st.importClause : undefined;
      out.push({
        spec,
        target: resolve(file, spec),
        sideEffect: ts.isImportDeclaration(st) && clause === undefined,
        typeOnly: ts.isImportDeclaration(st) ? clause?.isTypeOnly === true : st.isTypeOnly,
      });
    }
  }
  return { sf, imports: out };
}

const files = tsFiles(src);
const graph = new Map(files.map((f) => [f, importsOf(f)]));
const page = path.join(src, "page");
const isPane = (f) => path.dirname(f) === page && f.endsWith("-pane.ts");
const main = path.join(src, "main.ts");
const session = path.join(page, "session.ts");
/** The co-editing view (coedit.html) is a page of its own, on the default prefix. */
const OWN_PREFIX = new Set([path.join(src, "coedit.ts")]);
const PANE_MAY_IMPORT = new Set(["store.ts", "dom.ts", "derive.ts"].map((f) => path.join(page, f)));

test("the page has its panes, a store and one entry", () => {
  const panes = files.filter(isPane).map(rel);
  assert.ok(panes.length >= 10, `panes: ${panes.join(", ")}`);
  assert.ok(graph.has(path.join(page, "store.ts")));
  assert.ok(graph.has(session));
});

test("a pane imports no other pane, nor the session: only the store, the shared helpers and modules outside src/page/", () => {
  const bad = [];
  for (const f of files.filter(isPane)) {
    for (const i of graph.get(f).imports) {
      if (!i.target) continue;
      const inPage = path.dirname(i.target) === page;
      if (i.target === main || (inPage && !PANE_MAY_IMPORT.has(i.target))) bad.push(`${rel(f)} imports ${i.spec}`);
    }
  }
  assert.deepEqual(bad, []);
});

test("only src/main.ts imports a pane or the session; no module outside src/page/ imports one of the page's", () => {
  const bad = [];
  for (const [f, { imports }] of graph) {
    for (const i of imports) {
      if (!i.target || f === main) continue;
      if (isPane(i.target) || i.target === session) bad.push(`${rel(f)} imports ${i.spec}`);
      else if (path.dirname(i.target) === page && !f.startsWith(page + path.sep)) bad.push(`${rel(f)} imports ${i.spec}`);
    }
  }
  assert.deepEqual(bad, []);
});

test("no module of the page is imported for its side effects (a stylesheet aside)", () => {
  const bad = [];
  for (const f of [main, ...files.filter((x) => x.startsWith(page + path.sep))]) {
    for (const i of graph.get(f).imports) if (i.sideEffect && !i.spec.endsWith(".css")) bad.push(`${rel(f)}: import "${i.spec}"`);
  }
  assert.deepEqual(bad, []);
});

test("src/ has no import cycle (type-only imports counted)", () => {
  const cycles = [];
  const state = new Map(); // 1: on the path, 2: done
  const stack = [];
  const visit = (f) => {
    state.set(f, 1);
    stack.push(f);
    for (const i of graph.get(f).imports) {
      if (!i.target || !graph.has(i.target)) continue;
      if (state.get(i.target) === 1) cycles.push([...stack.slice(stack.indexOf(i.target)), i.target].map(rel).join(" → "));
      else if (!state.has(i.target)) visit(i.target);
    }
    stack.pop();
    state.set(f, 2);
  };
  for (const f of files) if (!state.has(f)) visit(f);
  assert.deepEqual(cycles, []);
});

test("no string of the playground page writes a tool name with the prefix spelled out", () => {
  const bad = [];
  for (const f of files.filter((x) => !OWN_PREFIX.has(x))) {
    const { sf } = graph.get(f);
    const walk = (node) => {
      if (ts.isStringLiteralLike(node) || ts.isTemplateHead(node) || ts.isTemplateMiddle(node) || ts.isTemplateTail(node)) {
        if (/\bmemo_[a-z]/.test(node.text)) {
          const { line } = sf.getLineAndCharacterOfPosition(node.getStart());
          bad.push(`${rel(f)}:${line + 1}: ${JSON.stringify(node.text)}`);
        }
      }
      ts.forEachChild(node, walk);
    };
    walk(sf);
  }
  assert.deepEqual(bad, []);
});
