//! Which frame pattern a plain `shape:stride` layout is (AscendC Te `GetLayoutPattern`,
//! docs/layout-spec.md §A.4 "Pattern inference"), plus the catlass recognition predicates (docs/layout-spec.md §A.3).

use super::frame::{FramePattern, FRACTAL_ROWS, MX_SCALE_K0};
use crate::domain::IndexValue;
use crate::int_tuple::Tuple;
use crate::layout::Layout;

/// The result of [`recognize`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Recognized {
    pub pattern: FramePattern,
    /// The inferred C0: `shape<1,0>` for NZ/ZZ/ScaleADN, `shape<0,0>` for ZN/NN/ScaleBND,
    /// 1 for ND/DN/NDExt/DNExt.
    pub c0: i64,
    /// `(B, L)` with `L` the recognized single-matrix layout (the batch stride is not checked).
    pub batched: bool,
}

/// `NZ(c0=16)`, or `batch(ND(c0=1))` for a batched layout: how `layout-calc pattern(L)` and the
/// Python package's `pattern(L)` print a recognized layout.
impl std::fmt::Display for Recognized {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.batched {
            write!(f, "batch({}(c0={}))", self.pattern.name(), self.c0)
        } else {
            write!(f, "{}(c0={})", self.pattern.name(), self.c0)
        }
    }
}

/// The four leaves of a `((a,b),(c,d))` tuple.
fn quad<T: Clone>(t: &Tuple<T>) -> Option<[T; 4]> {
    match t {
        Tuple::Tuple(m) if m.len() == 2 => match (&m[0], &m[1]) {
            (Tuple::Tuple(x), Tuple::Tuple(y)) if x.len() == 2 && y.len() == 2 => {
                Some([x[0].as_int()?.clone(), x[1].as_int()?.clone(), y[0].as_int()?.clone(), y[1].as_int()?.clone()])
            }
            _ => None,
        },
        _ => None,
    }
}

/// The two leaves of a flat `(a,b)` tuple.
fn flat_pair<T: Clone>(t: &Tuple<T>) -> Option<[T; 2]> {
    match t {
        Tuple::Tuple(m) if m.len() == 2 => Some([m[0].as_int()?.clone(), m[1].as_int()?.clone()]),
        _ => None,
    }
}

fn is<T: IndexValue>(v: &T, k: i64) -> bool {
    v.is_constant(k)
}

/// Static and positive.
fn pos<T: IndexValue>(v: &T) -> Option<i64> {
    v.as_constant().filter(|&x| x > 0)
}

/// Pattern of a single (non-batched) depth-2 or flat rank-2 layout.
fn recognize_single<T: IndexValue>(shape: &Tuple<T>, stride: &Tuple<T>) -> Option<Recognized> {
    use FramePattern::*;
    let found = |pattern, c0| Some(Recognized { pattern, c0, batched: false });
    if let (Some([s00, _r, s10, _c]), Some([d00, d01, d10, d11])) = (quad(shape), quad(stride)) {
        let f = FRACTAL_ROWS;
        // 1. NDExt ((1,R),(1,C)):((0,Sr),(0,1))
        if is(&s00, 1) && is(&s10, 1) && is(&d00, 0) && is(&d10, 0) && is(&d11, 1) {
            return found(NDExt, 1);
        }
        // 2. DNExt ((1,R),(1,C)):((0,1),(0,Sc))
        if is(&s00, 1) && is(&s10, 1) && is(&d00, 0) && is(&d01, 1) && is(&d10, 0) {
            return found(DNExt, 1);
        }
        // 3. NN ((2,R),(16,C)):((1,32),(2,Sc))
        let k0 = MX_SCALE_K0;
        if is(&s00, k0) && is(&s10, f) && is(&d00, 1) && is(&d01, k0 * f) && is(&d10, k0) {
            return found(NN, k0);
        }
        // 4. NZ ((16,R),(c,C)):((c,16c),(1,Sc))
        if let Some(c) = pos(&s10) {
            if is(&s00, f) && is(&d00, c) && c.checked_mul(f).is_some_and(|fc| is(&d01, fc)) && is(&d10, 1) {
                return found(NZ, c);
            }
            // 5. ZZ ((16,R),(c,C)):((c,Sr),(1,16c))
            if is(&s00, f) && is(&d00, c) && is(&d10, 1) && c.checked_mul(f).is_some_and(|fc| is(&d11, fc)) {
                return found(ZZ, c);
            }
        }
        // 6. ZN ((r,R),(16,C)):((1,Sr),(r,16r))
        if let Some(r) = pos(&s00) {
            if is(&s10, f) && is(&d00, 1) && is(&d10, r) && r.checked_mul(f).is_some_and(|fr| is(&d11, fr)) {
                return found(ZN, r);
            }
        }
        // 7. ScaleADN ((1,R),(2,C)):((0,2),(1,Sc))
        if is(&s00, 1) && is(&s10, k0) && is(&d00, 0) && is(&d01, k0) && is(&d10, 1) {
            return found(ScaleADN, k0);
        }
        // 8. ScaleBND ((2,R),(1,C)):((1,Sr),(0,2))
        if is(&s00, k0) && is(&s10, 1) && is(&d00, 1) && is(&d10, 0) && is(&d11, k0) {
            return found(ScaleBND, k0);
        }
        // Extension beyond Te: catlass nN with any C0, ((c,R),(16,C)):((1,16c),(c,Sc)).
        if let Some(c) = pos(&s00) {
            if is(&s10, f) && is(&d00, 1) && c.checked_mul(f).is_some_and(|fc| is(&d01, fc)) && is(&d10, c) {
                return found(NN, c);
            }
        }
        return None;
    }
    if let (Some(_), Some([d0, d1])) = (flat_pair(shape), flat_pair(stride)) {
        if is(&d1, 1) {
            return found(ND, 1);
        }
        if is(&d0, 1) {
            return found(DN, 1);
        }
    }
    None
}

