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
    BlockIdx,
    BlockNum,
}

impl LayoutOpKind {
    /// Every kind, in IRDL order.
    pub const ALL: [LayoutOpKind; 9] = [
        Self::View,
        Self::Alloc,
        Self::Tile,
        Self::Load,
        Self::Store,
        Self::Matmul,
        Self::Offset,
        Self::BlockIdx,
        Self::BlockNum,
    ];

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
            Self::BlockIdx => "layout.block_idx",
            Self::BlockNum => "layout.block_num",
        }
    }

    /// The kind of a full op name; `None` for names outside the dialect.
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|k| k.name() == name)
    }

    /// The attributes the op takes: the one declaration that decoding, the verifier's
    /// unknown-attribute rule and docs/dialect.md follow. Anything else on the op is an error,
    /// so a misspelled epilogue (`relux = true`) cannot vanish.
    pub fn attributes(self) -> &'static [AttributeDecl] {
        match self {
            Self::Tile => &[AttributeDecl { name: "shape", value: "array<i64: ...> of tile extents", required: true }],
            Self::Matmul => &[AttributeDecl { name: "accumulate", value: "true or false", required: true }],
            Self::Store => &[
                AttributeDecl { name: "relu", value: "true or false (Fixpipe ReLU, L0C stores only)", required: false },
                AttributeDecl {
                    name: "scale",
                    value: "an f32 float, e.g. 0.5 : f32 (Fixpipe DEQF16 scale, i32 -> f16 L0C stores only)",
                    required: false,
                },
                AttributeDecl {
                    name: "atomic",
                    value: "\"add\" (the store adds into GM: SetAtomicAdd, L0C -> GM stores only)",
                    required: false,
                },
                AttributeDecl {
                    name: "unit_flag",
                    value: "true or false (the Fixpipe takes the Mmad/Fixpipe unitFlag handshake, L0C stores only)",
                    required: false,
                },
            ],
            Self::View | Self::Alloc | Self::Load | Self::Offset | Self::BlockIdx | Self::BlockNum => &[],
        }
    }
}

/// One attribute of a `layout` op: its name, what its value must be (for messages) and whether
/// it must be present.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AttributeDecl {
    pub name: &'static str,
    pub value: &'static str,
    pub required: bool,
}

/// The Fixpipe epilogue of a `layout.store` (docs/dialect.md, `layout.store`): what happens to
/// each L0C element on its way out besides the element-type conversion the types give.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct StoreEpilogue {
    /// `relu = true`: negative results (after the conversion) become +0 (`reluEn`).
    pub relu: bool,
    /// `scale = S : f32`: i32 -> f16 dequantization `f16(f32(x) · S)` (`quantPre = DEQF16`,
    /// `deqScalar` = the bits of S).
    pub scale: Option<f32>,
    /// `atomic = "add"`: the store adds its (converted) values into GM instead of overwriting
    /// them, atomically per element (`SetAtomicAdd<T>()` around the Fixpipe).
    pub atomic_add: bool,
    /// `unit_flag = true`: the Fixpipe reads each 512 B L0C block only once the accumulation's
    /// last `layout.matmul` (unit flag `release`) finished it, and frees it for the next
    /// accumulation (`unitFlag = 3`, asc-devkit UnitFlag.md): the handshake replaces the
    /// `M_FIX`/`FIX_M` events of these two ops.
    pub unit_flag: bool,
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
    /// `layout.store(%src, %dst) {relu, scale, atomic}` (all optional: the Fixpipe epilogue).
    Store { op: OperationRef<'c, 'a>, src: Value<'c, 'a>, dst: Value<'c, 'a>, epilogue: StoreEpilogue },
    /// `[%written =] layout.matmul(%a, %b, %c[, %unit_flag]) {accumulate}`: `written` is C
    /// viewed with the `m × n` the matmul wrote as its origin. `unit_flag` (index): the
    /// Mmad/Fixpipe handshake, `ascendc_params::decl::UnitFlag` 2 (another matmul of this
    /// accumulation follows) or 3 (the last one), possibly a value computed in a loop.
    Matmul {
        op: OperationRef<'c, 'a>,
        a: Value<'c, 'a>,
        b: Value<'c, 'a>,
        c: Value<'c, 'a>,
        unit_flag: Option<Value<'c, 'a>>,
        accumulate: bool,
        written: Option<Value<'c, 'a>>,
    },
    /// `%o = layout.offset(%t, coord...)`.
    Offset { op: OperationRef<'c, 'a>, source: Value<'c, 'a>, coord: Vec<Value<'c, 'a>>, result: Value<'c, 'a> },
    /// `%b = layout.block_idx()` / `%n = layout.block_num()`: which block runs, and how many do.
    Block { op: OperationRef<'c, 'a>, query: BlockQuery, result: Value<'c, 'a> },
}

