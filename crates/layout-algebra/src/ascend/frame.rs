//! Frame patterns: the named Ascend layouts (AscendC Te `MakeFrameLayout`, catlass
//! `tla::MakeLayout`, PyPTO `TensorLayout`), docs/layout-spec.md §1, §A.2–§A.4.
//!
//! **Naming.** [`FramePattern`] uses the AscendC/PyPTO names (first letter = order *between*
//! fractals, second = order *inside* a fractal; Z = row-major, N = column-major). catlass writes
//! the same orders with the letters swapped and the inner one lowercase:
//! `zN ≡ NZ`, `nZ ≡ ZN`, `zZ ≡ ZZ`, `nN ≡ NN`, `RowMajor ≡ ND`, `ColumnMajor ≡ DN`.
//!
//! Every builder is generic over [`IndexValue`], so the same code yields concrete layouts
//! (`i64`) and symbolic ones ([`crate::SymExpr`]) for dynamic rows/cols.

use std::fmt;
use std::str::FromStr;

use super::dtype::ElementType;
use crate::domain::IndexValue;
use crate::error::{AlgebraError, Result};
use crate::int_tuple::Tuple;
use crate::layout::Layout;

/// Rows of a fractal (`C0_NUM_PER_FRACTAL`, AscendC `FRACTAL_FIXED`).
pub const FRACTAL_ROWS: i64 = 16;
/// C0 of the MX scale patterns (AscendC `MX_SCALE_K0`).
pub const MX_SCALE_K0: i64 = 2;
/// C0 of the L0C accumulator (16×16 fractal regardless of dtype).
pub const L0C_C0: i64 = 16;

/// A named layout pattern (AscendC Te `*LayoutPtn`).
#[allow(clippy::upper_case_acronyms)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FramePattern {
    /// Row-major matrix (catlass `RowMajor`).
    ND,
    /// Column-major matrix (catlass `ColumnMajor`).
    DN,
    /// Row-major with 1×1 fractals: `((1,row),(1,col)):((0,col),(0,1))`.
    NDExt,
    /// Column-major with 1×1 fractals: `((1,row),(1,col)):((0,1),(0,row))`.
    DNExt,
    /// 16×C0 row-major fractals, column-major grid (catlass `zN`, CANN FRACTAL_NZ).
    NZ,
    /// C0×16 column-major fractals, row-major grid (catlass `nZ`).
    ZN,
    /// 16×C0 row-major fractals, row-major grid (catlass `zZ`).
    ZZ,
    /// C0×16 column-major fractals, column-major grid (catlass `nN`).
    NN,
    /// The L0C accumulator: NZ with a 16×16 fractal (catlass `L0C`).
    L0C,
    /// MX scale A, row-major `[M][G]`.
    ScaleAND,
    /// MX scale A stored `[G/2][M][2]`.
    ScaleADN,
    /// MX scale B stored `[G/2][N][2]`.
    ScaleBND,
    /// MX scale B, column-major.
    ScaleBDN,
    /// `(n, c, h, w)` row-major.
    NCHW,
    /// `(n, h, w, c)` row-major.
    NHWC,
    /// `(n, c1, h, w, c0)` row-major (catlass `MakeLayoutFmap`).
    NC1HWC0,
}

/// Every pattern, in declaration order.
pub const ALL_FRAME_PATTERNS: [FramePattern; 16] = [
    FramePattern::ND,
    FramePattern::DN,
    FramePattern::NDExt,
    FramePattern::DNExt,
    FramePattern::NZ,
    FramePattern::ZN,
    FramePattern::ZZ,
    FramePattern::NN,
    FramePattern::L0C,
    FramePattern::ScaleAND,
    FramePattern::ScaleADN,
    FramePattern::ScaleBND,
    FramePattern::ScaleBDN,
    FramePattern::NCHW,
    FramePattern::NHWC,
    FramePattern::NC1HWC0,
];

/// Accepted spellings besides the AscendC names (and their `LayoutPtn` forms):
/// catlass tags and the CANN `FRACTAL_*` names.
const ALIASES: [(&str, FramePattern, &str); 10] = [
    ("zN", FramePattern::NZ, "catlass zN"),
    ("nZ", FramePattern::ZN, "catlass nZ"),
    ("zZ", FramePattern::ZZ, "catlass zZ"),
    ("nN", FramePattern::NN, "catlass nN"),
    ("RowMajor", FramePattern::ND, "catlass RowMajor"),
    ("ColumnMajor", FramePattern::DN, "catlass ColumnMajor"),
    ("FRACTAL_NZ", FramePattern::NZ, "CANN FRACTAL_NZ"),
    ("FRACTAL_ZN", FramePattern::ZN, "CANN FRACTAL_ZN"),
    ("FRACTAL_ZZ", FramePattern::ZZ, "CANN FRACTAL_ZZ"),
    ("FRACTAL_NN", FramePattern::NN, "CANN FRACTAL_NN"),
];

