// layout-calc's command line (clap, errors through cli-common as layout-opt's): --version,
// --list-functions, completions, "did you mean" for misspelled flags and function names, and
// several --input files read in order with located errors (exit status 1 if any line failed).
// RUN: layout-calc --version | FileCheck %s --check-prefix=VERSION
// RUN: layout-calc --list-functions | FileCheck %s --check-prefix=LIST
// RUN: layout-calc --completions bash | FileCheck %s --check-prefix=BASH
// RUN: not layout-calc --verson 2>&1 | FileCheck %s --check-prefix=FLAG
// RUN: not layout-calc --zzzz 2>&1 | FileCheck %s --check-prefix=NONE
// RUN: not layout-calc 'compositon(1:1,1:1)' | FileCheck %s --check-prefix=FUNCTION
// RUN: not layout-calc --input %S/Inputs/calc-first.txt -i %S/Inputs/calc-second.txt 'rank((1,2,3))' | FileCheck %s --check-prefix=FILES
// RUN: layout-calc -i %S/Inputs/calc-second.txt --input=%S/Inputs/calc-second.txt | FileCheck %s --check-prefix=TWICE
// RUN: not layout-calc --input %S/Inputs/no-such-file.txt | FileCheck %s --check-prefix=MISSING

// VERSION: layout-calc {{[0-9]+\.[0-9]+\.[0-9]+}}
// LIST: crd2offset(L,C) the layout function at coordinate C
// LIST: pattern(L) which frame pattern L is
// BASH: _layout__calc()
// BASH: --list-functions
// BASH: --input
// FLAG: layout-calc: error: unknown option '--verson'; did you mean '--version'?
// NONE: layout-calc: error: unknown option '--zzzz' (see --help)
// FUNCTION: error: unknown function `compositon`; did you mean `composition`?
// FILES: {{^}}3{{$}}
// FILES-NEXT: {{^}}6{{$}}
// FILES-NEXT: {{.*}}calc-first.txt:4:23: error: expected `,` or `)` in arguments of `cosize`, found end of input
// FILES-NEXT: {{.*}}calc-first.txt:5:1: error: unknown function `compositon`; did you mean `composition`?
// FILES-NEXT: {{^}}37{{$}}
// TWICE: {{^}}37{{$}}
// TWICE-NEXT: {{^}}37{{$}}
// MISSING: error: cannot open input file '{{.*}}no-such-file.txt': No such file or directory