/// What a [`LayoutOp::Block`] asks for (AscendC `GetBlockIdx()` / `GetBlockNum()`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BlockQuery {
    /// The running block's index, in `[0, blockDim)`.
    Idx,
    /// The number of blocks launched (`blockDim`).
    Num,
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
            Self::Block { query: BlockQuery::Idx, .. } => LayoutOpKind::BlockIdx,
            Self::Block { query: BlockQuery::Num, .. } => LayoutOpKind::BlockNum,
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
            | Self::Offset { op, .. }
            | Self::Block { op, .. } => *op,
        }
    }
}

/// The attributes of `op` that `kind` does not declare, as an error naming them and the known
/// ones (MLIR's wording: `'layout.store' op unknown attribute 'relux'; known: relu, scale`).
fn check_attribute_names(kind: LayoutOpKind, op: &OperationRef) -> Result<(), DecodeError> {
    let known = kind.attributes();
    for (name, _) in op.attributes() {
        let name = name.as_string_ref().as_str().unwrap_or("").to_string();
        if !known.iter().any(|a| a.name == name) {
            let list: Vec<&str> = known.iter().map(|a| a.name).collect();
            let list = if list.is_empty() { "none".to_string() } else { list.join(", ") };
            return Err(DecodeError(format!("'{}' op unknown attribute '{name}'; known: {list}", kind.name())));
        }
    }
    for a in known.iter().filter(|a| a.required) {
        if op.attribute(a.name).is_err() {
            return Err(DecodeError(format!("'{}' op needs the attribute '{}' ({})", kind.name(), a.name, a.value)));
        }
    }
    Ok(())
}

/// The optional epilogue attributes of a `layout.store`, typed.
fn store_epilogue(op: &OperationRef) -> Result<StoreEpilogue, DecodeError> {
    let decl = |name: &str| LayoutOpKind::Store.attributes().iter().find(|a| a.name == name).map_or("", |a| a.value);
    let relu = match op.attribute("relu") {
        Err(_) => false,
        Ok(attr) => bool_attribute(attr).ok_or_else(|| {
            DecodeError(format!("'layout.store' op attribute 'relu' must be {}, got {attr}", decl("relu")))
        })?,
    };
    let scale = match op.attribute("scale") {
        Err(_) => None,
        Ok(attr) => Some(f32_attribute(attr).ok_or_else(|| {
            DecodeError(format!("'layout.store' op attribute 'scale' must be {}, got {attr}", decl("scale")))
        })?),
    };
    let atomic_add = match op.attribute("atomic") {
        Err(_) => false,
        Ok(attr) => match string_attribute(attr).as_deref() {
            Some("add") => true,
            _ => {
                return Err(DecodeError(format!(
                    "'layout.store' op attribute 'atomic' must be {}, got {attr}",
                    decl("atomic")
                )))
            }
        },
    };
    let unit_flag = match op.attribute("unit_flag") {
        Err(_) => false,
        Ok(attr) => bool_attribute(attr).ok_or_else(|| {
            DecodeError(format!("'layout.store' op attribute 'unit_flag' must be {}, got {attr}", decl("unit_flag")))
        })?,
    };
    Ok(StoreEpilogue { relu, scale, atomic_add, unit_flag })
}

/// The value of a string attribute; `None` for any other attribute.
fn string_attribute(attr: Attribute) -> Option<String> {
    // Safety: valid attribute; the string reference lives as long as the context.
    unsafe {
        let raw = attr.to_raw();
        if !mlir_sys::mlirAttributeIsAString(raw) {
            return None;
        }
        let s = mlir_sys::mlirStringAttrGetValue(raw);
        Some(String::from_utf8_lossy(std::slice::from_raw_parts(s.data as *const u8, s.length)).into_owned())
    }
}

