// The page's own words follow the session's locale (src/phrases.ts, src/locale/*.ts;
// docs/decisions.md#the-playground-speaks-the-sessions-locale). Without a browser: the en and zh
// tables have the same keys and the same placeholders, and the first visit's locale. In headless
// Chromium: switched to zh, no visible text or title / placeholder / aria-label the page writes is
// English-only; switched back, none is Chinese.
import { test, before } from "node:test";
import assert from "node:assert/strict";
import { importTs } from "./lib/load-ts.mjs";
import { playgroundHarness, tid } from "./lib/browser.mjs";

const { en } = await importTs("src/locale/en.ts");
const { zh, CODEMIRROR_ZH } = await importTs("src/locale/zh.ts");
const { startLocale } = await importTs("src/locale/choose.ts");

/** The `{name}` placeholders of a phrase, sorted (the pattern src/phrases.ts fills). */
const placeholders = (text) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
const CJK = /[\u3400-\u9fff\uf900-\ufaff\u3000-\u303f\uff00-\uffef]/;

test("the en and zh tables have the same keys, the same placeholders, and zh is Chinese", () => {
  assert.deepEqual(Object.keys(zh).sort(), Object.keys(en).sort());
  const differ = Object.keys(en).filter((k) => placeholders(en[k]).join() !== placeholders(zh[k]).join());
  assert.deepEqual(differ, [], "placeholders differ");
  // A key counted (`.one` / `.other`, src/phrases.ts `tn`) has both forms.
  for (const k of Object.keys(en).filter((x) => /\.(one|other)$/.test(x))) {
    const base = k.replace(/\.(one|other)$/, "");
    assert.ok(`${base}.one` in en && `${base}.other` in en, `${base} has both forms`);
  }
  // Every zh phrase with words in it is written in Chinese (a phrase of names and symbols only,
  // such as "API" or "{v} ({n} …)", aside), and no en phrase is.
  const words = (text) => text.replace(/\{\w+\}/g, "").replace(/[\w.()/_-]*[_.(/][\w.()/_-]*/g, "");
  const notChinese = Object.keys(zh).filter((k) => /[a-z]{3,}/.test(words(en[k])) && !CJK.test(zh[k]) && zh[k] !== en[k]);
  assert.deepEqual(notChinese, []);
  const untranslated = Object.keys(zh).filter((k) => !CJK.test(zh[k]) && /\b[a-z]{3,}\b/.test(words(zh[k])));
  assert.deepEqual(untranslated, [], "zh phrases left in English");
  assert.deepEqual(
    Object.keys(en).filter((k) => CJK.test(en[k])),
    [],
    "en phrases with Chinese in them",
  );
  assert.ok(Object.values(CODEMIRROR_ZH).every((v) => CJK.test(v)));
});

test("the first visit's locale: ?locale= first, then the browser's language", () => {
  assert.equal(startLocale("", "zh-CN"), "zh");
  assert.equal(startLocale("", "zh-TW"), "zh");
  assert.equal(startLocale("", "zh"), "zh");
  assert.equal(startLocale("", "en-US"), "en");
  assert.equal(startLocale("", "fr"), "en");
  assert.equal(startLocale("?locale=en", "zh-CN"), "en");
  assert.equal(startLocale("?locale=zh", "en-US"), "zh");
  assert.equal(startLocale("?locale=de", "zh-CN"), "zh", "an unknown ?locale= is ignored");
});

test("the co-editing badge shows the person's and the agent's connection, for every pair, in both locales", async () => {
  const { connectionBadge, nextAgentConnection } = await importTs("src/coedit-badge.ts");
  const say = (table) => (key) => table[key];
  const persons = ["connecting", "online", "offline"];
  const agents = [null, "connecting", "online", "reconnecting"];
  const shown = (table) => persons.flatMap((p) => agents.map((a) => connectionBadge(p, a, say(table))));
  assert.deepEqual(shown(en), [
    "◌ connecting",
    "◌ connecting · agent ◌ connecting",
    "◌ connecting · agent ● online",
    "◌ connecting · agent ◌ reconnecting",
    "● online",
    "● online · agent ◌ connecting",
    "● online · agent ● online",
    "● online · agent ◌ reconnecting",
    "○ offline",
    "○ offline · agent ◌ connecting",
    "○ offline · agent ● online",
    "○ offline · agent ◌ reconnecting",
  ]);
  assert.deepEqual(shown(zh), [
    "◌ 连接中",
    "◌ 连接中 · 智能体 ◌ 连接中",
    "◌ 连接中 · 智能体 ● 在线",
    "◌ 连接中 · 智能体 ◌ 重新连接中",
    "● 在线",
    "● 在线 · 智能体 ◌ 连接中",
    "● 在线 · 智能体 ● 在线",
    "● 在线 · 智能体 ◌ 重新连接中",
    "○ 离线",
    "○ 离线 · 智能体 ◌ 连接中",
    "○ 离线 · 智能体 ● 在线",
    "○ 离线 · 智能体 ◌ 重新连接中",
  ]);
  // Before the first connection a failure is still "connecting"; once online, a loss is a reconnect.
  assert.equal(nextAgentConnection("connecting", "disconnected"), "connecting");
  assert.equal(nextAgentConnection("connecting", "connected"), "online");
  assert.equal(nextAgentConnection("online", "disconnected"), "reconnecting");
  assert.equal(nextAgentConnection("online", "connecting"), "reconnecting");
  assert.equal(nextAgentConnection("reconnecting", "connecting"), "reconnecting");
  assert.equal(nextAgentConnection("reconnecting", "connected"), "online");
});

// ---------------------------------------------------------------- in the browser

const h = playgroundHarness();

/**
 * The page's own words on screen: every visible text node and every `title`, `placeholder`,
 * `aria-label` and optgroup `label`, outside what is not the page's writing — the document and
 * the JSON arguments (CodeMirror), the core's responses and live context (Markdown, JSON, its
 * summary, the tool descriptions), code and preformatted text, and what is marked `translate="no"`
 * (transcripts' titles and steps, provider names).
 */
function pageWords() {
  const NOT_THE_PAGES = [
    ".cm-editor",
    "pre",
    "code",
    "[translate=no]",
    "script",
    "style",
    '[data-testid="response-markdown"]',
    '[data-testid="response-basic"]',
    '[data-testid="basic-history"]',
    '[data-testid="tool-description"]',
    '[data-testid="wf-summary"]',
    '[data-testid="lc-view"]',
    '[data-testid="live-context-rendered"]',
    "#lc-view",
    "#lc-sections-wrap",
    // tool names, the sample's document names and status / state / flag values are names, not words
    "#tool-select",
    ".tool-chip",
    ".badge",
    ".next-actions .chip",
    ".call-chip",
    ".cand-table td.preview",
  ].join(",");
  const out = [];
  const excluded = (el) => el.closest(NOT_THE_PAGES) !== null;
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const el = n.parentElement;
    const text = n.textContent.trim();
    if (!el || text === "" || excluded(el)) continue;
    const shown = el.closest("option, optgroup") ? el.closest("select").checkVisibility() : el.checkVisibility();
    if (shown) out.push({ where: describe(el), text });
  }
  for (const el of document.body.querySelectorAll("[title], [placeholder], [aria-label], optgroup[label], [data-empty]")) {
    if (excluded(el) || !(el.closest("option, optgroup") ? el.closest("select") : el).checkVisibility()) continue;
    for (const a of ["title", "placeholder", "aria-label", "label", "data-empty"]) {
      // A tool schema's description as an argument's title is the core's text (src/form.ts).
      if (a === "title" && el.dataset.titleSource === "schema") continue;
      const v = el.getAttribute(a);
      if (v && v.trim() !== "" && !(a === "label" && el.tagName !== "OPTGROUP")) out.push({ where: `${describe(el)}[${a}]`, text: v });
    }
  }
  return out;

  function describe(el) {
    const id = el.closest("[data-testid], [id]");
    return `${el.tagName.toLowerCase()} in ${id ? (id.dataset.testid ?? `#${id.id}`) : "body"}`;
  }
}

