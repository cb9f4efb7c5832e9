//! `docs/dialect.md` stays in sync with the dialect definitions and the verifier: every op,
//! type and attribute of the two IRDL files and every rule of `layout-verify` has a section
//! there, and every section names one that exists. Also: every `docs/<file>.md §X.Y` citation
//! in the repository points at a section heading that exists, and every Rust module preamble
//! is at most 25 lines.
//!
//! Plain text checks (no MLIR context), so they run with this crate's unit tests.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn read(relative: &str) -> String {
    let path = repo_root().join(relative);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Names defined by an IRDL file: ops as `dialect.op`, types as `!dialect.type`, attributes as
/// `#dialect.attr`.
fn irdl_names(irdl: &str) -> BTreeSet<String> {
    let mut dialect = None;
    let mut names = BTreeSet::new();
    for line in irdl.lines().map(str::trim) {
        let symbol = |prefix: &str| line.strip_prefix(prefix).and_then(|r| r.split_whitespace().next());
        let symbol = |prefix: &str| symbol(prefix).and_then(|s| s.strip_prefix('@')).map(str::to_string);
        if let Some(d) = symbol("irdl.dialect ") {
            dialect = Some(d);
        } else if let Some(d) = &dialect {
            if let Some(op) = symbol("irdl.operation ") {
                names.insert(format!("{d}.{op}"));
            } else if let Some(t) = symbol("irdl.type ") {
                names.insert(format!("!{d}.{t}"));
            } else if let Some(a) = symbol("irdl.attribute ") {
                names.insert(format!("#{d}.{a}"));
            }
        }
    }
    names
}

/// Rule ids of the verifier's rule table (the `("T1", ...)` lines of `ALL_RULES` in
/// `passes/src/verify/mod.rs`).
fn rule_ids(verify_mod: &str) -> BTreeSet<String> {
    verify_mod
        .lines()
        .skip_while(|l| !l.starts_with("pub const ALL_RULES"))
        .skip(1)
        .take_while(|l| !l.starts_with("];"))
        .filter_map(|l| l.trim_start().strip_prefix("(\""))
        .filter_map(|l| l.split('"').next())
        .filter(|id| is_rule_id(id))
        .map(str::to_string)
        .collect()
}

/// `M1`, `T5`, `G3`, ...: one capital letter and digits.
fn is_rule_id(word: &str) -> bool {
    let mut chars = word.chars();
    chars.next().is_some_and(|c| c.is_ascii_uppercase()) && word.len() > 1 && chars.all(|c| c.is_ascii_digit())
}

/// What the dialect reference documents: names in backquotes in `###` headings
/// (`### \`layout.view\``) and rule headings (`### T1 memory space`).
fn documented(doc: &str) -> (BTreeSet<String>, BTreeSet<String>) {
    let mut names = BTreeSet::new();
    let mut rules = BTreeSet::new();
    for heading in doc.lines().filter_map(|l| l.strip_prefix("### ")) {
        if let Some(id) = heading.split_whitespace().next().filter(|w| is_rule_id(w)) {
            rules.insert(id.to_string());
        } else if let Some(name) = heading.split('`').nth(1) {
            names.insert(name.to_string());
        }
    }
    (names, rules)
}

fn definitions() -> BTreeSet<String> {
    let mut names = irdl_names(&read("dialects/layout/layout.irdl.mlir"));
    names.extend(irdl_names(&read("dialects/ascendc/ascendc.irdl.mlir")));
    names
}

#[test]
fn every_op_type_and_attribute_has_a_section_and_every_section_exists() {
    let defined = definitions();
    let (documented, _) = documented(&read("docs/dialect.md"));
    // The parser finds the known core of both dialects (guards against a silent parse failure).
    for known in ["layout.view", "layout.matmul", "!layout.tensor", "#layout.target", "ascendc.mmad", "!ascendc.local"]
    {
        assert!(defined.contains(known), "IRDL parser did not find {known}: {defined:?}");
    }
    let missing: Vec<_> = defined.difference(&documented).collect();
    assert!(missing.is_empty(), "docs/dialect.md has no `### \\`NAME\\`` section for {missing:?}");
    let stale: Vec<_> = documented.difference(&defined).collect();
    assert!(stale.is_empty(), "docs/dialect.md documents {stale:?}, which the IRDL files do not define");
}

#[test]
fn every_verifier_rule_has_a_section_and_every_section_is_a_rule() {
    let rules = rule_ids(&read("passes/src/verify/mod.rs"));
    assert!(rules.len() >= 20 && rules.contains("M1") && rules.contains("O1"), "rule list not found: {rules:?}");
    let (_, documented) = documented(&read("docs/dialect.md"));
    let missing: Vec<_> = rules.difference(&documented).collect();
    assert!(missing.is_empty(), "docs/dialect.md has no `### ID ...` section for the verifier rules {missing:?}");
    let stale: Vec<_> = documented.difference(&rules).collect();
    assert!(stale.is_empty(), "docs/dialect.md documents rules {stale:?} that passes/src/verify/mod.rs does not list");
}

