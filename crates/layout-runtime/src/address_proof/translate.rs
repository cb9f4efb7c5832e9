//! The lowered `arith`/`scf` code of a side function as SMT-LIB2 over integers: each op a
//! `let`-bound term (so a DAG stays a DAG), each intermediate with its range condition
//! ([`Translator::defined`]), and the path to an op (enclosing `scf.for` ranges, `scf.if`
//! conditions) as facts. Integer and index values are 64-bit; anything the table in
//! [`Translator::int`] does not list is refused (the proof is then unknown).

use std::collections::HashMap;

use index_simplify::smt::{encode, Query};
use layout_passes::ir::{constant_int, op_name};
use melior::ir::{operation::OperationLike, AttributeLike, BlockRef, OperationRef, TypeLike, Value, ValueLike};
use mlir_sys::MlirValue;

/// The running block's index and the number of blocks (see [`Translator::block_query`]).
pub const BLOCK_IDX: &str = "ir.block_idx";
pub const BLOCK_NUM: &str = "ir.block_num";

/// 2^64, for the unsigned readings.
const TWO_64: &str = "18446744073709551616";

/// Builds one query from the IR of one function.
pub struct Translator {
    /// The function's entry block (its arguments are `ir.argK`).
    entry: usize,
    /// `let` bindings in order: name, term.
    bindings: Vec<(String, String)>,
    memo: HashMap<usize, String>,
    /// Declared constants (by raw name).
    symbols: Vec<String>,
    /// Of those, the ones without the 64-bit range (values shown in a model, which may be
    /// what overflows).
    unbounded: Vec<String>,
    /// Range conditions of every intermediate read (the claim "no overflow").
    pub defined: Vec<String>,
    counter: usize,
    /// While set ([`Translator::path_weakened`]), a quotient or remainder by a non-constant
    /// divisor is read as a fresh constant instead of its definition.
    weaken_divisions: bool,
    /// Values read as a named constant when first read ([`Translator::abstract_if_read`]).
    lazy: HashMap<usize, String>,
}

fn ptr(v: MlirValue) -> usize {
    v.ptr as usize
}

/// The bit width of an integer type, 64 for `index`, `None` otherwise.
fn width(value: Value) -> Option<u32> {
    let ty = value.r#type();
    if ty.is_index() {
        return Some(64);
    }
    // Safety: type queries on a valid type.
    unsafe { mlir_sys::mlirTypeIsAInteger(ty.to_raw()).then(|| mlir_sys::mlirIntegerTypeGetWidth(ty.to_raw())) }
}

impl Translator {
    pub fn new(entry: BlockRef) -> Self {
        Translator {
            entry: entry.to_raw().ptr as usize,
            bindings: Vec::new(),
            memo: HashMap::new(),
            symbols: Vec::new(),
            unbounded: Vec::new(),
            defined: Vec::new(),
            counter: 0,
            weaken_divisions: false,
            lazy: HashMap::new(),
        }
    }

    /// Declares an integer constant named `name` (quoted with [`encode::symbol`]).
    pub fn declare(&mut self, name: &str) {
        if !self.symbols.iter().any(|s| s == name) {
            self.symbols.push(name.to_string());
        }
    }

    /// Reads `value` as the constant `name` (declared) instead of translating its definition.
    pub fn abstract_value(&mut self, value: Value, name: &str) {
        self.declare(name);
        self.memo.insert(ptr(value.to_raw()), encode::symbol(name));
    }

    /// [`Translator::abstract_value`] once a term reads `value` (nothing is declared before).
    pub fn abstract_if_read(&mut self, value: Value, name: &str) {
        self.lazy.insert(ptr(value.to_raw()), name.to_string());
    }

    /// Declares `name` without a range condition.
    pub fn declare_unbounded(&mut self, name: &str) {
        self.declare(name);
        self.unbounded.push(name.to_string());
    }

    fn bind(&mut self, term: String) -> String {
        self.counter += 1;
        let name = encode::symbol(&format!("ir.t{}", self.counter));
        self.bindings.push((name.clone(), term));
        name
    }

