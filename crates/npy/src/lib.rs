//! Host-side arrays for the CPU runtime: NumPy `.npy` files, `f16`/`bf16`, seeded inputs.
//!
//! Pure Rust (no MLIR), so packing tools and tests can use it without linking LLVM.
//!
//! - [`Array`]: an n-dimensional array in C (row-major) order with one of the element types of
//!   [`ElemType`]; what the JIT hands to kernels as memrefs and what `.npy` files hold.
//! - [`npy`]: read/write `.npy` v1/v2 (v3 read). See the module docs for the `bf16` convention.
//! - [`half`]: `F16`/`Bf16` bit types with round-to-nearest-even conversions.
//! - [`random`]: deterministic inputs from a seed.

pub mod half;
pub mod npy;
pub mod random;

pub use half::{Bf16, F16};
pub use npy::{decode_npy, encode_npy, read_npy, write_npy, NpyError};

/// The element types the runtime supports, named as in MLIR (`u8`/`u16` are the unsigned
/// readings of `i8`/`i16`; MLIR integers are signless).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ElemType {
    F16,
    BF16,
    F32,
    F64,
    I8,
    U8,
    I16,
    U16,
    I32,
    I64,
}

impl ElemType {
    pub const ALL: [ElemType; 10] = [
        ElemType::F16,
        ElemType::BF16,
        ElemType::F32,
        ElemType::F64,
        ElemType::I8,
        ElemType::U8,
        ElemType::I16,
        ElemType::U16,
        ElemType::I32,
        ElemType::I64,
    ];

    /// Size of one element in bytes.
    pub fn size(self) -> usize {
        match self {
            ElemType::I8 | ElemType::U8 => 1,
            ElemType::F16 | ElemType::BF16 | ElemType::I16 | ElemType::U16 => 2,
            ElemType::F32 | ElemType::I32 => 4,
            ElemType::F64 | ElemType::I64 => 8,
        }
    }

    /// The MLIR-style name (`f16`, `bf16`, `i8`, ... `u8`, `u16`).
    pub fn name(self) -> &'static str {
        match self {
            ElemType::F16 => "f16",
            ElemType::BF16 => "bf16",
            ElemType::F32 => "f32",
            ElemType::F64 => "f64",
            ElemType::I8 => "i8",
            ElemType::U8 => "u8",
            ElemType::I16 => "i16",
            ElemType::U16 => "u16",
            ElemType::I32 => "i32",
            ElemType::I64 => "i64",
        }
    }

    pub fn from_name(name: &str) -> Option<ElemType> {
        ElemType::ALL.into_iter().find(|t| t.name() == name)
    }

    pub fn is_float(self) -> bool {
        matches!(self, ElemType::F16 | ElemType::BF16 | ElemType::F32 | ElemType::F64)
    }

    /// Integer width in bits (None for floats).
    pub fn int_width(self) -> Option<u32> {
        (!self.is_float()).then(|| self.size() as u32 * 8)
    }
}

impl std::fmt::Display for ElemType {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// The elements of an [`Array`], one vector per element type.
#[derive(Clone, Debug, PartialEq)]
pub enum Data {
    F16(Vec<F16>),
    BF16(Vec<Bf16>),
    F32(Vec<f32>),
    F64(Vec<f64>),
    I8(Vec<i8>),
    U8(Vec<u8>),
    I16(Vec<i16>),
    U16(Vec<u16>),
    I32(Vec<i32>),
    I64(Vec<i64>),
}

/// Applies `$body` to the vector inside a `Data` whatever its element type.
macro_rules! with_vec {
    ($data:expr, $v:ident => $body:expr) => {
        match $data {
            Data::F16($v) => $body,
            Data::BF16($v) => $body,
            Data::F32($v) => $body,
            Data::F64($v) => $body,
            Data::I8($v) => $body,
            Data::U8($v) => $body,
            Data::I16($v) => $body,
            Data::U16($v) => $body,
            Data::I32($v) => $body,
            Data::I64($v) => $body,
        }
    };
}

impl Data {
    pub fn elem(&self) -> ElemType {
        match self {
            Data::F16(_) => ElemType::F16,
            Data::BF16(_) => ElemType::BF16,
            Data::F32(_) => ElemType::F32,
            Data::F64(_) => ElemType::F64,
            Data::I8(_) => ElemType::I8,
            Data::U8(_) => ElemType::U8,
            Data::I16(_) => ElemType::I16,
            Data::U16(_) => ElemType::U16,
            Data::I32(_) => ElemType::I32,
            Data::I64(_) => ElemType::I64,
        }
    }

