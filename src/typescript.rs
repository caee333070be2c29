//! The TypeScript of everything that crosses the wasm boundary, rendered from the Rust that
//! defines it (docs/decisions.md#typescript-types-from-rust), and the test that fails when the
//! committed files in `www/src/generated/` say something else.
//!
//! Two sources: the data types (a [`Response`] and what it holds, the live context, the tool
//! definitions, diagnostics records …) derive `ts_rs::TS` in test builds only, so the shipped
//! wasm carries nothing of this; the tool arguments are not Rust types but the registry
//! ([`Tool::spec`]), rendered by [`tool_args`]. Regenerate with
//! `AGENTPAD_WRITE_TS=1 cargo test --lib typescript`.

use std::any::TypeId;
use std::collections::{BTreeMap, HashSet};
use std::fmt::Write as _;
use std::path::PathBuf;

use ts_rs::{Config, TypeVisitor, TS};

use crate::matching::normalize::Tier;
use crate::matching::recommend::Reason;
use crate::tools::{ParamKind, Tool};
use crate::Response;

/// The command that rewrites the generated files, named in every file and failure message.
pub const REGENERATE: &str = "AGENTPAD_WRITE_TS=1 cargo test --lib typescript";

/// The files of `www/src/generated/`, by name, with their rendered contents.
pub fn files() -> Vec<(&'static str, String)> {
    vec![("boundary.ts", boundary()), ("tool-args.ts", tool_args())]
}

fn header(what: &str) -> String {
    format!(
        "// GENERATED from the Rust core by src/typescript.rs: {what}. Do not edit by hand;\n\
         // regenerate with `{REGENERATE}` (the same test fails when this file is stale).\n"
    )
}

/// The roots whose declarations (and their dependencies', transitively) make up boundary.ts,
/// sorted by name: every value the wasm binding hands to JS or takes from it as data.
fn visit_roots(v: &mut Collect) {
    v.visit::<Response>();
    v.visit::<crate::workspace::PersistRequest>();
    v.visit::<crate::workspace::ToolState>();
    v.visit::<crate::workspace::TaskReport>();
    v.visit::<crate::live_context::LiveContext>();
    v.visit::<crate::diagnostics::Record>();
    v.visit::<crate::validate::Violation>();
    v.visit::<crate::validate::ParsedCandidate>();
    v.visit::<crate::history::HistoryDelta>();
}

/// Collects the declarations of the roots and everything they use, each once, by name (ts-rs
/// visits dependencies in no fixed order; the file must come out the same on every build).
struct Collect {
    cfg: Config,
    seen: HashSet<TypeId>,
    decls: BTreeMap<String, String>,
}

impl TypeVisitor for Collect {
    fn visit<T: TS + 'static + ?Sized>(&mut self) {
        // Primitives and containers have no path; they are spelled inline.
        if T::output_path().is_none() || !self.seen.insert(TypeId::of::<T>()) {
            return;
        }
        T::visit_dependencies(self);
        T::visit_generics(self);
        let mut decl = T::docs().unwrap_or_default();
        decl.push_str("export ");
        decl.push_str(&one_field_a_line(&T::decl(&self.cfg)));
        self.decls.insert(T::ident(&self.cfg), decl);
    }
}

