//! Typed accessors: `!layout.tensor<ELEM, "SPACE", "LAYOUT", "ORIGIN">` ⇄ `layout-algebra` values.
//!
//! [`TensorType`] holds the four parameters as text; this module turns them into algebra values
//! ([`TensorType::resolve`] → [`TensorLayout`]) and back ([`TensorType::from_layout`],
//! [`TensorType::bind`]). It never computes a layout itself: pattern names (AscendC or catlass
//! spelling, [`FramePattern::parse`]) are expanded with [`frame_layout`] on the (possibly
//! symbolic) origin dims, with the C0 of [`frame_c0`]; on `l0c`, `NZ` is [`FramePattern::L0C`].
//!
//! Every `?` leaf becomes a [`SymExpr`] symbol `{prefix}{i}` (default [`DEFAULT_PREFIX`] = `d`),
//! numbered in the binding order defined in docs/dialect.md (`!layout.tensor`): origin leaves,
//! then an explicit layout's shape leaves, then its stride leaves; the `dyn` operands of
//! `layout.view`/`layout.alloc` bind them in that order, and a `layout.tile` result's are derived.
//! [`tuple_text`] / [`layout_strings`] print a partially static layout back (non-constant
//! leaves as `?`).

use crate::types::{MemorySpace, TensorType};
use layout_algebra::{
    ascend::{frame_c0, frame_layout, recognize, ElementType, FramePattern},
    parse::{parse_dyn_layout, parse_dyn_tuple, DynTuple},
    IndexValue, Layout, SymExpr, Tuple,
};
use std::collections::HashMap;
use std::fmt;
use std::rc::Rc;

/// Prefix of the symbols that stand for `?` leaves (`d0`, `d1`, ...).
pub const DEFAULT_PREFIX: &str = "d";

/// Why a `!layout.tensor` type has no algebra meaning. The message names the parameter.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LayoutTypeError(pub String);

impl fmt::Display for LayoutTypeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for LayoutTypeError {}

type Result<T> = std::result::Result<T, LayoutTypeError>;

fn err<T>(message: String) -> Result<T> {
    Err(LayoutTypeError(message))
}

/// The LAYOUT parameter, parsed.
#[derive(Clone, Debug, PartialEq)]
pub enum LayoutParam {
    /// A pattern name, already resolved for the memory space (`NZ` on `l0c` is
    /// [`FramePattern::L0C`]).
    Pattern(FramePattern),
    /// An explicit CuTe layout `shape:stride` (`None` leaves are `?`).
    Explicit { shape: DynTuple, stride: DynTuple },
}

/// A `!layout.tensor` type as algebra values.
#[derive(Clone, Debug, PartialEq)]
pub struct TensorLayout {
    pub elem: ElementType,
    pub space: MemorySpace,
    pub param: LayoutParam,
    /// The ORIGIN parameter as written (`None` = `?`).
    pub origin: DynTuple,
    /// Shape, stride and origin; `?` leaves are the symbols of [`Self::symbols`].
    pub layout: Layout<SymExpr>,
    /// The symbols of the `?` leaves in binding order (see the module documentation).
    pub symbols: Vec<String>,
}

impl TensorLayout {
    /// The frame pattern when LAYOUT is a pattern name (`NZ` on `l0c` → `L0C`).
    pub fn pattern(&self) -> Option<FramePattern> {
        match self.param {
            LayoutParam::Pattern(p) => Some(p),
            LayoutParam::Explicit { .. } => None,
        }
    }

    /// Number of `?` leaves (= `dyn` operands a view/alloc of this type needs).
    pub fn num_dynamic(&self) -> usize {
        self.symbols.len()
    }

    /// The layout with every leaf constant, if it is.
    pub fn static_layout(&self) -> Option<Layout<i64>> {
        to_static_layout(&self.layout)
    }

