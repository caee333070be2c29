"""Builds editbench's real-failure set (docs/editbench.md#real-failures) from a public transcript.

    python3 tools/real-failures.py <aider checkout> [--check]

The transcript is Aider's own chat-history fixture (tests/fixtures/chat-history.md in
Aider-AI/aider): the author's sessions building Aider with Aider, where every applied edit was
committed to that repository. For every SEARCH block Aider reports as failed, the script finds the
call in the assistant's reply, the agent's own later successful block on the same place (the
intent), and the file as it was when the call was made, from the repository's history:

  - the parent of the commit that applied the retry, when no later block of the failing reply
    touched the file (nothing else changed the file between the call and the retry; changes on
    disk were committed by Aider as a "before applying edits" commit, which is that parent);
  - otherwise the commit current before the failing reply, with the reply's earlier blocks on the
    file replayed exactly (Aider applies a reply's blocks in order).

A case is kept only when every check holds (the reasons for dropping one are counted): the commit
is in the public history, the lines Aider quoted back ("Did you mean to match ...") are in the
reconstructed file, the failed SEARCH does not occur exactly once in it, and the retry's SEARCH
occurs exactly once and overlaps the place the failed block meant. Writes docs-real/ (the files,
verbatim from the commit, with SOURCES.tsv) and cases/real/ (RF.json, MANIFEST.json); --check
rebuilds in memory and compares with the committed files. Uses git and the standard library only.
"""
import difflib, hashlib, json, re, subprocess, sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
HISTORY = "tests/fixtures/chat-history.md"
# The fixture as cited: the commit where it last changed.
HISTORY_COMMIT = "4b2227c71f82193cf6edba5dd2117962782cacf2"
GENERATOR = "editbench-real/1"
FROZEN_AT = "2026-12-02T16:30:00.000Z"

# What kind of slip each kept call is, read by hand from the call, the file and the retry
# (keyed by the line of Aider's failure report in the fixture).
CLASSES = {
    3927: ("stale after own edit", "the linter re-wrapped the call the agent wrote; the SEARCH has it on one line"),
    4995: ("stale after own edit", "the linter changed the agent's quotes and stripped a blank line's spaces; the SEARCH has the old text"),
    15624: ("misremembered lines", "the SEARCH anchors on an `import asyncio` line the file does not have"),
    25192: ("misremembered lines", "the SEARCH has an `else:` branch the function does not have"),
    27344: ("stale after own edit", "earlier blocks of the same reply changed the signature; the SEARCH has it as it was"),
    46076: ("misremembered token", "`if args.model:` for `if not args.model:`"),
    50678: ("other (lines out of order)", "the SEARCH lists the file's three methods in another order"),
    76762: ("stale after own edit", "the SEARCH still has a field from the agent's edit the user undid"),
    89953: ("stale after own edit", "the SEARCH lacks the parameter the agent's previous edit added"),
}


def git(repo, *args):
    r = subprocess.run(["git", "-C", str(repo), *args], capture_output=True)
    return r.returncode, r.stdout


def full_hash(repo, short):
    rc, out = git(repo, "rev-parse", "--verify", "-q", short + "^{commit}")
    return None if rc else out.decode().strip()


def file_at(repo, commit, path):
    rc, out = git(repo, "show", f"{commit}:{path}")
    return None if rc else out.decode("utf-8")


def text(lines):
    return "\n".join(lines) + "\n"


def kind(line):
    if line.startswith("# aider chat started"):
        return "session"
    if line.startswith("#### "):
        return "user"
    if line.startswith("> ") or line == ">":
        return "tool"
    return "text"


def unquote(line):
    s = line[2:] if line.startswith("> ") else ("" if line == ">" else line)
    return s[:-2] if s.endswith("  ") else s


