//! Placeholder lines (docs/architecture.md#matching, docs/responses.md): a lazy sketch lands
//! like an apply model's, a placeholder line never reaches a document, and a document's own
//! `...` line is content. Realistic fixtures: a TypeScript class, a Go file with tabs, a Python
//! module, a Makefile, prose.
#![cfg(not(target_arch = "wasm32"))]

mod common;

use agentpad::Status;
use common::Host;
use serde_json::json;

const TS: &str = "\
import { Clock } from './clock';

export class LruCache<K, V> {
  private map = new Map<K, V>();
  private hits = 0;

  constructor(private limit: number, private clock: Clock) {}

  get(key: K): V | undefined {
    const v = this.map.get(key);
    if (v !== undefined) {
      this.map.delete(key);
      this.map.set(key, v);
      this.hits++;
    }
    return v;
  }

  set(key: K, value: V): void {
    this.map.set(key, value);
    if (this.map.size > this.limit) {
      const oldest = this.map.keys().next().value;
      this.map.delete(oldest as K);
    }
  }

  stats(): { size: number; hits: number } {
    return { size: this.map.size, hits: this.hits };
  }
}
";

const GO: &str = "\
package store

import (
\t\"errors\"
\t\"sync\"
)

var ErrMissing = errors.New(\"missing\")

type Store struct {
\tmu   sync.Mutex
\tdata map[string][]byte
}

func (s *Store) Get(key string) ([]byte, error) {
\ts.mu.Lock()
\tdefer s.mu.Unlock()
\tv, ok := s.data[key]
\tif !ok {
\t\treturn nil, ErrMissing
\t}
\treturn v, nil
}

func (s *Store) Put(key string, v []byte) {
\ts.mu.Lock()
\tdefer s.mu.Unlock()
\ts.data[key] = v
}
";

const PY: &str = "\
import json
from pathlib import Path


class Settings:
    def __init__(self, path: Path):
        self.path = path
        self.values = {}

    def load(self):
        text = self.path.read_text()
        self.values = json.loads(text)
        return self.values

    def get(self, key, default=None):
        return self.values.get(key, default)
";

const MAKEFILE: &str = "\
CC ?= cc
CFLAGS = -O2 -Wall

build: main.o util.o
\t$(CC) $(CFLAGS) -o app main.o util.o
\t@echo built

clean:
\trm -f *.o app
";

/// memo_replace on a host with `doc`; the status, the summary and the draft after.
fn replace(doc: &str, old: &str, new: &str) -> (Status, String, String) {
    let mut h = Host::new(&[("a.txt", doc)]);
    let r = h.call("memo_replace", json!({"old_text": old, "new_text": new}));
    (r.status, format!("{}\n{}", r.summary, r.guidance.unwrap_or_default()), h.ws.draft(None).unwrap())
}

fn lines(doc: &str, from: &str, to: &str) -> String {
    let a = doc.find(from).unwrap();
    let b = doc[a..].find(to).unwrap() + a + to.len();
    doc[a..b].to_string()
}

/// old_text copied whole, only new_text lazy: each placeholder is written as the lines of
/// old_text it stands for, on the first call, and said so.
#[test]
fn a_sketch_against_a_whole_old_text_lands_with_the_lines_its_placeholders_stand_for() {
    // TypeScript: the return line rewritten after the placeholder.
    let old = lines(TS, "  get(key: K)", "    return v;\n  }");
    let new = "  get(key: K): V | undefined {\n    // ... existing code ...\n    return v ?? this.fallback(key);\n  }";
    let (status, said, draft) = replace(TS, &old, new);
    assert_eq!(status, Status::Success, "{said}");
    assert_eq!(draft, TS.replace("    return v;\n  }\n\n  set", "    return v ?? this.fallback(key);\n  }\n\n  set"));
    assert!(said.contains("placeholder line of your new_text was written as the lines of your old_text it stands for"), "{said}");

    // Go with tabs: a line added before the return, the placeholder standing for the top.
    let old = lines(GO, "func (s *Store) Get", "\treturn v, nil\n}");
    let new = "func (s *Store) Get(key string) ([]byte, error) {\n\t// ...\n\tmetrics.Hit(key)\n\treturn v, nil\n}";
    let (status, said, draft) = replace(GO, &old, new);
    assert_eq!(status, Status::Success, "{said}");
    assert_eq!(draft, GO.replace("\t}\n\treturn v, nil", "\t}\n\tmetrics.Hit(key)\n\treturn v, nil"));

    // Python: two placeholders in a class, a method rewritten between them.
    let old = lines(PY, "class Settings:", "default)");
    let new = "class Settings:\n    # ... existing code ...\n\n    def load(self):\n        text = self.path.read_text(encoding=\"utf-8\")\n        # rest unchanged\n\n    def get(self, key, default=None):\n        return self.values.get(key, default)";
    let (status, said, draft) = replace(PY, &old, new);
    assert_eq!(status, Status::Success, "{said}");
    assert_eq!(draft, PY.replace("read_text()", "read_text(encoding=\"utf-8\")"));

    // A Makefile: a recipe line added at the end of a rule.
    let old = lines(MAKEFILE, "build:", "@echo built");
    let new = "build: main.o util.o\n\t# ...\n\t@echo built\n\tstrip app";
    let (status, said, draft) = replace(MAKEFILE, &old, new);
    assert_eq!(status, Status::Success, "{said}");
    assert_eq!(draft, MAKEFILE.replace("@echo built\n", "@echo built\n\tstrip app\n"));
}

/// Class sketches: a new method after the placeholder closes with its own `}` (not the one
/// of the method before it), and a field added before a placeholder that stands for the rest
/// of the class keeps the class's blank line once.
#[test]
fn class_sketches_keep_every_line_the_placeholder_stands_for() {
    let class = lines(TS, "export class", "hits: this.hits };\n  }\n}");
    let new = "export class LruCache<K, V> {\n  // ... existing code ...\n\n  clear(): void {\n    this.map.clear();\n  }\n\n  stats(): { size: number; hits: number } {\n    return { size: this.map.size, hits: this.hits };\n  }\n}";
    let (status, said, draft) = replace(TS, &class, new);
    assert_eq!(status, Status::Success, "{said}");
    assert_eq!(draft, TS.replace("  stats()", "  clear(): void {\n    this.map.clear();\n  }\n\n  stats()"));
    let new = "export class LruCache<K, V> {\n  private map = new Map<K, V>();\n  private hits = 0;\n  private misses = 0;\n\n  // Rest of the code remains the same\n}";
    let (status, said, draft) = replace(TS, &class, new);
    assert_eq!(status, Status::Success, "{said}");
    assert_eq!(draft, TS.replace("  private hits = 0;\n", "  private hits = 0;\n  private misses = 0;\n"));
    // A Go function whose last line changed and the file's end left out: the placeholder at
    // the end stands for the rest, not a second copy of it.
    let new = "package store\n\n// ... existing code ...\n\t}\n\treturn v, nil // cached\n}\n\nfunc (s *Store) Put(key string, v []byte) {\n// ... existing code ...";
    let (status, said, draft) = replace(GO, GO.trim_end(), new);
    assert!(status == Status::Success || status == Status::InvalidArguments, "{said}");
    assert!(draft == GO || draft == GO.replace("\treturn v, nil\n", "\treturn v, nil // cached\n"), "{draft}");
}

/// Where what a placeholder stands for cannot be told, nothing is written — and never the
/// placeholder line.
#[test]
fn a_sketch_that_cannot_be_mapped_is_refused_and_never_written() {
    let old = lines(TS, "  get(key: K)", "    return v;\n  }");
    // `let v` beside the placeholder's first line `const v`: a rewrite or an added line?
    let new = "  get(key: K): V | undefined {\n    let v = this.map.get(key);\n    // ... existing code ...\n  }";
    let (status, said, draft) = replace(TS, &old, new);
    assert_eq!(status, Status::InvalidArguments, "{said}");
    assert!(said.contains("is unclear") && said.contains("Nothing was changed"), "{said}");
    assert_eq!(draft, TS);
    // Two placeholders with a new line between them and no line of old_text.
    let new = "  get(key: K): V | undefined {\n    // ...\n    this.clock.tick();\n    // ...\n  }";
    let (status, said, draft) = replace(TS, &old, new);
    assert_eq!(status, Status::InvalidArguments, "{said}");
    assert_eq!(draft, TS);
}

/// A near miss of a sketch's old_text (a typo in it), picked: the placeholder is filled from
/// old_text and only the change is applied there.
#[test]
fn a_sketch_with_a_misremembered_old_text_lands_on_the_pick() {
    let old = lines(TS, "  get(key: K)", "    return v;\n  }").replace("this.hits++", "this.hit++");
    let new = "  get(key: K): V | undefined {\n    // ... existing code ...\n    return v ?? this.fallback(key);\n  }";
    let mut h = Host::new(&[("a.ts", TS)]);
    let r = h.call("memo_replace", json!({"old_text": old, "new_text": new}));
    assert_eq!(r.status, Status::NoMatch, "{}", r.markdown);
    let r = h.call("memo_replace_selection", json!({"selection_id": "A"}));
    assert_eq!(r.status, Status::Success, "{}", r.markdown);
    assert_eq!(h.ws.draft(None).unwrap(), TS.replace("    return v;\n  }\n\n  set", "    return v ?? this.fallback(key);\n  }\n\n  set"));
}

/// A document's own placeholder-like line (`... and then it poured.`, `* Unchanged: lexer`, a
/// Python `...` body) copied with a slip in it is that line, not a placeholder: the change to
/// it is never dropped for the document's line, and never answered NoOp.
#[test]
fn a_document_s_own_placeholder_like_line_is_content() {
    let prose = "The sky went dark over the hills.\nWe waited by the gate for an hour.\n... and then it poured.\nNobody had brought a coat.\n";
    let notes = "Release notes\n\n* Changed: parser\n* Unchanged: lexer\n* Removed: old cli\n";
    let py = "class Proto:\n    def read(self) -> bytes:\n        ...\n\n    def write(self, data: bytes) -> int:\n        ...\n";
    let cases = [
        (prose, "We waited by the gate for an hour.\n... and then it pored.\nNobody had brought a coat.", "We waited by the gate for an hour.\n... and then it rained for days.\nNobody had brought a coat."),
        (prose, "We waited by the gate for an hour.\n... and then it pored.", "We waited by the gate for an hour.\n... and then it poured!"),
        (notes, "* Changed: parser\n* Unchanged: lexr\n* Removed: old cli", "* Changed: parser\n* Unchanged: lexer, tokens\n* Removed: old cli"),
        (py, "    def read(self) -> bytes:\n        ....\n\n    def write(self, data: bytes) -> int:", "    def read(self) -> bytes:\n        return b''\n\n    def write(self, data: bytes) -> int:"),
    ];
    for (doc, old, new) in cases {
        let mut h = Host::new(&[("a.txt", doc)]);
        let r = h.call("memo_replace", json!({"old_text": old, "new_text": new}));
        assert_ne!(r.status, Status::NoOp, "{old:?}: {}", r.markdown);
        assert_ne!(r.status, Status::Success, "{old:?}: {}", r.markdown);
        // Whatever any candidate pick stages is the change, or nothing is staged.
        for letter in ["A", "B", "C"].iter().take(r.candidates.len()) {
            let mut h = Host::new(&[("a.txt", doc)]);
            h.call("memo_replace", json!({"old_text": old, "new_text": new}));
            let p = h.call("memo_replace_selection", json!({"selection_id": letter}));
            let draft = h.ws.draft(None).unwrap();
            assert_ne!(p.status, Status::NoOp, "{old:?} pick {letter}: {}", p.markdown);
            if p.status == Status::Success {
                let want = doc.replacen(&old.replace("pored", "poured").replace("lexr", "lexer").replace("....", "..."), new, 1);
                assert_eq!(draft, want, "{old:?} pick {letter}: {}", p.markdown);
            } else {
                assert_eq!(draft, doc, "{old:?} pick {letter}: {}", p.markdown);
            }
        }
    }
}

/// The pick of a near miss whose old_text holds the document's own placeholder-like line,
/// with a slip elsewhere: the line is content, and a change to it lands as a change.
#[test]
fn a_change_to_a_document_s_own_placeholder_like_line_lands_on_the_pick() {
    let prose = "The sky went dark over the hills.\nWe waited by the gate for an hour.\n... and then it poured.\nNobody had brought a coat.\n";
    let mut h = Host::new(&[("a.txt", prose)]);
    let old = "We waited by the gate for an hour!\n... and then it poured.\nNobody had brought a coat.";
    let new = "We waited by the gate for an hour!\n... and then it rained for days.\nNobody had brought a coat.";
    let r = h.call("memo_replace", json!({"old_text": old, "new_text": new}));
    assert_eq!(r.status, Status::NoMatch, "{}", r.markdown);
    let r = h.call("memo_replace_selection", json!({"selection_id": "A"}));
    assert_eq!(r.status, Status::Success, "{}", r.markdown);
    assert_eq!(h.ws.draft(None).unwrap(), prose.replace("it poured.", "it rained for days."));
    // A placeholder added elsewhere by that new_text is still never written.
    let mut h = Host::new(&[("a.txt", prose)]);
    let new = "We waited by the gate for an hour!\n... and then it poured.\n// ... rest unchanged ...";
    h.call("memo_replace", json!({"old_text": old, "new_text": new}));
    let r = h.call("memo_replace_selection", json!({"selection_id": "A"}));
    assert_ne!(r.status, Status::Success, "{}", r.markdown);
    assert_eq!(h.ws.draft(None).unwrap(), prose);
}

/// A Python module of `n` small functions.
fn module(n: usize) -> String {
    let mut s = String::from("import os\n\n");
    for i in 0..n {
        s.push_str(&format!("def step_{i}(x):\n    y = x + {i}\n    return y * 2\n\n\n"));
    }
    s.push_str("if __name__ == \"__main__\":\n    main()\n");
    s
}

/// Class- and file-sized sketches: a placeholder may stand for hundreds of lines, and a region
/// may be most of the file, when its anchors each occur once in it.
#[test]
fn class_and_file_sized_sketches_land() {
    let doc = module(120);
    // A region of the whole file, one placeholder standing for about 600 lines.
    let old = "import os\n\n# ... existing code ...\n\nif __name__ == \"__main__\":\n    main()";
    let new = "import os\nimport sys\n\n# ... existing code ...\n\nif __name__ == \"__main__\":\n    main(sys.argv)";
    let (status, said, draft) = replace(&doc, old, new);
    assert_eq!(status, Status::Success, "{said}");
    assert_eq!(draft, doc.replace("import os\n", "import os\nimport sys\n").replace("main()\n", "main(sys.argv)\n"));
    // Two regions of one sketch far apart.
    let old = "def step_3(x):\n    y = x + 3\n# ...\ndef step_110(x):\n    y = x + 110";
    let new = "def step_3(x):\n    y = x + 30\n# ...\ndef step_110(x):\n    y = x + 1100";
    let (status, said, draft) = replace(&doc, old, new);
    assert_eq!(status, Status::Success, "{said}");
    assert_eq!(draft, doc.replace("x + 3\n", "x + 30\n").replace("x + 110\n", "x + 1100\n"));
}

/// Pieces are whole lines: one that starts and ends with `}` cannot overlap itself on a line.
/// And an anchor that recurs soon after is no doubt when the next piece rules the recurrence
/// out.
#[test]
fn whole_line_pieces_and_recurring_anchors_the_next_piece_rules_out() {
    let go = "func f(x int) int {\n\tif x > 0 {\n\t\tx--\n\t} else {\n\t\tx++\n\t}\n\treturn x\n}\n\nfunc g() {\n\th()\n}\n";
    let old = "func f(x int) int {\n...\n\t} else {\n\t\tx++\n\t}\n...\n}";
    let new = "func f(x int) int {\n...\n\t} else {\n\t\tx += 2\n\t}\n...\n}";
    let (status, said, draft) = replace(go, old, new);
    assert_eq!(status, Status::Success, "{said}");
    assert_eq!(draft, go.replace("x++", "x += 2"));
    // `}` closes a and b; `    two();` after it lies before b's `}`, so the reading through
    // b's `}` has no place for it: the change after a's `}` is a's.
    let rs = "fn a() {\n    one();\n}\nfn b() {\n    two();\n}\nfn c() {\n    three();\n}\n";
    let old = "fn a() {\n    ...\n}\n...\n    two();";
    let new = "fn a() {\n    ...\n}\n// a ends here\n...\n    two();";
    let (status, said, draft) = replace(rs, old, new);
    assert_eq!(status, Status::Success, "{said}");
    assert_eq!(draft, rs.replace("}\nfn b", "}\n// a ends here\nfn b"));
}
