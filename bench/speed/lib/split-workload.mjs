// The editing workload that decides what the first wasm module of a split holds
// (docs/performance.md#wasm-split): bench/speed/wasm-split.mjs runs it on an instrumented module
// (binaryen's `wasm-split --instrument`) and splits the module by the functions it reached. Everything here is a path a page that edits runs — open, read, match,
// stage, candidates, a near miss, preview, diff, commit, revert, undo, the common errors — in both
// locales; what it never reaches goes to the second module, loaded on first use.
// Inputs are committed: the recorded sessions in tests/fixtures/sessions and the bench's seeded
// 10 KB documents, so the profile cannot drift from the sources: it is taken again at every run.

import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

import { generate } from "./docs.mjs";

const ROOT = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  "../../..",
);
const SESSIONS = path.join(ROOT, "tests/fixtures/sessions");
export const LOCALES_RUN = ["en", "zh"];

/** Lines of `text` that occur once, and lines that occur more than once (long enough to be real). */
function pickLines(text) {
  const count = new Map();
  for (const line of text.split("\n"))
    if (line.trim().length >= 12) count.set(line, (count.get(line) ?? 0) + 1);
  const unique = [...count].filter(([, n]) => n === 1).map(([l]) => l);
  const repeated = [...count].filter(([, n]) => n > 1).map(([l]) => l);
  return { unique, repeated };
}

