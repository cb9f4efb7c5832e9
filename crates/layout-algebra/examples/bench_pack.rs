//! Host-packing benchmark (scripts/bench-pack): `PackPlan` pack and unpack against memcpy of
//! the same bytes, measured side by side (interleaved repetitions, medians), on every core and
//! on one. Not a test: it prints ratios.
//!
//! Usage: bench_pack [--sizes 256x256,1000x1000,4x512x512] [--dtypes f16,bf16,f32,i8] [--layouts ND,NZ]

use layout_algebra::ascend::{frame_c0, ElementType, FramePattern, PackPlan, PackWord, PACKABLE};
use std::time::Instant;

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(|a, b| a.total_cmp(b));
    v[v.len() / 2]
}

/// One element type's width: the packer moves bits.
fn run<T: PackWord + Default + From<u8> + PartialEq>(pattern: FramePattern, c0: i64, dims: &[usize]) -> [f64; 6] {
    let plan = PackPlan::new(pattern, c0, dims).unwrap();
    let nd: Vec<T> = (0..plan.nd_len()).map(|k| T::from((k % 251) as u8)).collect();
    // memcpy's destination, twice: at the start and 64 bytes in (glibc's `rep movsb` on AMD is
    // 10x slower for some source/destination distances: 1.7 GB/s for 128 KB in L2).
    let shift = 64 / std::mem::size_of::<T>();
    let mut copy = vec![T::default(); nd.len() + shift];
    let mut packed = vec![T::default(); plan.packed_len()];
    let mut back = vec![T::default(); nd.len()];
    let bytes = std::mem::size_of_val(nd.as_slice());
    let reps = (256usize << 20).div_ceil(bytes).clamp(7, 301);
    let mut times: [Vec<f64>; 6] = Default::default();
    let time = |f: &mut dyn FnMut()| {
        let t = Instant::now();
        f();
        t.elapsed().as_secs_f64()
    };
    for _ in 0..reps {
        let len = nd.len();
        let aligned = time(&mut || copy[..len].copy_from_slice(&nd));
        let shifted = time(&mut || copy[shift..].copy_from_slice(&nd));
        times[5].push(aligned);
        times[0].push(aligned.min(shifted));
        times[1].push(time(&mut || plan.pack_into(&nd, &mut packed, T::default()).unwrap()));
        times[2].push(time(&mut || plan.unpack_into(&packed, &mut back).unwrap()));
        times[3].push(time(&mut || plan.pack_into_with(&nd, &mut packed, T::default(), 1).unwrap()));
        times[4].push(time(&mut || plan.unpack_into_with(&packed, &mut back, 1).unwrap()));
    }
    assert!(back == nd, "round trip");
    std::hint::black_box(&copy);
    // Ratios of each repetition's memcpy to the copies right after it (paired under the
    // same load), then their medians; [0] is the memcpy time (the faster placement of each
    // repetition), [5] memcpy's time to the buffer's start alone.
    let mut out = [median(times[0].clone()), 0.0, 0.0, 0.0, 0.0, median(times[5].clone())];
    for k in 1..5 {
        out[k] = median(times[0].iter().zip(&times[k]).map(|(m, t)| m / t).collect());
    }
    out
}

fn main() {
    let mut sizes = "256x256,1000x1000,4096x4096,4x512x512".to_string();
    let mut dtypes = "f16,bf16,f32,i8".to_string();
    let mut layouts: Vec<FramePattern> = PACKABLE.to_vec();
    let args: Vec<String> = std::env::args().skip(1).collect();
    for pair in args.chunks(2) {
        match (pair[0].as_str(), pair.get(1)) {
            ("--sizes", Some(v)) => sizes = v.clone(),
            ("--dtypes", Some(v)) => dtypes = v.clone(),
            ("--layouts", Some(v)) => layouts = v.split(',').map(|l| FramePattern::parse(l).unwrap()).collect(),
            _ => {
                eprintln!("usage: bench_pack [--sizes 256x256,...] [--dtypes f16,...] [--layouts ND,NZ,...]");
                std::process::exit(2);
            }
        }
    }
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    println!(
        "bench-pack: PackPlan vs memcpy of the ND bytes (ratio = memcpy time / pack time, median over interleaved repetitions of each repetition's ratio; `pack`/`unpack`: auto threads, {threads} from {} MB; `1T`: one thread)",
        layout_algebra::ascend::PARALLEL_BYTES >> 20
    );
    println!(
        "| layout | dtype | shape | MB | memcpy GB/s | memcpy to start GB/s | pack | unpack | pack 1T | unpack 1T | speed-up pack/unpack |"
    );
    println!("|---|---|---|---|---|---|---|---|---|---|---|");
    for pattern in layouts {
        for dtype in dtypes.split(',') {
            let elem = ElementType::parse(dtype).unwrap();
            let c0 = frame_c0(pattern, elem).unwrap();
            for size in sizes.split(',') {
                let dims: Vec<usize> = size.split('x').map(|d| d.parse().unwrap()).collect();
                let t = match elem.bits() {
                    8 => run::<u8>(pattern, c0, &dims),
                    16 => run::<u16>(pattern, c0, &dims),
                    _ => run::<u32>(pattern, c0, &dims),
                };
                let bytes = dims.iter().product::<usize>() * elem.bits() as usize / 8;
                println!(
                    "| {} | {dtype} | {size} | {:.2} | {:.1} | {:.1} | {:.2} | {:.2} | {:.2} | {:.2} | {:.2} / {:.2} |",
                    pattern.name(),
                    bytes as f64 / 1e6,
                    bytes as f64 / t[0] / 1e9,
                    bytes as f64 / t[5] / 1e9,
                    t[1],
                    t[2],
                    t[3],
                    t[4],
                    t[1] / t[3],
                    t[2] / t[4],
                );
            }
        }
    }
}