impl FramePattern {
    /// The AscendC/PyPTO name (`NZ`, `NDExt`, `ScaleADN`, `L0C`, ...), also used by `Display`.
    pub fn name(self) -> &'static str {
        use FramePattern::*;
        match self {
            ND => "ND",
            DN => "DN",
            NDExt => "NDExt",
            DNExt => "DNExt",
            NZ => "NZ",
            ZN => "ZN",
            ZZ => "ZZ",
            NN => "NN",
            L0C => "L0C",
            ScaleAND => "ScaleAND",
            ScaleADN => "ScaleADN",
            ScaleBND => "ScaleBND",
            ScaleBDN => "ScaleBDN",
            NCHW => "NCHW",
            NHWC => "NHWC",
            NC1HWC0 => "NC1HWC0",
        }
    }

    /// The catlass tag of the same physical order, where catlass has one
    /// (`NZ` → `zN`, `ZN` → `nZ`, `ZZ` → `zZ`, `NN` → `nN`, `ND` → `RowMajor`, ...).
    pub fn catlass_name(self) -> Option<&'static str> {
        use FramePattern::*;
        match self {
            ND => Some("RowMajor"),
            DN => Some("ColumnMajor"),
            NZ => Some("zN"),
            ZN => Some("nZ"),
            ZZ => Some("zZ"),
            NN => Some("nN"),
            L0C => Some("L0C"),
            _ => None,
        }
    }

    /// Parses a pattern name. **Case-sensitive**, because case carries meaning: catlass `zN`
    /// is AscendC `NZ` while `ZN` is a different order. Accepted:
    /// * AscendC/PyPTO names exactly as [`Self::name`] prints them (`NZ`, `NDExt`, `ScaleADN`,
    ///   `L0C`, `NC1HWC0`, ...), optionally with the Te suffix `LayoutPtn` (`NZLayoutPtn`);
    /// * catlass tags `zN`≡NZ, `nZ`≡ZN, `zZ`≡ZZ, `nN`≡NN, `RowMajor`≡ND, `ColumnMajor`≡DN;
    /// * CANN `FRACTAL_NZ`, `FRACTAL_ZN`, `FRACTAL_ZZ`, `FRACTAL_NN`.
    ///
    /// Anything else (`Zn`, `nz`, `zn`, `Nd`, ...) is `AlgebraError::Unknown`; when the name
    /// matches ignoring case, the hint spells out the candidates and what each means.
    pub fn parse(text: &str) -> Result<Self> {
        let text = text.trim();
        let base = text.strip_suffix("LayoutPtn").filter(|b| !b.is_empty()).unwrap_or(text);
        if let Some(p) = ALL_FRAME_PATTERNS.iter().find(|p| p.name() == base) {
            return Ok(*p);
        }
        if let Some((_, p, _)) = ALIASES.iter().find(|(a, _, _)| *a == text) {
            return Ok(*p);
        }
        let mut near: Vec<String> = ALL_FRAME_PATTERNS
            .iter()
            .filter(|p| p.name().eq_ignore_ascii_case(base))
            .map(|p| format!("`{}` (AscendC {})", p.name(), p.name()))
            .collect();
        near.extend(
            ALIASES
                .iter()
                .filter(|(a, _, _)| a.eq_ignore_ascii_case(text))
                .map(|(a, p, src)| format!("`{a}` ({src} = AscendC {})", p.name())),
        );
        let all: Vec<&str> =
            ALL_FRAME_PATTERNS.iter().map(|p| p.name()).chain(ALIASES.iter().map(|(a, _, _)| *a)).collect();
        let hint = if near.is_empty() {
            format!("; valid names: {}", all.join(", "))
        } else {
            format!(
                "; pattern names are case-sensitive (catlass `zN` is AscendC `NZ`, not `ZN`): did you mean {}? valid names: {}",
                near.join(" or "),
                all.join(", ")
            )
        };
        Err(AlgebraError::Unknown { what: "frame pattern", name: text.to_string(), hint })
    }

    /// Matrix patterns take `(rows, cols)` or `(batch, rows, cols)`; the conv patterns take
    /// their own dims.
    pub fn is_matrix(self) -> bool {
        !matches!(self, FramePattern::NCHW | FramePattern::NHWC | FramePattern::NC1HWC0)
    }

    /// The patterns with a 16-row fractal: NZ, ZN, ZZ, NN, L0C.
    pub fn is_fractal(self) -> bool {
        matches!(self, FramePattern::NZ | FramePattern::ZN | FramePattern::ZZ | FramePattern::NN | FramePattern::L0C)
    }

    /// The matrix axis (0 = rows, 1 = columns) along which the C0 blocks of a fractal pattern
    /// run, i.e. the mode whose inner leaf has extent C0: columns for the 16×C0 fractals (NZ,
    /// ZZ, and the 16×16 L0C), rows for the C0×16 ones (ZN, NN); `None` for patterns without
    /// C0 blocks. Which axis a copy zero-fills, which axis a packing kernel tiles by C0 and
    /// where recognition reads C0 all follow from this one fact (docs/layout-spec.md §A.2).
    pub fn c0_axis(self) -> Option<usize> {
        match self {
            FramePattern::NZ | FramePattern::ZZ | FramePattern::L0C => Some(1),
            FramePattern::ZN | FramePattern::NN => Some(0),
            _ => None,
        }
    }

    /// The MX scale patterns (`ScaleAND`, `ScaleADN`, `ScaleBND`, `ScaleBDN`).
    pub fn is_scale(self) -> bool {
        matches!(
            self,
            FramePattern::ScaleAND | FramePattern::ScaleADN | FramePattern::ScaleBND | FramePattern::ScaleBDN
        )
    }

    /// Names of the arguments of the single (non-batched) form.
    pub fn dim_names(self) -> &'static [&'static str] {
        match self {
            FramePattern::NCHW => &["n", "c", "h", "w"],
            FramePattern::NHWC => &["n", "h", "w", "c"],
            FramePattern::NC1HWC0 => &["n", "c1", "h", "w", "c0"],
            _ => &["rows", "cols"],
        }
    }
}

