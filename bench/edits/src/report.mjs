// The Markdown report: a view over the finished report data (run.mjs builds the data). It starts
// with the headline table (ready to paste into the README), then the method, the tools ×
// categories tables, every BAD with its diff, the fidelity results, the peers' versions and one
// playground link per case.
import { createPatch } from "diff";

const pct = (x) => (x === null || x === undefined ? "–" : `${(100 * x).toFixed(1)} %`);
const num = (x, d = 1) => (x === null || x === undefined ? "–" : x.toFixed(d));
const esc = (s) => String(s).replace(/\|/g, "\\|").replace(/\n/g, " ");

/** Why agentpad wrote a BAD result in a category, and what the engine would need to avoid it. */
const CAUSES = {
  L: ["stale attempt: the picked near-miss region already holds an earlier edit; new_text written over it reverts that edit", "a 3-way apply: put only the change old_text → new_text onto the candidate's real text, and refuse with a preview when that change touches text that differs between them"],
  Q: ["near miss: new_text still carries the misremembered token; written over the picked region it injects the token", "the same 3-way apply as for stale attempts"],
  G: ["over-escaped attempt: no tier unescapes it, so a near-miss region is offered and gets new_text with its literal escapes", "an escape tier: when old_text unescaped (\\n, \\t, \\\", \\\\) matches exactly and uniquely, unescape new_text the same way"],
  J: ["elided attempt: the picked region spans the elided lines, and new_text (marker included) replaces them", "elision-aware matching: split both texts at marker lines, match the pieces in order and keep the elided text; never stage a pick whose new_text holds a marker"],
  H: ["the `N | ` gutter is not stripped, so only a near-miss candidate is offered, and its span starts mid-line (not aligned to the lines the needle covered)", "strip `N | ` gutters like the other styles, and snap near-miss candidate spans to whole lines when old_text is whole lines"],
  R: ["a near-miss candidate was staged in a document that holds no such text", "never offer near-miss candidates below the anchors' own similarity"],
  S: ["a near-miss candidate was staged although the needle's middle does not exist", "as R"],
  T: ["the count check did not refuse", "refuse when expected_occurrences differs"],
  V: ["empty old_text: agentpad appends new_text at the end of the file (its documented contract); the case expects a refusal, since an empty old_text does not say where", "a contract decision, not a matcher fix: refuse an empty old_text on a non-empty file, or keep appending"],
};

function pathOf(res) {
  const pick = res.steps.find((s) => s.action.startsWith("pick"));
  const first = res.steps[0];
  return pick ? `memo_replace → ${first.status} → memo_replace_selection(${pick.action.slice(5)}, ${pick.quality}${pick.recommended ? ", recommended" : ""})` : `memo_replace → ${first.status}${first.quality ? ` (${first.quality})` : ""}`;
}

