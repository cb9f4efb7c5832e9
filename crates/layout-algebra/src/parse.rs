//! Text form of tuples and layouts, in CuTe notation.
//!
//! Grammar (white space allowed between tokens; printing never emits any):
//! ```text
//! tuple  := int | '?' | '(' [tuple (',' tuple)* [',']] ')'     -- `(5,)` = `(5)`, as pycute prints it
//! layout := tuple ':' tuple ['origin' tuple]
//! ```
//! `?` is a dynamic leaf (a value known only at run time); [`parse_int_tuple`] and
//! [`parse_layout`] reject it, [`parse_dyn_tuple`] and [`parse_dyn_layout`] keep it as `None`.

use crate::error::{AlgebraError, Result};
use crate::int_tuple::{IntTuple, Tuple};
use crate::layout::Layout;

/// A tuple whose leaves may be dynamic (`None` = `?`).
pub type DynTuple = Tuple<Option<i64>>;

/// Shape, stride and optional origin of a layout whose leaves may be dynamic.
#[derive(Clone, Debug, PartialEq)]
pub struct DynLayoutText {
    pub shape: DynTuple,
    pub stride: DynTuple,
    pub origin: Option<DynTuple>,
}

/// Deepest bracket nesting the text forms accept (tuples, tilers, and `layout-calc`'s calls).
/// Each level is a recursive call in the parsers and in the algebra's tree walks (printing,
/// `size`, `map`, drop), so input nested 10,000 deep would overflow the stack; real layouts
/// nest a handful of levels.
pub const MAX_NESTING: usize = 256;

pub struct Cursor<'a> {
    text: &'a str,
    pos: usize,
    /// Brackets entered with [`Cursor::enter`] and not yet left.
    depth: usize,
}

impl<'a> Cursor<'a> {
    pub fn new(text: &'a str) -> Self {
        Cursor { text, pos: 0, depth: 0 }
    }

    /// Enters one bracket level; call it at the opening bracket (the error points there) and
    /// pair it with [`Cursor::leave`]. Fails past [`MAX_NESTING`] levels.
    pub fn enter(&mut self) -> Result<()> {
        self.skip_ws();
        if self.depth >= MAX_NESTING {
            return Err(self.error(format!("nesting deeper than {MAX_NESTING} levels is not supported")));
        }
        self.depth += 1;
        Ok(())
    }

    /// Leaves the level entered by the matching [`Cursor::enter`].
    pub fn leave(&mut self) {
        self.depth = self.depth.saturating_sub(1);
    }

    pub fn position(&self) -> usize {
        self.pos
    }

