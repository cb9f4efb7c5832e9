//! Rules about our own sources that the compiler cannot check.
//!
//! melior's `ContextRef::to_ref` transmutes `&ContextRef` into `&Context`: the reference points
//! at the `ContextRef` value, not at the MLIR context. Called on a temporary (`to_ref` straight
//! on the result of `context()`), it dangles as soon as the statement ends. Debug builds happened
//! to keep the stack slot; the release `layout-opt --layout-strength-reduce` crashed in
//! `IndexType::get`. The `ContextRef` must be bound to a local that outlives the reference.

use std::path::{Path, PathBuf};

/// Every `.rs` file under the workspace's source folders.
fn rust_sources(root: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack: Vec<PathBuf> = ["passes", "crates", "tools", "dialects"].iter().map(|d| root.join(d)).collect();
    while let Some(dir) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else { continue };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                if path.file_name().is_some_and(|n| n != "target") {
                    stack.push(path);
                }
            } else if path.extension().is_some_and(|e| e == "rs") {
                out.push(path);
            }
        }
    }
    out
}

/// The lines of `text` where `to_ref()` is called directly on a `context()` temporary, whitespace
/// and line breaks between the two ignored (rustfmt breaks long chains before `.to_ref()`).
/// Example: `x.context()\n    .to_ref()` on lines 3–4 gives `[3]`.
fn temporary_context_refs(text: &str) -> Vec<usize> {
    let needle: Vec<char> = ["context()", ".to_ref()"].concat().chars().collect();
    // The non-whitespace characters of `text`, each with its line number.
    let mut line = 1;
    let mut chars = Vec::new();
    for c in text.chars() {
        if c == '\n' {
            line += 1;
        } else if !c.is_whitespace() {
            chars.push((c, line));
        }
    }
    (0..chars.len().saturating_sub(needle.len() - 1))
        .filter(|&i| chars[i..i + needle.len()].iter().map(|(c, _)| *c).eq(needle.iter().copied()))
        .map(|i| chars[i].1)
        .collect()
}

#[test]
fn no_context_ref_temporary_is_turned_into_a_reference() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("workspace root");
    let sources = rust_sources(root);
    assert!(sources.len() > 100, "found only {} sources under {}", sources.len(), root.display());
    let mut found = Vec::new();
    for path in sources {
        let text = std::fs::read_to_string(&path).expect("readable source");
        found.extend(temporary_context_refs(&text).into_iter().map(|line| format!("{}:{line}", path.display())));
    }
    assert!(found.is_empty(), "`to_ref()` on a temporary ContextRef dangles; bind it first: {found:?}");
}

#[test]
fn the_rule_finds_the_pattern_that_crashed() {
    let crashing = ["    let context = unsafe { location.context()", ".to_ref() };"].concat();
    assert_eq!(temporary_context_refs(&format!("fn f() {{\n{crashing}\n}}")), vec![2]);
    let broken = [
        "fn f() {\n    let r = unsafe {\n        location\n            .context()",
        "\n            .to_ref()\n    };\n}",
    ]
    .concat();
    assert_eq!(temporary_context_refs(&broken), vec![4]);
    assert!(temporary_context_refs("let c = location.context();\nlet r = unsafe { c.to_ref() };").is_empty());
}

/// Whether a manifest turns off a target's unit tests (`test = false` under `[lib]` or `[[bin]]`):
/// every such crate keeps its MLIR-linking tests in one integration binary.
fn unit_tests_disabled(manifest: &str) -> bool {
    manifest.lines().any(|l| l.split('#').next().unwrap_or("").split_whitespace().collect::<String>() == "test=false")
}

/// A `#[test]` in the `src/` of a crate whose unit tests never run is a test that silently never
/// runs. Move it to the crate's integration binary (layout-runtime's `tests/runtime.rs`).
#[test]
fn no_unit_test_hides_in_a_crate_whose_unit_tests_do_not_run() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("workspace root");
    let mut disabled = Vec::new();
    for path in rust_sources(root).iter().filter_map(|p| p.ancestors().find(|a| a.join("Cargo.toml").is_file())) {
        let manifest = std::fs::read_to_string(path.join("Cargo.toml")).expect("readable manifest");
        if unit_tests_disabled(&manifest) && !disabled.contains(&path.to_path_buf()) {
            disabled.push(path.to_path_buf());
        }
    }
    assert!(disabled.iter().any(|d| d.ends_with("layout-runtime")), "layout-runtime has test = false: {disabled:?}");
    let mut dead = Vec::new();
    for krate in &disabled {
        for path in rust_sources(root).into_iter().filter(|p| p.starts_with(krate.join("src"))) {
            let text = std::fs::read_to_string(&path).expect("readable source");
            dead.extend(
                text.lines()
                    .enumerate()
                    .filter(|(_, l)| l.trim() == "#[test]")
                    .map(|(i, _)| format!("{}:{}", path.display(), i + 1)),
            );
        }
    }
    assert!(dead.is_empty(), "unit tests in a crate with `test = false` never run: {dead:?}");
}

#[test]
fn test_false_is_read_with_spacing_and_comments() {
    assert!(unit_tests_disabled("[lib]\ndoctest = false\ntest = false # one binary\n"));
    assert!(unit_tests_disabled("[[bin]]\ntest=false\n"));
    assert!(!unit_tests_disabled("[lib]\ndoctest = false\n# test = false\n"));
}