impl fmt::Display for FramePattern {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for FramePattern {
    type Err = AlgebraError;
    fn from_str(s: &str) -> Result<Self> {
        Self::parse(s)
    }
}

/// The C0 a pattern uses for an element type (docs/layout-spec.md §A.1, §A.4 trait resolution):
///
/// * NZ, ZN: the dtype C0 `256 / bits` (f16 → 16, f32 → 8, i8 → 32, fp4 → 64);
/// * ZZ, NN: the dtype C0, except `f8E8M0FNU` → 2 (`MX_SCALE_K0`): e8m0 in ZZ / NN is the L1
///   layout of MX scale A / B, which catlass builds with C0 = 2 (spec pitfall 13; AscendC Te
///   static_asserts C0 = 2 for NN, its only use there). Other types follow the spec's 100×100
///   fp16 table (`nN ≡ NN` with C0 = 16). Pass an explicit C0 to [`frame_layout`] for another;
/// * `Scale*`: 2 (`MX_SCALE_K0`);
/// * L0C: 16 (16×16 fractal regardless of dtype);
/// * NC1HWC0: the dtype C0 (catlass `MakeLayoutFmap`; used when only `(n, c1, h, w)` is given);
/// * ND, DN, NDExt, DNExt, NCHW, NHWC: 1 (unused).
///
/// 64-bit types in NZ/ZN/ZZ/NN/L0C are an error (PyPTO/PTO support only ND/DN for them).
///
/// Example: `frame_c0(NZ, f32) = 8`, `frame_c0(L0C, f32) = 16`, `frame_c0(NN, f8E8M0FNU) = 2`.
pub fn frame_c0(pattern: FramePattern, dtype: ElementType) -> Result<i64> {
    use FramePattern::*;
    if pattern.is_fractal() && dtype.bits() == 64 {
        return Err(AlgebraError::Incompatible {
            what: "frame pattern",
            detail: format!("{pattern} does not support the 64-bit element type {dtype}; 64-bit tensors use ND or DN"),
        });
    }
    Ok(match pattern {
        NZ | ZN => dtype.c0(),
        // The MX scale element (fp8 e8m0) in ZZ/NN uses C0 = 2 (docs/layout-spec.md §A.1); every other element
        // type uses its own C0, as in the spec's 100×100 fp16 table (nN ≡ NN with C0 = 16).
        ZZ | NN if dtype == ElementType::F8E8M0FNU => MX_SCALE_K0,
        ZZ | NN => dtype.c0(),
        ScaleAND | ScaleADN | ScaleBND | ScaleBDN => MX_SCALE_K0,
        L0C => L0C_C0,
        NC1HWC0 => dtype.c0(),
        ND | DN | NDExt | DNExt | NCHW | NHWC => 1,
    })
}

/// AscendC Te `Capacity`: the maximum over leaves of `shape_i · stride_i` (docs/layout-spec.md §B.4). Equals
/// the footprint of a compact layout; it is the batch stride of every batched frame pattern.
/// Constant products are folded first; symbolic ones are combined with `max`.
/// An empty layout has capacity 0.
///
/// Example: `((16,7),(16,7)):((16,256),(1,1792))` → `max(256, 1792, 16, 12544) = 12544`;
/// `(10,20):(1,100)` → 2000.
pub fn capacity<T: IndexValue>(layout: &Layout<T>) -> Result<T> {
    let mut const_max: Option<i64> = None;
    let mut sym: Option<T> = None;
    for (s, d) in layout.leaf_modes() {
        let p = s.mul(&d)?;
        match p.as_constant() {
            Some(v) => const_max = Some(const_max.map_or(v, |m| m.max(v))),
            None => {
                sym = Some(match sym {
                    None => p,
                    Some(acc) => acc.max(&p)?,
                })
            }
        }
    }
    match (sym, const_max) {
        (None, None) => Ok(T::constant(0)),
        (None, Some(c)) => Ok(T::constant(c)),
        (Some(s), None) => Ok(s),
        (Some(s), Some(c)) => s.max(&T::constant(c)),
    }
}

fn leaf<T>(v: T) -> Tuple<T> {
    Tuple::Int(v)
}

fn pair<T>(a: Tuple<T>, b: Tuple<T>) -> Tuple<T> {
    Tuple::Tuple(vec![a, b])
}

fn pair_i<T>(a: T, b: T) -> Tuple<T> {
    pair(leaf(a), leaf(b))
}

fn k<T: IndexValue>(v: i64) -> T {
    T::constant(v)
}

/// Requires `value % c0 == 0` when `value` is static (NN, ScaleADN, ScaleBND divide exactly).
fn require_multiple<T: IndexValue>(pattern: FramePattern, what: &str, value: &T, c0: i64) -> Result<()> {
    if let Some(v) = value.as_constant() {
        if v % c0 != 0 {
            return Err(AlgebraError::Inadmissible {
                op: "frame pattern",
                condition: format!(
                    "{pattern} divides {what} by C0 = {c0} without rounding ({what}/C0), so {what} must be a multiple of {c0}, got {v} (pad it first)"
                ),
            });
        }
    }
    Ok(())
}

fn require_c0(pattern: FramePattern, c0: i64, want: i64) -> Result<()> {
    if c0 != want {
        return Err(AlgebraError::Inadmissible {
            op: "frame pattern",
            condition: format!("{pattern} requires C0 = {want}, got {c0}"),
        });
    }
    Ok(())
}

/// Shape and stride of one (non-batched) matrix of `pattern` (docs/layout-spec.md §A.4 table).
fn matrix_shape_stride<T: IndexValue>(
    pattern: FramePattern,
    c0: i64,
    row: &T,
    col: &T,
) -> Result<(Tuple<T>, Tuple<T>)> {
    use FramePattern::*;
    let sixteen: T = k(FRACTAL_ROWS);
    let c: T = k(c0);
    let frac: T = sixteen.mul(&c)?; // 16·c0
    let (zero, one): (T, T) = (k(0), k(1));
    Ok(match pattern {
        ND => (pair_i(row.clone(), col.clone()), pair_i(col.clone(), one)),
        DN => (pair_i(row.clone(), col.clone()), pair_i(one, row.clone())),
        NDExt | ScaleAND => (
            pair(pair_i(one.clone(), row.clone()), pair_i(one.clone(), col.clone())),
            pair(pair_i(zero.clone(), col.clone()), pair_i(zero, one)),
        ),
        DNExt | ScaleBDN => (
            pair(pair_i(one.clone(), row.clone()), pair_i(one.clone(), col.clone())),
            pair(pair_i(zero.clone(), one), pair_i(zero, row.clone())),
        ),
        NZ | L0C => (
            pair(pair_i(sixteen.clone(), row.ceil_div(&sixteen)?), pair_i(c.clone(), col.ceil_div(&c)?)),
            pair(pair_i(c.clone(), frac), pair_i(one, c.mul(&row.align_to(&sixteen)?)?)),
        ),
        ZN => (
            pair(pair_i(c.clone(), row.ceil_div(&c)?), pair_i(sixteen.clone(), col.ceil_div(&sixteen)?)),
            pair(pair_i(one, c.mul(&col.align_to(&sixteen)?)?), pair_i(c, frac)),
        ),
        ZZ => (
            pair(pair_i(sixteen.clone(), row.ceil_div(&sixteen)?), pair_i(c.clone(), col.ceil_div(&c)?)),
            pair(pair_i(c.clone(), sixteen.mul(&col.align_to(&c)?)?), pair_i(one, frac)),
        ),
        NN => (
            pair(pair_i(c.clone(), row.ceil_div(&c)?), pair_i(sixteen.clone(), col.ceil_div(&sixteen)?)),
            pair(pair_i(one, frac), pair_i(c.clone(), row.align_to(&c)?.mul(&sixteen)?)),
        ),
        ScaleADN => (
            pair(pair_i(one.clone(), row.clone()), pair_i(c.clone(), col.floor_div(&c)?)),
            pair(pair_i(zero, c.clone()), pair_i(one, c.mul(row)?)),
        ),
        ScaleBND => (
            pair(pair_i(c.clone(), row.floor_div(&c)?), pair_i(one.clone(), col.clone())),
            pair(pair_i(one, c.mul(col)?), pair_i(zero, c)),
        ),
        NCHW | NHWC | NC1HWC0 => {
            return Err(AlgebraError::Invalid(format!("{pattern} is not a matrix pattern")));
        }
    })
}

/// Row-major strides of a flat shape: `stride_i = Π_{j>i} dims_j`.
fn row_major_strides<T: IndexValue>(dims: &[T]) -> Result<Vec<T>> {
    let mut out = vec![T::constant(1); dims.len()];
    for i in (0..dims.len().saturating_sub(1)).rev() {
        out[i] = out[i + 1].mul(&dims[i + 1])?;
    }
    Ok(out)
}

fn flat<T: Clone>(v: &[T]) -> Tuple<T> {
    Tuple::Tuple(v.iter().cloned().map(Tuple::Int).collect())
}

/// Builds the layout of `pattern` with explicit `c0` over `dims` (docs/layout-spec.md §A.4), with
/// **origin = the logical dims** (catlass originShape).
///
/// Matrix patterns take `(rows, cols)`; with `(batch, rows, cols)` they return the Te batch form
/// `(batch, S):(Capacity(single), D)` with origin `(batch, (rows, cols))` (see [`capacity`]).
/// Single-matrix formulas (`c0` = C0, 16 = fractal rows, `ceil`/`align` as in docs/layout-spec.md §0.1):
///
/// | pattern | shape | stride |
/// |---|---|---|
/// | ND | `(row, col)` | `(col, 1)` |
/// | DN | `(row, col)` | `(1, row)` |
/// | NDExt, ScaleAND | `((1,row),(1,col))` | `((0,col),(0,1))` |
/// | DNExt, ScaleBDN | `((1,row),(1,col))` | `((0,1),(0,row))` |
/// | NZ, L0C (c0 = 16) | `((16,ceil(row/16)),(c0,ceil(col/c0)))` | `((c0,16c0),(1,c0·align(row,16)))` |
/// | ZN | `((c0,ceil(row/c0)),(16,ceil(col/16)))` | `((1,c0·align(col,16)),(c0,16c0))` |
/// | ZZ | `((16,ceil(row/16)),(c0,ceil(col/c0)))` | `((c0,16·align(col,c0)),(1,16c0))` |
/// | NN | `((c0,ceil(row/c0)),(16,ceil(col/16)))` | `((1,16c0),(c0,16·align(row,c0)))` |
/// | ScaleADN (c0 = 2) | `((1,row),(c0,col/c0))` | `((0,c0),(1,c0·row))` |
/// | ScaleBND (c0 = 2) | `((c0,row/c0),(1,col))` | `((1,c0·col),(0,c0))` |
///
/// Conv patterns (no batch form): NCHW `(n,c,h,w)` and NHWC `(n,h,w,c)` are row-major;
/// NC1HWC0 takes `(n,c1,h,w,c0)` (Te: C0 is an argument, the `c0` parameter is ignored) or
/// `(n,c1,h,w)` (catlass `MakeLayoutFmap`: C0 = the `c0` parameter); both are row-major.
///
/// Examples: NZ, c0 = 16, `(100,100)` → `((16,7),(16,7)):((16,256),(1,1792)) origin (100,100)`;
/// NZ, c0 = 16, `(2,100,100)` → `(2,((16,7),(16,7))):(12544,((16,256),(1,1792))) origin (2,(100,100))`.
///
/// NN is written in the catlass `nN` form (`ceil`/`align`), which equals the Te `NNLayoutPtn`
/// formula `((c0,row/c0),(16,ceil(col/16))):((1,16c0),(c0,16·row))` whenever `row % c0 == 0`
/// and also covers catlass `nN` with any C0 and padded rows (fp16 100×100 →
/// `((16,7),(16,7)):((1,256),(16,1792))`). With C0 = 2 (Te NN, MX scale B) odd rows are
/// rejected as Te requires.
///
/// Errors: wrong arity; a static dim ≤ 0 or `c0 ≤ 0`; odd rows for NN with C0 = 2, ScaleADN
/// cols or ScaleBND rows not a multiple of 2 (Te divides without rounding, spec pitfall 12;
/// checked when static, a precondition when symbolic); ScaleAND/ScaleADN/ScaleBND with
/// `c0 ≠ 2` and L0C with `c0 ≠ 16`; any overflow.
pub fn frame_layout<T: IndexValue>(pattern: FramePattern, c0: i64, dims: &[T]) -> Result<Layout<T>> {
    use FramePattern::*;
    if c0 <= 0 {
        return Err(AlgebraError::NotPositive { what: "C0", value: c0.to_string() });
    }
    let names = pattern.dim_names();
    let arity_error = || {
        let forms = if pattern.is_matrix() {
            "(rows, cols) or (batch, rows, cols)".to_string()
        } else if pattern == NC1HWC0 {
            "(n, c1, h, w, c0) or (n, c1, h, w)".to_string()
        } else {
            format!("({})", names.join(", "))
        };
        AlgebraError::Incompatible {
            what: "frame_layout",
            detail: format!("{pattern} takes {forms}, got {} dims", dims.len()),
        }
    };
    let dim_names: &[&str] = match (pattern.is_matrix(), dims.len()) {
        (true, 2) => &["rows", "cols"],
        (true, 3) => &["batch", "rows", "cols"],
        (false, n) if n == names.len() => names,
        (false, 4) if pattern == NC1HWC0 => &names[..4],
        _ => return Err(arity_error()),
    };
    for (d, name) in dims.iter().zip(dim_names) {
        if let Some(v) = d.as_constant() {
            if v <= 0 {
                return Err(AlgebraError::NotPositive { what: "frame dim", value: format!("{name} = {v}") });
            }
        }
    }

    if !pattern.is_matrix() {
        let full: Vec<T> = if pattern == NC1HWC0 && dims.len() == 4 {
            dims.iter().cloned().chain(std::iter::once(T::constant(c0))).collect()
        } else {
            dims.to_vec()
        };
        let strides = row_major_strides(&full)?;
        return Layout::new(flat(&full), flat(&strides));
    }

    match pattern {
        L0C => require_c0(pattern, c0, L0C_C0)?,
        ScaleAND | ScaleADN | ScaleBND => require_c0(pattern, c0, MX_SCALE_K0)?,
        _ => {}
    }
    let (row, col) = (&dims[dims.len() - 2], &dims[dims.len() - 1]);
    match pattern {
        NN if c0 == MX_SCALE_K0 => require_multiple(pattern, "rows", row, c0)?,
        ScaleBND => require_multiple(pattern, "rows", row, c0)?,
        ScaleADN => require_multiple(pattern, "cols", col, c0)?,
        _ => {}
    }
    let (shape, stride) = matrix_shape_stride(pattern, c0, row, col)?;
    let origin = pair_i(row.clone(), col.clone());
    let single = Layout::with_origin(shape, stride, origin)?;
    if dims.len() == 2 {
        return Ok(single);
    }
    let batch = dims[0].clone();
    let cap = capacity(&single)?;
    Layout::with_origin(
        pair(leaf(batch.clone()), single.shape().clone()),
        pair(leaf(cap), single.stride().clone()),
        pair(leaf(batch), single.origin().clone()),
    )
}

/// [`frame_layout`] with the C0 of [`frame_c0`]`(pattern, dtype)`, on concrete dims.
///
/// Example: `frame(NZ, f32, &[100, 100])` → `((16,7),(8,13)):((8,128),(1,896)) origin (100,100)`;
/// `frame(NZ, i64, ..)` is an error (no fractal layouts for 64-bit types).
pub fn frame(pattern: FramePattern, dtype: ElementType, dims: &[i64]) -> Result<Layout> {
    frame_layout(pattern, frame_c0(pattern, dtype)?, dims)
}

/// The logical `(n, c, h, w)` extents of a conv pattern over the coordinate dims of its layout
/// (the origin leaves a conv type resolves to): NCHW `(n,c,h,w)` as is, NHWC `(n,h,w,c)`
/// reordered, NC1HWC0 `(n,c1,h,w,c0)` → `(n, c1·c0, h, w)` — the padded channel count: the
/// layout does not carry the real one (the caller does, e.g. the NCHW source of a copy).
///
/// Example: `conv_logical_extents(NHWC, &[2, 4, 5, 3])` → `[2, 3, 4, 5]`;
/// `conv_logical_extents(NC1HWC0, &[2, 2, 4, 5, 16])` → `[2, 32, 4, 5]`.
///
/// Errors: a matrix pattern, or not 4 dims (NCHW, NHWC) / 5 dims (NC1HWC0).
pub fn conv_logical_extents<T: IndexValue>(pattern: FramePattern, dims: &[T]) -> Result<[T; 4]> {
    use FramePattern::*;
    let want = match pattern {
        NCHW | NHWC => 4,
        NC1HWC0 => 5,
        _ => return Err(AlgebraError::Invalid(format!("{pattern} is not a convolution pattern"))),
    };
    if dims.len() != want {
        return Err(AlgebraError::Incompatible {
            what: "conv_logical_extents",
            detail: format!("{pattern} has {want} coordinate dims, got {}", dims.len()),
        });
    }
    let d = |i: usize| dims[i].clone();
    Ok(match pattern {
        NCHW => [d(0), d(1), d(2), d(3)],
        NHWC => [d(0), d(3), d(1), d(2)],
        _ => [d(0), d(1).mul(&dims[4])?, d(2), d(3)],
    })
}

/// The coordinate, in the layout of a conv pattern, of the logical element `(n, c, h, w)`:
/// NCHW `(n,c,h,w)`, NHWC `(n,h,w,c)`, NC1HWC0 `(n, ⌊c/c0⌋, h, w, c mod c0)` (`c0` = the
/// pattern's C0, the last dim of its layout; ignored for NCHW/NHWC). This is the element
/// correspondence of the GM → L1 copies NC1HWC0 ← NCHW / NHWC (docs/layout-spec.md §D.2); feed the result to
/// `crd_to_offset` of the pattern's layout.
///
/// Example: `conv_coordinate(NC1HWC0, &16, &[1, 37, 2, 3])` → `[1, 2, 2, 3, 5]`.
///
/// Errors: a matrix pattern, not 4 logical coordinates, `c0 ≤ 0` when static.
pub fn conv_coordinate<T: IndexValue>(pattern: FramePattern, c0: &T, nchw: &[T]) -> Result<Vec<T>> {
    use FramePattern::*;
    if nchw.len() != 4 {
        return Err(AlgebraError::Incompatible {
            what: "conv_coordinate",
            detail: format!("a logical (n, c, h, w) coordinate has 4 entries, got {}", nchw.len()),
        });
    }
    let [n, c, h, w] = [nchw[0].clone(), nchw[1].clone(), nchw[2].clone(), nchw[3].clone()];
    Ok(match pattern {
        NCHW => vec![n, c, h, w],
        NHWC => vec![n, h, w, c],
        NC1HWC0 => {
            if let Some(v) = c0.as_constant() {
                if v <= 0 {
                    return Err(AlgebraError::NotPositive { what: "C0", value: v.to_string() });
                }
            }
            vec![n, c.floor_div(c0)?, h, w, c.floor_mod(c0)?]
        }
        _ => return Err(AlgebraError::Invalid(format!("{pattern} is not a convolution pattern"))),
    })
}

#[cfg(test)]
mod tests {
    use super::FramePattern::*;
    use super::*;
    use crate::parse::{parse_int_tuple, parse_layout};

