//! `--emit=ascendc-llvm`: the same kernel as LLVM IR in which every intrinsic is a call to the
//! stable C ABI of the CPU model (`crates/ascendc-params/model/ascendc_model_abi.h`): one
//! function per intrinsic family, the parameter struct passed by pointer with the C layout of
//! the AscendC struct (field by field, `bool` as `i8`), plus the element width / type codes and
//! the target arch:
//!
//! | call | C ABI function |
//! |---|---|
//! | every intrinsic | `int32_t ascendc_model_...(dst, srcs..., scalars..., const params*, uint32_t target)`: the function and its arguments are the declaration's (`ascendc_params::decl`, `abi_function`, `abi_args`; e.g. `ascendc_model_mmad(void* c, const void* a, const void* b, uint32_t ab_dtype, uint32_t c_dtype, const ascendc_model_mmad_params*, uint32_t)`) |
//! | `SetFlag` / `WaitFlag` / `PipeBarrier` | `ascendc_model_set_flag(src_pipe, dst_pipe, id)`, `..._wait_flag`, `ascendc_model_pipe_barrier(pipe)` |
//! | `GetBlockIdx()` / `GetBlockNum()` | `int64_t ascendc_model_get_block_idx(void)`, `..._get_block_num(void)` (the launch the driver set) |
//! | `SetAtomicAdd<T>()` / `SetAtomicNone()` | `void ascendc_model_set_atomic_add(uint32_t dtype)`, `void ascendc_model_set_atomic_none(void)` |
//!
//! Built as MLIR text (`func` + `scf` + `arith` + `memref` + `llvm`): the kernel keeps its
//! memref arguments (`llvm.emit_c_interface`, so the runtime's `Jit::call` checks and passes
//! them), on-chip memories are module globals (`ascendc_l1`, `ascendc_l0a`, ...) poisoned with
//! 0xFF bytes at every kernel entry, and buffers are byte offsets into them. [`crate::llvm_ir`] lowers it with
//! `layout-runtime` and translates to LLVM IR.

use crate::cpp::elem_bytes;
use crate::kernel::{memory_of, Call, EmitError, Kernel, Located, Param, Stmt, Val};
use ascendc_params::decl::{AbiArg, Source};
use ascendc_params::Buffer;
use ascendc_params::Target;
use std::collections::HashMap;
use std::fmt::Write as _;

/// Declarations of the model's synchronization functions (no status, no parameter struct).
const SYNC_DECLS: &str = r#"  llvm.func @ascendc_model_set_flag(i32, i32, i32)
  llvm.func @ascendc_model_wait_flag(i32, i32, i32)
  llvm.func @ascendc_model_pipe_barrier(i32)
  llvm.func @ascendc_model_get_block_idx() -> i64
  llvm.func @ascendc_model_get_block_num() -> i64
  llvm.func @ascendc_model_set_atomic_add(i32)
  llvm.func @ascendc_model_set_atomic_none()
"#;

/// `llvm.func` declarations of every C ABI function, the intrinsics from their declarations.
fn decls() -> String {
    let mut out = String::new();
    for d in ascendc_params::decl::INTRINSICS {
        let _ = writeln!(out, "  {}", d.llvm_decl());
    }
    out + SYNC_DECLS
}

/// Memory globals: (memory, global name), sized by the target's capacity
/// (`layout_algebra::ascend::MemorySpace::capacity`; every buffer is checked to lie inside).
const MEMORIES: &[(Buffer, &str)] = &[
    (Buffer::L1, "ascendc_l1"),
    (Buffer::L0A, "ascendc_l0a"),
    (Buffer::L0B, "ascendc_l0b"),
    (Buffer::L0C, "ascendc_l0c"),
];

fn memory(position: &str) -> &'static str {
    let buffer = memory_of(position).unwrap_or(Buffer::L0C);
    MEMORIES.iter().find(|(b, _)| *b == buffer).map_or("ascendc_l0c", |(_, name)| name)
}

/// Model dtype codes (ASCENDC_MODEL_F16 ...).
fn dtype_code(elem: &str) -> Result<i64, EmitError> {
    Ok(match elem {
        "f16" => 1,
        "bf16" => 2,
        "f32" => 3,
        "i8" => 4,
        "i32" => 5,
        other => return Err(EmitError::DtypeCode(other.to_string())),
    })
}

fn quant_code(q: &str) -> Result<i64, EmitError> {
    ascendc_params::QuantMode::from_name(q)
        .map(|m| i64::from(m.abi_code()))
        .ok_or_else(|| EmitError::QuantCode(q.to_string()))
}

