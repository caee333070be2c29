// The retrieval set (docs/retrieval.md): complete and consistent, and a scorer, baseline and
// memo_find adapter that compute known values, so each of them can fail.
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";

import {
  candidateLines,
  grepRank,
  hashEmbedder,
  lineOfOffset,
  memoFindRank,
} from "../src/retrieval/rankers.mjs";
import {
  K,
  byLanguage,
  firstCorrectRank,
  isCorrect,
  summarize,
  table,
} from "../src/retrieval/score.mjs";
import {
  docFile,
  answerText,
  isCjk,
  lines,
  loadSet,
  sha256,
  sharedTerms,
  sources,
} from "../src/retrieval/set.mjs";
import { run as runSuite } from "../../speed/suites/retrieval.mjs";

const set = loadSet();
const PERMISSIVE = /^(MIT|ISC|Apache-2\.0|BSD|Unlicense|CC0|PSF)/;

describe("retrieval set", () => {
  it("has ≥ 60 queries over ≥ 10 documents, ≥ 15 of them Chinese over ≥ 3 Chinese documents", () => {
    assert.ok(set.queries.length >= 60, `${set.queries.length} queries`);
    assert.ok(set.docs.size >= 10, `${set.docs.size} documents`);
    const zh = set.queries.filter((q) => q.lang === "zh");
    assert.ok(zh.length >= 15, `${zh.length} zh queries`);
    assert.ok(new Set(zh.map((q) => q.doc)).size >= 3, "zh documents");
  });

  it("every query is well-formed: unique id, en or zh (a zh query holds Chinese), a non-empty text", () => {
    const ids = new Set();
    for (const q of set.queries) {
      assert.ok(!ids.has(q.id), `duplicate id ${q.id}`);
      ids.add(q.id);
      assert.ok(q.lang === "en" || q.lang === "zh", `${q.id}: lang ${q.lang}`);
      assert.equal(
        [...q.query].some(isCjk),
        q.lang === "zh",
        `${q.id}: script does not match lang`,
      );
      assert.ok(q.query.trim().length > 0 && typeof q.unit === "string", q.id);
    }
  });

  it("every document exists, is listed in SOURCES.tsv with its sha256 and a permissive licence", () => {
    const rows = new Map(sources().map((r) => [r.file, r]));
    for (const name of set.docs.keys()) {
      const file = docFile(name);
      assert.ok(existsSync(file), `${name} missing`);
      const row = rows.get(name);
      assert.ok(row, `${name} not in SOURCES.tsv`);
      assert.equal(
        sha256(readFileSync(file)),
        row.sha256,
        `${name}: sha256 differs from SOURCES.tsv`,
      );
      assert.match(row.licence, PERMISSIVE, `${name}: licence ${row.licence}`);
      assert.ok(row.origin && row.package, `${name}: provenance`);
    }
  });

  it("every answer is a line range inside its document, starting on a non-blank line", () => {
    for (const q of set.queries) {
      const n = lines(set.docs.get(q.doc)).length;
      const [a, b] = q.answer;
      assert.ok(
        Number.isInteger(a) &&
          Number.isInteger(b) &&
          1 <= a &&
          a <= b &&
          b <= n,
        `${q.id}: [${a}, ${b}] in ${n} lines`,
      );
      assert.ok(
        lines(set.docs.get(q.doc))[a - 1].trim() !== "",
        `${q.id}: starts on a blank line`,
      );
    }
  });

  it("records the words each query shares with its answer as they are", () => {
    for (const q of set.queries)
      assert.deepEqual(
        q.shared,
        sharedTerms(q.query, answerText(set.docs.get(q.doc), q.answer)),
        q.id,
      );
  });
});