    fn t(s: &str) -> Tuple<i64> {
        parse_int_tuple(s).unwrap()
    }
    fn f16() -> ElementType {
        ElementType::F16
    }

    /// The C0 axis is the mode whose inner leaf is C0 in the built layout (C0 = 8, so it
    /// differs from the 16 fractal rows), and only fractal patterns have one.
    #[test]
    fn c0_axis_is_the_mode_with_the_c0_leaf() {
        for p in ALL_FRAME_PATTERNS {
            let Some(axis) = p.c0_axis() else {
                assert!(!p.is_fractal(), "{p} is a fractal pattern without a C0 axis");
                continue;
            };
            let c0 = if p == L0C { L0C_C0 } else { 8 };
            let layout = frame_layout(p, c0, &[40i64, 40]).unwrap();
            let inner = |mode: usize| layout.shape().get_path(&[mode, 0]).unwrap().as_int().copied();
            assert_eq!(inner(axis), Some(c0), "{p}");
            if p != L0C {
                assert_eq!(inner(1 - axis), Some(FRACTAL_ROWS), "{p}");
            }
        }
        assert_eq!((NZ.c0_axis(), ZN.c0_axis(), ND.c0_axis()), (Some(1), Some(0), None));
    }

    #[test]
    fn parse_accepts_both_conventions_and_is_case_sensitive() {
        for (s, p) in [
            ("NZ", NZ),
            ("zN", NZ),
            ("ZN", ZN),
            ("nZ", ZN),
            ("ZZ", ZZ),
            ("zZ", ZZ),
            ("NN", NN),
            ("nN", NN),
            ("RowMajor", ND),
            ("ColumnMajor", DN),
            ("NZLayoutPtn", NZ),
            ("ScaleBDNLayoutPtn", ScaleBDN),
            ("FRACTAL_NZ", NZ),
            ("L0C", L0C),
            ("NC1HWC0", NC1HWC0),
        ] {
            assert_eq!(FramePattern::parse(s).unwrap(), p, "{s}");
        }
        for p in ALL_FRAME_PATTERNS {
            assert_eq!(FramePattern::parse(p.name()).unwrap(), p);
            assert_eq!(p.to_string().parse::<FramePattern>().unwrap(), p);
            if let Some(c) = p.catlass_name() {
                assert_eq!(FramePattern::parse(c).unwrap(), p);
            }
        }
        for bad in ["Zn", "zn", "nz", "Nz", "nd", "LayoutPtn", "rowmajor", "NZX"] {
            assert!(matches!(FramePattern::parse(bad), Err(AlgebraError::Unknown { .. })), "{bad}");
        }
        let Err(AlgebraError::Unknown { hint, .. }) = FramePattern::parse("zn") else { panic!() };
        assert!(hint.contains("`ZN`") && hint.contains("`zN` (catlass zN = AscendC NZ)"), "{hint}");
    }

