// The demo kernel (examples/gemm_tile.mlir, run by `make demo`) verifies and folds.
// RUN: layout-opt --layout-verify --layout-fold %S/../../examples/gemm_tile.mlir | FileCheck %s
// RUN: layout-opt --layout-verify --layout-fold %S/../../examples/gemm_tile.mlir | layout-opt --layout-verify > /dev/null

// GM panels at dynamic coordinates: static strides where the view has them, `?` for N.
// CHECK: "layout.tile"({{.*}}) {shape = array<i64: 128, 256>} : ({{.*}}) -> !layout.tensor<f16, "gm", "(128,256):(256,1)", "(?,256)">
// CHECK: "layout.tile"({{.*}}) {shape = array<i64: 256, 128>} : ({{.*}}) -> !layout.tensor<f16, "gm", "(256,128):(?,1)", "(256,?)">
// L1 panels: the views of what the loads wrote (the M / N tail rows / columns are dynamic).
// CHECK: -> !layout.tensor<f16, "l1", "((16,8),(16,16)):((16,256),(1,2048))", "(?,256)">
// CHECK: -> !layout.tensor<f16, "l1", "((16,16),(16,8)):((16,256),(1,4096))", "(256,?)">
// L1 K slices and their L0 copies: static layouts; at k = 0 only the tail extent is dynamic, at a
// dynamic k the K extent too (the algebra cannot prove a 256-column panel holds k + 64).
// CHECK: -> !layout.tensor<f16, "l1", "((16,8),(16,4)):((16,256),(1,2048))", "(?,64)">
// CHECK: -> !layout.tensor<f16, "l1", "((16,4),(16,8)):((16,256),(1,4096))", "(64,?)">
// CHECK: -> !layout.tensor<f16, "l0a", "((16,8),(16,4)):((16,1024),(1,256))", "(?,64)">
// CHECK: -> !layout.tensor<f16, "l0b", "((16,4),(16,8)):((1,2048),(16,256))", "(64,?)">
// CHECK: scf.for
// CHECK: -> !layout.tensor<f16, "l1", "((16,8),(16,4)):((16,256),(1,2048))", "(?,?)">
// CHECK: -> !layout.tensor<f16, "l1", "((16,4),(16,8)):((16,256),(1,4096))", "(?,?)">
// CHECK: -> !layout.tensor<f32, "gm", "(128,128):(?,1)", "(?,?)">
// NZ f16 128x256, element (17,33): 16 + 256 + 1 + 2*2048 = 4369.
// CHECK: %[[O:.*]] = arith.constant 4369 : index
// CHECK: return %[[O]], %{{.*}} : index, index
