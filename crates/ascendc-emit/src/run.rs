//! Running a layout kernel through the AscendC back ends on the CPU: the one driver behind
//! `layout-run --backend ascendc-cpp|ascendc-llvm` and the three-way tests
//! (`tests/run.rs`).
//!
//! [`lower_to_ascendc`] runs `layout-lower-to-ascendc` (which applies `layout-verify`'s rules
//! first); then
//! - [`CppKernel`]: the emitted AscendC C++ plus a generated host `main()` (reads each GM
//!   argument from `inK.bin`, takes the scalars from the command line, calls the kernel, writes
//!   `outK.bin`), compiled once with g++ against the CPU model (`host/kernel_operator.h`,
//!   `crates/ascendc-params/model`) in a scratch directory, run once per call;
//! - [`LlvmKernel`]: the LLVM form of the same kernel, JIT-compiled with the model's C ABI
//!   symbols.
//!
//! A [`Launch`] of `blockDim` blocks runs the kernel once per block over the same GM buffers, in
//! the seeded order of `layout_runtime::blocks::block_order`, setting the model's block
//! (`GetBlockIdx()`) before each; [`Launch::SINGLE`] is one block.
//!
//! With `sanitize`, both run under the model's sanitizer (`ascendc_model_sanitizer.h`,
//! docs/sanitizer.md): every GM argument and on-chip buffer is registered by name, and the first
//! violation is an error located at the ascendc op (hence the layout op) it happened in.

use crate::kernel::{self, Kernel, Param};
use layout_dialect::ascendc_ops::AscendcOp;
use layout_runtime::diagnostics::{position_of, UNNAMED_INPUT};
use layout_runtime::{Arg, Array, Capture, Data, Diag, Error, Jit, Position};
use melior::ir::{
    block::BlockLike,
    operation::{OperationLike, OperationRef},
    Module, RegionLike,
};
use melior::pass::PassManager;
use std::ffi::CString;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The CPU model of the intrinsics (`ascendc_model.h`).
pub const MODEL_INCLUDE_DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../ascendc-params/model");

/// The sanitizer's checks (`ascendc_model_sanitizer.h`), or-ed; 0 runs without it.
pub mod checks {
    pub const NONE: u32 = 0;
    /// Every access inside a registered GM argument or on-chip buffer.
    pub const MEM: u32 = 1;
    /// No use of an on-chip byte nothing wrote.
    pub const INIT: u32 = 2;
    /// Cross-pipe accesses ordered by SetFlag -> WaitFlag; no wait without a set; no flag left set.
    pub const SYNC: u32 = 4;
    /// No two blocks of a multi-core launch write the same GM byte.
    pub const RACE: u32 = 8;
    pub const ALL: u32 = MEM | INIT | SYNC | RACE;

    /// A sanitizer check name that is not one of the three.
    #[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
    #[error("unknown check '{0}' (memcheck, initcheck, synccheck, racecheck)")]
    pub struct UnknownCheck(pub String);

    /// `memcheck,initcheck,synccheck,racecheck` (any non-empty subset, comma-separated) as checks.
    pub fn parse(list: &str) -> Result<u32, UnknownCheck> {
        let mut out = NONE;
        for name in list.split(',') {
            out |= match name.trim() {
                "memcheck" => MEM,
                "initcheck" => INIT,
                "synccheck" => SYNC,
                "racecheck" => RACE,
                other => return Err(UnknownCheck(other.to_string())),
            };
        }
        Ok(out)
    }
}

/// How a kernel is launched on the CPU: `block_dim` blocks (AscendC `blockDim`), run one after
/// another over the same GM buffers in the order `layout_runtime::blocks::block_order(block_dim,
/// seed)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Launch {
    pub block_dim: u32,
    pub seed: u64,
}

impl Launch {
    /// One block (block 0 of 1).
    pub const SINGLE: Launch = Launch { block_dim: 1, seed: 0 };

