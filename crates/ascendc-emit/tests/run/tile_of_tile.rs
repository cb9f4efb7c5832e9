//! Tiles of tiles through the three back ends (issue 10 item 3): every operand of a GEMM is a
//! `layout.tile` of a `layout.tile`, one level at a loop variable (dynamic) and the other at a
//! constant, both ways round, with tails clipped at both levels. The reference places each
//! tile by intersecting index intervals, not with the layout algebra.

use super::{three_ways, values, Case};
use ascendc_emit::run;
use layout_npy::random::Rng;
use layout_runtime::{Array, ElemType};

/// A: 56 × 32, B: 32 × 64, C: 56 × 64 (ND). For m0, n0 in {0, 32}:
/// - A: rows `[m0, m0+32)` (dynamic), then rows 16.. of that (static): global rows m0+16..;
/// - B: columns `[16, 56)` (static), then columns n0.. of that (dynamic): global 16+n0..;
/// - C: rows `[m0, m0+32)` (dynamic), then (16, n0) of that (static and dynamic).
///
/// The A tail (m0 = 32: 24 rows, 8 past row 16) and the B tail (n0 = 32: 8 of the 40
/// columns) are both clipped by the outer tile.
pub(super) fn kernel() -> String {
    r#"!gA = !layout.tensor<f16, "gm", "ND", "(56,32)">
!gB = !layout.tensor<f16, "gm", "ND", "(32,64)">
!gC = !layout.tensor<f32, "gm", "ND", "(56,64)">
!gT16 = !layout.tensor<f16, "gm", "(?,?):(?,?)", "(?,?)">
!gT32 = !layout.tensor<f32, "gm", "(?,?):(?,?)", "(?,?)">
!l1A = !layout.tensor<f16, "l1", "NZ", "(16,32)">
!l1B = !layout.tensor<f16, "l1", "NZ", "(32,16)">
!l0A = !layout.tensor<f16, "l0a", "ZZ", "(16,32)">
!l0B = !layout.tensor<f16, "l0b", "ZN", "(32,16)">
!l0C = !layout.tensor<f32, "l0c", "NZ", "(16,16)">
!l1T = !layout.tensor<f16, "l1", "((?,?),(?,?)):((?,?),(?,?))", "(?,?)">
!l0AW = !layout.tensor<f16, "l0a", "((?,?),(?,?)):((?,?),(?,?))", "(?,?)">
!l0BW = !layout.tensor<f16, "l0b", "((?,?),(?,?)):((?,?),(?,?))", "(?,?)">
!l0CW = !layout.tensor<f32, "l0c", "((?,?),(?,?)):((?,?),(?,?))", "(?,?)">
module attributes {layout.target = #layout.target<"a2">} {
  func.func @tile_of_tile(%A: memref<1792xf16>, %B: memref<2048xf16>, %C: memref<3584xf32>) attributes {llvm.emit_c_interface} {
    %c0 = arith.constant 0 : index
    %c16 = arith.constant 16 : index
    %c32 = arith.constant 32 : index
    %c64 = arith.constant 64 : index
    %ga = "layout.view"(%A) : (memref<1792xf16>) -> !gA
    %gb = "layout.view"(%B) : (memref<2048xf16>) -> !gB
    %gc = "layout.view"(%C) : (memref<3584xf32>) -> !gC
    %a1 = "layout.alloc"() : () -> !l1A
    %b1 = "layout.alloc"() : () -> !l1B
    %a0 = "layout.alloc"() : () -> !l0A
    %b0 = "layout.alloc"() : () -> !l0B
    %acc = "layout.alloc"() : () -> !l0C
    scf.for %m0 = %c0 to %c64 step %c32 {
      scf.for %n0 = %c0 to %c64 step %c32 {
        %pa = "layout.tile"(%ga, %m0, %c0) {shape = array<i64: 32, 32>} : (!gA, index, index) -> !gT16
        %ta = "layout.tile"(%pa, %c16, %c0) {shape = array<i64: 16, 32>} : (!gT16, index, index) -> !gT16
        %pb = "layout.tile"(%gb, %c0, %c16) {shape = array<i64: 32, 40>} : (!gB, index, index) -> !gT16
        %tb = "layout.tile"(%pb, %c0, %n0) {shape = array<i64: 32, 16>} : (!gT16, index, index) -> !gT16
        %a1v = "layout.load"(%ta, %a1) : (!gT16, !l1A) -> !l1T
        %b1v = "layout.load"(%tb, %b1) : (!gT16, !l1B) -> !l1T
        %a0v = "layout.load"(%a1v, %a0) : (!l1T, !l0A) -> !l0AW
        %b0v = "layout.load"(%b1v, %b0) : (!l1T, !l0B) -> !l0BW
        %w = "layout.matmul"(%a0v, %b0v, %acc) {accumulate = false} : (!l0AW, !l0BW, !l0C) -> !l0CW
        %pc = "layout.tile"(%gc, %m0, %c0) {shape = array<i64: 32, 64>} : (!gC, index, index) -> !gT32
        %tc = "layout.tile"(%pc, %c16, %n0) {shape = array<i64: 16, 16>} : (!gT32, index, index) -> !gT32
        "layout.store"(%w, %tc) : (!l0CW, !gT32) -> ()
      }
    }
    return
  }
}"#
    .to_string()
}

