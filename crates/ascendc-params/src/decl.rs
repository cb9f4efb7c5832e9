//! The one declaration of every AscendC intrinsic: its dialect op, AscendC function, pipe, C ABI
//! entry point and, per parameter-struct field, the C type, range, unit and meaning.
//!
//! Everything else that lists intrinsics or fields is derived from here
//! (docs/adding-an-intrinsic.md): the `#[repr(C)]` ABI structs and their `to_c` conversions,
//! `fields()` / `specs()` / `static_fields()` of the Rust parameter structs, the kinds
//! ([`IntrinsicKind`], the dialect's and the emitter's) and the calls ([`Intrinsic`]), the
//! `extern "C"` prototypes ([`c_abi`]) with their JIT symbols and the call of the model, the
//! op's attributes written by the lowering, the C++ printer's field list and comments, the LLVM
//! struct types and function declarations of `ascendc-emit`. Tests parse
//! `model/ascendc_model_abi.h` and `dialects/ascendc/ascendc.irdl.mlir` and check they agree.

use crate::field::{CType, FieldSpec};
use crate::target::Target;

/// The C type of an ABI struct field.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AbiType {
    Bool,
    U8,
    U16,
    U32,
    U64,
    I32,
}

impl AbiType {
    /// The C spelling (`ascendc_model_abi.h`).
    pub fn c_name(self) -> &'static str {
        match self {
            AbiType::Bool => "bool",
            other => other.ctype().map_or("bool", CType::name),
        }
    }

    /// The LLVM type of the field in the ABI struct (`bool` is `i8`).
    pub fn llvm(self) -> &'static str {
        match self {
            AbiType::Bool | AbiType::U8 => "i8",
            AbiType::U16 => "i16",
            AbiType::U32 | AbiType::I32 => "i32",
            AbiType::U64 => "i64",
        }
    }

    /// The integer type of the range checks (`None` for `bool`).
    pub fn ctype(self) -> Option<CType> {
        Some(match self {
            AbiType::Bool => return None,
            AbiType::U8 => CType::U8,
            AbiType::U16 => CType::U16,
            AbiType::U32 => CType::U32,
            AbiType::U64 => CType::U64,
            AbiType::I32 => CType::I32,
        })
    }
}

/// The Rust scalar of an ABI field, for the declaration macro.
pub trait AbiScalar {
    const TYPE: AbiType;
    /// The representable range (`u64` capped at `i64::MAX`, the algebra's domain).
    const MIN: i64;
    const MAX: i64;
}

macro_rules! abi_scalar {
    ($($t:ty => $a:ident),*) => {
        $(impl AbiScalar for $t {
            const TYPE: AbiType = AbiType::$a;
            const MIN: i64 = <$t>::MIN as i64;
            const MAX: i64 = if <$t>::MAX as u64 > i64::MAX as u64 { i64::MAX } else { <$t>::MAX as i64 };
        })*
    };
}
abi_scalar!(u8 => U8, u16 => U16, u32 => U32, u64 => U64, i32 => I32);

impl AbiScalar for bool {
    const TYPE: AbiType = AbiType::Bool;
    const MIN: i64 = 0;
    const MAX: i64 = 1;
}

/// Where a field's value comes from in the Rust parameter struct.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Source {
    /// A derived integer (`V`): range-checked, a dialect attribute, static or dynamic.
    Int,
    /// A static `bool`.
    Flag,
    /// The `QuantMode` enum (`quantPre`).
    Quant,
    /// Not modelled: always 0 / false in the ABI, not printed.
    Fixed,
}

/// When a value-dependent meaning replaces the plain one in the C++ comment.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum When {
    /// This boolean field is true.
    True,
    /// The call carries the `transposed` note (GM DN → L1 ZN or NN through the transposed views).
    Transposed,
    /// The call's `ifTranspose` is true.
    IfTranspose,
    /// This integer field is [`UnitFlag::Keep`] (2).
    UnitKeep,
    /// This integer field is [`UnitFlag::Release`] (3).
    UnitRelease,
}

/// The `unitFlag` of `MmadParams` and `FixpipeParamsV220`: the one declaration of its values,
/// which the emitter prints, the cost model and the C++ CPU model honour
/// (`ASCENDC_MODEL_UNIT_FLAG_*` in `model/ascendc_model_abi.h`, checked equal by a test).
///
/// asc-devkit `docs/en/api/SIMD-API/basic_api/cube_compute_ISASI/mmad_compute_key_features/
/// UnitFlag.md` (docs/sanitizer.md "unitFlag"): with it enabled, L0C has one flag bit per
/// 512 B block. An `Mmad` with 2 or 3 writes a block only while its bit is 0 (it waits
/// otherwise); 3 sets the bit to 1 when it is done. A `Fixpipe` with 2 or 3 reads a block only
/// while its bit is 1 (it waits otherwise); 3 clears it to 0 when it is done. So over K steps
/// the Mmads use 2 and the last one 3, the Fixpipe 3, and both sides must enable it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum UnitFlag {
    /// 0: no unit flag; the instruction neither waits for nor changes the block bits.
    Off,
    /// 2: wait for the bit (Mmad: 0, Fixpipe: 1), leave it unchanged.
    Keep,
    /// 3: wait for the bit, then flip it (Mmad: set to 1, Fixpipe: clear to 0).
    Release,
}