fn decode_layout<'c, 'a>(kind: LayoutOpKind, op: OperationRef<'c, 'a>) -> Result<LayoutOp<'c, 'a>, DecodeError> {
    let name = kind.name();
    check_attribute_names(kind, &op)?;
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
                let written = first_result(&op);
                LayoutOp::Load { op, src, dst, written }
            } else {
                LayoutOp::Store { op, src, dst, epilogue: store_epilogue(&op)? }
            }
        }
        LayoutOpKind::Matmul => {
            need(3)?;
            let accumulate =
                op.attribute("accumulate").ok().and_then(bool_attribute).ok_or_else(|| {
                    DecodeError("layout.matmul needs the `accumulate` attribute (true or false)".into())
                })?;
            if operands.len() > 4 {
                return Err(DecodeError(format!(
                    "{name}: takes A, B, C and an optional unit flag, got {} operands",
                    operands.len()
                )));
            }
            let unit_flag = operands.get(3).copied();
            if let Some(u) = unit_flag {
                if !melior::ir::TypeLike::is_index(&melior::ir::ValueLike::r#type(&u)) {
                    return Err(DecodeError(format!(
                        "{name}: the unit flag operand must be an index, got {}",
                        melior::ir::ValueLike::r#type(&u)
                    )));
                }
            }
            let written = first_result(&op);
            LayoutOp::Matmul { op, a: operands[0], b: operands[1], c: operands[2], unit_flag, accumulate, written }
        }
        LayoutOpKind::Offset => {
            need(1)?;
            LayoutOp::Offset { op, source: operands[0], coord: operands[1..].to_vec(), result: result()? }
        }
        LayoutOpKind::BlockIdx | LayoutOpKind::BlockNum => {
            if !operands.is_empty() {
                return Err(DecodeError(format!("{name}: takes no operands, got {}", operands.len())));
            }
            let query = if kind == LayoutOpKind::BlockIdx { BlockQuery::Idx } else { BlockQuery::Num };
            LayoutOp::Block { op, query, result: result()? }
        }
    })
}

