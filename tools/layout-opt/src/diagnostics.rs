//! Capturing MLIR diagnostics, printing them as `file:line:col: error: ...` with the source line
//! and a caret, and checking them against `expected-*` comments (`--verify-diagnostics`).

use melior::{
    diagnostic::{Diagnostic, DiagnosticSeverity},
    ir::Location,
};
use std::{collections::HashMap, fmt::Write as _};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Severity {
    Error,
    Warning,
    Note,
    Remark,
}

impl Severity {
    pub fn name(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Note => "note",
            Severity::Remark => "remark",
        }
    }
}

/// A resolved source position (1-based line and column).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Position {
    pub file: String,
    pub line: usize,
    pub column: usize,
}

#[derive(Clone, Debug)]
pub struct Diag {
    pub severity: Severity,
    pub position: Option<Position>,
    pub message: String,
    pub notes: Vec<Diag>,
}

impl Diag {
    /// Converts an MLIR diagnostic; `unnamed` replaces the name `-` that MLIR gives buffers
    /// parsed from strings (`mlirModuleCreateParse`).
    pub fn from_mlir(diagnostic: &Diagnostic, unnamed: &str) -> Diag {
        let severity = match diagnostic.severity() {
            DiagnosticSeverity::Error => Severity::Error,
            DiagnosticSeverity::Warning => Severity::Warning,
            DiagnosticSeverity::Note => Severity::Note,
            DiagnosticSeverity::Remark => Severity::Remark,
        };
        let notes = (0..diagnostic.note_count())
            .filter_map(|i| diagnostic.note(i).ok())
            .map(|note| Diag::from_mlir(&note, unnamed))
            .collect();
        Diag {
            severity,
            position: resolve(diagnostic.location(), unnamed, 0),
            message: diagnostic.to_string(),
            notes,
        }
    }

    pub fn has_error(&self) -> bool {
        self.severity == Severity::Error
    }
}

/// Finds a file:line:col inside (possibly nested) locations.
fn resolve(location: Location, unnamed: &str, depth: usize) -> Option<Position> {
    if depth > 16 {
        return None;
    }
    if location.is_file_line_col_range() {
        let name = location.file_line_col_range_filename();
        let name = name.as_string_ref().as_str().unwrap_or("").to_string();
        return Some(Position {
            file: if name.is_empty() || name == "-" {
                unnamed.to_string()
            } else {
                name
            },
            line: location.file_line_col_range_start_line(),
            column: location.file_line_col_range_start_column(),
        });
    }
    if location.is_name() {
        return resolve(location.name_child_location(), unnamed, depth + 1);
    }
    if location.is_call_site() {
        return resolve(location.call_site_callee(), unnamed, depth + 1);
    }
    if location.is_fused() {
        return (0..location.fused_num_locations())
            .find_map(|i| resolve(location.fused_location(i), unnamed, depth + 1));
    }
    None
}

/// At most ~160 printable characters of `line` around character `column` (0-based), and the
/// caret position within the excerpt. Control characters (binary input) are shown as `?`.
fn excerpt(line: &str, column: usize) -> (String, usize) {
    const HALF: usize = 80;
    let chars: Vec<char> = line
        .chars()
        .map(|c| if c.is_control() && c != '\t' { '?' } else { c })
        .collect();
    let column = column.min(chars.len());
    let start = column.saturating_sub(HALF);
    let end = (column + HALF).min(chars.len());
    let mut shown = String::new();
    let mut caret_at = column - start;
    if start > 0 {
        shown.push_str("...");
        caret_at += 3;
    }
    shown.extend(&chars[start..end]);
    if end < chars.len() {
        shown.push_str("...");
    }
    (shown, caret_at)
}

/// Source texts by file name, for printing the offending line.
#[derive(Default)]
pub struct Sources {
    files: HashMap<String, Option<Vec<String>>>,
}

impl Sources {
    pub fn add(&mut self, name: &str, text: &str) {
        self.files.insert(
            name.to_string(),
            Some(text.lines().map(str::to_string).collect()),
        );
    }

    fn line(&mut self, file: &str, line: usize) -> Option<String> {
        let lines = self.files.entry(file.to_string()).or_insert_with(|| {
            std::fs::read(file).ok().map(|bytes| {
                String::from_utf8_lossy(&bytes)
                    .lines()
                    .map(str::to_string)
                    .collect()
            })
        });
        lines.as_ref()?.get(line.checked_sub(1)?).cloned()
    }

