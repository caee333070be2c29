// The TypeScript blocks of the documentation, read the same way by the package layer
// (test/docs.test.mjs: every block compiles, the runnable ones run) and the consumer layer
// (consumer/types-matrix.mjs: the blocks that need only @agentpad/core compile under every
// moduleResolution × TypeScript version). The HTML comment on the line before a block says what
// else happens to it: none (compiled, then run), `<!-- snippet: compile-only … -->` or
// `<!-- snippet: browser … -->` (compiled against the browser entry, not run).

export const SNIPPET_MODES = ["run", "compile-only", "browser"];

/** The TypeScript blocks of a Markdown file: { file, name, line, mode, code }. */
export function snippets(file, markdown) {
  const out = [];
  const lines = markdown.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const open = /^(`{3,}|~{3,})\s*(ts|typescript)\b/.exec(lines[i]);
    if (!open) continue;
    let j = i + 1;
    while (j < lines.length && !lines[j].startsWith(open[1])) j++;
    let k = i - 1;
    while (k >= 0 && lines[k].trim() === "") k--;
    const marker = k >= 0 ? /^<!--\s*snippet:\s*([a-z-]+)/.exec(lines[k].trim()) : null;
    const mode = marker ? marker[1] : "run";
    if (!SNIPPET_MODES.includes(mode)) throw new Error(`${file}:${k + 1}: unknown snippet mode "${mode}"`);
    const name = `${file.replace(/[^A-Za-z0-9]+/g, "_")}_L${i + 1}`;
    out.push({ file, name, line: i + 1, mode, code: lines.slice(i + 1, j).join("\n") + "\n" });
    i = j;
  }
  return out;
}

/** The JSON block after `<!-- tsconfig … -->` in a Markdown file, parsed (the README's tsconfig). */
export function tsconfigBlock(file, markdown) {
  const m = /<!--\s*tsconfig\b[^>]*-->\s*\n```json\n([\s\S]*?)\n```/.exec(markdown);
  if (!m) throw new Error(`${file}: no \`<!-- tsconfig … -->\` json block`);
  return JSON.parse(m[1]);
}
