// Lazy snippets against agentpad: `node src/lazy/run.mjs --out DIR [--split lazy-dev|lazy-test]`.
// Each case is sent as one memo_replace call in the two forms docs/responses.md#match-quality
// describes (old_text with the same placeholders as new_text; old_text copied whole with
// placeholders only in new_text), on a fresh workspace over an in-memory storage with
// persistMode "immediate". Scored on the whole document (src/lazy/score.mjs); the wall time of
// the call is measured around `ws.call`. Writes DIR/editbench-lazy.md and .json.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { MemoryStorage, Workspace } from "@agentpad/core";
import { countTokens } from "gpt-tokenizer";
import { materialize } from "../cases.mjs";
import { LAZY_SPLITS, loadLazy } from "./generate.mjs";
import { scoreCall, tally } from "./score.mjs";

/** The two ways a model sends a lazy sketch to memo_replace today. */
export const FORMS = [
  { key: "sketch", name: "old_text and new_text both elided (same placeholders)", attempt: (c) => c.attempts.sketch },
  { key: "lazy", name: "old_text copied whole, placeholders only in new_text", attempt: (c) => c.attempts.lazy },
];

/** Published figures of the apply models: stated as published, never measured here. */
export const PUBLISHED = [
  { who: "Morph Fast Apply (morph-v3-fast)", what: "98 % merge accuracy; 0.8 s for a 500-line file; 10,500 tokens/s; $0.80 per million input tokens", where: "https://trymorphllm.com/fast-apply-model" },
  { who: "Morph", what: "10,500 tokens/s per request on one B200 GPU; \"most file edits complete in 1-3 seconds\" with network latency", where: "https://www.morphllm.com/blog/morph-breaks-10k-barrier" },
  { who: "Morph, on search-and-replace", what: "84–96 % success across frontier models, 2–3.5× more retry turns on failures", where: "https://trymorphllm.com/fast-apply-model" },
  { who: "morph-v3-fast on Vercel AI Gateway", what: "$0.80 per million input tokens, $1.20 per million output tokens", where: "https://vercel.com/ai-gateway/models/morph-v3-fast" },
  { who: "Relace Apply 3", what: "10k+ tokens/s; error rates on 500 sampled production merge requests (their \"Golden Eval\")", where: "https://www.relace.ai/blog/relace-apply-3" },
];

const pct = (a, n) => (n ? `${((100 * a) / n).toFixed(1)} %` : "–");
const ms = (x) => (x === null ? "–" : x < 10 ? x.toFixed(2) : x.toFixed(1));

/**
 * Median tokens the model writes per case (gpt-tokenizer, o200k_base): each form's old_text +
 * new_text, the update alone (what an apply model is sent besides the file) and the expected
 * region written out in full (a whole rewrite of the region).
 */
export function writtenTokens(cases) {
  const med = (xs) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)];
  const of = (f) => med(cases.map(f));
  return {
    ...Object.fromEntries(FORMS.map((form) => [form.key, of((c) => countTokens(form.attempt(c).old_text) + countTokens(form.attempt(c).new_text))])),
    update: of((c) => countTokens(c.update)),
    rewrite: of((c) => countTokens(c.expected[0].text)),
  };
}

/** One call and, when agentpad offers a recommended candidate, its pick (a second call). */
export async function runCase(c, form) {
  const { current } = materialize(c);
  const path = c.doc;
  const storage = new MemoryStorage({ [path]: current });
  const ws = await Workspace.create({ storage, persistMode: "immediate" });
  try {
    const t0 = performance.now();
    const r = await ws.call("memo_replace", form.attempt(c));
    const t = performance.now() - t0;
    const first = { ...scoreCall(c, current, storage.read(path), r), ms: t, status: r.status, quality: r.match_quality ?? null };
    first.summary = (r.markdown.match(/- summary: (.*)/) ?? [])[1]?.slice(0, 300) ?? "";
    let second = first;
    const rec = r.workflow_state === "SelectionPending" ? r.candidates.find((x) => x.recommended) : undefined;
    first.offered = r.candidates.length;
    if (rec) {
      const p = await ws.call("memo_replace_selection", { selection_id: rec.id });
      second = { ...scoreCall(c, current, storage.read(path), p), ms: t, status: p.status, picked: rec.id };
    }
    return { id: c.id, form: form.key, regions: c.regions, lang: c.lang, marker: c.marker, marker_indent: c.marker_indent, scope: c.scope, file_lines: c.file_lines, first, second };
  } finally {
    ws.free();
  }
}

/** Every case of `split` in both forms. */
export async function runSplit(split) {
  const cases = loadLazy(split);
  // Warm-up: the first call compiles the wasm module; it is not a merge.
  const ws = await Workspace.create({ storage: new MemoryStorage({ "w.js": "a\nb\nc\n" }), persistMode: "immediate" });
  await ws.call("memo_replace", { old_text: "a\n...\nc", new_text: "A\n...\nc" });
  ws.free();
  const rows = [];
  for (const form of FORMS) for (const c of cases) rows.push(await runCase(c, form));
  return { split, cases: cases.length, tokens: writtenTokens(cases), rows };
}

