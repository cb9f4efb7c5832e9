//! Host-side packing (`layout_runtime::pack`): round trips, the PyPTO NZ formula of docs/layout-spec.md §A.5,
//! numpy's golden reshape/transpose, the two engines against each other, caching, and bad input.

use layout_algebra::{ascend::FramePattern, IntTuple, Layout};
use layout_npy::{random::Rng, read_npy, write_npy, Array, Data, ElemType, F16};
use layout_runtime::pack::{physical_shape, Direction, PackError, PackSpec, Packer, PACKABLE};
use std::{collections::HashSet, path::PathBuf, process::Command};

const ELEMS: [ElemType; 4] = [ElemType::F16, ElemType::F32, ElemType::I8, ElemType::BF16];

/// Offset of logical (batch.., row, col) in a static layout, by the algebra.
fn offset(layout: &Layout, idx: &[i64]) -> usize {
    let crd: IntTuple = layout.origin().unflatten(idx).unwrap();
    layout.crd_to_offset(&crd).unwrap() as usize
}

fn logical(dims: &[usize]) -> Vec<Vec<i64>> {
    let (b, m, n) = match dims {
        [m, n] => (None, *m as i64, *n as i64),
        [b, m, n] => (Some(*b as i64), *m as i64, *n as i64),
        _ => unreachable!(),
    };
    let mut out = Vec::new();
    for x in 0..b.unwrap_or(1) {
        for i in 0..m {
            for j in 0..n {
                out.push(if b.is_some() { vec![x, i, j] } else { vec![i, j] });
            }
        }
    }
    out
}

/// Bits of element `k` (exact comparison for every type).
fn bits(a: &Array, k: usize) -> u64 {
    match a.data() {
        Data::F16(v) => v[k].0 as u64,
        Data::BF16(v) => v[k].0 as u64,
        Data::F32(v) => v[k].to_bits() as u64,
        Data::I8(v) => v[k] as u8 as u64,
        other => panic!("{:?}", other.elem()),
    }
}

fn filled(elem: ElemType, len: usize) -> Array {
    let data = match elem {
        ElemType::F16 => Data::F16(vec![F16::from_f32(7.0); len]),
        ElemType::BF16 => Data::BF16(vec![layout_npy::Bf16::from_f32(7.0); len]),
        ElemType::F32 => Data::F32(vec![7.0; len]),
        ElemType::I8 => Data::I8(vec![7; len]),
        other => panic!("{other}"),
    };
    Array::new(vec![len], data).unwrap()
}

/// Every element of the ND array is at the algebra's offset of its coordinate, everything else
/// in the packed buffer is zero.
fn check_placement(spec: &PackSpec, nd: &Array, packed: &Array) {
    let layout = spec.layout().unwrap();
    let mut image = HashSet::new();
    for (k, x) in logical(&spec.dims).iter().enumerate() {
        let o = offset(&layout, x);
        assert!(image.insert(o), "{spec:?}: two coordinates at offset {o}");
        assert_eq!(bits(packed, o), bits(nd, k), "{spec:?}: element {x:?} at offset {o}");
    }
    for p in 0..packed.len() {
        if !image.contains(&p) {
            assert_eq!(bits(packed, p), 0, "{spec:?}: padding at offset {p} is not zero");
        }
    }
}

#[test]
fn pack_then_unpack_is_the_identity_for_every_layout_and_type() {
    let mut packer = Packer::new().unwrap();
    let mut rng = Rng::new(5);
    let mut cases = 0;
    // Tails in every dim (C0 = 16/8/32, fractal rows 16); even rows for NN with the MX-scale C0 = 2.
    let shapes: [&[usize]; 4] = [&[34, 40], &[2, 18, 20], &[2, 1], &[50, 7]];
    for pattern in PACKABLE {
        for elem in ELEMS {
            for dims in shapes {
                for c0 in [None, Some(16), Some(2)] {
                    let explicit_ok = match c0 {
                        None => true,
                        Some(16) => matches!(pattern, FramePattern::NN | FramePattern::NZ),
                        // The AscendC Te NN (MX scale) layout: every shape here has even rows.
                        _ => pattern == FramePattern::NN,
                    };
                    if !explicit_ok {
                        continue;
                    }
                    let spec = PackSpec::new(pattern, elem, dims).with_c0(c0);
                    let nd = rng.array(elem, dims);
                    let packed = packer.pack(pattern, c0, &nd).unwrap_or_else(|e| panic!("{spec:?}: {e}"));
                    assert_eq!(packed.shape(), &[spec.packed_len().unwrap()]);
                    check_placement(&spec, &nd, &packed);
                    // pack_into over garbage: the padding is cleared.
                    let mut reused = filled(elem, packed.len());
                    packer.pack_into(&spec, &nd, &mut reused).unwrap();
                    assert_eq!(reused, packed, "{spec:?}: pack_into");
                    let back = packer.unpack(&spec, &packed).unwrap();
                    assert_eq!(back, nd, "{spec:?}: unpack(pack(x)) != x");
                    // The physical (multi-dimensional) view holds the same bytes.
                    let shape = physical_shape(&spec).unwrap();
                    let shaped = Array::new(shape, packed.data().clone()).unwrap();
                    assert_eq!(packer.unpack(&spec, &shaped).unwrap(), nd);
                    cases += 1;
                }
            }
        }
    }
    // Every layout with its default C0, NN and NZ with C0 = 16, NN with C0 = 2; 4 types x 4 shapes.
    assert_eq!(cases, (8 + 2 + 1) * 4 * 4);
}

