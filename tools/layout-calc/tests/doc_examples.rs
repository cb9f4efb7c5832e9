//! The worked examples of the documentation are real: every `$ layout-calc ...` line inside a
//! fenced block of `docs/*.md` (and of the top-level README) is run, and its output must be the
//! lines that follow it in the block, up to the next `$` line or the end of the block.

use std::path::{Path, PathBuf};
use std::process::Command;

/// One example: where it is, the arguments, the expected output lines.
struct Example {
    at: String,
    args: Vec<String>,
    expected: Vec<String>,
}

fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Splits a shell line the way the docs write it: words separated by spaces, single quotes
/// group, `#` outside quotes starts a comment.
fn shell_words(line: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut cur = String::new();
    let mut quoted = false;
    let mut in_word = false;
    for ch in line.chars() {
        match ch {
            '\'' => {
                quoted = !quoted;
                in_word = true;
            }
            '#' if !quoted => break,
            ' ' | '\t' if !quoted => {
                if in_word {
                    words.push(std::mem::take(&mut cur));
                    in_word = false;
                }
            }
            c => {
                cur.push(c);
                in_word = true;
            }
        }
    }
    if in_word {
        words.push(cur);
    }
    words
}

/// The examples of one Markdown file.
fn examples(path: &Path) -> Vec<Example> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut out: Vec<Example> = Vec::new();
    let mut in_block = false;
    let mut current: Option<Example> = None;
    for (n, line) in text.lines().enumerate() {
        if line.trim_start().starts_with("```") {
            if in_block {
                out.extend(current.take());
            }
            in_block = !in_block;
            continue;
        }
        if !in_block {
            continue;
        }
        if let Some(cmd) = line.strip_prefix("$ ") {
            out.extend(current.take());
            let words = shell_words(cmd);
            if words.first().map(String::as_str) == Some("layout-calc") {
                current = Some(Example {
                    at: format!("{}:{}", path.display(), n + 1),
                    args: words[1..].to_vec(),
                    expected: Vec::new(),
                });
            }
        } else if let Some(ex) = current.as_mut() {
            ex.expected.push(line.trim_end().to_string());
        }
    }
    out.extend(current);
    out
}

fn run(args: &[String]) -> Vec<String> {
    let out = Command::new(env!("CARGO_BIN_EXE_layout-calc")).args(args).output().expect("run layout-calc");
    let mut text = String::from_utf8(out.stdout).unwrap();
    text.push_str(&String::from_utf8(out.stderr).unwrap());
    text.lines().map(|l| l.trim_end().to_string()).collect()
}

fn doc_files() -> Vec<PathBuf> {
    let dir = repo_root().join("docs");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "md"))
        .collect();
    files.sort();
    files.push(repo_root().join("README.md"));
    files
}

#[test]
fn every_documented_layout_calc_example_prints_what_the_docs_say() {
    let mut failures = Vec::new();
    let mut count = 0;
    for file in doc_files() {
        for ex in examples(&file) {
            count += 1;
            let got = run(&ex.args);
            if got != ex.expected {
                failures.push(format!(
                    "{}: layout-calc {:?}\n  docs say:\n    {}\n  it prints:\n    {}",
                    ex.at,
                    ex.args,
                    ex.expected.join("\n    "),
                    got.join("\n    ")
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{} of {count} examples differ:\n{}", failures.len(), failures.join("\n"));
    // The spec alone has well over a hundred; a parser that finds few has broken.
    assert!(count >= 100, "only {count} layout-calc examples found in docs/");
}

#[test]
fn the_example_parser_reads_quotes_comments_and_outputs() {
    assert_eq!(shell_words("layout-calc 'frame(NZ,f16,1,2)'   # note"), ["layout-calc", "frame(NZ,f16,1,2)"]);
    assert_eq!(shell_words("layout-calc table 'a b'"), ["layout-calc", "table", "a b"]);
    let dir = std::env::temp_dir().join(format!("doc-examples-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let md = dir.join("x.md");
    std::fs::write(
        &md,
        "text\n```text\n$ layout-calc 'c0(f16)'\n16\n$ layout-calc 'c0(f32)'\n8\n```\n$ layout-calc 'c0(i8)'\n",
    )
    .unwrap();
    let ex = examples(&md);
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!(ex.len(), 2, "examples outside fenced blocks are not run");
    assert_eq!(ex[0].args, ["c0(f16)"]);
    assert_eq!(ex[0].expected, ["16"]);
    assert_eq!(ex[1].expected, ["8"]);
    // A wrong expectation is caught: c0(f16) is not 8.
    assert_ne!(run(&ex[0].args), ex[1].expected);
}
