//! `layout-gemm`: the GEMM generator's command line (docs/gemm-generator.md).
//!
//!     layout-gemm --m ? --n ? --k ? --dtype f16 --a ND --b DN --target a2 [--tiles 128,256,256,64]
//!                 [--order swizzle:3] [--emit=mlir|ascendc|ascendc-llvm] [-o FILE] [--project DIR]
//!
//! Without `--tiles`, the tiles are chosen by the cost model for the static sizes (or
//! `--tune-for M,N,K`) on `--cores` blocks. The kernel is verified (`layout-verify`) before it is printed; `--emit=ascendc` lowers it
//! (`layout-lower-to-ascendc`) and prints the AscendC C++; `--project DIR` also writes the
//! lowered kernel's CANN project (kernel.cpp, tiling.h for dynamic sizes, main.cpp, CMakeLists.txt) to DIR. Errors: `layout-gemm: error: ...`,
//! exit status 1, no output file written.

mod args;
mod compile;
mod error;
mod tune;

use clap::Parser;
use error::GemmError;

fn main() -> std::process::ExitCode {
    // clap's mistakes as one `layout-gemm: error: ...` line, exit 1, as the other tools'.
    let args = match args::Args::try_parse().map_err(cli_common::from_clap) {
        Ok(args) => args,
        Err(cli_common::CliError::Display(text)) => {
            print!("{text}");
            return std::process::ExitCode::SUCCESS;
        }
        Err(mistake) => return cli_common::fail("layout-gemm", &mistake.to_string()),
    };
    match run(&args) {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(e) => cli_common::fail("layout-gemm", &e.to_string()),
    }
}

fn run(args: &args::Args) -> Result<(), GemmError> {
    let mut spec = args.spec()?;
    let mut ranking = String::new();
    if args.tiles.is_none() {
        if let Some(sizes) = args.tune_sizes(&spec)? {
            let fixed = (args.stages, args.split_k, args.order.is_some());
            let (tuned, ranked) = tune::choose(&spec, sizes, args.cores, fixed)?;
            spec = tuned;
            if args.explain {
                let cores = args.cores.unwrap_or(ascendc_emit::cost::HardwareParams::of(spec.target).cube_cores);
                ranking = tune::table(&ranked, sizes, cores, if args.explain_all { usize::MAX } else { 12 });
            }
        }
    }
    let text = ranking + &gemm_gen::generate(&spec)?;
    let project = args.project.as_deref().map(|dir| (spec.name.as_str(), dir));
    // Two stages the generator did not pipeline itself go through layout-multi-buffer.
    let stages = if gemm_gen::needs_multi_buffer(&spec) { 2 } else { 1 };
    let out = compile::checked(&text, stages, args.emit, project)?;
    match &args.output {
        Some(path) => output_file::write(path, out.as_bytes()).map_err(|e| GemmError::Write(path.clone(), e)),
        None => {
            print!("{out}");
            Ok(())
        }
    }
}
