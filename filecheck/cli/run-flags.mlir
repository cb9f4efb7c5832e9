// layout-run's command line (clap, as layout-opt's): --version, "did you mean" for misspelled
// flags (one or two dashes), shell completions, and the compiled-kernel cache: the second run
// of a kernel takes its object from the cache (-v says so), --no-cache compiles again.
// RUN: layout-run --version | FileCheck %s --check-prefix=VERSION
// RUN: not layout-run %s --entyr f 2>&1 | FileCheck %s --check-prefix=FLAG
// RUN: not layout-run %s -entyr f 2>&1 | FileCheck %s --check-prefix=FLAG
// RUN: not layout-run %s --zzzz 2>&1 | FileCheck %s --check-prefix=NONE
// RUN: layout-run --completions bash | FileCheck %s --check-prefix=BASH
// RUN: rm -rf %t && mkdir -p %t
// RUN: env LAYOUT_OPT_CACHE_DIR=%t/cache layout-run %s --entry scale --arg 1=3 --out-dir %t/first -v 2>&1 | FileCheck %s --check-prefix=MISS
// RUN: env LAYOUT_OPT_CACHE_DIR=%t/cache layout-run %s --entry scale --arg 1=3 --out-dir %t/second -v 2>&1 | FileCheck %s --check-prefix=HIT
// RUN: env LAYOUT_OPT_CACHE_DIR=%t/cache layout-run %s --entry scale --arg 1=3 --out-dir %t/third -v --no-cache 2>&1 | FileCheck %s --check-prefix=OFF
// RUN: env LAYOUT_OPT_CACHE=off LAYOUT_OPT_CACHE_DIR=%t/cache layout-run %s --entry scale --arg 1=3 --out-dir %t/third -v 2>&1 | FileCheck %s --check-prefix=OFF
// RUN: layout-run --compare %t/first/arg0.npy %t/second/arg0.npy | FileCheck %s --check-prefix=SAME
// RUN: layout-run --compare %t/first/arg0.npy %t/third/arg0.npy | FileCheck %s --check-prefix=SAME

// VERSION: layout-run {{[0-9]+\.[0-9]+\.[0-9]+}}
// FLAG: layout-run: error: unknown option '--entyr'; did you mean '--entry'?
// NONE: layout-run: error: unknown option '--zzzz' (see --help)
// BASH: _layout__run()
// BASH: --no-cache
// BASH: complete -F _layout__run
// MISS: layout-run: jit cache: 0 hits, 1 misses, 0 uncached (in {{.*}}cache)
// HIT: layout-run: jit cache: 1 hits, 0 misses, 0 uncached (in {{.*}}cache)
// OFF: layout-run: jit cache: 0 hits, 0 misses, 1 uncached (disabled)
// SAME: max |a - b| = 0

func.func @scale(%x: memref<64xf32>, %s: index) attributes {llvm.emit_c_interface} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %si = arith.index_cast %s : index to i64
  %sf = arith.sitofp %si : i64 to f32
  scf.for %i = %c0 to %c64 step %c1 {
    %v = memref.load %x[%i] : memref<64xf32>
    %w = arith.mulf %v, %sf : f32
    memref.store %w, %x[%i] : memref<64xf32>
  }
  return
}
