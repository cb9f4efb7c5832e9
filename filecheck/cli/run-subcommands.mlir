// layout-run's packing subcommands are clap subcommands: their own --help, "did you mean" for
// their misspelled flags, clap's checks of values, a misspelled subcommand named as such; sizes
// bench-pack cannot allocate are an error before any allocation; a negative --c0 is a value
// (the input file is then the first thing missing), not an unknown option.
// RUN: layout-run pack --help | FileCheck %s --check-prefix=HELP
// RUN: layout-run --help | FileCheck %s --check-prefix=TOP
// RUN: not layout-run pack --layot NZ a.npy b.npy 2>&1 | FileCheck %s --check-prefix=FLAG
// RUN: not layout-run unpack --layout NZ --rows x a.npy b.npy 2>&1 | FileCheck %s --check-prefix=VALUE
// RUN: not layout-run pack --layout NZ --shape cube a.npy b.npy 2>&1 | FileCheck %s --check-prefix=SHAPE
// RUN: not layout-run pack --layout NZ a.npy 2>&1 | FileCheck %s --check-prefix=FILES
// RUN: not layout-run pack --layout NZ %t-missing.npy %t-out.npy 2>&1 | FileCheck %s --check-prefix=INPUT
// RUN: not layout-run pakc --entry f 2>&1 | FileCheck %s --check-prefix=SUBCOMMAND
// RUN: not layout-run bench-pack --sizes 12 2>&1 | FileCheck %s --check-prefix=SIZES
// RUN: not layout-run bench-pack --sizes 99999999x99999999 2>&1 | FileCheck %s --check-prefix=HUGE
// RUN: not layout-run bench-pack --sizes 0x16 2>&1 | FileCheck %s --check-prefix=EMPTY
// RUN: not layout-run pack --layout NZ --c0 -5 %t-missing.npy %t-out.npy 2>&1 | FileCheck %s --check-prefix=C0

// HELP: Usage: layout-run pack [OPTIONS] [FILE]...
// HELP: [FILE]...  IN.npy OUT.npy
// HELP: --layout <L>
// HELP: --shape <S>
// HELP: LAYOUTS: ND DN
// TOP: pack
// TOP: unpack
// TOP: bench-pack
// TOP-NOT: {{^}}  help{{ }}
// FLAG: layout-run: error: unknown option '--layot'; did you mean '--layout'?
// VALUE: layout-run: error: invalid value 'x' for '--rows <R>': invalid digit found in string
// SHAPE: layout-run: error: invalid value 'cube' for '--shape <S>' [possible values: flat, physical]
// FILES: layout-run: error: expected IN.npy OUT.npy, got 1 file argument(s) (see `layout-run pack --help`)
// INPUT: layout-run: error: {{.*}}-missing.npy: {{.*}}No such file or directory
// SUBCOMMAND: layout-run: error: cannot open kernel file 'pakc': No such file or directory (os error 2); did you mean the subcommand 'pack'?
// SIZES: layout-run: error: --sizes: '12' is not RxC
// HUGE: layout-run: error: --sizes: '99999999x99999999' must have 1 to 268435456 elements
// EMPTY: layout-run: error: --sizes: '0x16' must have 1 to 268435456 elements
// C0: layout-run: error: {{.*}}-missing.npy: {{.*}}No such file or directory
