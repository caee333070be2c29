// The CodeMirror document and diff views end to end in the built playground (target/playground),
// headless Debian Chromium: candidates marked on exactly their text in CJK / emoji, staged changes
// highlighted at their draft ranges, the diff view, and a 10 MB document.
// Run from the repo root: node --test www/playground/test/*.test.mjs
// Needs: `npm run build` in www/playground first (build.sh does it), /usr/bin/chromium.
import { test } from "node:test";
import assert from "node:assert/strict";
import path from "node:path";
import { tid, shotDir } from "./lib/browser.mjs";
import { openSharedPage, page, problems, documentLines, lineNumber, docLine, runTool, clickAndWait, freshWorkspace, liveMarkdown, selectInDocument } from "./lib/shared-page.mjs";

openSharedPage();

// ---------------------------------------------------------------- CodeMirror document and diff views

/** Writes `text` to storage as the document on screen ("Edit the stored text by hand"); the next call loads it. */
async function writeStored(text) {
  await page.evaluate((t) => {
    document.querySelector('[data-testid="external-text"]').value = t;
    document.querySelector('[data-testid="external-write-text"]').click();
  }, text);
}

/** The candidate marks of the CodeMirror view: letter, line, badge, the text they cover, the text before them on their line. */
async function cmCandidateMarks() {
  return page.$$eval(`${tid("document")} .cm-content mark.cand`, (ms) =>
    ms.map((m) => {
      const c = m.cloneNode(true);
      c.querySelectorAll(".cand-badge").forEach((b) => b.remove());
      const line = m.closest(".cm-line");
      const range = document.createRange();
      range.setStart(line, 0);
      range.setEndBefore(m);
      const before = range.cloneContents();
      before.querySelectorAll(".cand-badge").forEach((b) => b.remove());
      return {
        id: m.dataset.candidate,
        first: m.dataset.testid === `candidate-${m.dataset.candidate}`,
        line: Number(m.dataset.line),
        viewLine: Number(line.dataset.line),
        badge: m.querySelector(".cand-badge")?.textContent ?? null,
        text: c.textContent,
        before: before.textContent,
        classes: m.className,
      };
    }),
  );
}

// CJK, an astral CJK character (𠮷, two UTF-16 units), a ZWJ emoji sequence and emoji before the
// matches: the candidates' UTF-16 ranges must land exactly on "超时: 30".
const CJK_TEXT = [
  "# 配置 🎉",
  "服务:",
  '  名称: "接口 🚀"',
  "  超时: 30",
  "缓存:",
  '  表情: "👩‍💻 𠮷野家"',
  "  超时: 30",
  "队列:",
  "  😀 超时: 30 # 注释",
  "",
].join("\n");

