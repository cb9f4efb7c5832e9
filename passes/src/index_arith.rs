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
//! Equal sub-expressions are emitted once (the cache is keyed by the expression).

use std::collections::HashMap;

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
    cache: HashMap<SymExpr, Value<'c, 'a>>,
}

impl<'c: 'a, 'a, F> IndexEmitter<'c, 'a, F>
where
    F: FnMut(Operation<'c>) -> OperationRef<'c, 'a>,
{
    pub fn new(context: &'c Context, location: Location<'c>, insert: F) -> Self {
        IndexEmitter { context, location, insert, symbols: HashMap::new(), cache: HashMap::new() }
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
        if let Some(v) = self.cache.get(expr) {
            return Ok(*v);
        }
        let v = match expr {
            SymExpr::Const(c) => return self.constant(*c),
            SymExpr::Sym(name) => {
                return self
                    .symbols
                    .get(name.as_ref())
                    .copied()
                    .ok_or_else(|| format!("unbound symbol `{name}` in index expression {expr}"));
            }
            SymExpr::Bin(op, a, b) => {
                let (a, b) = (self.emit(a)?, self.emit(b)?);
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
                self.push(built)?
            }
        };
        self.cache.insert(expr.clone(), v);
        Ok(v)
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
}