    /// The blocks in the order they run.
    pub fn order(&self) -> Vec<u32> {
        layout_runtime::blocks::block_order(self.block_dim, self.seed)
    }
}

/// Which back end runs a kernel (`layout-run --backend`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Backend {
    /// `layout-lower-to-loops` + the JIT: the CPU reference semantics.
    Loops,
    /// The emitted AscendC C++, compiled with g++ against the CPU model.
    AscendcCpp,
    /// The AscendC LLVM form (calls to the model's C ABI), JIT-compiled.
    AscendcLlvm,
}

impl Backend {
    pub const NAMES: &'static str = "loops, ascendc-cpp, ascendc-llvm";

    pub fn parse(name: &str) -> Option<Backend> {
        Some(match name {
            "loops" => Backend::Loops,
            "ascendc-cpp" => Backend::AscendcCpp,
            "ascendc-llvm" => Backend::AscendcLlvm,
            _ => return None,
        })
    }

    pub fn name(self) -> &'static str {
        match self {
            Backend::Loops => "loops",
            Backend::AscendcCpp => "ascendc-cpp",
            Backend::AscendcLlvm => "ascendc-llvm",
        }
    }
}

/// Lowers the layout ops of `module` to the ascendc dialect (`layout-lower-to-ascendc`, which
/// checks `layout-verify`'s rules first); errors are the passes' located diagnostics.
pub fn lower_to_ascendc(module: &mut Module) -> Result<(), Error> {
    let capture = Capture::for_module(module, UNNAMED_INPUT);
    // Safety: the context outlives this function; `to_ref` borrows `context_ref`.
    let context_ref = module.context();
    let context = unsafe { context_ref.to_ref() };
    let manager = PassManager::new(context);
    manager.add_pass(layout_passes::lower_to_ascendc::create());
    let ok = manager.run(module).is_ok();
    let diagnostics = capture.take();
    if !ok || diagnostics.iter().any(Diag::is_error) {
        return Err(Error::Mlir { what: "layout-lower-to-ascendc failed".into(), diagnostics });
    }
    Ok(())
}

/// Where things are in the lowered entry function, for located errors: the function itself and,
/// in walk order (the order both printers number their calls and flags in), every intrinsic
/// call and every SetFlag/WaitFlag.
#[derive(Clone, Debug, Default)]
pub struct Sites {
    pub function: Option<Position>,
    pub calls: Vec<Option<Position>>,
    pub flags: Vec<Option<Position>>,
}

/// Flag sites are numbered after this offset (calls from 0).
const FLAG_SITE: i32 = 1 << 20;

impl Sites {
    fn of(module: &Module, entry: &str) -> Sites {
        let mut sites = Sites::default();
        let body = module.body();
        let mut next = body.first_operation();
        while let Some(op) = next {
            let is_entry = op.name().as_string_ref().as_str() == Ok("func.func")
                && op.attribute("sym_name").map(|a| a.to_string() == format!("\"{entry}\"")).unwrap_or(false);
            if is_entry {
                sites.function = position_of(op.location(), UNNAMED_INPUT);
                walk(&op, &mut sites);
            }
            next = op.next_in_block();
        }
        sites
    }

    /// The position of sanitizer site `site` (-1: unknown), else the function's.
    fn position(&self, site: i32) -> Option<Position> {
        let found = if site >= FLAG_SITE {
            self.flags.get((site - FLAG_SITE) as usize).cloned().flatten()
        } else if site >= 0 {
            self.calls.get(site as usize).cloned().flatten()
        } else {
            None
        };
        found.or_else(|| self.function.clone())
    }

    fn error(&self, message: impl Into<String>) -> Diag {
        Diag::error(self.function.clone(), message)
    }
}

