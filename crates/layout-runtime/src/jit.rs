//! JIT execution of lowered kernels with signature-checked calls.
//!
//! ```text
//! let context = layout_runtime::create_context()?;
//! let module = layout_dialect::parse_file(&context, "gemm.mlir").unwrap();
//! let jit = Jit::new(&module)?;                       // lowers a copy, compiles (or loads the cached object)
//! let (mut a, mut b) = (rng.array(F32, &[m, k]), rng.array(F32, &[k, n]));
//! let mut c = Array::zeros(F32, &[m, n]);
//! jit.call("gemm", &mut [Arg::MemRef(&mut a), Arg::MemRef(&mut b), Arg::MemRef(&mut c)])?;
//! ```
//!
//! Functions are called through their C interface (`_mlir_ciface_NAME`, generated for
//! `func.func` ops with the `llvm.emit_c_interface` attribute): each memref argument is passed
//! as a pointer to a ranked descriptor ([`StridedMemRef`]: allocated pointer, aligned pointer,
//! offset, sizes, strides), scalars by value. Calls go through a packed wrapper of that
//! function (`crate::codegen`), so any number and mix of arguments works without transmuting
//! to a fixed Rust function type. The code is an object file, compiled or taken from the
//! on-disk cache (`crate::object_cache`), linked in process by ORC (`crate::orc`).

use crate::{
    codegen, lower,
    object_cache::{self, CacheKey, CacheOutcome, ObjectCache},
    orc::Orc,
    Error, Result,
};
use layout_npy::{Array, ElemType};
use melior::ir::{operation::OperationLike, r#type::TypeLike, BlockLike, Module, RegionLike, Type};
use mlir_sys::MlirType;
use std::{collections::BTreeMap, ffi::c_void, fmt};

/// A ranked memref descriptor as MLIR's C interface passes it (`StridedMemRefType<T, N>` of
/// `mlir/ExecutionEngine/CRunnerUtils.h`).
#[repr(C)]
#[derive(Debug)]
pub struct StridedMemRef<T, const N: usize> {
    pub allocated: *mut T,
    pub aligned: *mut T,
    pub offset: i64,
    pub sizes: [i64; N],
    pub strides: [i64; N],
}

impl<T, const N: usize> StridedMemRef<T, N> {
    /// A contiguous row-major descriptor over `data` (which must hold the product of `shape`
    /// elements and outlive every use of the descriptor).
    pub fn row_major(data: &mut [T], shape: [usize; N]) -> StridedMemRef<T, N> {
        assert_eq!(shape.iter().product::<usize>(), data.len(), "shape does not match the buffer");
        let strides = layout_npy::row_major_strides(&shape);
        StridedMemRef {
            allocated: data.as_mut_ptr(),
            aligned: data.as_mut_ptr(),
            offset: 0,
            sizes: shape.map(|s| s as i64),
            strides: std::array::from_fn(|i| strides[i] as i64),
        }
    }
}

/// A parameter or result type of a kernel, read from its `func.func` type.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParamType {
    /// A ranked memref. `shape[i]` is None for `?`; `strides`/`offset` are the static strides
    /// and offset of its layout (None = dynamic), or row-major for the identity layout.
    MemRef {
        elem: ElemType,
        shape: Vec<Option<usize>>,
        strides: Vec<Option<i64>>,
        offset: Option<i64>,
        text: String,
    },
    Index,
    /// A signless (or signed/unsigned) integer of this width (8, 16, 32 or 64).
    Int(u32),
    F32,
    F64,
    /// Anything else; calls to functions with such parameters are rejected.
    Unsupported(String),
}

impl fmt::Display for ParamType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParamType::MemRef { text, .. } => f.write_str(text),
            ParamType::Index => f.write_str("index"),
            ParamType::Int(w) => write!(f, "i{w}"),
            ParamType::F32 => f.write_str("f32"),
            ParamType::F64 => f.write_str("f64"),
            ParamType::Unsupported(text) => f.write_str(text),
        }
    }
}

/// The signature of a `func.func`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Signature {
    pub name: String,
    pub params: Vec<ParamType>,
    pub results: Vec<ParamType>,
    /// Whether the function has `llvm.emit_c_interface` (required to call it).
    pub c_interface: bool,
    /// Declarations (no body) cannot be called.
    pub is_declaration: bool,
}

