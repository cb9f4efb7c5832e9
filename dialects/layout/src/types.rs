//! Typed views of `!layout.tensor<...>` and `#layout.target<...>`.
//!
//! IRDL-defined types and attributes have no C-API accessors for their parameters, so these
//! helpers read the printed form (which MLIR produces canonically) and build values by parsing
//! text. Turning the layout/origin strings into `layout-algebra` values is done in
//! [`crate::tensor_layout`]; this module only splits the parameters.

use melior::{
    ir::{operation::OperationLike, Attribute, Location, OperationRef, Type},
    Context,
};
use std::fmt;

pub use layout_algebra::ascend::{MemorySpace, Target};

/// The four parameters of `!layout.tensor<ELEM, "SPACE", "LAYOUT", "ORIGIN">`, as text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TensorType {
    /// The element type as MLIR prints it (`f16`, `i8`, ...).
    pub elem: String,
    /// Memory space name (not yet checked against [`MemorySpace`]).
    pub space: String,
    /// Pattern name (`NZ`, `zN`, ...) or CuTe layout (`((16,?),(16,?)):((16,256),(1,?))`).
    pub layout: String,
    /// Valid extent, e.g. `(100,?)`.
    pub origin: String,
}

impl TensorType {
    /// The type with these four parameters.
    pub fn new(
        elem: impl Into<String>,
        space: impl Into<String>,
        layout: impl Into<String>,
        origin: impl Into<String>,
    ) -> Self {
        TensorType { elem: elem.into(), space: space.into(), layout: layout.into(), origin: origin.into() }
    }

    /// Reads a `!layout.tensor` type; `None` for any other type.
    pub fn from_type(ty: Type) -> Option<Self> {
        Self::parse(&ty.to_string())
    }

    /// Parses the printed form `!layout.tensor<...>`.
    pub fn parse(text: &str) -> Option<Self> {
        let body = text.trim().strip_prefix("!layout.tensor<")?.strip_suffix('>')?;
        let params = split_params(body)?;
        if params.len() != 4 {
            return None;
        }
        Some(Self {
            elem: params[0].trim().to_string(),
            space: unquote(params[1].trim())?,
            layout: unquote(params[2].trim())?,
            origin: unquote(params[3].trim())?,
        })
    }

    /// Builds the MLIR type (fails if the element type is not accepted by the dialect).
    pub fn to_type<'c>(&self, context: &'c Context) -> Option<Type<'c>> {
        Type::parse(context, &self.to_string())
    }
}

impl fmt::Display for TensorType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "!layout.tensor<{}, {}, {}, {}>",
            self.elem,
            quote(&self.space),
            quote(&self.layout),
            quote(&self.origin)
        )
    }
}

/// The value of a `#layout.target<"NAME">` attribute, or `None` if `attribute` is not one.
pub fn target_name(attribute: Attribute) -> Option<String> {
    let text = attribute.to_string();
    let body = text.trim().strip_prefix("#layout.target<")?.strip_suffix('>')?;
    unquote(body.trim())
}

/// Why an op has no usable target.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TargetError {
    /// Neither the op nor any enclosing op carries `layout.target`.
    Missing,
    /// The attribute is not a `#layout.target<"NAME">` (its printed form).
    NotATarget(String),
    /// A `#layout.target<"NAME">` whose name is not a [`Target`].
    Unknown(String),
}

impl fmt::Display for TargetError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let attr = crate::TARGET_ATTRIBUTE;
        match self {
            TargetError::Missing => write!(
                f,
                "no enclosing op has a '{attr}' attribute (add `attributes {{{attr} = #layout.target<\"a2\">}}` or \"a5\" to the module)"
            ),
            TargetError::NotATarget(text) => {
                write!(f, "'{attr}' must be #layout.target<\"a2\"> or #layout.target<\"a5\">, got {text}")
            }
            TargetError::Unknown(name) => {
                let hint = if name == "a3" { " (Atlas A3 is target \"a2\")" } else { "" };
                write!(
                    f,
                    "unknown target \"{name}\"; expected \"a2\" (Atlas A2/A3, arch {}) or \"a5\" (Ascend 950, arch {}){hint}",
                    Target::A2.arch(),
                    Target::A5.arch()
                )
            }
        }
    }
}

/// The target of `op`: the `layout.target` attribute on `op` or on its nearest enclosing op.
///
/// **The one rule** (verifier, AscendC lowering and emitters alike): there is no default
/// target. Everything downstream of the dialect depends on it (the L0A layout, legal paths,
/// L0C capacity, LoadData parameters), so a silent "a2" would turn an a5 kernel into wrong
/// code; a missing or malformed target is an error, located at the op holding the attribute
/// (at `op` itself when it is missing). Callers that accept modules without layout ops (the
/// verifier) only ask when the dialect is used.
pub fn target_of<'c>(op: OperationRef<'c, '_>) -> Result<Target, (Location<'c>, TargetError)> {
    let mut holder = Some(op);
    while let Some(current) = holder {
        if let Ok(attr) = current.attribute(crate::TARGET_ATTRIBUTE) {
            let at = |e| (current.location(), e);
            let name = target_name(attr).ok_or_else(|| at(TargetError::NotATarget(attr.to_string())))?;
            return Target::from_name(&name).ok_or_else(|| at(TargetError::Unknown(name)));
        }
        holder = current.parent_operation();
    }
    Err((op.location(), TargetError::Missing))
}