    /// `file:line:col: severity: message`, then the source line and a caret.
    pub fn render(&mut self, diag: &Diag, out: &mut String) {
        self.render_under(diag, None, out)
    }

    /// As `render`; the source line is left out for a note at its parent's position.
    fn render_under(&mut self, diag: &Diag, parent: Option<&Position>, out: &mut String) {
        match &diag.position {
            Some(p) => {
                let _ = writeln!(
                    out,
                    "{}:{}:{}: {}: {}",
                    p.file,
                    p.line,
                    p.column,
                    diag.severity.name(),
                    diag.message
                );
                let repeated = parent == Some(p);
                if let Some(source) = self.line(&p.file, p.line).filter(|_| !repeated) {
                    let (shown, caret_at) = excerpt(&source, p.column.saturating_sub(1));
                    let caret: String = shown
                        .chars()
                        .take(caret_at)
                        .map(|c| if c == '\t' { '\t' } else { ' ' })
                        .collect();
                    let _ = writeln!(out, "{shown}\n{caret}^");
                }
            }
            None => {
                let _ = writeln!(
                    out,
                    "<unknown location>: {}: {}",
                    diag.severity.name(),
                    diag.message
                );
            }
        }
        for note in &diag.notes {
            self.render_under(note, diag.position.as_ref(), out);
        }
    }
}

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
            let Some((severity, after)) = [
                Severity::Error,
                Severity::Warning,
                Severity::Note,
                Severity::Remark,
            ]
            .into_iter()
            .find_map(|s| after.strip_prefix(s.name()).map(|a| (s, a))) else {
                continue;
            };
            let here = first_line + i;
            if after.starts_with("-re") {
                return Err((
                    here,
                    column,
                    "expected-*-re (regex) designators are not supported".into(),
                ));
            }
            let after = after.trim_start();
            let (target, after) = if let Some(spec) = after.strip_prefix('@') {
                let end = spec
                    .find(|c: char| c.is_whitespace() || c == '{')
                    .unwrap_or(spec.len());
                let (spec, after) = spec.split_at(end);
                let target = match spec {
                    "above" => (0..i)
                        .rev()
                        .find(|&j| !is_designator(j))
                        .map(|j| Some(first_line + j)),
                    "below" => (i + 1..lines.len())
                        .find(|&j| !is_designator(j))
                        .map(|j| Some(first_line + j)),
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
                return Err((
                    here,
                    column,
                    format!("expected '{{{{' after expected-{}", severity.name()),
                ));
            };
            let Some(end) = body.rfind("}}") else {
                return Err((
                    here,
                    column,
                    "expected '}}' to close the expected message".into(),
                ));
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
pub fn verify(
    diags: &[Diag],
    text: &str,
    first_line: usize,
    file: &str,
    sources: &mut Sources,
) -> String {
    let mut out = String::new();
    let mut expected = match expectations(text, first_line) {
        Ok(expected) => expected,
        Err((line, column, message)) => {
            let diag = Diag {
                severity: Severity::Error,
                position: Some(Position {
                    file: file.into(),
                    line,
                    column,
                }),
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
        flat.extend(
            diag.notes
                .iter()
                .filter(|n| !n.message.starts_with("see current operation")),
        );
    }
    for diag in flat {
        let line = match &diag.position {
            Some(p) if p.file == file => Some(p.line),
            Some(_) => Some(0),
            None => None,
        };
        let found = expected.iter_mut().find(|e| {
            !e.matched
                && e.severity == diag.severity
                && e.line == line
                && diag.message.contains(&e.message)
        });
        match found {
            Some(e) => e.matched = true,
            None => {
                let mut unexpected = diag.clone();
                unexpected.notes.clear();
                unexpected.message =
                    format!("unexpected {}: {}", diag.severity.name(), diag.message);
                unexpected.severity = Severity::Error;
                sources.render(&unexpected, &mut out);
            }
        }
    }
    for e in expected.iter().filter(|e| !e.matched) {
        let diag = Diag {
            severity: Severity::Error,
            position: Some(Position {
                file: file.into(),
                line: e.at.0,
                column: e.at.1,
            }),
            message: format!(
                "expected {} \"{}\" was not produced",
                e.severity.name(),
                e.message
            ),
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
        let line = "x".repeat(1000);
        let (shown, at) = excerpt(&line, 500);
        assert_eq!(shown.len(), 3 + 160 + 3);
        assert_eq!(at, 83);
        assert_eq!(excerpt("ab\u{1}c", 3), ("ab?c".to_string(), 3));
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