    pub fn len(&self) -> usize {
        with_vec!(self, v => v.len())
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// `len` zero elements of type `elem`.
    pub fn zeros(elem: ElemType, len: usize) -> Data {
        match elem {
            ElemType::F16 => Data::F16(vec![F16(0); len]),
            ElemType::BF16 => Data::BF16(vec![Bf16(0); len]),
            ElemType::F32 => Data::F32(vec![0.0; len]),
            ElemType::F64 => Data::F64(vec![0.0; len]),
            ElemType::I8 => Data::I8(vec![0; len]),
            ElemType::U8 => Data::U8(vec![0; len]),
            ElemType::I16 => Data::I16(vec![0; len]),
            ElemType::U16 => Data::U16(vec![0; len]),
            ElemType::I32 => Data::I32(vec![0; len]),
            ElemType::I64 => Data::I64(vec![0; len]),
        }
    }

    /// Element `index` as `f64` (exact for every type except `i64` beyond 2^53).
    pub fn get_f64(&self, index: usize) -> f64 {
        match self {
            Data::F16(v) => v[index].to_f32() as f64,
            Data::BF16(v) => v[index].to_f32() as f64,
            Data::F32(v) => v[index] as f64,
            Data::F64(v) => v[index],
            Data::I8(v) => v[index] as f64,
            Data::U8(v) => v[index] as f64,
            Data::I16(v) => v[index] as f64,
            Data::U16(v) => v[index] as f64,
            Data::I32(v) => v[index] as f64,
            Data::I64(v) => v[index] as f64,
        }
    }

    /// Pointer to the first element (dangling but non-null and aligned when empty).
    #[allow(clippy::unnecessary_cast)] // the `u8` arm
    pub fn as_mut_ptr(&mut self) -> *mut u8 {
        with_vec!(self, v => v.as_mut_ptr() as *mut u8)
    }

    /// The elements as little-endian bytes.
    pub fn to_le_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(self.len() * self.elem().size());
        match self {
            Data::F16(v) => v.iter().for_each(|x| out.extend(x.0.to_le_bytes())),
            Data::BF16(v) => v.iter().for_each(|x| out.extend(x.0.to_le_bytes())),
            Data::F32(v) => v.iter().for_each(|x| out.extend(x.to_le_bytes())),
            Data::F64(v) => v.iter().for_each(|x| out.extend(x.to_le_bytes())),
            Data::I8(v) => v.iter().for_each(|x| out.extend(x.to_le_bytes())),
            Data::U8(v) => out.extend_from_slice(v),
            Data::I16(v) => v.iter().for_each(|x| out.extend(x.to_le_bytes())),
            Data::U16(v) => v.iter().for_each(|x| out.extend(x.to_le_bytes())),
            Data::I32(v) => v.iter().for_each(|x| out.extend(x.to_le_bytes())),
            Data::I64(v) => v.iter().for_each(|x| out.extend(x.to_le_bytes())),
        }
        out
    }