    #[test]
    fn c0_resolution() {
        use ElementType as E;
        assert_eq!(frame_c0(NZ, E::F16).unwrap(), 16);
        assert_eq!(frame_c0(NZ, E::F32).unwrap(), 8);
        assert_eq!(frame_c0(ZN, E::I8).unwrap(), 32);
        assert_eq!(frame_c0(ZZ, E::F4E2M1FN).unwrap(), 64);
        assert_eq!(frame_c0(ZZ, E::F8E8M0FNU).unwrap(), 2);
        assert_eq!(frame_c0(NZ, E::F8E8M0FNU).unwrap(), 32);
        assert_eq!(frame_c0(NN, E::F8E8M0FNU).unwrap(), 2);
        assert_eq!(frame_c0(ScaleADN, E::F8E8M0FNU).unwrap(), 2);
        assert_eq!(frame_c0(L0C, E::F32).unwrap(), 16);
        assert_eq!(frame_c0(L0C, E::I8).unwrap(), 16);
        assert_eq!(frame_c0(ND, E::F16).unwrap(), 1);
        assert_eq!(frame_c0(NCHW, E::F16).unwrap(), 1);
        assert_eq!(frame_c0(NC1HWC0, E::F16).unwrap(), 16);
        assert_eq!(frame_c0(ND, E::I64).unwrap(), 1);
        for p in [NZ, ZN, ZZ, NN, L0C] {
            for e in [E::I64, E::UI64, E::F64] {
                assert!(matches!(frame_c0(p, e), Err(AlgebraError::Incompatible { .. })), "{p} {e}");
                assert!(frame(p, e, &[32, 32]).is_err());
            }
        }
    }

