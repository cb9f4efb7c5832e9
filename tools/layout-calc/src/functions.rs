//! The calculator's functions, named as in CuTe. Each entry forwards to the layout algebra;
//! no formula lives here.

use layout_algebra::ascend::{self, ElementType, FramePattern};
use layout_algebra::cute;
use layout_algebra::{idx_to_crd, IntTuple, Layout, Tuple};

use crate::error::CalcError;
use crate::value::Value;

type Impl = fn(&[Value]) -> Result<Value, CalcError>;

pub struct Function {
    pub name: &'static str,
    pub usage: &'static str,
    pub help: &'static str,
    run: Impl,
}

macro_rules! f {
    ($name:expr, $usage:expr, $help:expr, $run:expr) => {
        Function { name: $name, usage: $usage, help: $help, run: $run }
    };
}

/// Every function, in the order `--help` lists them.
pub const FUNCTIONS: &[Function] = &[
    f!("make_layout", "make_layout(S[,D[,O]])", "layout from shape (column-major default), stride and origin", make_layout),
    f!("rank", "rank(X)", "number of top-level modes", |a| unary(a, "rank", |v| Ok(Value::Int(tuple_of(v)?.rank() as i64)))),
    f!("depth", "depth(X)", "nesting depth (0 for an integer)", |a| unary(a, "depth", |v| Ok(Value::Int(tuple_of(v)?.depth() as i64)))),
    f!("leaf_count", "leaf_count(X)", "number of integer leaves (AscendC Te `depth`)", |a| unary(a, "leaf_count", |v| Ok(Value::Int(tuple_of(v)?.leaf_count() as i64)))),
    f!("size", "size(X)", "product of the shape", |a| unary(a, "size", |v| Ok(Value::Int(tuple_of(v)?.size()?)))),
    f!("cosize", "cosize(L)", "codomain extent 1 + Σ (s-1)·|d|", |a| unary(a, "cosize", |v| Ok(Value::Int(v.expect_layout("cosize's argument")?.cosize()?)))),
    f!("shape", "shape(L)", "the shape of a layout", |a| unary(a, "shape", |v| Ok(Value::from_int_tuple(v.expect_layout("shape's argument")?.shape())))),
    f!("stride", "stride(L)", "the stride of a layout", |a| unary(a, "stride", |v| Ok(Value::from_int_tuple(v.expect_layout("stride's argument")?.stride())))),
    f!("origin", "origin(L)", "the valid extent (origin shape) of a layout", |a| unary(a, "origin", |v| Ok(Value::from_int_tuple(v.expect_layout("origin's argument")?.origin())))),
    f!("get", "get(X,I...)", "mode I (recursively I0, I1, ...) of a tuple or layout", get),
    f!("flatten", "flatten(X)", "flatten to depth ≤ 1", |a| {
        unary(a, "flatten", |v| match v {
            Value::Layout(l) => Ok(Value::Layout(l.flatten()?)),
            other => Ok(Value::from_int_tuple(&other.expect_int_tuple("flatten's argument")?.flatten())),
        })
    }),
    f!("prefix_product", "prefix_product(T)", "exclusive prefix product", |a| unary(a, "prefix_product", |v| Ok(Value::from_int_tuple(&v.expect_int_tuple("prefix_product's argument")?.prefix_product()?)))),
    f!("shape_div", "shape_div(T,N)", "inclusive prefix ceil-division of a shape by N", |a| {
        binary(a, "shape_div", |t, n| Ok(Value::from_int_tuple(&t.expect_int_tuple("shape_div's shape")?.shape_div(n.expect_int("shape_div's divisor")?)?)))
    }),
    f!("crd2offset", "crd2offset(L,C)", "the layout function at coordinate C (alias crd2idx)", crd2offset),
    f!("crd2idx", "crd2idx(L,C)", "alias of crd2offset", crd2offset),
    f!("idx2crd", "idx2crd(I,S)", "natural coordinate of index I in shape S (last mode not reduced)", |a| {
        binary(a, "idx2crd", |i, s| Ok(Value::from_int_tuple(&idx_to_crd(&i.expect_int_tuple("idx2crd's index")?, &s.expect_int_tuple("idx2crd's shape")?)?)))
    }),
    f!("coalesce", "coalesce(L[,P])", "merge modes that form one stride run (by mode where the profile P has an integer)", coalesce),
    f!("filter", "filter(L)", "drop stride-0 and size-1 modes, then coalesce", |a| unary(a, "filter", |v| Ok(Value::Layout(cute::filter(&v.expect_layout("filter's argument")?)?)))),
    f!("composition", "composition(A,B)", "A ∘ B: (A∘B)(i) = A(B(i)); B a layout, a shape or a tuple of layouts", |a| tiled(a, "composition", cute::composition_by)),
    f!("complement", "complement(L[,M])", "the layout that fills the codomain [0,M) around L", complement),
    f!("right_inverse", "right_inverse(L)", "R with L(R(i)) = i", |a| unary(a, "right_inverse", |v| Ok(Value::Layout(cute::right_inverse(&v.expect_layout("right_inverse's argument")?)?)))),
    f!("left_inverse", "left_inverse(L)", "R with R(L(i)) = i", |a| unary(a, "left_inverse", |v| Ok(Value::Layout(cute::left_inverse(&v.expect_layout("left_inverse's argument")?)?)))),
    f!("logical_divide", "logical_divide(A,B)", "A ∘ (B, complement(B)): ((tile),(rest))", |a| tiled(a, "logical_divide", cute::logical_divide)),
    f!("zipped_divide", "zipped_divide(A,B)", "((TileM,TileN),(RestM,RestN,...))", |a| tiled(a, "zipped_divide", cute::zipped_divide)),
    f!("tiled_divide", "tiled_divide(A,B)", "((TileM,TileN),RestM,RestN,...)", |a| tiled(a, "tiled_divide", cute::tiled_divide)),
    f!("flat_divide", "flat_divide(A,B)", "(TileM,TileN,RestM,RestN,...)", |a| tiled(a, "flat_divide", cute::flat_divide)),
    f!("logical_product", "logical_product(A,B)", "(A, complement(A)∘B)", |a| tiled(a, "logical_product", cute::logical_product)),
    f!("zipped_product", "zipped_product(A,B)", "((M,N),(TileM,TileN,...))", |a| tiled(a, "zipped_product", cute::zipped_product)),
    f!("tiled_product", "tiled_product(A,B)", "((M,N),TileM,TileN,...)", |a| tiled(a, "tiled_product", cute::tiled_product)),
    f!("blocked_product", "blocked_product(A,B)", "mode i = (A_i, (A*∘B)_i): A is the block, B the grid", |a| {
        binary(a, "blocked_product", |x, y| Ok(Value::Layout(cute::blocked_product(&x.expect_layout("blocked_product's block")?, &y.expect_layout("blocked_product's grid")?)?)))
    }),
    f!("raked_product", "raked_product(A,B)", "mode i = ((A*∘B)_i, A_i): A's elements interleaved", |a| {
        binary(a, "raked_product", |x, y| Ok(Value::Layout(cute::raked_product(&x.expect_layout("raked_product's first argument")?, &y.expect_layout("raked_product's second argument")?)?)))
    }),
    f!("frame", "frame(P,T,DIMS...)", "Ascend frame layout: pattern P (NZ, ZN, ZZ, NN, ND, DN, L0C, ...; catlass zN, nZ, ... accepted), element type T", frame),
    f!("c0", "c0(T)", "elements per 32-byte C0 block of element type T", |a| {
        unary(a, "c0", |v| Ok(Value::Int(ElementType::parse(v.expect_name("c0's element type")?)?.c0())))
    }),
    f!("tile", "tile(L,SHAPE,COORD)", "catlass GetTileLayout: the tile of SHAPE at element coordinate COORD, origin clipped", tile),
    f!("pattern", "pattern(L)", "which frame pattern L is (and its C0), or `none`", pattern),
];