/// docs/layout-spec.md §A.5, written independently of the algebra: element (i, j) of logical [M, N] at
/// `((j/C0·M1 + i/16)·16 + i%16)·C0 + j%C0`, M1 = ceil(M/16); a batch is `N1·M1·16·C0` apart.
#[test]
fn packed_nz_is_the_pypto_physical_order_with_zero_padding() {
    let mut packer = Packer::new().unwrap();
    let mut rng = Rng::new(8);
    for elem in ELEMS {
        let c0 = 32 / elem.size();
        for dims in [&[34usize, 40][..], &[3, 17, 33], &[16, 64], &[1, 1]] {
            let nd = rng.array(elem, dims);
            let packed = packer.pack(FramePattern::NZ, None, &nd).unwrap();
            let n = dims.len();
            let (b, m, cols) = (if n == 3 { dims[0] } else { 1 }, dims[n - 2], dims[n - 1]);
            let (m1, n1) = (m.div_ceil(16), cols.div_ceil(c0));
            let per = n1 * m1 * 16 * c0;
            assert_eq!(packed.len(), b * per, "{elem} {dims:?}");
            let mut want = vec![0u64; b * per];
            for x in 0..b {
                for i in 0..m {
                    for j in 0..cols {
                        let o = x * per + (((j / c0) * m1 + i / 16) * 16 + i % 16) * c0 + j % c0;
                        want[o] = bits(&nd, (x * m + i) * cols + j);
                    }
                }
            }
            for (p, w) in want.iter().enumerate() {
                assert_eq!(bits(&packed, p), *w, "{elem} {dims:?}: offset {p}");
            }
        }
    }
}