/** English words left once names (memo_read, ws.tools(), OutOfSync, #3, .json, v1) are taken out. */
function englishWords(text) {
  const names = /\S*[_.:/(){}#=@\[\]"'`<>*]\S*|\b[A-Z][a-z]+[A-Z]\w*\b|\b[A-Z]{2,}\b/g;
  const allowed = new Set([
    "agentpad",
    "manual",
    "immediate",
    "disabled",
    "list",
    "table",
    "exact",
    "auto",
    "yes",
    "no",
    "wasm",
    "token",
    "tokens",
  ]);
  return (text.replace(names, " ").match(/\b[A-Za-z]{3,}\b/g) ?? []).filter((w) => !allowed.has(w.toLowerCase()));
}

let page;

before(async () => {
  page = await h.readyPage(); // the browser's language is en-US: the page starts in en
});

async function switchLocale(locale) {
  await page.selectOption(tid("locale"), locale);
  await page.waitForFunction((l) => document.body.dataset.locale === l && document.body.dataset.ready === "true", locale);
}

/**
 * Fills the panes: a MultiMatch (candidates, response, pending), every section open, and a
 * built-in transcript in the Replay pane stepped once (its own locale: example-* are zh).
 */
async function fillPanes(transcript) {
  await page.click(tid("quick-suggested"));
  await page.click(tid("run-button"));
  await page.waitForFunction(
    () => document.querySelectorAll('[data-testid="history"] li').length > 0 && document.body.dataset.busy !== "true",
  );
  await page.evaluate(() => {
    for (const d of document.querySelectorAll("details")) d.open = true;
  });
  await page.locator(tid("replay-source")).selectOption(transcript);
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="replay-steps"] li').length > 0);
  await page.click(tid("replay-step"));
  await page.waitForFunction((sel) => document.querySelector(sel) !== null, tid("replay-verdict"));
}

