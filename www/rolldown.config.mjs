// The two entries each as one ES module: tsc's output is a dozen modules plus the wasm-bindgen
// glue, loaded one by one.
// - dist/agentpad.node.js, the package's "node" export: in Node the module loads were about 6 of
//   the 12 ms `import("@agentpad/core")` took (docs/performance.md#cold-start).
// - dist/agentpad.browser.js, the "default" export: a page without a bundler fetched the modules
//   as a waterfall four requests deep before the wasm's fetch could start
//   (docs/decisions.md#the-browser-entry-is-one-bundled-module-that-starts-the-wasms-fetch). A
//   host's bundler takes it as any ES module; the literal `new URL("../pkg/agentpad_bg.wasm",
//   import.meta.url)` stays as written (the file sits in dist/ like tsc's browser.js), so Vite
//   still emits the wasm as an asset.
// Types stay tsc's (dist/*.d.ts). The wasm is read from ../pkg/ next to it, as before.
//
// Without comments: V8 scans every byte of the module at import, and the comments were 30% of
// them (145 KB → 103 KB; about 1 ms CPU of a cold start's import, measured). The code keeps its
// names and lines; the commented sources sit beside it (dist/*.js, tsc's output).
import { defineConfig } from "rolldown";

export default defineConfig([
  {
    input: "dist/node.js",
    platform: "node",
    output: { file: "dist/agentpad.node.js", format: "esm", comments: false },
  },
  {
    input: "dist/browser.js",
    platform: "browser",
    output: { file: "dist/agentpad.browser.js", format: "esm", comments: false },
  },
]);
