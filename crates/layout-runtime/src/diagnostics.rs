//! MLIR diagnostics as data: capture them from a context, resolve their locations to
//! `file:line:col`, print them as `file:line:col: error: message` with the source line and a
//! caret (the format of `layout-opt` and `mlir-opt`).
//!
//! Library functions of this crate capture the diagnostics of the MLIR calls they make (with
//! [`Capture`]) and return them inside [`crate::Error`]; tools render them with [`Sources`].

use melior::{
    diagnostic::{Diagnostic, DiagnosticSeverity},
    ir::{Location, Module},
    Context, ContextRef,
};
use std::{cell::RefCell, collections::HashMap, rc::Rc};

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

/// A source position (1-based line and column).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Position {
    pub file: String,
    pub line: usize,
    pub column: usize,
}

/// One diagnostic with its notes.
#[derive(Clone, Debug)]
pub struct Diag {
    pub severity: Severity,
    pub position: Option<Position>,
    pub message: String,
    pub notes: Vec<Diag>,
}

impl Diag {
    pub fn error(position: Option<Position>, message: impl Into<String>) -> Diag {
        Diag { severity: Severity::Error, position, message: message.into(), notes: Vec::new() }
    }

    /// Converts an MLIR diagnostic; `unnamed` replaces the buffer name `-` that MLIR gives
    /// text parsed from a string.
    pub fn from_mlir(diagnostic: &Diagnostic, unnamed: &str) -> Diag {
        let severity = match diagnostic.severity() {
            DiagnosticSeverity::Error => Severity::Error,
            DiagnosticSeverity::Warning => Severity::Warning,
            DiagnosticSeverity::Note => Severity::Note,
            DiagnosticSeverity::Remark => Severity::Remark,
        };
        Diag {
            severity,
            position: position_of(diagnostic.location(), unnamed),
            message: diagnostic.to_string(),
            notes: (0..diagnostic.note_count())
                .filter_map(|i| diagnostic.note(i).ok())
                .map(|note| Diag::from_mlir(&note, unnamed))
                .collect(),
        }
    }

    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }

    /// The diagnostic (and its notes) with positions in [`UNNAMED_INPUT`] moved to `file`: the
    /// library functions capture diagnostics without knowing the tool's name for its input.
    pub fn name_input(mut self, file: &str) -> Diag {
        if let Some(position) = &mut self.position {
            if position.file == UNNAMED_INPUT {
                position.file = file.to_string();
            }
        }
        self.notes = self.notes.into_iter().map(|note| note.name_input(file)).collect();
        self
    }

    /// The diagnostic with a "did you mean 'layout.load'?" note when it is the parser's
    /// unknown-op error about a misspelled op of our dialects (names from their IRDL).
    pub fn with_op_suggestion(mut self) -> Diag {
        let dialects = [layout_dialect::IRDL_SOURCE, layout_dialect::ASCENDC_IRDL_SOURCE];
        if let Some(op) = cli_common::suggest::op_for_unknown(&self.message, &dialects) {
            let message = format!("did you mean '{op}'?");
            self.notes.push(Diag {
                severity: Severity::Note,
                position: self.position.clone(),
                message,
                notes: Vec::new(),
            });
        }
        self
    }
}

/// The file name this crate's captures give a module parsed from text (MLIR's buffer `-`);
/// tools replace it with [`Diag::name_input`].
pub const UNNAMED_INPUT: &str = "<input>";

impl std::fmt::Display for Diag {
    /// `file:line:col: error: message` (no source excerpt; see [`Sources::render`]).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if let Some(p) = &self.position {
            write!(f, "{}:{}:{}: ", p.file, p.line, p.column)?;
        }
        write!(f, "{}: {}", self.severity.name(), self.message)?;
        for note in &self.notes {
            write!(f, "\n{note}")?;
        }
        Ok(())
    }
}

/// The first `file:line:col` inside a (possibly nested) location.
pub fn position_of(location: Location, unnamed: &str) -> Option<Position> {
    resolve(location, unnamed, 0)
}

