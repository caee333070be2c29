// Loads a TypeScript module of the playground that has no runtime imports (its imports are types
// only) in Node, without a bundler: TypeScript's own transpileModule strips the types into a
// temporary .mjs, which is imported. Not a test file itself.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import ts from "typescript";

const here = path.dirname(fileURLToPath(import.meta.url));
export const playground = path.resolve(here, "../..");

/** `import()` of `rel` (from www/playground), e.g. "src/page/store.ts". */
export async function importTs(rel) {
  const file = path.join(playground, rel);
  const { outputText, diagnostics } = ts.transpileModule(fs.readFileSync(file, "utf8"), {
    fileName: file,
    reportDiagnostics: true,
    compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022, verbatimModuleSyntax: false },
  });
  if (diagnostics?.length) throw new Error(ts.formatDiagnostics(diagnostics, ts.createCompilerHost({})));
  if (/^\s*import\s(?!type\b)/m.test(outputText)) throw new Error(`${rel} has a runtime import: it cannot be loaded on its own`);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "playground-ts-"));
  const out = path.join(dir, path.basename(rel).replace(/\.ts$/, ".mjs"));
  fs.writeFileSync(out, outputText);
  try {
    return await import(pathToFileURL(out).href);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
