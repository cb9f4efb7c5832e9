//! NumPy `.npy` files: format versions 1.0 and 2.0 (3.0 is read too), little- and big-endian
//! data, C and Fortran order (Fortran-order files are converted to C order on reading; files
//! are always written in C order, little-endian, version 1.0 unless the header needs 2.0).
//!
//! ## bfloat16 convention
//! NumPy has no bfloat16. A `bf16` array is written as `descr '<u2'` (the raw bits, so NumPy
//! reads it as `uint16`) and the header dictionary is followed by the comment
//! [`BF16_MARKER`] (`# layout-npy: bfloat16`) in the header's padding, which NumPy's header
//! parser (`ast.literal_eval`) ignores. Reading such a file gives a `bf16` array; a `<u2` file
//! without the marker is `u16`, and [`crate::Array::reinterpret_16`] turns it into `bf16` when
//! the caller knows better. In Python: `x = np.load(f)` then
//! `x.view(ml_dtypes.bfloat16)` or `(x.astype(np.uint32) << 16).view(np.float32)`; to write
//! bf16 from Python, save the uint16 bits (with or without the marker).
//!
//! Malformed input never panics: every problem is an [`NpyError`].

use crate::{element_count, fortran_to_c, Array, Data, ElemType};
use std::path::Path;

/// The header comment that marks `<u2` data as bfloat16 bits.
pub const BF16_MARKER: &str = "# layout-npy: bfloat16";

const MAGIC: &[u8; 6] = b"\x93NUMPY";
/// Header blocks are padded so that the data starts at a multiple of this (NumPy ≥ 1.x uses 64).
const ALIGNMENT: usize = 64;

#[derive(Debug, thiserror::Error)]
pub enum NpyError {
    #[error("{path}: {source}")]
    Io { path: String, source: std::io::Error },
    #[error("not a .npy file (bad magic string)")]
    BadMagic,
    #[error("unsupported .npy format version {0}.{1}")]
    UnsupportedVersion(u8, u8),
    #[error("file ends inside the header ({0} bytes)")]
    TruncatedHeader(usize),
    #[error("malformed .npy header: {0}")]
    BadHeader(String),
    #[error("unsupported dtype '{0}' (supported: f2, f4, f8, i1, u1, i2, u2, i4, i8; bf16 as u2 with the marker)")]
    UnsupportedDtype(String),
    #[error("shape {0:?} is too large")]
    ShapeOverflow(Vec<usize>),
    #[error("truncated data: shape {shape:?} of {elem} needs {expected} bytes, the file has {found}")]
    TruncatedData { shape: Vec<usize>, elem: ElemType, expected: usize, found: usize },
    #[error("{0} unexpected bytes after the data")]
    TrailingData(usize),
}

/// The parsed header dictionary.
#[derive(Debug, PartialEq)]
struct Header {
    descr: String,
    fortran_order: bool,
    shape: Vec<usize>,
    bf16: bool,
}

/// Reads a `.npy` file.
pub fn read_npy(path: impl AsRef<Path>) -> Result<Array, NpyError> {
    let path = path.as_ref();
    let bytes = std::fs::read(path).map_err(|source| NpyError::Io { path: path.display().to_string(), source })?;
    decode_npy(&bytes)
}

/// Writes a `.npy` file with [`output_file::write`]: a regular file is replaced atomically (a
/// failed write leaves no partial file, the mode is kept), a symlink is followed, a FIFO or
/// device is written through.
pub fn write_npy(path: impl AsRef<Path>, array: &Array) -> Result<(), NpyError> {
    let path = path.as_ref();
    output_file::write(path, &encode_npy(array))
        .map_err(|source| NpyError::Io { path: path.display().to_string(), source })
}

fn descr_of(elem: ElemType) -> &'static str {
    match elem {
        ElemType::F16 => "<f2",
        ElemType::BF16 => "<u2",
        ElemType::F32 => "<f4",
        ElemType::F64 => "<f8",
        ElemType::I8 => "|i1",
        ElemType::U8 => "|u1",
        ElemType::I16 => "<i2",
        ElemType::U16 => "<u2",
        ElemType::I32 => "<i4",
        ElemType::I64 => "<i8",
    }
}