pub fn call(name: &str, args: &[Value]) -> Result<Value, CalcError> {
    match FUNCTIONS.iter().find(|f| f.name == name) {
        Some(f) => (f.run)(args),
        None => {
            let close = cli_common::suggest::closest(name, FUNCTIONS.iter().map(|f| f.name));
            let hint = close.map_or_else(String::new, |close| format!("; did you mean `{close}`?"));
            Err(CalcError::UnknownFunction { name: name.to_string(), hint })
        }
    }
}

fn arity(args: &[Value], name: &str, expected: &'static str, ok: impl Fn(usize) -> bool) -> Result<(), CalcError> {
    if ok(args.len()) {
        Ok(())
    } else {
        Err(CalcError::Arity { function: name.to_string(), expected, got: args.len() })
    }
}

fn unary(args: &[Value], name: &str, f: impl Fn(&Value) -> Result<Value, CalcError>) -> Result<Value, CalcError> {
    arity(args, name, "1 argument", |n| n == 1)?;
    f(&args[0])
}

fn binary(
    args: &[Value],
    name: &str,
    f: impl Fn(&Value, &Value) -> Result<Value, CalcError>,
) -> Result<Value, CalcError> {
    arity(args, name, "2 arguments", |n| n == 2)?;
    f(&args[0], &args[1])
}

