// The Node entry as one ES module (dist/agentpad.node.js, the package's "node" export): tsc's
// output is a dozen modules plus the wasm-bindgen glue, and Node loads each one separately —
// about 6 of the 12 ms `import("@agentpad/core")` took (the cold start, measured A/B; docs/performance.md#cold-start). Types stay
// tsc's (dist/*.d.ts); the browser entry stays unbundled for the host's own bundler. The wasm is
// read from ../pkg/ next to it, as before (the URL is relative to this file, which sits in dist/).
//
// Without comments: V8 scans every byte of the module at import, and the comments were 30% of
// them (145 KB → 103 KB; about 1 ms CPU of a cold start's import, measured). The code keeps its
// names and lines; the commented sources sit beside it (dist/*.js, tsc's output).
import { defineConfig } from "rolldown";

export default defineConfig({
  input: "dist/node.js",
  platform: "node",
  output: { file: "dist/agentpad.node.js", format: "esm", comments: false },
});