fn walk(op: &OperationRef, sites: &mut Sites) {
    for i in 0..op.region_count() {
        let Ok(region) = op.region(i) else { continue };
        let mut block = region.first_block();
        while let Some(b) = block {
            let mut next = b.first_operation();
            while let Some(inner) = next {
                match AscendcOp::decode(inner) {
                    Some(Ok(AscendcOp::Flag { .. })) => sites.flags.push(position_of(inner.location(), UNNAMED_INPUT)),
                    Some(Ok(AscendcOp::Call { .. })) => sites.calls.push(position_of(inner.location(), UNNAMED_INPUT)),
                    _ => {}
                }
                walk(&inner, sites);
                next = inner.next_in_block();
            }
            block = b.next_in_region();
        }
    }
}

/// The kernel named `entry` in a module lowered to ascendc.
fn entry_kernel(module: &Module, entry: &str, sites: &Sites) -> Result<Kernel, Diag> {
    let kernels = kernel::kernels(module)?;
    kernels
        .into_iter()
        .find(|k| k.name == entry)
        .ok_or_else(|| sites.error(format!("no ascendc kernel @{entry} after layout-lower-to-ascendc")))
}

/// Checks that `args` fit the kernel's parameters: GM buffers for memrefs, integers for index.
fn check_args(kernel: &Kernel, args: &[Arg], sites: &Sites) -> Result<(), Diag> {
    if args.len() != kernel.params.len() {
        return Err(sites.error(format!(
            "@{} takes {} arguments in the AscendC kernel, {} given",
            kernel.name,
            kernel.params.len(),
            args.len()
        )));
    }
    for (i, (p, a)) in kernel.params.iter().zip(args).enumerate() {
        let fits =
            matches!((p, a), (Param::Gm { .. }, Arg::MemRef(_)) | (Param::Index { .. }, Arg::Index(_) | Arg::Int(_)));
        if !fits {
            return Err(sites.error(format!(
                "argument #{i} of @{}: the AscendC back ends take memrefs and index values only",
                kernel.name
            )));
        }
    }
    Ok(())
}

/// A registered sanitizer region: base offset (from the GM argument or the on-chip memory),
/// bytes, element bytes, name, on chip.
struct Region {
    name: String,
    bytes: u64,
    elem_bytes: u32,
}

/// The names the sanitizer reports for the kernel's buffers: GM arguments, then on-chip
/// buffers as `(memory, byte offset, region)`.
fn on_chip_regions(kernel: &Kernel) -> Vec<(&'static str, i64, Region)> {
    let mut out = Vec::new();
    for b in &kernel.bufs {
        let Some((pos, offset, size)) = &b.local else { continue };
        let memory = match pos.as_str() {
            "A1" | "B1" => "L1",
            "A2" => "L0A",
            "B2" => "L0B",
            _ => "L0C",
        };
        let elem_bytes = crate::cpp::elem_bytes(&b.elem).unwrap_or(1) as u32;
        let name = format!("{} ({memory} bytes [{offset}, {}), {})", b.name, offset + size, b.layout);
        out.push((memory, *offset, Region { name, bytes: *size as u64, elem_bytes }));
    }
    out
}

fn gm_region_name(kernel: &Kernel, k: usize) -> String {
    let name = match &kernel.params[k] {
        Param::Gm { name, memref, .. } => format!("{name}: {memref}"),
        Param::Index { name } => name.clone(),
    };
    format!("GM argument #{k} ({name})")
}

/// The layouts of the sanitizer's regions in registration order: GM arguments, then on chip.
fn region_layouts(kernel: &Kernel) -> Vec<String> {
    let mut out = Vec::new();
    for (k, p) in kernel.params.iter().enumerate() {
        if matches!(p, Param::Gm { .. }) {
            let b = kernel.bufs.iter().find(|b| b.local.is_none() && b.param == Some(k));
            out.push(b.map(|b| b.layout.clone()).unwrap_or_default());
        }
    }
    out.extend(kernel.bufs.iter().filter(|b| b.local.is_some()).map(|b| b.layout.clone()));
    out
}

