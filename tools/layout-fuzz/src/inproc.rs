//! The in-process targets: the layout-expression parser and the `.npy` decoder, called as
//! library functions. They run in a child process (`layout-fuzz --worker TARGET`, inputs on
//! stdin) so that an abort or a stack overflow is seen by the parent as a crash.
//!
//! Beyond "no panic", each checks properties a wrong implementation would break: what parses
//! prints back to text that parses to the same value, and error columns lie inside the text.

use crate::error::{FuzzError, Result};
use layout_algebra::ascend::recognize;
use layout_algebra::parse::{parse_dyn_layout, parse_dyn_tuple, parse_int_tuple, parse_layout, DynLayoutText};
use layout_algebra::AlgebraError;
use layout_npy::{decode_npy, encode_npy, Array};
use std::io::{Read, Write};
use std::panic::{self, AssertUnwindSafe};
use std::sync::Mutex;

/// A check of one input: [`FuzzError::Property`] names the violated property (a panic is
/// caught by the caller).
pub type Check = fn(&[u8]) -> Result<()>;

/// The in-process targets and their checks.
pub const TARGETS: &[(&str, Check)] = &[("parse", check_parse), ("npy", check_npy)];

/// A parse error must point into the text or just past its end.
fn check_column(text: &str, result: &Result<impl Sized, AlgebraError>) -> Result<()> {
    if let Err(AlgebraError::Parse { column, .. }) = result {
        let last = text.chars().count() + 1;
        if *column == 0 || *column > last {
            return Err(FuzzError::Property(format!("parse error column {column} outside 1..={last}")));
        }
    }
    Ok(())
}

fn dyn_layout_text(l: &DynLayoutText) -> String {
    let mut text = format!("{}:{}", l.shape.to_string_dyn(), l.stride.to_string_dyn());
    if let Some(origin) = &l.origin {
        text += &format!(" origin {}", origin.to_string_dyn());
    }
    text
}

/// The four parsers of `crates/layout-algebra/src/parse.rs`, with print/parse round trips.
pub fn check_parse(bytes: &[u8]) -> Result<()> {
    let text = String::from_utf8_lossy(bytes);
    let text = text.as_ref();
    let tuple = parse_int_tuple(text);
    check_column(text, &tuple)?;
    if let Ok(t) = &tuple {
        let printed = t.to_string();
        if parse_int_tuple(&printed).as_ref() != Ok(t) {
            return Err(FuzzError::Property(format!("int tuple {printed:?} does not parse back to itself")));
        }
    }
    let dyn_tuple = parse_dyn_tuple(text);
    check_column(text, &dyn_tuple)?;
    match &dyn_tuple {
        Ok(t) => {
            let printed = t.to_string_dyn();
            if parse_dyn_tuple(&printed).as_ref() != Ok(t) {
                return Err(FuzzError::Property(format!("dynamic tuple {printed:?} does not parse back to itself")));
            }
        }
        Err(_) if tuple.is_ok() => {
            return Err(FuzzError::Property("a static tuple is rejected by the dynamic tuple parser".into()))
        }
        Err(_) => {}
    }
    let dyn_layout = parse_dyn_layout(text);
    check_column(text, &dyn_layout)?;
    if let Ok(l) = &dyn_layout {
        let printed = dyn_layout_text(l);
        if parse_dyn_layout(&printed).as_ref() != Ok(l) {
            return Err(FuzzError::Property(format!("dynamic layout {printed:?} does not parse back to itself")));
        }
    }
    let layout = parse_layout(text);
    check_column(text, &layout)?;
    if let Ok(l) = &layout {
        let printed = l.to_string();
        if parse_layout(&printed).as_ref() != Ok(l) {
            return Err(FuzzError::Property(format!("layout {printed:?} does not parse back to itself")));
        }
        if dyn_layout.is_err() {
            return Err(FuzzError::Property("a static layout is rejected by the dynamic layout parser".into()));
        }
        // Cheap whole-layout functions (linear in the leaves): they must not panic either.
        let _ = (l.size(), l.cosize(), l.flatten(), recognize(l));
    }
    Ok(())
}