/// `[lo, hi)` ∩ `[lo2, hi2)`.
fn meet((lo, hi): (usize, usize), (lo2, hi2): (usize, usize)) -> (usize, usize) {
    (lo.max(lo2), hi.min(hi2).max(lo.max(lo2)))
}

/// C as the kernel leaves it: per (m0, n0) the rows and columns each tile of a tile covers (its
/// range intersected with its parent's and the tensor's), the product over the 32-long k.
fn reference(a: &Array, b: &Array) -> Vec<f64> {
    let (rows, k, cols) = (56, 32, 64);
    let mut c = vec![0.0; rows * cols];
    for m0 in [0, 32] {
        for n0 in [0, 32] {
            let a_rows = meet(meet((m0 + 16, m0 + 32), (m0, m0 + 32)), (0, rows));
            let b_cols = meet(meet((16 + n0, 16 + n0 + 16), (16, 56)), (0, cols));
            let c_rows = meet(meet((m0 + 16, m0 + 32), (m0, m0 + 32)), (0, rows));
            let c_cols = meet(meet((n0, n0 + 16), (0, cols)), (0, cols));
            // The store copies what the matmul wrote (A's rows × B's columns) into C's tile.
            let m = (a_rows.1 - a_rows.0).min(c_rows.1 - c_rows.0);
            let n = (b_cols.1 - b_cols.0).min(c_cols.1 - c_cols.0);
            for i in 0..m {
                for j in 0..n {
                    let (ar, bc) = (a_rows.0 + i, b_cols.0 + j);
                    let sum = (0..k).map(|p| a.get_f64(ar * k + p) * b.get_f64(p * cols + bc)).sum();
                    c[(c_rows.0 + i) * cols + c_cols.0 + j] = sum;
                }
            }
        }
    }
    c
}

#[test]
fn tile_of_a_tile_with_dynamic_and_static_coordinates() {
    let mut rng = Rng::new(1010);
    let a = rng.array(ElemType::F16, &[56 * 32]);
    let b = rng.array(ElemType::F16, &[32 * 64]);
    let case = Case {
        name: "tile_of_tile",
        func: "tile_of_tile",
        source: kernel(),
        target: "a2",
        inputs: vec![a.clone(), b.clone(), Array::zeros(ElemType::F32, &[56 * 64])],
        scalars: vec![],
        sanitize: run::checks::ALL,
        outputs: vec![2],
    };
    let got = values(&three_ways(&case)[0]);
    let want = reference(&a, &b);
    // The covered region: rows 16..32 and 48..56, columns 0..16 and 32..40.
    let covered =
        |r: usize, c: usize| ((16..32).contains(&r) || (48..56).contains(&r)) && (c < 16 || (32..40).contains(&c));
    for r in 0..56 {
        for c in 0..64 {
            assert_eq!(got[r * 64 + c], want[r * 64 + c], "C[{r}][{c}]");
            if !covered(r, c) {
                assert_eq!(want[r * 64 + c], 0.0, "reference writes C[{r}][{c}] outside the tiles");
            }
        }
    }
    // Not vacuous: most covered elements are non-zero sums.
    let nonzero = (0..56 * 64).filter(|&i| want[i] != 0.0).count();
    assert!(nonzero > (16 + 8) * (16 + 8) / 2, "{nonzero} non-zero elements");
}