/// AscendC `pipe_t` numbering of the model (`PIPE_S` = 0, ...).
fn pipe_code(p: &str) -> i64 {
    match p {
        "S" => 0,
        "V" => 1,
        "M" => 2,
        "MTE1" => 3,
        "MTE2" => 4,
        "MTE3" => 5,
        "ALL" | "PIPE_ALL" => 6,
        "FIX" => 7,
        _ => 6,
    }
}

fn llvm_elem(elem: &str) -> &str {
    match elem {
        "ui8" => "i8",
        e => e,
    }
}

struct Gen<'k> {
    k: &'k Kernel,
    target: i64,
    entry: String,
    body: String,
    tmp: usize,
    structs: usize,
    /// Results of multi-result ops: the kernel's name → the SSA reference (`%t3#1`).
    alias: HashMap<String, String>,
}

impl Gen<'_> {
    fn t(&mut self) -> String {
        self.tmp += 1;
        format!("%t{}", self.tmp)
    }

    fn line(&mut self, depth: usize, s: &str) {
        let _ = writeln!(self.body, "{}{s}", "  ".repeat(depth + 2));
    }

    /// The SSA reference of the kernel variable `n`.
    fn var(&self, n: &str) -> String {
        self.alias.get(n).cloned().unwrap_or_else(|| format!("%{n}"))
    }

    /// An index SSA value for `v`.
    fn index(&mut self, depth: usize, v: &Val) -> String {
        match v {
            Val::Var(n) => self.var(n),
            Val::Const(c) => {
                let t = self.t();
                self.line(depth, &format!("{t} = arith.constant {c} : index"));
                t
            }
        }
    }

    fn int(&mut self, depth: usize, v: &Val, ty: &str) -> String {
        match v {
            Val::Const(c) => {
                let t = self.t();
                self.line(depth, &format!("{t} = llvm.mlir.constant({c} : {ty}) : {ty}"));
                t
            }
            Val::Var(n) => {
                let t = self.t();
                let v = self.var(n);
                self.line(depth, &format!("{t} = arith.index_cast {v} : index to {ty}"));
                t
            }
        }
    }

    /// An `i1` SSA value for the condition `v`.
    fn cond(&mut self, depth: usize, v: &Val) -> String {
        match v {
            Val::Var(n) => self.var(n),
            Val::Const(c) => {
                let t = self.t();
                self.line(depth, &format!("{t} = arith.constant {}", *c != 0));
                t
            }
        }
    }

    /// `scf.yield` of `values` (none: nothing, the terminator is implicit).
    fn yields(&mut self, depth: usize, values: &[Val]) {
        if values.is_empty() {
            return;
        }
        let vs: Vec<String> = values.iter().map(|v| self.index(depth, v)).collect();
        self.line(depth, &format!("scf.yield {} : {}", vs.join(", "), vec!["index"; vs.len()].join(", ")));
    }

    /// The result list of a region op: `%t:N = ` with every result aliased to `%t#k`.
    fn results(&mut self, results: &[String]) -> String {
        if results.is_empty() {
            return String::new();
        }
        let t = self.t();
        for (k, r) in results.iter().enumerate() {
            self.alias.insert(r.clone(), format!("{t}#{k}"));
        }
        format!("{t}:{} = ", results.len())
    }

    fn stmts(&mut self, stmts: &[Stmt], depth: usize) -> Result<(), Located> {
        for s in stmts {
            match s {
                Stmt::Const { name, value } => self.line(depth, &format!("%{name} = arith.constant {value} : index")),
                Stmt::Arith { name, op, a, b } => {
                    let (a, b) = (self.index(depth, a), self.index(depth, b));
                    self.line(depth, &format!("%{name} = {} {a}, {b} : index", op.name()));
                }
                Stmt::Cmp { name, pred, a, b } => {
                    let (a, b) = (self.index(depth, a), self.index(depth, b));
                    self.line(depth, &format!("%{name} = arith.cmpi {}, {a}, {b} : index", pred.name()));
                }
                Stmt::Select { name, cond, a, b } => {
                    let (c, a, b) = (self.cond(depth, cond), self.index(depth, a), self.index(depth, b));
                    self.line(depth, &format!("%{name} = arith.select {c}, {a}, {b} : index"));
                }
                Stmt::For { var, lo, hi, step, iter, body, yields, results } => {
                    let (lo, hi, step) = (self.index(depth, lo), self.index(depth, hi), self.index(depth, step));
                    let inits: Vec<String> =
                        iter.iter().map(|(n, init)| format!("%{n} = {}", self.index(depth, init))).collect();
                    let results = self.results(results);
                    let carried = if iter.is_empty() {
                        String::new()
                    } else {
                        format!(" iter_args({}) -> ({})", inits.join(", "), vec!["index"; iter.len()].join(", "))
                    };
                    self.line(depth, &format!("{results}scf.for %{var} = {lo} to {hi} step {step}{carried} {{"));
                    self.stmts(body, depth + 1)?;
                    self.yields(depth + 1, yields);
                    self.line(depth, "}");
                }
                Stmt::If { cond, results, then_body, then_yields, else_body, else_yields } => {
                    let c = self.cond(depth, cond);
                    let types = if results.is_empty() {
                        String::new()
                    } else {
                        format!(" -> ({})", vec!["index"; results.len()].join(", "))
                    };
                    let results = self.results(results);
                    self.line(depth, &format!("{results}scf.if {c}{types} {{"));
                    self.stmts(then_body, depth + 1)?;
                    self.yields(depth + 1, then_yields);
                    if !else_body.is_empty() || !else_yields.is_empty() {
                        self.line(depth, "} else {");
                        self.stmts(else_body, depth + 1)?;
                        self.yields(depth + 1, else_yields);
                    }
                    self.line(depth, "}");
                }
                Stmt::Flag { set, event, id } => {
                    let (src, dst) = event.split_once('_').unwrap_or(("ALL", "ALL"));
                    let (a, b, c) = (
                        self.int(depth, &Val::Const(pipe_code(src)), "i32"),
                        self.int(depth, &Val::Const(pipe_code(dst)), "i32"),
                        self.int(depth, &Val::Const(*id), "i32"),
                    );
                    self.line(
                        depth,
                        &format!(
                            "llvm.call @ascendc_model_{}({a}, {b}, {c}) : (i32, i32, i32) -> ()",
                            if *set { "set_flag" } else { "wait_flag" }
                        ),
                    );
                }
                Stmt::Barrier(pipe) => {
                    let a = self.int(depth, &Val::Const(pipe_code(pipe)), "i32");
                    self.line(depth, &format!("llvm.call @ascendc_model_pipe_barrier({a}) : (i32) -> ()"));
                }
                Stmt::Block { name, num } => {
                    let t = self.t();
                    let f = if *num { "get_block_num" } else { "get_block_idx" };
                    self.line(depth, &format!("{t} = llvm.call @ascendc_model_{f}() : () -> i64"));
                    self.line(depth, &format!("%{name} = arith.index_cast {t} : i64 to index"));
                }
                Stmt::Atomic { add } => match add {
                    Some(elem) => {
                        let code = dtype_code(elem).map_err(|e| e.at(None))?;
                        let a = self.int(depth, &Val::Const(code), "i32");
                        self.line(depth, &format!("llvm.call @ascendc_model_set_atomic_add({a}) : (i32) -> ()"));
                    }
                    None => self.line(depth, "llvm.call @ascendc_model_set_atomic_none() : () -> ()"),
                },
                Stmt::Call(c) => self.call(c, depth)?,
            }
        }
        Ok(())
    }

    fn call(&mut self, c: &Call, depth: usize) -> Result<(), Located> {
        let at = |e: EmitError| e.at(c.at.clone());
        let params = c.kind.decl().params;
        let fields = params.llvm_fields();
        let st = format!("!llvm.struct<({})>", fields.iter().map(|f| f.1).collect::<Vec<_>>().join(", "));
        self.structs += 1;
        let sp = format!("%params{}", self.structs);
        let _ = writeln!(self.entry, "    {sp} = llvm.alloca %one x {st} : (i64) -> !llvm.ptr");
        for (i, (f, (name, ty))) in params.fields.iter().zip(&fields).enumerate() {
            let v = if let Some(b) = c.bools.get(*name) {
                Val::Const(i64::from(*b))
            } else if f.source == Source::Quant {
                Val::Const(quant_code(c.quant.as_deref().unwrap_or("NoQuant")).map_err(at)?)
            } else {
                c.field(name)
            };
            let x = self.int(depth, &v, ty);
            let f = self.t();
            self.line(depth, &format!("{f} = llvm.getelementptr {sp}[0, {i}] : (!llvm.ptr) -> !llvm.ptr, {st}"));
            self.line(depth, &format!("llvm.store {x}, {f} : {ty}, !llvm.ptr"));
        }
        let repeat = c.field("repeat");
        let looped = repeat != Val::Const(1);
        let mut d = depth;
        let r = if looped {
            let (lo, hi, one) =
                (self.index(depth, &Val::Const(0)), self.index(depth, &repeat), self.index(depth, &Val::Const(1)));
            let r = self.t();
            self.line(depth, &format!("scf.for {r} = {lo} to {hi} step {one} {{"));
            d += 1;
            Some(r)
        } else {
            None
        };
        let mut ptrs = Vec::new();
        for (i, &b) in c.bufs.iter().enumerate() {
            let buf = &self.k.bufs[b];
            let off = self.index(d, &c.field(&format!("off{i}")));
            let off = match &r {
                Some(r) => {
                    let step = self.index(d, &c.field(&format!("step{i}")));
                    let (m, s) = (self.t(), self.t());
                    self.line(d, &format!("{m} = arith.muli {r}, {step} : index"));
                    self.line(d, &format!("{s} = arith.addi {off}, {m} : index"));
                    s
                }
                None => off,
            };
            let o64 = self.t();
            self.line(d, &format!("{o64} = arith.index_cast {off} : index to i64"));
            let p = self.t();
            self.line(
                d,
                &format!(
                    "{p} = llvm.getelementptr %{}[{o64}] : (!llvm.ptr, i64) -> !llvm.ptr, {}",
                    buf.name,
                    llvm_elem(&buf.elem)
                ),
            );
            ptrs.push(p);
        }
        let elem = |i: usize| self.k.bufs[c.bufs[i]].elem.clone();
        let target = self.int(d, &Val::Const(self.target), "i32");
        let status = self.t();
        // Arguments in the order of the declared C ABI function.
        let decl = c.kind.decl();
        let (mut args, mut tys) = (Vec::new(), Vec::new());
        let mut next_ptr = ptrs.iter();
        for a in decl.abi_args {
            args.push(match a {
                AbiArg::Dst | AbiArg::Src => next_ptr
                    .next()
                    .ok_or_else(|| at(EmitError::Malformed("an intrinsic has fewer buffers than its C ABI".into())))?
                    .clone(),
                AbiArg::ElemBits(i) => self.int(d, &Val::Const(elem_bytes(&elem(*i)).map_err(at)? * 8), "i32"),
                AbiArg::Dtype(i) => self.int(d, &Val::Const(dtype_code(&elem(*i)).map_err(at)?), "i32"),
                AbiArg::Params => sp.clone(),
                AbiArg::Target => target.clone(),
            });
            tys.push(a.llvm());
        }
        let (fname, args, tys) = (decl.abi_function, args.join(", "), tys.join(", "));
        self.line(d, &format!("{status} = llvm.call @{fname}({args}) : ({tys}) -> i32"));
        if looped {
            self.line(depth, "}");
        }
        Ok(())
    }
}