/// The logical coordinate of element offset `elem` in a rank-2 layout `shape:stride [origin
/// ...]` (first match in row-major order), by the algebra's `crd_to_offset`.
pub fn coordinate_of(layout: &str, elem: i64) -> Option<(i64, i64)> {
    use layout_algebra::{parse_layout, Tuple};
    let l = parse_layout(layout.split(" origin").next()?).ok()?;
    if l.rank() != 2 {
        return None;
    }
    let (rows, cols) = (l.mode(0).ok()?.size().ok()?, l.mode(1).ok()?.size().ok()?);
    for r in 0..rows {
        for c in 0..cols {
            if l.crd_to_offset(&Tuple::from_vec(vec![Tuple::int(r), Tuple::int(c)])).ok()? == elem {
                return Some((r, c));
            }
        }
    }
    None
}

/// `message` with the coordinate of the reported element appended (initcheck).
fn with_coordinate(kernel: &Kernel, message: &str, region: i64, elem: i64) -> String {
    let layout = usize::try_from(region).ok().and_then(|r| region_layouts(kernel).get(r).cloned());
    match layout.and_then(|l| coordinate_of(&l, elem)) {
        Some((r, c)) => format!("{message}: coordinate ({r}, {c})"),
        None => message.to_string(),
    }
}

/// A sanitizer report: the message located at its site, with the kernel named.
fn sanitizer_error(sites: &Sites, kernel: &str, report: &str, site: i32) -> Diag {
    Diag::error(sites.position(site), format!("sanitizer: {report} (in @{kernel})"))
}

/// The emitted AscendC C++ of one kernel with its host harness, compiled.
pub struct CppKernel {
    dir: PathBuf,
    exe: PathBuf,
    kernel: Kernel,
    sites: Sites,
    /// `line of kernel.cpp -> sanitizer site` (calls and flags).
    line_sites: Vec<i32>,
    owns_dir: bool,
}

impl CppKernel {
    /// Emits `entry` of the lowered `module` as C++, writes the harness and compiles it with g++
    /// in `dir` (created; removed on drop when `dir` is `None`, a fresh temporary directory).
    pub fn build(module: &Module, entry: &str, dir: Option<&Path>, sanitize: u32) -> Result<CppKernel, Diag> {
        let sites = Sites::of(module, entry);
        let kernel = entry_kernel(module, entry, &sites)?;
        let target = crate::target_of(module)?;
        let cpp = crate::cpp::translation_unit(std::slice::from_ref(&kernel), target)
            .map_err(|e| e.into_diag(sites.function.clone()))?;
        let (dir, owns_dir) = match dir {
            Some(d) => (d.to_path_buf(), false),
            None => (fresh_temp_dir(), true),
        };
        std::fs::create_dir_all(&dir)
            .map_err(|e| sites.error(format!("cannot create the build directory '{}': {e}", dir.display())))?;
        let this = CppKernel { exe: dir.join("kernel"), line_sites: line_sites(&cpp), dir, kernel, sites, owns_dir };
        let write = |name: &str, text: &str| {
            std::fs::write(this.dir.join(name), text)
                .map_err(|e| this.sites.error(format!("cannot write '{}': {e}", this.dir.join(name).display())))
        };
        write("kernel.cpp", &cpp)?;
        write("main.cpp", &harness(&this.kernel, sanitize))?;
        let arch = target.arch();
        let out = Command::new("g++")
            .args(["-std=c++17", "-O1", "-Wall", "-Wno-unused-variable", "-Wno-unused-but-set-variable"])
            .arg(format!("-DASCENDC_MODEL_ARCH={arch}"))
            .arg(format!("-I{}", crate::HOST_INCLUDE_DIR))
            .arg(format!("-I{MODEL_INCLUDE_DIR}"))
            .args(["main.cpp", "-o", "kernel"])
            .current_dir(&this.dir)
            .output()
            .map_err(|e| this.sites.error(format!("cannot run g++ (needed by --backend ascendc-cpp): {e}")))?;
        if !out.status.success() {
            return Err(this.sites.error(format!(
                "g++ failed on the emitted AscendC C++ ({}):\n{}",
                this.dir.join("kernel.cpp").display(),
                String::from_utf8_lossy(&out.stderr)
            )));
        }
        Ok(this)
    }