    /// A 64-bit value with its range condition.
    fn checked(&mut self, term: String) -> String {
        let name = self.bind(term);
        self.defined.push(format!("(in64 {name})"));
        name
    }

    /// The term of a 64-bit integer or index value.
    pub fn int(&mut self, value: Value) -> Result<String, String> {
        if width(value) != Some(64) {
            return Err(format!("a value of type {} (only 64-bit integers and index are read)", value.r#type()));
        }
        self.term(value)
    }

    /// The term of an `i1` value (a Boolean).
    fn bool(&mut self, value: Value) -> Result<String, String> {
        if width(value) != Some(1) {
            return Err(format!("a condition of type {}", value.r#type()));
        }
        self.term(value)
    }

    fn term(&mut self, value: Value) -> Result<String, String> {
        let key = ptr(value.to_raw());
        if let Some(t) = self.memo.get(&key) {
            return Ok(t.clone());
        }
        if let Some(name) = self.lazy.remove(&key) {
            self.abstract_value(value, &name);
            return Ok(encode::symbol(&name));
        }
        let t = self.read(value)?;
        self.memo.insert(key, t.clone());
        Ok(t)
    }

    fn read(&mut self, value: Value) -> Result<String, String> {
        let raw = value.to_raw();
        // Safety: queries on a valid value.
        unsafe {
            if mlir_sys::mlirValueIsABlockArgument(raw) {
                let block = mlir_sys::mlirBlockArgumentGetOwner(raw);
                let n = mlir_sys::mlirBlockArgumentGetArgNumber(raw);
                let parent = OperationRef::from_raw(mlir_sys::mlirBlockGetParentOperation(block));
                let name = if block.ptr as usize == self.entry {
                    format!("ir.arg{n}")
                } else if op_name(&parent) == "scf.for" && n == 0 {
                    self.counter += 1;
                    format!("ir.iv{}", self.counter)
                } else {
                    return Err(format!("block argument #{n} of '{}'", op_name(&parent)));
                };
                self.declare(&name);
                return Ok(encode::symbol(&name));
            }
        }
        let op = layout_passes::ir::defining_op(value).ok_or("a value without a defining op")?;
        let name = op_name(&op);
        if name == "func.call" {
            return self.block_query(&op);
        }
        // The AscendC path's GetBlockIdx() / GetBlockNum().
        if let Some(block) = match name.as_str() {
            "ascendc.get_block_idx" => Some(BLOCK_IDX),
            "ascendc.get_block_num" => Some(BLOCK_NUM),
            _ => None,
        } {
            self.declare(block);
            return Ok(encode::symbol(block));
        }
        if name == "memref.dim" {
            return self.dim(&op);
        }
        if name == "arith.constant" {
            let c = constant_int(value).ok_or("a non-integer constant")?;
            return Ok(match width(value) {
                Some(1) => (if c != 0 { "true" } else { "false" }).to_string(),
                _ => encode::constant(encode::Theory::Int, c),
            });
        }
        let operand = |i: usize| op.operand(i).map_err(|e| e.to_string());
        match name.as_str() {
            "arith.index_cast" | "arith.index_castui" => {
                let a = operand(0)?;
                if width(a) != Some(64) {
                    return Err(format!("'{name}' from {}", a.r#type()));
                }
                return self.int(a);
            }
            "arith.select" => {
                let (c, a, b) = (self.bool(operand(0)?)?, self.term(operand(1)?)?, self.term(operand(2)?)?);
                return Ok(self.bind(format!("(ite {c} {a} {b})")));
            }
            "arith.cmpi" => return self.cmpi(&op),
            _ => {}
        }
        if width(value) == Some(1) {
            let (a, b) = (self.bool(operand(0)?)?, self.bool(operand(1)?)?);
            let f = match name.as_str() {
                "arith.andi" => "and",
                "arith.ori" => "or",
                "arith.xori" => "xor",
                _ => return Err(format!("'{name}' on i1")),
            };
            return Ok(self.bind(format!("({f} {a} {b})")));
        }
        let (a_val, b_val) = (operand(0)?, operand(1)?);
        let kb = constant_int(b_val);
        let division = matches!(
            name.as_str(),
            "arith.divsi" | "arith.remsi" | "arith.floordivsi" | "arith.ceildivsi" | "arith.divui" | "arith.remui"
        );
        if self.weaken_divisions && division && kb.is_none() {
            // Any 64-bit value: what the facts said about it is forgotten (weaker, so sound).
            self.counter += 1;
            let name = format!("ir.q{}", self.counter);
            self.declare(&name);
            return Ok(encode::symbol(&name));
        }
        let (a, b) = (self.int(a_val)?, self.int(b_val)?);
        let unsigned = |x: &str| format!("(ite (< {x} 0) (+ {x} {TWO_64}) {x})");
        let signed = |x: &str| format!("(ite (>= {x} 9223372036854775808) (- {x} {TWO_64}) {x})");
        let nonzero = format!("(not (= {b} 0))");
        let term = match name.as_str() {
            "arith.addi" => format!("(+ {a} {b})"),
            "arith.subi" => format!("(- {a} {b})"),
            "arith.muli" => format!("(* {a} {b})"),
            "arith.minsi" => format!("(ite (<= {a} {b}) {a} {b})"),
            "arith.maxsi" => format!("(ite (>= {a} {b}) {a} {b})"),
            "arith.minui" => format!("(ite (<= {} {}) {a} {b})", unsigned(&a), unsigned(&b)),
            "arith.maxui" => format!("(ite (>= {} {}) {a} {b})", unsigned(&a), unsigned(&b)),
            // Truncating: z3's `div` is Euclidean, equal to truncation for a dividend ≥ 0.
            "arith.divsi" => {
                self.defined.push(nonzero);
                format!("(ite (>= {a} 0) (div {a} {b}) (- (div (- {a}) {b})))")
            }
            "arith.remsi" => {
                self.defined.push(nonzero);
                format!("(- {a} (* {b} (ite (>= {a} 0) (div {a} {b}) (- (div (- {a}) {b})))))")
            }
            "arith.floordivsi" => {
                self.defined.push(nonzero);
                format!("(fdiv {a} {b})")
            }
            "arith.ceildivsi" => {
                self.defined.push(nonzero);
                format!("(- (fdiv (- {a}) {b}))")
            }
            "arith.divui" | "arith.remui" => {
                self.defined.push(nonzero);
                let f = if name == "arith.divui" { "div" } else { "mod" };
                signed(&format!("({f} {} {})", unsigned(&a), unsigned(&b)))
            }
            "arith.shli" | "arith.shrsi" | "arith.shrui" => {
                let k = kb.filter(|k| (0..=63).contains(k)).ok_or_else(|| format!("'{name}' by a non-constant"))?;
                let p = (1i128 << k).to_string();
                match name.as_str() {
                    // Checked: a shift that loses bits is an overflow.
                    "arith.shli" => format!("(* {a} {p})"),
                    "arith.shrsi" => format!("(fdiv {a} {p})"),
                    _ => signed(&format!("(div {} {p})", unsigned(&a))),
                }
            }
            "arith.andi" => {
                let mask = kb.or_else(|| constant_int(a_val)).ok_or("'arith.andi' without a constant mask")?;
                let other = if kb.is_some() { &a } else { &b };
                let k =
                    index_simplify::expr::low_mask_width(mask).ok_or("'arith.andi' with a mask other than 2^k - 1")?;
                format!("(fmod {other} {})", 1i128 << k)
            }
            _ => return Err(format!("'{name}'")),
        };
        Ok(self.checked(term))
    }

    /// `layout.block_idx` / `layout.block_num` as lowered (calls to the runtime): the symbols
    /// [`BLOCK_IDX`] / [`BLOCK_NUM`], the same for every call (one launch); the caller states
    /// their range. Any other call is refused.
    fn block_query(&mut self, op: &OperationRef) -> Result<String, String> {
        let callee = op
            .attribute("callee")
            .ok()
            .and_then(|a| melior::ir::attribute::FlatSymbolRefAttribute::try_from(a).ok())
            .map(|a| a.value().to_string())
            .unwrap_or_default();
        let name = match callee.as_str() {
            layout_passes::lower_to_loops::block::BLOCK_IDX => BLOCK_IDX,
            layout_passes::lower_to_loops::block::BLOCK_NUM => BLOCK_NUM,
            _ => return Err(format!("a call of @{callee}")),
        };
        self.declare(name);
        Ok(encode::symbol(name))
    }

    /// `memref.dim %argN, K` (a dynamic size of a memref argument): the symbol `ir.argN.dimK`,
    /// a size like the index arguments ([`Translator::arguments`]); of another memref, a free
    /// symbol.
    fn dim(&mut self, op: &OperationRef) -> Result<String, String> {
        let (memref, index) = (op.operand(0).map_err(|e| e.to_string())?, op.operand(1).map_err(|e| e.to_string())?);
        let k = constant_int(index).ok_or("'memref.dim' of a non-constant dimension")?;
        let raw = memref.to_raw();
        // Safety: queries on a valid value.
        let n = unsafe {
            let entry_argument = mlir_sys::mlirValueIsABlockArgument(raw)
                && mlir_sys::mlirBlockArgumentGetOwner(raw).ptr as usize == self.entry;
            if !entry_argument {
                // A view's collapsed buffer (its size is only compared in the view's guard):
                // any 64-bit value, which over-approximates the real one.
                self.counter += 1;
                let name = format!("ir.size{}", self.counter);
                self.declare(&name);
                return Ok(encode::symbol(&name));
            }
            mlir_sys::mlirBlockArgumentGetArgNumber(raw)
        };
        let name = format!("ir.arg{n}.dim{k}");
        self.declare(&name);
        Ok(encode::symbol(&name))
    }

    /// The entry block's arguments (and memref argument sizes) the query reads so far
    /// (`ir.argN`, `ir.argN.dimK`).
    pub fn arguments(&self) -> Vec<String> {
        self.symbols.iter().filter(|s| s.starts_with("ir.arg")).cloned().collect()
    }

    /// Whether the query reads `name` (a symbol declared so far).
    pub fn reads(&self, name: &str) -> bool {
        self.symbols.iter().any(|s| s == name)
    }

    fn cmpi(&mut self, op: &OperationRef) -> Result<String, String> {
        let attr = op.attribute("predicate").map_err(|e| e.to_string())?;
        // Safety: valid attribute.
        let p = unsafe {
            if !mlir_sys::mlirAttributeIsAInteger(attr.to_raw()) {
                return Err("a cmpi predicate that is not an integer".into());
            }
            mlir_sys::mlirIntegerAttrGetValueInt(attr.to_raw())
        };
        let (a, b) = (
            self.int(op.operand(0).map_err(|e| e.to_string())?)?,
            self.int(op.operand(1).map_err(|e| e.to_string())?)?,
        );
        let u = |x: &str| format!("(ite (< {x} 0) (+ {x} {TWO_64}) {x})");
        let (ua, ub) = (u(&a), u(&b));
        let f = match p {
            0 => format!("(= {a} {b})"),
            1 => format!("(not (= {a} {b}))"),
            2 => format!("(< {a} {b})"),
            3 => format!("(<= {a} {b})"),
            4 => format!("(> {a} {b})"),
            5 => format!("(>= {a} {b})"),
            6 => format!("(< {ua} {ub})"),
            7 => format!("(<= {ua} {ub})"),
            8 => format!("(> {ua} {ub})"),
            9 => format!("(>= {ua} {ub})"),
            _ => return Err(format!("cmpi predicate {p}")),
        };
        Ok(self.bind(f))
    }

    /// Facts that hold where `op` runs: for each enclosing `scf.for`, `lo ≤ iv < hi` and
    /// `iv = lo + step·k` (`k ≥ 0`); for each enclosing `scf.if`, its condition or its negation.
    pub fn path(&mut self, op: &OperationRef) -> Result<Vec<String>, String> {
        self.path_facts(op, false)
    }

    fn path_facts(&mut self, op: &OperationRef, only_read_loops: bool) -> Result<Vec<String>, String> {
        let mut facts = Vec::new();
        let mut child = op.to_raw();
        // Safety: walking the parents of a valid op.
        unsafe {
            loop {
                let parent = mlir_sys::mlirOperationGetParentOperation(child);
                if parent.ptr.is_null() {
                    break;
                }
                let p = OperationRef::from_raw(parent);
                match op_name(&p).as_str() {
                    "func.func" => break,
                    "scf.for" => {
                        let body = mlir_sys::mlirRegionGetFirstBlock(mlir_sys::mlirOperationGetRegion(parent, 0));
                        let iv_value = mlir_sys::mlirBlockGetArgument(body, 0);
                        if only_read_loops && !self.memo.contains_key(&ptr(iv_value)) {
                            // Not read by the claim: dropping its facts only weakens the
                            // assumptions (and spares the solver a user's nonlinear bounds).
                            child = parent;
                            continue;
                        }
                        let iv = self.int(Value::from_raw(iv_value))?;
                        let bound = |i: usize| p.operand(i).map_err(|e| e.to_string());
                        let (lo, hi, step_value) = (bound(0)?, bound(1)?, bound(2)?);
                        let (lo, hi) = (self.int(lo)?, self.int(hi)?);
                        facts.push(format!("(<= {lo} {iv})"));
                        facts.push(format!("(< {iv} {hi})"));
                        match constant_int(step_value) {
                            Some(1) => {}
                            Some(c) if c > 1 => facts.push(format!("(= (mod (- {iv} {lo}) {c}) 0)")),
                            _ => {
                                let step = self.int(step_value)?;
                                self.counter += 1;
                                let k = format!("ir.k{}", self.counter);
                                self.declare(&k);
                                let k = encode::symbol(&k);
                                facts.push(format!("(>= {k} 0)"));
                                facts.push(format!("(= {iv} (+ {lo} (* {step} {k})))"));
                            }
                        }
                    }
                    "scf.if" => {
                        let region = mlir_sys::mlirBlockGetParentRegion(mlir_sys::mlirOperationGetBlock(child));
                        let then = mlir_sys::mlirOperationGetRegion(parent, 0);
                        let c = self.bool(p.operand(0).map_err(|e| e.to_string())?)?;
                        facts.push(if region.ptr == then.ptr { c } else { format!("(not {c})") });
                    }
                    _ => {}
                }
                child = parent;
            }
        }
        Ok(facts)
    }

    /// [`Translator::path`], with the range conditions of the path's own intermediates (not
    /// already read for the claim) among the facts instead of in [`Translator::defined`]: the
    /// user's control code (a loop bound, a swizzle) is assumed defined where the access runs;
    /// only the address is claimed. Loops whose variable the address and the values read so far
    /// do not use are left out. Read the address first.
    pub fn path_assumed(&mut self, op: &OperationRef) -> Result<Vec<String>, String> {
        let claimed = self.defined.len();
        let mut facts = self.path_facts(op, true)?;
        facts.extend(self.defined.drain(claimed..));
        Ok(facts)
    }

    /// [`Translator::path_assumed`], with every quotient and remainder by a non-constant divisor
    /// that only the path reads (not the address or the values read before) a fresh constant:
    /// the facts only get weaker, so a proof under them holds, but a model of them may not be
    /// one of the exact facts.
    pub fn path_weakened(&mut self, op: &OperationRef) -> Result<Vec<String>, String> {
        self.weaken_divisions = true;
        let facts = self.path_assumed(op);
        self.weaken_divisions = false;
        facts
    }

    /// `∃ symbols. facts` (each symbol a 64-bit integer), under the `let` bindings.
    pub fn query(&self, facts: Vec<String>) -> Query {
        let bounded = self.symbols.iter().filter(|s| !self.unbounded.contains(s));
        let mut parts: Vec<String> = bounded.map(|s| format!("(in64 {})", encode::symbol(s))).collect();
        parts.extend(facts);
        let mut assertion = encode::conj(&parts);
        for (name, term) in self.bindings.iter().rev() {
            assertion = format!("(let (({name} {term})) {assertion})");
        }
        Query::new(encode::Theory::Int, self.symbols.clone(), assertion)
    }
}
