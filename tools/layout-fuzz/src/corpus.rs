//! Seed corpora, built from the repository's own inputs: the lit tests and examples (split at
//! `// -----` like `--split-input-file`), the layout strings inside their `!layout.tensor`
//! types, the calculator's examples and tests, and `.npy` files.

use layout_algebra::ascend::{ALL_ELEMENT_TYPES, ALL_FRAME_PATTERNS};
use layout_npy::random::Rng;
use layout_npy::{encode_npy, ElemType};
use std::path::{Path, PathBuf};

/// Files under `dir` (recursively) whose name ends with `suffix`, sorted: the corpus order, and
/// so every mutant, depends only on the tree's contents.
pub fn files(dir: &Path, suffix: &str) -> Vec<PathBuf> {
    let mut found = Vec::new();
    let mut pending = vec![dir.to_path_buf()];
    while let Some(dir) = pending.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else { continue };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                pending.push(path);
            } else if path.to_string_lossy().ends_with(suffix) {
                found.push(path);
            }
        }
    }
    found.sort();
    found
}

/// Splits an MLIR file at `// -----` lines and drops `//` comment lines (RUN/CHECK/expected-*
/// lines only make the inputs longer). Blank chunks are dropped.
pub fn split_chunks(text: &str) -> Vec<String> {
    let mut chunks = vec![String::new()];
    for line in text.lines() {
        let trimmed = line.trim();
        if trimmed == "// -----" {
            chunks.push(String::new());
        } else if !trimmed.starts_with("//") {
            let current = chunks.last_mut().expect("one chunk");
            current.push_str(line);
            current.push('\n');
        }
    }
    chunks.retain(|c| !c.trim().is_empty());
    chunks
}

/// The chunks of `filecheck/**/*.mlir` and `examples/**/*.mlir` no longer than `max_len`.
pub fn mlir_chunks(root: &Path, max_len: usize) -> Vec<Vec<u8>> {
    let mut paths = files(&root.join("filecheck"), ".mlir");
    paths.extend(files(&root.join("examples"), ".mlir"));
    let mut chunks = Vec::new();
    for path in paths {
        let Ok(text) = std::fs::read_to_string(&path) else { continue };
        chunks.extend(split_chunks(&text).into_iter().map(String::into_bytes).filter(|c| c.len() <= max_len));
    }
    chunks
}

/// The contents of the `"..."` strings of `text` (no escapes: the corpus has none).
pub fn quoted_strings(text: &str) -> Vec<String> {
    text.split('"').skip(1).step_by(2).map(str::to_string).collect()
}

/// Layout and tuple strings: the quoted LAYOUT/ORIGIN parameters of the MLIR corpus (anything
/// quoted with `(`, `:` or `?`), then the pattern names. Sorted, without duplicates.
pub fn layout_texts(chunks: &[Vec<u8>]) -> Vec<Vec<u8>> {
    let mut texts: Vec<String> = chunks
        .iter()
        .flat_map(|c| quoted_strings(&String::from_utf8_lossy(c)))
        .filter(|s| (s.contains(['(', ':', '?']) && !s.contains(' ')) || s.contains(" origin "))
        .collect();
    texts.extend(ALL_FRAME_PATTERNS.iter().map(|p| p.name().to_string()));
    texts.sort();
    texts.dedup();
    texts.into_iter().map(String::into_bytes).collect()
}

/// Calculator lines: `examples/*.calc` (without comments), the string literals of the
/// calculator's tests that look like expressions, and the `layout-calc '...'` lines of the README.
pub fn calc_lines(root: &Path) -> Vec<Vec<u8>> {
    let mut lines = Vec::new();
    for path in files(&root.join("examples"), ".calc") {
        let text = std::fs::read_to_string(path).unwrap_or_default();
        lines.extend(text.lines().filter(|l| !l.trim().is_empty() && !l.starts_with('#')).map(str::to_string));
    }
    for path in files(&root.join("tools/layout-calc/tests"), ".rs") {
        let text = std::fs::read_to_string(path).unwrap_or_default();
        lines.extend(quoted_strings(&text).into_iter().filter(|s| s.contains('(') && !s.contains('\\')));
    }
    let readme = std::fs::read_to_string(root.join("README.md")).unwrap_or_default();
    for line in readme.lines() {
        if let Some(rest) = line.strip_prefix("$ layout-calc '") {
            lines.extend(rest.split('\'').next().map(str::to_string));
        }
    }
    lines.sort();
    lines.dedup();
    lines.into_iter().map(String::into_bytes).collect()
}