/// Encodes an array as `.npy` bytes (C order, little-endian).
pub fn encode_npy(array: &Array) -> Vec<u8> {
    let shape = match array.shape() {
        [] => "()".to_string(),
        [n] => format!("({n},)"),
        dims => format!("({})", dims.iter().map(usize::to_string).collect::<Vec<_>>().join(", ")),
    };
    let mut dict = format!("{{'descr': '{}', 'fortran_order': False, 'shape': {shape}, }}", descr_of(array.elem()));
    if array.elem() == ElemType::BF16 {
        dict.push(' ');
        dict.push_str(BF16_MARKER);
    }
    // Version 1.0 has a 2-byte header length; 2.0 a 4-byte one.
    let (version, prefix) = if dict.len() + 1 + 10 <= u16::MAX as usize { (1u8, 10usize) } else { (2u8, 12usize) };
    let unpadded = prefix + dict.len() + 1;
    let total = unpadded.div_ceil(ALIGNMENT) * ALIGNMENT;
    let header_len = total - prefix;
    let mut out = Vec::with_capacity(total + array.len() * array.elem().size());
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&[version, 0]);
    if version == 1 {
        out.extend_from_slice(&(header_len as u16).to_le_bytes());
    } else {
        out.extend_from_slice(&(header_len as u32).to_le_bytes());
    }
    out.extend_from_slice(dict.as_bytes());
    out.resize(total - 1, b' ');
    out.push(b'\n');
    out.extend(array.data().to_le_bytes());
    out
}

/// Decodes `.npy` bytes.
pub fn decode_npy(bytes: &[u8]) -> Result<Array, NpyError> {
    if bytes.len() < 8 || &bytes[..6] != MAGIC {
        return Err(if bytes.len() < 8 && MAGIC.starts_with(bytes) {
            NpyError::TruncatedHeader(bytes.len())
        } else {
            NpyError::BadMagic
        });
    }
    let (major, minor) = (bytes[6], bytes[7]);
    let (header_start, header_len) = match major {
        1 => {
            let len = bytes.get(8..10).ok_or(NpyError::TruncatedHeader(bytes.len()))?;
            (10usize, u16::from_le_bytes([len[0], len[1]]) as usize)
        }
        2 | 3 => {
            let len = bytes.get(8..12).ok_or(NpyError::TruncatedHeader(bytes.len()))?;
            (12usize, u32::from_le_bytes([len[0], len[1], len[2], len[3]]) as usize)
        }
        _ => return Err(NpyError::UnsupportedVersion(major, minor)),
    };
    let header_end = header_start
        .checked_add(header_len)
        .filter(|&end| end <= bytes.len())
        .ok_or(NpyError::TruncatedHeader(bytes.len()))?;
    let text = std::str::from_utf8(&bytes[header_start..header_end])
        .map_err(|_| NpyError::BadHeader("the header is not valid text".into()))?;
    if major < 3 && !text.is_ascii() {
        return Err(NpyError::BadHeader("non-ASCII header in a version 1/2 file".into()));
    }
    let header = parse_header(text)?;
    let (elem, big_endian) = parse_descr(&header.descr, header.bf16)?;
    let count = element_count(&header.shape).and_then(|n| n.checked_mul(elem.size()).map(|bytes| (n, bytes)));
    let (_, expected) = count.ok_or_else(|| NpyError::ShapeOverflow(header.shape.clone()))?;
    let payload = &bytes[header_end..];
    if payload.len() < expected {
        return Err(NpyError::TruncatedData { shape: header.shape, elem, expected, found: payload.len() });
    }
    if payload.len() > expected {
        return Err(NpyError::TrailingData(payload.len() - expected));
    }
    let mut data = Data::from_bytes(elem, payload, big_endian);
    if header.fortran_order {
        data = fortran_to_c(&header.shape, data);
    }
    Array::new(header.shape, data).map_err(|e| NpyError::BadHeader(e.to_string()))
}

