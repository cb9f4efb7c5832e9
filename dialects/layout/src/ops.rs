//! Typed views of the `layout` dialect's ops (`layout.irdl.mlir`): an op is decoded once, by
//! name, into a [`LayoutOp`] whose fields are its operands and attributes, so the passes
//! dispatch with an exhaustive `match` (an op added to the IRDL file without a variant fails
//! the unit test below; a variant a pass forgets fails to compile) instead of comparing names.
//!
//! MLIR's IRDL verifier already checks operand kinds and attribute presence; decoding checks
//! what IRDL cannot say (`shape` is an `array<i64>`, not any dense array) and reports it as a
//! [`DecodeError`] with the verifier's wording.

use melior::ir::{operation::OperationLike, Attribute, AttributeLike, OperationRef, Value};

/// Why an op with a `layout.` or `ascendc.` name could not be decoded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DecodeError(pub String);

impl std::fmt::Display for DecodeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for DecodeError {}

/// The op kinds of the `layout` dialect, one per `irdl.operation`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LayoutOpKind {
    View,
    Alloc,
    Tile,
    Load,
    Store,
    Matmul,
    Offset,
}

impl LayoutOpKind {
    /// Every kind, in IRDL order.
    pub const ALL: [LayoutOpKind; 7] =
        [Self::View, Self::Alloc, Self::Tile, Self::Load, Self::Store, Self::Matmul, Self::Offset];

    /// The full op name (`layout.tile`).
    pub fn name(self) -> &'static str {
        match self {
            Self::View => "layout.view",
            Self::Alloc => "layout.alloc",
            Self::Tile => "layout.tile",
            Self::Load => "layout.load",
            Self::Store => "layout.store",
            Self::Matmul => "layout.matmul",
            Self::Offset => "layout.offset",
        }
    }

    /// The kind of a full op name; `None` for names outside the dialect.
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|k| k.name() == name)
    }
}

/// A decoded `layout` op. Every variant keeps the op itself (`op`) for locations and rewrites.
#[derive(Clone, Debug)]
pub enum LayoutOp<'c, 'a> {
    /// `%t = layout.view(%memref, dyn...)`: `dyn` binds the `?` leaves of the result type.
    View { op: OperationRef<'c, 'a>, source: Value<'c, 'a>, dyn_sizes: Vec<Value<'c, 'a>>, result: Value<'c, 'a> },
    /// `%t = layout.alloc(dyn...)`.
    Alloc { op: OperationRef<'c, 'a>, dyn_sizes: Vec<Value<'c, 'a>>, result: Value<'c, 'a> },
    /// `%t = layout.tile(%parent, coord...) {shape}`: element coordinates in the parent's space.
    Tile {
        op: OperationRef<'c, 'a>,
        source: Value<'c, 'a>,
        coord: Vec<Value<'c, 'a>>,
        shape: Vec<i64>,
        result: Value<'c, 'a>,
    },
    /// `[%written =] layout.load(%src, %dst)`: `written` is the destination viewed with the
    /// extent the copy wrote as its origin.
    Load { op: OperationRef<'c, 'a>, src: Value<'c, 'a>, dst: Value<'c, 'a>, written: Option<Value<'c, 'a>> },
    /// `layout.store(%src, %dst)`.
    Store { op: OperationRef<'c, 'a>, src: Value<'c, 'a>, dst: Value<'c, 'a> },
    /// `[%written =] layout.matmul(%a, %b, %c) {accumulate}`: `written` is C viewed with the
    /// `m × n` the matmul wrote as its origin.
    Matmul {
        op: OperationRef<'c, 'a>,
        a: Value<'c, 'a>,
        b: Value<'c, 'a>,
        c: Value<'c, 'a>,
        accumulate: bool,
        written: Option<Value<'c, 'a>>,
    },
    /// `%o = layout.offset(%t, coord...)`.
    Offset { op: OperationRef<'c, 'a>, source: Value<'c, 'a>, coord: Vec<Value<'c, 'a>>, result: Value<'c, 'a> },
}

impl<'c, 'a> LayoutOp<'c, 'a> {
    /// Decodes `op`; `None` if it is not a `layout` op.
    pub fn decode(op: OperationRef<'c, 'a>) -> Option<Result<Self, DecodeError>> {
        let kind = LayoutOpKind::from_name(&op_name(&op))?;
        Some(decode_layout(kind, op))
    }

