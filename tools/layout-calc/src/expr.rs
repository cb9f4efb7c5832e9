//! Expressions of the calculator.
//!
//! ```text
//! expr    := primary [':' primary ['origin' primary]]      -- a layout SHAPE:STRIDE [origin O]
//! primary := integer | '(' [expr (',' expr)* [',']] ')' | name ['(' [expr (',' expr)* [',']] ')']
//! ```
//! A name followed by `(` is a function call; a bare name (`NZ`, `f16`, `_`) is a value.
//! Tuples may hold layouts, which makes them by-mode tilers: `(3:4,8:2)`.

use layout_algebra::parse::Cursor;
use layout_algebra::Layout;

use crate::error::CalcError;
use crate::functions::call;
use crate::value::Value;

fn syntax(c: &Cursor, message: String) -> CalcError {
    located(c.error(message))
}

/// A parse error of the cursor as the calculator's `column N: ...` error.
fn located(error: layout_algebra::AlgebraError) -> CalcError {
    match error {
        layout_algebra::AlgebraError::Parse { column, message } => CalcError::Syntax { column, message },
        other => CalcError::Algebra(other),
    }
}

/// Parses and evaluates a whole line.
pub fn evaluate(text: &str) -> Result<Value, CalcError> {
    let mut c = Cursor::new(text);
    let v = expr(&mut c)?;
    if !c.at_end() {
        let found = c.found();
        return Err(syntax(&c, format!("unexpected trailing input{found}")));
    }
    Ok(v)
}

fn expr(c: &mut Cursor) -> Result<Value, CalcError> {
    let first = primary(c)?;
    if !c.eat(':') {
        return Ok(first);
    }
    let shape = first.expect_int_tuple("a layout's shape")?;
    let stride = primary(c)?.expect_int_tuple("a layout's stride")?;
    let layout = if c.eat_word("origin") {
        let origin = primary(c)?.expect_int_tuple("a layout's origin")?;
        Layout::with_origin(shape, stride, origin)?
    } else {
        Layout::new(shape, stride)?
    };
    Ok(Value::Layout(layout))
}

fn list(c: &mut Cursor, what: &str) -> Result<Vec<Value>, CalcError> {
    let mut items = Vec::new();
    if c.eat(')') {
        return Ok(items);
    }
    loop {
        items.push(expr(c)?);
        if c.eat(')') {
            return Ok(items);
        }
        if !c.eat(',') {
            let found = c.found();
            return Err(syntax(c, format!("expected `,` or `)` in {what}{found}")));
        }
        // A trailing comma is allowed (`(5,)`, as pycute prints a rank-1 tuple).
        if c.eat(')') {
            return Ok(items);
        }
    }
}

fn primary(c: &mut Cursor) -> Result<Value, CalcError> {
    match c.peek() {
        Some('(') => {
            c.enter().map_err(located)?;
            c.expect('(')?;
            let items = list(c, "tuple")?;
            c.leave();
            Ok(Value::Tuple(items))
        }
        Some(ch) if ch.is_ascii_digit() || ch == '-' => Ok(Value::Int(c.integer()?)),
        Some(_) => {
            let start = c.position();
            let Some(name) = c.identifier() else {
                let found = c.found();
                return Err(syntax(c, format!("expected an integer, a tuple, a layout or a function call{found}")));
            };
            if c.peek() == Some('(') {
                // A call nests like a tuple: `size(size(...))` 10,000 deep is refused here.
                c.enter().map_err(located)?;
                c.expect('(')?;
                let args = list(c, &format!("arguments of `{name}`"))?;
                c.leave();
                let _ = start;
                call(name, &args)
            } else {
                Ok(Value::Name(name.to_string()))
            }
        }
        None => Err(syntax(c, "expected an expression, found end of input".into())),
    }
}
