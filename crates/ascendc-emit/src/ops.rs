//! Typed views of the upstream ops a kernel body holds besides the `ascendc` ones (`arith`
//! index arithmetic, constants and comparisons, `scf.for` / `scf.if` / `scf.yield`,
//! `func.return`), decoded once per op like `layout_dialect::ascendc_ops::AscendcOp`. The walk
//! (`kernel.rs`) matches them exhaustively; an op outside this list decodes to
//! [`EmitError::UnsupportedOp`] naming it, which the walk locates at the op.

use crate::error::EmitError;
use crate::kernel::{ArithOp, Pred};
use layout_dialect::ops::op_name;
use melior::ir::{
    attribute::IntegerAttribute, operation::OperationLike, r#type::IntegerType, BlockRef, OperationRef, RegionLike,
    Value, ValueLike,
};

/// A decoded `arith` op the printers know.
#[derive(Clone, Debug)]
pub enum ArithView<'c, 'a> {
    /// Two-operand index arithmetic of the shared list (`index_simplify::ArithOp`).
    Binary { op: ArithOp, lhs: Value<'c, 'a>, rhs: Value<'c, 'a>, result: Value<'c, 'a> },
    /// `arith.constant` of an integer (an `i1` `true` is 1: conditions are 0 or 1).
    Constant { value: i64, result: Value<'c, 'a> },
    /// `arith.index_cast`: the value itself (index and integers share the printers' `int64_t`).
    IndexCast { input: Value<'c, 'a>, result: Value<'c, 'a> },
    /// `arith.cmpi` with its decoded predicate.
    CmpI { pred: Pred, lhs: Value<'c, 'a>, rhs: Value<'c, 'a>, result: Value<'c, 'a> },
    /// `arith.select`.
    Select { cond: Value<'c, 'a>, on_true: Value<'c, 'a>, on_false: Value<'c, 'a>, result: Value<'c, 'a> },
}

/// A decoded `scf` op.
#[derive(Clone, Debug)]
pub enum ScfView<'c, 'a> {
    /// `scf.for %i = lower to upper step step iter_args(inits)`; `results` hold the carried
    /// values' last values.
    For {
        lower: Value<'c, 'a>,
        upper: Value<'c, 'a>,
        step: Value<'c, 'a>,
        inits: Vec<Value<'c, 'a>>,
        body: BlockRef<'c, 'a>,
        results: Vec<Value<'c, 'a>>,
    },
    /// `scf.if cond`; an empty region is `None`.
    If {
        cond: Value<'c, 'a>,
        then_block: Option<BlockRef<'c, 'a>>,
        else_block: Option<BlockRef<'c, 'a>>,
        results: Vec<Value<'c, 'a>>,
    },
    /// `scf.yield`: read by the region that holds it (the values its parent passes on).
    Yield,
}

/// An op of a kernel body that is not an `ascendc` op.
#[derive(Clone, Debug)]
pub enum UpstreamOp<'c, 'a> {
    Arith(ArithView<'c, 'a>),
    Scf(ScfView<'c, 'a>),
    /// `func.return` (kernels return nothing the printers write).
    Return,
}

/// The op kinds [`UpstreamOp::decode`] knows, by name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Binary(ArithOp),
    Constant,
    IndexCast,
    CmpI,
    Select,
    For,
    If,
    Yield,
    Return,
}

impl Kind {
    fn from_name(name: &str) -> Option<Kind> {
        if let Some(op) = ArithOp::from_name(name) {
            return Some(Kind::Binary(op));
        }
        Some(match name {
            "arith.constant" => Kind::Constant,
            "arith.index_cast" => Kind::IndexCast,
            "arith.cmpi" => Kind::CmpI,
            "arith.select" => Kind::Select,
            "scf.for" => Kind::For,
            "scf.if" => Kind::If,
            "scf.yield" => Kind::Yield,
            "func.return" => Kind::Return,
            _ => return None,
        })
    }
}