    /// Runs the compiled kernel on `args` (memref contents are replaced by the kernel's GM
    /// buffers after the run).
    pub fn call(&self, args: &mut [Arg]) -> Result<(), Diag> {
        self.call_launch(args, Launch::SINGLE)
    }

    /// Runs every block of `launch` on `args` (one process: the blocks share the GM buffers).
    pub fn call_launch(&self, args: &mut [Arg], launch: Launch) -> Result<(), Diag> {
        check_args(&self.kernel, args, &self.sites)?;
        let mut scalars = Vec::new();
        for (k, a) in args.iter().enumerate() {
            match a {
                Arg::MemRef(array) => {
                    std::fs::write(self.dir.join(format!("in{k}.bin")), array.data().to_le_bytes())
                        .map_err(|e| self.sites.error(format!("cannot write the input of argument #{k}: {e}")))?
                }
                Arg::Index(v) | Arg::Int(v) => scalars.push(v.to_string()),
                _ => {}
            }
        }
        let report = self.dir.join("sanitizer.txt");
        let _ = std::fs::remove_file(&report);
        let blocks = launch.order().iter().map(u32::to_string).collect::<Vec<_>>().join(",");
        let run = Command::new(&self.exe)
            .arg(&self.dir)
            .args(&scalars)
            .arg(launch.block_dim.to_string())
            .arg(if blocks.is_empty() { "-".to_string() } else { blocks })
            .current_dir(&self.dir)
            .output()
            .map_err(|e| self.sites.error(format!("cannot run the compiled kernel: {e}")))?;
        if let Ok(text) = std::fs::read_to_string(&report) {
            let (head, message) = text.split_once('\n').unwrap_or(("-1 -1 -1", &text));
            let nums: Vec<i64> = head.split_whitespace().filter_map(|n| n.parse().ok()).collect();
            let get = |i: usize| nums.get(i).copied().unwrap_or(-1);
            let site = usize::try_from(get(0)).ok().and_then(|l| self.line_sites.get(l)).copied().unwrap_or(-1);
            let message = with_coordinate(&self.kernel, message.trim_end(), get(1), get(2));
            return Err(sanitizer_error(&self.sites, &self.kernel.name, &message, site));
        }
        if !run.status.success() {
            return Err(self.sites.error(format!(
                "the AscendC kernel @{} failed on the CPU model: {}",
                self.kernel.name,
                String::from_utf8_lossy(&run.stderr).trim_end()
            )));
        }
        for (k, a) in args.iter_mut().enumerate() {
            if let Arg::MemRef(array) = a {
                let bytes = std::fs::read(self.dir.join(format!("out{k}.bin")))
                    .map_err(|e| self.sites.error(format!("cannot read the output of argument #{k}: {e}")))?;
                let data = Data::from_bytes(array.elem(), &bytes, false);
                **array = Array::new(array.shape().to_vec(), data)
                    .map_err(|_| self.sites.error(format!("argument #{k}: the kernel wrote {} bytes", bytes.len())))?;
            }
        }
        Ok(())
    }
}

impl Drop for CppKernel {
    fn drop(&mut self) {
        if self.owns_dir {
            let _ = std::fs::remove_dir_all(&self.dir);
        }
    }
}

fn fresh_temp_dir() -> PathBuf {
    use std::sync::atomic::{AtomicUsize, Ordering};
    static NEXT: AtomicUsize = AtomicUsize::new(0);
    let n = NEXT.fetch_add(1, Ordering::Relaxed);
    std::env::temp_dir().join(format!("layout-run-ascendc-{}-{n}", std::process::id()))
}