class History:
    def __init__(self, body):
        self.lines = body.split("\n")
        self.replies = []  # (first index, end index) of runs of assistant text
        i = 0
        while i < len(self.lines):
            if kind(self.lines[i]) == "text":
                j = i
                while j < len(self.lines) and kind(self.lines[j]) == "text":
                    j += 1
                if any(self.lines[x].strip() == "<<<<<<< SEARCH" for x in range(i, j)):
                    self.replies.append((i, j))
                i = j
            else:
                i += 1

    def session_start(self, n):
        for k in range(n, 0, -1):
            if kind(self.lines[k - 1]) == "session":
                return k
        return 1

    def blocks(self, start, end):
        """SEARCH/REPLACE blocks between two line indexes: file, search lines, replace lines, 1-based line."""
        out, L, i = [], self.lines, start
        while i < end:
            if L[i].strip() == "<<<<<<< SEARCH":
                name = None
                for b in range(i - 1, max(start - 1, i - 4), -1):
                    t = L[b].strip()
                    if t.startswith("```") or t.startswith("<source") or t.startswith("</source"):
                        continue
                    if t:
                        name = t.strip("`*:")
                        break
                s, r, k = [], [], i + 1
                while k < end and L[k] != "=======":
                    s.append(L[k])
                    k += 1
                k += 1
                while k < end and L[k].strip() != ">>>>>>> REPLACE":
                    r.append(L[k])
                    k += 1
                out.append({"file": name, "search": s, "replace": r, "line": i + 1})
                i = k
            i += 1
        return out

    def commits(self, a, b):
        """(line, hash, made before applying edits) of the commits Aider reports in lines a..b-1."""
        out = []
        for n in range(a, b):
            m = re.match(r"> (?:Commit|HEAD is:) ([0-9a-f]{7,})", self.lines[n - 1])
            if m:
                out.append((n, m.group(1), n >= 2 and "before applying edits" in self.lines[n - 2]))
        return out

    def failures(self):
        """Every block Aider reports as not matching: (report line, file, quoted SEARCH, quoted hint or None)."""
        L = self.lines
        for n, line in enumerate(L):
            m = re.match(r"> ## SearchReplaceNoExactMatch: This SEARCH block failed to exactly match lines in (.+?)\s*$", line)
            if not m:
                continue
            j = n + 1
            while not unquote(L[j]).startswith("<<<<<<< SEARCH"):
                j += 1
            s, j = [], j + 1
            while unquote(L[j]) != "=======":
                s.append(unquote(L[j]))
                j += 1
            while not unquote(L[j]).startswith(">>>>>>> REPLACE"):
                j += 1
            hint, t = None, j + 1
            while t < len(L) and kind(L[t]) == "tool" and not unquote(L[t]).startswith("## Search"):
                if unquote(L[t]).startswith("Did you mean to match"):
                    a = t + 1
                    while unquote(L[a]) != "```":
                        a += 1
                    hint, b = [], a + 1
                    while unquote(L[b]) != "```":
                        hint.append(unquote(L[b]))
                        b += 1
                    break
                t += 1
            yield n + 1, m.group(1), s, hint


def rstripped(lines):
    return [x.rstrip() for x in lines]


def failed_reports_after(h, start, end, name):
    return [f for f in h.failures() if start <= f[0] <= end and f[1] == name]


def best_window(doc, search):
    """The lines of doc most like the failed SEARCH (first and end line, 0-based)."""
    lines, want = doc.split("\n"), search.rstrip("\n").split("\n")
    best = (-1.0, 0)
    for i in range(max(1, len(lines) - len(want) + 1)):
        r = difflib.SequenceMatcher(None, "\n".join(lines[i : i + len(want)]), "\n".join(want), autojunk=False).ratio()
        if r > best[0]:
            best = (r, i)
    return best[1], best[1] + len(want)


def utf16(s, at):
    return len(s[:at].encode("utf-16-le")) // 2


