//! The C ABI of the CPU model (`model/ascendc_model_abi.h`), linked from the static library
//! `ascendc_model` that `build.rs` compiles. The `#[repr(C)]` parameter structs
//! (`decl::CMmadParams`, ...), the conversion of derived parameters to them (`to_c`) and the
//! intrinsics' prototypes ([`crate::decl::c_abi`], re-exported here) are generated from
//! [`crate::decl`]; this module declares the rest (flags, sanitizer, block index).
//!
//! For the JIT: [`c_abi_symbols`] returns `(name, address)` for every function, to hand to
//! MLIR's `mlirExecutionEngineRegisterSymbol` so that LLVM IR calling
//! `ascendc_model_load_data_2d(...)` etc. resolves to this model.

use std::ffi::{c_char, c_void, CStr};

use crate::error::{ParamError, Result};

/// The intrinsics' prototypes, generated from the declaration.
pub use crate::decl::c_abi::*;

/// Element type codes of the C ABI (`ASCENDC_MODEL_F16`, ...).
pub mod dtype_code {
    pub const F16: u32 = 1;
    pub const BF16: u32 = 2;
    pub const F32: u32 = 3;
    pub const I8: u32 = 4;
    pub const I32: u32 = 5;
}

extern "C" {
    pub fn ascendc_model_set_flag(src_pipe: u32, dst_pipe: u32, event_id: u32);
    pub fn ascendc_model_wait_flag(src_pipe: u32, dst_pipe: u32, event_id: u32);
    pub fn ascendc_model_pipe_barrier(pipe: u32);
    pub fn ascendc_model_last_error() -> *const c_char;
    pub fn ascendc_model_sanitize_begin(checks: u32);
    pub fn ascendc_model_sanitize_region(
        base: *const c_void,
        bytes: u64,
        elem_bytes: u32,
        name: *const c_char,
        on_chip: u32,
    );
    pub fn ascendc_model_sanitize_site(site: i32);
    pub fn ascendc_model_sanitize_end() -> *const c_char;
    pub fn ascendc_model_sanitize_violations() -> u64;
    pub fn ascendc_model_sanitize_report_site() -> i32;
    pub fn ascendc_model_sanitize_report_element(region: *mut i32) -> i64;
    pub fn ascendc_model_set_block(idx: u32, num: u32);
    pub fn ascendc_model_get_block_idx() -> i64;
    pub fn ascendc_model_get_block_num() -> i64;
    pub fn ascendc_model_set_atomic_add(dtype: u32);
    pub fn ascendc_model_set_atomic_none();
}

/// Every C ABI function as `(symbol name, address)`, for `mlirExecutionEngineRegisterSymbol`.
pub fn c_abi_symbols() -> Vec<(&'static str, *const c_void)> {
    let mut symbols = intrinsic_symbols();
    symbols.extend([
        ("ascendc_model_set_flag", ascendc_model_set_flag as *const c_void),
        ("ascendc_model_wait_flag", ascendc_model_wait_flag as *const c_void),
        ("ascendc_model_pipe_barrier", ascendc_model_pipe_barrier as *const c_void),
        ("ascendc_model_last_error", ascendc_model_last_error as *const c_void),
        ("ascendc_model_sanitize_site", ascendc_model_sanitize_site as *const c_void),
        ("ascendc_model_get_block_idx", ascendc_model_get_block_idx as *const c_void),
        ("ascendc_model_get_block_num", ascendc_model_get_block_num as *const c_void),
        ("ascendc_model_set_atomic_add", ascendc_model_set_atomic_add as *const c_void),
        ("ascendc_model_set_atomic_none", ascendc_model_set_atomic_none as *const c_void),
    ]);
    symbols
}

/// The model's message for the last non-zero status.
pub fn last_error() -> String {
    // SAFETY: the model returns a pointer to a static NUL-terminated buffer.
    unsafe {
        let p = ascendc_model_last_error();
        if p.is_null() {
            return String::new();
        }
        CStr::from_ptr(p).to_string_lossy().into_owned()
    }
}

/// `v` as the ABI type `T`, or the overflow error naming the field (used by the derived `to_c`).
pub(crate) fn narrow<T: TryFrom<i64>>(
    instr: &'static str,
    field: &'static str,
    v: i64,
    ctype: &'static str,
    min: i64,
    max: i64,
) -> Result<T> {
    T::try_from(v).map_err(|_| ParamError::FieldOverflow { instr, field, value: v, ctype, min, max })
}