/// Shape, element type and raw little-endian bytes: equality that treats NaN payloads as data.
fn npy_identity(a: &Array) -> (Vec<usize>, String, Vec<u8>) {
    (a.shape().to_vec(), a.elem().to_string(), a.data().to_le_bytes())
}

/// `decode_npy` on arbitrary bytes; what decodes must survive an encode/decode round trip.
pub fn check_npy(bytes: &[u8]) -> Result<()> {
    let Ok(array) = decode_npy(bytes) else { return Ok(()) };
    let _ = array.summary();
    let back = decode_npy(&encode_npy(&array))
        .map_err(|e| FuzzError::Property(format!("re-encoded array does not decode: {e}")))?;
    if npy_identity(&back) != npy_identity(&array) {
        return Err(FuzzError::Property(format!("encode/decode round trip changes {}", array.summary())));
    }
    Ok(())
}

/// Inputs of one batch as one byte string: each a little-endian `u32` length and the bytes.
pub fn encode_batch(inputs: &[Vec<u8>]) -> Vec<u8> {
    let mut out = Vec::new();
    for input in inputs {
        out.extend((input.len() as u32).to_le_bytes());
        out.extend(input);
    }
    out
}

pub fn decode_batch(mut bytes: &[u8]) -> Vec<Vec<u8>> {
    let mut inputs = Vec::new();
    while bytes.len() >= 4 {
        let len = (u32::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]) as usize).min(bytes.len() - 4);
        inputs.push(bytes[4..4 + len].to_vec());
        bytes = &bytes[4 + len..];
    }
    inputs
}

/// The check of in-process target `name`.
pub fn find(name: &str) -> Result<Check> {
    TARGETS
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, check)| *check)
        .ok_or_else(|| FuzzError::NotInProcess(name.into()))
}

static PANIC_MESSAGE: Mutex<String> = Mutex::new(String::new());

/// `--worker TARGET`: runs each input of the batch on stdin; prints `INDEX\tKIND\tDETAIL` per
/// finding (a panic, with its location, or a failed property) and exits 0.
pub fn worker(target: &str) -> Result<()> {
    let check = find(target)?;
    let mut bytes = Vec::new();
    std::io::stdin().read_to_end(&mut bytes).map_err(FuzzError::io("standard input"))?;
    // Record panics instead of printing them: the parent reports them as findings.
    panic::set_hook(Box::new(|info| {
        let location = info.location().map(|l| format!("{}:{}", l.file(), l.line())).unwrap_or_default();
        let payload = info
            .payload()
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| info.payload().downcast_ref::<String>().cloned())
            .unwrap_or_default();
        *PANIC_MESSAGE.lock().unwrap_or_else(|e| e.into_inner()) = format!("{location}: {payload}");
    }));
    let mut out = std::io::stdout().lock();
    for (index, input) in decode_batch(&bytes).iter().enumerate() {
        let line = match panic::catch_unwind(AssertUnwindSafe(|| check(input))) {
            Ok(Ok(())) => continue,
            Ok(Err(property)) => format!("{index}\tproperty\t{property}"),
            Err(_) => format!("{index}\tpanic\t{}", PANIC_MESSAGE.lock().unwrap_or_else(|e| e.into_inner())),
        };
        writeln!(out, "{}", line.replace('\n', " ")).map_err(FuzzError::io("standard output"))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn batches_round_trip() {
        let inputs = vec![b"".to_vec(), b"(1,2)".to_vec(), vec![0, 0xff, 10]];
        assert_eq!(decode_batch(&encode_batch(&inputs)), inputs);
    }

    #[test]
    fn valid_inputs_pass_the_checks() {
        for text in ["((16,7),(16,7)):((16,256),(1,1792)) origin (100,100)", "(?,5):(1,?)", "(1,(2,3))", "x"] {
            assert!(check_parse(text.as_bytes()).is_ok(), "{text}");
        }
        let array = layout_npy::random::Rng::new(1).array(layout_npy::ElemType::F16, &[3, 4]);
        assert!(check_npy(&encode_npy(&array)).is_ok());
        assert!(check_npy(b"\x93NUMPY\x01\x00garbage").is_ok());
    }
}