    /// The pattern of the type and its C0: the named pattern with [`frame_c0`], or for an
    /// explicit layout what [`fn@recognize`] infers (AscendC `GetLayoutPattern` order; a
    /// recognized NZ on `l0c` is reported as [`FramePattern::L0C`]). `None` when an explicit
    /// layout is no known pattern.
    pub fn recognized_pattern(&self) -> Option<(FramePattern, i64)> {
        match self.param {
            LayoutParam::Pattern(p) => Some((p, frame_c0(p, self.elem).ok()?)),
            LayoutParam::Explicit { .. } => {
                let r = recognize(&self.layout)?;
                let pattern = match (r.pattern, self.space) {
                    (FramePattern::NZ, MemorySpace::L0c) => FramePattern::L0C,
                    (p, _) => p,
                };
                Some((pattern, r.c0))
            }
        }
    }

    /// Top-level modes of the layout: the number of coordinates `layout.offset` and
    /// `layout.tile` take.
    pub fn rank(&self) -> usize {
        self.layout.rank()
    }

    /// The same layout with its symbols renamed `{prefix}0, {prefix}1, ...` in binding order:
    /// what [`TensorType::resolve_with_prefix`] gives, from a resolution made once (the
    /// [`crate::LayoutCache`]). Sub-expressions shared in `self` stay shared (the index emitter
    /// writes a shared one once).
    pub fn with_symbol_prefix(&self, prefix: &str) -> Result<TensorLayout> {
        let names: HashMap<&str, SymExpr> =
            self.symbols.iter().enumerate().map(|(i, s)| (s.as_str(), SymExpr::sym(&format!("{prefix}{i}")))).collect();
        let mut shared = HashMap::new();
        let mut rename = |e: &SymExpr| Ok::<_, LayoutTypeError>(renamed(e, &names, &mut shared));
        let l = &self.layout;
        let (shape, stride, origin) =
            (l.shape().map(&mut rename)?, l.stride().map(&mut rename)?, l.origin().map(&mut rename)?);
        let layout = Layout::with_origin(shape, stride, origin).map_err(|e| LayoutTypeError(e.to_string()))?;
        let symbols = (0..self.symbols.len()).map(|i| format!("{prefix}{i}")).collect();
        Ok(TensorLayout { layout, symbols, ..self.clone() })
    }
}

/// `e` with the symbols of `names` replaced, each shared node (`Rc`) rebuilt once.
fn renamed(e: &SymExpr, names: &HashMap<&str, SymExpr>, shared: &mut HashMap<*const SymExpr, Rc<SymExpr>>) -> SymExpr {
    match e {
        SymExpr::Const(_) => e.clone(),
        SymExpr::Sym(name) => names.get(name.as_ref()).cloned().unwrap_or_else(|| e.clone()),
        SymExpr::Bin(op, a, b) => {
            let mut child = |c: &Rc<SymExpr>| {
                if let Some(done) = shared.get(&Rc::as_ptr(c)) {
                    return done.clone();
                }
                let done = Rc::new(renamed(c, names, shared));
                shared.insert(Rc::as_ptr(c), done.clone());
                done
            };
            let (a, b) = (child(a), child(b));
            SymExpr::Bin(*op, a, b)
        }
    }
}

/// Resolves a pattern name for a memory space: `NZ`/`zN` on `l0c` is [`FramePattern::L0C`].
pub fn resolve_pattern(name: &str, space: MemorySpace) -> Result<FramePattern> {
    let pattern = FramePattern::parse(name).map_err(|e| LayoutTypeError(format!("invalid LAYOUT \"{name}\": {e}")))?;
    Ok(match (pattern, space) {
        (FramePattern::NZ, MemorySpace::L0c) => FramePattern::L0C,
        (p, _) => p,
    })
}

/// Whether LAYOUT text is a pattern name (rather than a CuTe layout, which starts with a
/// digit, `?` or `(`).
fn is_pattern_name(text: &str) -> bool {
    text.trim().chars().next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
}