/// Infers the frame pattern of a layout, in the priority order of AscendC Te
/// `GetLayoutPattern` (docs/layout-spec.md §A.4), matching the *constant* entries of each template (the
/// entries written `R`, `C`, `Sr`, `Sc` are free and may be symbolic):
///
/// 1. NDExt `((1,R),(1,C)):((0,Sr),(0,1))`; 2. DNExt `((1,R),(1,C)):((0,1),(0,Sc))`;
/// 3. NN `((2,R),(16,C)):((1,32),(2,Sc))`; 4. NZ `((16,R),(c,C)):((c,16c),(1,Sc))`;
/// 5. ZZ `((16,R),(c,C)):((c,Sr),(1,16c))`; 6. ZN `((r,R),(16,C)):((1,Sr),(r,16r))`;
/// 7. ScaleADN `((1,R),(2,C)):((0,2),(1,Sc))`; 8. ScaleBND `((2,R),(1,C)):((1,Sr),(0,2))`;
///
/// then (an extension, tried after all Te templates) catlass `nN` with any C0
/// `((c,R),(16,C)):((1,16c),(c,Sc))`.
/// Flat rank 2: stride `(x,1)` ⇒ ND, `(1,x)` ⇒ DN (`(1,1)` ⇒ ND). `(B, L)` with `L` one of the
/// above ⇒ that pattern with `batched = true` (batch stride unchecked).
///
/// Patterns that share a template with an earlier one come out as the earlier one:
/// ScaleAND ≡ NDExt, ScaleBDN ≡ DNExt, L0C ≡ NZ with C0 = 16. Rank-1 layouts, conv layouts
/// and everything else ⇒ `None`.
///
/// Examples: `((16,2),(16,3)):((16,256),(1,512))` ⇒ NZ, C0 16;
/// `((2,4),(16,3)):((1,32),(2,128))` ⇒ NN, C0 2; `(4,5):(1,4)` ⇒ DN; `(4,5):(4,5)` ⇒ None.
pub fn recognize<T: IndexValue>(layout: &Layout<T>) -> Option<Recognized> {
    if let Some(r) = recognize_single(layout.shape(), layout.stride()) {
        return Some(r);
    }
    match (layout.shape(), layout.stride()) {
        (Tuple::Tuple(s), Tuple::Tuple(d)) if s.len() == 2 && d.len() == 2 && s[0].is_int() && !s[1].is_int() => {
            recognize_single(&s[1], &d[1]).map(|r| Recognized { batched: true, ..r })
        }
        _ => None,
    }
}

/// The catlass `detail::is*` predicates (docs/layout-spec.md §A.3), named exactly as in catlass so the letter
/// order reads the catlass way: `is_zN` is AscendC **NZ**, `is_nZ` is AscendC **ZN**,
/// `is_zZ` is ZZ. Fractal predicates require a rank-2, depth-2 layout whose modes are pairs.
#[allow(non_snake_case)]
pub mod catlass {
    use super::{flat_pair, is, quad};
    use crate::domain::IndexValue;
    use crate::layout::Layout;

    fn fractal<T: IndexValue>(l: &Layout<T>) -> Option<([T; 4], [T; 4])> {
        if l.rank() != 2 || l.depth() != 2 {
            return None;
        }
        Some((quad(l.shape())?, quad(l.stride())?))
    }

