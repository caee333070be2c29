//! What the wasm binding hands to JS is declared in native code, where src/typescript.rs renders
//! its TypeScript (www/src/generated/boundary.ts) and a unit test fails when the committed file is
//! stale. A shape defined inside src/wasm.rs (wasm32 only) would escape both: it would be typed by
//! hand on the JS side and could drift. So src/wasm.rs defines no type but its exported class.

// Native only: it reads the source tree.
#![cfg(not(target_arch = "wasm32"))]

use std::path::Path;

/// The `struct`/`enum` items of `src` that are not `#[wasm_bindgen]` ones, by name.
fn own_types(src: &str) -> Vec<String> {
    let lines: Vec<&str> = src.lines().collect();
    let mut out = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let code = line.trim_start();
        let Some(rest) = ["struct ", "enum ", "pub struct ", "pub enum ", "pub(crate) struct ", "pub(crate) enum "]
            .iter()
            .find_map(|p| code.strip_prefix(p))
        else {
            continue;
        };
        // The attributes right above the item.
        let exported = lines[..i]
            .iter()
            .rev()
            .map(|l| l.trim_start())
            .take_while(|l| l.starts_with("#[") || l.starts_with("///"))
            .any(|l| l.starts_with("#[wasm_bindgen"));
        if !exported {
            out.push(rest.split(|c: char| !c.is_alphanumeric() && c != '_').next().unwrap_or(rest).to_string());
        }
    }
    out
}

#[test]
fn the_binding_defines_no_shape_of_its_own() {
    let src = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("src/wasm.rs")).expect("src/wasm.rs");
    let own = own_types(&src);
    assert!(
        own.is_empty(),
        "src/wasm.rs defines {own:?}: declare what crosses the boundary in native code (src/workspace/host.rs) and add it to src/typescript.rs's roots, so that its TypeScript is generated"
    );
    assert!(src.contains("pub struct WasmWorkspace"), "the check no longer sees the exported class");
}

#[test]
fn a_planted_shape_is_named() {
    let planted = "#[wasm_bindgen]\npub struct WasmWorkspace {}\n\n/// Out.\n#[derive(Serialize)]\nstruct Out<'a> { messages: &'a Value }\n    #[derive(Serialize)]\n    enum StepJs { Done }\n";
    assert_eq!(own_types(planted), ["Out", "StepJs"]);
}