/// Fills every on-chip memory with 0xFF bytes at kernel entry (f16/bf16/f32 NaN, i8 -1), as
/// the C++ model does: hardware memory holds whatever was there before, so a kernel that reads
/// what it did not write must fail here too, on every call (the globals outlive a call).
fn poison_memories(target: Target) -> String {
    let mut out = String::from("    %poison = llvm.mlir.constant(-1 : i8) : i8\n");
    for (buffer, name) in MEMORIES {
        let bytes = buffer.space().capacity(target).unwrap_or(0);
        let _ = writeln!(
            out,
            "    %{name}_all = llvm.mlir.addressof @{name} : !llvm.ptr\n    %{name}_len = llvm.mlir.constant({bytes} : i64) : i64\n    \"llvm.intr.memset\"(%{name}_all, %poison, %{name}_len) <{{isVolatile = false}}> : (!llvm.ptr, i8, i64) -> ()"
        );
    }
    out
}

/// MLIR text (upstream dialects + `llvm`) of the kernels, calling the model's C ABI.
pub fn mlir_module(kernels: &[Kernel], target: Target) -> Result<String, Located> {
    let arch = i64::from(target.arch());
    let mut out = String::from("module {\n");
    out.push_str(&decls());
    for (buffer, name) in MEMORIES {
        let bytes = buffer.space().capacity(target).unwrap_or(0);
        let _ = writeln!(
            out,
            "  llvm.mlir.global internal @{name}() {{addr_space = 0 : i32, alignment = 4096 : i64}} : !llvm.array<{bytes} x i8> {{\n    %z = llvm.mlir.zero : !llvm.array<{bytes} x i8>\n    llvm.return %z : !llvm.array<{bytes} x i8>\n  }}"
        );
    }
    for k in kernels {
        let mut g = Gen {
            k,
            target: arch,
            entry: String::new(),
            body: String::new(),
            tmp: 0,
            structs: 0,
            alias: HashMap::new(),
        };
        let params: Vec<String> = k
            .params
            .iter()
            .map(|p| match p {
                Param::Gm { name, memref, .. } => format!("%{name}: {memref}"),
                Param::Index { name } => format!("%{name}: index"),
            })
            .collect();
        // Buffer base pointers.
        let mut bases = String::new();
        for b in &k.bufs {
            b.check_capacity(target)?;
            match (&b.local, b.param.and_then(|i| k.params.get(i))) {
                (Some((pos, offset, _)), _) => {
                    let _ = writeln!(bases, "    %{}_mem = llvm.mlir.addressof @{} : !llvm.ptr", b.name, memory(pos));
                    let _ = writeln!(
                        bases,
                        "    %{} = llvm.getelementptr %{}_mem[{offset}] : (!llvm.ptr) -> !llvm.ptr, i8",
                        b.name, b.name
                    );
                }
                (None, Some(Param::Gm { name, memref, .. })) => {
                    let _ = writeln!(
                        bases,
                        "    %{}_idx = memref.extract_aligned_pointer_as_index %{name} : {memref} -> index",
                        b.name
                    );
                    let _ = writeln!(bases, "    %{}_i64 = arith.index_cast %{}_idx : index to i64", b.name, b.name);
                    let _ = writeln!(bases, "    %{} = llvm.inttoptr %{}_i64 : i64 to !llvm.ptr", b.name, b.name);
                }
                _ => return Err(EmitError::Malformed(format!("buffer {} has no storage", b.name)).at(b.at.clone())),
            }
        }
        g.stmts(&k.body, 0)?;
        let _ = writeln!(out, "  func.func @{}({}) attributes {{llvm.emit_c_interface}} {{", k.name, params.join(", "));
        out.push_str("    %one = llvm.mlir.constant(1 : i64) : i64\n");
        out.push_str(&poison_memories(target));
        out.push_str(&g.entry);
        out.push_str(&bases);
        out.push_str(&g.body);
        out.push_str("    return\n  }\n");
    }
    out.push_str("}\n");
    Ok(out)
}