    fn check(pattern: FramePattern, c0: i64, dims: &[i64], want: &str) {
        let got = frame_layout(pattern, c0, dims).unwrap();
        assert_eq!(got.to_string(), want, "{pattern} c0={c0} {dims:?}");
    }

    #[test]
    fn te_unit_test_facts() {
        // docs/layout-spec.md §A.8 "AscendC Te unit-test facts"
        check(ND, 1, &[8, 16], "(8,16):(16,1)");
        check(DN, 1, &[8, 16], "(8,16):(1,8)");
        check(NDExt, 1, &[8, 16], "((1,8),(1,16)):((0,16),(0,1))");
        check(DNExt, 1, &[8, 16], "((1,8),(1,16)):((0,1),(0,8))");
        check(NZ, 16, &[32, 64], "((16,2),(16,4)):((16,256),(1,512))");
        check(ZN, 16, &[32, 64], "((16,2),(16,4)):((1,1024),(16,256))");
        let zz = frame_layout(ZZ, 16, &[32, 64]).unwrap();
        assert_eq!(zz.shape(), &t("((16,2),(16,4))"));
        assert_eq!(zz.stride(), &t("((16,1024),(1,256))"));
        // <float>: C0 = 8
        let c0 = frame_c0(NZ, ElementType::F32).unwrap();
        assert_eq!(frame_layout(NZ, c0, &[32i64, 64]).unwrap().shape(), &t("((16,2),(8,8))"));
        assert_eq!(frame_layout(ZN, c0, &[32i64, 64]).unwrap().shape(), &t("((8,4),(16,4))"));
        assert_eq!(frame_layout(ZZ, c0, &[32i64, 64]).unwrap().shape(), &t("((16,2),(8,8))"));
        assert_eq!(frame(ZN, ElementType::F32, &[32, 64]).unwrap(), frame_layout(ZN, 8, &[32i64, 64]).unwrap());
        // NN (C0 = 2), ZZ<C0=2>
        assert_eq!(frame(NN, ElementType::F8E8M0FNU, &[16, 32]).unwrap().shape(), &t("((2,8),(16,2))"));
        check(NN, 2, &[16, 32], "((2,8),(16,2)):((1,32),(2,256))");
        assert_eq!(frame_layout(ZZ, 2, &[32i64, 64]).unwrap().shape(), &t("((16,2),(2,32))"));
        // Scale*
        check(ScaleAND, 2, &[32, 16], "((1,32),(1,16)):((0,16),(0,1))");
        check(ScaleADN, 2, &[32, 16], "((1,32),(2,8)):((0,2),(1,64))");
        check(ScaleBND, 2, &[16, 32], "((2,8),(1,32)):((1,64),(0,2))");
        check(ScaleBDN, 2, &[16, 32], "((1,16),(1,32)):((0,1),(0,16))");
        // batch strides == Capacity(single)
        for p in [ND, DN, NDExt, DNExt] {
            let b = frame_layout(p, 1, &[2i64, 8, 16]).unwrap();
            assert_eq!(b.stride().get(0).unwrap(), &Tuple::Int(128), "{p}");
            assert_eq!(b.shape().get(0).unwrap(), &Tuple::Int(2));
        }
        for p in [NZ, ZN, ZZ] {
            let b = frame_layout(p, 16, &[2i64, 32, 64]).unwrap();
            assert_eq!(b.stride().get(0).unwrap(), &Tuple::Int(2048), "{p}");
        }
        for p in ALL_FRAME_PATTERNS.iter().copied().filter(|p| p.is_matrix()) {
            let c0 = frame_c0(p, f16()).unwrap();
            let single = frame_layout(p, c0, &[32i64, 64]).unwrap();
            let b = frame_layout(p, c0, &[3i64, 32, 64]).unwrap();
            assert_eq!(b.stride().get(0).unwrap(), &Tuple::Int(capacity(&single).unwrap()), "{p}");
            assert_eq!(b.shape().get(1).unwrap(), single.shape());
            assert_eq!(b.origin(), &t("(3,(32,64))"));
        }
    }