    /// `shape<0,0> == 16 && shape<1,0> == C0 && stride<1,0> == 1 && stride<0,1> == 16·C0`.
    /// Example: `is_zN(((16,7),(16,7)):((16,256),(1,1792)), 16)` is true.
    pub fn is_zN<T: IndexValue>(l: &Layout<T>, c0: i64) -> bool {
        fractal(l).is_some_and(|([s00, _, s10, _], [_, d01, d10, _])| {
            is(&s00, 16) && is(&s10, c0) && is(&d10, 1) && c0.checked_mul(16).is_some_and(|f| is(&d01, f))
        })
    }

    /// `shape<0,0> == 16 && shape<1,0> == C0 && stride<1,0> == 1 && stride<1,1> == 16·C0`.
    pub fn is_zZ<T: IndexValue>(l: &Layout<T>, c0: i64) -> bool {
        fractal(l).is_some_and(|([s00, _, s10, _], [_, _, d10, d11])| {
            is(&s00, 16) && is(&s10, c0) && is(&d10, 1) && c0.checked_mul(16).is_some_and(|f| is(&d11, f))
        })
    }

    /// `shape<0,0> == C0 && shape<1,0> == 16 && stride<0,0> == 1 && stride<1,1> == 16·C0`.
    pub fn is_nZ<T: IndexValue>(l: &Layout<T>, c0: i64) -> bool {
        fractal(l).is_some_and(|([s00, _, s10, _], [d00, _, _, d11])| {
            is(&s00, c0) && is(&s10, 16) && is(&d00, 1) && c0.checked_mul(16).is_some_and(|f| is(&d11, f))
        })
    }

    /// zN whose rows are not 16-aligned, shape `((M,1),(C0,N/C0))`:
    /// `shape<0,1> == 1 && shape<1,0> == C0 && stride<0,0> == C0 && stride<1,0> == 1`.
    pub fn is_zN_unaligned<T: IndexValue>(l: &Layout<T>, c0: i64) -> bool {
        fractal(l).is_some_and(|([_, s01, s10, _], [d00, _, d10, _])| {
            is(&s01, 1) && is(&s10, c0) && is(&d00, c0) && is(&d10, 1)
        })
    }

    /// Depth 1, rank 2, `stride<1> == 1`.
    pub fn is_row_major<T: IndexValue>(l: &Layout<T>) -> bool {
        l.depth() == 1 && flat_pair(l.stride()).is_some_and(|[_, d1]| is(&d1, 1))
    }

    /// Depth 1, rank 2, `stride<0> == 1`.
    pub fn is_column_major<T: IndexValue>(l: &Layout<T>) -> bool {
        l.depth() == 1 && flat_pair(l.stride()).is_some_and(|[d0, _]| is(&d0, 1))
    }

    /// Rank 1, `stride<0> == 1` (an integer shape or a 1-tuple).
    pub fn is_vector<T: IndexValue>(l: &Layout<T>) -> bool {
        l.rank() == 1 && l.depth() <= 1 && l.stride().leaves().len() == 1 && is(&l.stride().leaves()[0], 1)
    }
}

#[cfg(test)]
mod tests {
    use super::catlass::*;
    use super::FramePattern::*;
    use super::*;
    use crate::ascend::{frame, frame_c0, frame_layout, ElementType, ALL_FRAME_PATTERNS};
    use crate::parse::parse_layout;

    fn rec(s: &str) -> Option<(FramePattern, i64, bool)> {
        recognize(&parse_layout(s).unwrap()).map(|r| (r.pattern, r.c0, r.batched))
    }

    #[test]
    fn te_static_asserts() {
        // docs/layout-spec.md §A.8, test_tensor_api_layout.cpp
        assert_eq!(rec("((16,2),(16,3)):((16,256),(1,512))"), Some((NZ, 16, false)));
        assert_eq!(rec("((16,2),(16,3)):((1,512),(16,256))"), Some((ZN, 16, false)));
        assert_eq!(rec("((16,2),(16,3)):((16,512),(1,256))"), Some((ZZ, 16, false)));
        assert_eq!(rec("((2,4),(16,3)):((1,32),(2,128))"), Some((NN, 2, false)));
        assert_eq!(rec("((1,4),(1,5)):((0,5),(0,1))"), Some((NDExt, 1, false)));
        assert_eq!(rec("((1,4),(1,5)):((0,1),(0,4))"), Some((DNExt, 1, false)));
        assert_eq!(rec("(4,5):(5,1)"), Some((ND, 1, false)));
        assert_eq!(rec("(4,5):(1,4)"), Some((DN, 1, false)));
        assert_eq!(rec("(4,5):(1,1)"), Some((ND, 1, false)));
        // batched
        assert_eq!(rec("(2,((16,2),(16,3))):(1536,((16,256),(1,512)))"), Some((NZ, 16, true)));
        assert_eq!(rec("(2,((2,4),(16,3))):(384,((1,32),(2,128)))"), Some((NN, 2, true)));
        assert_eq!(rec("(2,((1,4),(1,5))):(20,((0,5),(0,1)))"), Some((NDExt, 1, true)));
        assert_eq!(rec("(3,(4,5)):(5,(15,1))"), Some((ND, 1, true)));
        // no pattern
        assert_eq!(rec("(4,5):(4,5)"), None);
        assert_eq!(rec("((4,5),(8,9)):((2,3),(4,5))"), None);
        assert_eq!(rec("((1,4),(1,5)):((0,2),(1,8))"), None);
        assert_eq!(rec("16:1"), None);
        assert_eq!(rec("(2,3,4):(12,4,1)"), None);
        assert_eq!(rec("(2,(3,(4,5))):(60,(20,(5,1)))"), None);
    }