impl fmt::Display for Signature {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let list = |types: &[ParamType]| types.iter().map(ToString::to_string).collect::<Vec<_>>().join(", ");
        write!(f, "@{}({})", self.name, list(&self.params))?;
        if !self.results.is_empty() {
            write!(f, " -> ({})", list(&self.results))?;
        }
        Ok(())
    }
}

/// An argument of [`Jit::call`].
#[derive(Debug)]
pub enum Arg<'a> {
    /// A memref: the kernel reads and writes the array in place (row-major, offset 0).
    MemRef(&'a mut Array),
    /// An `index` value (also accepted for integer parameters).
    Index(i64),
    /// An integer (also accepted for `index`); must fit the parameter's width (signed or
    /// unsigned reading).
    Int(i64),
    /// A float for an `f32` (rounded) or `f64` parameter.
    Float(f64),
}

/// A scalar result of [`Jit::call`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Scalar {
    Index(i64),
    Int(i64),
    Float(f64),
}

fn type_text(ty: Type) -> String {
    ty.to_string()
}

fn elem_of(ty: MlirType) -> Option<ElemType> {
    // Safety: type queries on a valid type.
    unsafe {
        if mlir_sys::mlirTypeIsAF16(ty) {
            Some(ElemType::F16)
        } else if mlir_sys::mlirTypeIsABF16(ty) {
            Some(ElemType::BF16)
        } else if mlir_sys::mlirTypeIsAF32(ty) {
            Some(ElemType::F32)
        } else if mlir_sys::mlirTypeIsAF64(ty) {
            Some(ElemType::F64)
        } else if mlir_sys::mlirTypeIsAFloat8E8M0FNU(ty) {
            // MX scales (E8M0, an exponent byte): passed as their bit pattern, a u8 array.
            Some(ElemType::U8)
        } else if mlir_sys::mlirTypeIsAInteger(ty) {
            match mlir_sys::mlirIntegerTypeGetWidth(ty) {
                8 => Some(ElemType::I8),
                16 => Some(ElemType::I16),
                32 => Some(ElemType::I32),
                64 => Some(ElemType::I64),
                _ => None,
            }
        } else {
            None
        }
    }
}

/// Reads a parameter type.
pub fn param_type(ty: Type) -> ParamType {
    let raw = ty.to_raw();
    // Safety: type queries on a valid type.
    unsafe {
        if mlir_sys::mlirTypeIsAIndex(raw) {
            return ParamType::Index;
        }
        if mlir_sys::mlirTypeIsAInteger(raw) {
            let width = mlir_sys::mlirIntegerTypeGetWidth(raw);
            return if matches!(width, 8 | 16 | 32 | 64) {
                ParamType::Int(width)
            } else {
                ParamType::Unsupported(type_text(ty))
            };
        }
        if mlir_sys::mlirTypeIsAF32(raw) {
            return ParamType::F32;
        }
        if mlir_sys::mlirTypeIsAF64(raw) {
            return ParamType::F64;
        }
        if mlir_sys::mlirTypeIsAMemRef(raw) {
            let Some(elem) = elem_of(mlir_sys::mlirShapedTypeGetElementType(raw)) else {
                return ParamType::Unsupported(type_text(ty));
            };
            let rank = mlir_sys::mlirShapedTypeGetRank(raw).max(0) as usize;
            let shape = (0..rank as isize)
                .map(|i| {
                    (!mlir_sys::mlirShapedTypeIsDynamicDim(raw, i))
                        .then(|| mlir_sys::mlirShapedTypeGetDimSize(raw, i).max(0) as usize)
                })
                .collect();
            let mut strides = vec![0i64; rank];
            let mut offset = 0i64;
            let ok = mlir_sys::mlirMemRefTypeGetStridesAndOffset(raw, strides.as_mut_ptr(), &mut offset);
            if ok.value == 0 {
                return ParamType::Unsupported(type_text(ty));
            }
            let dynamic = |v: i64| mlir_sys::mlirShapedTypeIsDynamicStrideOrOffset(v);
            return ParamType::MemRef {
                elem,
                shape,
                strides: strides.into_iter().map(|s| (!dynamic(s)).then_some(s)).collect(),
                offset: (!dynamic(offset)).then_some(offset),
                text: type_text(ty),
            };
        }
    }
    ParamType::Unsupported(type_text(ty))
}