/// For each line (1-based) of the emitted C++: the sanitizer site of the call or flag on it.
/// Intrinsic calls end in `pN);` (the printer's call number, walk order); flags are counted.
fn line_sites(cpp: &str) -> Vec<i32> {
    let mut out = vec![-1];
    let mut flags = 0;
    for line in cpp.lines() {
        let t = line.trim();
        let site = if t.starts_with("AscendC::SetFlag<") || t.starts_with("AscendC::WaitFlag<") {
            flags += 1;
            FLAG_SITE + flags - 1
        } else if t.starts_with("AscendC::") && t.ends_with(");") {
            t.rsplit(", p").next().and_then(|s| s.strip_suffix(");")).and_then(|n| n.parse().ok()).unwrap_or(-1)
        } else {
            -1
        };
        out.push(site);
    }
    out
}

/// The host `main()`: `kernel DIR SCALARS... BLOCK_DIM ORDER` (ORDER: the block ids, comma
/// separated, in the order they run; each block is one call of the kernel).
fn harness(k: &Kernel, sanitize: u32) -> String {
    let mut m = String::from(
        "#include \"kernel.cpp\"\n#include <cstdio>\n#include <cstdlib>\n#include <string>\n#include <vector>\n",
    );
    m.push_str(
        "static std::string at(const char* dir, const char* what, int k) { return std::string(dir) + \"/\" + what + std::to_string(k) + \".bin\"; }\n\
         static std::vector<uint8_t> load(const std::string& p) { std::vector<uint8_t> v; FILE* f = std::fopen(p.c_str(), \"rb\"); if (!f) { std::perror(p.c_str()); std::exit(3); } int c; while ((c = std::fgetc(f)) != EOF) v.push_back((uint8_t)c); std::fclose(f); return v; }\n\
         static void store(const std::string& p, const std::vector<uint8_t>& v) { FILE* f = std::fopen(p.c_str(), \"wb\"); if (!f || std::fwrite(v.data(), 1, v.size(), f) != v.size()) { std::perror(p.c_str()); std::exit(3); } std::fclose(f); }\n",
    );
    let scalars = k.params.iter().filter(|p| matches!(p, Param::Index { .. })).count();
    m.push_str(&format!(
        "int main(int argc, char** argv) {{\n  if (argc != {}) {{ std::fprintf(stderr, \"usage: kernel DIR SCALARS ({scalars}) BLOCK_DIM ORDER\\n\"); return 3; }}\n  const char* dir = argv[1];\n",
        4 + scalars
    ));
    let mut call = Vec::new();
    let mut next_scalar = 2;
    for (i, p) in k.params.iter().enumerate() {
        match p {
            Param::Gm { .. } => {
                m.push_str(&format!("  auto b{i} = load(at(dir, \"in\", {i}));\n"));
                call.push(format!("b{i}.data()"));
            }
            Param::Index { .. } => {
                call.push(format!("(int64_t)std::strtoll(argv[{next_scalar}], nullptr, 10)"));
                next_scalar += 1;
            }
        }
    }
    if sanitize != 0 {
        m.push_str(&format!("  namespace san = ascendc_model::san;\n  san::begin({sanitize});\n"));
        for (i, p) in k.params.iter().enumerate() {
            if let Param::Gm { elem, .. } = p {
                let eb = crate::cpp::elem_bytes(elem).unwrap_or(1);
                m.push_str(&format!(
                    "  san::add_region(b{i}.data(), b{i}.size(), {eb}, {:?}, false);\n",
                    gm_region_name(k, i)
                ));
            }
        }
        for (memory, offset, r) in on_chip_regions(k) {
            m.push_str(&format!(
                "  san::add_region(AscendC::model::ArenaBase<AscendC::Hardware::{memory}>() + {offset}, {}, {}, {:?}, true);\n",
                r.bytes, r.elem_bytes, r.name
            ));
        }
    }
    m.push_str(&format!(
        "  const uint32_t block_dim = (uint32_t)std::strtoul(argv[{}], nullptr, 10);\n  for (const char* b = argv[{}]; *b && *b != '-'; ) {{\n    char* next = nullptr;\n    const uint32_t block = (uint32_t)std::strtoul(b, &next, 10);\n    ascendc_model::set_block(block, block_dim);\n    {}({});\n    b = *next == ',' ? next + 1 : next;\n  }}\n",
        2 + scalars,
        3 + scalars,
        k.name,
        call.join(", ")
    ));
    if sanitize != 0 {
        m.push_str(
            "  std::string report = san::end();\n  if (!report.empty()) { FILE* f = std::fopen((std::string(dir) + \"/sanitizer.txt\").c_str(), \"w\"); std::fprintf(f, \"%d %d %lld\\n%s\\n\", san::state().report_site, san::state().report_region, (long long)san::state().report_elem, report.c_str()); std::fclose(f); return 4; }\n",
        );
    }
    m.push_str("  if (AscendC::model::ErrorCount()) { std::fprintf(stderr, \"model error: %s\\n\", AscendC::model::LastError()); return 2; }\n");
    for (i, p) in k.params.iter().enumerate() {
        if matches!(p, Param::Gm { .. }) {
            m.push_str(&format!("  store(at(dir, \"out\", {i}), b{i});\n"));
        }
    }
    m.push_str("  return 0;\n}\n");
    m
}

