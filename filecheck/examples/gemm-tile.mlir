// The demo kernel (examples/gemm_tile.mlir, run by `make demo`) verifies and folds.
// RUN: layout-opt --layout-verify --layout-fold %S/../../examples/gemm_tile.mlir | FileCheck %s
// RUN: layout-opt --layout-verify --layout-fold %S/../../examples/gemm_tile.mlir | layout-opt --layout-verify > /dev/null

// GM panels at dynamic coordinates: static strides where the view has them, `?` for N.
// CHECK: "layout.tile"({{.*}}) {shape = array<i64: 128, 256>} : ({{.*}}) -> !layout.tensor<f16, "gm", "(128,256):(256,1)", "(?,256)">
// CHECK: "layout.tile"({{.*}}) {shape = array<i64: 256, 128>} : ({{.*}}) -> !layout.tensor<f16, "gm", "(256,128):(?,1)", "(256,?)">
// L1 K slices: fully static at (0,0); static strides and inner shape at a dynamic k.
// CHECK: -> !layout.tensor<f16, "l1", "((16,8),(16,4)):((16,256),(1,2048))", "(128,64)">
// CHECK: -> !layout.tensor<f16, "l1", "((16,4),(16,8)):((16,256),(1,4096))", "(64,128)">
// CHECK: scf.for
// CHECK: -> !layout.tensor<f16, "l1", "((16,8),(16,4)):((16,256),(1,2048))", "(128,?)">
// CHECK: -> !layout.tensor<f16, "l1", "((16,4),(16,8)):((16,256),(1,4096))", "(?,128)">
// CHECK: -> !layout.tensor<f32, "gm", "(128,128):(?,1)", "(?,?)">
// NZ f16 128x256, element (17,33): 16 + 256 + 1 + 2*2048 = 4369.
// CHECK: %[[O:.*]] = arith.constant 4369 : index
// CHECK: return %[[O]], %{{.*}} : index, index