/// The op's first result, if it has one. Checks the count first: melior's `result(0)` on an
/// op without results prints the op (and numbers its whole function) into the error.
pub fn first_result<'c, 'a>(op: &OperationRef<'c, 'a>) -> Option<Value<'c, 'a>> {
    if op.result_count() == 0 {
        return None;
    }
    op.result(0).ok().map(Into::into)
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

/// The value of an `f32` float attribute (`0.5 : f32`); `None` for any other attribute,
/// including floats of other widths (the hardware reads the f32 bits: no silent rounding).
pub fn f32_attribute(attr: Attribute) -> Option<f32> {
    // Safety: valid attribute and type.
    unsafe {
        let raw = attr.to_raw();
        if !mlir_sys::mlirAttributeIsAFloat(raw) || !mlir_sys::mlirTypeIsAF32(mlir_sys::mlirAttributeGetType(raw)) {
            return None;
        }
        // Exact: an f32 value widened to f64.
        Some(mlir_sys::mlirFloatAttrGetValueDouble(raw) as f32)
    }
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
        assert_eq!(names.len(), 9, "{names:?}");
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
    fn block_queries_decode() {
        let context = create_context().expect("context");
        let module = parse_source(
            &context,
            r#"module {
                 %b = "layout.block_idx"() : () -> index
                 %n = "layout.block_num"() : () -> index
               }"#,
        )
        .expect("parse");
        let ops: Vec<_> = {
            let mut v = Vec::new();
            let mut op = module.body().first_operation();
            while let Some(o) = op {
                v.push(LayoutOp::decode(o).expect("layout op"));
                op = o.next_in_block();
            }
            v
        };
        assert!(matches!(ops[0], Ok(LayoutOp::Block { query: BlockQuery::Idx, .. })));
        assert!(matches!(ops[1], Ok(LayoutOp::Block { query: BlockQuery::Num, .. })));
        assert_eq!(ops[1].as_ref().map(|o| o.kind()).ok(), Some(LayoutOpKind::BlockNum));
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

    /// The `layout.store` ops of `body` (one per line), decoded.
    fn decode_stores(body: &str) -> Vec<Result<StoreEpilogue, String>> {
        let context = create_context().expect("context");
        let t = r#"!layout.tensor<f32, "l0c", "NZ", "(16,16)">"#;
        let g = r#"!layout.tensor<f32, "gm", "ND", "(16,16)">"#;
        let source = format!(
            "module {{\n %c = \"layout.alloc\"() : () -> {t}\n %m = \"layout.alloc\"() : () -> {g}\n{}\n}}",
            body.replace("T", t).replace("G", g)
        );
        let module = parse_source(&context, &source).expect("parse");
        let mut out = Vec::new();
        let mut op = module.body().first_operation();
        while let Some(o) = op {
            match LayoutOp::decode(o) {
                Some(Ok(LayoutOp::Store { epilogue, .. })) => out.push(Ok(epilogue)),
                Some(Err(e)) => out.push(Err(e.0)),
                _ => {}
            }
            op = o.next_in_block();
        }
        out
    }

    #[test]
    fn store_epilogue_attributes_are_typed_and_unknown_ones_are_errors() {
        let got = decode_stores(
            r#" "layout.store"(%c, %m) : (T, G) -> ()
 "layout.store"(%c, %m) {relu = true, scale = 0.5 : f32} : (T, G) -> ()
 "layout.store"(%c, %m) {relux = true} : (T, G) -> ()
 "layout.store"(%c, %m) {scale = 0.5} : (T, G) -> ()
 "layout.store"(%c, %m) {relu = 1 : i32} : (T, G) -> ()
 "layout.store"(%c, %m) {atomic = "add"} : (T, G) -> ()
 "layout.store"(%c, %m) {atomic = "max"} : (T, G) -> ()
 "layout.store"(%c, %m) {unit_flag = true} : (T, G) -> ()
 "layout.store"(%c, %m) {unit_flag = 3 : i32} : (T, G) -> ()"#,
        );
        assert_eq!(got[0], Ok(StoreEpilogue { relu: false, scale: None, atomic_add: false, unit_flag: false }));
        assert_eq!(got[1], Ok(StoreEpilogue { relu: true, scale: Some(0.5), atomic_add: false, unit_flag: false }));
        assert_eq!(
            got[2],
            Err("'layout.store' op unknown attribute 'relux'; known: relu, scale, atomic, unit_flag".to_string())
        );
        let f64_scale = got[3].clone().expect_err("f64 scale");
        assert!(f64_scale.contains("attribute 'scale' must be an f32 float"), "{f64_scale}");
        let int_relu = got[4].clone().expect_err("i32 relu");
        assert!(int_relu.contains("attribute 'relu' must be true or false"), "{int_relu}");
        assert_eq!(got[5], Ok(StoreEpilogue { relu: false, scale: None, atomic_add: true, unit_flag: false }));
        let max = got[6].clone().expect_err("atomic max");
        assert!(max.contains("attribute 'atomic' must be \"add\""), "{max}");
        assert_eq!(got[7], Ok(StoreEpilogue { relu: false, scale: None, atomic_add: false, unit_flag: true }));
        let int_flag = got[8].clone().expect_err("i32 unit_flag");
        assert!(int_flag.contains("attribute 'unit_flag' must be true or false"), "{int_flag}");
    }

    #[test]
    fn every_op_rejects_attributes_it_does_not_declare() {
        let context = create_context().expect("context");
        let module = parse_source(
            &context,
            r#"module {
                 %a = "layout.alloc"() {shape = array<i64: 16, 16>} : () -> !layout.tensor<f16, "l1", "NZ", "(16,16)">
               }"#,
        )
        .expect("parse");
        let alloc = module.body().first_operation().expect("alloc");
        let err = LayoutOp::decode(alloc).expect("layout op").expect_err("unknown attribute");
        assert_eq!(err.0, "'layout.alloc' op unknown attribute 'shape'; known: none");
        for kind in LayoutOpKind::ALL {
            for a in kind.attributes() {
                assert!(!a.value.is_empty() && !a.name.is_empty(), "{kind:?}");
            }
        }
    }
}
