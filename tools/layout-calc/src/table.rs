//! `layout-calc table EXPR`: the offset grid of a rank-2 layout, as drawn on paper.

use layout_algebra::{IntTuple, Layout, Tuple};

use crate::error::CalcError;

/// Renders rows × cols offsets. Cells outside the origin (padding) are shown in brackets.
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
pub fn render(layout: &Layout) -> Result<String, CalcError> {
    if layout.rank() != 2 {
        return Err(CalcError::Type(format!("table needs a rank-2 layout, got rank {}", layout.rank())));
    }
    let rows = layout.shape().get(0)?.size()?;
    let cols = layout.shape().get(1)?.size()?;
    if rows.saturating_mul(cols) > 1 << 20 {
        return Err(CalcError::Type(format!("table of {rows}x{cols} cells is too large to print")));
    }
    let (valid_rows, valid_cols) = match layout.origin() {
        Tuple::Tuple(o) if o.len() == 2 => (o[0].size()?, o[1].size()?),
        _ => (rows, cols),
    };
    let mut grid = Vec::with_capacity(rows as usize);
    for i in 0..rows {
        let mut line = Vec::with_capacity(cols as usize);
        for j in 0..cols {
            let offset = layout.crd_to_offset(&IntTuple::Tuple(vec![Tuple::Int(i), Tuple::Int(j)]))?;
            line.push((offset, i < valid_rows && j < valid_cols));
        }
        grid.push(line);
    }
    let width = grid
        .iter()
        .flatten()
        .map(|(o, _)| o.to_string().len())
        .chain([cols.saturating_sub(1).to_string().len()])
        .max()
        .unwrap_or(1);
    let label = rows.saturating_sub(1).to_string().len();
    let mut out = String::new();
    out.push_str(&format!("{layout}\n"));
    let padding = rows > valid_rows || cols > valid_cols;
    out.push_str(&format!(
        "{rows}x{cols} cells, origin {valid_rows}x{valid_cols}{}\n",
        if padding { "; padding in [brackets]" } else { "" }
    ));
    out.push_str(&" ".repeat(label + 1));
    for j in 0..cols {
        out.push_str(&format!("  {j:>width$} "));
    }
    trim_line_end(&mut out);
    for (i, line) in grid.iter().enumerate() {
        out.push_str(&format!("{i:>label$} "));
        for (offset, valid) in line {
            if *valid {
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