/// Maps a NumPy type string to an element type and whether the data is big-endian.
fn parse_descr(descr: &str, bf16: bool) -> Result<(ElemType, bool), NpyError> {
    let unsupported = || NpyError::UnsupportedDtype(descr.to_string());
    let (order, code) = match descr.chars().next() {
        Some(c @ ('<' | '>' | '|' | '=')) => (c, &descr[1..]),
        _ => ('=', descr),
    };
    let elem = match code {
        "f2" | "e" => ElemType::F16,
        "f4" | "f" => ElemType::F32,
        "f8" | "d" => ElemType::F64,
        "i1" | "b" => ElemType::I8,
        "u1" | "B" => ElemType::U8,
        "i2" | "h" => ElemType::I16,
        "u2" | "H" => ElemType::U16,
        "i4" | "i" => ElemType::I32,
        "i8" | "q" => ElemType::I64,
        _ => return Err(unsupported()),
    };
    if order == '|' && elem.size() != 1 {
        return Err(unsupported());
    }
    let elem = if bf16 && elem == ElemType::U16 { ElemType::BF16 } else { elem };
    Ok((elem, order == '>' && elem.size() > 1))
}

/// A tiny parser for the Python dict literal NumPy writes:
/// `{'descr': '<f4', 'fortran_order': False, 'shape': (3, 4), }` followed by spaces, an
/// optional `# comment`, and a newline.
fn parse_header(text: &str) -> Result<Header, NpyError> {
    let mut p = Parser { s: text.as_bytes(), i: 0 };
    p.ws();
    p.expect(b'{')?;
    let (mut descr, mut fortran, mut shape) = (None, None, None);
    loop {
        p.ws();
        if p.eat(b'}') {
            break;
        }
        let key = p.string()?;
        p.ws();
        p.expect(b':')?;
        p.ws();
        match key.as_str() {
            "descr" => {
                if p.peek() != Some(b'\'') && p.peek() != Some(b'"') {
                    return Err(NpyError::UnsupportedDtype("structured or non-string descr".into()));
                }
                descr = Some(p.string()?)
            }
            "fortran_order" => fortran = Some(p.boolean()?),
            "shape" => shape = Some(p.tuple()?),
            other => return Err(NpyError::BadHeader(format!("unexpected key '{other}'"))),
        }
        p.ws();
        if p.eat(b',') {
            continue;
        }
        p.ws();
        p.expect(b'}')?;
        break;
    }
    // Rest: whitespace, an optional comment, whitespace.
    let rest = std::str::from_utf8(&p.s[p.i..]).unwrap_or("");
    let rest = rest.trim();
    let bf16 = rest.contains(BF16_MARKER.trim_start_matches("# "));
    if !rest.is_empty() && !rest.starts_with('#') {
        return Err(NpyError::BadHeader(format!(
            "unexpected text after the dictionary: '{}'",
            rest.chars().take(40).collect::<String>()
        )));
    }
    Ok(Header {
        descr: descr.ok_or_else(|| NpyError::BadHeader("missing key 'descr'".into()))?,
        fortran_order: fortran.ok_or_else(|| NpyError::BadHeader("missing key 'fortran_order'".into()))?,
        shape: shape.ok_or_else(|| NpyError::BadHeader("missing key 'shape'".into()))?,
        bf16,
    })
}

struct Parser<'a> {
    s: &'a [u8],
    i: usize,
}

