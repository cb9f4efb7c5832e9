// layout-gemm's clap mistakes in the words of the other tools (crates/cli-common): one line,
// "did you mean", exit status 1 (clap's own exit is 2).
// RUN: not layout-gemm --tilse 64,64,64,64 2>&1 | FileCheck %s --check-prefix=FLAG
// RUN: not layout-gemm --cores x 2>&1 | FileCheck %s --check-prefix=VALUE
// RUN: layout-gemm --version | FileCheck %s --check-prefix=VERSION
// RUN: sh -c 'layout-gemm --tilse 64 2>/dev/null; test $? -eq 1'

// FLAG: layout-gemm: error: unknown option '--tilse'; did you mean '--tiles'?
// VALUE: layout-gemm: error: invalid value 'x' for '--cores <CORES>': invalid digit found in string
// VERSION: layout-gemm {{[0-9]+\.[0-9]+\.[0-9]+}}