    #[test]
    fn worked_100x100_examples() {
        // docs/layout-spec.md §A.8
        let nz = frame(NZ, f16(), &[100, 100]).unwrap();
        assert_eq!(nz.to_string(), "((16,7),(16,7)):((16,256),(1,1792)) origin (100,100)");
        assert_eq!(
            frame(ZN, f16(), &[100, 100]).unwrap().to_string(),
            "((16,7),(16,7)):((1,1792),(16,256)) origin (100,100)"
        );
        assert_eq!(
            frame(ZZ, f16(), &[100, 100]).unwrap().to_string(),
            "((16,7),(16,7)):((16,1792),(1,256)) origin (100,100)"
        );
        assert_eq!(
            frame_layout(NN, 16, &[100i64, 100]).unwrap().to_string(),
            "((16,7),(16,7)):((1,256),(16,1792)) origin (100,100)"
        );
        assert_eq!(frame(L0C, ElementType::F32, &[100, 100]).unwrap(), nz);
        assert_eq!(frame(L0C, ElementType::I32, &[100, 100]).unwrap(), nz);
        assert_eq!(
            frame(NZ, ElementType::F32, &[100, 100]).unwrap().to_string(),
            "((16,7),(8,13)):((8,128),(1,896)) origin (100,100)"
        );
        assert_eq!(
            frame(ZN, ElementType::F32, &[100, 100]).unwrap().to_string(),
            "((8,13),(16,7)):((1,896),(8,128)) origin (100,100)"
        );
        assert_eq!(
            frame(NZ, ElementType::I8, &[100, 100]).unwrap().to_string(),
            "((16,7),(32,4)):((32,512),(1,3584)) origin (100,100)"
        );
        let b = frame(NZ, f16(), &[2, 100, 100]).unwrap();
        assert_eq!(b.to_string(), "(2,((16,7),(16,7))):(12544,((16,256),(1,1792))) origin (2,(100,100))");
        assert_eq!(b.crd_to_offset(&t("(1,(17,33))")).unwrap(), 16401);
        // catlass toy zN with 2x2 fractals is NZ with "16" := 2 — not expressible via frame; the
        // parsed layout matches docs/layout-spec.md §A.8 instead.
        let toy = parse_layout("((2,2),(2,3)):((2,4),(1,8))").unwrap();
        assert_eq!(toy.crd_to_offset(&t("(1,2)")).unwrap(), 10);
    }

    #[test]
    fn capacity_examples() {
        assert_eq!(capacity(&parse_layout("(10,20):(1,100)").unwrap()).unwrap(), 2000);
        assert_eq!(capacity(&parse_layout("(3,4):(7,1)").unwrap()).unwrap(), 21);
        assert_eq!(capacity(&frame(NZ, f16(), &[100, 100]).unwrap()).unwrap(), 12544);
        assert_eq!(capacity(&frame(NZ, ElementType::F32, &[100, 100]).unwrap()).unwrap(), 11648);
        assert_eq!(capacity(&frame(NZ, ElementType::I8, &[100, 100]).unwrap()).unwrap(), 14336);
        assert_eq!(capacity(&parse_layout("((1,4),(1,5)):((0,0),(0,0))").unwrap()).unwrap(), 0);
    }