    /// Elements from bytes (`bytes.len()` must be a multiple of the element size); `big_endian`
    /// swaps each element.
    pub fn from_bytes(elem: ElemType, bytes: &[u8], big_endian: bool) -> Data {
        fn words<const W: usize, T>(bytes: &[u8], big_endian: bool, make: impl Fn([u8; W]) -> T) -> Vec<T> {
            bytes
                .chunks_exact(W)
                .map(|chunk| {
                    let mut word = [0u8; W];
                    word.copy_from_slice(chunk);
                    if big_endian {
                        word.reverse();
                    }
                    make(word)
                })
                .collect()
        }
        match elem {
            ElemType::F16 => Data::F16(words(bytes, big_endian, |w| F16(u16::from_le_bytes(w)))),
            ElemType::BF16 => Data::BF16(words(bytes, big_endian, |w| Bf16(u16::from_le_bytes(w)))),
            ElemType::F32 => Data::F32(words(bytes, big_endian, f32::from_le_bytes)),
            ElemType::F64 => Data::F64(words(bytes, big_endian, f64::from_le_bytes)),
            ElemType::I8 => Data::I8(bytes.iter().map(|&b| b as i8).collect()),
            ElemType::U8 => Data::U8(bytes.to_vec()),
            ElemType::I16 => Data::I16(words(bytes, big_endian, i16::from_le_bytes)),
            ElemType::U16 => Data::U16(words(bytes, big_endian, u16::from_le_bytes)),
            ElemType::I32 => Data::I32(words(bytes, big_endian, i32::from_le_bytes)),
            ElemType::I64 => Data::I64(words(bytes, big_endian, i64::from_le_bytes)),
        }
    }

    /// Reorders the elements by `permutation` (`out[i] = self[permutation[i]]`).
    fn gather(&self, permutation: &[usize]) -> Data {
        fn pick<T: Copy>(v: &[T], p: &[usize]) -> Vec<T> {
            p.iter().map(|&i| v[i]).collect()
        }
        match self {
            Data::F16(v) => Data::F16(pick(v, permutation)),
            Data::BF16(v) => Data::BF16(pick(v, permutation)),
            Data::F32(v) => Data::F32(pick(v, permutation)),
            Data::F64(v) => Data::F64(pick(v, permutation)),
            Data::I8(v) => Data::I8(pick(v, permutation)),
            Data::U8(v) => Data::U8(pick(v, permutation)),
            Data::I16(v) => Data::I16(pick(v, permutation)),
            Data::U16(v) => Data::U16(pick(v, permutation)),
            Data::I32(v) => Data::I32(pick(v, permutation)),
            Data::I64(v) => Data::I64(pick(v, permutation)),
        }
    }
}

/// Error for an [`Array`] whose element count does not match its shape.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
#[error("shape {shape:?} has {expected} elements but the data has {found}")]
pub struct ShapeMismatch {
    pub shape: Vec<usize>,
    pub expected: usize,
    pub found: usize,
}

/// An n-dimensional array in C (row-major) order. Rank 0 is a scalar (one element).
#[derive(Clone, Debug, PartialEq)]
pub struct Array {
    shape: Vec<usize>,
    data: Data,
}

/// Number of elements of `shape`, or None on overflow.
pub fn element_count(shape: &[usize]) -> Option<usize> {
    shape.iter().try_fold(1usize, |n, &d| n.checked_mul(d))
}

impl Array {
    pub fn new(shape: Vec<usize>, data: Data) -> Result<Array, ShapeMismatch> {
        let expected = element_count(&shape).unwrap_or(usize::MAX);
        if expected != data.len() {
            return Err(ShapeMismatch { shape, expected, found: data.len() });
        }
        Ok(Array { shape, data })
    }

    /// An array of zeros. Panics only if the element count overflows `usize`.
    pub fn zeros(elem: ElemType, shape: &[usize]) -> Array {
        let len = element_count(shape).expect("shape too large");
        Array { shape: shape.to_vec(), data: Data::zeros(elem, len) }
    }

    pub fn shape(&self) -> &[usize] {
        &self.shape
    }

    pub fn elem(&self) -> ElemType {
        self.data.elem()
    }

    pub fn len(&self) -> usize {
        self.data.len()
    }

    pub fn is_empty(&self) -> bool {
        self.data.is_empty()
    }

    pub fn data(&self) -> &Data {
        &self.data
    }

    pub fn data_mut(&mut self) -> &mut Data {
        &mut self.data
    }

    pub fn into_data(self) -> Data {
        self.data
    }