fn tiled(
    args: &[Value],
    name: &str,
    f: fn(&Layout, &cute::Tiler) -> layout_algebra::Result<Layout>,
) -> Result<Value, CalcError> {
    binary(args, name, |a, b| {
        Ok(Value::Layout(f(&a.expect_layout(&format!("{name}'s first argument"))?, &b.to_tiler()?)?))
    })
}

/// Shape-like queries accept a layout (its shape) or a tuple.
fn tuple_of(v: &Value) -> Result<IntTuple, CalcError> {
    match v {
        Value::Layout(l) => Ok(l.shape().clone()),
        other => other.expect_int_tuple("the argument"),
    }
}

fn make_layout(args: &[Value]) -> Result<Value, CalcError> {
    arity(args, "make_layout", "1 to 3 arguments", |n| (1..=3).contains(&n))?;
    let shape = args[0].expect_int_tuple("make_layout's shape")?;
    let layout = match args {
        [_] => Layout::column_major(shape)?,
        [_, d] => Layout::new(shape, d.expect_int_tuple("make_layout's stride")?)?,
        [_, d, o] => Layout::with_origin(
            shape,
            d.expect_int_tuple("make_layout's stride")?,
            o.expect_int_tuple("make_layout's origin")?,
        )?,
        _ => unreachable!("arity checked"),
    };
    Ok(Value::Layout(layout))
}

fn get(args: &[Value]) -> Result<Value, CalcError> {
    arity(args, "get", "a value and at least one index", |n| n >= 2)?;
    let path = args[1..]
        .iter()
        .map(|v| {
            v.expect_int("get's index").and_then(|i| {
                usize::try_from(i).map_err(|_| CalcError::Type(format!("get's index must be non-negative, got {i}")))
            })
        })
        .collect::<Result<Vec<_>, _>>()?;
    match &args[0] {
        Value::Layout(l) => Ok(Value::Layout(l.get_path(&path)?)),
        other => Ok(Value::from_int_tuple(other.expect_int_tuple("get's first argument")?.get_path(&path)?)),
    }
}

fn crd2offset(args: &[Value]) -> Result<Value, CalcError> {
    binary(args, "crd2offset", |l, c| {
        Ok(Value::Int(
            l.expect_layout("crd2offset's layout")?.crd_to_offset(&c.expect_int_tuple("crd2offset's coordinate")?)?,
        ))
    })
}

fn coalesce(args: &[Value]) -> Result<Value, CalcError> {
    arity(args, "coalesce", "1 or 2 arguments", |n| n == 1 || n == 2)?;
    let l = args[0].expect_layout("coalesce's argument")?;
    Ok(Value::Layout(match args.get(1) {
        None => cute::coalesce(&l)?,
        Some(p) => cute::coalesce_by(&l, &p.expect_int_tuple("coalesce's profile")?)?,
    }))
}

fn complement(args: &[Value]) -> Result<Value, CalcError> {
    arity(args, "complement", "1 or 2 arguments", |n| n == 1 || n == 2)?;
    let l = args[0].expect_layout("complement's argument")?;
    Ok(Value::Layout(match args.get(1) {
        None => cute::complement_default(&l)?,
        Some(m) => cute::complement(&l, m.expect_int("complement's cotarget")?)?,
    }))
}

fn frame(args: &[Value]) -> Result<Value, CalcError> {
    arity(args, "frame", "a pattern, an element type and the dimensions", |n| n >= 3)?;
    let pattern = FramePattern::parse(args[0].expect_name("frame's pattern")?)?;
    let dtype = ElementType::parse(args[1].expect_name("frame's element type")?)?;
    let dims = args[2..].iter().map(|v| v.expect_int("a frame dimension")).collect::<Result<Vec<_>, _>>()?;
    Ok(Value::Layout(ascend::frame(pattern, dtype, &dims)?))
}

fn tile(args: &[Value]) -> Result<Value, CalcError> {
    arity(args, "tile", "3 arguments", |n| n == 3)?;
    let parent = args[0].expect_layout("tile's layout")?;
    let flat = |v: &Value, what: &str| -> Result<Vec<i64>, CalcError> {
        match v.expect_int_tuple(what)? {
            Tuple::Int(x) => Ok(vec![x]),
            t if t.depth() == 1 => Ok(t.leaves()),
            t => Err(CalcError::Type(format!("{what} must be flat, got `{t}`"))),
        }
    };
    let shape = flat(&args[1], "tile's shape")?;
    let coord = flat(&args[2], "tile's coordinate")?;
    Ok(Value::Layout(ascend::tile_layout(&parent, &shape, &coord)?))
}

fn pattern(args: &[Value]) -> Result<Value, CalcError> {
    unary(args, "pattern", |v| {
        let l = v.expect_layout("pattern's argument")?;
        Ok(Value::Name(ascend::recognize(&l).map_or_else(|| "none".to_string(), |r| r.to_string())))
    })
}