def build(repo):
    body = file_at(repo, HISTORY_COMMIT, HISTORY)
    h = History(body)
    failures = list(h.failures())
    kept, dropped = [], {}

    def drop(n, why):
        dropped.setdefault(why, []).append(n)

    for n, name, quoted, hint in failures:
        reply = [r for r in h.replies if r[1] <= n - 1][-1]
        same_file = [b for b in h.blocks(*reply) if b["file"] == name]
        hit = [b for b in same_file if rstripped(b["search"]) == rstripped(quoted)]
        if not hit:
            drop(n, "the failed block is not in the reply")
            continue
        failed = hit[0]
        before = [b for b in same_file if b["line"] < failed["line"]]
        after = [b for b in same_file if b["line"] > failed["line"]]
        # The retry: the first later reply of the session with a block on the file that Aider applied.
        retry = None
        for r2 in [r for r in h.replies if r[0] > n and h.session_start(r[0] + 1) == h.session_start(n)]:
            blocks = [b for b in h.blocks(*r2) if b["file"] == name]
            if not blocks:
                continue
            nxt = [r for r in h.replies if r[0] > r2[1]]
            end = nxt[0][0] if nxt else len(h.lines)
            failed_again = [rstripped(f[2]) for f in failed_reports_after(h, r2[1], end, name)]
            ok = [b for b in blocks if rstripped(b["search"]) not in failed_again]
            applied = any(h.lines[k - 1].startswith(f"> Applied edit to {name}") for k in range(r2[1], end + 1))
            if ok and applied:
                retry = {"blocks": ok, "reply": r2, "end": end}
                break
        if not retry:
            drop(n, "no successful retry in the session")
            continue
        made = [c for c in h.commits(retry["reply"][1], retry["end"] + 1) if not c[2]]
        R = full_hash(repo, made[0][1]) if made else None
        prior = h.commits(h.session_start(n), reply[0])
        H = full_hash(repo, prior[-1][1]) if prior else None
        replayed = file_at(repo, H, name) if H else None
        for b in before:
            if replayed is None or replayed.count(text(b["search"])) != 1:
                replayed = None
                break
            replayed = replayed.replace(text(b["search"]), text(b["replace"]), 1)
        if not after and R:
            commit = git(repo, "rev-parse", R + "^")[1].decode().strip()
            doc, how = file_at(repo, commit, name), "the parent of the commit that applied the retry"
        elif replayed is not None:
            commit, doc = H, replayed
            how = "the commit current before the call" + (", with the reply's earlier blocks on the file replayed" if before else "")
        else:
            drop(n, "the file as it was is not in the public history")
            continue
        if hint is not None and text(hint).strip("\n") not in doc:
            drop(n, "the lines Aider quoted back are not in the reconstructed file")
            continue
        fs, fr = text(failed["search"]), text(failed["replace"])
        if doc.count(fs) == 1:
            drop(n, "the failed SEARCH occurs exactly once in the reconstructed file")
            continue
        pre_retry = doc
        for b in after:
            if pre_retry.count(text(b["search"])) == 1:
                pre_retry = pre_retry.replace(text(b["search"]), text(b["replace"]), 1)
        a, z = best_window(doc, fs)
        pick = None
        for b in retry["blocks"]:
            rs = text(b["search"])
            if doc.count(rs) != 1 or pre_retry.count(rs) != 1:
                continue
            at = doc.index(rs)
            la = doc[:at].count("\n")
            overlap = min(z, la + len(b["search"])) - max(a, la)
            if overlap > 0 and (pick is None or overlap > pick[0]):
                pick = (overlap, b, at)
        if not pick:
            drop(n, "the retry changed another place, or does not apply exactly")
            continue
        if n not in CLASSES:
            drop(n, "not yet classified")
            continue
        _, rb, at = pick
        rs, rr = text(rb["search"]), text(rb["replace"])
        kept.append({"n": n, "name": name, "commit": commit, "how": how, "doc": doc, "failed": (fs, fr, failed["line"]), "retry": (rs, rr, rb["line"], R), "at": at, "hint": hint, "count": doc.count(fs), "session": h.session_start(n)})
    return kept, dropped, len(failures)