function table(rows, by) {
  const groups = new Map();
  for (const r of rows) groups.set(by(r), [...(groups.get(by(r)) ?? []), r]);
  const out = ["| group | n | landed | BAD | refused |", "| --- | ---: | ---: | ---: | ---: |"];
  for (const [k, g] of [...groups].sort((a, b) => String(a[0]).localeCompare(String(b[0])))) {
    const t = tally(g.map((x) => x.first));
    out.push(`| ${k} | ${t.n} | ${t.landed} | ${t.bad} | ${t.refused} |`);
  }
  return out.join("\n");
}

export function report(results) {
  const out = ["# editbench: lazy snippets", ""];
  out.push(
    "A lazy sketch — a block or a whole file with placeholder lines (`// ... existing code ...`) between 2–5 changed regions — sent to agentpad as **one `memo_replace` call** on a fresh workspace (`persistMode: \"immediate\"`), in the two forms the docs describe. Scored on the whole document: landed = EXACT or EQUIV (editbench's language-aware rule), BAD = any other write, refused = an error with the document unchanged. Time: wall-clock of the call through `@agentpad/core` (wasm) in Node, on this machine, after one warm-up call; no network, no GPU. Method: docs/editbench.md#lazy-snippets.",
    "",
  );
  for (const res of results) {
    out.push(`## ${res.split}${res.split === "lazy-test" ? " (test: never used to tune the engine)" : " (dev)"}: ${res.cases} cases`, "");
    out.push("| form | call 1 landed | BAD | refused | ≤ 2 calls (recommended pick) | median ms / merge | p95 ms |", "| --- | ---: | ---: | ---: | ---: | ---: | ---: |");
    for (const form of FORMS) {
      const rows = res.rows.filter((r) => r.form === form.key);
      const t1 = tally(rows.map((r) => r.first));
      const t2 = tally(rows.map((r) => r.second));
      out.push(`| ${form.name} | ${pct(t1.landed, t1.n)} (${t1.landed}/${t1.n}) | ${t2.bad} | ${t1.refused} | ${pct(t2.landed, t2.n)} | ${ms(t1.ms_median)} | ${ms(t1.ms_p95)} |`);
    }
    out.push("", "BAD counts writes within 2 calls (a BAD on call 1 stays BAD).", "");
    if (res.tokens) {
      const t = res.tokens;
      out.push(`Tokens the model writes per case (median, o200k_base): ${FORMS.map((f) => `${f.key === "sketch" ? "both elided" : "old_text whole"} ${t[f.key]}`).join(", ")}; the update alone (an apply model's input besides the file) ${t.update}; the region rewritten in full ${t.rewrite}.`, "");
    }
    for (const form of FORMS) {
      const rows = res.rows.filter((r) => r.form === form.key);
      out.push(`### ${form.name}: call 1 by changed regions, placeholder style, language`, "");
      out.push(table(rows, (r) => `${r.regions} regions`), "", table(rows, (r) => `\`${r.marker}\` (${r.marker_indent})`), "", table(rows, (r) => `${r.lang}, ${r.scope}`), "");
      const missed = rows.filter((r) => !["EXACT", "EQUIV"].includes(r.first.outcome));
      if (missed.length) {
        out.push("Not landed on call 1:", "");
        for (const r of missed) out.push(`- ${r.id} (${r.regions} regions, \`${r.marker}\`): ${r.first.outcome}${r.first.bad_kind ? ` ${r.first.bad_kind}` : ""}, ${r.first.status}${r.second !== r.first ? `; pick ${r.second.picked}: ${r.second.outcome}` : ""} — ${r.first.summary.replace(/\|/g, "\\|")}`);
        out.push("");
      }
    }
  }
  out.push("## Apply models: published figures (not measured here)", "", "| who | as published | source |", "| --- | --- | --- |");
  for (const p of PUBLISHED) out.push(`| ${p.who} | ${p.what} | ${p.where} |`);
  out.push("", "Their accuracy is measured on their own sets (production merge requests, their benchmarks), not on these cases; the figures are beside agentpad's, not comparable one for one.", "");
  return out.join("\n");
}

async function main() {
  const args = process.argv.slice(2);
  const opt = (k, d) => (args.includes(k) ? args[args.indexOf(k) + 1] : d);
  const outDir = opt("--out", "target/bench");
  // The test split first, as the report shows it first.
  const splits = args.includes("--split") ? [opt("--split")] : ["lazy-test", "lazy-dev"].filter((s) => LAZY_SPLITS[s]);
  const results = [];
  for (const s of splits) results.push(await runSplit(s));
  mkdirSync(outDir, { recursive: true });
  const name = splits.length === 1 ? `editbench-${splits[0]}` : "editbench-lazy";
  writeFileSync(join(outDir, `${name}.md`), report(results));
  writeFileSync(join(outDir, `${name}.json`), JSON.stringify({ generated_at: new Date().toISOString(), published: PUBLISHED, results }, null, 1) + "\n");
  for (const res of results) {
    for (const form of FORMS) {
      const t1 = tally(res.rows.filter((r) => r.form === form.key).map((r) => r.first));
      console.log(`${res.split} ${form.key}: landed ${t1.landed}/${t1.n}, BAD ${t1.bad}, refused ${t1.refused}, median ${ms(t1.ms_median)} ms, p95 ${ms(t1.ms_p95)} ms`);
    }
  }
  console.log(`report: ${join(outDir, `${name}.md`)}`);
}

if (process.argv[1] && import.meta.url === new URL(`file://${process.argv[1]}`).href) main();