/// `type X = { a: A, /** doc */ b: B, };` (ts-rs writes an object type on one line, its field
/// docs between) as one field a line, each under its doc: the file is what a reader of the
/// boundary reads. Anything else (a union, an alias) is returned as it is.
fn one_field_a_line(decl: &str) -> String {
    let Some((head, body)) = decl.split_once(" = {") else { return decl.to_string() };
    let Some(body) = body.strip_suffix("};") else { return decl.to_string() };
    // Split at the commas between fields: outside nested brackets, string literals and doc
    // comments.
    let (mut fields, mut field, mut depth, mut quoted, mut comment) = (Vec::new(), String::new(), 0i32, false, false);
    for ch in body.chars() {
        if comment {
            field.push(ch);
            comment = !field.ends_with("*/");
            continue;
        }
        if !quoted && ch == '*' && field.ends_with("/*") {
            comment = true;
            field.push(ch);
            continue;
        }
        match ch {
            '"' => quoted = !quoted,
            '{' | '[' | '(' | '<' if !quoted => depth += 1,
            '}' | ']' | ')' | '>' if !quoted => depth -= 1,
            ',' if !quoted && depth == 0 => {
                fields.push(std::mem::take(&mut field));
                continue;
            }
            _ => {}
        }
        if depth < 0 {
            // The body closed early: a union of object types, not one object.
            return decl.to_string();
        }
        field.push(ch);
    }
    if !field.trim().is_empty() {
        fields.push(field);
    }
    let mut out = format!("{head} = {{\n");
    for f in &fields {
        let f = f.trim();
        let (doc, field) = match f.strip_prefix("/**").and_then(|rest| rest.split_once("*/")) {
            Some((doc, field)) => (Some(doc), field.trim()),
            None => (None, f),
        };
        if let Some(doc) = doc {
            let lines: Vec<&str> =
                doc.lines().map(|l| l.trim().trim_start_matches('*').strip_prefix(' ').unwrap_or(l.trim().trim_start_matches('*'))).filter(|l| !l.is_empty()).collect();
            match lines.as_slice() {
                [one] => {
                    let _ = writeln!(out, "  /** {one} */");
                }
                _ => {
                    out.push_str("  /**\n");
                    for l in lines {
                        let _ = writeln!(out, "   * {l}");
                    }
                    out.push_str("   */\n");
                }
            }
        }
        let _ = writeln!(out, "  {field};");
    }
    out.push_str("};");
    out
}

/// `www/src/generated/boundary.ts`.
pub fn boundary() -> String {
    let mut out = header("the data that crosses the wasm boundary (src/wasm.rs)");
    out.push_str("import type { ObjectSchema } from \"../json-schema.js\";\n");
    out.push_str(&scalars());
    // u64 (`seq`) crosses as a JS number: serde-wasm-bindgen writes numbers, not BigInts.
    let mut c = Collect { cfg: Config::new().with_large_int("number"), seen: HashSet::new(), decls: BTreeMap::new() };
    visit_roots(&mut c);
    for decl in c.decls.values() {
        out.push('\n');
        out.push_str(decl);
        out.push('\n');
    }
    out
}

/// String types whose values are Rust constants rather than Rust types.
fn scalars() -> String {
    let mut out = String::new();
    let quoted = |xs: &mut dyn Iterator<Item = String>| xs.map(|x| format!("\"{x}\"")).collect::<Vec<_>>().join(" | ");
    let _ = writeln!(out, "\n/** A candidate letter, as `match_id` and `selection_id` take it. */");
    let _ = writeln!(out, "export type Letter = {};", quoted(&mut crate::tools::letters().into_iter()));
    let _ = writeln!(out, "\n/** The fuzzy tiers, in the order they are tried when the exact search finds nothing. */");
    let _ = writeln!(out, "export type FuzzyTier = {};", quoted(&mut Tier::ALL.iter().map(|t| t.as_str().to_string())));
    let _ = writeln!(
        out,
        "\n/**\n * How a text was found: `\"exact\"`, a {{@link FuzzyTier}}, `\"gutter\"` or `\"gutter+<tier>\"` when\n \
         * line-number gutters were stripped first, or `\"similar:0.92\"` for a near miss offered after `NoMatch`.\n */"
    );
    let _ = writeln!(out, "export type MatchQuality = \"exact\" | FuzzyTier | \"gutter\" | `gutter+${{FuzzyTier}}` | `similar:${{string}}`;");
    out
}

/// Why a candidate is recommended: its code, as serialised.
impl TS for Reason {
    type WithoutGenerics = Self;
    type OptionInnerType = Self;