    #[test]
    fn symbolic_capacity_keeps_constant_and_symbolic_products() {
        use crate::sym::SymExpr;
        use std::collections::HashMap;
        let m = SymExpr::sym("m");
        let l =
            Layout::new(pair_i(m.clone(), SymExpr::Const(4)), pair_i(SymExpr::Const(1), SymExpr::Const(1000))).unwrap();
        let cap = capacity(&l).unwrap();
        for (mv, want) in [(10, 4000), (5000, 5000), (4000, 4000)] {
            assert_eq!(cap.eval(&HashMap::from([("m".to_string(), mv)])).unwrap(), want);
        }
        let two =
            Layout::new(pair_i(m.clone(), SymExpr::sym("n")), pair_i(SymExpr::sym("n"), SymExpr::Const(1))).unwrap();
        let cap = capacity(&two).unwrap();
        assert_eq!(cap.eval(&HashMap::from([("m".to_string(), 3), ("n".to_string(), 7)])).unwrap(), 21);
    }

    #[test]
    fn conv_patterns() {
        check(NCHW, 1, &[2, 3, 4, 5], "(2,3,4,5):(60,20,5,1)");
        check(NHWC, 1, &[2, 4, 5, 3], "(2,4,5,3):(60,15,3,1)");
        check(NC1HWC0, 1, &[2, 3, 4, 5, 16], "(2,3,4,5,16):(960,320,80,16,1)");
        assert_eq!(
            frame(NC1HWC0, ElementType::I8, &[2, 3, 4, 5]).unwrap().to_string(),
            "(2,3,4,5,32):(1920,640,160,32,1)"
        );
        assert!(frame_layout(NCHW, 1, &[1i64, 2, 3, 4, 5]).is_err());
        assert!(frame_layout(NHWC, 1, &[1i64, 2, 3]).is_err());
    }

    #[test]
    fn bad_input_is_a_typed_error() {
        assert!(matches!(frame_layout(NZ, 16, &[100i64]), Err(AlgebraError::Incompatible { .. })));
        assert!(matches!(frame_layout(NZ, 16, &[1i64, 2, 3, 4]), Err(AlgebraError::Incompatible { .. })));
        assert!(matches!(frame_layout(NZ, 16, &[0i64, 5]), Err(AlgebraError::NotPositive { .. })));
        assert!(matches!(frame_layout(ND, 1, &[-3i64, 5]), Err(AlgebraError::NotPositive { .. })));
        assert!(matches!(frame_layout(NZ, 16, &[0i64, 5, 5]), Err(AlgebraError::NotPositive { .. })));
        assert!(matches!(frame_layout(NZ, 0, &[5i64, 5]), Err(AlgebraError::NotPositive { .. })));
        assert!(matches!(frame_layout(NN, 2, &[15i64, 32]), Err(AlgebraError::Inadmissible { .. })));
        assert!(matches!(frame_layout(ScaleADN, 2, &[32i64, 15]), Err(AlgebraError::Inadmissible { .. })));
        assert!(matches!(frame_layout(ScaleBND, 2, &[15i64, 32]), Err(AlgebraError::Inadmissible { .. })));
        assert!(frame_layout(ScaleADN, 2, &[31i64, 16]).is_ok()); // only the divided dim must be even
        assert!(matches!(frame_layout(ScaleADN, 4, &[32i64, 16]), Err(AlgebraError::Inadmissible { .. })));
        assert!(matches!(frame_layout(L0C, 8, &[32i64, 16]), Err(AlgebraError::Inadmissible { .. })));
        assert!(matches!(frame_layout(NZ, 16, &[i64::MAX, 5]), Err(AlgebraError::Overflow { .. })));
        assert!(matches!(frame_layout(ND, 1, &[3i64 << 40, 1 << 40, 1 << 40]), Err(AlgebraError::Overflow { .. })));
    }
    #[test]
    fn conv_coordinates_place_every_logical_element_once() {
        // NCHW (2,37,3,5) -> NC1HWC0 with C0 = 16 (C1 = 3): a bijection onto the valid channels,
        // and the logical element agrees between NCHW, NHWC and NC1HWC0 (row-major products).
        let (n, c, h, w, c0) = (2i64, 37i64, 3i64, 5i64, 16i64);
        let c1 = (c + c0 - 1) / c0;
        let dst = frame_layout(NC1HWC0, c0, &[n, c1, h, w, c0]).unwrap();
        assert_eq!(conv_logical_extents(NC1HWC0, &[n, c1, h, w, c0]).unwrap(), [n, 48, h, w]);
        assert_eq!(conv_logical_extents(NHWC, &[n, h, w, c]).unwrap(), [n, c, h, w]);
        let mut seen = std::collections::HashSet::new();
        for x in 0..n {
            for ch in 0..c {
                for y in 0..h {
                    for z in 0..w {
                        let crd = conv_coordinate(NC1HWC0, &c0, &[x, ch, y, z]).unwrap();
                        assert_eq!(crd, vec![x, ch / c0, y, z, ch % c0]);
                        let off = dst.crd_to_offset(&dst.origin().unflatten(&crd).unwrap()).unwrap();
                        assert_eq!(off, (((x * c1 + ch / c0) * h + y) * w + z) * c0 + ch % c0);
                        assert!(seen.insert(off));
                        assert_eq!(conv_coordinate(NHWC, &c0, &[x, ch, y, z]).unwrap(), vec![x, y, z, ch]);
                        assert_eq!(conv_coordinate(NCHW, &c0, &[x, ch, y, z]).unwrap(), vec![x, ch, y, z]);
                    }
                }
            }
        }
        assert!(conv_coordinate(NZ, &16i64, &[0, 0, 0, 0]).is_err());
        assert!(conv_coordinate(NC1HWC0, &0i64, &[0, 0, 0, 0]).is_err());
        assert!(conv_coordinate(NC1HWC0, &16i64, &[0, 0, 0]).is_err());
        assert!(conv_logical_extents(NCHW, &[1i64, 2, 3]).is_err());
        assert!(conv_logical_extents(ND, &[1i64, 2]).is_err());
    }
}
