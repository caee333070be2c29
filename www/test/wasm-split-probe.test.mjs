// The split probe's byte surgery (bench/speed/wasm-split.mjs, docs/performance.md#wasm-split):
// pointing table exports back where Debian's binaryen 108 misnumbers them, and dropping the name
// section as wasm-bindgen's --remove-name-section does. Modules built here with binaryen.js, so
// the test needs neither wasm-split nor a build.
import { test } from "node:test";
import assert from "node:assert/strict";
import binaryen from "binaryen";

import { parseWasm } from "../../bench/speed/wasm-size.mjs";
import { pointTableExportsBack, tableExports, withoutNames } from "../../bench/speed/wasm-split.mjs";

/** A module shaped like wasm-bindgen's: a function table, then an externref table exported. */
function twoTables({ names = false } = {}) {
  const m = new binaryen.Module();
  m.setFeatures(binaryen.Features.MVP | binaryen.Features.ReferenceTypes | binaryen.Features.BulkMemory);
  m.addTable("functions", 1, 1, binaryen.funcref);
  m.addTable("externrefs", 4, 4, binaryen.externref);
  m.addTableExport("externrefs", "__wbindgen_externrefs");
  m.addFunction("answer", binaryen.none, binaryen.i32, [], m.i32.const(42));
  m.addFunctionExport("answer", "answer");
  binaryen.setDebugInfo(names);
  const bytes = Buffer.from(m.emitBinary());
  binaryen.setDebugInfo(false);
  m.dispose();
  return bytes;
}

test("a table export written as table 0 is pointed back at the externref table", () => {
  const reference = twoTables();
  assert.deepEqual(tableExports(reference).get("__wbindgen_externrefs")?.[0], 1);
  const broken = Buffer.from(reference);
  const [, at] = tableExports(broken).get("__wbindgen_externrefs");
  broken[at] = 0; // what binaryen 108 writes
  const exportedTableLength = (bytes) => {
    const instance = new WebAssembly.Instance(new WebAssembly.Module(bytes));
    return instance.exports.__wbindgen_externrefs.length;
  };
  assert.equal(exportedTableLength(broken), 1, "the broken module exports the 1-slot function table");
  const fixed = pointTableExportsBack(reference, broken);
  assert.equal(tableExports(fixed).get("__wbindgen_externrefs")[0], 1);
  assert.equal(exportedTableLength(fixed), 4, "the fixed module exports the 4-slot externref table");
  assert.ok(fixed.equals(reference));
});

test("withoutNames drops the name section and keeps a module V8 accepts", () => {
  const named = twoTables({ names: true });
  assert.ok(parseWasm(named).sections.some((s) => s.id === 0 && s.name === "name"), "binaryen wrote no name section");
  const stripped = withoutNames(named);
  assert.ok(!parseWasm(stripped).sections.some((s) => s.id === 0 && s.name === "name"));
  assert.ok(stripped.length < named.length);
  const instance = new WebAssembly.Instance(new WebAssembly.Module(stripped));
  assert.equal(instance.exports.answer(), 42);
});