    pub fn rest(&self) -> &'a str {
        &self.text[self.pos..]
    }

    pub fn skip_ws(&mut self) {
        while let Some(c) = self.rest().chars().next() {
            if c.is_whitespace() {
                self.pos += c.len_utf8();
            } else {
                break;
            }
        }
    }

    pub fn peek(&mut self) -> Option<char> {
        self.skip_ws();
        self.rest().chars().next()
    }

    pub fn eat(&mut self, c: char) -> bool {
        if self.peek() == Some(c) {
            self.pos += c.len_utf8();
            true
        } else {
            false
        }
    }

    pub fn expect(&mut self, c: char) -> Result<()> {
        if self.eat(c) {
            Ok(())
        } else {
            let found = self.found();
            Err(self.error(format!("expected `{c}`{found}")))
        }
    }

    /// Eats `word` if it comes next as a whole word (not followed by an identifier character).
    /// The check looks past the word only when it matched: the text after a shorter prefix
    /// may start inside a multi-byte character.
    pub fn eat_word(&mut self, word: &str) -> bool {
        self.skip_ws();
        let Some(after) = self.rest().strip_prefix(word) else { return false };
        if after.chars().next().is_some_and(|c| c.is_alphanumeric() || c == '_') {
            return false;
        }
        self.pos += word.len();
        true
    }

    /// An identifier `[A-Za-z_][A-Za-z0-9_]*`, if one starts here.
    pub fn identifier(&mut self) -> Option<&'a str> {
        self.skip_ws();
        let rest = self.rest();
        let first = rest.chars().next()?;
        if !(first.is_ascii_alphabetic() || first == '_') {
            return None;
        }
        let len = rest.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).unwrap_or(rest.len());
        self.pos += len;
        Some(&rest[..len])
    }

    pub fn at_end(&mut self) -> bool {
        self.peek().is_none()
    }

    pub fn found(&self) -> String {
        match self.rest().trim_start().chars().next() {
            None => ", found end of input".to_string(),
            Some(c) => format!(", found `{c}`"),
        }
    }

    /// Error located at the current position (1-based column).
    pub fn error(&self, message: String) -> AlgebraError {
        AlgebraError::Parse { column: self.text[..self.pos].chars().count() + 1, message }
    }

    pub fn integer(&mut self) -> Result<i64> {
        self.skip_ws();
        let start = self.pos;
        let rest = self.rest();
        let mut len = 0;
        for (i, c) in rest.char_indices() {
            if c.is_ascii_digit() || (i == 0 && c == '-') {
                len = i + 1;
            } else {
                break;
            }
        }
        let digits = &rest[..len];
        if digits.is_empty() || digits == "-" {
            return Err(self.error(format!("expected an integer{}", self.found())));
        }
        self.pos += len;
        digits.parse::<i64>().map_err(|_| AlgebraError::Parse {
            column: self.text[..start].chars().count() + 1,
            message: format!("integer `{digits}` does not fit in 64 bits"),
        })
    }

    pub fn dyn_tuple(&mut self) -> Result<DynTuple> {
        match self.peek() {
            Some('(') => {
                self.enter()?;
                self.pos += 1;
                let children = self.dyn_children()?;
                self.leave();
                Ok(Tuple::Tuple(children))
            }
            Some('?') => {
                self.pos += 1;
                Ok(Tuple::Int(None))
            }
            _ => Ok(Tuple::Int(Some(self.integer()?))),
        }
    }

    /// The children of a tuple whose `(` has been eaten, up to and including its `)`.
    fn dyn_children(&mut self) -> Result<Vec<DynTuple>> {
        let mut children = Vec::new();
        if self.eat(')') {
            return Ok(children);
        }
        loop {
            children.push(self.dyn_tuple()?);
            if self.eat(')') {
                return Ok(children);
            }
            if !self.eat(',') {
                let found = self.found();
                return Err(self.error(format!("expected `,` or `)`{found}")));
            }
            // A trailing comma is allowed, as in Python: `(5,)` is the rank-1 tuple `(5)`.
            if self.eat(')') {
                return Ok(children);
            }
        }
    }

    pub fn int_tuple(&mut self) -> Result<IntTuple> {
        let start = self.pos;
        let t = self.dyn_tuple()?;
        to_static(&t).ok_or_else(|| AlgebraError::Parse {
            column: self.text[..start].chars().count() + 1,
            message: "dynamic `?` is not allowed here".into(),
        })
    }

    pub fn dyn_layout(&mut self) -> Result<DynLayoutText> {
        let shape = self.dyn_tuple()?;
        self.expect(':')?;
        let stride = self.dyn_tuple()?;
        let origin = if self.eat_word("origin") { Some(self.dyn_tuple()?) } else { None };
        Ok(DynLayoutText { shape, stride, origin })
    }

    pub fn layout(&mut self) -> Result<Layout> {
        let start = self.pos;
        let text = self.dyn_layout()?;
        let static_or = |t: &DynTuple| {
            to_static(t).ok_or_else(|| AlgebraError::Parse {
                column: self.text[..start].chars().count() + 1,
                message: "dynamic `?` is not allowed here".into(),
            })
        };
        let shape = static_or(&text.shape)?;
        let stride = static_or(&text.stride)?;
        match &text.origin {
            None => Layout::new(shape, stride),
            Some(o) => Layout::with_origin(shape, stride, static_or(o)?),
        }
    }
}

/// The tuple with every leaf static, or `None` if any leaf is `?`.
pub fn to_static(t: &DynTuple) -> Option<IntTuple> {
    t.map(&mut |v: &Option<i64>| v.ok_or(())).ok()
}

fn whole<'a, T>(text: &'a str, f: impl FnOnce(&mut Cursor<'a>) -> Result<T>) -> Result<T> {
    let mut c = Cursor::new(text);
    let v = f(&mut c)?;
    if !c.at_end() {
        let found = c.found();
        return Err(c.error(format!("unexpected trailing input{found}")));
    }
    Ok(v)
}

pub fn parse_int_tuple(text: &str) -> Result<IntTuple> {
    whole(text, Cursor::int_tuple)
}

pub fn parse_dyn_tuple(text: &str) -> Result<DynTuple> {
    whole(text, Cursor::dyn_tuple)
}

pub fn parse_layout(text: &str) -> Result<Layout> {
    whole(text, Cursor::layout)
}

pub fn parse_dyn_layout(text: &str) -> Result<DynLayoutText> {
    whole(text, Cursor::dyn_layout)
}

