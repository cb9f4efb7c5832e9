//! Shared helpers: element buffers as raw bytes, layout-indexed reads and writes.
#![allow(dead_code)]

use ascendc_params::exec::execute;
use ascendc_params::{Derived, Target};
use layout_algebra::ascend::ElementType;
use layout_algebra::{Layout, Tuple};

pub fn crd(r: i64, c: i64) -> Tuple<i64> {
    Tuple::Tuple(vec![Tuple::Int(r), Tuple::Int(c)])
}

pub fn off(l: &Layout, r: i64, c: i64) -> usize {
    l.crd_to_offset(&crd(r, c)).unwrap() as usize
}

/// Bytes per element.
pub fn eb(t: ElementType) -> usize {
    (t.bits() / 8) as usize
}

/// Reads element `i` (as an unsigned bit pattern) of a byte buffer.
pub fn get(buf: &[u8], t: ElementType, i: usize) -> u32 {
    let e = eb(t);
    let mut v = 0u32;
    for b in 0..e {
        v |= (buf[i * e + b] as u32) << (8 * b);
    }
    v
}

pub fn set(buf: &mut [u8], t: ElementType, i: usize, v: u32) {
    let e = eb(t);
    for b in 0..e {
        buf[i * e + b] = (v >> (8 * b)) as u8;
    }
}

/// A distinct non-zero bit pattern for element `i` (fits the element width).
pub fn pattern(t: ElementType, i: usize) -> u32 {
    match eb(t) {
        1 => (i % 251 + 1) as u32,
        2 => (i % 65521 + 1) as u32,
        _ => i as u32 + 1,
    }
}

/// Runs every instruction of a single-source derivation.
pub fn run1(d: &Derived<i64>, dst: &mut [u8], src: &[u8], t: ElementType, target: Target) {
    for ins in &d.instrs {
        execute(ins, dst, &[src], &[t, t], target).unwrap_or_else(|e| panic!("{e}"));
    }
}