    #[test]
    fn stride_structure_matters_not_just_shapes() {
        // shapes of NZ with a broken inner stride, outer stride, or in-fractal row stride
        assert_eq!(rec("((16,2),(16,3)):((16,255),(1,512))"), None);
        assert_eq!(rec("((16,2),(16,3)):((8,256),(1,512))"), None);
        assert_eq!(rec("((16,2),(16,3)):((16,256),(2,512))"), None);
        assert_eq!(rec("((16,2),(8,3)):((16,256),(1,512))"), None);
    }

    #[test]
    fn every_frame_round_trips() {
        for dtype in
            [ElementType::F16, ElementType::F32, ElementType::I8, ElementType::F4E2M1FN, ElementType::F8E8M0FNU]
        {
            for p in ALL_FRAME_PATTERNS.iter().copied().filter(|p| p.is_matrix()) {
                let c0 = frame_c0(p, dtype).unwrap();
                // shapes where every outer count > 1 so templates are unambiguous
                for dims in [vec![256i64, 160], vec![3, 256, 160]] {
                    let l = frame_layout(p, c0, &dims).unwrap();
                    let r = recognize(&l).unwrap_or_else(|| panic!("{p} {dtype} {l}"));
                    let want = match p {
                        ScaleAND => (NDExt, 1),
                        ScaleBDN => (DNExt, 1),
                        L0C => (NZ, 16),
                        _ => (p, c0),
                    };
                    assert_eq!((r.pattern, r.c0, r.batched), (want.0, want.1, dims.len() == 3), "{p} {dtype} {l}");
                }
            }
        }
        // catlass nN with C0 = 16 (the 100x100 fp16 table)
        let nn = frame_layout(NN, 16, &[100i64, 100]).unwrap();
        assert_eq!(recognize(&nn), Some(Recognized { pattern: NN, c0: 16, batched: false }));
    }

    #[test]
    fn symbolic_outer_entries_are_free() {
        use crate::sym::SymExpr;
        let m = SymExpr::sym("m");
        let n = SymExpr::sym("n");
        for (p, c0) in [(NZ, 16), (ZN, 8), (ZZ, 32), (ND, 1), (DN, 1), (NDExt, 1), (DNExt, 1)] {
            let l = frame_layout(p, c0, &[m.clone(), n.clone()]).unwrap();
            let r = recognize(&l).unwrap_or_else(|| panic!("{p} {l}"));
            assert_eq!((r.pattern, r.c0), (p, c0), "{l}");
        }
    }

    #[test]
    fn catlass_predicates() {
        let f16 = ElementType::F16;
        let zn = frame(NZ, f16, &[100, 100]).unwrap();
        let nz = frame(ZN, f16, &[100, 100]).unwrap();
        let zz = frame(ZZ, f16, &[100, 100]).unwrap();
        assert!(is_zN(&zn, 16) && !is_zN(&nz, 16) && !is_zN(&zz, 16) && !is_zN(&zn, 8));
        assert!(is_nZ(&nz, 16) && !is_nZ(&zn, 16) && !is_nZ(&zz, 16));
        assert!(is_zZ(&zz, 16) && !is_zZ(&zn, 16) && !is_zZ(&nz, 16));
        let f32 = frame(NZ, ElementType::F32, &[100, 100]).unwrap();
        assert!(is_zN(&f32, 8));
        assert!(is_zN_unaligned(&parse_layout("((10,1),(16,4)):((16,160),(1,160))").unwrap(), 16));
        assert!(!is_zN_unaligned(&zn, 16));
        let rm = frame(ND, f16, &[8, 16]).unwrap();
        let cm = frame(DN, f16, &[8, 16]).unwrap();
        assert!(is_row_major(&rm) && !is_row_major(&cm) && is_column_major(&cm) && !is_column_major(&rm));
        assert!(!is_row_major(&zn) && !is_column_major(&zn));
        assert!(is_vector(&parse_layout("16:1").unwrap()) && is_vector(&parse_layout("(16):(1)").unwrap()));
        assert!(!is_vector(&parse_layout("16:2").unwrap()) && !is_vector(&rm));
    }
}