impl Parser<'_> {
    fn peek(&self) -> Option<u8> {
        self.s.get(self.i).copied()
    }
    fn ws(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            self.i += 1;
        }
    }
    fn eat(&mut self, c: u8) -> bool {
        if self.peek() == Some(c) {
            self.i += 1;
            true
        } else {
            false
        }
    }
    fn error(&self, what: &str) -> NpyError {
        let found = match self.peek() {
            Some(c) => format!("'{}'", c as char),
            None => "the end of the header".into(),
        };
        NpyError::BadHeader(format!("expected {what} at offset {}, found {found}", self.i))
    }
    fn expect(&mut self, c: u8) -> Result<(), NpyError> {
        if self.eat(c) {
            Ok(())
        } else {
            Err(self.error(&format!("'{}'", c as char)))
        }
    }
    fn string(&mut self) -> Result<String, NpyError> {
        let quote = match self.peek() {
            Some(q @ (b'\'' | b'"')) => q,
            _ => return Err(self.error("a string")),
        };
        self.i += 1;
        let start = self.i;
        while let Some(c) = self.peek() {
            if c == quote {
                let text = String::from_utf8_lossy(&self.s[start..self.i]).into_owned();
                self.i += 1;
                return Ok(text);
            }
            if c == b'\\' {
                return Err(NpyError::BadHeader("escapes in header strings are not supported".into()));
            }
            self.i += 1;
        }
        Err(NpyError::BadHeader("unterminated string".into()))
    }
    fn boolean(&mut self) -> Result<bool, NpyError> {
        for (word, value) in [("True", true), ("False", false)] {
            if self.s[self.i..].starts_with(word.as_bytes()) {
                self.i += word.len();
                return Ok(value);
            }
        }
        Err(self.error("True or False"))
    }
    fn tuple(&mut self) -> Result<Vec<usize>, NpyError> {
        self.expect(b'(')?;
        let mut dims = Vec::new();
        loop {
            self.ws();
            if self.eat(b')') {
                return Ok(dims);
            }
            let start = self.i;
            while matches!(self.peek(), Some(b'0'..=b'9')) {
                self.i += 1;
            }
            if start == self.i {
                return Err(self.error("a non-negative integer dimension"));
            }
            let digits = std::str::from_utf8(&self.s[start..self.i]).unwrap_or("");
            let dim =
                digits.parse::<usize>().map_err(|_| NpyError::BadHeader(format!("dimension {digits} is too large")))?;
            dims.push(dim);
            self.eat(b'L'); // Python 2 long suffix
            self.ws();
            if self.eat(b',') {
                continue;
            }
            self.ws();
            self.expect(b')')?;
            return Ok(dims);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{random::Rng, Bf16, F16};

    fn header_bytes(dict: &str, version: u8) -> Vec<u8> {
        let mut out = MAGIC.to_vec();
        out.extend([version, 0]);
        let text = format!("{dict}\n");
        if version == 1 {
            out.extend((text.len() as u16).to_le_bytes());
        } else {
            out.extend((text.len() as u32).to_le_bytes());
        }
        out.extend(text.as_bytes());
        out
    }

    #[test]
    fn round_trips_every_type_and_rank() {
        let mut rng = Rng::new(7);
        for elem in ElemType::ALL {
            for shape in [vec![], vec![0], vec![5], vec![3, 4], vec![2, 3, 1, 2]] {
                let array = rng.array(elem, &shape);
                let bytes = encode_npy(&array);
                assert_eq!(bytes[8..10], [(bytes.len() - 10 - array.len() * elem.size()) as u8, 0]);
                assert_eq!((bytes.len() - array.len() * elem.size()) % ALIGNMENT, 0);
                let back = decode_npy(&bytes).expect("decode");
                assert_eq!(back, array, "{elem} {shape:?}");
            }
        }
    }

    #[test]
    fn bf16_marker_and_raw_u16() {
        let array = Array::new(vec![2], Data::BF16(vec![Bf16::from_f32(1.5), Bf16::from_f32(-2.0)])).unwrap();
        let bytes = encode_npy(&array);
        let text = String::from_utf8_lossy(&bytes[10..128]).into_owned();
        assert!(text.contains("'descr': '<u2'"), "{text}");
        assert!(text.contains(BF16_MARKER));
        assert_eq!(decode_npy(&bytes).unwrap(), array);
        // Without the marker the same bits are u16; reinterpret gives bf16 back.
        let plain = header_bytes("{'descr': '<u2', 'fortran_order': False, 'shape': (2,), }", 1);
        let mut file = plain.clone();
        file.extend(array.data().to_le_bytes());
        let read = decode_npy(&file).unwrap();
        assert_eq!(read.elem(), ElemType::U16);
        assert_eq!(read.reinterpret_16(ElemType::BF16).unwrap(), array);
    }

    #[test]
    fn reads_version_2_fortran_order_big_endian_and_variants() {
        // 2x3 in Fortran order: memory 0 3 1 4 2 5 is C-order 0 1 2 / 3 4 5.
        let mut file = header_bytes("{\"shape\": (2L, 3L), \"fortran_order\": True, \"descr\": \">i4\"}", 2);
        for v in [0i32, 3, 1, 4, 2, 5] {
            file.extend(v.to_be_bytes());
        }
        let array = decode_npy(&file).unwrap();
        assert_eq!(array.shape(), &[2, 3]);
        assert_eq!(array.data(), &Data::I32(vec![0, 1, 2, 3, 4, 5]));
        // 3-D Fortran order.
        let mut file = header_bytes("{'descr': '<f2', 'fortran_order': True, 'shape': (2, 2, 2), }", 1);
        let f_order = [0, 4, 2, 6, 1, 5, 3, 7];
        for v in f_order {
            file.extend(F16::from_f32(v as f32).0.to_le_bytes());
        }
        let array = decode_npy(&file).unwrap();
        let values: Vec<f64> = (0..8).map(|i| array.get_f64(i)).collect();
        assert_eq!(values, (0..8).map(f64::from).collect::<Vec<_>>());
        // Bigger header forces version 2 on write; still round trips.
        let wide = Array::zeros(ElemType::U8, &vec![1; 30000]);
        let bytes = encode_npy(&wide);
        assert_eq!(bytes[6], 2);
        assert_eq!(decode_npy(&bytes).unwrap(), wide);
    }

    #[test]
    fn malformed_files_give_typed_errors() {
        let good = encode_npy(&Array::new(vec![2, 2], Data::F32(vec![1.0, 2.0, 3.0, 4.0])).unwrap());
        let cases: Vec<(Vec<u8>, &str)> = vec![
            (b"hello world".to_vec(), "magic"),
            (good[..5].to_vec(), "header"),
            (good[..40].to_vec(), "header"),
            (good[..good.len() - 3].to_vec(), "truncated data"),
            ([good.clone(), vec![0]].concat(), "unexpected bytes"),
            (
                {
                    let mut b = good.clone();
                    b[6] = 9;
                    b
                },
                "version 9.0",
            ),
            (header_bytes("{'descr': '<c8', 'fortran_order': False, 'shape': (1,), }", 1), "unsupported dtype"),
            (header_bytes("{'descr': [('a', '<f4')], 'fortran_order': False, 'shape': (1,), }", 1), "structured"),
            (header_bytes("{'descr': '<f4', 'shape': (1,), }", 1), "missing key 'fortran_order'"),
            (header_bytes("{'descr': '<f4', 'fortran_order': maybe, 'shape': (1,), }", 1), "True or False"),
            (header_bytes("{'descr': '<f4', 'fortran_order': False, 'shape': (-1,), }", 1), "dimension"),
            (
                header_bytes("{'descr': '<f4', 'fortran_order': False, 'shape': (99999999999999999999999,), }", 1),
                "too large",
            ),
            (
                header_bytes(
                    "{'descr': '<f4', 'fortran_order': False, 'shape': (4294967296, 4294967296, 4294967296), }",
                    1,
                ),
                "too large",
            ),
            (header_bytes("{'descr': '<f4', 'fortran_order': False, 'shape': (1,), 'x': 1}", 1), "unexpected key"),
            (header_bytes("{'descr': '<f4', 'fortran_order': False, 'shape': (1,) junk", 1), "expected '}'"),
            (header_bytes("{'descr': '<f4', 'fortran_order': False, 'shape': (1,)} junk", 1), "after the dictionary"),
            (header_bytes("{'descr': '|f4', 'fortran_order': False, 'shape': (1,)}", 1), "unsupported dtype"),
            (header_bytes("{'descr': '<f4", 1), "unterminated"),
        ];
        for (bytes, expected) in cases {
            let error = decode_npy(&bytes).expect_err(expected).to_string();
            assert!(error.contains(expected), "{error:?} should mention {expected:?}");
        }
        // Every prefix of a valid file is an error, never a panic.
        for len in 0..good.len() {
            assert!(decode_npy(&good[..len]).is_err(), "prefix {len}");
        }
        // Random corruption never panics.
        let mut rng = Rng::new(3);
        for _ in 0..5000 {
            let mut bytes = good.clone();
            let at = rng.below(bytes.len() as u64) as usize;
            bytes[at] = rng.next_u64() as u8;
            let _ = decode_npy(&bytes);
        }
    }

    #[test]
    fn files_are_written_atomically() {
        let dir = std::env::temp_dir().join(format!("layout-npy-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("a.npy");
        let array = Rng::new(1).array(ElemType::F16, &[3, 5]);
        write_npy(&path, &array).unwrap();
        assert_eq!(read_npy(&path).unwrap(), array);
        let names: Vec<_> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().file_name()).collect();
        assert_eq!(names.len(), 1);
        assert!(matches!(write_npy(dir.join("missing/b.npy"), &array), Err(NpyError::Io { .. })));
        assert!(matches!(read_npy(dir.join("missing.npy")), Err(NpyError::Io { .. })));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}

/// Files written by NumPy 2.4 (`np.save`), read back here.
#[cfg(test)]
mod numpy_files {
    use super::*;

    fn values(array: &Array) -> Vec<f64> {
        (0..array.len()).map(|i| array.get_f64(i)).collect()
    }

    #[test]
    fn reads_files_written_by_numpy() {
        let a = decode_npy(include_bytes!("../testdata/f16_fortran_3x4.npy")).unwrap();
        assert_eq!((a.elem(), a.shape()), (ElemType::F16, &[3, 4][..]));
        assert_eq!(values(&a), (0..12).map(|v| v as f64 / 4.0).collect::<Vec<_>>());
        let a = decode_npy(include_bytes!("../testdata/i64_2x3.npy")).unwrap();
        assert_eq!(a.data(), &Data::I64(vec![-3, -2, -1, 0, 1, 2]));
        assert_eq!(a.shape(), &[2, 3]);
        let a = decode_npy(include_bytes!("../testdata/f8_big_endian_3x2.npy")).unwrap();
        assert_eq!(values(&a), vec![0.0, 1.5, 3.0, 4.5, 6.0, 7.5]);
        let a = decode_npy(include_bytes!("../testdata/f4_scalar.npy")).unwrap();
        assert_eq!((a.shape(), a.data()), (&[][..], &Data::F32(vec![3.5])));
        let a = decode_npy(include_bytes!("../testdata/u1_empty.npy")).unwrap();
        assert_eq!((a.shape(), a.elem(), a.len()), (&[0, 5][..], ElemType::U8, 0));
        let a = decode_npy(include_bytes!("../testdata/i1_4.npy")).unwrap();
        assert_eq!(a.data(), &Data::I8(vec![-128, -1, 0, 127]));
        // Our encoding of the same arrays is byte-identical to NumPy's (C-order ones).
        for bytes in [
            &include_bytes!("../testdata/i64_2x3.npy")[..],
            &include_bytes!("../testdata/f4_scalar.npy")[..],
            &include_bytes!("../testdata/u1_empty.npy")[..],
            &include_bytes!("../testdata/i1_4.npy")[..],
        ] {
            assert_eq!(encode_npy(&decode_npy(bytes).unwrap()), bytes);
        }
    }
}