impl TensorType {
    /// The element type (`f16`, `bf16`, `i8`, `f8E4M3FN`, ...).
    pub fn element_type(&self) -> Result<ElementType> {
        ElementType::parse(&self.elem).map_err(|e| LayoutTypeError(format!("unsupported element type: {e}")))
    }

    /// The memory space.
    pub fn memory_space(&self) -> Result<MemorySpace> {
        MemorySpace::from_name(&self.space).ok_or_else(|| {
            let names: Vec<_> = MemorySpace::ALL.iter().map(|s| s.name()).collect();
            LayoutTypeError(format!("unknown memory space \"{}\"; expected one of {}", self.space, names.join(", ")))
        })
    }

    /// The ORIGIN parameter (`?` leaves are `None`).
    pub fn origin_tuple(&self) -> Result<DynTuple> {
        parse_dyn_tuple(&self.origin).map_err(|e| LayoutTypeError(format!("invalid ORIGIN \"{}\": {e}", self.origin)))
    }

    /// The LAYOUT parameter, with the pattern resolved for the memory space.
    pub fn layout_param(&self) -> Result<LayoutParam> {
        if is_pattern_name(&self.layout) {
            return Ok(LayoutParam::Pattern(resolve_pattern(&self.layout, self.memory_space()?)?));
        }
        let text = parse_dyn_layout(&self.layout)
            .map_err(|e| LayoutTypeError(format!("invalid LAYOUT \"{}\": {e}", self.layout)))?;
        if text.origin.is_some() {
            return err(format!(
                "invalid LAYOUT \"{}\": the origin goes into the ORIGIN parameter, not into LAYOUT",
                self.layout
            ));
        }
        Ok(LayoutParam::Explicit { shape: text.shape, stride: text.stride })
    }

    /// The frame pattern when LAYOUT is a pattern name (resolved for the space).
    pub fn pattern(&self) -> Result<Option<FramePattern>> {
        Ok(match self.layout_param()? {
            LayoutParam::Pattern(p) => Some(p),
            LayoutParam::Explicit { .. } => None,
        })
    }

    /// Number of `?` leaves (ORIGIN, and LAYOUT when explicit), without building the layout.
    pub fn dynamic_count(&self) -> Result<usize> {
        let mut n = count_none(&self.origin_tuple()?);
        if let LayoutParam::Explicit { shape, stride } = self.layout_param()? {
            n += count_none(&shape) + count_none(&stride);
        }
        Ok(n)
    }

    /// All parameters as algebra values, `?` leaves as symbols `d0, d1, ...` (binding order of
    /// the module documentation).
    pub fn resolve(&self) -> Result<TensorLayout> {
        self.resolve_with_prefix(DEFAULT_PREFIX)
    }