test("switched to zh, the page's own words are Chinese; switched back, English", async () => {
  assert.equal(await page.evaluate(() => document.documentElement.lang), "en");
  await switchLocale("zh");
  await fillPanes("example-2-multimatch-letters");
  assert.equal(await page.evaluate(() => document.documentElement.lang), "zh-Hans");
  assert.equal(await page.title(), "agentpad 演练场");
  assert.equal((await page.locator(tid("run-button")).textContent()).trim(), "运行");

  const zhWords = await page.evaluate(pageWords);
  assert.ok(zhWords.length > 150, `the walk saw the panes (${zhWords.length} texts)`);
  const english = zhWords.filter((w) => !CJK.test(w.text) && englishWords(w.text).length > 0);
  assert.deepEqual(english, [], "English-only text left on the zh page");

  // Back to en: nothing the page writes is Chinese any more (the core's zh responses were dropped
  // with the workspace; the document and names never were).
  await switchLocale("en");
  await fillPanes("scenario-2-multi-match");
  assert.equal(await page.evaluate(() => document.documentElement.lang), "en");
  assert.equal((await page.locator(tid("run-button")).textContent()).trim(), "Run");
  const enWords = await page.evaluate(pageWords);
  assert.deepEqual(
    enWords.filter((w) => CJK.test(w.text)),
    [],
    "Chinese left on the en page",
  );
  assert.deepEqual(h.problems, []);
});

test("a share link's locale and ?locale= set the page's language", async () => {
  const zhPage = await h.newPage();
  await zhPage.goto(`${h.baseUrl}?locale=zh`);
  await zhPage.waitForFunction(() => document.body.dataset.ready === "true");
  assert.equal(await zhPage.evaluate(() => [document.documentElement.lang, document.body.dataset.locale].join()), "zh-Hans,zh");
  assert.equal((await zhPage.locator(tid("reset")).textContent()).trim(), "重置");
  // The lint panel's and the editors' names are CodeMirror phrases / page phrases too.
  assert.equal(await zhPage.locator(tid("args-input")).getAttribute("aria-label"), "参数（JSON）");

  // A share link made in zh opens in zh, though this browser's language is English.
  await zhPage.click(tid("share-copy"));
  await zhPage.waitForFunction((sel) => document.querySelector(sel).value.includes("#t="), tid("share-link"));
  const link = await zhPage.locator(tid("share-link")).inputValue();
  const linked = await h.newPage();
  await linked.goto(link.replace("?locale=zh", ""));
  await linked.waitForFunction(() => document.body.dataset.ready === "true" && document.body.dataset.share === "loaded");
  assert.equal(await linked.evaluate(() => navigator.language.startsWith("zh")), false);
  assert.equal(await linked.evaluate(() => document.documentElement.lang), "zh-Hans");
  assert.equal((await linked.locator(tid("run-button")).textContent()).trim(), "运行");
  assert.deepEqual(h.problems, []);
});

test("a first visit from a browser whose language is Chinese starts in zh; ?locale=en overrides it", async () => {
  const browser = page.context().browser();
  const context = await browser.newContext({ locale: "zh-CN", viewport: { width: 1600, height: 1000 } });
  try {
    const zhBrowser = await context.newPage();
    await zhBrowser.goto(h.baseUrl);
    await zhBrowser.waitForFunction(() => document.body.dataset.ready === "true");
    assert.equal(await zhBrowser.evaluate(() => navigator.language), "zh-CN");
    assert.equal(await zhBrowser.evaluate(() => [document.documentElement.lang, document.body.dataset.locale].join()), "zh-Hans,zh");
    assert.equal(await zhBrowser.locator(tid("locale")).inputValue(), "zh");
    await zhBrowser.goto(`${h.baseUrl}?locale=en`);
    await zhBrowser.waitForFunction(() => document.body.dataset.ready === "true" && document.body.dataset.locale === "en");
    assert.equal((await zhBrowser.locator(tid("run-button")).textContent()).trim(), "Run");
  } finally {
    await context.close();
  }
});
