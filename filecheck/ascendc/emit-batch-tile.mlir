// layout-lower-to-ascendc: a tile of a batch form (batch extent 1) is copied as its matrix at
// the batch offset (docs/ascendc-derivation.md, batch forms): GM ND (3,40,70) f16, matrix %b,
// rows 0..40, cols 64..70 -> L1 NZ (48,16) is one ND2NZ whose GM offset is b * 2800 + 64 and
// whose nValue / dValue are the clipped extents times the batch origin min(1, max(3 - b, 0))
// (0 past the last matrix: nothing is read).
// RUN: layout-opt %s --layout-lower-to-ascendc --emit=ascendc | FileCheck %s
// CHECK: const int64_t [[D:v[0-9]+]] = 3 - arg2;
// CHECK-NEXT: const int64_t [[P:v[0-9]+]] = ([[D]] > 0 ? [[D]] : 0);
// CHECK-NEXT: const int64_t [[OB:v[0-9]+]] = (1 < [[P]] ? 1 : [[P]]);
// CHECK-NEXT: const int64_t [[ROWS:v[0-9]+]] = 40 * [[OB]];
// CHECK-NEXT: const int64_t [[COLS:v[0-9]+]] = 6 * [[OB]];
// CHECK-NEXT: const int64_t [[BASE:v[0-9]+]] = arg2 * 2800;
// CHECK-NEXT: const int64_t [[OFF:v[0-9]+]] = [[BASE]] + 64;
// CHECK: // Nd2NzParams GM ND -> L1 NZ (MTE2)
// CHECK: p0.nValue = [[ROWS]];
// CHECK-NEXT: p0.dValue = [[COLS]];
// CHECK: p0.srcDValue = 70;
// CHECK: AscendC::DataCopy(a1[0], arg0Gm[[[OFF]]], p0);
module attributes {layout.target = #layout.target<"a2">} {
  func.func @batch_load(%m: memref<3x40x70xf16>, %o: memref<768xf16>, %b: index) {
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %g = "layout.view"(%m) : (memref<3x40x70xf16>) -> !layout.tensor<f16, "gm", "ND", "(3,40,70)">
    %out = "layout.view"(%o) : (memref<768xf16>) -> !layout.tensor<f16, "gm", "NZ", "(48,16)">
    %l1 = "layout.alloc"() : () -> !layout.tensor<f16, "l1", "NZ", "(48,16)">
    %t = "layout.tile"(%g, %b, %c0, %c64) {shape = array<i64: 1, 48, 16>} : (!layout.tensor<f16, "gm", "ND", "(3,40,70)">, index, index, index) -> !layout.tensor<f16, "gm", "(1,(48,16)):(2800,(70,1))", "(?,(40,6))">
    %w = "layout.load"(%t, %l1) : (!layout.tensor<f16, "gm", "(1,(48,16)):(2800,(70,1))", "(?,(40,6))">, !layout.tensor<f16, "l1", "NZ", "(48,16)">) -> !layout.tensor<f16, "l1", "((16,3),(16,1)):((16,256),(1,768))", "(?,?)">
    "layout.store"(%w, %out) : (!layout.tensor<f16, "l1", "((16,3),(16,1)):((16,256),(1,768))", "(?,?)">, !layout.tensor<f16, "gm", "NZ", "(48,16)">) -> ()
    return
  }
}
