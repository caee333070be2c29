// Removes the `#private;` line tsc writes into the .d.ts of a class with `#` fields. TypeScript
// refuses that line (TS18028) in a project whose target is below ES2015 — a bare `tsc --strict`
// under TypeScript 5.x targets ES5 — unless it sets skipLibCheck. Without it the classes are
// typed by their public members, which is what a user can reach anyway
// (docs/decisions.md#one-set-of-names-in-every-entry).
// Usage: node scripts/strip-private-marker.mjs <dir>   (every .d.ts under it)
import { readFileSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const dir = process.argv[2];
if (dir === undefined) {
  process.stderr.write("usage: node scripts/strip-private-marker.mjs <dir of .d.ts files>\n");
  process.exit(2);
}
let stripped = 0;
for (const entry of readdirSync(dir, { recursive: true })) {
  const file = join(dir, String(entry));
  if (!file.endsWith(".d.ts")) continue;
  const text = readFileSync(file, "utf8");
  const out = text.replace(/^[ \t]*#private;\r?\n/gm, () => (stripped++, ""));
  if (out !== text) writeFileSync(file, out);
}
process.stdout.write(`strip-private-marker: ${stripped} #private line${stripped === 1 ? "" : "s"} removed under ${dir}\n`);
