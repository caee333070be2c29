use super::*;

fn chars(s: &str) -> Vec<char> {
    s.chars().collect()
}

/// The plain model: splice each replacement into a char vector, right to left.
fn model_apply(base: &str, reps: &[Replacement]) -> String {
    let mut v = chars(base);
    for r in reps.iter().rev() {
        v.splice(r.range.clone(), r.text.chars());
    }
    v.into_iter().collect()
}

fn set(base_len: usize, reps: &[(Range<usize>, &str)]) -> ChangeSet {
    ChangeSet::try_from_replacements(base_len, reps.iter().map(|(r, t)| Replacement { range: r.clone(), text: t.to_string() })).unwrap()
}

/// A small deterministic generator: no clock, no dependency.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            (self.next() % n as u64) as usize
        }
    }
    fn text(&mut self, max: usize) -> String {
        const ALPHABET: [char; 7] = ['a', 'b', '\n', '中', '😀', 'é', ' '];
        (0..self.below(max + 1)).map(|_| ALPHABET[self.below(ALPHABET.len())]).collect()
    }
    /// Random sorted replacements, touching allowed.
    fn changes(&mut self, base_len: usize) -> Vec<Replacement> {
        let mut out = Vec::new();
        let mut at = 0;
        while at <= base_len && self.below(3) != 0 {
            let start = at + self.below(base_len - at + 1).min(3);
            let end = start + self.below(base_len - start + 1).min(self.below(4));
            let text = self.text(3);
            let empty_after_nonempty = out.last().is_some_and(|p: &Replacement| p.range.start == start && !p.range.is_empty());
            if start == end && empty_after_nonempty {
                break;
            }
            out.push(Replacement { range: start..end, text });
            at = end;
        }
        out
    }
}

#[test]
fn apply_counts_chars_not_bytes() {
    let base = "中文😀ab";
    let cs = set(5, &[(0..1, "X"), (2..3, "🎉🎉"), (5..5, "!")]);
    assert_eq!(cs.apply_str(base).unwrap(), "X文🎉🎉ab!");
    assert_eq!(cs.apply(&Rope::from_str(base)).unwrap().to_string(), "X文🎉🎉ab!");
    assert_eq!(cs.draft_len(), 7);
    assert_eq!(cs.draft_ranges().collect::<Vec<_>>(), vec![0..1, 2..4, 6..7]);
}

#[test]
fn bad_replacements_are_refused_with_the_ranges() {
    let mut cs = ChangeSet::new(4);
    let reversed = Range { start: 3, end: 2 };
    assert_eq!(cs.try_push(reversed.clone(), ""), Err(ChangeSetError::Reversed { range: reversed }));
    assert_eq!(cs.try_push(2..5, ""), Err(ChangeSetError::OutOfRange { range: 2..5, base_len: 4 }));
    cs.try_push(1..3, "x").unwrap();
    assert_eq!(cs.try_push(0..1, ""), Err(ChangeSetError::Unsorted { previous: 1..3, range: 0..1 }));
    assert_eq!(cs.try_push(1..1, ""), Err(ChangeSetError::Unsorted { previous: 1..3, range: 1..1 }));
    assert_eq!(cs.try_push(2..4, ""), Err(ChangeSetError::Overlap { previous: 1..3, range: 2..4 }));
    assert_eq!(cs.len(), 1, "a refused push leaves the set unchanged");
    cs.try_push(3..3, "y").unwrap(); // touching is fine
    cs.try_push(3..3, "z").unwrap(); // insertions at one point apply in order
    assert_eq!(cs.apply_str("abcd").unwrap(), "axyzd");
    assert_eq!(cs.apply_str("abc"), Err(ChangeSetError::LengthMismatch { expected: 4, actual: 3 }));
    assert!(cs.invert(&Rope::from_str("abc")).is_err());
    assert!(ChangeSetError::Overlap { previous: 1..3, range: 2..4 }.to_string().contains("2..4 overlaps 1..3"));
}

