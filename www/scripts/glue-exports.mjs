// Exports wasm-bindgen's import object and its post-instantiation step from the generated web
// glue (www/pkg/agentpad.js and its .d.ts), which keeps them private: the browser entry
// instantiates the split pair itself (src/split-loader.ts), the first module with the
// `placeholder` imports the glue's initSync cannot take
// (docs/decisions.md#the-browser-entry-loads-the-rest-of-the-engine-on-first-use).
// Run after every wasm-bindgen run (build.sh build_wasm); running it again changes nothing.
//   node www/scripts/glue-exports.mjs [PKG_DIR]
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const dir = process.argv[2] ?? path.join(path.dirname(fileURLToPath(import.meta.url)), "../pkg");
const MARK = "// agentpad: glue-exports.mjs";
const edits = [
  ["agentpad.js", `${MARK}\nexport { __wbg_get_imports, __wbg_finalize_init };\n`],
  [
    "agentpad.d.ts",
    `${MARK}\n/** @internal wasm-bindgen's import object for the module. */\nexport function __wbg_get_imports(): WebAssembly.Imports;\n` +
      `/** @internal Binds the glue to an instance (and runs its start function); returns its exports. */\n` +
      `export function __wbg_finalize_init(instance: WebAssembly.Instance, module: WebAssembly.Module): InitOutput;\n`,
  ],
];
for (const [name, tail] of edits) {
  const file = path.join(dir, name);
  const text = fs.readFileSync(file, "utf8");
  if (text.includes(MARK)) continue;
  if (name.endsWith(".js") && !/function __wbg_get_imports\(/.test(text)) throw new Error(`glue-exports: ${file} has no __wbg_get_imports`);
  if (name.endsWith(".js") && !/function __wbg_finalize_init\(/.test(text))
    throw new Error(`glue-exports: ${file} has no __wbg_finalize_init`);
  fs.writeFileSync(file, `${text}${text.endsWith("\n") ? "" : "\n"}${tail}`);
}
