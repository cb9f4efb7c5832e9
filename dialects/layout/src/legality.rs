//! The legality tables live in the MLIR-free algebra ([`layout_algebra::ascend::legality`]);
//! re-exported here so the verifier and lowerings keep one path.

pub use layout_algebra::ascend::legality::*;