#[cfg(test)]
mod tests {
    /// The declarations derived from `ascendc_params::decl` are the ones written by hand before.
    #[test]
    fn declarations_match_the_c_abi() {
        let want = r#"  llvm.func @ascendc_model_data_copy_nd2nz(!llvm.ptr, !llvm.ptr, i32, !llvm.ptr, i32) -> i32
  llvm.func @ascendc_model_data_copy(!llvm.ptr, !llvm.ptr, !llvm.ptr, i32) -> i32
  llvm.func @ascendc_model_load_data_2d(!llvm.ptr, !llvm.ptr, i32, !llvm.ptr, i32) -> i32
  llvm.func @ascendc_model_load_data_2d_v2(!llvm.ptr, !llvm.ptr, i32, !llvm.ptr, i32) -> i32
  llvm.func @ascendc_model_load_data_with_transpose(!llvm.ptr, !llvm.ptr, i32, !llvm.ptr, i32) -> i32
  llvm.func @ascendc_model_mmad(!llvm.ptr, !llvm.ptr, !llvm.ptr, i32, i32, !llvm.ptr, i32) -> i32
  llvm.func @ascendc_model_fixpipe_nz2nd(!llvm.ptr, !llvm.ptr, i32, i32, !llvm.ptr, i32) -> i32
  llvm.func @ascendc_model_fixpipe_nz2nz(!llvm.ptr, !llvm.ptr, i32, i32, !llvm.ptr, i32) -> i32
  llvm.func @ascendc_model_set_flag(i32, i32, i32)
  llvm.func @ascendc_model_wait_flag(i32, i32, i32)
  llvm.func @ascendc_model_pipe_barrier(i32)
  llvm.func @ascendc_model_get_block_idx() -> i64
  llvm.func @ascendc_model_get_block_num() -> i64
  llvm.func @ascendc_model_set_atomic_add(i32)
  llvm.func @ascendc_model_set_atomic_none()
"#;
        assert_eq!(super::decls(), want);
    }
}