    /// [`Self::resolve`] with symbols `{prefix}0, {prefix}1, ...` (to keep the symbols of two
    /// types apart, e.g. a tile and its parent).
    pub fn resolve_with_prefix(&self, prefix: &str) -> Result<TensorLayout> {
        let elem = self.element_type()?;
        let space = self.memory_space()?;
        let param = self.layout_param()?;
        let origin = self.origin_tuple()?;
        let mut symbols = Vec::new();
        let mut next = |v: &Option<i64>| -> std::result::Result<SymExpr, LayoutTypeError> {
            Ok(match v {
                Some(v) => SymExpr::Const(*v),
                None => {
                    let name = format!("{prefix}{}", symbols.len());
                    let s = SymExpr::sym(&name);
                    symbols.push(name);
                    s
                }
            })
        };
        let sym_origin = origin.map(&mut next)?;
        let layout = match &param {
            LayoutParam::Pattern(pattern) => {
                let dims = match &sym_origin {
                    Tuple::Tuple(modes) if modes.iter().all(Tuple::is_int) => sym_origin.leaves(),
                    _ => {
                        return err(format!(
                            "ORIGIN \"{}\" of the pattern {pattern} must be a flat tuple of dims, e.g. \"(rows,cols)\"",
                            self.origin
                        ))
                    }
                };
                let c0 = frame_c0(*pattern, elem)
                    .map_err(|e| LayoutTypeError(format!("layout {pattern} for {elem}: {e}")))?;
                let layout = frame_layout(*pattern, c0, &dims).map_err(|e| {
                    LayoutTypeError(format!("layout {pattern} of {elem} for ORIGIN \"{}\": {e}", self.origin))
                })?;
                // Keep the origin exactly as written (frame_layout's origin is the dims
                // grouped per mode; for the batched form it is (batch,(rows,cols))).
                if layout.rank() == sym_origin.rank() {
                    layout
                        .with_new_origin(sym_origin)
                        .map_err(|e| LayoutTypeError(format!("ORIGIN \"{}\": {e}", self.origin)))?
                } else {
                    layout
                }
            }
            LayoutParam::Explicit { shape, stride } => {
                let shape = shape.map(&mut next)?;
                let stride = stride.map(&mut next)?;
                Layout::with_origin(shape, stride, sym_origin).map_err(|e| {
                    LayoutTypeError(format!("layout \"{}\" with ORIGIN \"{}\": {e}", self.layout, self.origin))
                })?
            }
        };
        Ok(TensorLayout { elem, space, param, origin, layout, symbols })
    }

    /// Substitutes values for `?` leaves in binding order (`values[i]` for `d{i}`; `None`
    /// keeps the leaf dynamic). A pattern name stays a pattern name; an explicit layout is
    /// re-printed. Errors when `values` does not have one entry per `?` leaf.
    ///
    /// Example: `("ND", "(?,128)")` bound with `[Some(100)]` → `("ND", "(100,128)")`.
    pub fn bind(&self, values: &[Option<i64>]) -> Result<TensorType> {
        let want = self.dynamic_count()?;
        if values.len() != want {
            return err(format!("{self} has {want} dynamic leaves but {} values were given", values.len()));
        }
        let mut it = values.iter();
        let mut next = |v: &Option<i64>| -> std::result::Result<Option<i64>, LayoutTypeError> {
            Ok(match v {
                Some(v) => Some(*v),
                None => *it.next().expect("counted above"),
            })
        };
        let origin = self.origin_tuple()?.map(&mut next)?;
        let layout = match self.layout_param()? {
            LayoutParam::Pattern(_) => self.layout.clone(),
            LayoutParam::Explicit { shape, stride } => {
                format!("{}:{}", shape.map(&mut next)?.to_string_dyn(), stride.map(&mut next)?.to_string_dyn())
            }
        };
        Ok(TensorType { elem: self.elem.clone(), space: self.space.clone(), layout, origin: origin.to_string_dyn() })
    }

    /// The type of an explicit layout: LAYOUT = `shape:stride`, ORIGIN = the origin, every
    /// non-constant leaf printed as `?`.
    pub fn from_layout(elem: ElementType, space: MemorySpace, layout: &Layout<SymExpr>) -> Self {
        let (layout, origin) = layout_strings(layout);
        TensorType::new(elem.name(), space.name(), layout, origin)
    }
}

fn count_none(t: &DynTuple) -> usize {
    t.leaves().iter().filter(|v| v.is_none()).count()
}

/// CuTe text of a tuple, `?` for every non-constant leaf: `((16,?),(16,2))`.
pub fn tuple_text<T: IndexValue>(t: &Tuple<T>) -> String {
    match t {
        Tuple::Int(v) => v.as_constant().map_or_else(|| "?".to_string(), |v| v.to_string()),
        Tuple::Tuple(c) => format!("({})", c.iter().map(tuple_text).collect::<Vec<_>>().join(",")),
    }
}