impl UnitFlag {
    pub const ALL: [UnitFlag; 3] = [UnitFlag::Off, UnitFlag::Keep, UnitFlag::Release];

    /// The field's value.
    pub fn value(self) -> i64 {
        match self {
            UnitFlag::Off => 0,
            UnitFlag::Keep => 2,
            UnitFlag::Release => 3,
        }
    }

    /// The name of its `ASCENDC_MODEL_UNIT_FLAG_*` code.
    pub fn name(self) -> &'static str {
        match self {
            UnitFlag::Off => "OFF",
            UnitFlag::Keep => "KEEP",
            UnitFlag::Release => "RELEASE",
        }
    }

    /// The flag of a field value; `None` for a value the API does not define (1, > 3).
    pub fn of(value: i64) -> Option<UnitFlag> {
        UnitFlag::ALL.into_iter().find(|u| u.value() == value)
    }
}

/// The bytes of L0C one unit-flag bit guards (asc-devkit UnitFlag: "each memory block (512B)").
pub const UNIT_FLAG_BLOCK_BYTES: i64 = 512;

/// One field of a parameter struct.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct FieldDecl {
    /// AscendC (and C ABI) name.
    pub name: &'static str,
    /// Type in the C ABI struct (the wider arch-3510 width where the architectures differ).
    pub ctype: AbiType,
    /// Documented range (the whole type unless the AscendC docs say less).
    pub min: i64,
    pub max: i64,
    /// Unit of the value ("" for counts and flags).
    pub unit: &'static str,
    /// One line: what the derivation puts there and why (the C++ comment).
    pub meaning: &'static str,
    /// Value-dependent meanings, first match wins.
    pub variants: &'static [(When, &'static str)],
    pub source: Source,
}

/// A parameter struct: the AscendC name, the C ABI name, the fields in ABI (= AscendC) order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ParamsDecl {
    pub cpp: &'static str,
    pub abi: &'static str,
    /// On arch 2201 every integer field has this narrower type (Nd2NzParams: `uint16_t`).
    pub a2_type: Option<CType>,
    pub fields: &'static [FieldDecl],
}

impl ParamsDecl {
    /// Type and range of the integer fields on `target`, in order.
    pub fn int_specs(&self, target: Target) -> Vec<FieldSpec> {
        self.fields
            .iter()
            .filter(|f| f.source == Source::Int)
            .map(|f| {
                let abi = f.ctype.ctype().unwrap_or(CType::U8);
                let ctype = if target == Target::A2 { self.a2_type.unwrap_or(abi) } else { abi };
                let (lo, hi) = ctype.range();
                FieldSpec::ranged(f.name, ctype, f.min.max(lo), f.max.min(hi))
            })
            .collect()
    }

    pub fn field(&self, name: &str) -> Option<&'static FieldDecl> {
        self.fields.iter().find(|f| f.name == name)
    }

    /// The fields of the C ABI struct in order with their LLVM types (`bool` is `i8`).
    pub fn llvm_fields(&self) -> Vec<(&'static str, &'static str)> {
        self.fields.iter().map(|f| (f.name, f.ctype.llvm())).collect()
    }
}

/// An argument of a C ABI function other than the pointers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AbiArg {
    /// `void*` destination.
    Dst,
    /// `const void*` source (Mmad: `a`, `b`).
    Src,
    /// `uint32_t elem_bits` of the call's buffer `i` (destination first).
    ElemBits(usize),
    /// `uint32_t` element type code (`ASCENDC_MODEL_F16`, ...) of the call's buffer `i`.
    Dtype(usize),
    /// `const <params>*`.
    Params,
    /// `uint32_t target`.
    Target,
}

impl AbiArg {
    pub fn llvm(self) -> &'static str {
        match self {
            AbiArg::Dst | AbiArg::Src | AbiArg::Params => "!llvm.ptr",
            AbiArg::ElemBits(_) | AbiArg::Dtype(_) | AbiArg::Target => "i32",
        }
    }
}

/// One intrinsic: a dialect op lowered to one AscendC call with one parameter struct.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct IntrinsicDecl {
    /// The `ascendc` dialect op.
    pub op: &'static str,
    /// The AscendC function called.
    pub function: &'static str,
    /// The pipe it runs on (`MTE2`, `MTE1`, `M`, `FIX`).
    pub pipe: &'static str,
    /// What the call does, for the C++ comment (`Transposed`: GM DN -> L1 ZN or NN).
    pub summary: &'static str,
    pub summary_transposed: Option<&'static str>,
    /// The `CFG_*` template argument (`Fixpipe<Dst, Src, CFG>`), after the destination and
    /// source element types.
    pub cpp_config: Option<&'static str>,
    pub params: &'static ParamsDecl,
    /// The C ABI function (`int32_t`, returns a status) and its arguments in order.
    pub abi_function: &'static str,
    pub abi_args: &'static [AbiArg],
    /// Fields of the struct this call leaves at their default (not printed).
    pub omit: &'static [&'static str],
    /// Meanings that differ from the struct's for this call.
    pub meanings: &'static [(&'static str, &'static str)],
    /// Fields only the arch-3510 (a5) struct has: not printed for a2, 0 in its ABI struct.
    pub a5_only: &'static [&'static str],
    /// How the arch-3510 C++ API spells this call, where it differs from 2201's (the C ABI
    /// struct stays the same: it holds every field).
    pub a5: Option<&'static Arch3510>,
}

