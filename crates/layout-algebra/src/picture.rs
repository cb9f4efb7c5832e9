//! Pictures of rank-2 layouts: the offset grid as text ([`table`], `layout-calc table`) and as
//! SVG ([`svg`], `layout-calc svg`, the Python package's `Layout.svg()`), written once here so
//! every front end draws the same thing.
//!
//! Both read the layout the same way ([`Grid`]): the cell `(i, j)` holds `L(i, j)`; cells at
//! `i ≥ origin_rows` or `j ≥ origin_cols` are padding (catlass origin shape, docs/layout-spec.md
//! §A.7). The SVG also outlines the *fractal blocks*: for a mode written `(inner, outer)` (the
//! `((r_in, r_out), (c_in, c_out))` form of every fractal pattern, §0.1) a block is
//! `r_in × c_in` cells; a flat mode has no inner block, so the whole mode is one block.

use crate::error::{AlgebraError, Result};
use crate::int_tuple::{IntTuple, Tuple};
use crate::layout::Layout;

/// Largest grid either picture draws (a bigger one is an error, not a huge string).
pub const MAX_CELLS: i64 = 1 << 20;

/// The offsets of a rank-2 layout, row by row, with the valid (origin) extent and block size.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Grid {
    pub rows: i64,
    pub cols: i64,
    pub valid_rows: i64,
    pub valid_cols: i64,
    /// Rows and columns of one fractal block (the inner extent of each mode).
    pub block_rows: i64,
    pub block_cols: i64,
    /// `offsets[i][j] = L(i, j)`.
    pub offsets: Vec<Vec<i64>>,
}

impl Grid {
    pub fn new(layout: &Layout) -> Result<Grid> {
        if layout.rank() != 2 {
            return Err(AlgebraError::Invalid(format!(
                "a picture needs a rank-2 layout, got rank {} `{layout}`",
                layout.rank()
            )));
        }
        let (row_mode, col_mode) = (layout.mode(0)?, layout.mode(1)?);
        let rows = row_mode.size()?;
        let cols = col_mode.size()?;
        if rows.saturating_mul(cols) > MAX_CELLS {
            return Err(AlgebraError::Invalid(format!("a picture of {rows}x{cols} cells is too large to draw")));
        }
        let (valid_rows, valid_cols) = match layout.origin() {
            Tuple::Tuple(o) if o.len() == 2 => (o[0].size()?, o[1].size()?),
            _ => (rows, cols),
        };
        // L(i, j) = L0(i) + L1(j): the layout function is the sum of its modes' (coord.rs).
        let row_offsets = (0..rows).map(|i| row_mode.crd_to_offset(&IntTuple::Int(i))).collect::<Result<Vec<_>>>()?;
        let col_offsets = (0..cols).map(|j| col_mode.crd_to_offset(&IntTuple::Int(j))).collect::<Result<Vec<_>>>()?;
        let offsets = row_offsets
            .iter()
            .map(|r| {
                col_offsets
                    .iter()
                    .map(|c| {
                        r.checked_add(*c).ok_or_else(|| AlgebraError::Overflow {
                            op: "picture offset",
                            sym: "+",
                            lhs: r.to_string(),
                            rhs: c.to_string(),
                        })
                    })
                    .collect()
            })
            .collect::<Result<Vec<Vec<i64>>>>()?;
        Ok(Grid {
            rows,
            cols,
            valid_rows,
            valid_cols,
            block_rows: inner_extent(layout.shape().get(0)?, rows),
            block_cols: inner_extent(layout.shape().get(1)?, cols),
            offsets,
        })
    }

    fn valid(&self, i: i64, j: i64) -> bool {
        i < self.valid_rows && j < self.valid_cols
    }
}

/// The extent of a mode's inner block: its first leaf when it is `(inner, ...)`, else the mode.
fn inner_extent(mode: &IntTuple, whole: i64) -> i64 {
    match mode {
        Tuple::Tuple(c) if c.len() > 1 => c[0].size().unwrap_or(whole).max(1),
        _ => whole.max(1),
    }
}

