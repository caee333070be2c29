// memo_find through the built package (docs/tools.md#memo_find): candidates whose offsets give
// the unit's text, a pick that replaces the unit, and the `embed` option driven as a host step
// with a hashing-trick embedder (a stand-in: words and Chinese bigrams hashed to 64 signed
// dimensions, no meaning).
import assert from "node:assert/strict";
import test from "node:test";
import { MemoryStorage, Workspace } from "@agentpad/core";

const GUIDE =
  "# Guide\n\nIntro.\n\n## Install\n\nRun the installer with retries.\n\n## Deploy\n\nUpload the build; set retries to 3.\n\n## 缓存\n\n结果缓存一小时。\n";

function fnv(s) {
  let h = 0x811c9dc5;
  for (const b of new TextEncoder().encode(s)) h = Math.imul(h ^ b, 0x01000193) >>> 0;
  return h;
}

function hashEmbed(texts) {
  return texts.map((t) => {
    const v = new Array(64).fill(0);
    const words = t.toLowerCase().match(/[a-z0-9]+/g) ?? [];
    const han = [...t].filter((c) => /\p{Script=Han}/u.test(c));
    for (let i = 0; i + 1 < han.length; i++) words.push(han[i] + han[i + 1]);
    for (const w of words) {
      const h = fnv(w);
      v[h % 64] += h & 0x80000000 ? -1 : 1;
    }
    const norm = Math.hypot(...v) || 1;
    return v.map((x) => x / norm);
  });
}

test("memo_find lists units whose offsets are their text, and a pick replaces the unit", async () => {
  const ws = await Workspace.create({ storage: new MemoryStorage({ "guide.md": GUIDE }) });
  assert.ok(ws.tools({ format: "json-schema" }).some((t) => t.name === "memo_find"));
  const r = await ws.call("memo_find", { query: "deploy build", path: "guide.md", limit: 5 });
  assert.equal(r.status, "Success", r.markdown);
  const [a] = r.candidates;
  assert.equal(GUIDE.slice(a.context_start, a.context_end), "## Deploy\n\nUpload the build; set retries to 3.");
  assert.deepEqual([a.line, a.end_line], [9, 11]);
  const zh = await ws.call("memo_find", { query: "缓存多久", path: "guide.md" });
  assert.equal(zh.candidates[0].line, 13, zh.markdown);
  const picked = await ws.call("memo_replace_selection", { selection_id: "A", new_text: "## 缓存\n\n不缓存。" });
  assert.equal(picked.status, "Success", picked.markdown);
  assert.ok(ws.draft("guide.md").endsWith("## 缓存\n\n不缓存。\n"));
  const bad = await ws.call("memo_find", { query: "  " });
  assert.equal(bad.status, "InvalidArguments");
  ws.free();
});

test("the embed option is asked for unit and query vectors, cached, and a failure falls back to words", async () => {
  const asked = [];
  const embed = async (texts) => {
    asked.push(texts);
    return hashEmbed(texts);
  };
  const ws = await Workspace.create({ storage: new MemoryStorage({ "guide.md": GUIDE }), embed });
  const r = await ws.call("memo_find", { query: "retries", limit: 5 });
  assert.equal(r.status, "Success", r.markdown);
  assert.ok(asked[0].length > 3 && asked[0].at(-1) === "retries", JSON.stringify(asked));
  await ws.call("memo_find", { query: "install" });
  assert.deepEqual(asked[1], ["install"], "unchanged units come from the cache");
  ws.free();

  const failing = await Workspace.create({
    storage: new MemoryStorage({ "guide.md": GUIDE }),
    embed: async () => {
      throw new Error("model offline");
    },
  });
  const f = await failing.call("memo_find", { query: "deploy" });
  assert.equal(f.status, "Success", f.markdown);
  assert.match(f.summary, /model offline/);
  assert.equal(f.candidates[0].line, 9);
  failing.free();
  await assert.rejects(Workspace.create({ storage: new MemoryStorage({}), embed: 3 }), /embed needs a function/);
});
