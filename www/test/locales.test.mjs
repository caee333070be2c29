// The package's LOCALES is the engine's list (src/locale.rs `LOCALES`): every name opens a
// workspace that answers in it, and a name outside the list is refused with the engine's own
// list of names, so a locale added on one side only fails here.
import { test } from "node:test";
import assert from "node:assert/strict";
import { LOCALES, MemoryStorage, Workspace } from "@agentpad/core";

test("LOCALES is the engine's list of locales", async () => {
  for (const locale of LOCALES) {
    const ws = await Workspace.create({ storage: new MemoryStorage({ "a.md": "x\n" }), locale });
    const r = await ws.call("memo_read", {});
    assert.equal(r.status, "Success");
    ws.free();
  }
  await assert.rejects(
    Workspace.create({ storage: new MemoryStorage({ "a.md": "x\n" }), locale: /** @type {any} */ ("xx") }),
    (e) => e instanceof Error && e.message.includes(LOCALES.map((l) => JSON.stringify(l)).join(" or ")),
  );
});

test("zh answers in Chinese: the quick start's edit and commit", async () => {
  const storage = new MemoryStorage({ "config.json": '{ "timeout": 30 }\n' });
  const ws = await Workspace.create({ storage, locale: "zh" });
  const staged = await ws.call("memo_replace", { old_text: '"timeout": 30', new_text: '"timeout": 60' });
  assert.equal(staged.summary, "已在第 1 行暂存变更 A，±0 个字符。");
  const committed = await ws.call("memo_commit", { summary: "把超时时间调到 60 秒" });
  assert.match(committed.markdown, /- summary: 已提交 1 处变更（±0 个字符）：“把超时时间调到 60 秒”。/);
  ws.free();
});