describe("retrieval scorer", () => {
  const answer = [10, 12]; // three lines
  it("counts an overlapping candidate of at most 3× the answer's lines, nothing else", () => {
    assert.equal(isCorrect({ start: 12, end: 12 }, answer, 100), true);
    assert.equal(isCorrect({ start: 5, end: 13 }, answer, 100), true); // 9 lines = 3 × 3
    assert.equal(isCorrect({ start: 5, end: 14 }, answer, 100), false); // 10 lines
    assert.equal(isCorrect({ start: 13, end: 13 }, answer, 100), false); // adjacent, no overlap
    assert.equal(isCorrect({ start: 1, end: 9 }, answer, 100), false);
    assert.equal(isCorrect({ start: 1, end: 9 }, [1, 9], 9), false); // the whole document
  });

  it("computes R@1, R@5 and MRR of a synthetic ranking", () => {
    const hit = { start: 11, end: 11 };
    const miss = { start: 50, end: 50 };
    const rankings = [
      [hit, miss],
      [miss, hit],
      [miss, miss, miss, miss, miss, hit],
      [miss, miss, miss, hit],
    ];
    const ranks = rankings.map((c) => firstCorrectRank(c, answer, 100));
    assert.deepEqual(ranks, [1, 2, null, 4]); // a correct 6th candidate is past K
    const s = summarize(ranks);
    assert.equal(s.n, 4);
    assert.equal(s.r1, 0.25);
    assert.equal(s.r5, 0.75);
    assert.equal(s.mrr, (1 + 1 / 2 + 0 + 1 / 4) / 4);
    const by = byLanguage([
      { lang: "en", rank: 1 },
      { lang: "zh", rank: null },
      { lang: "zh", rank: 2 },
    ]);
    assert.deepEqual(
      [by.en.r1, by.zh.r5, by.zh.mrr, by.all.n],
      [1, 0.5, 0.25, 3],
    );
    assert.equal(K, 5);
  });

  it("prints a skipped ranker as its reason, never as a number", () => {
    const md = table([
      {
        name: "memo_find (BM25)",
        skipped: "memo_find not available in this build",
      },
    ]);
    assert.match(
      md,
      /\| memo_find \(BM25\) \| memo_find not available in this build \|/,
    );
    assert.doesNotMatch(md.split("\n")[2], /%/);
  });
});

describe("retrieval rankers", () => {
  const doc = "alpha beta\nnothing here\nBeta gamma alpha\n中文 检索\n";

  it("grep baseline: lines by how many query terms they hold, then document order", () => {
    assert.deepEqual(grepRank(doc, "the alpha and gamma"), [
      { start: 3, end: 3 },
      { start: 1, end: 1 },
    ]);
    assert.deepEqual(grepRank(doc, "检查"), [{ start: 4, end: 4 }]);
    assert.deepEqual(grepRank(doc, "zeta"), []);
  });

  it("maps memo_find's UTF-16 offsets to line ranges", () => {
    assert.equal(lineOfOffset(doc, 0), 1);
    assert.equal(lineOfOffset(doc, doc.indexOf("nothing")), 2);
    const start = doc.indexOf("nothing");
    const end = doc.indexOf("中文") - 1; // up to the end of line 3, its newline left out
    assert.deepEqual(
      candidateLines(doc, [
        { line: 2, context_start: start, context_end: end },
      ]),
      [{ start: 2, end: 3 }],
    );
    assert.deepEqual(
      candidateLines(doc, [
        { line: 2, context_start: start, context_end: end + 1 },
      ]),
      [{ start: 2, end: 3 }],
    );
    assert.deepEqual(candidateLines(doc, [{ line: 4 }]), [
      { start: 4, end: 4 },
    ]);
  });

  it("memoFindRank passes query, path and limit, and treats a failed call as an error", async () => {
    let seen;
    const ws = {
      callUntyped: async (name, args) => (
        (seen = [name, args]),
        { status: "Success", candidates: [{ line: 3 }] }
      ),
    };
    assert.deepEqual(await memoFindRank(ws, doc, "q", "a.md"), [
      { start: 3, end: 3 },
    ]);
    assert.deepEqual(seen, [
      "memo_find",
      { query: "q", path: "a.md", limit: 5 },
    ]);
    const bad = {
      callUntyped: async () => ({
        status: "InvalidArguments",
        candidates: [],
        summary: "unknown tool",
      }),
    };
    await assert.rejects(
      memoFindRank(bad, doc, "q", "a.md"),
      /InvalidArguments/,
    );
  });

  it("the stand-in embedder gives unit vectors, the same for the same text, closer for shared words", async () => {
    const embed = hashEmbedder(512);
    const [a, b, c, d] = await embed([
      "retry the request",
      "retry the request",
      "parse the config file",
      "重试请求",
    ]);
    const dot = (x, y) => x.reduce((s, v, i) => s + v * y[i], 0);
    assert.equal(a.length, 512);
    assert.ok(Math.abs(dot(a, a) - 1) < 1e-9 && Math.abs(dot(d, d) - 1) < 1e-9);
    assert.deepEqual(a, b);
    const [e] = await embed(["retry a request later"]);
    assert.ok(dot(a, e) > dot(a, c));
    assert.deepEqual([embed.calls, embed.texts], [2, 5]);
  });
});

