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

    /// `TensorType::from_type(ty)?.resolve_with_prefix(prefix)` (symbols `{prefix}0, ...`, one
    /// prefix per value keeps two values of one type apart), resolved once per type and renamed
    /// ([`TensorLayout::with_symbol_prefix`]).
    pub fn resolve_with_prefix(&mut self, ty: Type, prefix: &str) -> Option<Result<TensorLayout, LayoutTypeError>> {
        Some(self.resolve(ty)?.and_then(|resolved| resolved.with_symbol_prefix(prefix)))
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

    /// Renaming a cached resolution gives what resolving with the prefix gives, with the same
    /// sharing of sub-expressions, for patterns and explicit layouts with dynamic leaves.
    #[test]
    fn a_renamed_resolution_equals_resolving_with_the_prefix() {
        let context = create_context().expect("context");
        let source = r#"module {
            %a = "layout.alloc"() : () -> !layout.tensor<f16, "l1", "NZ", "(?,?)">
            %b = "layout.alloc"() : () -> !layout.tensor<i8, "gm", "((?,16),?):((16,?),1)", "(?,?)">
            %c = "layout.alloc"() : () -> !layout.tensor<f32, "gm", "DN", "(?,7)">
            %d = "layout.alloc"() : () -> !layout.tensor<f16, "gm", "ND", "(?,?)">
          }"#;
        let module = parse_source(&context, source).expect("parse");
        let mut cache = LayoutCache::new();
        let mut op = module.body().first_operation();
        let mut seen = 0;
        while let Some(o) = op {
            let ty = o.result(0).expect("result").r#type();
            for prefix in ["v1_", "v12_", "d"] {
                let direct = TensorType::from_type(ty).expect("tensor").resolve_with_prefix(prefix).expect("resolves");
                let renamed = cache.resolve_with_prefix(ty, prefix).expect("tensor").expect("resolves");
                assert_eq!(renamed, direct, "{ty} with prefix {prefix}");
                assert!(!direct.symbols.is_empty());
                let nodes = shared_nodes(&direct.layout);
                assert_eq!(shared_nodes(&renamed.layout), nodes, "{ty}");
            }
            seen += 1;
            op = o.next_in_block();
        }
        assert_eq!(seen, 4);
        assert_eq!(cache.parses(), 4);

        // The frame layouts above share no node; a layout that does keeps its sharing.
        use layout_algebra::{sym::BinOp, Layout, SymExpr, Tuple};
        use std::rc::Rc;
        let mut resolved = TensorType::new("f16", "gm", "ND", "(?,?)").resolve().expect("resolves");
        let tail = Rc::new(SymExpr::Bin(BinOp::Add, Rc::new(SymExpr::sym("d0")), Rc::new(SymExpr::Const(15))));
        let blocks = SymExpr::Bin(BinOp::FloorDiv, tail.clone(), Rc::new(SymExpr::Const(16)));
        let rows = SymExpr::Bin(BinOp::Mul, tail, Rc::new(SymExpr::sym("d1")));
        let leaves = |a: SymExpr, b: SymExpr| Tuple::Tuple(vec![Tuple::Int(a), Tuple::Int(b)]);
        resolved.layout = Layout::with_origin(
            leaves(blocks.clone(), SymExpr::sym("d1")),
            leaves(rows, SymExpr::Const(1)),
            leaves(SymExpr::sym("d0"), SymExpr::sym("d1")),
        )
        .expect("layout");
        let renamed = resolved.with_symbol_prefix("v3_").expect("renames");
        assert_eq!(shared_nodes(&resolved.layout), shared_nodes(&renamed.layout));
        assert!(shared_nodes(&renamed.layout).contains(&2), "the shared d0 + 15 is one node");
        assert_eq!(renamed.symbols, ["v3_0", "v3_1"]);
        assert_eq!(
            renamed.layout.to_string(),
            "((v3_0 + 15) floordiv 16,v3_1):((v3_0 + 15) * v3_1,1) origin (v3_0,v3_1)"
        );
    }

    /// Distinct `Rc` nodes under the leaves, and how many leaves point at them (the sharing).
    fn shared_nodes(layout: &layout_algebra::Layout<layout_algebra::SymExpr>) -> Vec<usize> {
        use layout_algebra::SymExpr;
        fn walk(e: &SymExpr, uses: &mut HashMap<*const SymExpr, usize>, order: &mut Vec<*const SymExpr>) {
            if let SymExpr::Bin(_, a, b) = e {
                for c in [a, b] {
                    let count = uses.entry(std::rc::Rc::as_ptr(c)).or_insert(0);
                    *count += 1;
                    if *count == 1 {
                        order.push(std::rc::Rc::as_ptr(c));
                        walk(c, uses, order);
                    }
                }
            }
        }
        let (mut uses, mut order) = (HashMap::new(), Vec::new());
        for t in [layout.shape(), layout.stride(), layout.origin()] {
            for leaf in t.leaves() {
                walk(&leaf, &mut uses, &mut order);
            }
        }
        order.iter().map(|p| uses[p]).collect()
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