/// The signatures of the `func.func` ops at the top level of `module`, by name.
pub fn signatures(module: &Module) -> BTreeMap<String, Signature> {
    let mut found = BTreeMap::new();
    let mut next = module.body().first_operation();
    while let Some(op) = next {
        next = op.next_in_block();
        if op.name().as_string_ref().as_str() != Ok("func.func") {
            continue;
        }
        let Some(name) = op
            .attribute("sym_name")
            .ok()
            .and_then(|a| melior::ir::attribute::StringAttribute::try_from(a).ok())
            .map(|s| s.value().to_string())
        else {
            continue;
        };
        let Some(function) = op
            .attribute("function_type")
            .ok()
            .and_then(|a| melior::ir::attribute::TypeAttribute::try_from(a).ok())
            .and_then(|t| melior::ir::r#type::FunctionType::try_from(t.value()).ok())
        else {
            continue;
        };
        let params = (0..function.input_count()).filter_map(|i| function.input(i).ok()).map(param_type).collect();
        let results = (0..function.result_count()).filter_map(|i| function.result(i).ok()).map(param_type).collect();
        let is_declaration = op.region(0).ok().is_none_or(|region| region.first_block().is_none());
        found.insert(
            name.clone(),
            Signature { name, params, results, c_interface: op.has_attribute("llvm.emit_c_interface"), is_declaration },
        );
    }
    found
}

thread_local! {
    /// The first contract check that failed during the current [`Jit::call`] on this thread.
    static GUARD_FAILURE: std::cell::RefCell<Option<String>> = const { std::cell::RefCell::new(None) };
}

/// The hook lowered kernels call when a contract check fails
/// (`layout_passes::lower_to_loops::guard::HOOK`): `message` is a `file:line:col: error: ...`
/// template of `length` bytes in which `{a}` and `{b}` stand for the two values. Records the
/// first failure of the call; never unwinds into the JIT-compiled caller.
extern "C" fn guard_failed(message: *const u8, length: i64, a: i64, b: i64) {
    if message.is_null() || length < 0 {
        return;
    }
    // Safety: the kernel passes a pointer to its constant message global of `length` bytes.
    let bytes = unsafe { std::slice::from_raw_parts(message, length as usize) };
    let text = String::from_utf8_lossy(bytes).replace("{a}", &a.to_string()).replace("{b}", &b.to_string());
    GUARD_FAILURE.with(|failure| {
        if let Ok(mut failure) = failure.try_borrow_mut() {
            failure.get_or_insert(text);
        }
    });
}

/// Records `text` as the current call's failure unless one is recorded (the racecheck hook of
/// `crate::blocks` reports through it).
pub(crate) fn record_failure(text: String) {
    GUARD_FAILURE.with(|failure| {
        if let Ok(mut failure) = failure.try_borrow_mut() {
            failure.get_or_insert(text);
        }
    });
}

/// A JIT-compiled module. `!Send` (it holds raw JIT pointers); it does not borrow the MLIR
/// context or module it was made from.
pub struct Jit {
    orc: Orc,
    signatures: BTreeMap<String, Signature>,
    cache: CacheOutcome,
}

/// Optimization level of the JIT's LLVM pipeline and code generation (O2).
pub const JIT_OPT_LEVEL: i32 = 2;

impl Jit {
    /// Lowers a copy of `module` (upstream dialects, `layout` ops already lowered) to the LLVM
    /// dialect and JIT-compiles it at O2, through the process's default object cache
    /// ([`crate::object_cache::default_cache`]). The context must have been prepared with
    /// [`crate::prepare_context`] / created by [`crate::create_context`].
    pub fn new(module: &Module) -> Result<Jit> {
        Jit::new_with_cache(module, object_cache::default_cache().as_ref())
    }

    /// [`Jit::new`] with an explicit cache (None: always compile).
    pub fn new_with_cache(module: &Module, cache: Option<&ObjectCache>) -> Result<Jit> {
        let signatures = signatures(module);
        let mut lowered = lower::clone_module(module);
        lower::lower_to_llvm_dialect(&mut lowered)?;
        Jit::from_llvm_dialect_with_cache(&lowered, signatures, cache)
    }

    /// Compiles a module already in the LLVM dialect (through the default object cache);
    /// `signatures` (from [`signatures`] on the module before lowering) drive the argument
    /// checks.
    pub fn from_llvm_dialect(module: &Module, signatures: BTreeMap<String, Signature>) -> Result<Jit> {
        Jit::from_llvm_dialect_with_cache(module, signatures, object_cache::default_cache().as_ref())
    }

    /// [`Jit::from_llvm_dialect`] with an explicit cache (None: always compile). A cached
    /// object is the one this module compiles to (the key covers the module text, the host,
    /// LLVM and this crate), so a hit behaves exactly as a fresh compilation.
    pub fn from_llvm_dialect_with_cache(
        module: &Module,
        signatures: BTreeMap<String, Signature>,
        cache: Option<&ObjectCache>,
    ) -> Result<Jit> {
        let compile = || {
            codegen::compile_object(module).map_err(|error| match error {
                Error::Mlir { what, diagnostics } => {
                    Error::mlir(format!("cannot compile the kernel: {what}"), diagnostics)
                }
                other => other,
            })
        };
        let (object, outcome) = match cache {
            None => (compile()?, CacheOutcome::Disabled),
            Some(cache) => {
                let key = CacheKey::for_host(&lower::print_module(module));
                match cache.load(&key) {
                    Some(object) => (object, CacheOutcome::Hit),
                    None => {
                        let object = compile()?;
                        let stored = cache.store(&key, &object).is_ok();
                        (object, CacheOutcome::Miss { stored })
                    }
                }
            }
        };
        object_cache::count(outcome);
        let orc = Orc::with_object(&object)?;
        // The block queries of `layout.block_idx` / `layout.block_num` (`crate::blocks`), the
        // contract-check hook and the racecheck hook: the C signatures the lowering declares
        // (`int64_t (void)`, `(index, index, index, index) -> ()`, five `int64_t` for each racecheck hook).
        use layout_passes::lower_to_loops::block::{BLOCK_IDX, BLOCK_NUM};
        orc.define(&[
            (layout_passes::lower_to_loops::guard::HOOK, guard_failed as *const c_void),
            (BLOCK_IDX, crate::blocks::current_block_idx as *const c_void),
            (BLOCK_NUM, crate::blocks::current_block_num as *const c_void),
            (layout_passes::lower_to_loops::racecheck::HOOK, crate::blocks::gm_write as *const c_void),
            (layout_passes::lower_to_loops::racecheck::ATOMIC_HOOK, crate::blocks::gm_atomic_add as *const c_void),
        ]);
        Ok(Jit { orc, signatures, cache: outcome })
    }

    /// Whether the compiled code came from the object cache.
    pub fn cache_outcome(&self) -> CacheOutcome {
        self.cache
    }

    /// The signature of function `name`, if the module defines it.
    pub fn signature(&self, name: &str) -> Option<&Signature> {
        self.signatures.get(name)
    }

    /// All functions of the module (by name).
    pub fn signatures(&self) -> &BTreeMap<String, Signature> {
        &self.signatures
    }

    /// Makes external symbols visible to the JIT-compiled code (e.g. the C ABI of the AscendC CPU
    /// model, `ascendc_params::ffi::c_abi_symbols()`), so calls to functions the module only
    /// declares resolve to them. Call before the first [`Jit::lookup`] / [`Jit::call`] (the
    /// object is linked on first lookup). A name already defined keeps its first address.
    ///
    /// # Safety
    /// Every address must be a function with the signature the module declares for `name`,
    /// alive as long as the engine.
    pub unsafe fn register_symbols(&self, symbols: &[(&str, *const c_void)]) {
        self.orc.define(symbols);
    }

    /// The address of a JIT symbol (e.g. `_mlir_ciface_gemm`), or None. Calling it directly is
    /// up to the caller (with [`StridedMemRef`] descriptors).
    pub fn lookup(&self, symbol: &str) -> Option<*mut c_void> {
        self.orc.lookup(symbol)
    }

    /// The function `name`'s signature if it can be called, else a clear error.
    pub fn callable(&self, name: &str) -> Result<&Signature> {
        let signature = self.signatures.get(name).ok_or_else(|| {
            let known: Vec<_> = self.signatures.keys().map(|k| format!("@{k}")).collect();
            Error::Call(format!(
                "no function @{name} in the module (functions: {})",
                if known.is_empty() { "none".into() } else { known.join(", ") }
            ))
        })?;
        if signature.is_declaration {
            return Err(Error::Call(format!("@{name} is a declaration without a body")));
        }
        if !signature.c_interface {
            return Err(Error::Call(format!(
                "@{name} cannot be called: it lacks the C interface; add `attributes {{llvm.emit_c_interface}}` to the func.func"
            )));
        }
        if let Some(bad) =
            signature.params.iter().chain(&signature.results).find(|t| matches!(t, ParamType::Unsupported(_)))
        {
            return Err(Error::Call(format!(
                "@{name} cannot be called: type {bad} is not supported (memrefs of f16/bf16/f32/f64/i8/i16/i32/i64 with a strided layout, index, i8-i64, f32, f64)"
            )));
        }
        if signature.results.len() > 1 || signature.results.iter().any(|r| matches!(r, ParamType::MemRef { .. })) {
            return Err(Error::Call(format!(
                "@{name} cannot be called: only functions with no result or one scalar result are supported (write outputs to memref arguments); its signature is {signature}"
            )));
        }
        Ok(signature)
    }

    /// Calls `name` with `args`, after checking them against the function's MLIR signature
    /// (count, memref element type, rank, static sizes and strides, scalar kinds and ranges).
    /// Memref arguments are updated in place. Returns the scalar result, if the function has
    /// one.
    ///
    /// Layout ops lowered by `layout-lower-to-loops` check their contract at run time (buffer
    /// extents, tile coordinates): a failed check skips the accesses it guards and comes back
    /// as [`Error::Contract`] naming the op, after the call. Hand-written memref code in the
    /// kernel is trusted: an out-of-bounds access there is undefined behaviour, as in any
    /// native code.
    pub fn call(&self, name: &str, args: &mut [Arg]) -> Result<Option<Scalar>> {
        let signature = self.callable(name)?.clone();
        if args.len() != signature.params.len() {
            return Err(Error::Call(format!(
                "@{name} takes {} arguments, {} given; signature {signature}",
                signature.params.len(),
                args.len()
            )));
        }
        // Argument storage: descriptors (as 8-byte words), pointers to them, scalars.
        let mut descriptors: Vec<Vec<u64>> = Vec::new();
        let mut scalars: Vec<u64> = Vec::new();
        enum Slot {
            Descriptor(usize),
            Scalar(usize),
        }
        let mut slots = Vec::new();
        for (position, (arg, param)) in args.iter_mut().zip(&signature.params).enumerate() {
            let mismatch = |what: String| {
                Error::Call(format!("@{name} argument #{position} ({param}): {what}; signature {signature}"))
            };
            match (param, arg) {
                (ParamType::MemRef { elem, shape, strides, offset, .. }, Arg::MemRef(array)) => {
                    let given = array.elem();
                    let same = given == *elem
                        || matches!(
                            (elem, given),
                            (ElemType::I8, ElemType::U8)
                                | (ElemType::U8, ElemType::I8)
                                | (ElemType::I16, ElemType::U16)
                        );
                    if !same {
                        return Err(mismatch(format!("element type {given} given")));
                    }
                    if array.shape().len() != shape.len() {
                        return Err(mismatch(format!(
                            "array of rank {} given ({:?})",
                            array.shape().len(),
                            array.shape()
                        )));
                    }
                    for (axis, (&size, expected)) in array.shape().iter().zip(shape).enumerate() {
                        if let Some(expected) = expected {
                            if size != *expected {
                                return Err(mismatch(format!(
                                    "dimension {axis} is {size} (array shape {:?})",
                                    array.shape()
                                )));
                            }
                        }
                    }
                    let row_major = array.strides();
                    for (axis, (actual, expected)) in row_major.iter().zip(strides).enumerate() {
                        if let Some(expected) = expected {
                            // A stride of an axis of size 1 is never used.
                            if *actual as i64 != *expected && array.shape()[axis] > 1 {
                                return Err(mismatch(format!(
                                    "the layout needs stride {expected} in dimension {axis}, but a row-major array of shape {:?} has {actual}",
                                    array.shape()
                                )));
                            }
                        }
                    }
                    if offset.is_some_and(|o| o != 0) {
                        return Err(mismatch("layouts with a non-zero static offset are not supported".into()));
                    }
                    let pointer = array.data_mut().as_mut_ptr() as u64;
                    let mut words = vec![pointer, pointer, 0];
                    words.extend(array.shape().iter().map(|&s| s as u64));
                    words.extend(row_major.iter().map(|&s| s as u64));
                    descriptors.push(words);
                    slots.push(Slot::Descriptor(descriptors.len() - 1));
                }
                (ParamType::Index | ParamType::Int(_), Arg::Index(v) | Arg::Int(v)) => {
                    let width = match param {
                        ParamType::Int(w) => *w,
                        _ => 64,
                    };
                    let fits = width == 64 || (*v >= -(1i64 << (width - 1)) && *v < (1i64 << width));
                    if !fits {
                        return Err(mismatch(format!("{v} does not fit in {width} bits")));
                    }
                    let bits = if width == 64 { *v as u64 } else { (*v as u64) & ((1u64 << width) - 1) };
                    scalars.push(bits);
                    slots.push(Slot::Scalar(scalars.len() - 1));
                }
                (ParamType::F32, Arg::Float(v)) => {
                    scalars.push((*v as f32).to_bits() as u64);
                    slots.push(Slot::Scalar(scalars.len() - 1));
                }
                (ParamType::F64, Arg::Float(v)) => {
                    scalars.push(v.to_bits());
                    slots.push(Slot::Scalar(scalars.len() - 1));
                }
                (_, arg) => {
                    let given = match arg {
                        Arg::MemRef(a) => format!("an array {}{:?}", a.elem(), a.shape()),
                        Arg::Index(v) => format!("index {v}"),
                        Arg::Int(v) => format!("integer {v}"),
                        Arg::Float(v) => format!("float {v}"),
                    };
                    return Err(mismatch(format!("{given} given")));
                }
            }
        }
        // Packed calling convention: one pointer per argument, pointing at the value the C
        // interface takes (a memref's value there is the pointer to its descriptor; scalars
        // are stored little-endian in 8 bytes, so a pointer to them is a pointer to the
        // narrower value too), then one pointer to the result.
        let mut descriptor_pointers: Vec<*mut c_void> =
            descriptors.iter_mut().map(|d| d.as_mut_ptr() as *mut c_void).collect();
        let mut packed: Vec<*mut c_void> = Vec::with_capacity(slots.len() + 1);
        let scalars_base = scalars.as_mut_ptr();
        for slot in &slots {
            packed.push(match slot {
                Slot::Descriptor(i) => &mut descriptor_pointers[*i] as *mut *mut c_void as *mut c_void,
                // Safety: index in bounds; `scalars` is not resized from here on.
                Slot::Scalar(i) => unsafe { scalars_base.add(*i) as *mut c_void },
            });
        }
        let mut result: u64 = 0;
        if !signature.results.is_empty() {
            packed.push(&mut result as *mut u64 as *mut c_void);
        }
        let symbol = format!("_mlir_ciface_{name}");
        if self.lookup(&symbol).is_none() {
            return Err(Error::Call(format!("the JIT has no symbol {symbol}")));
        }
        // The object has a packed wrapper for every C-interface function (`crate::codegen`).
        let Some(wrapper) = self.lookup(&format!("{}{symbol}", codegen::PACKED_PREFIX)) else {
            return Err(Error::Call(format!("the JIT has no packed wrapper for {symbol}")));
        };
        GUARD_FAILURE.with(|failure| failure.borrow_mut().take());
        // Safety: the packed wrapper has this signature; every pointer in `packed` points at
        // storage that lives until after the call and matches the checked parameter types;
        // memref data pointers come from arrays borrowed mutably for the whole call.
        unsafe {
            let function: unsafe extern "C" fn(*mut *mut c_void) = std::mem::transmute(wrapper);
            function(packed.as_mut_ptr());
        }
        if let Some(failure) = GUARD_FAILURE.with(|failure| failure.borrow_mut().take()) {
            return Err(Error::Contract(failure));
        }
        Ok(signature.results.first().map(|ty| match ty {
            ParamType::Index => Scalar::Index(result as i64),
            ParamType::Int(w) => {
                let shift = 64 - w;
                Scalar::Int(((result << shift) as i64) >> shift)
            }
            ParamType::F32 => Scalar::Float(f32::from_bits(result as u32) as f64),
            ParamType::F64 => Scalar::Float(f64::from_bits(result)),
            _ => unreachable!("checked by callable"),
        }))
    }
}