#[test]
fn map_pos_follows_helix_edges() {
    // "ab|cd|ef": replace 2..4 ("cd") with "XYZ", insert "!" at 5.
    let cs = set(6, &[(2..4, "XYZ"), (5..5, "!")]);
    assert_eq!(cs.apply_str("abcdef").unwrap(), "abXYZe!f");
    let before: Vec<usize> = (0..=6).map(|p| cs.map_pos(p, Assoc::Before)).collect();
    let after: Vec<usize> = (0..=6).map(|p| cs.map_pos(p, Assoc::After)).collect();
    assert_eq!(before, vec![0, 1, 2, 2, 5, 6, 8]);
    assert_eq!(after, vec![0, 1, 5, 5, 5, 7, 8]);
    assert_eq!(cs.map_pos(9, Assoc::After), 11, "past the end keeps its distance");
    assert_eq!(cs.map_back(3), MappedBack::Inside { index: 0, offset: 1 });
    assert_eq!(cs.map_back(2), MappedBack::Base(2));
    assert_eq!(cs.map_back(5), MappedBack::Base(4));
    assert_eq!(cs.map_back(7), MappedBack::Base(5));
    assert_eq!(cs.map_back(6), MappedBack::Base(5));
    assert_eq!(cs.map_back_pos(3, Assoc::Before), 2);
    assert_eq!(cs.map_back_pos(3, Assoc::After), 4);
    assert_eq!(cs.map_back_pos(5, Assoc::Before), 2, "at an edge: the replacement's start");
    assert_eq!(cs.map_back_pos(2, Assoc::After), 4);
    assert_eq!(cs.map_back_pos(6, Assoc::Before), 5);
    assert_eq!(cs.map_back_pos(6, Assoc::After), 5);
}

#[test]
fn a_deletion_maps_both_sides_to_one_point() {
    let cs = set(5, &[(1..3, "")]);
    assert_eq!(cs.apply_str("a中😀de").unwrap(), "ade");
    for p in 1..=3 {
        assert_eq!(cs.map_pos(p, Assoc::Before), 1);
        assert_eq!(cs.map_pos(p, Assoc::After), 1);
    }
    assert_eq!(cs.map_back(1), MappedBack::Base(3));
    assert_eq!(cs.map_back_pos(1, Assoc::Before), 1);
    assert_eq!(cs.map_back_pos(1, Assoc::After), 3);
}

#[test]
fn map_range_keeps_untouched_text_and_refuses_touched() {
    let cs = set(10, &[(4..6, "xyz")]);
    assert_eq!(cs.map_range(0..4), Some(0..4), "ends where the edit starts");
    assert_eq!(cs.map_range(6..8), Some(7..9), "starts where the edit ends");
    assert_eq!(cs.map_range(3..5), None);
    assert_eq!(cs.map_range(4..4), None, "empty at the edit's start");
    assert_eq!(cs.map_range(6..6), Some(7..7));
    assert_eq!(cs.map_range(Range { start: 5, end: 3 }), None);
    let ins = set(10, &[(4..4, "ab")]);
    assert_eq!(ins.map_range(4..6), None, "an insertion at the start");
    assert_eq!(ins.map_range(2..4), Some(2..4), "an insertion at the end");
    assert_eq!(ins.map_range(4..4), None);
    assert_eq!(ins.map_range(5..7), Some(7..9));
}

#[test]
fn invert_restores_the_base_with_emoji() {
    let base = "😀 中文 text\nmore 😀";
    let n = base.chars().count();
    let cs = set(n, &[(0..1, ""), (2..4, "汉字漢"), (10..10, "🎉"), (n - 1..n, "x")]);
    let draft = cs.apply(&Rope::from_str(base)).unwrap();
    let inv = cs.invert(&Rope::from_str(base)).unwrap();
    assert_eq!(inv.base_len(), draft.len_chars());
    assert_eq!(inv.apply(&draft).unwrap().to_string(), base);
}

#[test]
fn touching_finds_runs_in_base_and_draft() {
    let cs = set(20, &[(2..4, "a"), (6..6, "bbb"), (10..12, "")]);
    assert_eq!(cs.touching(4..5), 0..1);
    assert_eq!(cs.touching(5..5), 1..1);
    assert_eq!(cs.touching(4..6), 0..2);
    assert_eq!(cs.touching(13..20), 3..3);
    assert_eq!(cs.touching(12..12), 2..3);
    // draft: 2..3 "a", 5..8 "bbb", 12..12 deletion
    assert_eq!(cs.draft_ranges().collect::<Vec<_>>(), vec![2..3, 5..8, 12..12]);
    assert_eq!(cs.draft_touching(3..5), 0..2);
    assert_eq!(cs.draft_touching(9..11), 2..2);
    assert_eq!(cs.draft_touching(12..12), 2..3);
}