/// The LLVM form of one kernel, JIT-compiled with the model's C ABI.
pub struct LlvmKernel {
    jit: Jit,
    kernel: Kernel,
    sites: Sites,
}

/// The on-chip memory globals of the LLVM form (`llvm.rs`) by memory name.
fn memory_global(memory: &str) -> &'static str {
    match memory {
        "L1" => "ascendc_l1",
        "L0A" => "ascendc_l0a",
        "L0B" => "ascendc_l0b",
        _ => "ascendc_l0c",
    }
}

impl LlvmKernel {
    /// `entry` of the lowered `module` in its LLVM form, parsed in `context` and JIT-compiled.
    /// The form is the emitter's with a sanitizer site call before each intrinsic and flag, and
    /// the memory globals visible to the JIT's symbol lookup.
    pub fn build(context: &melior::Context, module: &Module, entry: &str) -> Result<LlvmKernel, Diag> {
        let sites = Sites::of(module, entry);
        let kernel = entry_kernel(module, entry, &sites)?;
        let target = crate::target_of(module)?;
        let text = crate::llvm::mlir_module(std::slice::from_ref(&kernel), target)
            .map_err(|e| e.into_diag(sites.function.clone()))?;
        let text = with_sites(&text);
        let parsed = Module::parse(context, &text)
            .ok_or_else(|| sites.error("internal error: the generated LLVM-form module does not parse"))?;
        let jit = Jit::new(&parsed).map_err(|e| sites.error(format!("JIT of the AscendC LLVM form: {e}")))?;
        // Safety: the model's C ABI functions have exactly the declared signatures.
        unsafe { jit.register_symbols(&ascendc_params::ffi::c_abi_symbols()) };
        Ok(LlvmKernel { jit, kernel, sites })
    }

    /// Calls the kernel on `args`, under the sanitizer's `sanitize` checks ([`checks`]).
    pub fn call(&self, args: &mut [Arg], sanitize: u32) -> Result<(), Diag> {
        self.call_launch(args, sanitize, Launch::SINGLE)
    }