/// The LAYOUT (`shape:stride`) and ORIGIN strings of a layout, `?` for non-constant leaves.
pub fn layout_strings<T: IndexValue>(layout: &Layout<T>) -> (String, String) {
    (format!("{}:{}", tuple_text(layout.shape()), tuple_text(layout.stride())), tuple_text(layout.origin()))
}

/// Number of non-constant leaves in shape, stride and origin.
pub fn count_dynamic<T: IndexValue>(layout: &Layout<T>) -> usize {
    [layout.origin(), layout.shape(), layout.stride()]
        .iter()
        .flat_map(|t| t.leaves())
        .filter(|v| v.as_constant().is_none())
        .count()
}

/// The concrete layout when every leaf (shape, stride, origin) is constant.
pub fn to_static_layout<T: IndexValue>(layout: &Layout<T>) -> Option<Layout<i64>> {
    let c = |t: &Tuple<T>| t.map(&mut |v: &T| v.as_constant().ok_or(())).ok();
    Layout::with_origin(c(layout.shape())?, c(layout.stride())?, c(layout.origin())?).ok()
}

/// The constant leaves of a tuple, `None` if any leaf is not constant.
pub fn static_leaves<T: IndexValue>(t: &Tuple<T>) -> Option<Vec<i64>> {
    t.leaves().iter().map(IndexValue::as_constant).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use layout_algebra::parse::parse_layout;

    #[test]
    fn pattern_types_expand_with_the_algebra() {
        let t = TensorType::new("f16", "l1", "NZ", "(100,100)").resolve().unwrap();
        assert_eq!(t.elem, ElementType::F16);
        assert_eq!(t.space, MemorySpace::L1);
        assert_eq!(t.pattern(), Some(FramePattern::NZ));
        let want = parse_layout("((16,7),(16,7)):((16,256),(1,1792)) origin (100,100)").unwrap();
        assert_eq!(t.static_layout().unwrap(), want);
        assert_eq!(t.num_dynamic(), 0);
        // catlass spelling: same layout.
        let z = TensorType::new("f16", "l1", "zN", "(100,100)").resolve().unwrap();
        assert_eq!(z.layout, t.layout);
        assert_eq!(z.pattern(), Some(FramePattern::NZ));
        // nZ is ZN.
        assert_eq!(TensorType::new("f16", "l0b", "nZ", "(64,64)").pattern().unwrap(), Some(FramePattern::ZN));
    }

    #[test]
    fn nz_on_l0c_is_the_16x16_accumulator() {
        let c = TensorType::new("f32", "l0c", "NZ", "(128,256)").resolve().unwrap();
        assert_eq!(c.pattern(), Some(FramePattern::L0C));
        assert_eq!(layout_strings(&c.layout).0, "((16,8),(16,16)):((16,256),(1,2048))");
        // In L1 an f32 NZ has C0 = 8.
        let l1 = TensorType::new("f32", "l1", "NZ", "(128,256)").resolve().unwrap();
        assert_eq!(layout_strings(&l1.layout).0, "((16,8),(8,32)):((8,128),(1,1024))");
    }

    #[test]
    fn dynamic_leaves_bind_origin_first_then_layout() {
        let t = TensorType::new("f16", "gm", "(?,128):(?,1)", "(?,128)").resolve().unwrap();
        assert_eq!(t.symbols, vec!["d0", "d1", "d2"]);
        assert_eq!(t.layout.origin().to_string(), "(d0,128)");
        assert_eq!(t.layout.shape().to_string(), "(d1,128)");
        assert_eq!(t.layout.stride().to_string(), "(d2,1)");
        // A pattern with a dynamic origin: symbolic expansion, static fractal parts survive.
        let p = TensorType::new("f16", "l1", "NZ", "(?,64)").resolve_with_prefix("m").unwrap();
        assert_eq!(p.symbols, vec!["m0"]);
        assert_eq!(layout_strings(&p.layout), ("((16,?),(16,4)):((16,256),(1,?))".to_string(), "(?,64)".to_string()));
    }

    #[test]
    fn bind_keeps_pattern_names() {
        let t = TensorType::new("f16", "gm", "ND", "(?,?)");
        assert_eq!(t.dynamic_count().unwrap(), 2);
        let b = t.bind(&[Some(100), None]).unwrap();
        assert_eq!((b.layout.as_str(), b.origin.as_str()), ("ND", "(100,?)"));
        let e = TensorType::new("f16", "gm", "(?,128):(?,1)", "(?,128)");
        let b = e.bind(&[Some(100), Some(100), Some(128)]).unwrap();
        assert_eq!((b.layout.as_str(), b.origin.as_str()), ("(100,128):(128,1)", "(100,128)"));
        assert!(e.bind(&[Some(1)]).is_err());
    }

    #[test]
    fn explicit_layouts_are_recognized() {
        let t = TensorType::new("f16", "l1", "((16,2),(16,3)):((16,256),(1,1792))", "(?,?)").resolve().unwrap();
        assert_eq!(t.recognized_pattern(), Some((FramePattern::NZ, 16)));
        assert_eq!(t.rank(), 2);
        let c = TensorType::new("f32", "l0c", "((16,2),(16,2)):((16,256),(1,512))", "(32,32)").resolve().unwrap();
        assert_eq!(c.recognized_pattern(), Some((FramePattern::L0C, 16)));
        let n = TensorType::new("f32", "l1", "NZ", "(32,32)").resolve().unwrap();
        assert_eq!(n.recognized_pattern(), Some((FramePattern::NZ, 8)));
        let g = TensorType::new("f16", "gm", "(4,4):(4,5)", "(4,4)").resolve().unwrap();
        assert_eq!(g.recognized_pattern(), None);
    }

    #[test]
    fn from_layout_round_trips() {
        let t = TensorType::new("i8", "l1", "((16,?),(32,?)):((32,512),(1,?))", "(?,?)");
        let r = t.resolve().unwrap();
        let back = TensorType::from_layout(r.elem, r.space, &r.layout);
        assert_eq!(back, t);
        assert_eq!(count_dynamic(&r.layout), 5);
        assert!(to_static_layout(&r.layout).is_none());
    }

    #[test]
    fn batched_patterns_keep_the_written_origin() {
        let t = TensorType::new("f16", "gm", "NZ", "(2,32,32)").resolve().unwrap();
        assert_eq!(t.layout.to_string(), "(2,((16,2),(16,2))):(1024,((16,256),(1,512))) origin (2,(32,32))");
    }

    #[test]
    fn bad_parameters_are_errors_not_panics() {
        let e = |t: TensorType| t.resolve().unwrap_err().0;
        assert!(e(TensorType::new("f17", "l1", "NZ", "(16,16)")).contains("element type"));
        assert!(e(TensorType::new("f16", "l3", "NZ", "(16,16)")).contains("memory space"));
        assert!(e(TensorType::new("f16", "l1", "Nz", "(16,16)")).contains("case-sensitive"));
        assert!(e(TensorType::new("f16", "l1", "NZ", "(16,16")).contains("ORIGIN"));
        assert!(e(TensorType::new("f16", "l1", "NZ", "((16,16),2)")).contains("flat"));
        assert!(e(TensorType::new("i64", "l1", "NZ", "(16,16)")).contains("64-bit"));
        assert!(e(TensorType::new("f16", "l1", "(4,4):(1,4,2)", "(4,4)")).contains("congruent"));
        assert!(e(TensorType::new("f16", "l1", "NZ", "(9223372036854775807,16)")).contains("overflow"));
        assert!(e(TensorType::new("f16", "l1", "(4,4):(1,4) origin (4,4)", "(4,4)")).contains("ORIGIN parameter"));
    }
}
