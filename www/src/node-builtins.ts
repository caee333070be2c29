// Node's built-in modules for the Node entry, taken without their ES-module wrappers: `import ...
// from "node:fs"` makes Node 20 read every export of fs, and the getter of `fs.promises` loads the
// promises and stream internals; that and the other wrappers cost about 5 ms CPU of a cold start's
// import, measured (docs/performance.md#cold-start). `process.getBuiltinModule` (Node 20.16+)
// returns the module itself; older Node 20 releases get it through a require made on first use.
import { createRequire } from "node:module";

/** The built-in modules the Node entry uses, by the name it asks for them. */
interface NodeBuiltins {
  "node:fs": typeof import("node:fs");
  "node:fs/promises": typeof import("node:fs/promises");
  "node:path": typeof import("node:path");
  "node:crypto": typeof import("node:crypto");
  "node:child_process": typeof import("node:child_process");
}

let requireHere: NodeJS.Require | undefined;

/** @internal A require resolving from this file: for a package (proper-lockfile) or an old Node. */
export function requireFromHere(): NodeJS.Require {
  // Made on first use: createRequire costs about 2 ms at import, measured.
  return (requireHere ??= createRequire(import.meta.url));
}

/** @internal A built-in module of Node. */
export function nodeBuiltin<Name extends keyof NodeBuiltins>(name: Name): NodeBuiltins[Name] {
  if (typeof process.getBuiltinModule === "function") return process.getBuiltinModule(name);
  return requireFromHere()(name) as NodeBuiltins[Name];
}
