//! An ORC LLJIT that links one relocatable object file in process (LLVM's C API, llvm-sys).
//!
//! This replaces MLIR's execution engine so that the object can come from the on-disk cache
//! ([`crate::object_cache`]): the engine compiles from IR only, LLJIT also links objects.
//! Symbols the object leaves undefined resolve to the table given with [`Orc::define`] (the
//! run-time hooks, the AscendC CPU model's C ABI: functions of this executable, which it does
//! not export), then to the process's exported symbols (libc: `malloc`, `memcpy`, ...).
//! Linking happens on the first [`Orc::lookup`], so every symbol must be defined before it.

use crate::{Error, Result};
use llvm_sys::{error::*, orc2::lljit::*, orc2::*};
use std::ffi::{c_void, CStr, CString};

/// One LLJIT instance and the object added to its main JITDylib. `!Send` (raw pointers).
pub(crate) struct Orc {
    jit: LLVMOrcLLJITRef,
}

/// The message of an LLVM error (consumed).
fn take_error(error: LLVMErrorRef) -> String {
    // Safety: a non-null error, consumed by LLVMGetErrorMessage; the message is freed here.
    unsafe {
        let message = LLVMGetErrorMessage(error);
        let text = CStr::from_ptr(message).to_string_lossy().into_owned();
        LLVMDisposeErrorMessage(message);
        text
    }
}

fn check(error: LLVMErrorRef, what: &str) -> Result<()> {
    if error.is_null() {
        Ok(())
    } else {
        Err(Error::Llvm(format!("{what}: {}", take_error(error))))
    }
}

impl Orc {
    /// An LLJIT for the host that resolves undefined symbols in the process, with `object`
    /// (an ELF relocatable object for the host) added but not linked yet.
    pub(crate) fn with_object(object: &[u8]) -> Result<Orc> {
        // LLJIT finds the host's target by its triple (a cache hit compiles nothing that would
        // have registered it).
        inkwell::targets::Target::initialize_native(&inkwell::targets::InitializationConfig::default())
            .map_err(Error::Llvm)?;
        let mut jit: LLVMOrcLLJITRef = std::ptr::null_mut();
        // Safety: the builder is consumed by LLVMOrcCreateLLJIT; on success `jit` is owned by
        // the returned Orc and disposed in Drop.
        check(unsafe { LLVMOrcCreateLLJIT(&mut jit, LLVMOrcCreateLLJITBuilder()) }, "cannot create the JIT")?;
        let orc = Orc { jit };
        // Safety: a valid JIT; the generator and the memory buffer are owned by the JIT once added.
        unsafe {
            let dylib = LLVMOrcLLJITGetMainJITDylib(jit);
            let mut process = std::ptr::null_mut();
            let prefix = LLVMOrcLLJITGetGlobalPrefix(jit);
            check(
                LLVMOrcCreateDynamicLibrarySearchGeneratorForProcess(&mut process, prefix, None, std::ptr::null_mut()),
                "cannot search the process for symbols",
            )?;
            LLVMOrcJITDylibAddGenerator(dylib, process);
            let name = c"kernel.o";
            let buffer = llvm_sys::core::LLVMCreateMemoryBufferWithMemoryRangeCopy(
                object.as_ptr() as *const _,
                object.len(),
                name.as_ptr(),
            );
            check(LLVMOrcLLJITAddObjectFile(jit, dylib, buffer), "cannot add the compiled kernel to the JIT")?;
        }
        Ok(orc)
    }

    /// Defines `symbols` (unmangled name, address of a function of this process) in the main
    /// JITDylib. A name that is already defined keeps its first address.
    pub(crate) fn define(&self, symbols: &[(&str, *const c_void)]) {
        // Safety: a valid JIT; the interned names are owned by the pairs, which
        // LLVMOrcAbsoluteSymbols takes over; the unit is owned by the dylib once defined.
        unsafe {
            let mut pairs: Vec<LLVMOrcCSymbolMapPair> = symbols
                .iter()
                .filter_map(|(name, address)| {
                    let name = CString::new(*name).ok()?;
                    Some(LLVMOrcCSymbolMapPair {
                        Name: LLVMOrcLLJITMangleAndIntern(self.jit, name.as_ptr()),
                        Sym: LLVMJITEvaluatedSymbol {
                            Address: *address as u64,
                            Flags: LLVMJITSymbolFlags {
                                GenericFlags: LLVMJITSymbolGenericFlags::LLVMJITSymbolGenericFlagsExported as u8
                                    | LLVMJITSymbolGenericFlags::LLVMJITSymbolGenericFlagsCallable as u8,
                                TargetFlags: 0,
                            },
                        },
                    })
                })
                .collect();
            // One unit per symbol: a duplicate fails alone, without dropping the others.
            for pair in pairs.drain(..) {
                let mut single = [pair];
                let unit = LLVMOrcAbsoluteSymbols(single.as_mut_ptr(), 1);
                let error = LLVMOrcJITDylibDefine(LLVMOrcLLJITGetMainJITDylib(self.jit), unit);
                if !error.is_null() {
                    // The unit is still ours on failure.
                    LLVMOrcDisposeMaterializationUnit(unit);
                    LLVMConsumeError(error);
                }
            }
        }
    }

    /// The address of `symbol` (unmangled), linking the object on first use; None if it is
    /// not defined or linking failed (ORC reports the missing symbols on stderr).
    pub(crate) fn lookup(&self, symbol: &str) -> Option<*mut c_void> {
        let name = CString::new(symbol).ok()?;
        let mut address = 0;
        // Safety: a valid JIT and name.
        let error = unsafe { LLVMOrcLLJITLookup(self.jit, &mut address, name.as_ptr()) };
        if !error.is_null() {
            // Safety: a non-null error, consumed once.
            unsafe { LLVMConsumeError(error) };
            return None;
        }
        (address != 0).then_some(address as *mut c_void)
    }
}

impl Drop for Orc {
    fn drop(&mut self) {
        // Safety: created non-null, disposed once; nothing the JIT linked is used after this.
        let error = unsafe { LLVMOrcDisposeLLJIT(self.jit) };
        if !error.is_null() {
            // Safety: a non-null error, consumed once.
            unsafe { LLVMConsumeError(error) };
        }
    }
}
