// --version, --list-passes (Rust and upstream passes with their descriptions) and shell
// completions that know the pass flags.
// RUN: layout-opt --version | FileCheck %s --check-prefix=VERSION
// RUN: layout-opt --list-passes | FileCheck %s --check-prefix=LIST
// RUN: layout-opt --completions bash | FileCheck %s --check-prefix=BASH
// RUN: layout-opt --completions=zsh | FileCheck %s --check-prefix=ZSH
// RUN: not layout-opt --completions=cmd 2>&1 | FileCheck %s --check-prefix=SHELL

// VERSION: layout-opt {{[0-9]+\.[0-9]+\.[0-9]+}}
// LIST: layout-verify Check layout-dialect semantics
// LIST: layout-simplify-offsets Remove div/rem
// LIST: canonicalize Canonicalize operations (upstream)
// LIST: loop-invariant-code-motion Hoist loop invariant operations
// BASH: _layout__opt()
// BASH: --mlir-timing
// BASH: --layout-lower-to-ascendc
// BASH: complete -F _layout__opt
// ZSH: #compdef layout-opt
// ZSH: --layout-verify
// SHELL: layout-opt: error: invalid value 'cmd' for '--completions <SHELL>'
