//! Textual pass pipelines (`builtin.module(layout-verify,canonicalize,func.func(cse))`) and their
//! assembly into an MLIR pass manager.
//!
//! Rust passes cannot be registered by name in MLIR's registry, so the pipeline is parsed here:
//! Rust passes are added as pass objects, and each maximal run of upstream elements is handed to
//! `mlirOpPassManagerAddPipeline` as text. (`mlirParsePassPipeline` would *replace* the passes
//! already added, see docs/toolchain.md.) Nested anchors recurse with
//! `mlirOpPassManagerGetNestedUnder`.

use crate::error::{OptError, Result};
use melior::StringRef;
use mlir_sys::MlirOpPassManager;
use std::ffi::c_void;

/// One element of a pipeline.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Element {
    /// A pass with optional `{...}` options (kept verbatim).
    Pass { name: String, options: Option<String> },
    /// `anchor(elements)`, e.g. `func.func(cse)`.
    Nested { anchor: String, elements: Vec<Element> },
}

impl Element {
    fn has_rust_pass(&self) -> bool {
        match self {
            Element::Pass { name, .. } => layout_passes::find(name).is_some(),
            Element::Nested { elements, .. } => elements.iter().any(Element::has_rust_pass),
        }
    }

    /// Whether this element is, or contains, the pass `name`.
    pub fn names_pass(&self, name: &str) -> bool {
        match self {
            Element::Pass { name: own, .. } => own == name,
            Element::Nested { elements, .. } => elements.iter().any(|e| e.names_pass(name)),
        }
    }

    fn render(&self, out: &mut String) {
        match self {
            Element::Pass { name, options } => {
                out.push_str(name);
                if let Some(options) = options {
                    out.push_str(options);
                }
            }
            Element::Nested { anchor, elements } => {
                out.push_str(anchor);
                out.push('(');
                render_list(elements, out);
                out.push(')');
            }
        }
    }
}

fn render_list(elements: &[Element], out: &mut String) {
    for (i, element) in elements.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        element.render(out);
    }
}

/// The lowering pass whose address arithmetic `layout-simplify-offsets` cleans up; part of the
/// default pipeline as soon as it is registered in `layout_passes::PASSES`.
pub const LOWER_TO_LOOPS: &str = "layout-lower-to-loops";

/// The lowering `--emit=ascendc` needs.
pub const LOWER_TO_ASCENDC: &str = "layout-lower-to-ascendc";

/// The default pipeline (`layout-opt --default-pipeline`):
///
/// `layout-verify, layout-fold, [layout-lower-to-loops,] canonicalize,
/// layout-simplify-offsets, canonicalize, cse, loop-invariant-code-motion`
///
/// verify first (every later pass assumes valid layouts); fold static layout facts; lower the
/// layout ops to loops (when that pass exists); canonicalize so constants are folded and
/// hoisted; simplify the address arithmetic with loop-range facts (after the lowering that
/// emits it); clean up and hoist loop-invariant address parts (strides of dynamic sizes).
pub fn default_pipeline() -> String {
    let lower = if layout_passes::find(LOWER_TO_LOOPS).is_some() { "layout-lower-to-loops," } else { "" };
    let tail = layout_passes::simplify_offsets::POST_LOWERING.join(",");
    format!("builtin.module(layout-verify,layout-fold,{lower}{tail})")
}

/// Parses `builtin.module(...)` and returns the elements inside the anchor.
pub fn parse(text: &str) -> Result<Vec<Element>> {
    let mut parser = Parser { text, pos: 0 };
    parser.skip_ws();
    let elements = parser.list()?;
    parser.skip_ws();
    if parser.pos != text.len() {
        return Err(parser.error("unexpected text after the pipeline"));
    }
    match elements.as_slice() {
        [Element::Nested { anchor, elements }] if anchor == "builtin.module" => Ok(elements.clone()),
        [] => Err(OptError::EmptyPipeline),
        _ => Err(OptError::UnanchoredPipeline),
    }
}

struct Parser<'a> {
    text: &'a str,
    pos: usize,
}

impl Parser<'_> {
    fn error(&self, message: &'static str) -> OptError {
        OptError::PipelineSyntax { text: self.text.to_string(), position: self.pos, message }
    }

    fn peek(&self) -> Option<char> {
        self.text[self.pos..].chars().next()
    }

    fn skip_ws(&mut self) {
        while self.peek().is_some_and(char::is_whitespace) {
            self.pos += 1;
        }
    }

    fn list(&mut self) -> Result<Vec<Element>> {
        let mut elements = Vec::new();
        loop {
            self.skip_ws();
            if matches!(self.peek(), None | Some(')')) && elements.is_empty() {
                return Ok(elements);
            }
            elements.push(self.element()?);
            self.skip_ws();
            if self.peek() == Some(',') {
                self.pos += 1;
            } else {
                return Ok(elements);
            }
        }
    }

    fn element(&mut self) -> Result<Element> {
        let start = self.pos;
        while self.peek().is_some_and(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.')) {
            self.pos += 1;
        }
        if self.pos == start {
            return Err(self.error("expected a pass or an op name"));
        }
        let name = self.text[start..self.pos].to_string();
        self.skip_ws();
        match self.peek() {
            Some('(') => {
                self.pos += 1;
                let elements = self.list()?;
                self.skip_ws();
                if self.peek() != Some(')') {
                    return Err(self.error("expected ')'"));
                }
                self.pos += 1;
                Ok(Element::Nested { anchor: name, elements })
            }
            Some('{') => {
                let options_start = self.pos;
                let mut depth = 0;
                let mut quote = None;
                while let Some(c) = self.peek() {
                    self.pos += c.len_utf8();
                    match (quote, c) {
                        (Some(q), _) if c == q => quote = None,
                        (Some(_), _) => {}
                        (None, '"' | '\'') => quote = Some(c),
                        (None, '{') => depth += 1,
                        (None, '}') => {
                            depth -= 1;
                            if depth == 0 {
                                let options = self.text[options_start..self.pos].to_string();
                                return Ok(Element::Pass { name, options: Some(options) });
                            }
                        }
                        _ => {}
                    }
                }
                Err(self.error("unterminated pass options '{'"))
            }
            _ => Ok(Element::Pass { name, options: None }),
        }
    }
}