def outputs(repo):
    kept, dropped, total = build(repo)
    docs, sources, cases = {}, ["file\torigin\tpackage\tlicence\tsha256\ttransformation"], []
    for i, k in enumerate(kept):
        cls, what = CLASSES[k["n"]]
        base = k["name"].split("/")[-1]
        doc_name = f"aider-l{k['n']}-{base}"
        docs[doc_name] = k["doc"]
        sha = hashlib.sha256(k["doc"].encode("utf-8")).hexdigest()
        sources.append(f"{doc_name}\thttps://github.com/Aider-AI/aider/blob/{k['commit']}/{k['name']}\tAider-AI/aider@{k['commit'][:12]} (git)\tApache-2.0\t{sha}\tnone (verbatim): {k['how']}")
        fs, fr, fline = k["failed"]
        rs, rr, rline, R = k["retry"]
        start, end = utf16(k["doc"], k["at"]), utf16(k["doc"], k["at"] + len(rs))
        url = f"https://github.com/Aider-AI/aider/blob/{HISTORY_COMMIT}/{HISTORY}"
        cases.append({
            "id": f"RF-{i + 1:02d}",
            "category": "RF",
            "title": f"{k['name']}: {what}",
            "source": f"{url}#L{k['n']}",
            "doc": doc_name,
            "doc_dir": "docs-real",
            "target": [{"start": start, "end": end}],
            "expected": [{"start": start, "end": end, "text": rr}],
            "attempt": {"old_text": fs, "new_text": fr},
            "must_refuse": False,
            "perturbation": {"model": "real-failure", "class": cls},
            "real": {
                "agent": "Aider (editblock format)",
                "transcript": {"repo": "Aider-AI/aider", "path": HISTORY, "commit": HISTORY_COMMIT, "session_line": k["session"], "failed_call_line": fline, "error_line": k["n"], "retry_line": rline},
                "error": "SearchReplaceNoExactMatch" + (" (the SEARCH occurs several times)" if k["count"] > 1 else ""),
                "quoted_back": text(k["hint"]) if k["hint"] is not None else None,
                "file": {"repo": "Aider-AI/aider", "path": k["name"], "commit": k["commit"], "how": k["how"], "whole": True},
                "retry": {"old_text": rs, "new_text": rr, "applied_in": R},
                "class": cls,
                "note": what,
            },
        })
    return docs, "\n".join(sources) + "\n", cases, dropped, total


def main():
    args = sys.argv[1:]
    repo = Path(args[0])
    check = "--check" in args
    docs, sources, cases, dropped, total = outputs(repo)
    case_json = json.dumps(cases, indent=1, ensure_ascii=False) + "\n"
    files = {ROOT / "docs-real" / n: t for n, t in docs.items()}
    files[ROOT / "docs-real" / "SOURCES.tsv"] = sources
    files[ROOT / "cases" / "real" / "RF.json"] = case_json
    manifest = {
        "version": "real",
        "generator": GENERATOR,
        "seed": None,
        "cases": len(cases),
        "frozen_at": FROZEN_AT,
        "files": {"RF.json": hashlib.sha256(case_json.encode("utf-8")).hexdigest()},
        "docs": {n: hashlib.sha256(docs[n].encode("utf-8")).hexdigest() for n in sorted(docs)},
        "source": {"transcript": f"Aider-AI/aider {HISTORY} at {HISTORY_COMMIT}", "failed_blocks": total, "kept": len(cases), "dropped": {k: len(v) for k, v in sorted(dropped.items())}},
    }
    files[ROOT / "cases" / "real" / "MANIFEST.json"] = json.dumps(manifest, indent=1) + "\n"
    if check:
        bad = [str(p) for p, t in files.items() if not p.exists() or p.read_text(encoding="utf-8") != t]
        print("real-failure set reproduced" if not bad else "differs: " + ", ".join(bad))
        sys.exit(1 if bad else 0)
    for p, t in files.items():
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(t, encoding="utf-8")
    print(f"{len(cases)} cases from {total} failed blocks; dropped: " + ", ".join(f"{k} {len(v)}" for k, v in sorted(dropped.items())))


if __name__ == "__main__":
    main()