    fn docs() -> Option<String> {
        Some("/** Why a candidate is recommended. */\n".into())
    }
    fn name(_: &Config) -> String {
        "RecommendReason".into()
    }
    fn inline(_: &Config) -> String {
        Reason::ALL.iter().map(|r| format!("\"{}\"", r.as_str())).collect::<Vec<_>>().join(" | ")
    }
    fn decl(cfg: &Config) -> String {
        format!("type RecommendReason = {};", Self::inline(cfg))
    }
    fn decl_concrete(cfg: &Config) -> String {
        Self::decl(cfg)
    }
    fn output_path() -> Option<PathBuf> {
        Some(PathBuf::from("RecommendReason.ts"))
    }
}

/// The TypeScript type of a parameter's value.
fn param_type(kind: ParamKind) -> String {
    match kind {
        ParamKind::String | ParamKind::LineKey => "string".into(),
        ParamKind::Boolean => "boolean".into(),
        ParamKind::Integer { .. } => "number".into(),
        ParamKind::Letter => "Letter".into(),
        ParamKind::LetterOrNumber => "Letter | number".into(),
        ParamKind::OneOf(values) => values.iter().map(|v| format!("\"{v}\"")).collect::<Vec<_>>().join(" | "),
        ParamKind::IntegerList { .. } => "number[]".into(),
    }
}

/// What the schema says beyond the type, for the doc comment.
fn param_limits(kind: ParamKind) -> Option<String> {
    match kind {
        ParamKind::Integer { min } => Some(format!("A whole number ≥ {min}.")),
        ParamKind::IntegerList { min, max } => Some(format!("1 to {max} whole numbers, each ≥ {min}.")),
        ParamKind::LetterOrNumber => Some("A letter, or its 1-based number (1–26).".into()),
        ParamKind::LineKey => Some("A line key like `\"12#a3f1\"` from `memo_read({ line_keys: true })`.".into()),
        _ => None,
    }
}

/// `www/src/generated/tool-args.ts`: the arguments of every tool, from the registry that checks
/// them ([`crate::tools::parse_call`]).
pub fn tool_args() -> String {
    let mut out = header("the tool registry (src/tools.rs), the arguments each tool takes");
    out.push_str("import type { Letter } from \"./boundary.js\";\n");
    let verbs: Vec<String> = Tool::ALL.iter().map(|t| format!("\"{}\"", t.spec().verb)).collect();
    let _ = writeln!(
        out,
        "\n/**\n * The tools, by verb, in registry order. A tool's name is `${{prefix}}_${{verb}}` (prefix `\"memo\"`\n * unless `toolPrefix` says otherwise).\n */"
    );
    let _ = writeln!(out, "export type ToolVerb =\n  | {};", verbs.join("\n  | "));
    let _ = writeln!(out, "\n/** The tool names under the default prefix, e.g. `\"memo_replace_span\"`. */");
    let _ = writeln!(out, "export type ToolName = `memo_${{ToolVerb}}`;");
    let _ = writeln!(out, "\n/** The arguments of each tool, by verb: what the core's checking accepts (null reads as absent). */");
    out.push_str("export interface ToolArgs {\n");
    for tool in Tool::ALL {
        let spec = tool.spec();
        let _ = writeln!(out, "  /** {} */", doc_line(spec.description));
        if spec.params.is_empty() {
            let _ = writeln!(out, "  {}: Record<string, never>;", spec.verb);
            continue;
        }
        let _ = writeln!(out, "  {}: {{", spec.verb);
        for p in spec.params {
            let doc = match param_limits(p.kind) {
                Some(limits) => format!("{} {limits}", p.description),
                None => p.description.to_string(),
            };
            let _ = writeln!(out, "    /** {} */", doc_line(&doc));
            let _ = writeln!(out, "    {}{}: {};", p.name, if p.required { "" } else { "?" }, param_type(p.kind));
        }
        out.push_str("  };\n");
    }
    out.push_str("}\n");
    out
}