impl DynTuple {
    /// Prints `?` for dynamic leaves.
    pub fn to_string_dyn(&self) -> String {
        match self {
            Tuple::Int(Some(v)) => v.to_string(),
            Tuple::Int(None) => "?".to_string(),
            Tuple::Tuple(c) => format!("({})", c.iter().map(|t| t.to_string_dyn()).collect::<Vec<_>>().join(",")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn printed_values_parse_back() {
        for s in ["37", "(1,(2,3))", "()", "((16,7),(16,7))", "-5"] {
            assert_eq!(parse_int_tuple(s).unwrap().to_string(), s);
        }
        for s in ["((16,7),(16,7)):((16,256),(1,1792)) origin (100,100)", "(3,(2,3)):(3,(12,1))", "8:2", "(2,4):(-1,8)"]
        {
            assert_eq!(parse_layout(s).unwrap().to_string(), s);
        }
        // A default origin is not printed.
        assert_eq!(parse_layout("(4,3):(1,4) origin (4,3)").unwrap().to_string(), "(4,3):(1,4)");
        assert_eq!(parse_layout(" ( 4 , 3 ) : ( 1 , 4 ) ").unwrap().to_string(), "(4,3):(1,4)");
        // pycute prints rank-1 tuples with a trailing comma.
        assert_eq!(parse_layout("(3,(5,),3):(8,(3,),4)").unwrap().to_string(), "(3,(5),3):(8,(3),4)");
        assert!(parse_int_tuple("(,)").is_err());
        assert!(parse_int_tuple("(1,,2)").is_err());
    }

    #[test]
    fn errors_have_columns() {
        let e = parse_int_tuple("(1,2").unwrap_err();
        assert_eq!(e, AlgebraError::Parse { column: 5, message: "expected `,` or `)`, found end of input".into() });
        assert!(matches!(parse_layout("(4,3):(1,4,5)"), Err(AlgebraError::NotCongruent { .. })));
        assert!(matches!(parse_int_tuple("99999999999999999999"), Err(AlgebraError::Parse { column: 1, .. })));
        assert!(parse_layout("(4,?):(1,4)").is_err());
        assert!(matches!(parse_layout("(4,0):(1,4)"), Err(AlgebraError::NotPositive { .. })));
        assert!(parse_int_tuple("(1,2)x").is_err());
    }

    /// Found by `layout-fuzz` (target `parse`, also through `layout-calc`): a multi-byte
    /// character within six bytes after a layout's stride made the `origin` look-ahead slice
    /// inside the character and panic.
    #[test]
    fn multi_byte_text_after_a_layout_is_an_error_not_a_panic() {
        let trailing = |found: &str, column| AlgebraError::Parse {
            column,
            message: format!("unexpected trailing input, found `{found}`"),
        };
        assert_eq!(parse_layout("5:3 orig€"), Err(trailing("o", 5)));
        assert_eq!(parse_dyn_layout("(4,?):(1,?)😀"), Err(trailing("😀", 12)));
        assert_eq!(parse_layout("8:2é"), Err(trailing("é", 4)));
        assert_eq!(parse_layout("8:2 originé"), Err(trailing("o", 5)));
        assert_eq!(
            parse_layout("8:2 origin€"),
            Err(AlgebraError::Parse { column: 11, message: "expected an integer, found `€`".into() })
        );
        assert_eq!(parse_layout("8:2 origin 8").unwrap().to_string(), "8:2");
    }

    #[test]
    fn nesting_is_limited_with_a_located_error() {
        let nested = |depth: usize| format!("{}1{}", "(".repeat(depth), ")".repeat(depth));
        assert_eq!(parse_int_tuple(&nested(MAX_NESTING)).unwrap().depth(), MAX_NESTING);
        let message = format!("nesting deeper than {MAX_NESTING} levels is not supported");
        // The bracket that goes one level too deep is at column MAX_NESTING + 1.
        let error = parse_int_tuple(&nested(MAX_NESTING + 1)).unwrap_err();
        assert_eq!(error, AlgebraError::Parse { column: MAX_NESTING + 1, message: message.clone() });
        // 10,000 levels used to overflow the stack; in a layout's stride as well.
        let error = parse_layout(&format!("(2,2):{}", nested(10_000))).unwrap_err();
        assert_eq!(error, AlgebraError::Parse { column: 7 + MAX_NESTING, message });
        // Siblings do not add up: depth is nesting, not the number of brackets.
        let wide = vec![nested(MAX_NESTING - 1); 50].join(",");
        assert_eq!(parse_int_tuple(&format!("({wide})")).unwrap().depth(), MAX_NESTING);
    }

    #[test]
    fn dynamic_leaves() {
        let l = parse_dyn_layout("((16,?),(16,?)):((16,256),(1,?)) origin (?,100)").unwrap();
        assert_eq!(
            l.shape,
            Tuple::Tuple(vec![
                Tuple::Tuple(vec![Tuple::Int(Some(16)), Tuple::Int(None)]),
                Tuple::Tuple(vec![Tuple::Int(Some(16)), Tuple::Int(None)]),
            ])
        );
        assert_eq!(l.origin.unwrap().to_string_dyn(), "(?,100)");
    }
}
