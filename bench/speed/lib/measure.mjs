// Timing helpers for the JS harness: warm-up, then at least MIN_RUNS timed runs.

export const MIN_RUNS = Number(process.env.AGENTPAD_BENCH_MIN_RUNS ?? 7);
export const MAX_RUNS = Number(process.env.AGENTPAD_BENCH_MAX_RUNS ?? 30);
/** Stop adding runs (beyond MIN_RUNS) once the timed runs took this long. */
export const BUDGET_MS = Number(process.env.AGENTPAD_BENCH_BUDGET_MS ?? 1000);

export function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

export function summarize(samples) {
  return {
    runs: samples.length,
    median_ms: median(samples),
    min_ms: Math.min(...samples),
    max_ms: Math.max(...samples),
  };
}

/**
 * Times `fn` (sync or async). `after(result)` runs untimed after every run (e.g. memo_revert so
 * the next run starts from the same state). `before()` runs untimed before every run; what it
 * returns (or resolves to) is passed to that run's `fn(state)` and `after(result, state)` (e.g. a
 * fresh workspace with changes staged, for timing a commit). Warm-up: 3 runs, or 1 when a run
 * takes > 200 ms. Operations faster than 0.1 ms without `before` or `after` are timed in batches
 * of `batch` calls (each sample ≈ 1 ms, divided by `batch`), so the timer's resolution does not
 * dominate.
 * `slow: { ms, runs }`: when the first (warm-up) run takes more than `ms`, only `runs` timed runs
 * follow (fewer than MIN_RUNS; the record's `runs` says how many) — for peers whose single run
 * takes many seconds (e.g. `diff.createTwoFilesPatch` of 10 MB with 1 % of lines changed).
 * Returns { runs, batch, median_ms, min_ms, max_ms, samples_ms, first_ms, last } — `first_ms` is
 * the first (warm-up) run, `last` the result of the last timed call (for the correctness check).
 */
export async function measure(fn, { before, after, slow } = {}) {
  let last;
  let batch = 1;
  const once = async () => {
    let r;
    const state = before ? await before() : undefined;
    const t0 = performance.now();
    for (let i = 0; i < batch; i++) r = await fn(state);
    const dt = (performance.now() - t0) / batch;
    if (after) await after(r, state);
    return [dt, r];
  };
  const [first] = await once();
  let warm = first;
  for (let i = 0; i < (first > 200 ? 0 : 2); i++) warm = Math.min(warm, (await once())[0]);
  if (!before && !after && warm < 0.1) {
    batch = Math.min(10000, Math.ceil(1 / Math.max(warm, 0.0005)));
    await once(); // warm the batched loop too
  }
  const samples = [];
  let total = 0;
  const minRuns = slow && first > slow.ms ? slow.runs : MIN_RUNS;
  const maxRuns = slow && first > slow.ms ? slow.runs : MAX_RUNS;
  while (samples.length < minRuns || (total < BUDGET_MS && samples.length < maxRuns)) {
    const [dt, r] = await once();
    samples.push(dt);
    total += dt * batch;
    last = r;
  }
  return { ...summarize(samples), batch, samples_ms: samples.map((x) => Number(x.toPrecision(6))), first_ms: Number(first.toPrecision(6)), last };
}
