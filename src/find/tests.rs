use super::*;
use proptest::prelude::*;

fn lines(s: &str) -> Vec<&str> {
    s.lines().collect()
}

/// (kind, first line 1-based, last line 1-based, heading path joined) of every unit.
fn shape(text: &str, code: bool) -> Vec<(UnitKind, usize, usize, String)> {
    units::units(&lines(text), code).into_iter().map(|u| (u.kind, u.lines.start + 1, u.lines.end, u.heading_path.join(" › "))).collect()
}

const GUIDE: &str = "# Guide\nIntro text.\n\n## Install\nRun the installer.\n\n- first item\n- second item\n  more of second\n\n```sh\n# not a heading\nmake\n```\n\n### From source\nClone and build.\n\n## Usage\nCall it.\n";

#[test]
fn markdown_sections_paragraphs_code_and_items() {
    use UnitKind::*;
    let got = shape(GUIDE, false);
    let want = vec![
        (Section, 1, 20, "Guide".to_string()),
        (Paragraph, 2, 2, "Guide".into()),
        (Section, 4, 17, "Guide › Install".into()),
        (Paragraph, 5, 5, "Guide › Install".into()),
        (ListItem, 7, 7, "Guide › Install".into()),
        (ListItem, 8, 9, "Guide › Install".into()),
        (CodeBlock, 11, 14, "Guide › Install".into()),
        (Section, 16, 17, "Guide › Install › From source".into()),
        (Paragraph, 17, 17, "Guide › Install › From source".into()),
        (Section, 19, 20, "Guide › Usage".into()),
        (Paragraph, 20, 20, "Guide › Usage".into()),
    ];
    assert_eq!(got, want);
}

#[test]
fn nested_list_items_are_units_inside_their_item() {
    let got = shape("- outer\n  - inner a\n  - inner b\n- next\n", false);
    let spans: Vec<(usize, usize)> = got.iter().map(|u| (u.1, u.2)).collect();
    assert_eq!(spans, vec![(1, 3), (2, 2), (3, 3), (4, 4)]);
}

#[test]
fn python_functions_and_classes_by_indentation() {
    let py = "import os\n\n@cached\ndef load(path):\n    with open(path) as f:\n        return f.read()\n\nclass Store:\n    def get(self, key):\n        return 1\n";
    let got = shape(py, true);
    let spans: Vec<(usize, usize, String)> = got.into_iter().map(|u| (u.1, u.2, u.3)).collect();
    assert_eq!(
        spans,
        vec![
            (1, 1, String::new()),
            (3, 6, "def load(path):".to_string()),
            (5, 6, "def load(path): › with open(path) as f:".into()),
            (8, 10, "class Store:".into()),
            (9, 10, "class Store: › def get(self, key):".into()),
        ]
    );
}

#[test]
fn brace_functions_include_their_closing_bracket_and_doc_comment() {
    let rs = "/// Parses it.\nfn parse(s: &str) -> u32 {\n    s.len() as u32\n}\n\nfn other() {\n    if x {\n        y();\n    }\n}\n";
    let spans: Vec<(usize, usize)> = shape(rs, true).into_iter().map(|u| (u.1, u.2)).collect();
    assert_eq!(spans, vec![(1, 4), (6, 10), (7, 9)]);
    let js = "export function renderList(items) {\n  return items.map((i) => {\n    return i;\n  });\n}\n";
    let spans: Vec<(usize, usize)> = shape(js, true).into_iter().map(|u| (u.1, u.2)).collect();
    assert_eq!(spans, vec![(1, 5), (2, 4)]);
}

#[test]
fn identifiers_split_and_stay_whole_and_cjk_gives_chars_and_pairs() {
    let mut got = Vec::new();
    bm25::terms("parseConfigFile HTTPServer max_retries 配置文件", |t, _| got.push(t));
    let want = [
        "parseconfigfile",
        "parse",
        "config",
        "file",
        "httpserver",
        "http",
        "server",
        "maxretries",
        "max",
        "retries",
        "配",
        "配置",
        "置",
        "置文",
        "文",
        "文件",
        "件",
    ];
    assert_eq!(got, want);
}

/// The first candidate's first line (1-based) for `query`.
fn best(text: &str, code: bool, query: &str) -> Option<usize> {
    let idx = index(&lines(text), code);
    let r = rank(&idx, query, 5, None);
    r.found.first().and_then(|f| idx.get(f.index)).map(|x| x.unit.lines.start + 1)
}

#[test]
fn bm25_ranks_the_unit_about_the_query_first() {
    let doc = "Cats sleep a lot.\n\nThe deploy script uploads the build to the server.\n\nDogs bark at the server.\n";
    assert_eq!(best(doc, false, "deploy build"), Some(3));
    assert_eq!(best(doc, false, "dogs"), Some(5));
    assert_eq!(best(doc, false, "elephant"), None, "no shared term, no candidate");
    // A heading's words weigh more than the same words in a body.
    let doc = "## Caching\nWe keep results.\n\n## Other\nCaching is mentioned here once, among many other words in a longer body.\n";
    assert_eq!(best(doc, false, "caching"), Some(1));
}