fn scratch(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("pack-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The golden code of docs/layout-spec.md §A.5 (`w.reshape((h//16, 16, n//C0, C0)).transpose(2, 0, 1, 3)`)
/// run by Debian's numpy (scripts/bootstrap.sh installs python3-numpy; the python3 first on
/// PATH may lack numpy, so /usr/bin/python3 is used). Without it the test fails: the set-up
/// is incomplete, and a skipped oracle would hide that.
#[test]
fn packed_nz_equals_numpy_golden_reshape_transpose() {
    let python = "/usr/bin/python3";
    let has_numpy = Command::new(python).args(["-c", "import numpy"]).output().is_ok_and(|o| o.status.success());
    assert!(has_numpy, "{python} with numpy is not available: run scripts/bootstrap.sh (Debian's python3-numpy)");
    let dir = scratch("numpy");
    let mut packer = Packer::new().unwrap();
    let mut rng = Rng::new(3);
    for (elem, c0, dims) in
        [(ElemType::F16, 16, [64usize, 96]), (ElemType::F32, 8, [48, 40]), (ElemType::I8, 32, [32, 64])]
    {
        let nd = rng.array(elem, &dims);
        let input = dir.join(format!("w_{elem}.npy"));
        let output = dir.join(format!("golden_{elem}.npy"));
        write_npy(&input, &nd).unwrap();
        let script = format!(
            "import numpy as np; w = np.load('{}'); h, n = w.shape; \
             np.save('{}', np.ascontiguousarray(w.reshape((h//16, 16, n//{c0}, {c0})).transpose(2, 0, 1, 3)))",
            input.display(),
            output.display()
        );
        let run = Command::new(python).args(["-c", &script]).output().unwrap();
        assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
        let golden = read_npy(&output).unwrap();
        let spec = PackSpec::new(FramePattern::NZ, elem, &dims);
        assert_eq!(golden.shape(), physical_shape(&spec).unwrap().as_slice(), "{elem}");
        let packed = packer.pack(FramePattern::NZ, None, &nd).unwrap();
        assert_eq!(golden.data(), packed.data(), "{elem}: differs from numpy's reshape/transpose");
    }
}

#[test]
fn kernels_are_compiled_once_per_key() {
    let mut packer = Packer::compiled().unwrap();
    let mut rng = Rng::new(1);
    let a = rng.array(ElemType::F16, &[20, 30]);
    let spec = PackSpec::new(FramePattern::NZ, ElemType::F16, &[20, 30]);
    for _ in 0..3 {
        let p = packer.pack(FramePattern::NZ, None, &a).unwrap();
        packer.unpack(&spec, &p).unwrap();
    }
    assert_eq!(packer.compiled_kernels(), 2);
    packer.pack(FramePattern::NZ, None, &rng.array(ElemType::F16, &[21, 30])).unwrap();
    packer.pack(FramePattern::ZN, None, &a).unwrap();
    assert_eq!(packer.compiled_kernels(), 4);
    assert_eq!(Packer::new().unwrap().compiled_kernels(), 0);
}

/// The two engines are independent implementations (the algebra's blocked copies, the
/// compiler's lowered `layout.load`): on odd shapes with tails in every dim, batches included,
/// they give the same packed bits (padding zero) and the same unpacked arrays.
#[test]
fn the_plan_engine_equals_the_compiled_kernels_for_every_layout_and_type() {
    let (mut plan, mut compiled) = (Packer::new().unwrap(), Packer::compiled().unwrap());
    let mut rng = Rng::new(11);
    for pattern in PACKABLE {
        for elem in ELEMS {
            let dims = [2, 19, 35];
            let nd = rng.array(elem, &dims);
            let spec = PackSpec::new(pattern, elem, &dims);
            let packed = plan.pack(pattern, None, &nd).unwrap();
            assert_eq!(packed, compiled.pack(pattern, None, &nd).unwrap(), "{spec:?}: pack");
            check_placement(&spec, &nd, &packed);
            let garbage = rng.array(elem, &[spec.packed_len().unwrap()]);
            assert_eq!(plan.unpack(&spec, &garbage).unwrap(), compiled.unpack(&spec, &garbage).unwrap(), "{spec:?}");
        }
    }
    assert_eq!(compiled.compiled_kernels(), PACKABLE.len() * ELEMS.len() * 2);
}

#[test]
fn the_generated_kernel_is_a_layout_load_lowered_to_loops() {
    let spec = PackSpec::new(FramePattern::NZ, ElemType::F16, &[34, 40]);
    let source = layout_runtime::pack::kernel_source(&spec, Direction::Pack).unwrap();
    // NZ: one 16 x C0 fractal per tile; full blocks in a loop nest (rows 0..32, cols 0..32),
    // the partial row block (32..34) and column block (32..40) at static coordinates: 4 nests.
    assert!(source.contains(r#""layout.load"(%ta1, %tb1)"#), "{source}");
    assert!(source.contains(r#""layout.load"(%ta4, %tb4)"#), "{source}");
    assert!(!source.contains("%ta5"), "{source}");
    assert!(source.contains("shape = array<i64: 16, 16>"), "{source}");
    let zn = layout_runtime::pack::kernel_source(
        &PackSpec::new(FramePattern::ZN, ElemType::F16, &[34, 40]),
        Direction::Unpack,
    )
    .unwrap();
    assert!(zn.contains(r#""layout.load"(%b, %a)"#), "{zn}");
    assert!(source.contains(r#"!layout.tensor<f16, "gm", "NZ", "(34,40)">"#), "{source}");
    assert!(source.contains("memref<2304xf16>"), "{source}"); // 48 x 48 padded
    let context = layout_runtime::create_context().unwrap();
    let lowered = layout_runtime::pack::lowered_kernel_text(&context, &spec, Direction::Pack).unwrap();
    assert!(!lowered.contains("\"layout."), "{lowered}");
    assert!(lowered.contains("scf.for"), "{lowered}");
    if std::env::var_os("PACK_DUMP").is_some() {
        eprintln!("{lowered}");
    }
}

#[test]
fn bad_input_is_a_clear_error() {
    let mut packer = Packer::new().unwrap();
    let input_error = |r: Result<Array, PackError>| match r {
        Err(PackError::Input(m)) => m,
        other => panic!("expected an input error, got {other:?}"),
    };
    let v = Array::zeros(ElemType::F16, &[8]);
    assert!(input_error(packer.pack(FramePattern::NZ, None, &v)).contains("[M, N]"));
    let z = Array::zeros(ElemType::F16, &[0, 8]);
    assert!(input_error(packer.pack(FramePattern::NZ, None, &z)).contains("positive"));
    let m = Array::zeros(ElemType::F16, &[4, 8]);
    assert!(input_error(packer.pack(FramePattern::L0C, None, &m)).contains("cannot be packed"));
    let d = Array::zeros(ElemType::F64, &[4, 8]);
    assert!(input_error(packer.pack(FramePattern::NZ, None, &d)).contains("64-bit"));
    // NN with the MX-scale C0 = 2 needs an even row count.
    let odd = Array::zeros(ElemType::F16, &[3, 8]);
    assert!(input_error(packer.pack(FramePattern::NN, Some(2), &odd)).contains("multiple of 2"));
    let spec = PackSpec::new(FramePattern::NZ, ElemType::F16, &[4, 8]);
    assert!(input_error(packer.unpack(&spec, &Array::zeros(ElemType::F16, &[100]))).contains("needs 256"));
    assert!(input_error(packer.unpack(&spec, &Array::zeros(ElemType::F32, &[256]))).contains("element type"));
    assert!(input_error(packer.pack(FramePattern::NZ, Some(0), &m)).contains("C0"));
}

#[test]
fn packable_is_the_plain_matrix_patterns() {
    use FramePattern::*;
    assert_eq!(PACKABLE, [ND, DN, NDExt, DNExt, NZ, ZN, ZZ, NN]);
}