#[test]
fn random_change_sets_agree_with_the_string_model() {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    for _ in 0..3000 {
        let base = rng.text(12);
        let base_chars = chars(&base);
        let n = base_chars.len();
        let reps = rng.changes(n);
        let cs = ChangeSet::try_from_replacements(n, reps.clone()).unwrap();
        let draft = cs.apply_str(&base).unwrap();
        let draft_chars = chars(&draft);
        assert_eq!(draft, model_apply(&base, &reps));
        assert_eq!(cs.apply(&Rope::from_str(&base)).unwrap().to_string(), draft);
        assert_eq!(cs.draft_len(), draft_chars.len());
        for (r, d) in reps.iter().zip(cs.draft_ranges()) {
            assert_eq!(draft_chars[d].iter().collect::<String>(), r.text);
        }
        let inv = cs.invert(&Rope::from_str(&base)).unwrap();
        assert_eq!(inv.apply_str(&draft).unwrap(), base);
        for assoc in [Assoc::Before, Assoc::After] {
            let mapped: Vec<usize> = (0..=n).map(|p| cs.map_pos(p, assoc)).collect();
            assert!(mapped.windows(2).all(|w| w[0] <= w[1]), "monotonic");
            assert!(mapped.iter().all(|&q| q <= draft_chars.len()));
            let back: Vec<usize> = (0..=draft_chars.len()).map(|q| cs.map_back_pos(q, assoc)).collect();
            assert!(back.windows(2).all(|w| w[0] <= w[1]), "map_back_pos monotonic");
        }
        for p in 0..n {
            let replaced = reps.iter().any(|r| r.range.contains(&p));
            if !replaced {
                assert_eq!(draft_chars[cs.map_pos(p, Assoc::After)], base_chars[p]);
                let insert_here = reps.iter().any(|r| r.range.is_empty() && r.range.start == p);
                if !insert_here {
                    assert_eq!(cs.map_pos(p, Assoc::Before), cs.map_pos(p, Assoc::After));
                }
            }
        }
        for p in 0..=n {
            let on_edge = reps.iter().any(|r| r.range.start <= p && p <= r.range.end);
            if !on_edge {
                assert_eq!(cs.map_back(cs.map_pos(p, Assoc::Before)), MappedBack::Base(p));
            }
        }
        for q in 0..=draft_chars.len() {
            match cs.map_back(q) {
                MappedBack::Base(p) => {
                    if q < draft_chars.len() && cs.draft_ranges().all(|d| !d.contains(&q)) {
                        assert_eq!(base_chars[p], draft_chars[q]);
                    }
                }
                MappedBack::Inside { index, offset } => {
                    let d = cs.draft_range(index).unwrap();
                    assert!(d.start < q && q < d.end && offset == q - d.start);
                }
            }
        }
    }
}

#[test]
fn a_passed_deadline_gives_a_coarser_but_correct_diff() {
    // 3,000 lines, every 100th changed: 30 small hunks between unique anchors.
    let old: String = (0..3000).map(|i| format!("line {i} of the text\n")).collect();
    let new: String =
        (0..3000).map(|i| if i % 100 == 7 { format!("line {i} CHANGED\n") } else { format!("line {i} of the text\n") }).collect();
    let (o, n) = (Rope::from_str(&old), Rope::from_str(&new));
    let (fine, coarse_flag) = ChangeSet::diff_until(&o, &n, &mut || false);
    assert!(!coarse_flag);
    assert_eq!(fine, ChangeSet::diff(&o, &n));
    assert_eq!(fine.len(), 30);
    for after in [0usize, 1, 5, 20] {
        let mut asked = 0;
        let (cs, hit) = ChangeSet::diff_until(&o, &n, &mut || {
            asked += 1;
            asked > after
        });
        assert!(hit, "deadline after {after} pieces");
        assert_eq!(cs.apply_str(&old).unwrap(), new, "still correct after {after} pieces");
        let covered = |c: &ChangeSet| c.replacements().iter().map(|r| r.range.len()).sum::<usize>();
        assert!(covered(&cs) > covered(&fine), "coarser: covers more of the old text");
    }
}

fn diff_str(old: &str, new: &str, limits: DiffLimits) -> ChangeSet {
    diff_with(old, new, limits, &mut || false).0
}

fn assert_diff_law(old: &str, new: &str, limits: DiffLimits) -> ChangeSet {
    let cs = diff_str(old, new, limits);
    assert_eq!(cs.apply_str(old).unwrap(), new, "{old:?} → {new:?} with {limits:?}");
    for w in cs.replacements().windows(2) {
        assert!(w[0].range.end < w[1].range.start, "replacements touch: {cs:?}");
    }
    // Unchanged chars map onto equal chars.
    let (o, d) = (chars(old), chars(new));
    for p in 0..o.len() {
        if cs.touching(p..p + 1).is_empty() {
            assert_eq!(o[p], d[cs.map_pos(p, Assoc::After)]);
        }
    }
    cs
}

#[test]
fn diff_finds_small_char_edits() {
    let full = DiffLimits { myers_lines: MYERS_LINES, refine_chars: REFINE_CHARS, line_diff_bytes: usize::MAX };
    let cs = assert_diff_law("one 中文\ntwo 😀\nthree\n", "one 中文\ntwo 🎉\nthree\nfour\n", full);
    assert_eq!(
        cs.replacements(),
        &[Replacement { range: 11..12, text: "🎉".into() }, Replacement { range: 19..19, text: "four\n".into() }]
    );
    assert!(diff_str("same", "same", full).is_empty());
    assert_diff_law("", "new", full);
    assert_diff_law("old", "", full);
}