    /// The op's kind.
    pub fn kind(&self) -> LayoutOpKind {
        match self {
            Self::View { .. } => LayoutOpKind::View,
            Self::Alloc { .. } => LayoutOpKind::Alloc,
            Self::Tile { .. } => LayoutOpKind::Tile,
            Self::Load { .. } => LayoutOpKind::Load,
            Self::Store { .. } => LayoutOpKind::Store,
            Self::Matmul { .. } => LayoutOpKind::Matmul,
            Self::Offset { .. } => LayoutOpKind::Offset,
        }
    }

    /// The op itself.
    pub fn op(&self) -> OperationRef<'c, 'a> {
        match self {
            Self::View { op, .. }
            | Self::Alloc { op, .. }
            | Self::Tile { op, .. }
            | Self::Load { op, .. }
            | Self::Store { op, .. }
            | Self::Matmul { op, .. }
            | Self::Offset { op, .. } => *op,
        }
    }
}

fn decode_layout<'c, 'a>(kind: LayoutOpKind, op: OperationRef<'c, 'a>) -> Result<LayoutOp<'c, 'a>, DecodeError> {
    let name = kind.name();
    let operands: Vec<Value<'c, 'a>> = op.operands().collect();
    let need = |n: usize| -> Result<(), DecodeError> {
        if operands.len() < n {
            return Err(DecodeError(format!("{name}: needs at least {n} operand(s), got {}", operands.len())));
        }
        Ok(())
    };
    let result = || -> Result<Value<'c, 'a>, DecodeError> {
        op.result(0).map(Into::into).map_err(|_| DecodeError(format!("{name}: needs a result")))
    };
    Ok(match kind {
        LayoutOpKind::View => {
            need(1)?;
            LayoutOp::View { op, source: operands[0], dyn_sizes: operands[1..].to_vec(), result: result()? }
        }
        LayoutOpKind::Alloc => LayoutOp::Alloc { op, dyn_sizes: operands, result: result()? },
        LayoutOpKind::Tile => {
            need(1)?;
            let shape = op.attribute("shape").ok().and_then(i64_array).ok_or_else(|| {
                DecodeError("layout.tile: `shape` must be an array<i64: ...> of tile extents".to_string())
            })?;
            LayoutOp::Tile { op, source: operands[0], coord: operands[1..].to_vec(), shape, result: result()? }
        }
        LayoutOpKind::Load | LayoutOpKind::Store => {
            need(2)?;
            let (src, dst) = (operands[0], operands[1]);
            if kind == LayoutOpKind::Load {
                let written = op.result(0).ok().map(Into::into);
                LayoutOp::Load { op, src, dst, written }
            } else {
                LayoutOp::Store { op, src, dst }
            }
        }
        LayoutOpKind::Matmul => {
            need(3)?;
            let accumulate =
                op.attribute("accumulate").ok().and_then(bool_attribute).ok_or_else(|| {
                    DecodeError("layout.matmul needs the `accumulate` attribute (true or false)".into())
                })?;
            let written = op.result(0).ok().map(Into::into);
            LayoutOp::Matmul { op, a: operands[0], b: operands[1], c: operands[2], accumulate, written }
        }
        LayoutOpKind::Offset => {
            need(1)?;
            LayoutOp::Offset { op, source: operands[0], coord: operands[1..].to_vec(), result: result()? }
        }
    })
}

/// The op's name (`layout.tile`), or "" if it is not UTF-8.
pub fn op_name<'c: 'a, 'a>(op: &impl OperationLike<'c, 'a>) -> String {
    op.name().as_string_ref().as_str().map(str::to_string).unwrap_or_default()
}

/// The elements of an `array<i64: ...>` attribute; `None` for any other attribute.
pub fn i64_array(attr: Attribute) -> Option<Vec<i64>> {
    // Safety: valid attribute; indices in range.
    unsafe {
        if !mlir_sys::mlirAttributeIsADenseI64Array(attr.to_raw()) {
            return None;
        }
        let n = mlir_sys::mlirDenseArrayGetNumElements(attr.to_raw());
        Some((0..n).map(|i| mlir_sys::mlirDenseI64ArrayGetElement(attr.to_raw(), i)).collect())
    }
}

/// The value of a `true`/`false` attribute.
pub fn bool_attribute(attr: Attribute) -> Option<bool> {
    // Safety: valid attribute.
    unsafe { mlir_sys::mlirAttributeIsABool(attr.to_raw()).then(|| mlir_sys::mlirBoolAttrGetValue(attr.to_raw())) }
}