/// `.npy` seeds: the NumPy-written test files, then an encoded array of every element type in
/// ranks 0 to 3, the Fortran-order twin of each (same header length: `True ` for `False`).
pub fn npy_files(root: &Path) -> Vec<Vec<u8>> {
    let mut seeds: Vec<Vec<u8>> =
        files(&root.join("crates/npy/testdata"), ".npy").iter().filter_map(|p| std::fs::read(p).ok()).collect();
    let mut rng = Rng::new(0);
    for elem in ElemType::ALL {
        for shape in [&[][..], &[3], &[2, 3], &[2, 1, 2]] {
            let bytes = encode_npy(&rng.array(elem, shape));
            let fortran = String::from_utf8_lossy(&bytes[..bytes.len().min(128)]).replace("False", "True ");
            let mut twin = fortran.into_bytes();
            if twin.len() <= bytes.len() && twin.iter().all(u8::is_ascii) {
                twin.extend_from_slice(&bytes[twin.len()..]);
                seeds.push(twin);
            }
            seeds.push(bytes);
        }
    }
    seeds
}

fn words(list: &[&str]) -> Vec<Vec<u8>> {
    list.iter().map(|w| w.as_bytes().to_vec()).collect()
}

/// Tokens of the layout syntax: brackets, `?`, `origin`, pattern and element type names.
pub fn layout_tokens() -> Vec<Vec<u8>> {
    let mut tokens = words(&["(", ")", ",", ":", "?", " origin ", "origin", "((", "))", "()", "(,)", "-", " ", "_"]);
    tokens.extend(ALL_FRAME_PATTERNS.iter().map(|p| p.name().as_bytes().to_vec()));
    tokens.extend(words(&["zN", "nZ", "zZ", "nN", "RowMajor", "ColumnMajor", "FRACTAL_NZ"]));
    tokens.extend(ALL_ELEMENT_TYPES.iter().map(|e| e.name().as_bytes().to_vec()));
    tokens
}

/// Layout tokens plus the calculator's function names (from its `--help`).
pub fn calc_tokens(function_names: &[String]) -> Vec<Vec<u8>> {
    let mut tokens = layout_tokens();
    tokens.extend(function_names.iter().map(|name| format!("{name}(").into_bytes()));
    tokens
}

/// Tokens of `.npy` headers, and the magic and version bytes.
pub fn npy_tokens() -> Vec<Vec<u8>> {
    let mut tokens = words(&[
        "'descr': ",
        "'<f4'",
        "'>i8'",
        "'|u1'",
        "'<u2'",
        "'<c8'",
        "'fortran_order': ",
        "True",
        "False",
        "'shape': ",
        "(",
        ")",
        ",",
        ", ",
        "L",
        "}",
        "{",
        "# layout-npy: bfloat16",
        "\n",
        "\\",
    ]);
    tokens.extend([b"\x93NUMPY".to_vec(), b"\x01\x00".to_vec(), b"\x02\x00".to_vec(), b"\x03\x00".to_vec()]);
    tokens
}

/// Tokens of the MLIR inputs: the layout tokens, the layout ops, and quoted names of the corpus.
pub fn mlir_tokens(chunks: &[Vec<u8>]) -> Vec<Vec<u8>> {
    let mut tokens = layout_tokens();
    tokens.extend(words(&[
        "!layout.tensor<",
        ">",
        "<",
        "{",
        "}",
        "%c0",
        "index",
        "arith.constant 0 : index",
        "array<i64: ",
        "\n",
        "\"gm\"",
        "\"l1\"",
        "\"l0a\"",
        "\"l0b\"",
        "\"l0c\"",
        "\"ub\"",
        "\"l0a_scale\"",
        "#layout.target<\"a5\">",
        "\"(?,?)\"",
        "\"(1,0)\"",
        "-> ",
        ": ",
        "%0",
        "scf.for",
        "func.func",
        "return",
    ]));
    let mut quoted: Vec<String> = chunks
        .iter()
        .flat_map(|c| quoted_strings(&String::from_utf8_lossy(c)))
        .filter(|s| s.len() <= 64)
        .map(|s| format!("\"{s}\""))
        .collect();
    quoted.sort();
    quoted.dedup();
    tokens.extend(quoted.into_iter().map(String::into_bytes));
    tokens
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chunks_split_like_split_input_file_without_comments() {
        let text = "// RUN: x\nmodule {\n}\n  // -----  \n// CHECK: y\nfunc\n// -----\n\n";
        assert_eq!(split_chunks(text), vec!["module {\n}\n".to_string(), "func\n".to_string()]);
    }

    #[test]
    fn layout_strings_come_from_the_types() {
        let chunk = br#"%a = "layout.alloc"() : () -> !layout.tensor<f16, "l1", "(4,?):(1,4)", "(4,?)">"#.to_vec();
        let texts = layout_texts(&[chunk]);
        assert!(texts.contains(&b"(4,?):(1,4)".to_vec()) && texts.contains(&b"(4,?)".to_vec()));
        assert!(!texts.contains(&b"l1".to_vec()) && !texts.contains(&b"layout.alloc".to_vec()));
        assert!(texts.contains(&b"NZ".to_vec()));
    }
}