/// The text grid (`layout-calc table EXPR`); padding in brackets.
///
/// ```text
/// (4,3):(1,4) origin (3,2)
/// 4x3 cells, origin 3x2; padding in [brackets]
///      0    1    2
/// 0    0    4  [ 8]
/// 1    1    5  [ 9]
/// 2    2    6  [10]
/// 3  [ 3] [ 7] [11]
/// ```
pub fn table(layout: &Layout) -> Result<String> {
    let grid = Grid::new(layout)?;
    let (rows, cols) = (grid.rows, grid.cols);
    let width = grid
        .offsets
        .iter()
        .flatten()
        .map(|o| o.to_string().len())
        .chain([cols.saturating_sub(1).to_string().len()])
        .max()
        .unwrap_or(1);
    let label = rows.saturating_sub(1).to_string().len();
    let mut out = format!("{layout}\n");
    let padding = rows > grid.valid_rows || cols > grid.valid_cols;
    out.push_str(&format!(
        "{rows}x{cols} cells, origin {}x{}{}\n",
        grid.valid_rows,
        grid.valid_cols,
        if padding { "; padding in [brackets]" } else { "" }
    ));
    out.push_str(&" ".repeat(label + 1));
    for j in 0..cols {
        out.push_str(&format!("  {j:>width$} "));
    }
    trim_line_end(&mut out);
    for (i, line) in grid.offsets.iter().enumerate() {
        out.push_str(&format!("{i:>label$} "));
        for (j, offset) in line.iter().enumerate() {
            if grid.valid(i as i64, j as i64) {
                out.push_str(&format!("  {offset:>width$} "));
            } else {
                out.push_str(&format!(" [{offset:>width$}]"));
            }
        }
        trim_line_end(&mut out);
    }
    Ok(out)
}

fn trim_line_end(out: &mut String) {
    out.truncate(out.trim_end_matches(' ').len());
    out.push('\n');
}

/// Cell size of the SVG in pixels, and the margin that holds the row/column labels.
const CELL: i64 = 28;
const MARGIN: i64 = 24;

/// Background colours of valid cells, one per fractal block in a checkerboard (so neighbouring
/// blocks differ, as CuTe's `print_svg` colours by value), and of padding cells.
const BLOCK_FILLS: [&str; 2] = ["#dbe9f6", "#fbe3c8"];
const PADDING_FILL: &str = "#d9d9d9";

