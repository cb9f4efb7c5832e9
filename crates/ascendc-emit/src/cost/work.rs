//! What one intrinsic call does, in the units its pipe's duration is computed from: bytes for
//! the transfer pipes (MTE2, MTE1, FIX), the MAC grid for the cube. Read from the call's
//! parameter-struct fields (units: `ascendc_params::decl`).

use crate::cpp::elem_bytes;
use crate::error::{EmitError, Located};
use crate::kernel::{Call, Kernel, Kind};

/// The work of one call.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Work {
    /// Bytes moved.
    Bytes(i64),
    /// `Mmad`: the padded `m x n` output grid, the valid reduction extent `k`, and the A/B
    /// element type.
    Macs { m: i64, n: i64, k: i64, elem: String },
}

/// Bytes of a 512 B fractal (16 rows of 32 B), the unit of `LoadData`.
const FRACTAL_BYTES: i64 = 512;
/// Bytes of a 32 B block, the unit of `DataCopyParams`.
const BLOCK_BYTES: i64 = 32;

/// The work of `call`; `field` gives the value of an integer field for this execution.
pub fn work_of(kernel: &Kernel, call: &Call, field: &dyn Fn(&str) -> Result<i64, Located>) -> Result<Work, Located> {
    let at = |e: EmitError| e.at(call.at.clone());
    let elem = |i: usize| -> Result<String, Located> {
        let b = call.bufs.get(i).and_then(|b| kernel.bufs.get(*b));
        b.map(|b| b.elem.clone()).ok_or_else(|| at(EmitError::Malformed(format!("{:?}: no operand {i}", call.kind))))
    };
    let product = |factors: &[i64]| -> Result<i64, Located> {
        let mut p: i64 = 1;
        for f in factors {
            p = p.checked_mul((*f).max(0)).ok_or_else(|| {
                at(EmitError::CostEval(format!("{:?}: the bytes moved by one call overflow i64", call.kind)))
            })?;
        }
        Ok(p)
    };
    Ok(match call.kind {
        Kind::DataCopyNd2Nz => {
            let bytes = elem_bytes(&elem(0)?).map_err(at)?;
            Work::Bytes(product(&[field("ndNum")?, field("nValue")?, field("dValue")?, bytes])?)
        }
        Kind::DataCopy => Work::Bytes(product(&[field("blockCount")?, field("blockLen")?, BLOCK_BYTES])?),
        Kind::LoadData2D => Work::Bytes(product(&[field("repeatTimes")?, FRACTAL_BYTES])?),
        Kind::LoadData2DV2 => Work::Bytes(product(&[field("mStep")?, field("kStep")?, FRACTAL_BYTES])?),
        // One repeat is a 32 x 32 square: two fractals.
        Kind::LoadDataWithTranspose => Work::Bytes(product(&[field("repeatTimes")?, 2 * FRACTAL_BYTES])?),
        Kind::Mmad => Work::Macs { m: field("m")?, n: field("n")?, k: field("k")?, elem: elem(1)? },
        Kind::FixpipeNz2Nd | Kind::FixpipeNz2Nz => {
            let bytes = elem_bytes(&elem(0)?).map_err(at)?;
            Work::Bytes(product(&[field("ndNum")?, field("mSize")?, field("nSize")?, bytes])?)
        }
    })
}