unsafe extern "C" fn collect_message(message: mlir_sys::MlirStringRef, data: *mut c_void) {
    // Safety: `data` is the `String` passed by `add_upstream`; the string ref is valid here.
    let out = unsafe { &mut *(data as *mut String) };
    let bytes = unsafe { std::slice::from_raw_parts(message.data as *const u8, message.length) };
    out.push_str(&String::from_utf8_lossy(bytes));
}

fn add_upstream(manager: MlirOpPassManager, text: &str) -> Result<()> {
    let mut message = String::new();
    let pipeline = StringRef::new(text);
    // Safety: valid pass manager and string; the callback only appends to `message`.
    let result = unsafe {
        mlir_sys::mlirOpPassManagerAddPipeline(
            manager,
            pipeline.to_raw(),
            Some(collect_message),
            &mut message as *mut String as *mut c_void,
        )
    };
    if result.value == 0 {
        // MLIR reports `1:1: error: MESSAGE` followed by the text and a caret.
        let first = message.lines().next().unwrap_or("");
        let first = first.split_once("error: ").map_or(first, |(_, m)| m).trim();
        let message = (!first.is_empty()).then(|| first.to_string());
        // "'canonicalise' does not refer to a registered pass ...": suggest the closest pass.
        let unknown = first.strip_prefix('\'').and_then(|rest| rest.split_once('\'')).map(|(name, _)| name);
        let suggestion = unknown
            .filter(|_| first.contains("does not refer to a registered pass"))
            .and_then(|name| cli_common::suggest::closest(name, crate::cli::pass_names().map(|(n, _)| n)))
            .map(str::to_string);
        Err(OptError::UpstreamPipeline { pipeline: text.to_string(), message, suggestion })
    } else {
        Ok(())
    }
}

/// Adds `elements` to `manager`: Rust passes as objects, runs of upstream elements as text.
pub fn add_to(manager: MlirOpPassManager, elements: &[Element]) -> Result<()> {
    let mut pending = String::new();
    let flush = |pending: &mut String| -> Result<()> {
        if !pending.is_empty() {
            add_upstream(manager, pending)?;
            pending.clear();
        }
        Ok(())
    };
    for element in elements {
        if !element.has_rust_pass() {
            if !pending.is_empty() {
                pending.push(',');
            }
            element.render(&mut pending);
            continue;
        }
        flush(&mut pending)?;
        match element {
            Element::Pass { name, options } => {
                if let Some(info) = layout_passes::find(name) {
                    let pass = match (options, info.create_with_options) {
                        (None, _) => (info.create)(),
                        (Some(text), Some(create)) => create(text)?,
                        (Some(_), None) => return Err(OptError::TakesNoOptions(name.clone())),
                    };
                    // Safety: the pass manager takes ownership of the pass.
                    unsafe { mlir_sys::mlirOpPassManagerAddOwnedPass(manager, pass.to_raw()) };
                }
            }
            Element::Nested { anchor, elements } => {
                let anchor_ref = StringRef::new(anchor);
                // Safety: valid pass manager and name; returns the (owned by parent) nested manager.
                let nested = unsafe { mlir_sys::mlirOpPassManagerGetNestedUnder(manager, anchor_ref.to_raw()) };
                add_to(nested, elements)?;
            }
        }
    }
    flush(&mut pending)
}

/// Renders elements back to pipeline text (for tests).
#[cfg(test)]
pub(crate) fn render(elements: &[Element]) -> String {
    let mut out = String::from("builtin.module(");
    render_list(elements, &mut out);
    out.push(')');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_nested_and_options() {
        let elements =
            parse(" builtin.module( layout-verify , canonicalize{max-iterations=3 region-simplify=\"normal\"}, func.func(cse) ) ")
                .expect("parse");
        assert_eq!(elements.len(), 3);
        assert_eq!(
            render(&elements),
            "builtin.module(layout-verify,canonicalize{max-iterations=3 region-simplify=\"normal\"},func.func(cse))"
        );
        assert!(elements[0].has_rust_pass());
        assert!(!elements[2].has_rust_pass());
    }

    #[test]
    fn default_pipeline_parses_and_simplifies_after_lowering() {
        let text = default_pipeline();
        let elements = parse(&text).expect("default pipeline");
        let names: Vec<String> = elements
            .iter()
            .filter_map(|e| match e {
                Element::Pass { name, .. } => Some(name.clone()),
                Element::Nested { .. } => None,
            })
            .collect();
        let at = |n: &str| names.iter().position(|x| x == n);
        let simplify = at("layout-simplify-offsets").expect("simplify-offsets in the default pipeline");
        if let Some(lower) = at(LOWER_TO_LOOPS) {
            assert!(lower < simplify, "{text}");
        }
        assert!(at("layout-verify") == Some(0), "{text}");
    }

    #[test]
    fn rejects_bad_pipelines() {
        assert!(parse("canonicalize").is_err());
        assert!(parse("builtin.module(cse").is_err());
        assert!(parse("builtin.module(cse))").is_err());
        assert!(parse("builtin.module(cse{x=1)").is_err());
        assert!(parse("").is_err());
        assert!(parse("builtin.module(,)").is_err());
        assert_eq!(parse("builtin.module()").expect("empty"), vec![]);
    }
}
