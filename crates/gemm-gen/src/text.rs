//! MLIR text for a function body: fresh SSA names, indentation, `arith` for a `SymExpr`, and the
//! index constants hoisted to the top of the function.

use layout_algebra::sym::BinOp;
use layout_algebra::SymExpr;
use std::collections::{BTreeSet, HashMap};
use std::rc::Rc;

#[derive(Default)]
pub struct Body {
    lines: Vec<String>,
    depth: usize,
    used: HashMap<String, usize>,
    constants: BTreeSet<i64>,
    /// Values already computed, per open region (value numbering: an expression is emitted
    /// once where it is visible).
    known: Vec<HashMap<SymExpr, String>>,
    /// SSA value of each symbol a `SymExpr` may mention.
    pub symbols: HashMap<String, String>,
    /// Every division of the body has a non-negative dividend and a positive divisor, so
    /// floor division and remainder are `arith.divsi`/`arith.remsi` (truncation agrees with the
    /// floor there), which print as plain `/` and `%` in the AscendC C++.
    pub non_negative_division: bool,
}

impl Body {
    /// A new SSA name `%hint`, `%hint_1`, ... (unique in the function).
    pub fn fresh(&mut self, hint: &str) -> String {
        let n = self.used.entry(hint.to_string()).or_insert(0);
        *n += 1;
        if *n == 1 {
            format!("%{hint}")
        } else {
            format!("%{hint}_{}", *n - 1)
        }
    }

    pub fn line(&mut self, text: impl AsRef<str>) {
        self.lines.push(format!("{}{}", "  ".repeat(self.depth + 2), text.as_ref()));
    }

    pub fn open(&mut self, text: impl AsRef<str>) {
        self.line(format!("{} {{", text.as_ref()));
        self.depth += 1;
        self.known.push(HashMap::new());
    }

    pub fn close(&mut self) {
        self.depth -= 1;
        self.known.pop();
        self.line("}");
    }

    /// `%cN`, declared once at the top of the function.
    pub fn constant(&mut self, value: i64) -> String {
        self.constants.insert(value);
        constant_name(value)
    }

    /// The SSA value of `e`: a constant, a symbol, a value already computed in an enclosing
    /// region, or fresh `arith` ops (the floor remainder exactly, for any sign, as
    /// `a - floordiv(a, b) * b`).
    pub fn expr(&mut self, e: &SymExpr, hint: &str) -> String {
        match e {
            SymExpr::Const(v) => self.constant(*v),
            SymExpr::Sym(s) => self.symbols.get(&**s).cloned().unwrap_or_else(|| panic!("unbound symbol {s}")),
            SymExpr::Bin(BinOp::FloorMod, a, b) if !self.non_negative_division => {
                // a - floordiv(a, b) * b, through `expr` so the quotient is shared.
                let q = Rc::new(SymExpr::Bin(BinOp::FloorDiv, a.clone(), b.clone()));
                let p = Rc::new(SymExpr::Bin(BinOp::Mul, q, b.clone()));
                self.expr(&SymExpr::Bin(BinOp::Sub, a.clone(), p), hint)
            }
            SymExpr::Bin(op, a, b) => {
                if let Some(v) = self.known.iter().rev().find_map(|m| m.get(e)) {
                    return v.clone();
                }
                let (a, b) = (self.expr(a, hint), self.expr(b, hint));
                let v = self.arith(*op, &a, &b, hint);
                if self.known.is_empty() {
                    self.known.push(HashMap::new());
                }
                self.known.last_mut().unwrap().insert(e.clone(), v.clone());
                v
            }
        }
    }

    fn arith(&mut self, op: BinOp, a: &str, b: &str, hint: &str) -> String {
        let name = match op {
            BinOp::Add => "addi",
            BinOp::Sub => "subi",
            BinOp::Mul => "muli",
            BinOp::FloorDiv if self.non_negative_division => "divsi",
            BinOp::FloorMod if self.non_negative_division => "remsi",
            BinOp::FloorDiv => "floordivsi",
            BinOp::Min => "minsi",
            BinOp::Max => "maxsi",
            BinOp::FloorMod => unreachable!("expanded by `expr` unless divisions are non-negative"),
        };
        let out = self.fresh(hint);
        self.line(format!("{out} = arith.{name} {a}, {b} : index"));
        out
    }

    /// The body's lines, the constants first (at the function's indentation).
    pub fn finish(self) -> String {
        let mut out = String::new();
        for v in &self.constants {
            out.push_str(&format!("    {} = arith.constant {v} : index\n", constant_name(*v)));
        }
        for l in self.lines {
            out.push_str(&l);
            out.push('\n');
        }
        out
    }
}

fn constant_name(v: i64) -> String {
    if v < 0 {
        format!("%cm{}", v.unsigned_abs())
    } else {
        format!("%c{v}")
    }
}
