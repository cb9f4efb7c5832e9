//! Capturing MLIR diagnostics, printing them as `file:line:col: error: ...` with the source line
//! and a caret, and checking them against `expected-*` comments (`--verify-diagnostics`).

use layout_runtime::{Diag, Position, Severity, Sources};

/// One `expected-*` comment.
#[derive(Debug)]
struct Expectation {
    severity: Severity,
    /// Target line, `None` for `@unknown`.
    line: Option<usize>,
    message: String,
    /// Where the comment is (for "was not produced").
    at: (usize, usize),
    matched: bool,
}

/// Reads the `expected-(error|warning|note|remark)[@+N|@-N|@above|@below|@unknown] {{msg}}`
/// comments of `text`, whose first line is line `first_line` of the file.
fn expectations(text: &str, first_line: usize) -> Result<Vec<Expectation>, (usize, usize, String)> {
    let lines: Vec<&str> = text.lines().collect();
    let is_designator = |i: usize| lines.get(i).is_some_and(|l| l.contains("expected-"));
    let mut out = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let mut rest_start = 0;
        while let Some(found) = line[rest_start..].find("expected-") {
            let start = rest_start + found;
            let column = start + 1;
            let after = &line[start + "expected-".len()..];
            rest_start = start + "expected-".len();
            let Some((severity, after)) = [Severity::Error, Severity::Warning, Severity::Note, Severity::Remark]
                .into_iter()
                .find_map(|s| after.strip_prefix(s.name()).map(|a| (s, a)))
            else {
                continue;
            };
            let here = first_line + i;
            if after.starts_with("-re") {
                return Err((here, column, "expected-*-re (regex) designators are not supported".into()));
            }
            let after = after.trim_start();
            let (target, after) = if let Some(spec) = after.strip_prefix('@') {
                let end = spec.find(|c: char| c.is_whitespace() || c == '{').unwrap_or(spec.len());
                let (spec, after) = spec.split_at(end);
                let target = match spec {
                    "above" => (0..i).rev().find(|&j| !is_designator(j)).map(|j| Some(first_line + j)),
                    "below" => (i + 1..lines.len()).find(|&j| !is_designator(j)).map(|j| Some(first_line + j)),
                    "unknown" => Some(None),
                    _ => spec
                        .parse::<i64>()
                        .ok()
                        .filter(|_| spec.starts_with(['+', '-']))
                        .and_then(|offset| usize::try_from(here as i64 + offset).ok())
                        .map(Some),
                };
                match target {
                    Some(target) => (target, after),
                    None => {
                        return Err((
                            here,
                            column,
                            format!("invalid expected-{} designator '@{spec}'", severity.name()),
                        ))
                    }
                }
            } else {
                (Some(here), after)
            };
            let after = after.trim_start();
            let Some(body) = after.strip_prefix("{{") else {
                return Err((here, column, format!("expected '{{{{' after expected-{}", severity.name())));
            };
            let Some(end) = body.rfind("}}") else {
                return Err((here, column, "expected '}}' to close the expected message".into()));
            };
            out.push(Expectation {
                severity,
                line: target,
                message: body[..end].to_string(),
                at: (here, column),
                matched: false,
            });
            rest_start = line.len();
        }
    }
    Ok(out)
}

/// Checks `diags` (emitted for the chunk `text` starting at `first_line` of `file`) against the
/// chunk's expectations. Returns the failures, rendered, or an empty string.
pub fn verify(diags: &[Diag], text: &str, first_line: usize, file: &str, sources: &mut Sources) -> String {
    let mut out = String::new();
    let mut expected = match expectations(text, first_line) {
        Ok(expected) => expected,
        Err((line, column, message)) => {
            let diag = Diag {
                severity: Severity::Error,
                position: Some(Position { file: file.into(), line, column }),
                message,
                notes: vec![],
            };
            sources.render(&diag, &mut out);
            return out;
        }
    };
    let mut flat = Vec::new();
    for diag in diags {
        flat.push(diag);
        // MLIR attaches "see current operation" to verifier errors unless told otherwise (no
        // C API for that switch); mlir-opt does not report them under -verify-diagnostics.
        flat.extend(diag.notes.iter().filter(|n| !n.message.starts_with("see current operation")));
    }
    for diag in flat {
        let line = match &diag.position {
            Some(p) if p.file == file => Some(p.line),
            Some(_) => Some(0),
            None => None,
        };
        let found = expected
            .iter_mut()
            .find(|e| !e.matched && e.severity == diag.severity && e.line == line && diag.message.contains(&e.message));
        match found {
            Some(e) => e.matched = true,
            None => {
                let mut unexpected = diag.clone();
                unexpected.notes.clear();
                unexpected.message = format!("unexpected {}: {}", diag.severity.name(), diag.message);
                unexpected.severity = Severity::Error;
                sources.render(&unexpected, &mut out);
            }
        }
    }
    for e in expected.iter().filter(|e| !e.matched) {
        let diag = Diag {
            severity: Severity::Error,
            position: Some(Position { file: file.into(), line: e.at.0, column: e.at.1 }),
            message: format!("expected {} \"{}\" was not produced", e.severity.name(), e.message),
            notes: vec![],
        };
        sources.render(&diag, &mut out);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_lines_are_cut_around_the_caret() {
        let at = |text: &str, column| {
            let mut sources = Sources::mlir_opt();
            sources.add("f", text);
            let diag = Diag::error(Some(Position { file: "f".into(), line: 1, column }), "m");
            let mut out = String::new();
            sources.render(&diag, &mut out);
            out
        };
        let out = at(&"x".repeat(1000), 501);
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines[1].len(), 3 + 160 + 3);
        assert_eq!(lines[2], format!("{}^", " ".repeat(83)));
        assert_eq!(at("ab\u{1}c", 4), "f:1:4: error: m\nab?c\n   ^\n");
        assert_eq!(at("\tab", 3), "f:1:3: error: m\n\tab\n\t ^\n");
    }

    #[test]
    fn reads_designators() {
        let text = "// expected-error@+1 {{foo}}\nop\n// expected-error @below {{a {{b}} c}}\n// expected-note@above {{n}}\nop2\nop3 // expected-warning {{w}}\n";
        let e = expectations(text, 10).expect("parse");
        assert_eq!(e.len(), 4);
        assert_eq!(e[0].line, Some(11));
        assert_eq!(e[1].line, Some(14));
        assert_eq!(e[1].message, "a {{b}} c");
        assert_eq!(e[2].line, Some(11));
        assert_eq!(e[3].line, Some(15));
        assert!(expectations("// expected-error@x {{a}}", 1).is_err());
        assert!(expectations("// expected-error", 1).is_err());
    }
}