/// A description as one JSDoc line (no `*/` inside).
fn doc_line(s: &str) -> String {
    s.replace("*/", "*\\/")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn generated_dir() -> PathBuf {
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("www/src/generated")
    }

    /// Fails when a Rust type or the tool registry changed and the committed TypeScript did not
    /// follow; with AGENTPAD_WRITE_TS=1 it writes the files instead.
    #[test]
    fn typescript_matches_the_committed_generated_files() {
        let dir = generated_dir();
        let write = std::env::var("AGENTPAD_WRITE_TS").is_ok_and(|v| v == "1");
        let mut stale = Vec::new();
        for (name, text) in files() {
            let path = dir.join(name);
            if write {
                std::fs::create_dir_all(&dir).unwrap();
                std::fs::write(&path, &text).unwrap();
                continue;
            }
            let committed = std::fs::read_to_string(&path).unwrap_or_default();
            if committed != text {
                let line = committed.lines().zip(text.lines()).position(|(a, b)| a != b).map_or_else(
                    || committed.lines().count().min(text.lines().count()) + 1,
                    |i| i + 1,
                );
                stale.push(format!("www/src/generated/{name} (first difference at line {line})"));
            }
        }
        assert!(
            stale.is_empty(),
            "the TypeScript generated from the Rust core is stale: {}.\nRegenerate with `{REGENERATE}` and commit the result.",
            stale.join(", ")
        );
    }

    /// www/src/types.ts's `ToolResponse` promises `candidates[0]` on a `MultiMatch`: every way to
    /// one (show_all_matches, preview_only, a fuzzy replace_all, a span, a repeated listing).
    #[test]
    fn a_multi_match_lists_at_least_one_candidate() {
        use crate::workspace::{CallContext, Config, Step, Workspace};
        use serde_json::json;
        let mut ws = Workspace::new(Config::default());
        ws.open("a.md", "# A\nx = 1\nx = 1\n  x = 1\n# B\nx = 1\n", "v1").unwrap();
        let ctx = CallContext::default();
        let calls = [
            ("memo_replace", json!({"old_text": "x = 1", "new_text": "x = 2", "preview_only": true})),
            ("memo_replace", json!({"old_text": "x = 1", "new_text": "x = 2", "show_all_matches": true})),
            ("memo_replace", json!({"old_text": "x = 1", "new_text": "x = 2"})),
            ("memo_replace", json!({"old_text": "x = 1", "new_text": "x = 2", "match_id": "A"})),
            ("memo_replace", json!({"old_text": "x = 1", "new_text": "x = 3"})),
            ("memo_replace", json!({"old_text": "x  =  1", "new_text": "x = 2", "replace_all": true})),
            ("memo_replace_span", json!({"old_span_start": "x", "old_span_end": "1", "new_text": "y"})),
        ];
        let mut multi = 0;
        for (name, args) in calls {
            let Step::Done(r) = ws.call(name, &args, &ctx) else { panic!("{name} asked for storage work") };
            if r.status == crate::Status::MultiMatch {
                multi += 1;
                assert!(!r.candidates.is_empty(), "{name} {args}: a MultiMatch without candidates");
            }
        }
        assert!(multi >= 5, "only {multi} of the calls were multi-matches: the test no longer covers them");
    }

    #[test]
    fn every_tool_parameter_is_typed() {
        let args = tool_args();
        for tool in Tool::ALL {
            for p in tool.spec().params {
                assert!(args.contains(&format!("    {}{}: ", p.name, if p.required { "" } else { "?" })), "{}", p.name);
            }
        }
        // The parameter the hand-written types once lacked.
        assert!(args.contains("  preview: {") && args.contains("    context_lines?: number;"));
    }

    #[test]
    fn boundary_declares_every_type_it_references() {
        let ts = boundary();
        for name in ["ResponseData", "Candidate", "PendingChange", "RecommendReason", "Status", "WorkflowState", "Flags", "TextEdit", "LiveContextJson"] {
            assert!(ts.contains(&format!("export type {name} ")), "{name} is not declared:\n{ts}");
        }
    }
}