fn malformed(e: impl std::fmt::Display) -> EmitError {
    EmitError::Malformed(e.to_string())
}

/// Whether `op` is a `func.func` (a kernel candidate at module level).
pub fn is_function(op: &OperationRef) -> bool {
    op_name(op) == "func.func"
}

impl<'c, 'a> UpstreamOp<'c, 'a> {
    /// Decodes `op`; an op the printers have no form for is [`EmitError::UnsupportedOp`].
    pub fn decode(op: OperationRef<'c, 'a>) -> Result<Self, EmitError> {
        let name = op_name(&op);
        let kind = Kind::from_name(&name).ok_or_else(|| EmitError::UnsupportedOp(name.clone()))?;
        let operand = |i: usize| op.operand(i).map_err(malformed);
        let result = || -> Result<Value<'c, 'a>, EmitError> { op.result(0).map(Into::into).map_err(malformed) };
        let results = || -> Result<Vec<Value<'c, 'a>>, EmitError> {
            (0..op.result_count()).map(|k| op.result(k).map(Into::into).map_err(malformed)).collect()
        };
        let block = |r: usize| -> Result<Option<BlockRef<'c, 'a>>, EmitError> {
            Ok(op.region(r).map_err(malformed)?.first_block())
        };
        Ok(match kind {
            Kind::Binary(arith) => UpstreamOp::Arith(ArithView::Binary {
                op: arith,
                lhs: operand(0)?,
                rhs: operand(1)?,
                result: result()?,
            }),
            Kind::Constant => {
                let value = op
                    .attribute("value")
                    .ok()
                    .and_then(|a| IntegerAttribute::try_from(a).ok())
                    .map(|a| a.value())
                    .ok_or_else(|| {
                        EmitError::Unsupported("arith.constant: only integer constants are emitted".into())
                    })?;
                let result = result()?;
                // `true` of i1 reads as -1: conditions are 0 or 1.
                let is_bool = IntegerType::try_from(result.r#type()).is_ok_and(|t| t.width() == 1);
                let value = if is_bool { i64::from(value != 0) } else { value };
                UpstreamOp::Arith(ArithView::Constant { value, result })
            }
            Kind::IndexCast => UpstreamOp::Arith(ArithView::IndexCast { input: operand(0)?, result: result()? }),
            Kind::CmpI => {
                let code = op.attribute("predicate").ok().and_then(|a| IntegerAttribute::try_from(a).ok());
                let code = code.map(|a| a.value());
                let pred = code
                    .and_then(Pred::from_code)
                    .ok_or_else(|| EmitError::Malformed(format!("arith.cmpi: predicate {code:?} is not known")))?;
                UpstreamOp::Arith(ArithView::CmpI { pred, lhs: operand(0)?, rhs: operand(1)?, result: result()? })
            }
            Kind::Select => UpstreamOp::Arith(ArithView::Select {
                cond: operand(0)?,
                on_true: operand(1)?,
                on_false: operand(2)?,
                result: result()?,
            }),
            Kind::For => UpstreamOp::Scf(ScfView::For {
                lower: operand(0)?,
                upper: operand(1)?,
                step: operand(2)?,
                inits: (3..op.operand_count()).map(operand).collect::<Result<_, _>>()?,
                body: block(0)?.ok_or_else(|| EmitError::Malformed("scf.for without body".into()))?,
                results: results()?,
            }),
            Kind::If => UpstreamOp::Scf(ScfView::If {
                cond: operand(0)?,
                then_block: block(0)?,
                else_block: block(1)?,
                results: results()?,
            }),
            Kind::Yield => UpstreamOp::Scf(ScfView::Yield),
            Kind::Return => UpstreamOp::Return,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every name of the list decodes to its kind, and nothing else does.
    #[test]
    fn names_decode_to_their_kinds() {
        for op in ArithOp::ALL {
            assert_eq!(Kind::from_name(op.name()), Some(Kind::Binary(op)));
        }
        for (name, kind) in [
            ("arith.constant", Kind::Constant),
            ("arith.index_cast", Kind::IndexCast),
            ("arith.cmpi", Kind::CmpI),
            ("arith.select", Kind::Select),
            ("scf.for", Kind::For),
            ("scf.if", Kind::If),
            ("scf.yield", Kind::Yield),
            ("func.return", Kind::Return),
        ] {
            assert_eq!(Kind::from_name(name), Some(kind), "{name}");
        }
        for name in ["arith.xori", "arith.addf", "scf.while", "func.call", "memref.load", ""] {
            assert_eq!(Kind::from_name(name), None, "{name}");
        }
    }

    /// Decoding real ops: operands, the predicate, an `i1` true read as 1, the loop's carried
    /// values, both regions of an `scf.if`, and an unknown op named in its error.
    #[test]
    fn ops_decode_with_their_operands() {
        use melior::ir::{block::BlockLike, operation::OperationLike, RegionLike};
        let context = layout_dialect::create_context().unwrap();
        let source = r#"func.func @f(%n: index) -> index {
  %t = arith.constant true
  %c2 = arith.constant 2 : index
  %lt = arith.cmpi slt, %n, %c2 : index
  %s = arith.select %lt, %n, %c2 : index
  %r = scf.for %i = %c2 to %n step %c2 iter_args(%acc = %s) -> (index) {
    %d = arith.floordivsi %acc, %i : index
    scf.yield %d : index
  }
  %x = arith.xori %n, %c2 : index
  %q = scf.if %t -> (index) {
    scf.yield %r : index
  } else {
    scf.yield %x : index
  }
  return %q : index
}"#;
        let module = layout_dialect::parse_source(&context, source).expect("parse");
        let func = module.body().first_operation().expect("func");
        let mut ops = Vec::new();
        let mut next = func.region(0).unwrap().first_block().unwrap().first_operation();
        while let Some(op) = next {
            next = op.next_in_block();
            ops.push(UpstreamOp::decode(op));
        }
        assert!(matches!(ops[0], Ok(UpstreamOp::Arith(ArithView::Constant { value: 1, .. }))), "{:?}", ops[0]);
        assert!(matches!(ops[1], Ok(UpstreamOp::Arith(ArithView::Constant { value: 2, .. }))), "{:?}", ops[1]);
        let Ok(UpstreamOp::Arith(ArithView::CmpI { pred, lhs, .. })) = &ops[2] else { panic!("{:?}", ops[2]) };
        assert_eq!((*pred, lhs.is_block_argument()), (Pred::Slt, true));
        let Ok(UpstreamOp::Arith(ArithView::Select { on_true, .. })) = &ops[3] else { panic!("{:?}", ops[3]) };
        assert!(on_true.is_block_argument());
        let Ok(UpstreamOp::Scf(ScfView::For { inits, body, results, .. })) = &ops[4] else { panic!("{:?}", ops[4]) };
        assert_eq!((inits.len(), body.argument_count(), results.len()), (1, 2, 1));
        let inner = UpstreamOp::decode(body.first_operation().unwrap());
        assert!(matches!(inner, Ok(UpstreamOp::Arith(ArithView::Binary { op: ArithOp::FloorDivSI, .. }))), "{inner:?}");
        assert!(matches!(UpstreamOp::decode(body.terminator().unwrap()), Ok(UpstreamOp::Scf(ScfView::Yield))));
        assert!(matches!(&ops[5], Err(EmitError::UnsupportedOp(name)) if name == "arith.xori"), "{:?}", ops[5]);
        let Ok(UpstreamOp::Scf(ScfView::If { then_block, else_block, results, .. })) = &ops[6] else {
            panic!("{:?}", ops[6])
        };
        assert_eq!((then_block.is_some(), else_block.is_some(), results.len()), (true, true, 1));
        assert!(matches!(ops[7], Ok(UpstreamOp::Return)));
        assert_eq!(ops.len(), 8);
    }
}