/// Tracks `"..."` string literals (with `\` escapes) through a character-by-character scan, so
/// scanners can skip brackets and commas inside them.
#[derive(Default)]
pub struct StringLiterals {
    open: bool,
    escaped: bool,
}

impl StringLiterals {
    /// Feeds the next character: true when it is inside a string literal (its closing quote
    /// included), false for characters outside, including an opening quote.
    pub fn inside(&mut self, c: char) -> bool {
        if !self.open {
            self.open = c == '"';
            return false;
        }
        if self.escaped {
            self.escaped = false;
        } else if c == '\\' {
            self.escaped = true;
        } else if c == '"' {
            self.open = false;
        }
        true
    }

    /// Whether a string literal is still open (unterminated).
    pub fn open(&self) -> bool {
        self.open
    }
}

/// Splits on top-level commas, respecting quotes and brackets.
fn split_params(body: &str) -> Option<Vec<&str>> {
    let mut params = Vec::new();
    let mut depth = 0i32;
    let mut strings = StringLiterals::default();
    let mut start = 0;
    for (i, c) in body.char_indices() {
        if strings.inside(c) {
            continue;
        }
        match c {
            '<' | '(' | '[' | '{' => depth += 1,
            '>' | ')' | ']' | '}' => depth -= 1,
            ',' if depth == 0 => {
                params.push(&body[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    if strings.open() || depth != 0 {
        return None;
    }
    params.push(&body[start..]);
    Some(params)
}

/// Decodes an MLIR string literal (`\\`, `\"`, `\n`, `\t` and `\XX` hex escapes).
fn unquote(text: &str) -> Option<String> {
    let inner = text.strip_prefix('"')?.strip_suffix('"')?;
    let bytes = inner.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] != b'\\' {
            out.push(bytes[i]);
            i += 1;
            continue;
        }
        let next = *bytes.get(i + 1)?;
        match next {
            b'\\' | b'"' => {
                out.push(next);
                i += 2;
            }
            b'n' => {
                out.push(b'\n');
                i += 2;
            }
            b't' => {
                out.push(b'\t');
                i += 2;
            }
            _ => {
                let hex = inner.get(i + 1..i + 3)?;
                out.push(u8::from_str_radix(hex, 16).ok()?);
                i += 3;
            }
        }
    }
    String::from_utf8(out).ok()
}

fn quote(text: &str) -> String {
    let mut out = String::from("\"");
    for b in text.bytes() {
        match b {
            b'"' | b'\\' => out.push_str(&format!("\\{:02X}", b)),
            0x20..=0x7e => out.push(b as char),
            _ => out.push_str(&format!("\\{:02X}", b)),
        }
    }
    out.push('"');
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use melior::ir::BlockLike;

    /// The one target rule: the nearest enclosing attribute, and no default.
    #[test]
    fn target_of_reads_the_nearest_attribute_and_has_no_default() {
        let context = crate::create_context().expect("context");
        let first_op_target = |source: &str| {
            let module = crate::parse_source(&context, source).expect("parse");
            let op = module.body().first_operation().expect("op");
            // Safety: `op` lives as long as `module`, which outlives this use.
            let op = unsafe { OperationRef::from_raw(op.to_raw()) };
            target_of(op).map_err(|(_, e)| e)
        };
        let func = |attrs: &str| format!("module {attrs} {{ func.func @f() {{ return }} }}");
        assert_eq!(first_op_target(&func(r#"attributes {layout.target = #layout.target<"a5">}"#)), Ok(Target::A5));
        assert_eq!(first_op_target(&func(r#"attributes {layout.target = #layout.target<"a2">}"#)), Ok(Target::A2));
        assert_eq!(first_op_target(&func("")), Err(TargetError::Missing));
        assert_eq!(
            first_op_target(&func(r#"attributes {layout.target = #layout.target<"a3">}"#)),
            Err(TargetError::Unknown("a3".into()))
        );
        assert_eq!(
            first_op_target(&func(r#"attributes {layout.target = "a5"}"#)),
            Err(TargetError::NotATarget(r#""a5""#.into()))
        );
        assert!(TargetError::Unknown("a3".into()).to_string().ends_with("(Atlas A3 is target \"a2\")"));
    }

    #[test]
    fn parse_printed_tensor_type() {
        let t = TensorType::parse(r#"!layout.tensor<f16, "l1", "((16,?),(16,?)):((16,256),(1,?))", "(100,?)">"#)
            .expect("parse");
        assert_eq!(t.elem, "f16");
        assert_eq!(t.layout, "((16,?),(16,?)):((16,256),(1,?))");
        assert_eq!(t.origin, "(100,?)");
        assert_eq!(TensorType::parse(&t.to_string()), Some(t));
        assert_eq!(TensorType::parse("memref<?xf16>"), None);
        assert_eq!(TensorType::parse(r#"!layout.tensor<f16, "l1">"#), None);
    }

    #[test]
    fn unquote_escapes() {
        assert_eq!(unquote(r#""a\22b\\c""#).as_deref(), Some("a\"b\\c"));
        assert_eq!(unquote(r#""a\2""#), None);
    }
}