/// The `irdl.operation @NAME` names of the dialect `@dialect` in an IRDL source, as full names.
#[cfg(test)]
pub(crate) fn irdl_op_names(source: &str, dialect: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut current = None;
    for line in source.lines().map(str::trim) {
        if let Some(rest) = line.strip_prefix("irdl.dialect @") {
            current = rest.split_whitespace().next().map(str::to_string);
        } else if let Some(rest) = line.strip_prefix("irdl.operation @") {
            let op = rest.trim_end_matches('{').trim();
            if current.as_deref() == Some(dialect) {
                out.push(format!("{dialect}.{op}"));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{create_context, parse_source};
    use melior::ir::BlockLike;

    /// Adding an op to the IRDL file without a variant (or removing one) fails here.
    #[test]
    fn every_irdl_op_has_a_kind() {
        let names = irdl_op_names(crate::IRDL_SOURCE, "layout");
        assert_eq!(names.len(), 7, "{names:?}");
        for name in &names {
            let kind = LayoutOpKind::from_name(name).unwrap_or_else(|| panic!("{name} has no LayoutOpKind"));
            assert_eq!(kind.name(), name);
        }
        let mut ours: Vec<&str> = LayoutOpKind::ALL.iter().map(|k| k.name()).collect();
        let mut theirs: Vec<&str> = names.iter().map(String::as_str).collect();
        ours.sort();
        theirs.sort();
        assert_eq!(ours, theirs);
    }

    #[test]
    fn decodes_operands_and_attributes() {
        let context = create_context().expect("context");
        let module = parse_source(
            &context,
            r#"module {
                 %c16 = arith.constant 16 : index
                 %a = "layout.alloc"() : () -> !layout.tensor<f16, "l1", "NZ", "(128,64)">
                 %t = "layout.tile"(%a, %c16, %c16) {shape = array<i64: 32, 16>} : (!layout.tensor<f16, "l1", "NZ", "(128,64)">, index, index) -> !layout.tensor<f16, "l1", "((16,2),(16,1)):((1,256),(16,2048))", "(32,16)">
                 %o = "layout.offset"(%a, %c16, %c16) : (!layout.tensor<f16, "l1", "NZ", "(128,64)">, index, index) -> index
                 "layout.load"(%a, %a) : (!layout.tensor<f16, "l1", "NZ", "(128,64)">, !layout.tensor<f16, "l1", "NZ", "(128,64)">) -> ()
               }"#,
        )
        .expect("parse");
        let mut kinds = Vec::new();
        let mut op = module.body().first_operation();
        while let Some(o) = op {
            match LayoutOp::decode(o) {
                None => assert_eq!(op_name(&o), "arith.constant"),
                Some(Err(e)) => panic!("{e}"),
                Some(Ok(decoded)) => {
                    kinds.push(decoded.kind());
                    match &decoded {
                        LayoutOp::Tile { shape, coord, .. } => {
                            assert_eq!(shape, &[32, 16]);
                            assert_eq!(coord.len(), 2);
                        }
                        LayoutOp::Offset { coord, .. } => assert_eq!(coord.len(), 2),
                        LayoutOp::Alloc { dyn_sizes, .. } => assert!(dyn_sizes.is_empty()),
                        LayoutOp::Load { src, dst, .. } => assert_eq!(src, dst),
                        _ => {}
                    }
                }
            }
            op = o.next_in_block();
        }
        use LayoutOpKind as K;
        assert_eq!(kinds, [K::Alloc, K::Tile, K::Offset, K::Load]);
    }

    #[test]
    fn a_tile_with_an_i32_shape_is_a_decode_error() {
        let context = create_context().expect("context");
        let module = parse_source(
            &context,
            r#"module {
                 %c0 = arith.constant 0 : index
                 %a = "layout.alloc"() : () -> !layout.tensor<f16, "l1", "NZ", "(128,64)">
                 %t = "layout.tile"(%a, %c0, %c0) {shape = array<i32: 32, 16>} : (!layout.tensor<f16, "l1", "NZ", "(128,64)">, index, index) -> !layout.tensor<f16, "l1", "NZ", "(32,16)">
               }"#,
        )
        .expect("parse");
        let tile = module.body().first_operation().and_then(|o| o.next_in_block()).and_then(|o| o.next_in_block());
        let err = LayoutOp::decode(tile.expect("tile")).expect("layout op").expect_err("i32 shape");
        assert!(err.0.contains("array<i64"), "{err}");
    }
}
