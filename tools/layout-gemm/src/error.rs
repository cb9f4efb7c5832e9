//! The tool's errors.

use thiserror::Error;

#[derive(Debug, Error)]
pub enum GemmError {
    #[error(transparent)]
    Gen(#[from] gemm_gen::GenError),
    #[error("--{flag}: {reason}")]
    Flag { flag: &'static str, reason: String },
    /// The generated kernel did not verify or lower: a generator bug, reported with the kernel's
    /// diagnostics.
    #[error("the generated kernel does not {stage}:\n{diags}")]
    Kernel { stage: &'static str, diags: String },
    #[error("cannot write {0}: {1}")]
    Write(std::path::PathBuf, std::io::Error),
}