/** One editing session on a generated document: every call of the common path, then the errors. */
async function editSession(api, kind, locale) {
  const doc = generate(kind, "10KB");
  const name = "doc.md";
  const ws = await api.Workspace.create({
    storage: new api.MemoryStorage({ [name]: doc.text }),
    locale,
  });
  try {
    const { unique, repeated } = pickLines(doc.text);
    const call = (tool, args) => ws.call(tool, args);
    await call("memo_read", { start_line: 1, end_line: 40 });
    const keyed = await call("memo_read", {
      start_line: 5,
      end_line: 12,
      line_keys: true,
    });
    await call("memo_begin_task", { goal: "tidy the document" });
    await call("memo_replace", {
      old_text: unique[0],
      new_text: `${unique[0]} // changed`,
    });
    if (repeated.length > 0) {
      await call("memo_replace", {
        old_text: repeated[0],
        new_text: `${repeated[0]} // one of them`,
      });
      await call("memo_replace_selection", { selection_id: "A" });
      await call("memo_replace", {
        old_text: repeated[0],
        new_text: "x",
        show_all_matches: true,
      });
      await call("memo_replace", {
        old_text: repeated[0],
        new_text: "x",
        expected_occurrences: 1,
      });
    }
    // A near miss: one character off, and a line with its indentation changed.
    const near = unique[1];
    await call("memo_replace", {
      old_text: `${near.slice(0, 5)}${near[5] === "q" ? "z" : "q"}${near.slice(6)}`,
      new_text: "near",
    });
    await call("memo_replace", {
      old_text: `  ${unique[2].trim()}`,
      new_text: unique[2],
    });
    await call("memo_replace", {
      old_text: unique[3],
      new_text: "preview",
      preview_only: true,
    });
    const key = /(\d+#[0-9a-f]+)│/.exec(keyed.content ?? "")?.[1];
    if (key !== undefined)
      await call("memo_replace_lines", {
        start_key: key,
        new_text: "a line by key",
      });
    await call("memo_append", { text: "\nthe end\n" });
    for (const format of ["compact", "full", "stats", "diff"])
      await call("memo_preview", { format });
    await call("memo_diff", {});
    await call("memo_read", { start_line: 1, end_line: 20, view: "committed" });
    await call("memo_commit", { summary: "tidied" });
    await call("memo_replace", { old_text: unique[4], new_text: "to drop" });
    await call("memo_discard", { reason: "not needed" });
    await call("memo_replace", { old_text: unique[5], new_text: "to revert" });
    await call("memo_revert", { reason: "wrong place" });
    await call("memo_undo", {});
    await call("memo_commit_auto", {});
    // The errors a model makes.
    await call("memo_replace", {
      old_text: "no such text anywhere in the document",
      new_text: "x",
    });
    await call("memo_replace", { new_text: "missing old_text" });
    await call("memo_replace", { old_text: 42, new_text: "wrong type" });
    await call("memo_read", { path: "missing.md" });
    await call("memo_read", { start_line: 100000 });
    await call("memo_replace_selection", { selection_id: "Q" });
    await call("memo_commit", { summary: "nothing staged" });
    await call("memo_no_such_tool", {});
    ws.text(name);
  } finally {
    ws.free();
  }
}

/** The cold-start suite's path alone: create on the 10 KB code document, one memo_read (en). */
export async function runReadWorkload(api) {
  const ws = await api.Workspace.create({
    storage: new api.MemoryStorage({ "doc.md": generate("code", "10KB").text }),
  });
  await ws.call("memo_read", { start_line: 1, end_line: 40 });
  ws.free();
}

/**
 * The Workspace's synchronous reads, which cannot wait for a module still loading: the browser
 * entry's split holds them in its first module
 * (docs/decisions.md#the-browser-entry-loads-the-rest-of-the-engine-on-first-use). Run with changes
 * pending and without, so both arms of each are.
 */
async function syncReads(ws, name, line) {
  const once = () => {
    ws.unstored();
    ws.text(name);
    ws.draft(name);
    void ws.state;
    void ws.flags;
    ws.version(name);
    ws.paths();
    ws.toolStates();
    ws.tools({ format: "json-schema" });
    ws.tools({ format: "openai", visibleOnly: true });
    ws.tasks();
  };
  once();
  await ws.call("memo_replace", {
    old_text: line,
    new_text: `${line} // pending`,
  });
  once();
  await ws.call("memo_discard", { reason: "only to read" });
}

/**
 * Exact edits of other shapes than an appended comment: a character changed in the middle of a
 * line, a deletion, a line added, a second multi-match of a text one of whose places is changed.
 */
async function moreExact(call, unique, repeated) {
  const middle = unique[7];
  const at = Math.floor(middle.length / 2);
  await call("memo_replace", {
    old_text: middle,
    new_text: `${middle.slice(0, at)}#${middle.slice(at + 1)}`,
  });
  await call("memo_replace", { old_text: unique[8], new_text: "" });
  await call("memo_replace", {
    old_text: `${unique[9]}`,
    new_text: `${unique[9]}\nan added line`,
  });
  if (repeated.length > 1) {
    await call("memo_replace", {
      old_text: repeated[1],
      new_text: `${repeated[1]} (checked)`,
    });
    await call("memo_replace_selection", { selection_id: "B" });
    // The same text again: one of its places is changed now, the others are candidates.
    await call("memo_replace", {
      old_text: repeated[1],
      new_text: `${repeated[1]} (again)`,
    });
    await call("memo_replace_selection", { selection_id: "A" });
  }
  await call("memo_preview", { format: "diff" });
  await call("memo_commit", { summary: "more shapes" });
  await call("memo_read", {});
}

/**
 * A document of more than ~30 KB: its rope has internal nodes (ropey's builder and the walks over
 * a deeper tree), which a 10 KB one never makes. Open, read, a unique replace, commit.
 */
async function largerDocument(api) {
  const doc = generate("code", "100KB");
  const ws = await api.Workspace.create({
    storage: new api.MemoryStorage({ "doc.md": doc.text }),
  });
  const { unique } = pickLines(doc.text);
  await ws.call("memo_read", { start_line: 1, end_line: 40 });
  const line = unique[Math.floor(unique.length / 2)];
  await ws.call("memo_replace", {
    old_text: line,
    new_text: `${line} // changed`,
  });
  await ws.call("memo_commit", { summary: "one line" });
  ws.free();
}

/**
 * The least an editing page runs: exact matches only (read, a unique replace, a multi-match and
 * its pick, preview, diff, commit, discard, revert, an argument error), other edit shapes, a
 * larger document and the Workspace's synchronous reads, in English and in Chinese. No near miss,
 * no tolerant tier. Its primary ships as the browser entry's first module, pkg/agentpad_core.wasm
 * (docs/decisions.md#the-browser-entry-loads-the-rest-of-the-engine-on-first-use): a call added
 * here pays for its bytes against that module's budget (www/test/size.test.mjs).
 */
export async function runExactWorkload(api) {
  await largerDocument(api);
  // Both locales: zh answers through the same functions with its own phrase table (in the data,
  // which a split keeps whole in the first module); the Chinese document walks the char index.
  for (const [kind, locale] of [
    ["code", "en"],
    ["markdown", "en"],
    ["cjk", "zh"],
  ]) {
    const doc = generate(kind, "10KB");
    const ws = await api.Workspace.create({
      storage: new api.MemoryStorage({ "doc.md": doc.text }),
      locale,
    });
    const { unique, repeated } = pickLines(doc.text);
    const call = (tool, args) => ws.call(tool, args);
    await call("memo_read", { start_line: 1, end_line: 40 });
    await call("memo_replace", {
      old_text: unique[0],
      new_text: `${unique[0]} // changed`,
    });
    if (repeated.length > 0) {
      await call("memo_replace", {
        old_text: repeated[0],
        new_text: `${repeated[0]} // one of them`,
      });
      await call("memo_replace_selection", { selection_id: "A" });
    }
    await call("memo_preview", { format: "diff" });
    await call("memo_diff", {});
    await call("memo_commit", { summary: "tidied" });
    await call("memo_replace", { old_text: unique[4], new_text: "to drop" });
    await call("memo_discard", { reason: "not needed" });
    await call("memo_replace", { old_text: unique[5], new_text: "to revert" });
    await call("memo_revert", { reason: "wrong place" });
    await call("memo_replace", { new_text: "missing old_text" });
    ws.text("doc.md");
    await syncReads(ws, "doc.md", unique[6]);
    await moreExact(call, unique, repeated);
    ws.free();
  }
}

/** Runs the workload through the package's API (`Workspace`, `MemoryStorage`, `replayTranscript`). */
export async function runEditingWorkload(api) {
  const sessions = fs
    .readdirSync(SESSIONS)
    .filter((f) => f.endsWith(".json"))
    .sort();
  for (const locale of LOCALES_RUN) {
    for (const file of sessions) {
      const transcript = JSON.parse(
        fs.readFileSync(path.join(SESSIONS, file), "utf8"),
      );
      await api.replayTranscript(transcript, { options: { locale } });
    }
    for (const kind of ["code", "markdown", "cjk"])
      await editSession(api, kind, locale);
  }
}

// As a script: run a workload on an instrumented module and write its profile.
//   node bench/speed/lib/split-workload.mjs INSTRUMENTED.wasm PROFILE_OUT [edit|exact|read]
// Needs the package built (`./build.sh pack`): it drives www/dist over www/pkg's glue, which must
// be the glue wasm-bindgen wrote for the same cargo module.
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [wasmPath, profileOut, workload = "edit"] = process.argv.slice(2);
  const glue = await import("../../../www/pkg/agentpad.js");
  const { setWasmLoader } = await import("../../../www/dist/loader.js");
  const api = await import("../../../www/dist/index.js");
  let exports;
  setWasmLoader(async () => {
    exports = glue.initSync({
      module: new WebAssembly.Module(fs.readFileSync(wasmPath)),
    });
    return exports;
  });
  const workloads = {
    read: runReadWorkload,
    exact: runExactWorkload,
    edit: runEditingWorkload,
  };
  if (!(workload in workloads))
    throw new Error(
      `split-workload: no workload ${workload} (${Object.keys(workloads).join(", ")})`,
    );
  await workloads[workload](api);
  // wasm-split's instrumentation: __write_profile(ptr, size) writes the profile (a module hash and
  // one 4-byte timestamp per defined function) into memory and returns its length.
  const size = 8 + 4 * 20000;
  const ptr = exports.__wbindgen_malloc(size, 1);
  const written = exports.__write_profile(ptr, size);
  if (written > size)
    throw new Error(`split-workload: profile needs ${written} bytes`);
  fs.writeFileSync(
    profileOut,
    new Uint8Array(exports.memory.buffer, ptr, written).slice(),
  );
}
