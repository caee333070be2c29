import { defineConfig } from "vite";
import { fileURLToPath } from "node:url";
import path from "node:path";

const here = path.dirname(fileURLToPath(import.meta.url));
const www = path.resolve(here, "..");

export default defineConfig({
  root: here,
  base: "./", // relative asset URLs: the build can be served from any directory
  resolve: {
    // The package's browser entry, as TypeScript source; it loads ../pkg/agentpad_core.wasm (and,
    // on first use, ../pkg/agentpad_rest.wasm) with new URL(..., import.meta.url), which Vite
    // emits as assets.
    alias: { "@agentpad/core": path.resolve(www, "src/browser.ts") },
    // One Yjs in the page: @agentpad/yjs, its Hocuspocus provider and y-codemirror.next must share
    // it (two copies break Y.Doc instanceof checks and the sync).
    dedupe: ["yjs"],
  },
  // Pre-bundling would rewrite import.meta.url and lose the .wasm next to the glue.
  optimizeDeps: { exclude: ["@agentpad/core"] },
  server: {
    host: "127.0.0.1",
    // www/src and www/pkg live outside the playground root, and so do the built-in transcripts
    // (tests/fixtures/sessions, bundled by src/builtin-transcripts.ts).
    fs: { allow: [www, path.resolve(www, "../tests/fixtures/sessions")] },
  },
  preview: { host: "127.0.0.1" },
  build: {
    outDir: path.resolve(here, "../../target/playground"),
    emptyOutDir: true,
    target: "es2022",
    assetsInlineLimit: 0, // never inline the wasm as a data: URL
    chunkSizeWarningLimit: 2048,
    // The playground, and the co-editing view (coedit.html, docs/co-editing.md).
    rollupOptions: { input: { main: path.resolve(here, "index.html"), coedit: path.resolve(here, "coedit.html") } },
  },
});
