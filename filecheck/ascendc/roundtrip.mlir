// The ascendc target dialect parses, verifies and prints back (generic form), and unknown ops
// are rejected.
// RUN: layout-opt %s | layout-opt | FileCheck %s

// CHECK-LABEL: func.func @ops
// CHECK: "ascendc.global_tensor"(%arg0) {layout = "(40,56):(56,1)"} : (memref<?xf16>) -> !ascendc.global<f16>
// CHECK: "ascendc.alloc"() {layout = "((16,3),(16,4)):((16,256),(1,768))", offset = 0 : i64, size = 6144 : i64} : () -> !ascendc.local<f16, "A1">
// CHECK: "ascendc.data_copy_nd2nz"(%{{.*}}, %{{.*}}, %arg1) {dyn_fields = ["nValue"], notes = {dst = "((16,3),(16,4)):((16,256),(1,768))"}, params = {dValue = 56 : i64, dstNzC0Stride = 48 : i64
// CHECK: "ascendc.set_flag"() {event = "MTE2_MTE1", id = 0 : i64} : () -> ()
// CHECK: "ascendc.wait_flag"() {event = "MTE2_MTE1", id = 0 : i64} : () -> ()
// CHECK: "ascendc.load_data_2d"
// CHECK: "ascendc.load_data_2d_v2"
// CHECK: "ascendc.mmad"
// CHECK: "ascendc.fixpipe"
// CHECK: "ascendc.data_copy"
// CHECK: "ascendc.pipe_barrier"() {pipe = "PIPE_ALL"} : () -> ()
module {
  func.func @ops(%a: memref<?xf16>, %n: index, %c: memref<?xf32>) {
    %g = "ascendc.global_tensor"(%a) {layout = "(40,56):(56,1)"} : (memref<?xf16>) -> !ascendc.global<f16>
    %gc = "ascendc.global_tensor"(%c) {layout = "(40,56):(56,1)"} : (memref<?xf32>) -> !ascendc.global<f32>
    %l1 = "ascendc.alloc"() {offset = 0 : i64, size = 6144 : i64, layout = "((16,3),(16,4)):((16,256),(1,768))"} : () -> !ascendc.local<f16, "A1">
    %l0a = "ascendc.alloc"() {offset = 0 : i64, size = 6144 : i64, layout = "ZZ"} : () -> !ascendc.local<f16, "A2">
    %l0b = "ascendc.alloc"() {offset = 0 : i64, size = 6144 : i64, layout = "ZN"} : () -> !ascendc.local<f16, "B2">
    %l0c = "ascendc.alloc"() {offset = 0 : i64, size = 6144 : i64, layout = "L0C"} : () -> !ascendc.local<f32, "CO1">
    "ascendc.data_copy_nd2nz"(%l1, %g, %n) {params = {ndNum = 1 : i64, dValue = 56 : i64, srcNdMatrixStride = 0 : i64, srcDValue = 56 : i64, dstNzC0Stride = 48 : i64, dstNzNStride = 1 : i64, dstNzMatrixStride = 0 : i64, repeat = 1 : i64, off0 = 0 : i64, step0 = 0 : i64, off1 = 0 : i64, step1 = 0 : i64}, dyn_fields = ["nValue"], notes = {dst = "((16,3),(16,4)):((16,256),(1,768))"}} : (!ascendc.local<f16, "A1">, !ascendc.global<f16>, index) -> ()
    "ascendc.set_flag"() {event = "MTE2_MTE1", id = 0 : i64} : () -> ()
    "ascendc.wait_flag"() {event = "MTE2_MTE1", id = 0 : i64} : () -> ()
    "ascendc.load_data_2d"(%l0a, %l1) {params = {startIndex = 0 : i64, repeatTimes = 4 : i64, srcStride = 3 : i64, sid = 0 : i64, dstGap = 0 : i64, ifTranspose = false, addrMode = 0 : i64, repeat = 3 : i64, off0 = 0 : i64, step0 = 1024 : i64, off1 = 0 : i64, step1 = 256 : i64}, dyn_fields = [], notes = {}} : (!ascendc.local<f16, "A2">, !ascendc.local<f16, "A1">) -> ()
    "ascendc.load_data_2d_v2"(%l0a, %l1) {params = {}, dyn_fields = [], notes = {}} : (!ascendc.local<f16, "A2">, !ascendc.local<f16, "A1">) -> ()
    "ascendc.mmad"(%l0c, %l0a, %l0b) {params = {}, dyn_fields = [], notes = {}} : (!ascendc.local<f32, "CO1">, !ascendc.local<f16, "A2">, !ascendc.local<f16, "B2">) -> ()
    "ascendc.fixpipe"(%gc, %l0c) {params = {}, dyn_fields = [], notes = {}} : (!ascendc.global<f32>, !ascendc.local<f32, "CO1">) -> ()
    "ascendc.data_copy"(%g, %l1) {params = {}, dyn_fields = [], notes = {}} : (!ascendc.global<f16>, !ascendc.local<f16, "A1">) -> ()
    "ascendc.pipe_barrier"() {pipe = "PIPE_ALL"} : () -> ()
    return
  }
}