fn resolve(location: Location, unnamed: &str, depth: usize) -> Option<Position> {
    if depth > 16 {
        return None;
    }
    if location.is_file_line_col_range() {
        let name = location.file_line_col_range_filename();
        let name = name.as_string_ref().as_str().unwrap_or("").to_string();
        return Some(Position {
            file: if name.is_empty() || name == "-" { unnamed.to_string() } else { name },
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

/// Collects the diagnostics a context emits while it lives (it is attached as the innermost
/// handler, so outer handlers do not see them); detached on drop.
///
/// It keeps a `ContextRef` (a copy of the raw pointer), never a `&Context` obtained from
/// `ContextRef::to_ref` on a temporary: that reference points at the temporary itself and
/// dangles as soon as the statement ends (a crash in release builds only).
pub struct Capture<'c> {
    context: ContextRef<'c>,
    id: Option<melior::diagnostic::DiagnosticHandlerId>,
    diags: Rc<RefCell<Vec<Diag>>>,
}

impl<'c> Capture<'c> {
    pub fn new(context: &'c Context, unnamed: &str) -> Capture<'c> {
        // Safety: the raw context is valid for 'c.
        Capture::attach(unsafe { ContextRef::from_raw(context.to_raw()) }, unnamed)
    }

    /// Captures the diagnostics of `module`'s context.
    pub fn for_module(module: &Module<'c>, unnamed: &str) -> Capture<'c> {
        Capture::attach(module.context(), unnamed)
    }

    fn attach(context: ContextRef<'c>, unnamed: &str) -> Capture<'c> {
        let diags: Rc<RefCell<Vec<Diag>>> = Rc::default();
        let sink = diags.clone();
        let unnamed = unnamed.to_string();
        // Safety: `context` lives across this call.
        let id = unsafe { context.to_ref() }.attach_diagnostic_handler(move |diagnostic| {
            sink.borrow_mut().push(Diag::from_mlir(&diagnostic, &unnamed));
            true
        });
        Capture { context, id: Some(id), diags }
    }

    /// Whether an error has been captured (and not yet taken).
    pub fn has_error(&self) -> bool {
        self.diags.borrow().iter().any(Diag::is_error)
    }

    /// The diagnostics so far (emptying the list).
    pub fn take(&self) -> Vec<Diag> {
        std::mem::take(&mut *self.diags.borrow_mut())
    }
}

impl Drop for Capture<'_> {
    fn drop(&mut self) {
        if let Some(id) = self.id.take() {
            // Safety: `self.context` lives across this call.
            unsafe { self.context.to_ref() }.detach_diagnostic_handler(id);
        }
    }
}

/// Source texts by file name, for printing the offending line under a diagnostic. Files not
/// added are read from disk on first use.
#[derive(Default)]
pub struct Sources {
    files: HashMap<String, Option<Vec<String>>>,
    mlir_opt: bool,
}

impl Sources {
    /// Renders as `mlir-opt` does (the format of `layout-opt`, pinned by its lit tests): an
    /// unlocated diagnostic is `<unknown location>: ...`, a note at its parent's position gets
    /// no second source excerpt, and tabs before the caret are kept so it lines up.
    pub fn mlir_opt() -> Sources {
        Sources { mlir_opt: true, ..Sources::default() }
    }

    pub fn add(&mut self, name: &str, text: &str) {
        self.files.insert(name.to_string(), Some(text.lines().map(str::to_string).collect()));
    }

    fn line(&mut self, file: &str, line: usize) -> Option<String> {
        let lines = self.files.entry(file.to_string()).or_insert_with(|| {
            std::fs::read(file).ok().map(|bytes| String::from_utf8_lossy(&bytes).lines().map(str::to_string).collect())
        });
        lines.as_ref()?.get(line.checked_sub(1)?).cloned()
    }

    /// Appends `file:line:col: severity: message`, the source line and a caret, then the notes.
    pub fn render(&mut self, diag: &Diag, out: &mut String) {
        self.render_under(diag, None, out)
    }

    fn render_under(&mut self, diag: &Diag, parent: Option<&Position>, out: &mut String) {
        match &diag.position {
            Some(p) => out.push_str(&format!("{}:{}:{}: ", p.file, p.line, p.column)),
            None if self.mlir_opt => out.push_str("<unknown location>: "),
            None => out.push_str("<unknown>: "),
        }
        out.push_str(&format!("{}: {}\n", diag.severity.name(), diag.message));
        if let Some(p) = &diag.position {
            let repeated = self.mlir_opt && parent == Some(p);
            if let Some(text) = self.line(&p.file, p.line).filter(|_| !repeated) {
                let (shown, caret) = excerpt(&text, p.column.saturating_sub(1));
                let keep_tabs = self.mlir_opt;
                let pad: String =
                    shown.chars().take(caret).map(|c| if keep_tabs && c == '\t' { '\t' } else { ' ' }).collect();
                out.push_str(&shown);
                out.push('\n');
                out.push_str(&pad);
                out.push_str("^\n");
            }
        }
        for note in &diag.notes {
            self.render_under(note, diag.position.as_ref(), out);
        }
    }

    /// All diagnostics rendered.
    pub fn render_all(&mut self, diags: &[Diag]) -> String {
        let mut out = String::new();
        for diag in diags {
            self.render(diag, &mut out);
        }
        out
    }
}

/// At most ~160 characters of `line` around the 0-based character `column`, control characters
/// shown as `?`, and the caret position in the excerpt.
fn excerpt(line: &str, column: usize) -> (String, usize) {
    const HALF: usize = 80;
    let chars: Vec<char> = line.chars().map(|c| if c.is_control() && c != '\t' { '?' } else { c }).collect();
    let column = column.min(chars.len());
    let start = column.saturating_sub(HALF);
    let end = (column + HALF).min(chars.len());
    let mut shown = String::new();
    let mut caret = column - start;
    if start > 0 {
        shown.push_str("...");
        caret += 3;
    }
    shown.extend(&chars[start..end]);
    if end < chars.len() {
        shown.push_str("...");
    }
    (shown, caret)
}