#[test]
fn identifier_parts_find_camel_case_code() {
    let code = "function renderList(items) {\n  return items;\n}\n\nfunction parseConfigFile(path) {\n  return path;\n}\n";
    assert_eq!(best(code, true, "parse config"), Some(5));
    assert_eq!(best(code, true, "parseConfigFile"), Some(5));
    assert_eq!(best(code, true, "render_list"), Some(1));
}

#[test]
fn a_chinese_query_finds_the_chinese_paragraph() {
    let doc = "# 说明\n\n本项目使用缓存来加速构建。\n\n部署时需要配置数据库连接。\n\nEnglish paragraph about nothing.\n";
    assert_eq!(best(doc, false, "数据库配置"), Some(5));
    assert_eq!(best(doc, false, "缓存"), Some(3));
}

#[test]
fn recommended_only_with_a_clear_margin() {
    let idx = index(&lines("alpha beta\n\ngamma delta\n\nepsilon\n"), false);
    let clear = rank(&idx, "gamma delta", 5, None);
    assert!(clear.recommended && clear.found.len() == 1);
    let idx = index(&lines("retry the request\n\nretry the upload\n"), false);
    let close = rank(&idx, "retry", 5, None);
    assert_eq!(close.found.len(), 2);
    assert!(!close.recommended, "two equal scores: nothing is recommended");
}

#[test]
fn limit_caps_the_list_and_overlapping_units_are_skipped() {
    let idx = index(&lines("## Retry\nretry once\n\n## Retry again\nretry twice\n\n## Other\nretry thrice\n"), false);
    let r = rank(&idx, "retry", 2, None);
    assert_eq!(r.found.len(), 2);
    let (x, y) = (&idx[r.found[0].index].unit.lines, &idx[r.found[1].index].unit.lines);
    assert!(x.end <= y.start || y.end <= x.start, "listed units never overlap");
}

#[test]
fn embeddings_combine_with_bm25() {
    let idx = index(&lines("the cat sat\n\nthe dog ran\n"), false);
    // Without vectors "the" ties; the query vector points at the second unit.
    let vectors = vec![vec![1.0, 0.0], vec![0.0, 1.0], vec![0.1, 1.0]];
    let r = rank(&idx, "the", 5, Some(&vectors));
    assert_eq!(idx[r.found[0].index].unit.lines.start, 2);
    // Vectors of the wrong count are ignored: BM25 alone, document order on the tie.
    let r = rank(&idx, "the", 5, Some(&vectors[..2]));
    assert_eq!(idx[r.found[0].index].unit.lines.start, 0);
    assert_eq!(cosine(&[1.0, 0.0], &[1.0, 0.0, 0.0]), 0.0);
}

#[test]
fn a_section_is_ranked_by_its_own_text_not_its_subsections() {
    let idx = index(&lines("# Top\nintro\n\n## Deploy\ndeploy steps here\n"), false);
    let top = idx.iter().find(|x| x.unit.lines.start == 0).map(|x| x.body.clone());
    assert_eq!(top.as_deref(), Some("intro\n\n"));
}

proptest! {
    #![proptest_config(crate::internal_tests::seeded("proptest-regressions/find/tests.txt", 256))]
    #[test]
    fn nothing_panics_and_units_stay_in_the_document(text in "(?s).{0,400}", code in any::<bool>(), query in ".{0,20}", limit in 1usize..8) {
        let ls = lines(&text);
        let idx = index(&ls, code);
        for x in &idx {
            prop_assert!(x.unit.lines.start < x.unit.lines.end && x.unit.lines.end <= ls.len());
        }
        let r = rank(&idx, &query, limit, None);
        prop_assert!(r.found.len() <= limit);
    }
}

#[test]
fn flat_code_and_settings_are_grouped_under_their_comments() {
    let yaml = "# service\nname: orders\n# database\ndatabase.timeout: 30\n# api\napi.timeout: 30\n";
    let spans: Vec<(usize, usize)> = shape(yaml, true).into_iter().map(|u| (u.1, u.2)).collect();
    assert_eq!(spans, vec![(1, 2), (3, 4), (5, 6)]);
    assert_eq!(best(yaml, true, "api timeout"), Some(5));
    // Lines a block holds are not grouped again.
    let py = "import os\nimport re\n\ndef f():\n    pass\n";
    let spans: Vec<(usize, usize)> = shape(py, true).into_iter().map(|u| (u.1, u.2)).collect();
    assert_eq!(spans, vec![(1, 2), (4, 5)]);
}