test("CodeMirror document view: a MultiMatch in CJK / emoji text marks A, B, C with their badges on exactly the matched text; the cursor and a selection feed Editor State", async () => {
  await freshWorkspace("timeouts");
  assert.equal(await page.locator(`${tid("document")}.cm-editor`).count(), 1, "the document view is a CodeMirror editor");
  const content = page.locator(`${tid("document")} .cm-content`);
  assert.match(await content.getAttribute("aria-label"), /Document/);
  assert.equal(await content.getAttribute("aria-readonly"), "true");
  await writeStored(CJK_TEXT);
  const r = await runTool("memo_replace", { old_text: "超时: 30", new_text: "超时: 600 ⏱" });
  assert.equal(r.status, "MultiMatch");
  assert.deepEqual((await documentLines()).map((l) => l.text), CJK_TEXT.replace(/\n$/, "").split("\n"));
  const marks = await cmCandidateMarks();
  assert.deepEqual(
    marks.map((m) => [m.id, m.line, m.viewLine, m.badge, m.text, m.first]),
    [
      ["A", 4, 4, "A", "超时: 30", true],
      ["B", 7, 7, "B", "超时: 30", true],
      ["C", 9, 9, "C", "超时: 30", true],
    ],
  );
  assert.deepEqual(marks.map((m) => m.before), ["  ", "  ", "  😀 "], "exact UTF-16 starts after the emoji");
  // The candidates' lines are marked in the line-number gutter.
  const gutter = await page.$$eval(`${tid("document")} .cm-lineNumbers .cm-gutterElement.has-cand`, (es) => es.map((e) => e.textContent));
  assert.deepEqual(gutter, ["4", "7", "9"]);
  // The badge is in the mark, before the text, and is not part of the document.
  assert.ok(await page.locator(tid("candidate-badge-C")).isVisible());
  assert.equal(await page.locator(`${tid("candidate-C")} .cand-badge`).getAttribute("aria-hidden"), "true");
  // stage/use buttons under the document, as before.
  for (const id of ["A", "B", "C"]) {
    assert.equal(await page.locator(tid(`stage-candidate-${id}`)).count(), 1);
    assert.equal(await page.locator(tid(`use-candidate-${id}`)).count(), 1);
  }

  // A selection of "超时" on line 9, after "  😀 " (5 UTF-16 units): columns 6 → 8.
  await selectInDocument({ line: 9, column: 6 }, { line: 9, column: 8 });
  await page.waitForFunction(() => /selection 9:6 → 9:8/.test(document.querySelector('[data-testid="lc-editor-state"]').textContent));
  assert.match(await liveMarkdown(), /- Selection: line 9, column 6 → line 9, column 8: `超时`\n/);
  // The keyboard: Shift+ArrowRight extends it by one character; ArrowUp collapses it to its start
  // (a cursor at 9:6), then moves up a line.
  await page.keyboard.press("Shift+ArrowRight");
  await page.waitForFunction(() => /selection 9:6 → 9:9/.test(document.querySelector('[data-testid="lc-editor-state"]').textContent));
  await page.keyboard.press("ArrowUp");
  await page.waitForFunction(() => /cursor 9:6$/.test(document.querySelector('[data-testid="lc-editor-state"]').textContent.trim()));
  await page.keyboard.press("ArrowUp");
  await page.waitForFunction(() => /cursor 8:\d+$/.test(document.querySelector('[data-testid="lc-editor-state"]').textContent.trim()));
  assert.equal(await page.locator(`${tid("document")} .cm-line.cursor-line`).getAttribute("data-line"), "8");
  assert.equal(await page.locator(`${tid("document")} .cm-gutterElement.cursor-line`).textContent(), "8");
  // A click on a line number: line 4, column 1.
  await page.click(lineNumber(4));
  await page.waitForFunction(() => /cursor 4:1$/.test(document.querySelector('[data-testid="lc-editor-state"]').textContent.trim()));
  // The inputs move the editor's own cursor too (line 6, column 8: inside the ZWJ sequence's text).
  await page.fill(tid("cursor-line"), "6");
  await page.fill(tid("cursor-column"), "9");
  await page.click(tid("editor-apply"));
  await page.waitForFunction(() => /cursor 6:9/.test(document.querySelector('[data-testid="lc-editor-state"]').textContent));
  const head = await page.$eval(tid("document-view"), (host) => {
    const s = host.editorView.state;
    const p = s.selection.main.head;
    const l = s.doc.lineAt(p);
    return [l.number, p - l.from + 1];
  });
  assert.deepEqual(head, [6, 9]);
  await page.locator("section.doc-panel").screenshot({ path: path.join(shotDir, "playground-codemirror-badges.png") });
  assert.deepEqual(problems, []);
});

