// Real code beside the emulation (docs/editbench.md#real-code-runs): for every case, both are given
// the same document (after the case's prelude, made through each) and the same attempt, and their
// answers compared — same kind (applied or error) and same document, and the same text shown to
// the model; then the two agent runs' scored outcomes are compared (outcome and landing call).
export function firstCall(mod, c, mat, hint, attempt = c.attempt) {
  let doc = mat.opened ?? mat.current;
  for (const e of c.prelude ?? []) {
    const r = mod.apply(doc, e, { path: mat.name });
    if (r.kind === "applied") doc = r.doc;
  }
  return mod.apply(doc, attempt, { path: mat.name, disambiguation: hint ? c.disambiguation : undefined });
}

const head = (m) => (m ?? "").split("\n").find((l) => l.trim() !== "")?.slice(0, 120) ?? "";

/**
 * `emuRows` and `realRows`: the agent runs' results by case id; `attemptOf(c, mat)`: the attempt as
 * the agent sends it to this peer (its own format). Returns the agreement figures and every
 * disagreement (first call or outcome).
 */
export function agreement(emu, real, cases, mats, hint, emuRows, realRows, attemptOf = (c) => c.attempt) {
  let sameResult = 0;
  let sameText = 0;
  let sameOutcome = 0;
  let n = 0;
  const differ = [];
  for (const c of cases) {
    const er = emuRows.get(c.id);
    const rr = realRows.get(c.id);
    if (!er || !rr) continue;
    n++;
    const mat = mats.get(c.id);
    const e = firstCall(emu, c, mat, hint, attemptOf(c, mat));
    const r = firstCall(real, c, mat, hint, attemptOf(c, mat));
    const result = e.kind === r.kind && (e.kind !== "applied" || e.doc === r.doc);
    const outcome = er.outcome === rr.outcome && er.landed_at === rr.landed_at;
    if (result) sameResult++;
    if (result && e.message === r.message) sameText++;
    if (outcome) sameOutcome++;
    if (!result || !outcome) {
      differ.push({
        id: c.id,
        emulation: { first: e.kind, outcome: er.outcome, landed_at: er.landed_at, message: head(e.message) },
        real: { first: r.kind, outcome: rr.outcome, landed_at: rr.landed_at, message: head(r.message) },
        first_call_same: result,
      });
    }
  }
  return { cases: n, same_result: sameResult, same_text: sameText, same_outcome: sameOutcome, disagreements: differ };
}