#[test]
fn diff_is_exact_under_every_limit() {
    let mut rng = Rng(12345);
    let limit_sets = [
        DiffLimits { myers_lines: MYERS_LINES, refine_chars: REFINE_CHARS, line_diff_bytes: usize::MAX },
        DiffLimits { myers_lines: 4, refine_chars: 6, line_diff_bytes: usize::MAX },
        DiffLimits { myers_lines: 0, refine_chars: 0, line_diff_bytes: usize::MAX },
        DiffLimits { myers_lines: 0, refine_chars: 0, line_diff_bytes: 0 },
    ];
    for _ in 0..1500 {
        let old = rng.text(30);
        let n = old.chars().count();
        let new = if rng.below(4) == 0 { rng.text(30) } else { model_apply(&old, &rng.changes(n)) };
        for limits in limit_sets {
            assert_diff_law(&old, &new, limits);
        }
    }
}

#[test]
fn the_common_prefix_and_suffix_end_between_chars_and_blocks() {
    // é and è share their first UTF-8 byte (C3), 中 and 丰 their first two: the byte-wise
    // prefix and suffix are cut back to whole chars, at block edges too.
    let full = DiffLimits { myers_lines: MYERS_LINES, refine_chars: REFINE_CHARS, line_diff_bytes: usize::MAX };
    for pad in [0, 1, 254, 255, 256, 257, 511, 600] {
        let x = "x".repeat(pad);
        for (a, b) in [("é", "è"), ("中", "丰"), ("😀", "😁"), ("a", ""), ("", "é")] {
            assert_diff_law(&format!("{x}{a}"), &format!("{x}{b}"), full);
            assert_diff_law(&format!("{a}{x}"), &format!("{b}{x}"), full);
            assert_diff_law(&format!("{x}\n{a}\n{x}"), &format!("{x}\n{b}\n{x}"), full);
        }
    }
    assert_eq!(common_prefix(b"abc", b"abc"), 3);
    assert_eq!(common_suffix(&[7; 300], &[7; 700]), 300);
    assert_eq!(common_prefix(&[7; 700], &[7; 300]), 300);
    let cs = diff_str(&format!("{}é\n", "x\n".repeat(300)), &format!("{}è\n", "x\n".repeat(300)), full);
    assert_eq!(cs.replacements(), &[Replacement { range: 600..601, text: "è".into() }]);
}

#[test]
fn anchors_split_a_long_text_at_unique_lines() {
    let old: String = (0..50).map(|i| format!("line {i}\n")).collect();
    let new = old.replace("line 3\n", "line three\n").replace("line 40\n", "");
    let cs = assert_diff_law(&old, &new, DiffLimits { myers_lines: 10, refine_chars: 0, line_diff_bytes: usize::MAX });
    assert_eq!(cs.len(), 2, "two hunks, not one covering everything: {cs:?}");
    assert_eq!(unique_anchors(&[1, 2, 3, 2], &[3, 1, 2, 4]).len(), 1, "2 is not unique in a");
    let lis = unique_anchors(&[1, 2, 3, 4], &[1, 3, 2, 4]);
    assert_eq!(lis.len(), 3);
    assert!(lis.windows(2).all(|w| w[0].0 < w[1].0 && w[0].1 < w[1].1));
}

/// The byte ranges a commit cuts its flat text, block index and write at are the rope's byte
/// offsets, applying there is applying the change set, and a flat text that is not the rope's
/// is refused.
#[test]
fn byte_ranges_are_the_ropes_byte_offsets() {
    let text: String = (0..2_000).map(|i| ['a', 'é', '中', '😀', '\n'][i % 5]).collect();
    let rope = Rope::from_str(&text);
    let s = set(2_000, &[(3..3, "x"), (10..300, "y"), (400..1_500, "z"), (1_990..2_000, "")]);
    let ranges = s.byte_ranges(&rope, &text).unwrap();
    for (r, bytes) in s.replacements().iter().zip(&ranges) {
        let before: String = text.chars().take(r.range.start).collect();
        let through: String = text.chars().take(r.range.end).collect();
        assert_eq!(*bytes, before.len()..through.len(), "{:?}", r.range);
    }
    assert_eq!(s.apply_flat_at(&text, &ranges).unwrap(), model_apply(&text, s.replacements()));
    let shorter = text.strip_suffix('\n').unwrap();
    assert!(matches!(s.byte_ranges(&rope, shorter), Err(ChangeSetError::FlatMismatch { .. })), "a flat text of another length");
}