test("CodeMirror document view: staged changes are highlighted at their draft ranges; the diff view shows the core's preview and memo_diff, line by line", async () => {
  // Continues from the MultiMatch above: stage B (line 7) with the search's new_text (longer).
  const s = await clickAndWait(tid("stage-candidate-B"));
  assert.equal(s.status, "Success");
  assert.equal(await page.locator(`${tid("document")} mark.cand`).count(), 0, "no candidates once the choice is made");
  // Then a shorter replacement before it (line 4): B's draft range moves by the length difference.
  const r = await runTool("memo_replace", { old_text: "超时: 30", new_text: "超时: 1", match_id: "A" });
  assert.equal(r.status, "Success");
  const pending = await page.$$eval(`${tid("document")} .cm-content .pending`, (ms) =>
    ms.map((m) => [Number(m.closest(".cm-line").dataset.line), m.textContent, m.dataset.change]),
  );
  const changes = await page.$$eval(`${tid("pending-changes")} tbody tr`, (trs) => trs.map((tr) => [tr.dataset.change, tr.querySelectorAll("td")[1].textContent]));
  assert.equal(changes.length, 2, JSON.stringify(changes));
  const idAt = (line) => changes.find((c) => c[1] === `timeouts.yaml:${line}`)?.[0];
  assert.deepEqual(pending, [
    [4, "超时: 1", idAt(4)],
    [7, "超时: 600 ⏱", idAt(7)],
  ]);
  assert.equal(await page.$eval(tid("document"), (e) => e.dataset.pending), "2");
  const gutter = await page.$$eval(`${tid("document")} .cm-gutterElement.has-pending`, (es) => es.map((e) => e.textContent));
  assert.deepEqual(gutter, ["4", "7"]);

  // The diff view: a CodeMirror editor holding exactly the core's preview, each line classed by its mark.
  const diffState = async () =>
    page.$eval(tid("pending-preview"), (host) => ({
      text: host.editorView.state.doc.toString(),
      lines: [...host.querySelectorAll(".cm-line")].map((l) => [l.dataset.kind, l.className.includes(`dl ${l.dataset.kind}`), l.textContent]),
    }));
  const json = () => page.locator(tid("response-json")).textContent().then(JSON.parse);
  let d = await diffState();
  let preview = (await json()).preview;
  assert.equal(d.text, preview.replace(/\n$/, ""), "the diff view shows the core's text, nothing else");
  assert.ok(d.lines.every(([, classed]) => classed));
  const kindOf = (t) => {
    const bar = t.indexOf("│");
    if (bar < 0) return "meta";
    return { "-": "del", "+": "add" }[t[bar + 1]] ?? "ctx";
  };
  assert.deepEqual(d.lines.map(([k]) => k), d.lines.map(([, , t]) => kindOf(t)));
  assert.ok(d.lines.some(([k, , t]) => k === "add" && t.includes("超时: 1")));
  assert.ok(d.lines.some(([k, , t]) => k === "del" && t.includes("超时: 30")));
  await page.locator("section.doc-panel").screenshot({ path: path.join(shotDir, "playground-codemirror-pending.png") });

  // memo_diff: the unified diff the core writes (---/+++, @@ hunks), classed by its first column.
  const m = await runTool("memo_diff", {});
  assert.equal(m.status, "Success");
  d = await diffState();
  preview = (await json()).preview;
  assert.equal(d.text, preview.replace(/\n$/, ""));
  const unified = (t) => (t.startsWith("@@") ? "hunk" : /^(---|\+\+\+)/.test(t) ? "file" : { "-": "del", "+": "add", " ": "ctx" }[t[0]] ?? "meta");
  assert.deepEqual(d.lines.map(([k]) => k), d.lines.map(([, , t]) => unified(t)));
  const kinds = new Set(d.lines.map(([k]) => k));
  for (const k of ["file", "hunk", "add", "del"]) assert.ok(kinds.has(k), `a ${k} line in ${JSON.stringify(d.lines)}`);
  for (const t of ["+  超时: 1", "+  超时: 600 ⏱", "-  超时: 30"]) assert.ok(d.lines.some(([, , x]) => x === t), `${t} in ${JSON.stringify(d.lines)}`);
  assert.equal(await page.locator(`${tid("pending-preview")} .cm-content`).getAttribute("aria-label"), "Pending diff");
  await page.locator("section.pending-panel").screenshot({ path: path.join(shotDir, "playground-codemirror-diff.png") });
  // Committed: no pending highlight, the empty note in the diff view.
  await clickAndWait(tid("quick-commit"));
  assert.equal(await page.locator(`${tid("document")} .cm-content .pending`).count(), 0);
  assert.equal(await page.locator(`${tid("pending-preview")}.empty`).count(), 1);
  assert.deepEqual(problems, []);
});