#[test]
fn the_parsers_see_an_added_op_or_rule() {
    // A new op without docs must be caught: the parser sees it, the doc parser does not.
    let irdl = "irdl.dialect @layout {\n  irdl.type @tensor {\n  }\n  irdl.operation @view {\n  }\n  irdl.operation @new_op {\n  }\n}";
    let names = irdl_names(irdl);
    assert_eq!(names, BTreeSet::from(["!layout.tensor".into(), "layout.view".into(), "layout.new_op".into()]));
    let (doc, rules) = documented(
        "### `layout.view`\n### `!layout.tensor`\n### T1 space\n### V2 one `dyn` per `?`\n#### `layout.x`\n### Notes\n",
    );
    assert!(names.difference(&doc).eq(["layout.new_op".to_string()].iter()));
    assert_eq!(rules, BTreeSet::from(["T1".to_string(), "V2".to_string()]));
    assert!(!doc.contains("dyn"), "a rule heading's code words are not op names");
    assert_eq!(
        rule_ids(concat!(
            "(\"X9\", \"before the table\"),\n",
            "pub const ALL_RULES: [(&str, &str); 3] = [\n",
            "    (\"T1\", \"a\"),\n    (\"T12\", \"b \\\"quoted\\\"\"),\n    (\"the\", \"rest\"),\n",
            "];\n",
            "(\"X8\", \"after it\"),\n"
        )),
        BTreeSet::from(["T1".into(), "T12".into()])
    );
}

/// Section numbers a Markdown file defines: the first word of each heading, without a leading
/// `§` or a trailing `.` (`## A. Formulas` → `A`, `### B.6 ...` → `B.6`).
fn sections(markdown: &str) -> BTreeSet<String> {
    markdown
        .lines()
        .filter(|l| l.starts_with('#'))
        .filter_map(|l| l.trim_start_matches('#').split_whitespace().next())
        .map(|w| w.trim_start_matches('§').trim_end_matches('.').to_string())
        .collect()
}

/// `docs/<file>.md §<section>` citations in `text`, as `(file, section)`.
fn citations(text: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(at) = rest.find("docs/") {
        rest = &rest[at + 5..];
        let file: String = rest.chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '-' || *c == '_').collect();
        let after = &rest[file.len()..];
        if let Some(tail) = after.strip_prefix(".md §").or_else(|| after.strip_prefix(".md, §")) {
            let section: String = tail.chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '.').collect();
            let section = section.trim_end_matches('.').to_string();
            if !section.is_empty() {
                out.push((format!("{file}.md"), section));
            }
        }
    }
    out
}

/// Source and documentation files of the repository (not build output or VCS data).
fn repository_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for entry in entries.flatten() {
        let path = entry.path();
        let name = entry.file_name();
        let name = name.to_string_lossy();
        if path.is_dir() {
            if !matches!(name.as_ref(), "target" | ".git" | "node_modules") && !name.starts_with('.') {
                repository_files(&path, out);
            }
        } else if ["rs", "md", "mlir", "h", "toml", "py", "sh"].iter().any(|x| name.ends_with(&format!(".{x}"))) {
            out.push(path);
        }
    }
}

#[test]
fn every_docs_section_citation_in_the_repository_exists() {
    let root = repo_root();
    let mut files = Vec::new();
    repository_files(&root, &mut files);
    let mut broken = Vec::new();
    for file in &files {
        let Ok(text) = std::fs::read_to_string(file) else { continue };
        for (doc, section) in citations(&text) {
            let defined =
                std::fs::read_to_string(root.join("docs").join(&doc)).map(|t| sections(&t)).unwrap_or_default();
            if !defined.contains(&section) {
                broken.push(format!("{}: docs/{doc} §{section}", file.strip_prefix(&root).unwrap_or(file).display()));
            }
        }
    }
    assert!(broken.is_empty(), "citations of sections that do not exist:\n{}", broken.join("\n"));
}

/// Longest module preamble (the `//!` block that opens a file), in lines; the detail goes to
/// `docs/`.
const MAX_PREAMBLE_LINES: usize = 25;

/// Lines of the inner doc comment that opens a Rust file: its `//!` lines before the first item
/// (blank lines, `//` comments and `#![...]` attributes may stand among them).
fn preamble_lines(source: &str) -> usize {
    source
        .lines()
        .map(str::trim_start)
        .take_while(|l| l.is_empty() || l.starts_with("//") || l.starts_with("#!"))
        .filter(|l| l.starts_with("//!"))
        .count()
}

