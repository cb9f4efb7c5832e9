//! Operands of an intrinsic: a layout (usually a `tile_layout` of the whole tensor), the tile's
//! coordinate in that layout's logical space, and the byte address of the tensor in its buffer.
//!
//! All layout facts come from the algebra: the offset is `crd_to_offset(coord)`, the valid
//! extent is the origin (catlass originShape), strides and shapes are leaves of the layout,
//! the pattern and C0 come from `recognize`.

use layout_algebra::ascend::{frame_layout, recognize, FramePattern};
use layout_algebra::{IndexValue, Layout, Tuple};

use crate::error::{ParamError, Result};

/// One operand of an intrinsic.
#[derive(Clone, Debug)]
pub struct Operand<'a, V = i64> {
    /// The operand's layout. For a tile of a larger tensor pass `tile_layout(parent, tile,
    /// coord)`, whose origin is the tile's valid (clipped) extent.
    pub layout: &'a Layout<V>,
    /// The tile's top-left logical coordinate in `layout` (`(0,0)` for a whole buffer).
    pub coord: [V; 2],
    /// Byte address of the layout's offset 0 inside its buffer (for alignment checks).
    pub base_bytes: V,
    /// The layout of the whole buffer, when `layout` is a view of it written from its start
    /// (an L0 operand whose valid K is a tail of the buffer's): what a derivation may write past
    /// `layout` without leaving the buffer (`None`: nothing past it).
    pub buffer_layout: Option<&'a Layout<V>>,
}

impl<'a, V: IndexValue> Operand<'a, V> {
    /// The whole layout at `(0,0)`, at address 0 of its buffer.
    pub fn new(layout: &'a Layout<V>) -> Self {
        Operand { layout, coord: [V::constant(0), V::constant(0)], base_bytes: V::constant(0), buffer_layout: None }
    }

    /// The operand written from the start of a buffer laid out as `buffer`.
    pub fn in_buffer(mut self, buffer: &'a Layout<V>) -> Self {
        self.buffer_layout = Some(buffer);
        self
    }

    pub fn at(mut self, row: V, col: V) -> Self {
        self.coord = [row, col];
        self
    }

    pub fn with_base(mut self, base_bytes: V) -> Self {
        self.base_bytes = base_bytes;
        self
    }

    /// Element offset of the tile's first element: `layout.crd_to_offset(coord)`.
    pub fn offset(&self) -> Result<V> {
        Ok(self
            .layout
            .crd_to_offset(&Tuple::Tuple(vec![Tuple::Int(self.coord[0].clone()), Tuple::Int(self.coord[1].clone())]))?)
    }

    /// Valid extent of mode `i` (the layout's origin).
    pub fn extent(&self, i: usize) -> Result<V> {
        leaf(self.layout.origin(), &[i])
    }
}

/// The leaf at `path` of a tuple (error if it is a tuple).
pub(crate) fn leaf<V: IndexValue>(t: &Tuple<V>, path: &[usize]) -> Result<V> {
    let node = t.get_path(path)?;
    node.as_int().cloned().ok_or_else(|| ParamError::Layout {
        instr: "layout",
        detail: format!("expected an integer at {path:?} of {t}, got {node}"),
    })
}

/// A rank-2 fractal layout `((r_in, r_out), (c_in, c_out)) : ((dr_in, dr_out), (dc_in, dc_out))`
/// seen through its recognized pattern.
#[derive(Clone, Debug)]
pub(crate) struct Fractal<V> {
    pub pattern: FramePattern,
    pub c0: i64,
    /// `[r_in, r_out, c_in, c_out]` shapes and strides.
    pub shape: [V; 4],
    pub stride: [V; 4],
}

impl<V: IndexValue> Fractal<V> {
    pub fn of(instr: &'static str, role: &'static str, layout: &Layout<V>, allowed: &[FramePattern]) -> Result<Self> {
        let err = || ParamError::Layout {
            instr,
            detail: format!(
                "{role} must be one of {:?} (single matrix), got {layout}",
                allowed.iter().map(|p| p.name()).collect::<Vec<_>>()
            ),
        };
        let found = match recognize(layout).filter(|r| !r.batched) {
            Some(r) if allowed.contains(&r.pattern) => (r.pattern, r.c0),
            // A layout with single-fractal outer modes matches several templates (one 16×C0
            // fractal is NZ and ZZ at once); recognition names the first, so try the others.
            _ => allowed.iter().find_map(|&p| degenerate_match(layout, p)).ok_or_else(err)?,
        };
        let get = |t: &Tuple<V>| -> Result<[V; 4]> {
            Ok([leaf(t, &[0, 0])?, leaf(t, &[0, 1])?, leaf(t, &[1, 0])?, leaf(t, &[1, 1])?])
        };
        Ok(Fractal { pattern: found.0, c0: found.1, shape: get(layout.shape())?, stride: get(layout.stride())? })
    }

    /// Elements in one inner block (`r_in · c_in`, 512 B for the L1/L0A/L0B fractals).
    pub fn block_elems(&self) -> Option<i64> {
        Some(self.shape[0].as_constant()? * self.shape[2].as_constant()?)
    }

    /// Inner block stored row-major (NZ, ZZ) rather than column-major (ZN, NN).
    pub fn inner_row_major(&self) -> bool {
        self.stride[2].is_constant(1)
    }
}

/// Whether a static layout equals `frame_layout(pattern, c0, [rows, cols])` (its own padded
/// extent), ignoring the strides of extent-1 modes, which address nothing. Returns C0.
fn degenerate_match<V: IndexValue>(layout: &Layout<V>, pattern: FramePattern) -> Option<(FramePattern, i64)> {
    let c0 = leaf(layout.shape(), &[pattern.c0_axis()?, 0]).ok()?.as_constant()?;
    let rows = layout.mode(0).ok()?.size().ok()?.as_constant()?;
    let cols = layout.mode(1).ok()?.size().ok()?.as_constant()?;
    let want = frame_layout(pattern, c0, &[V::constant(rows), V::constant(cols)]).ok()?;
    layout.same_function(&want).then_some((pattern, c0))
}

/// A flat rank-2 row-major layout `(rows, cols) : (ld, 1)` (ND).
pub(crate) fn row_stride_nd<V: IndexValue>(instr: &'static str, role: &'static str, layout: &Layout<V>) -> Result<V> {
    match recognize(layout) {
        Some(r) if r.pattern == FramePattern::ND && !r.batched => leaf(layout.stride(), &[0]),
        _ => Err(ParamError::Layout { instr, detail: format!("{role} must be a row-major (ND) matrix, got {layout}") }),
    }
}

/// The same memory seen with rows and columns swapped: DN(M,N) of X is ND(N,M) of Xᵀ, ZN(M,N)
/// is NZ(N,M) of Xᵀ (docs/layout-spec.md §1 transpose pairs). Swaps the two top-level modes and the origin.
pub fn transposed<V: IndexValue>(layout: &Layout<V>) -> Result<Layout<V>> {
    let swap = |t: &Tuple<V>| -> Result<Tuple<V>> {
        match t {
            Tuple::Tuple(m) if m.len() == 2 => Ok(Tuple::Tuple(vec![m[1].clone(), m[0].clone()])),
            _ => Err(ParamError::Layout { instr: "transpose", detail: format!("expected a rank-2 layout, got {t}") }),
        }
    };
    let origin = match layout.origin() {
        o @ Tuple::Tuple(_) => swap(o)?,
        o => o.clone(),
    };
    Ok(Layout::with_origin(swap(layout.shape())?, swap(layout.stride())?, origin)?)
}