/// The arch-3510 (a5) spelling of a call whose parameter struct differs from the 2201 one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Arch3510 {
    /// The C++ struct (`FixpipeParamsArch3510<AscendC::CO2Layout::ROW_MAJOR>`).
    pub cpp: &'static str,
    /// Fields that are members of a sub-struct there: `(field, member path)`.
    pub members: &'static [(&'static str, &'static str)],
    /// Fields the 3510 struct does not have (their ABI value is the default).
    pub omit: &'static [&'static str],
    /// Meanings that differ from the 2201 ones (other units).
    pub meanings: &'static [(&'static str, &'static str)],
}

impl IntrinsicDecl {
    /// The fields the C++ printer writes for `target`, in order: all but the fixed and omitted
    /// ones, the a5-only ones on a2 and the ones the 3510 struct lacks on a5.
    pub fn printed_fields(&self, target: Target) -> impl Iterator<Item = &'static FieldDecl> + '_ {
        let a5_omit = self.a5.filter(|_| target == Target::A5).map_or(&[][..], |a| a.omit);
        self.params.fields.iter().filter(move |f| {
            f.source != Source::Fixed
                && !self.omit.contains(&f.name)
                && !a5_omit.contains(&f.name)
                && (target == Target::A5 || !self.a5_only.contains(&f.name))
        })
    }

    /// The C++ parameter struct on `target`.
    pub fn struct_name(&self, target: Target) -> &'static str {
        match self.a5 {
            Some(a) if target == Target::A5 => a.cpp,
            _ => self.params.cpp,
        }
    }

    /// The C++ member that holds `field` on `target` (`params.ndNum` in the 3510 Fixpipe).
    pub fn member(&self, field: &FieldDecl, target: Target) -> &'static str {
        let a5 = self.a5.filter(|_| target == Target::A5);
        a5.and_then(|a| a.members.iter().find(|(n, _)| *n == field.name)).map_or(field.name, |(_, m)| m)
    }

    /// The meaning of `field` for this call on `target` (before value-dependent variants).
    pub fn meaning(&self, field: &FieldDecl, target: Target) -> &'static str {
        let a5 = self.a5.filter(|_| target == Target::A5).map_or(&[][..], |a| a.meanings);
        a5.iter().chain(self.meanings).find(|(n, _)| *n == field.name).map_or(field.meaning, |(_, m)| m)
    }

    /// The sources among the C ABI arguments (Mmad: A and B).
    pub fn source_count(&self) -> usize {
        self.abi_args.iter().filter(|a| **a == AbiArg::Src).count()
    }

    /// The buffer operands of the call and of its dialect op: the destination, then the sources.
    pub fn buffer_count(&self) -> usize {
        1 + self.source_count()
    }

    /// `llvm.func @name(args) -> i32`.
    pub fn llvm_decl(&self) -> String {
        let args: Vec<&str> = self.abi_args.iter().map(|a| a.llvm()).collect();
        format!("llvm.func @{}({}) -> i32", self.abi_function, args.join(", "))
    }
}

/// The declaration of the op `name` (`ascendc.mmad`).
pub fn by_op(name: &str) -> Option<&'static IntrinsicDecl> {
    IntrinsicKind::from_op(name).map(IntrinsicKind::decl)
}

/// The Rust parameter struct's C ABI mirror (implemented by [`params!`] for `Struct<i64>`).
pub trait AbiParams {
    type C;
}

/// A static (never dynamic) field value other than an integer: a dialect attribute as it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StaticValue {
    Bool(bool),
    /// The `QuantMode` name (`F322F16`).
    Quant(&'static str),
}

