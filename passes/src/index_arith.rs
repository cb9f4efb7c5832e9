//! Index arithmetic in `arith`: the bridge between the algebra's symbolic domain and the IR.
//!
//! The layout algebra evaluates its formulas on [`SymExpr`] (see `layout-algebra/src/sym.rs`);
//! [`IndexEmitter`] turns the result into `arith` ops on `index` values, so a lowering never
//! writes an address formula itself: it asks the algebra for `crd_to_offset` on symbols and
//! emits what comes back. Static parts are already folded by the algebra.
//!
//! Op choice: `+ - *` become `arith.addi/subi/muli`; `floordiv`/`mod` become
//! `arith.divsi`/`arith.remsi`, which equal floor division/modulo **when the dividend is
//! non-negative** — always the case for layout coordinates and sizes (the verifier rejects
//! negative constant coordinates, loop indices start at 0). `layout-simplify-offsets` later
//! removes them where ranges allow. `min`/`max` become `arith.minsi/maxsi`.
//!
//! Equal sub-expressions are emitted once: shared ones (`Rc`) always, equal small ones by value
//! (see [`STRUCTURAL_CACHE_NODES`]).

use std::collections::HashMap;
use std::rc::Rc;

use layout_algebra::sym::{BinOp, SymExpr};
use melior::{
    dialect::arith,
    ir::{attribute::IntegerAttribute, Location, Operation, OperationRef, Type, Value},
    Context,
};