    /// Runs every block of `launch` on `args` (the blocks share the GM buffers), under the
    /// sanitizer's `sanitize` checks.
    pub fn call_launch(&self, args: &mut [Arg], sanitize: u32, launch: Launch) -> Result<(), Diag> {
        check_args(&self.kernel, args, &self.sites)?;
        use ascendc_params::ffi;
        let mut names = Vec::new();
        if sanitize != 0 {
            // Safety: plain calls into the model; the names outlive the run (kept in `names`).
            unsafe { ffi::ascendc_model_sanitize_begin(sanitize) };
            for (k, a) in args.iter_mut().enumerate() {
                if let Arg::MemRef(array) = a {
                    let bytes = (array.len() * array.elem().size()) as u64;
                    let name = CString::new(gm_region_name(&self.kernel, k)).unwrap_or_default();
                    let base = array.data_mut().as_mut_ptr();
                    unsafe {
                        ffi::ascendc_model_sanitize_region(
                            base.cast(),
                            bytes,
                            array.elem().size() as u32,
                            name.as_ptr(),
                            0,
                        )
                    };
                    names.push(name);
                }
            }
            for (memory, offset, r) in on_chip_regions(&self.kernel) {
                let Some(base) = self.jit.lookup(memory_global(memory)) else {
                    return Err(self
                        .sites
                        .error(format!("internal error: the JIT has no symbol {}", memory_global(memory))));
                };
                let name = CString::new(r.name).unwrap_or_default();
                // Safety: `base + offset` lies inside the memory global (placement checked it).
                unsafe {
                    let p = (base as *const u8).add(offset as usize);
                    ffi::ascendc_model_sanitize_region(p.cast(), r.bytes, r.elem_bytes, name.as_ptr(), 1);
                }
                names.push(name);
            }
        }
        let mut result = Ok(None);
        for block in launch.order() {
            // Safety: a plain call into the model (this thread's launch state).
            unsafe { ffi::ascendc_model_set_block(block, launch.block_dim) };
            result = self.jit.call(&self.kernel.name, args);
            if result.is_err() {
                break;
            }
        }
        if sanitize != 0 {
            // Safety: the model returns a NUL-terminated static string.
            let report =
                unsafe { std::ffi::CStr::from_ptr(ffi::ascendc_model_sanitize_end()) }.to_string_lossy().into_owned();
            if !report.is_empty() {
                let site = unsafe { ffi::ascendc_model_sanitize_report_site() };
                let mut region = -1;
                let elem = unsafe { ffi::ascendc_model_sanitize_report_element(&mut region) };
                let message = with_coordinate(&self.kernel, &report, region.into(), elem);
                return Err(sanitizer_error(&self.sites, &self.kernel.name, &message, site));
            }
        }
        result.map(|_| ()).map_err(|e| self.sites.error(format!("call @{}: {e}", self.kernel.name)))
    }
}

/// The LLVM-form text with `ascendc_model_sanitize_site(N)` before each intrinsic call (N in
/// walk order, the emitter's order) and each flag (`FLAG_SITE + M`), and the memory globals
/// external (so the JIT can look them up).
fn with_sites(text: &str) -> String {
    let mut out = String::with_capacity(text.len() * 2);
    let (mut calls, mut flags, mut n) = (0, 0, 0);
    for line in text.lines() {
        let t = line.trim_start();
        let site = if t.starts_with("llvm.call @ascendc_model_set_flag")
            || t.starts_with("llvm.call @ascendc_model_wait_flag")
        {
            flags += 1;
            Some(FLAG_SITE + flags - 1)
        } else if t.contains("= llvm.call @ascendc_model_") && t.ends_with("-> i32") {
            calls += 1;
            Some(calls - 1)
        } else {
            None
        };
        if let Some(site) = site {
            let indent = &line[..line.len() - t.len()];
            n += 1;
            out.push_str(&format!("{indent}%sanitize_site{n} = llvm.mlir.constant({site} : i32) : i32\n"));
            out.push_str(&format!("{indent}llvm.call @ascendc_model_sanitize_site(%sanitize_site{n}) : (i32) -> ()\n"));
        }
        if t.starts_with("llvm.func @ascendc_model_pipe_barrier") {
            out.push_str(line);
            out.push('\n');
            out.push_str(&format!("{}llvm.func @ascendc_model_sanitize_site(i32)\n", &line[..line.len() - t.len()]));
            continue;
        }
        out.push_str(&line.replace("llvm.mlir.global internal @ascendc_", "llvm.mlir.global external @ascendc_"));
        out.push('\n');
    }
    out
}