/// The offset grid as a standalone SVG document: one `<rect class="cell">` and one
/// `<text class="offset">` per cell (padding cells have class `cell padding`), one
/// `<rect class="block">` per fractal block, and, when the origin is smaller than the shape,
/// one `<rect class="origin">` (dashed) around the valid extent. The title is the layout as
/// `layout-calc` prints it.
pub fn svg(layout: &Layout) -> Result<String> {
    let grid = Grid::new(layout)?;
    let (width, height) = (MARGIN + grid.cols * CELL + 2, MARGIN + grid.rows * CELL + 2);
    let mut out = String::new();
    out.push_str(&format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width}\" height=\"{height}\" \
         viewBox=\"0 0 {width} {height}\" font-family=\"monospace\" font-size=\"10\">\n"
    ));
    out.push_str(&format!("<title>{}</title>\n", escape(&layout.to_string())));
    for j in 0..grid.cols {
        let x = MARGIN + j * CELL + CELL / 2;
        out.push_str(&format!(
            "<text class=\"label\" x=\"{x}\" y=\"{}\" text-anchor=\"middle\">{j}</text>\n",
            MARGIN - 8
        ));
    }
    for i in 0..grid.rows {
        let y = MARGIN + i * CELL + CELL / 2 + 4;
        out.push_str(&format!("<text class=\"label\" x=\"{}\" y=\"{y}\" text-anchor=\"end\">{i}</text>\n", MARGIN - 4));
    }
    for (i, line) in grid.offsets.iter().enumerate() {
        let i = i as i64;
        for (j, offset) in line.iter().enumerate() {
            let j = j as i64;
            let (x, y) = (MARGIN + j * CELL, MARGIN + i * CELL);
            let (class, fill) = if grid.valid(i, j) {
                ("cell", BLOCK_FILLS[((i / grid.block_rows + j / grid.block_cols) % 2) as usize])
            } else {
                ("cell padding", PADDING_FILL)
            };
            out.push_str(&format!(
                "<rect class=\"{class}\" x=\"{x}\" y=\"{y}\" width=\"{CELL}\" height=\"{CELL}\" fill=\"{fill}\" \
                 stroke=\"#808080\" stroke-width=\"0.5\"/>\n"
            ));
            out.push_str(&format!(
                "<text class=\"offset\" x=\"{}\" y=\"{}\" text-anchor=\"middle\">{offset}</text>\n",
                x + CELL / 2,
                y + CELL / 2 + 4
            ));
        }
    }
    for bi in (0..grid.rows).step_by(grid.block_rows as usize) {
        for bj in (0..grid.cols).step_by(grid.block_cols as usize) {
            let h = grid.block_rows.min(grid.rows - bi);
            let w = grid.block_cols.min(grid.cols - bj);
            out.push_str(&format!(
                "<rect class=\"block\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"none\" stroke=\"#000000\" \
                 stroke-width=\"2\"/>\n",
                MARGIN + bj * CELL,
                MARGIN + bi * CELL,
                w * CELL,
                h * CELL
            ));
        }
    }
    if grid.valid_rows < grid.rows || grid.valid_cols < grid.cols {
        out.push_str(&format!(
            "<rect class=\"origin\" x=\"{MARGIN}\" y=\"{MARGIN}\" width=\"{}\" height=\"{}\" fill=\"none\" \
             stroke=\"#d62728\" stroke-width=\"2.5\" stroke-dasharray=\"6,3\"/>\n",
            grid.valid_cols.min(grid.cols) * CELL,
            grid.valid_rows.min(grid.rows) * CELL
        ));
    }
    out.push_str("</svg>\n");
    Ok(out)
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ascend::{frame, ElementType, FramePattern};
    use crate::parse_layout;

    fn count(text: &str, needle: &str) -> usize {
        text.matches(needle).count()
    }

    #[test]
    fn table_marks_padding_in_brackets() {
        let t = table(&parse_layout("(4,3):(1,4) origin (3,2)").unwrap()).unwrap();
        assert_eq!(
            t,
            "(4,3):(1,4) origin (3,2)\n4x3 cells, origin 3x2; padding in [brackets]\n     0    1    2\n\
             0    0    4  [ 8]\n1    1    5  [ 9]\n2    2    6  [10]\n3  [ 3] [ 7] [11]\n"
        );
    }

    /// NZ f16 of 20x20: 32x32 cells, 2x2 fractal blocks of 16x16, origin 20x20; every offset of
    /// the layout is printed once, in the cell of its coordinate.
    #[test]
    fn svg_of_an_nz_tail_has_every_cell_block_and_the_origin() {
        let l = frame(FramePattern::NZ, ElementType::F16, &[20, 20]).unwrap();
        let s = svg(&l).unwrap();
        assert_eq!(count(&s, "<rect class=\"cell"), 32 * 32);
        assert_eq!(count(&s, "<rect class=\"cell padding\""), 32 * 32 - 20 * 20);
        assert_eq!(count(&s, "<rect class=\"block\""), 4);
        assert_eq!(count(&s, "<rect class=\"block\" x=\"24\" y=\"24\" width=\"448\" height=\"448\""), 1);
        assert_eq!(count(&s, "<rect class=\"origin\" x=\"24\" y=\"24\" width=\"560\" height=\"560\""), 1);
        // (17, 3) is in the second row block: 256 + 1*16 + 3 = 275, drawn at column 3, row 17.
        let x = 24 + 3 * 28 + 14;
        let y = 24 + 17 * 28 + 18;
        assert!(s.contains(&format!("<text class=\"offset\" x=\"{x}\" y=\"{y}\" text-anchor=\"middle\">275</text>")));
        let mut printed: Vec<i64> = s
            .lines()
            .filter(|l| l.starts_with("<text class=\"offset\""))
            .map(|l| l.split('>').nth(1).unwrap().split('<').next().unwrap().parse().unwrap())
            .collect();
        printed.sort();
        assert_eq!(printed, (0..32 * 32).collect::<Vec<i64>>());
        assert!(s.contains("<title>((16,2),(16,2)):((16,256),(1,512)) origin (20,20)</title>"));
    }

    #[test]
    fn svg_of_a_flat_layout_is_one_block_without_origin_marker() {
        let s = svg(&parse_layout("(2,3):(3,1)").unwrap()).unwrap();
        assert_eq!(count(&s, "<rect class=\"cell\""), 6);
        assert_eq!(count(&s, "<rect class=\"block\""), 1);
        assert_eq!(count(&s, "class=\"origin\""), 0);
    }

    #[test]
    fn pictures_reject_other_ranks_and_huge_grids() {
        let e = svg(&parse_layout("(2,3,4):(1,2,6)").unwrap()).unwrap_err().to_string();
        assert!(e.contains("rank-2"), "{e}");
        let e = table(&parse_layout("(4096,4096):(1,4096)").unwrap()).unwrap_err().to_string();
        assert!(e.contains("too large"), "{e}");
    }
}