/// Emits `arith` ops for symbolic index expressions through an insertion callback.
///
/// `insert` places an op (before some anchor, at the end of a block, ...) and returns it; the
/// emitter never decides where code goes.
pub struct IndexEmitter<'c: 'a, 'a, F>
where
    F: FnMut(Operation<'c>) -> OperationRef<'c, 'a>,
{
    context: &'c Context,
    location: Location<'c>,
    insert: F,
    symbols: HashMap<String, Value<'c, 'a>>,
    /// Equal expressions → one value (the CSE of the emitter), for small expressions.
    cache: HashMap<SymExpr, Value<'c, 'a>>,
    /// `Rc` address → (the `Rc`, value, size): shared sub-trees of any size, in O(1) each.
    shared: HashMap<usize, (Rc<SymExpr>, Value<'c, 'a>, usize)>,
}

/// Expressions up to this many operators are deduplicated by value (hashing one costs its
/// size); larger ones only by identity (`Rc`), so emitting a long chain — a tile of a tile
/// ... at dynamic coordinates, whose origin and coordinate grow by one node per tile — is
/// linear instead of hashing the whole chain at every node. Offsets of real kernels are far
/// smaller; `canonicalize`/`cse` after the lowering merge what identity misses.
pub const STRUCTURAL_CACHE_NODES: usize = 64;

impl<'c: 'a, 'a, F> IndexEmitter<'c, 'a, F>
where
    F: FnMut(Operation<'c>) -> OperationRef<'c, 'a>,
{
    pub fn new(context: &'c Context, location: Location<'c>, insert: F) -> Self {
        IndexEmitter {
            context,
            location,
            insert,
            symbols: HashMap::new(),
            cache: HashMap::new(),
            shared: HashMap::new(),
        }
    }

    /// Binds symbol `name` to an `index` value.
    pub fn bind(&mut self, name: &str, value: Value<'c, 'a>) {
        self.symbols.insert(name.to_string(), value);
    }

    fn push(&mut self, op: Operation<'c>) -> Result<Value<'c, 'a>, String> {
        let op = (self.insert)(op);
        op.result(0).map(Into::into).map_err(|e| format!("emitted op has no result: {e}"))
    }

    /// An `arith.constant` of type `index`.
    pub fn constant(&mut self, value: i64) -> Result<Value<'c, 'a>, String> {
        let key = SymExpr::Const(value);
        if let Some(v) = self.cache.get(&key) {
            return Ok(*v);
        }
        let index = Type::index(self.context);
        let op = arith::constant(self.context, IntegerAttribute::new(index, value).into(), self.location);
        let v = self.push(op)?;
        self.cache.insert(key, v);
        Ok(v)
    }

    /// The value of `expr`; every symbol in it must be bound.
    pub fn emit(&mut self, expr: &SymExpr) -> Result<Value<'c, 'a>, String> {
        self.emit_sized(expr).map(|(v, _)| v)
    }

    /// A shared sub-expression: emitted once per `Rc` (the entry keeps the `Rc` alive, so its
    /// address cannot be reused by another expression while the emitter lives).
    fn emit_shared(&mut self, expr: &Rc<SymExpr>) -> Result<(Value<'c, 'a>, usize), String> {
        let address = Rc::as_ptr(expr) as usize;
        if let Some((_, v, size)) = self.shared.get(&address) {
            return Ok((*v, *size));
        }
        let (v, size) = self.emit_sized(expr)?;
        self.shared.insert(address, (expr.clone(), v, size));
        Ok((v, size))
    }

    /// The value of `expr` and its operator count with shared sub-trees expanded (saturating).
    /// Operands are emitted first (for an expression seen before they are all cache hits, so
    /// no op is created twice); only expressions within [`STRUCTURAL_CACHE_NODES`] are looked
    /// up and stored by value, so hashing stays bounded per node.
    fn emit_sized(&mut self, expr: &SymExpr) -> Result<(Value<'c, 'a>, usize), String> {
        let (a, b, op) = match expr {
            SymExpr::Const(c) => return self.constant(*c).map(|v| (v, 0)),
            SymExpr::Sym(name) => {
                return self
                    .symbols
                    .get(name.as_ref())
                    .map(|v| (*v, 0))
                    .ok_or_else(|| format!("unbound symbol `{name}` in index expression {expr}"));
            }
            SymExpr::Bin(op, a, b) => (a, b, op),
        };
        let (a, sa) = self.emit_shared(a)?;
        let (b, sb) = self.emit_shared(b)?;
        let size = sa.saturating_add(sb).saturating_add(1);
        let small = size <= STRUCTURAL_CACHE_NODES;
        if small {
            if let Some(v) = self.cache.get(expr) {
                return Ok((*v, size));
            }
        }
        let loc = self.location;
        let built = match op {
            BinOp::Add => arith::addi(a, b, loc),
            BinOp::Sub => arith::subi(a, b, loc),
            BinOp::Mul => arith::muli(a, b, loc),
            BinOp::FloorDiv => arith::divsi(a, b, loc),
            BinOp::FloorMod => arith::remsi(a, b, loc),
            BinOp::Min => arith::minsi(a, b, loc),
            BinOp::Max => arith::maxsi(a, b, loc),
        };
        let v = self.push(built)?;
        if small {
            self.cache.insert(expr.clone(), v);
        }
        Ok((v, size))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use layout_algebra::{parse_layout, IndexValue, Tuple};
    use melior::ir::{
        attribute::{StringAttribute, TypeAttribute},
        block::BlockLike,
        operation::OperationLike,
        r#type::FunctionType,
        Block, Module, Region, RegionLike,
    };
    use melior::pass::PassManager;

    /// Emits the NZ offset of symbolic (r, c) into a function whose arguments are bound to
    /// constants, lets `canonicalize` fold it, and compares with the algebra's `i64` result.
    #[test]
    fn emitted_offsets_fold_to_the_algebra_value() {
        let layout = parse_layout("((16,7),(16,7)):((16,256),(1,1792))").unwrap();
        let to_sym =
            |t: &Tuple<i64>| t.map(&mut |v: &i64| Ok::<_, layout_algebra::AlgebraError>(SymExpr::Const(*v))).unwrap();
        let crd = Tuple::Tuple(vec![Tuple::Int(SymExpr::sym("r")), Tuple::Int(SymExpr::sym("c"))]);
        let expr = layout_algebra::crd_to_offset(&crd, &to_sym(layout.shape()), &to_sym(layout.stride())).unwrap();
        for (r, c) in [(0, 0), (17, 33), (99, 99), (15, 15), (16, 0), (111, 111)] {
            let context = layout_dialect::create_context().unwrap();
            // A pass declares arith as a dependent dialect; here it is loaded by hand.
            context.get_or_load_dialect("arith");
            context.get_or_load_dialect("func");
            let location = Location::unknown(&context);
            let index = Type::index(&context);
            let module = Module::new(location);
            let block = Block::new(&[]);
            {
                let block_ref = &block;
                let mut emitter = IndexEmitter::new(&context, location, |op| block_ref.append_operation(op));
                let rv = emitter.constant(r).unwrap();
                let cv = emitter.constant(c).unwrap();
                emitter.bind("r", rv);
                emitter.bind("c", cv);
                let result = emitter.emit(&expr).unwrap();
                block.append_operation(melior::dialect::func::r#return(&[result], location));
            }
            let region = Region::new();
            region.append_block(block);
            module.body().append_operation(melior::dialect::func::func(
                &context,
                StringAttribute::new(&context, "offset"),
                TypeAttribute::new(FunctionType::new(&context, &[], &[index]).into()),
                region,
                &[],
                location,
            ));
            assert!(module.as_operation().verify());
            let pm = PassManager::new(&context);
            pm.add_pass(melior::pass::transform::create_canonicalizer());
            let mut module = module;
            pm.run(&mut module).unwrap();
            let text = module.as_operation().to_string();
            let want = layout.crd_to_offset(&Tuple::Tuple(vec![Tuple::Int(r), Tuple::Int(c)])).unwrap();
            assert!(
                text.contains(&format!("arith.constant {want} : index")) && text.matches("arith.").count() == 1,
                "({r},{c}) want {want}:\n{text}"
            );
        }
        // The expression itself keeps the fractal structure (4 div/mod before simplification).
        assert_eq!(expr.to_string(), "r mod 16 * 16 + r floordiv 16 * 256 + c mod 16 + c floordiv 16 * 1792");
        assert!(SymExpr::Const(3).is_constant(3));
    }

    /// Emits each expression of `exprs` into one block with `x` bound to a constant and
    /// returns the emitted op names in order.
    fn emitted_ops(exprs: &[SymExpr]) -> Vec<String> {
        let context = layout_dialect::create_context().unwrap();
        context.get_or_load_dialect("arith");
        let location = Location::unknown(&context);
        let block = Block::new(&[]);
        let block_ref = &block;
        let mut emitter = IndexEmitter::new(&context, location, |op| block_ref.append_operation(op));
        let x = emitter.constant(3).unwrap();
        emitter.bind("x", x);
        for e in exprs {
            emitter.emit(e).unwrap();
        }
        let mut names = Vec::new();
        let mut op = block.first_operation();
        while let Some(o) = op {
            names.push(crate::ir::op_name(&o));
            op = o.next_in_block();
        }
        names
    }

    /// `e_k = e_(k-1) + e_(k-1)` with both operands one shared `Rc`: 48 ops, although the
    /// expanded tree has 2^48 nodes (the emitter used to hash the expanded tree at every node
    /// to look up its cache, which never finished here).
    #[test]
    fn shared_sub_expressions_are_emitted_once_without_expanding_them() {
        let mut e = SymExpr::sym("x");
        for _ in 0..48 {
            let shared = Rc::new(e);
            e = SymExpr::Bin(BinOp::Add, shared.clone(), shared);
        }
        let ops = emitted_ops(&[e]);
        assert_eq!(ops.len(), 1 + 48, "{ops:?}");
        assert!(ops[1..].iter().all(|n| n == "arith.addi"), "{ops:?}");
    }

    /// Equal small expressions built separately (no shared `Rc`) are still emitted once.
    #[test]
    fn equal_small_expressions_are_emitted_once() {
        let build = || {
            SymExpr::bin(
                BinOp::Add,
                &SymExpr::bin(BinOp::Mul, &SymExpr::sym("x"), &SymExpr::Const(16)).unwrap(),
                &SymExpr::sym("x"),
            )
            .unwrap()
        };
        let ops = emitted_ops(&[build(), build()]);
        assert_eq!(ops, ["arith.constant", "arith.constant", "arith.muli", "arith.addi"]);
    }
}