/// One ABI struct, its conversion and the derived accessors of the Rust struct.
///
/// Per field: `name: c_type = source(rust_field), range, "unit", "meaning" [, When => "text"]*;`
/// with source `int` (range-checked `V`), `flag` (`bool`), `quant` (`QuantMode`) or `fixed`
/// (always 0), and range `full` (the C type's) or `[min, max]`.
macro_rules! params {
    (
        $(#[$doc:meta])*
        $cname:ident for $rust:ident, $decl:ident, $cpp:literal, $abi:literal, $instr:literal, a2: $a2:expr,
        specs($($target:ident)?) {
            $( $field:ident : $ty:ident = $src:ident $( ( $rf:ident ) )?, $range:tt, $unit:literal, $meaning:expr
               $(, $when:ident => $text:literal)* ; )*
        }
    ) => {
        $(#[$doc])*
        #[repr(C)]
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
        #[allow(non_snake_case)]
        pub struct $cname {
            $( pub $field: $ty, )*
        }

        pub static $decl: ParamsDecl = ParamsDecl {
            cpp: $cpp,
            abi: $abi,
            a2_type: $a2,
            fields: &[$(FieldDecl {
                name: stringify!($field),
                ctype: <$ty as AbiScalar>::TYPE,
                min: params!(@min $range $ty),
                max: params!(@max $range $ty),
                unit: $unit,
                meaning: $meaning,
                variants: &[$((When::$when, $text)),*],
                source: params!(@source $src),
            }),*],
        };

        impl<V> crate::$rust<V> {
            /// The integer fields `(AscendC name, value)` in constructor order.
            pub fn fields(&self) -> Vec<(&'static str, &V)> {
                [$( params!(@int self $field $src $(($rf))?) ),*].into_iter().flatten().collect()
            }

            /// Types and documented ranges of the integer fields, in order.
            pub fn specs($($target: Target)?) -> Vec<FieldSpec> {
                $decl.int_specs(params!(@target $($target)?))
            }

            /// The `flag` and `quant` fields `(AscendC name, value)`, in order.
            pub fn static_fields(&self) -> Vec<(&'static str, StaticValue)> {
                [$( params!(@static self $field $src $(($rf))?) ),*].into_iter().flatten().collect()
            }
        }

        impl AbiParams for crate::$rust<i64> {
            type C = $cname;
        }

        impl crate::$rust<i64> {
            /// The ABI struct (errors if a value exceeds even the ABI width).
            pub fn to_c(&self) -> crate::Result<$cname> {
                Ok($cname { $( $field: params!(@conv self $instr $field $ty $src $(($rf))?), )* })
            }
        }
    };
    (@min full $ty:ident) => { <$ty as AbiScalar>::MIN };
    (@max full $ty:ident) => { <$ty as AbiScalar>::MAX };
    (@min [$lo:expr, $hi:expr] $ty:ident) => { $lo };
    (@max [$lo:expr, $hi:expr] $ty:ident) => { $hi };
    (@source int) => { Source::Int };
    (@source flag) => { Source::Flag };
    (@source quant) => { Source::Quant };
    (@source fixed) => { Source::Fixed };
    (@target $t:ident) => { $t };
    (@target) => { Target::A5 };
    (@int $self:ident $field:ident int ($rf:ident)) => { Some((stringify!($field), &$self.$rf)) };
    (@int $self:ident $field:ident $other:ident $(($rf:ident))?) => { None };
    (@static $self:ident $field:ident flag ($rf:ident)) => { Some((stringify!($field), StaticValue::Bool($self.$rf))) };
    (@static $self:ident $field:ident quant ($rf:ident)) => {
        Some((stringify!($field), StaticValue::Quant($self.$rf.name())))
    };
    (@static $self:ident $field:ident $other:ident $(($rf:ident))?) => { None };
    (@conv $self:ident $instr:literal $field:ident $ty:ident int ($rf:ident)) => {
        crate::ffi::narrow::<$ty>($instr, stringify!($field), $self.$rf, stringify!($ty), <$ty>::MIN as i64, <$ty>::MAX as i64)?
    };
    (@conv $self:ident $instr:literal $field:ident $ty:ident flag ($rf:ident)) => { $self.$rf };
    (@conv $self:ident $instr:literal $field:ident $ty:ident quant ($rf:ident)) => { $self.$rf.abi_code() };
    (@conv $self:ident $instr:literal $field:ident $ty:ident fixed) => { Default::default() };
}

/// The intrinsics: per entry `Variant(RustParams) => c_abi_function(args) { IntrinsicDecl fields }`.
///
/// Generates [`INTRINSICS`] (in entry order), the kind [`IntrinsicKind`] (an index into it), the
/// derived call [`Intrinsic`] (the kind with its parameter struct), the `extern "C"` prototypes
/// of [`c_abi`] with their JIT symbols, and the call of the model (`Intrinsic::call_model`).
/// An argument is `Dst`, `Src`, `ElemBits(i)`, `Dtype(i)`, `Params` or `Arch` ([`AbiArg`]).
macro_rules! intrinsics {
    (
        $( $(#[$doc:meta])* $variant:ident($rust:ident) => $abi:ident($($arg:ident $(($i:literal))?),*)
           { $($key:ident : $value:expr),* $(,)? } )*
    ) => {
        /// Every intrinsic the back ends emit, in [`IntrinsicKind`] order.
        pub static INTRINSICS: &[IntrinsicDecl] = &[$(IntrinsicDecl {
            abi_function: stringify!($abi),
            abi_args: &[$(intrinsics!(@arg $arg $(($i))?)),*],
            $($key: $value),*
        }),*];

        /// An intrinsic without its parameters: the dialect op, decoded once by name.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum IntrinsicKind { $($variant),* }

        impl IntrinsicKind {
            /// Every intrinsic, in declaration order.
            pub const ALL: &'static [IntrinsicKind] = &[$(IntrinsicKind::$variant),*];

            pub fn decl(self) -> &'static IntrinsicDecl {
                &INTRINSICS[self as usize]
            }

            /// The kind of the dialect op `name` (`ascendc.mmad`).
            pub fn from_op(name: &str) -> Option<IntrinsicKind> {
                Self::ALL.iter().copied().find(|k| k.decl().op == name)
            }

            /// The full op name (`ascendc.mmad`).
            pub fn name(self) -> &'static str {
                self.decl().op
            }

            /// The buffer operands of the op before its `dyn` index operands (`mmad`: C, A, B).
            pub fn buffer_count(self) -> usize {
                self.decl().buffer_count()
            }
        }

        /// One intrinsic call with its parameter struct.
        #[derive(Clone, Debug, PartialEq, Eq)]
        pub enum Intrinsic<V> { $( $(#[$doc])* $variant(crate::$rust<V>) ),* }

        impl<V> Intrinsic<V> {
            pub fn kind(&self) -> IntrinsicKind {
                match self { $(Intrinsic::$variant(_) => IntrinsicKind::$variant),* }
            }

            pub fn decl(&self) -> &'static IntrinsicDecl {
                self.kind().decl()
            }

            /// The AscendC function called.
            pub fn function(&self) -> &'static str {
                self.decl().function
            }

            /// The integer fields `(AscendC name, value)` of the parameter struct, in order.
            pub fn fields(&self) -> Vec<(&'static str, &V)> {
                match self { $(Intrinsic::$variant(p) => p.fields()),* }
            }

            /// The `flag` and `quant` fields of the parameter struct, in order.
            pub fn static_fields(&self) -> Vec<(&'static str, StaticValue)> {
                match self { $(Intrinsic::$variant(p) => p.static_fields()),* }
            }
        }

        impl Intrinsic<i64> {
            /// Calls the model's C ABI function with the ABI struct of the parameters.
            ///
            /// # Safety
            /// `dst` and `srcs` (in call order) must point to at least the call's footprint.
            pub(crate) unsafe fn call_model(
                &self,
                dst: *mut std::ffi::c_void,
                srcs: &[*const std::ffi::c_void],
                scalars: &crate::exec::AbiScalars,
            ) -> Result<i32, crate::exec::ExecError> {
                let mut srcs = srcs.iter().copied();
                Ok(match self {
                    $(Intrinsic::$variant(p) => {
                        let params = p.to_c()?;
                        // SAFETY: the caller's footprint guarantee; `params` is the ABI struct.
                        unsafe { c_abi::$abi($(intrinsics!(@val $arg $(($i))? dst srcs params scalars)),*) }
                    })*
                })
            }
        }

        /// The `extern "C"` prototypes of the intrinsics (`model/ascendc_model_abi.h`).
        pub mod c_abi {
            use super::*;
            use std::ffi::c_void;

            extern "C" {
                $( pub fn $abi($(_: intrinsics!(@cty $rust $arg)),*) -> i32; )*
            }

            /// `(symbol name, address)` of every intrinsic's function, for the JIT.
            pub fn intrinsic_symbols() -> Vec<(&'static str, *const c_void)> {
                vec![$((stringify!($abi), $abi as *const c_void)),*]
            }
        }
    };
    (@arg Dst) => { AbiArg::Dst };
    (@arg Src) => { AbiArg::Src };
    (@arg Params) => { AbiArg::Params };
    (@arg Arch) => { AbiArg::Target };
    (@arg ElemBits($i:literal)) => { AbiArg::ElemBits($i) };
    (@arg Dtype($i:literal)) => { AbiArg::Dtype($i) };
    (@cty $rust:ident Dst) => { *mut c_void };
    (@cty $rust:ident Src) => { *const c_void };
    (@cty $rust:ident Params) => { *const <crate::$rust<i64> as AbiParams>::C };
    (@cty $rust:ident $scalar:ident) => { u32 };
    (@val Dst $d:ident $s:ident $p:ident $sc:ident) => { $d };
    (@val Src $d:ident $s:ident $p:ident $sc:ident) => { $sc.source(&mut $s)? };
    (@val Params $d:ident $s:ident $p:ident $sc:ident) => { &$p };
    (@val Arch $d:ident $s:ident $p:ident $sc:ident) => { $sc.arch() };
    (@val ElemBits($i:literal) $d:ident $s:ident $p:ident $sc:ident) => { $sc.elem_bits($i)? };
    (@val Dtype($i:literal) $d:ident $s:ident $p:ident $sc:ident) => { $sc.dtype($i)? };
}

const ONE_MATRIX: &str = "(one matrix)";
const NO_UNIT_FLAG: &str = "0: no unit flag (the Mmad/Fixpipe order comes from SetFlag/WaitFlag)";

params! {
    /// `ascendc_model_nd2nz_params` (3510 widths).
    CNd2NzParams for Nd2NzParams, ND2NZ_PARAMS, "Nd2NzParams", "ascendc_model_nd2nz_params", "DataCopy(Nd2NzParams)",
    a2: Some(CType::U16), specs(target) {
        ndNum: u16 = int(nd_num), [0, 4095], "", "one ND matrix";
        nValue: u16 = int(n_value), [0, 16384], "rows", "rows to copy: valid extent of the source (origin)",
            Transposed => "columns to copy (rows of the transposed view): valid extent (origin)";
        dValue: u32 = int(d_value), full, "elements", "columns to copy: valid extent of the source (origin)",
            Transposed => "rows to copy (columns of the transposed view): valid extent (origin)";
        srcNdMatrixStride: u64 = int(src_nd_matrix_stride), full, "elements", "elements between ND matrices (one matrix)";
        srcDValue: u64 = int(src_d_value), full, "elements", "GM row stride in elements: stride of the ND row mode",
            Transposed => "GM column stride in elements: stride of the DN column mode";
        dstNzC0Stride: u16 = int(dst_nz_c0_stride), [1, 16384], "32 B (C0 blocks)",
            "stride(dst, c_out) / C0: distance between C0 column blocks, in 32 B (= the L1 tile's padded rows, at least rows rounded up to 16)",
            Transposed => "stride(dst, r_out) / C0: distance between the C0 row blocks of ZN, in 32 B (= columns rounded up to 16)";
        dstNzNStride: u16 = int(dst_nz_n_stride), [1, 16384], "32 B (C0 blocks)", "stride(dst, r_in) / C0: distance between rows, in 32 B",
            Transposed => "stride(dst, c_in) / C0: distance between columns, in 32 B";
        dstNzMatrixStride: u32 = int(dst_nz_matrix_stride), full, "elements", "elements between NZ matrices (one matrix)";
    }
}

params! {
    /// `ascendc_model_data_copy_params`.
    CDataCopyParams for DataCopyParams, DATA_COPY_PARAMS, "DataCopyParams", "ascendc_model_data_copy_params",
    "DataCopy(DataCopyParams)", a2: None, specs() {
        blockCount: u16 = int(block_count), [1, 4095], "", "ceil(valid cols / C0): one run per C0 column block";
        blockLen: u16 = int(block_len), full, "32 B blocks",
            "valid rows: one 32 B block (a row of C0 elements) each; padding rows stay untouched";
        srcStride: u16 = int(src_stride), full, "32 B blocks",
            "stride(src, c_out)/C0 - blockLen: 32 B blocks skipped between runs in the source";
        dstStride: u16 = int(dst_stride), full, "32 B blocks",
            "stride(dst, c_out)/C0 - blockLen: 32 B blocks skipped between runs in the destination";
    }
}

params! {
    /// `ascendc_model_load_data_2d_params`.
    CLoadData2DParams for LoadData2DParams, LOAD_DATA_2D_PARAMS, "LoadData2DParams", "ascendc_model_load_data_2d_params",
    "LoadData(LoadData2DParams)", a2: None, specs() {
        startIndex: u16 = int(start_index), full, "fractals", "first source fractal";
        repeatTimes: u8 = int(repeat_times), full, "", "shape(dst, c_out): fractals per call (uint8_t, at most 255)";
        srcStride: u16 = int(src_stride), full, "512 B fractals",
            "stride(src, c_out) / fractal: source fractals between repeats, in 512 B";
        sid: u8 = int(sid), full, "", "stream id";
        dstGap: u16 = int(dst_gap), full, "512 B fractals",
            "stride(dst, c_out) / fractal - 1: destination fractals skipped between repeats";
        ifTranspose: bool = flag(if_transpose), full, "", "no transpose: both fractals have the same inner order",
            True => "transpose each 16x16 fractal: row-major (NZ) in, column-major (ZN) out";
        addrMode: u8 = int(addr_mode), full, "", "address mode 0 (increasing)";
    }
}

params! {
    /// `ascendc_model_load_data_2d_params_v2`.
    CLoadData2DParamsV2 for LoadData2DParamsV2, LOAD_DATA_2D_PARAMS_V2, "LoadData2DParamsV2",
    "ascendc_model_load_data_2d_params_v2", "LoadData(LoadData2DParamsV2)", a2: None, specs() {
        mStartPosition: u32 = int(m_start_position), full, "fractals", "first fractal along m (source row / 16)";
        kStartPosition: u32 = int(k_start_position), full, "fractals", "first fractal along k (source column / C0)";
        mStep: u16 = int(m_step), full, "fractals", "fractals along m";
        kStep: u16 = int(k_step), full, "fractals", "fractals along k";
        srcStride: i32 = int(src_stride), [0, i32::MAX as i64], "512 B fractals", "stride(src, k_out) / fractal, in 512 B";
        dstStride: u16 = int(dst_stride), full, "512 B fractals", "stride(dst, k_out) / fractal, in 512 B",
            IfTranspose => "stride(dst, m_out) / fractal, in 512 B (transposed grid)";
        ifTranspose: bool = flag(if_transpose), full, "", "no transpose: both fractals have the same inner order",
            True => "transpose each 16x16 fractal and the fractal grid: source fractal (m, k) -> destination m * dstStride + k";
        sid: u8 = int(sid), full, "", "stream id";
    }
}

params! {
    /// `ascendc_model_load_data_2d_transpose_params`.
    CLoadData2dTransposeParams for LoadData2dTransposeParams, LOAD_DATA_2D_TRANSPOSE_PARAMS, "LoadData2dTransposeParams",
    "ascendc_model_load_data_2d_transpose_params", "LoadDataWithTranspose(LoadData2dTransposeParams)", a2: None, specs() {
        startIndex: u16 = int(start_index), full, "squares (1024 B)", "first source square (two consecutive fractals: 8-bit 32x32, 32-bit 16x16; 1024 B)";
        repeatTimes: u8 = int(repeat_times), full, "",
            "squares per call: 8-bit destination fractals along the 16-element mode / 2, 32-bit destination fractals along the 16-element mode (uint8_t, at most 255)";
        srcStride: u16 = int(src_stride), full, "squares (1024 B)",
            "source squares between repeats: 8-bit stride(src, 32-element outer mode) / (2 fractals), 32-bit 2 * stride(src, 8-element outer mode) / (2 fractals)";
        dstGap: u16 = int(dst_gap), full, "512 B fractals",
            "from one repeat's first fractal to the next: 8-bit 2 * stride(dst, 16-element outer mode) / fractal - 1, 32-bit stride(dst, 16-element outer mode) / fractal - 1";
        dstFracGap: u16 = int(dst_frac_gap), full, "512 B fractals",
            "between the two halves of a transposed square: stride(dst, outer mode the halves split) / fractal - 1";
        addrMode: u8 = int(addr_mode), full, "", "address mode 0 (increasing)";
    }
}

params! {
    /// `ascendc_model_mmad_params`.
    CMmadParams for MmadParams, MMAD_PARAMS, "MmadParams", "ascendc_model_mmad_params", "Mmad(MmadParams)", a2: None,
    specs() {
        m: u16 = int(m), [0, 4095], "elements", "rows of A's fractal grid (padded: C rows past the valid ones are never stored)";
        n: u16 = int(n), [0, 4095], "elements",
            "columns of B's fractal grid (padded, e.g. an a2 8-bit B to whole 32x32 squares: C columns past the valid ones are never stored)";
        k: u16 = int(k), [0, 4095], "elements", "valid reduction extent (origin, exact: the cube ignores K padding)";
        isBias: bool = fixed, full, "", "no bias";
        fmOffset: i32 = fixed, full, "", "no feature-map offset";
        enSsparse: bool = fixed, full, "", "no structured sparsity";
        enWinogradA: bool = fixed, full, "", "no Winograd A";
        enWinogradB: bool = fixed, full, "", "no Winograd B";
        unitFlag: u8 = int(unit_flag), [0, 3], "", NO_UNIT_FLAG,
            UnitKeep => "2: write each 512 B L0C block once its unit flag is 0 (a Fixpipe read it), leave the flag (not the last K step)",
            UnitRelease => "3: write each 512 B L0C block once its unit flag is 0, then set it to 1 (last K step: the Fixpipe may read it)";
        kDirectionAlign: bool = flag(k_direction_align), full, "", "no fp32 k alignment";
        cmatrixSource: bool = flag(cmatrix_source), full, "", "C comes from L0C";
        cmatrixInitVal: bool = flag(cmatrix_init_val), full, "", "C += A x B (accumulate into L0C)",
            True => "C = A x B (overwrite L0C)";
        disableGemv: bool = flag(disable_gemv), full, "", "GEMV mode allowed (an m = 1 A is read as one contiguous row)",
            True => "no GEMV mode: an m = 1 A is read from its NZ fractal like any other m (the 3510 default is false)";
    }
}

params! {
    /// `ascendc_model_fixpipe_params_v220`.
    CFixpipeParamsV220 for FixpipeParamsV220, FIXPIPE_PARAMS_V220, "FixpipeParamsV220", "ascendc_model_fixpipe_params_v220",
    "Fixpipe(FixpipeParamsV220)", a2: None, specs() {
        nSize: u16 = int(n_size), [1, 4095], "elements", "columns to store: valid extent of the destination (origin)";
        mSize: u16 = int(m_size), [1, 65535], "elements", "rows to store: valid extent of the destination (origin)";
        srcStride: u16 = int(src_stride), full, "16 L0C elements (C0_Size)",
            "stride(L0C, c_out) / stride(L0C, r_in): rows of a column block, rounded up to 16";
        dstStride: u32 = int(dst_stride), full, "elements (NZ2ND), 32 B (NZ2NZ on 2201), elements (NZ2NZ on 3510)",
            "GM row stride in elements (NZ2ND)";
        reluEn: bool = flag(relu_en), full, "", "no ReLU",
            True => "ReLU (layout.store relu = true): results below zero become +0";
        quantPre: u32 = quant(quant_pre), full, "", "conversion of the L0C accumulator to the GM element type";
        deqScalar: u64 = int(deq_scalar), full, "",
            "DEQF16 scale: its f32 bits (layout.store scale); 0 when quantPre takes no scale";
        ndNum: u16 = int(nd_num), [1, 65535], "", "one matrix";
        srcNdStride: u16 = int(src_nd_stride), full, "", ONE_MATRIX;
        dstNdStride: u32 = int(dst_nd_stride), full, "", ONE_MATRIX;
        unitFlag: u8 = int(unit_flag), [0, 3], "", NO_UNIT_FLAG,
            UnitKeep => "2: read each 512 B L0C block once its unit flag is 1 (the last Mmad wrote it), leave the flag",
            UnitRelease => "3: read each 512 B L0C block once its unit flag is 1, then clear it to 0 (the next Mmad may write it)";
        isChannelSplit: bool = flag(is_channel_split), full, "",
            "f32: split each 16x16 L0C fractal into two 16x8 (C0 = 8) GM fractals";
    }
}

intrinsics! {
    /// `DataCopy(dst L1, src GM, Nd2NzParams)`.
    DataCopyNd2Nz(Nd2NzParams) => ascendc_model_data_copy_nd2nz(Dst, Src, ElemBits(0), Params, Arch) {
        op: "ascendc.data_copy_nd2nz",
        function: "DataCopy",
        pipe: "MTE2",
        summary: "GM ND -> L1 NZ (MTE2)",
        summary_transposed: Some("GM DN -> L1 ZN / NN (MTE2)"),
        cpp_config: None,
        params: &ND2NZ_PARAMS,
        omit: &[],
        meanings: &[],
        a5_only: &[],
        a5: None,
    }
    /// `DataCopy(dst, src, DataCopyParams)`.
    DataCopy(DataCopyParams) => ascendc_model_data_copy(Dst, Src, Params, Arch) {
        op: "ascendc.data_copy",
        function: "DataCopy",
        pipe: "MTE2",
        summary: "NZ -> NZ block copy",
        summary_transposed: None,
        cpp_config: None,
        params: &DATA_COPY_PARAMS,
        omit: &[],
        meanings: &[],
        a5_only: &[],
        a5: None,
    }
    /// `LoadData(dst L0A/L0B, src L1, LoadData2DParams)` (arch 2201).
    LoadData2D(LoadData2DParams) => ascendc_model_load_data_2d(Dst, Src, ElemBits(0), Params, Arch) {
        op: "ascendc.load_data_2d",
        function: "LoadData",
        pipe: "MTE1",
        summary: "L1 -> L0 (MTE1)",
        summary_transposed: None,
        cpp_config: None,
        params: &LOAD_DATA_2D_PARAMS,
        omit: &[],
        meanings: &[],
        a5_only: &[],
        a5: None,
    }
    /// `LoadData(dst L0A/L0B, src L1, LoadData2DParamsV2)` (arch 3510).
    LoadData2DV2(LoadData2DParamsV2) => ascendc_model_load_data_2d_v2(Dst, Src, ElemBits(0), Params, Arch) {
        op: "ascendc.load_data_2d_v2",
        function: "LoadData",
        pipe: "MTE1",
        summary: "L1 -> L0 (MTE1)",
        summary_transposed: None,
        cpp_config: None,
        params: &LOAD_DATA_2D_PARAMS_V2,
        omit: &[],
        meanings: &[],
        a5_only: &[],
        a5: None,
    }
    /// `LoadDataWithTranspose(dst L0A/L0B, src L1, LoadData2dTransposeParams)` (arch 2201, 8- and 32-bit).
    LoadDataWithTranspose(LoadData2dTransposeParams) => ascendc_model_load_data_with_transpose(Dst, Src, ElemBits(0), Params, Arch) {
        op: "ascendc.load_data_with_transpose",
        function: "LoadDataWithTranspose",
        pipe: "MTE1",
        summary: "L1 -> L0, squares of two fractals transposed (MTE1)",
        summary_transposed: None,
        cpp_config: None,
        params: &LOAD_DATA_2D_TRANSPOSE_PARAMS,
        omit: &[],
        meanings: &[],
        a5_only: &[],
        a5: None,
    }
    /// `Mmad(c L0C, a L0A, b L0B, MmadParams)`.
    Mmad(MmadParams) => ascendc_model_mmad(Dst, Src, Src, Dtype(1), Dtype(0), Params, Arch) {
        op: "ascendc.mmad",
        function: "Mmad",
        pipe: "M",
        summary: "cube: C = A x B (M)",
        summary_transposed: None,
        cpp_config: None,
        params: &MMAD_PARAMS,
        omit: &[],
        meanings: &[],
        a5_only: &["disableGemv"],
        a5: None,
    }
    /// `Fixpipe<Dst, Src, CFG_ROW_MAJOR>(dst GM, src L0C, FixpipeParamsV220)` (NZ2ND).
    FixpipeNz2Nd(FixpipeParamsV220) => ascendc_model_fixpipe_nz2nd(Dst, Src, Dtype(0), Dtype(1), Params, Arch) {
        op: "ascendc.fixpipe",
        function: "Fixpipe",
        pipe: "FIX",
        summary: "L0C NZ -> GM ND (FIX)",
        summary_transposed: None,
        cpp_config: Some("CFG_ROW_MAJOR"),
        params: &FIXPIPE_PARAMS_V220,
        omit: &["isChannelSplit"],
        meanings: &[],
        a5_only: &[],
        a5: Some(&FIXPIPE_ROW_MAJOR_3510),
    }
    /// `Fixpipe<Dst, Src, CFG_NZ>(dst GM, src L0C, FixpipeParamsV220)` (NZ2NZ).
    FixpipeNz2Nz(FixpipeParamsV220) => ascendc_model_fixpipe_nz2nz(Dst, Src, Dtype(0), Dtype(1), Params, Arch) {
        op: "ascendc.fixpipe_nz",
        function: "Fixpipe",
        pipe: "FIX",
        summary: "L0C NZ -> GM NZ (FIX)",
        summary_transposed: None,
        cpp_config: Some("CFG_NZ"),
        params: &FIXPIPE_PARAMS_V220,
        omit: &[],
        meanings: &[
            ("nSize", "columns to store: valid extent of the destination rounded up to its C0 (whole 32 B blocks)"),
            ("dstStride", "stride(dst, c_out) / C0: distance between destination column blocks, in 32 B"),
        ],
        a5_only: &[],
        a5: Some(&FIXPIPE_NZ_3510),
    }
}

/// Arch 3510 Fixpipe with NZ2ND: `FixpipeParamsArch3510<CO2Layout::ROW_MAJOR>`, whose ND
/// matrix count and strides are the members of `params` (`Nz2NdParams`); asc-devkit
/// `include/basic_api/kernel_struct_fixpipe.h` (docs/ascendc-derivation.md §8).
pub static FIXPIPE_ROW_MAJOR_3510: Arch3510 = Arch3510 {
    cpp: "FixpipeParamsArch3510<AscendC::CO2Layout::ROW_MAJOR>",
    members: &[("ndNum", "params.ndNum"), ("srcNdStride", "params.srcNdStride"), ("dstNdStride", "params.dstNdStride")],
    omit: &[],
    meanings: &[],
};

/// Arch 3510 Fixpipe with NZ2NZ: `FixpipeParamsArch3510<CO2Layout::NZ>`; `params` is a
/// `uint8_t` there (no ND fields) and `dstStride` counts elements, not 32 B blocks.
pub static FIXPIPE_NZ_3510: Arch3510 = Arch3510 {
    cpp: "FixpipeParamsArch3510<AscendC::CO2Layout::NZ>",
    members: &[],
    omit: &["ndNum", "srcNdStride", "dstNdStride"],
    meanings: &[("dstStride", "stride(dst, c_out): distance between destination column blocks, in elements")],
};

#[cfg(test)]
#[path = "decl_tests.rs"]
mod tests;
