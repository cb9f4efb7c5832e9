// `-o` replaces a regular file atomically but never replaces anything else: a symlink stays a
// link and its target gets the output (also a dangling link's target), a file keeps its mode,
// a FIFO is written through to its reader, a directory is an error that creates nothing.
// RUN: rm -rf %t && mkdir -p %t/sub
// Symlink to an existing mode-600 file in another directory.
// RUN: echo old > %t/sub/real.mlir && chmod 600 %t/sub/real.mlir && ln -s sub/real.mlir %t/link.mlir
// RUN: layout-opt %s -o %t/link.mlir
// RUN: test -L %t/link.mlir && FileCheck %s --input-file=%t/sub/real.mlir
// RUN: stat -c '%%a %%F' %t/sub/real.mlir | FileCheck %s --check-prefix=MODE
// Dangling symlink: the file is created where the link points.
// RUN: ln -s sub/new.mlir %t/dangling.mlir && layout-opt %s -o %t/dangling.mlir
// RUN: test -L %t/dangling.mlir && FileCheck %s --input-file=%t/sub/new.mlir
// Only the two real files are in sub/ (no temporary file left behind).
// RUN: ls -A %t/sub | FileCheck %s --check-prefix=SUB
// FIFO: written through while `cat` reads it; it is still a FIFO afterwards. (If layout-opt
// failed or replaced the FIFO, `cat` would block forever: it is killed and `wait` fails.)
// RUN: mkfifo %t/fifo && { cat %t/fifo > %t/from-fifo & layout-opt %s -o %t/fifo && test -p %t/fifo || kill $!; wait $!; }
// RUN: test -p %t/fifo && FileCheck %s --input-file=%t/from-fifo
// Directory: an error, nothing created inside.
// RUN: mkdir %t/dir && not layout-opt %s -o %t/dir 2>&1 | FileCheck %s --check-prefix=DIR
// RUN: test -z "$(ls -A %t/dir)"

// CHECK: module attributes {layout.target = #layout.target<"a2">}
// CHECK: "layout.alloc"() : () -> !layout.tensor<f16, "l1", "NZ", "(16,16)">
// MODE: 600 regular file
// SUB: {{^}}new.mlir{{$}}
// SUB-NEXT: {{^}}real.mlir{{$}}
// SUB-NOT: {{.}}
// DIR: layout-opt: error: cannot write '{{.*}}dir': is a directory
module attributes {layout.target = #layout.target<"a2">} {
  func.func @f() {
    %a = "layout.alloc"() : () -> !layout.tensor<f16, "l1", "NZ", "(16,16)">
    return
  }
}
