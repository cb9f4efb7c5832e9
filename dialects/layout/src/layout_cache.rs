//! A cache of `!layout.tensor` types read back from MLIR: [`TensorType::from_type`] prints the
//! type and re-parses the text, and [`TensorType::resolve`] parses the layout and origin again,
//! on every query. MLIR uniques types per context, so one pass run can key both by the type's
//! pointer.
//!
//! The key is (context, type) pointers: tests create many contexts, and a freed context's
//! addresses are reused by the next one. Keep a cache per pass run or lowering object (never
//! global, never across a context's lifetime): a type pointer is only meaningful while its
//! context lives.

use std::collections::HashMap;

use melior::ir::{Type, TypeLike};

use crate::{
    tensor_layout::{LayoutTypeError, DEFAULT_PREFIX},
    TensorLayout, TensorType,
};

/// (context pointer, type pointer).
type Key = (usize, usize);

/// Parsed and resolved `!layout.tensor` types of one context, by uniqued type.
#[derive(Debug, Default)]
pub struct LayoutCache {
    types: HashMap<Key, Option<TensorType>>,
    resolved: HashMap<Key, Result<TensorLayout, LayoutTypeError>>,
    parses: usize,
}

fn key(ty: Type) -> Key {
    // Safety: a valid type has a valid context.
    let context = unsafe { mlir_sys::mlirTypeGetContext(ty.to_raw()) };
    (context.ptr as usize, ty.to_raw().ptr as usize)
}

impl LayoutCache {
    pub fn new() -> Self {
        Self::default()
    }

    /// [`TensorType::from_type`], parsed once per type.
    pub fn tensor_type(&mut self, ty: Type) -> Option<TensorType> {
        let parses = &mut self.parses;
        self.types
            .entry(key(ty))
            .or_insert_with(|| {
                *parses += 1;
                TensorType::from_type(ty)
            })
            .clone()
    }

    /// `TensorType::from_type(ty)?.resolve()` (symbols `d0, d1, ...`), resolved once per type.
    pub fn resolve(&mut self, ty: Type) -> Option<Result<TensorLayout, LayoutTypeError>> {
        let tensor = self.tensor_type(ty)?;
        Some(self.resolved.entry(key(ty)).or_insert_with(|| tensor.resolve_with_prefix(DEFAULT_PREFIX)).clone())
    }

    /// How many types were printed and parsed (each distinct type once).
    pub fn parses(&self) -> usize {
        self.parses
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{create_context, parse_source};
    use melior::ir::{operation::OperationLike, BlockLike, ValueLike};

    const SOURCE: &str = r#"module {
        %a = "layout.alloc"() : () -> !layout.tensor<f16, "l1", "NZ", "(128,64)">
        %b = "layout.alloc"() : () -> !layout.tensor<f16, "l1", "NZ", "(128,64)">
        %c = "layout.alloc"() : () -> !layout.tensor<f32, "l0c", "NZ", "(?,64)">
      }"#;

    #[test]
    fn each_uniqued_type_is_parsed_once_and_resolves_as_uncached() {
        let context = create_context().expect("context");
        let module = parse_source(&context, SOURCE).expect("parse");
        let mut cache = LayoutCache::new();
        let mut op = module.body().first_operation();
        let mut seen = 0;
        while let Some(o) = op {
            let ty = o.result(0).expect("result").r#type();
            let direct = TensorType::from_type(ty).expect("tensor").resolve();
            assert_eq!(cache.resolve(ty), Some(direct.clone()));
            assert_eq!(cache.resolve(ty), Some(direct));
            seen += 1;
            op = o.next_in_block();
        }
        assert_eq!(seen, 3);
        // %a and %b share one uniqued type.
        assert_eq!(cache.parses(), 2);
        assert_eq!(cache.tensor_type(melior::ir::Type::index(&context)), None);
        assert_eq!(cache.parses(), 3);
    }

    /// One cache over two live contexts keeps their types apart (the context is in the key).
    #[test]
    fn types_of_two_live_contexts_do_not_collide() {
        let contexts = [create_context().expect("context"), create_context().expect("context")];
        let sources = [SOURCE.to_string(), SOURCE.replace("f16", "bf16")];
        let modules: Vec<_> = contexts.iter().zip(&sources).map(|(c, s)| parse_source(c, s).expect("parse")).collect();
        let mut cache = LayoutCache::new();
        let elems: Vec<String> = modules
            .iter()
            .map(|m| {
                let ty = m.body().first_operation().expect("op").result(0).expect("result").r#type();
                cache.tensor_type(ty).expect("tensor").elem
            })
            .collect();
        assert_eq!(elems, ["f16", "bf16"]);
        assert_eq!(cache.parses(), 2);
    }
}