    /// Row-major strides in elements.
    pub fn strides(&self) -> Vec<usize> {
        row_major_strides(&self.shape)
    }

    /// Linear index of a coordinate (no bounds check beyond debug assertions).
    pub fn index_of(&self, coordinate: &[usize]) -> usize {
        debug_assert_eq!(coordinate.len(), self.shape.len());
        coordinate.iter().zip(self.strides()).map(|(c, s)| c * s).sum()
    }

    /// Element at linear index `index` as `f64`.
    pub fn get_f64(&self, index: usize) -> f64 {
        self.data.get_f64(index)
    }

    /// Reinterprets the bits of a 16-bit array as another 16-bit type (`u16` ↔ `bf16`/`f16`/`i16`),
    /// e.g. a `<u2` file holding bfloat16 bits. Returns None for other type pairs.
    pub fn reinterpret_16(self, elem: ElemType) -> Option<Array> {
        let bits: Vec<u16> = match &self.data {
            Data::F16(v) => v.iter().map(|x| x.0).collect(),
            Data::BF16(v) => v.iter().map(|x| x.0).collect(),
            Data::I16(v) => v.iter().map(|&x| x as u16).collect(),
            Data::U16(v) => v.clone(),
            _ => return None,
        };
        let data = match elem {
            ElemType::F16 => Data::F16(bits.into_iter().map(F16).collect()),
            ElemType::BF16 => Data::BF16(bits.into_iter().map(Bf16).collect()),
            ElemType::I16 => Data::I16(bits.into_iter().map(|x| x as i16).collect()),
            ElemType::U16 => Data::U16(bits),
            _ => return None,
        };
        Some(Array { shape: self.shape, data })
    }

    /// Short description, e.g. `f32[4x8] min -1 max 1 mean 0.0625`.
    pub fn summary(&self) -> String {
        let dims = if self.shape.is_empty() {
            "scalar".to_string()
        } else {
            self.shape.iter().map(usize::to_string).collect::<Vec<_>>().join("x")
        };
        let mut text = format!("{}[{dims}]", self.elem());
        if !self.is_empty() {
            let (mut min, mut max, mut sum, mut nans) = (f64::INFINITY, f64::NEG_INFINITY, 0.0, 0);
            for i in 0..self.len() {
                let x = self.get_f64(i);
                if x.is_nan() {
                    nans += 1;
                    continue;
                }
                min = min.min(x);
                max = max.max(x);
                sum += x;
            }
            let counted = self.len() - nans;
            if counted > 0 {
                text += &format!(" min {min} max {max} mean {:.6}", sum / counted as f64);
            }
            if nans > 0 {
                text += &format!(" nan {nans}");
            }
        }
        text
    }
}

/// Row-major strides (in elements) of `shape`.
pub fn row_major_strides(shape: &[usize]) -> Vec<usize> {
    let mut strides = vec![1usize; shape.len()];
    for i in (0..shape.len().saturating_sub(1)).rev() {
        strides[i] = strides[i + 1].saturating_mul(shape[i + 1]);
    }
    strides
}

/// Converts data stored in Fortran (column-major) order for `shape` into C order.
pub(crate) fn fortran_to_c(shape: &[usize], data: Data) -> Data {
    if shape.len() < 2 || data.len() < 2 {
        return data;
    }
    // For each C-order position, the F-order linear index of the same coordinate.
    let len = data.len();
    let mut f_strides = vec![1usize; shape.len()];
    for i in 1..shape.len() {
        f_strides[i] = f_strides[i - 1] * shape[i - 1];
    }
    let mut permutation = Vec::with_capacity(len);
    let mut coordinate = vec![0usize; shape.len()];
    for _ in 0..len {
        permutation.push(coordinate.iter().zip(&f_strides).map(|(c, s)| c * s).sum());
        for axis in (0..shape.len()).rev() {
            coordinate[axis] += 1;
            if coordinate[axis] < shape[axis] {
                break;
            }
            coordinate[axis] = 0;
        }
    }
    data.gather(&permutation)
}