describe("retrieval suite", () => {
  class Storage {
    constructor(files) {
      this.files = files;
    }
  }
  /** A workspace stand-in: with memo_find it answers every query with its answer's unit. */
  const stubWorkspace = ({ find, embed }) =>
    class {
      static async create(options) {
        if (options.embed && !embed)
          throw new Error("InvalidArguments: unknown option `embed`");
        return new this(options);
      }
      constructor(options) {
        this.files = options.storage.files;
      }
      tools() {
        return [
          { name: "memo_replace" },
          ...(find ? [{ name: "memo_find" }] : []),
        ];
      }
      async callUntyped(name, { query, path }) {
        const q = set.queries.find((x) => x.query === query && x.doc === path);
        const text = this.files[path];
        const ls = lines(text);
        const start =
          ls.slice(0, q.answer[0] - 1).join("\n").length +
          (q.answer[0] > 1 ? 1 : 0);
        const end = ls.slice(0, q.answer[1]).join("\n").length;
        return {
          status: "Success",
          candidates: [
            { line: q.answer[0], context_start: start, context_end: end },
          ],
        };
      }
      free() {}
    };
  const quiet = () => {};
  const out = mkdtempSync(join(tmpdir(), "retrieval-"));

  it("runs the baseline and skips memo_find with a line saying so when the build has none", async () => {
    const rows = await runSuite({
      Workspace: stubWorkspace({ find: false }),
      MemoryStorage: Storage,
      log: quiet,
      out,
    });
    assert.deepEqual(
      rows.map((r) => [r.impl, r.skipped]),
      [
        ["grep baseline", null],
        ["memo_find (BM25)", "memo_find not available in this build"],
        [
          "memo_find + hash embed (stand-in)",
          "memo_find not available in this build",
        ],
      ],
    );
    assert.ok(
      rows[0].scores.all.n === set.queries.length && rows[0].scores.all.r5 > 0,
    );
    assert.match(
      readFileSync(join(out, "retrieval.md"), "utf8"),
      /memo_find not available in this build/,
    );
  });

  it("scores memo_find through its offsets, with and without the embedder", async () => {
    const rows = await runSuite({
      Workspace: stubWorkspace({ find: true, embed: true }),
      MemoryStorage: Storage,
      log: quiet,
      out,
    });
    for (const r of rows.slice(1))
      assert.deepEqual(
        [r.skipped, r.scores.all.r1, r.scores.all.mrr, r.failed],
        [null, 1, 1, 0],
        r.impl,
      );
    const noEmbed = await runSuite({
      Workspace: stubWorkspace({ find: true, embed: false }),
      MemoryStorage: Storage,
      log: quiet,
      out,
    });
    assert.match(
      noEmbed[2].skipped,
      /`embed` option is not available in this build/,
    );
  });
});