test("CodeMirror document view: a 10 MB document loads, shows its first lines, scrolls to the end and takes a selection", async () => {
  await freshWorkspace("timeouts");
  const t0 = Date.now();
  // Generated in the page (~10 MB of UTF-16 text, CJK and emoji included), written to storage.
  const made = await page.evaluate(() => {
    const parts = [];
    let chars = 0;
    let i = 0;
    while (chars < 10_000_000) {
      const line = `${i + 1}: 设置 key_${i % 997} = "value ${"x".repeat(i % 50)}" 🎉 # line ${i + 1}\n`;
      parts.push(line);
      chars += line.length;
      i++;
    }
    const text = parts.join("");
    const t = performance.now();
    // Through the (closed) hand editor, emptied again: a 10 MB textarea on screen is not the view under test.
    document.querySelector('[data-testid="external-edit"]').open = false;
    const area = document.querySelector('[data-testid="external-text"]');
    area.value = text;
    document.querySelector('[data-testid="external-write-text"]').click();
    area.value = "";
    return { lines: i, chars: text.length, writeMs: performance.now() - t, last: parts[i - 1].slice(0, -1) };
  });
  const tMade = Date.now();
  // The next call loads it (nothing pending: a silent reload), and the page renders the draft.
  const r = await runTool("memo_read", { start_line: 1, end_line: 3 });
  assert.equal(r.status, "Success");
  await page.waitForSelector(`${docLine(1)}`);
  const tLoaded = Date.now();
  assert.match(await page.locator(tid("doc-meta")).textContent(), new RegExp(`${made.lines} lines · ${made.chars} chars`));
  assert.equal(await page.locator(docLine(1)).textContent(), `1: 设置 key_0 = "value " 🎉 # line 1`);
  const rendered = await page.locator(`${tid("document")} .cm-line`).count();
  assert.ok(rendered < 500, `only the lines in view are in the DOM (${rendered})`);

  // The keyboard: Ctrl+End goes to the end of the document (after the final newline: for the core,
  // the end of the last line); the view scrolls there.
  await page.click(docLine(2));
  const t1 = Date.now();
  await page.keyboard.press("Control+End");
  await page.waitForSelector(docLine(made.lines), { timeout: 30_000 });
  await page.waitForFunction(
    ([n, c]) => new RegExp(`cursor ${n}:${c}$`).test(document.querySelector('[data-testid="lc-editor-state"]').textContent.trim()),
    [made.lines, made.last.length + 1],
    { timeout: 30_000 },
  );
  const tEnd = Date.now();
  assert.equal(await page.locator(docLine(made.lines)).textContent(), made.last);
  // A selection of the last line with the keyboard.
  await page.keyboard.press("ArrowUp");
  await page.keyboard.press("Home");
  await page.keyboard.press("Shift+End");
  await page.waitForFunction(
    (n) => new RegExp(`selection ${n}:1 → ${n}:\\d+`).test(document.querySelector('[data-testid="lc-editor-state"]').textContent),
    made.lines,
    { timeout: 30_000 },
  );
  const tSel = Date.now();
  // Scrolling to the middle by the scrollbar: the lines there are drawn.
  const mid = await page.$eval(`${tid("document")} .cm-scroller`, async (s) => {
    s.scrollTop = s.scrollHeight / 2;
    await new Promise((res) => requestAnimationFrame(() => requestAnimationFrame(res)));
    await new Promise((res) => setTimeout(res, 50));
    const lines = [...s.querySelectorAll(".cm-line[data-line]")].map((l) => Number(l.dataset.line));
    return Math.min(...lines);
  });
  const tMid = Date.now();
  assert.ok(mid > made.lines / 4 && mid < (made.lines * 3) / 4, `the middle is drawn (first line in view ${mid} of ${made.lines})`);
  await page.locator("section.doc-panel").screenshot({ path: path.join(shotDir, "playground-codemirror-10mb.png") });
  console.log(
    `10 MB document: ${made.chars.toLocaleString("en")} chars, ${made.lines.toLocaleString("en")} lines; ` +
      `generate+write ${tMade - t0} ms (storage.write ${made.writeMs.toFixed(0)} ms), ` +
      `memo_read + render ${tLoaded - tMade} ms, Ctrl+End to the last line ${tEnd - t1} ms, ` +
      `Shift+End selection → Editor State ${tSel - tEnd} ms, scroll to the middle ${tMid - tSel} ms`,
  );
  // Back to a small document for whatever runs next.
  await freshWorkspace("timeouts");
  assert.deepEqual(problems, []);
});