#[test]
fn every_rust_module_preamble_is_short() {
    let root = repo_root();
    let mut files = Vec::new();
    repository_files(&root, &mut files);
    let mut long = Vec::new();
    let mut rust_files = 0;
    for file in files.iter().filter(|f| f.extension().is_some_and(|x| x == "rs")) {
        rust_files += 1;
        let Ok(text) = std::fs::read_to_string(file) else { continue };
        let n = preamble_lines(&text);
        if n > MAX_PREAMBLE_LINES {
            long.push(format!("{}: {n} lines", file.strip_prefix(&root).unwrap_or(file).display()));
        }
    }
    assert!(rust_files > 100, "only {rust_files} Rust files found under {}", root.display());
    assert!(
        long.is_empty(),
        "module preambles longer than {MAX_PREAMBLE_LINES} lines (move the detail into docs/):\n{}",
        long.join("\n")
    );
}

#[test]
fn preamble_parser() {
    assert_eq!(preamble_lines("//! a\n//!\n\n// plain\n#![allow(x)]\n//! b\nuse x;\n//! c\n"), 3);
    assert_eq!(preamble_lines("use x;\n//! a\n"), 0);
    assert_eq!(preamble_lines(&"//! x\n".repeat(26)), 26);
    assert_eq!(preamble_lines(&read("dialects/layout/src/doc_sync.rs")), 7);
}

#[test]
fn citation_and_section_parsers() {
    assert_eq!(
        citations("see docs/layout-spec.md §A.5. and docs/layout-spec.md §B.6, docs/README.md"),
        [("layout-spec.md".to_string(), "A.5".to_string()), ("layout-spec.md".to_string(), "B.6".to_string())]
    );
    let s = sections("# Title\n## A. Formulas\n### A.5 Physical\n### §D.4 x\ntext A.9\n");
    assert!(s.contains("A") && s.contains("A.5") && s.contains("D.4") && !s.contains("A.9"));
    // The spec defines every section the code cited before the docs moved into the repository.
    let spec = sections(&read("docs/layout-spec.md"));
    for cited in [
        "0.1", "1", "A", "A.1", "A.2", "A.3", "A.4", "A.5", "A.6", "A.7", "A.8", "B.4", "B.6", "B.7", "B.8", "C",
        "C.1", "C.2", "C.3", "C.4", "C.5", "C.6", "C.7", "C.8", "D", "D.1", "D.2", "D.3", "D.4",
    ] {
        assert!(spec.contains(cited), "docs/layout-spec.md has no section {cited}");
    }
}

/// The anchor GitHub gives a heading: lower case, punctuation dropped (letters, digits, `-` and
/// `_` kept), spaces turned into `-`.
fn slug(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
            _ => None,
        })
        .collect()
}

fn anchors(markdown: &str) -> BTreeSet<String> {
    let mut in_code = false;
    let mut out = BTreeSet::new();
    for line in markdown.lines() {
        if line.trim_start().starts_with("```") {
            in_code = !in_code;
        } else if !in_code && line.starts_with('#') {
            out.insert(slug(line.trim_start_matches('#')));
        }
    }
    out
}

/// `(target file, anchor)` of every `](file.md#anchor)` and `](#anchor)` link.
fn links(markdown: &str) -> Vec<(Option<String>, String)> {
    let mut out = Vec::new();
    for part in markdown.split("](").skip(1) {
        let Some(target) = part.split(')').next() else { continue };
        if target.contains("://") {
            continue;
        }
        if let Some((file, anchor)) = target.split_once('#') {
            let file = (!file.is_empty()).then(|| file.to_string());
            out.push((file, anchor.to_string()));
        }
    }
    out
}

#[test]
fn every_link_between_the_docs_points_at_a_heading() {
    let dir = repo_root().join("docs");
    let mut broken = Vec::new();
    let mut count = 0;
    for entry in std::fs::read_dir(&dir).unwrap().flatten() {
        let path = entry.path();
        if path.extension().is_none_or(|x| x != "md") {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        for (file, anchor) in links(&text) {
            count += 1;
            let target = file.as_ref().map_or(path.clone(), |f| dir.join(f));
            let ok = std::fs::read_to_string(&target).map(|t| anchors(&t).contains(&anchor)).unwrap_or(false);
            if !ok {
                broken.push(format!("{}: {}#{anchor}", path.display(), file.as_deref().unwrap_or("")));
            }
        }
    }
    assert!(count >= 20, "only {count} anchored links found in docs/");
    assert!(broken.is_empty(), "links to headings that do not exist:\n{}", broken.join("\n"));
}

#[test]
fn heading_anchors_follow_github() {
    assert_eq!(slug(" B.6 `tile_layout` (catlass `GetTileLayout`)"), "b6-tile_layout-catlass-gettilelayout");
    assert_eq!(slug(" 10. SetFlag / WaitFlag"), "10-setflag--waitflag");
    assert_eq!(
        links("[a](x.md#b) [c](#d) [e](https://h.io/#f) [g](y.md)"),
        [(Some("x.md".to_string()), "b".to_string()), (None, "d".to_string())]
    );
}