function diffOf(name, expected, output, max = 40) {
  const lines = createPatch(name, expected, output, "expected", "tool output", { context: 2 }).split("\n").slice(2);
  const cut = lines.length > max ? [...lines.slice(0, max), `… ${lines.length - max} more diff lines`] : lines;
  return cut.join("\n").replace(/```/g, "`\u200b``");
}

/**
 * A tool run with responses in another locale, beside its English run: what it lands and the
 * tokens per landed edit of each, and on how many cases the two ended the same way.
 */
export function localeLine(t, en) {
  const s = t.summary;
  const head = `Responses in ${t.locale} (\`locale: "${t.locale}"\`): ${esc(t.label)} lands ${pct(s.l1_rate)} on call 1, ${pct(s.l2_rate)} within 2 calls, ${pct(s.l3_rate)} within 3, ${s.bad} BAD, ${num(s.tokens_per_landed, 0)} tokens per landed edit`;
  if (!en) return `${head}.`;
  const byId = new Map(en.results.map((r) => [r.id, r]));
  const same = t.results.filter((r) => byId.get(r.id)?.outcome === r.outcome && byId.get(r.id)?.calls === r.calls).length;
  const ratio = en.summary.tokens_per_landed > 0 ? ` (×${num(s.tokens_per_landed / en.summary.tokens_per_landed, 2)})` : "";
  return `${head} against ${num(en.summary.tokens_per_landed, 0)} in en${ratio}; the same outcome in the same number of calls on ${same} of ${t.results.length} cases.`;
}

export function renderReport(report, mats, casesById) {
  const L = [];
  const tools = report.tools;
  const cats = Object.keys(report.categories);
  const casesRun = report.cases_run;
  L.push(`**editbench ${report.label}** — ${casesRun} cases, ${cats.length} categories`);
  L.push("");
  L.push(`| tool | call 1 | ≤ 2 calls | ≤ 3 calls | BAD | calls / landed edit | tokens / landed edit | field mix, ≤ 2 calls |`);
  L.push(`| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |`);
  // A second locale of a tool is the same engine: it is set beside its English row, not ranked.
  const order = tools.filter((t) => (t.locale ?? "en") === "en").sort((a, b) => b.summary.l2_rate - a.summary.l2_rate || a.summary.bad - b.summary.bad);
  for (const t of order.filter((x) => !x.upper_bound && !x.footnote && !x.emulation)) {
    const s = t.summary;
    const name = t.key.startsWith("agentpad") ? `**${t.label}**` : t.label;
    L.push(`| ${esc(name)} | ${pct(s.l1_rate)} | ${pct(s.l2_rate)} | ${pct(s.l3_rate)} | ${s.bad} | ${num(s.calls_per_landed, 2)} | ${num(s.tokens_per_landed, 0)} | ${pct(s.l2_weighted)} |`);
  }
  L.push("");
  L.push(
    `Document set: ${report.label}, cases/${report.version}. A case lands when the whole resulting document equals the expected one (EXACT) or is still valid and means the same (EQUIV: Python by its parser, YAML and JSON by their data, other files line by line with the indentation exact); a must-refuse case lands when nothing is written; an ambiguous-copy case (the text cannot tell which copy) lands when the tool asks, or guesses the target. BAD = any other write. Field mix: the categories weighted by the share of each kind of edit measured on real edits (${cats.map((c) => `${c} ${(100 * report.field_mix[c]).toFixed(1)}`).join(", ")} %). Conditions: agentpad runs \`memo_replace\` with persistMode "immediate" (a pick is saved at once, as a peer saves on its one call), takes the recommended candidate or re-reads when none is recommended, and gets \`search_after\` (the anchor line) in duplicate cases; Codex gets the same anchor as \`@@\` context; Roo apply_diff gets the target line as a line hint, Zed the target line on every edit (as its edit tool sends one); every other peer runs its shipped defaults with no hint. Aider gets whole-line SEARCH/REPLACE blocks of its real median size, Codex a patch hunk with context lines.${report.real ? ` Real code: ${report.real.runs.map((r) => `${r.key} runs ${r.package}`).join(", ")}.` : ""} Retries: 1 call when the error quotes the text, when the model already holds it (mechanical slips) or as a line-hinted retry for tools that take one; otherwise a re-read and an exact retry (2 calls); retries are widened until unique under the tool's own matcher. Wrong-count cases count only for tools that take a count (agentpad, Roo edit_file). Tokens: every response the model was shown (gpt-tokenizer, o200k_base), over the landed edits. Method: docs/editbench.md.`,
  );
  for (const t of tools.filter((x) => x.footnote)) {
    L.push("");
    L.push(`Not in the table: ${esc(t.label)} (${esc(t.footnote)}) lands ${pct(t.summary.l1_rate)} on call 1, ${pct(t.summary.l2_rate)} within 2 calls, ${pct(t.summary.l3_rate)} within 3, ${t.summary.bad} BAD.`);
  }
  const ub = tools.find((t) => t.upper_bound);
  if (ub) {
    L.push("");
    L.push(`Upper bound, not a result: ${esc(ub.label)} lands ${pct(ub.summary.l1_rate)} on call 1, ${pct(ub.summary.l2_rate)} within 2 calls, ${pct(ub.summary.l3_rate)} within 3, ${ub.summary.bad} BAD.`);
  }
  for (const t of tools.filter((x) => (x.locale ?? "en") !== "en")) {
    L.push("");
    L.push(localeLine(t, tools.find((x) => x.key === t.key.replace(`-${t.locale}`, ""))));
  }
  L.push("");
  L.push(`# editbench: does an imperfect edit land in the right place, in one step?`);
  L.push("");
  L.push(`The table above is the headline (${casesRun} frozen cases from cases/${report.version}, ${report.label}, the same agent policy for every tool); the rest of this report is the detail behind it.`);
  L.push("");
  L.push("## Averages");
  L.push("");
  L.push(`| tool | EXACT on call 1 (of the edit cases) | within 3 calls | call 1, macro over categories | ≤ 2 calls, macro | call 1, field mix | ≤ 2 calls, field mix | BAD rate, field mix | must-refuse accuracy | wrong-place / corrupted / refuse-violated | collateral (EOL, tabs, BOM outside the edit) | tokens, all cases |`);
  L.push(`| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |`);
  for (const t of order) {
    const s = t.summary;
    L.push(`| ${esc(t.label)} | ${pct(s.exact1_rate)} | ${pct(s.l3_rate)} | ${pct(s.l1_macro)} | ${pct(s.l2_macro)} | ${pct(s.l1_weighted)} | ${pct(s.l2_weighted)} | ${pct(s.bad_weighted)} | ${pct(s.refuse_accuracy)} | ${s.wrong_place} / ${s.corrupted} / ${s.refuse_violated} | ${s.collateral} | ${s.tokens_all} |`);
  }
  L.push("");
  L.push(`Field mix weights: ${cats.map((c) => `${c} ${(100 * report.field_mix[c]).toFixed(2)} %`).join(", ")}.`);
  L.push("");

  L.push("## Method (summary; the full method is docs/editbench.md)");
  L.push("");
  L.push(
    [
      `- **Cases** are frozen JSON in \`bench/edits/cases/${report.version}\` (${report.label}; generator ${report.manifest.generator}, seed ${report.manifest.seed}, frozen ${report.manifest.frozen_at}); the runner checks every case file and document against MANIFEST.json before it runs. ${report.manifest.cases} cases${report.version === "v1" ? ", 31 of them written by hand from public reports (each cites its URL)" : ""}.`,
      "- **Documents** are real files from permissive packages (bench/edits/docs/SOURCES.tsv), plus two short CJK documents written for the benchmark because no CJK prose was found on the machine.",
      "- **Expected result** is always a whole document: the current document plus only the intended change. A stale or near-miss attempt that is applied as written therefore scores BAD when it reverts an earlier edit or injects a misremembered token.",
      `- **Peers** are clean-room functions written from descriptions of each tool's matching at its shipped defaults; each passes a fidelity suite of facts re-authored from the peer's own tests (error and success texts included) before it is run. Their responses follow the facts known about each tool; where the exact wording is not known, the content (what lines, which file text) is what the facts say it shows.${report.real ? " Where a registry ships a peer's code (aider-chat, openhands-aci, the Codex binary), its row runs that code and the emulation runs beside it (see Real code against the emulations)." : ""} Each peer gets the attempt in its own format: Aider a whole-line SEARCH/REPLACE block padded to its real median size where the slip leaves the lines around as read, Codex a patch hunk with context lines, Zed a line hint on every edit.`,
      "- **Agent policy** (same for all): at most 3 calls. A candidate pick costs 1; a retry with text the error quoted costs 1; any other retry is a re-read plus an exact retry (2). Must-refuse cases get no retry. A re-read shows peers the whole file with `cat -n` gutters and agentpad its own memo_read response.",
      "- **agentpad** runs through `@agentpad/core` (Workspace, MemoryStorage, persistMode \"immediate\" so a staged change is saved without a separate commit call); the headline row picks agentpad's recommended candidate (and re-reads when none is recommended); the oracle row, which picks the candidate on the target (the answer key), is an upper bound only.",
      "- **Deviations from the design**: combined perturbations (about 10 % in the design) are not generated separately; T has no whitespace-variant occurrences; R's \"sibling file\" cases have one document, so Aider's try-other-files fallback (run by its real code) only retries the same file; Zed gets a line hint (the target's line) on every edit, as its edit tool sends one, and its matcher without a hint is a footnote; the Cline legacy matcher frames SEARCH/REPLACE as whole lines (each block line ends with a newline), so it cannot match a mid-line fragment.",
    ].join("\n"),
  );
  L.push("");

  const table = (title, cell) => {
    L.push(`## ${title}`);
    L.push("");
    L.push(`| tool | ${cats.join(" | ")} |`);
    L.push(`| --- | ${cats.map(() => "---:").join(" | ")} |`);
    for (const t of order) L.push(`| ${esc(t.key)} | ${cats.map((c) => (t.summary.per_category[c] ? cell(t.summary.per_category[c]) : "–")).join(" | ")} |`);
    L.push("");
  };
  table("Landed (or refused) within 2 calls, per category", (p) => `${p.s2}/${p.n}`);
  table("Landed on call 1, per category", (p) => `${p.s1}/${p.n}`);
  table("BAD writes per category", (p) => (p.bad ? `**${p.bad}**` : "0"));
  L.push(`Categories: ${cats.map((c) => `${c} ${report.categories[c].title}`).join("; ")}.`);
  L.push("");

  // Computed from this run, never a fixed list: every category where a peer lands more than an
  // agentpad variant, on call 1 or within 2 calls, with the peer's BAD writes there.
  const variants = order.filter((t) => t.key.startsWith("agentpad"));
  const ahead = [];
  for (const [field, when] of [["s1", "on call 1"], ["s2", "within 2 calls"]]) {
    for (const c of cats) {
      for (const peer of tools) {
        if (peer.key.startsWith("agentpad") || !peer.summary.per_category[c]) continue;
        const p = peer.summary.per_category[c];
        const behind = variants.filter((v) => v.summary.per_category[c] && v.summary.per_category[c][field] < p[field]);
        if (behind.length) ahead.push(`| ${c} | ${when} | ${esc(peer.key)} ${p[field]}/${p.n} (BAD ${p.bad}) | ${behind.map((v) => `${esc(v.key)} ${v.summary.per_category[c][field]}/${p.n}`).join(", ")} |`);
      }
    }
  }
  if (variants.length) {
    L.push("## Where a peer lands more than agentpad");
    L.push("");
    if (ahead.length) {
      L.push("Why, category by category: docs/editbench.md#where-a-peer-still-lands-more.");
      L.push("");
      L.push("| category | when | peer (its BAD writes there) | agentpad |");
      L.push("| --- | --- | --- | --- |");
      L.push(...ahead);
    } else {
      L.push("Nowhere in this run.");
    }
    L.push("");
  }

  const ap = tools.find((t) => t.key === "agentpad");
  if (ap) {
    L.push("## agentpad's BAD results and their causes");
    L.push("");
    const bads = ap.results.filter((r) => r.outcome === "BAD");
    if (bads.length === 0) L.push("None.");
    else {
      const byCat = {};
      for (const r of bads) (byCat[r.category] ??= []).push(r);
      L.push(`| category | BAD | cause | what the engine would need |`);
      L.push(`| --- | ---: | --- | --- |`);
      for (const [cat, rs] of Object.entries(byCat)) {
        const [why, need] = CAUSES[cat] ?? ["see the diffs below", "–"];
        L.push(`| ${cat} ${esc(report.categories[cat].title)} | ${rs.length} | ${esc(why)} | ${esc(need)} |`);
      }
      L.push("");
      L.push(`Each, with the calls that led to it: ${bads.map((r) => `${r.id} (${r.bad_kind}: ${pathOf(r)})`).join("; ")}.`);
      const orc = tools.find((t) => t.key === "agentpad-oracle");
      if (orc) L.push(`\nWith the oracle's pick (the upper bound) instead of the recommended one: ${orc.summary.bad} BAD.`);
    }
    L.push("");
  }

  L.push("## Every BAD result with its diff (expected → tool output)");
  L.push("");
  for (const t of order) {
    const bads = t.results.filter((r) => r.outcome === "BAD");
    if (!bads.length) continue;
    L.push(`<details><summary>${esc(t.label)}: ${bads.length} BAD</summary>`);
    L.push("");
    for (const r of bads) {
      const mat = mats.get(r.id);
      const out = r.output === "=expected" ? mat.expected : r.output === "=current" ? mat.current : r.output;
      L.push(`**${r.id}** (${r.bad_kind}; ${r.steps.map((s) => s.action).join(" → ")})`);
      L.push("```diff");
      L.push(diffOf(mat.name, mat.expected, out));
      L.push("```");
    }
    L.push("</details>");
    L.push("");
  }

  if (report.real) {
    L.push("## Real code against the emulations");
    L.push("");
    L.push("Where a registry ships a peer's code, its row above runs that code and the emulation runs beside it on every case, given the same document and attempt (docs/editbench.md#real-code-runs). *Same result*: the first call gives the same kind (applied or error) and, when applied, the same document; *same text*: also the same words shown to the model; *same outcome*: the agent runs end with the same scored outcome on the same call.");
    L.push("");
    L.push("| peer | real code | cases | same result, call 1 | same text, call 1 | same outcome | emulation's row (call 1 / ≤ 2 / ≤ 3 / BAD) |");
    L.push("| --- | --- | ---: | ---: | ---: | ---: | --- |");
    for (const r of report.real.runs) {
      const e = tools.find((t) => t.key === `${r.key}-emu`)?.summary;
      L.push(`| ${r.key} | ${esc(r.package)} | ${r.cases} | ${pct(r.same_result / r.cases)} | ${pct(r.same_text / r.cases)} | ${pct(r.same_outcome / r.cases)} | ${e ? `${pct(e.l1_rate)} / ${pct(e.l2_rate)} / ${pct(e.l3_rate)} / ${e.bad}` : "–"} |`);
    }
    for (const [k, x] of Object.entries(report.real.installed)) if (!x.ok) L.push(`\n${k}: the real code (${esc(x.package)}) could not be installed (${esc(x.why)}); its row is the emulation.`);
    for (const r of report.real.runs) {
      if (!r.disagreements.length) continue;
      L.push("");
      L.push(`<details><summary>${r.key}: ${r.disagreements.length} cases where real code and emulation differ</summary>`);
      L.push("");
      L.push("| case | call 1, emulation | call 1, real | outcome, emulation | outcome, real | real code's first line |");
      L.push("| --- | --- | --- | --- | --- | --- |");
      for (const d of r.disagreements) L.push(`| ${d.id} | ${d.emulation.first}${d.first_call_same ? "" : " ≠"} | ${d.real.first} | ${d.emulation.outcome} @${d.emulation.landed_at ?? "–"} | ${d.real.outcome} @${d.real.landed_at ?? "–"} | ${esc(d.real.message)} |`);
      L.push("</details>");
    }
    L.push("");
  }

  L.push("## Fidelity suites");
  L.push("");
  const byPeer = {};
  for (const f of report.fidelity) (byPeer[f.peer] ??= []).push(f);
  L.push(`| peer | facts holding | failing facts |`);
  L.push(`| --- | ---: | --- |`);
  for (const [p, fs] of Object.entries(byPeer)) L.push(`| ${p} | ${fs.filter((f) => f.ok).length}/${fs.length} | ${esc(fs.filter((f) => !f.ok).map((f) => f.name).join("; ") || "–")} |`);
  L.push("");
  L.push("<details><summary>Every fact</summary>");
  L.push("");
  for (const f of report.fidelity) L.push(`- ${f.ok ? "✓" : "✗"} ${f.peer}: ${esc(f.name)}`);
  L.push("</details>");
  L.push("");

  L.push("## Peers: the versions the facts come from");
  L.push("");
  L.push(`| key | tool | source read | match granularity | duplicate hint given |`);
  L.push(`| --- | --- | --- | --- | --- |`);
  for (const p of report.peers) L.push(`| ${p.key} | ${esc(p.name)} | ${esc(p.source)} | ${p.granularity} | ${p.hint ?? "none"} |`);
  L.push("");

  L.push("## Cases and playground links");
  L.push("");
  L.push(
    "Each link opens the playground (`./build.sh serve`; pass `--playground-url` for another address) with the case's current document and the calls agentpad made (oracle variant): the responses shown there are what the model read. A share link carries the document and the calls, not the expected result; the expected document is in editbench.json.",
  );
  L.push("");
  L.push("<details><summary>All cases</summary>");
  L.push("");
  L.push(`| case | category | source | what | link |`);
  L.push(`| --- | --- | --- | --- | --- |`);
  for (const c of report.cases) {
    const src = c.source === "generated" ? `generated (${c.perturbation.model})` : `[report](${c.source})`;
    L.push(`| ${c.id} | ${c.category} | ${src} | ${esc(c.title)}${c.must_refuse ? " (must refuse)" : ""} | [open](${c.share_link}) |`);
  }
  L.push("</details>");
  L.push("");
  L.push(`Run: ${(report.ms / 1000).toFixed(1)} s on Node ${report.node}; per tool: ${tools.map((t) => `${t.key} ${(t.ms / 1000).toFixed(1)} s`).join(", ")}.`);
  L.push("");
  return L.join("\n");
}
