// Drops "multivalue" from the `target_features` section of the module cargo wrote, so that
// wasm-bindgen keeps its exports' return pointers instead of turning them into multi-value
// returns: rustc marks the feature as used (the standard library is built with it) though
// agentpad's code returns no multiple values, and wasm-bindgen transforms every export that
// returns a string, a slice or a Result when the section names it. V8 in Node 20 runs a single-
// result export through its generic JS-to-wasm wrapper, but compiles a wrapper for each distinct
// multi-value signature when the module is compiled
// (docs/performance.md#2026-12-04-what-the-compiles-fixed-cost-is). The other features
// (reference-types: the glue's externref table) are kept.
//   node www/scripts/no-multivalue.mjs IN.wasm OUT.wasm
import fs from "node:fs";

import { leb } from "./split-wasm.mjs";

const [input, output] = process.argv.slice(2);
if (!input || !output) throw new Error("usage: node www/scripts/no-multivalue.mjs IN.wasm OUT.wasm");
const bytes = fs.readFileSync(input);
if (bytes.readUInt32LE(0) !== 0x6d736100) throw new Error(`${input} is not a wasm module`);

function encode(n) {
  const out = [];
  do {
    let byte = n & 0x7f;
    n = Math.floor(n / 128);
    if (n) byte |= 0x80;
    out.push(byte);
  } while (n);
  return Buffer.from(out);
}

const parts = [bytes.subarray(0, 8)];
let dropped = 0;
for (let pos = 8; pos < bytes.length;) {
  const start = pos;
  const id = bytes[pos];
  const [size, bodyStart] = leb(bytes, pos + 1);
  const end = bodyStart + size;
  if (end > bytes.length) throw new Error(`${input}: section at ${start} runs past the end`);
  pos = end;
  if (id === 0) {
    const [nameLength, nameStart] = leb(bytes, bodyStart);
    const name = bytes.toString("utf8", nameStart, nameStart + nameLength);
    if (name === "target_features") {
      let [count, p] = leb(bytes, nameStart + nameLength);
      const kept = [];
      for (; count > 0; count--) {
        const prefix = bytes[p];
        const [length, featureStart] = leb(bytes, p + 1);
        const feature = bytes.toString("utf8", featureStart, featureStart + length);
        if (feature === "multivalue") dropped++;
        else kept.push(bytes.subarray(p, featureStart + length));
        p = featureStart + length;
        if (prefix === undefined || p > end) throw new Error(`${input}: malformed target_features section`);
      }
      const nameBytes = bytes.subarray(bodyStart, nameStart + nameLength);
      const body = Buffer.concat([nameBytes, encode(kept.length), ...kept]);
      parts.push(Buffer.from([0]), encode(body.length), body);
      continue;
    }
  }
  parts.push(bytes.subarray(start, end));
}
fs.writeFileSync(output, Buffer.concat(parts));
console.log(`no-multivalue: ${dropped ? "dropped" : "found no"} "multivalue" in ${input}'s target_features`);
