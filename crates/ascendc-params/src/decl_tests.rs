//! The declarations agree with the C header of the model, the `#[repr(C)]` structs and the
//! documented ranges.

use super::*;

const HEADER: &str = include_str!("../model/ascendc_model_abi.h");

/// `typedef struct NAME { TYPE FIELD; ... } NAME;` of the header, as (name, [(type, field)]).
fn header_structs(text: &str) -> Vec<(String, Vec<(String, String)>)> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(at) = rest.find("typedef struct ") {
        rest = &rest[at + "typedef struct ".len()..];
        let open = rest.find('{').expect("struct body");
        let close = rest.find('}').expect("struct end");
        let name = rest[..open].trim().to_string();
        let fields = rest[open + 1..close]
            .split(';')
            .map(str::trim)
            .filter(|f| !f.is_empty())
            .map(|f| {
                let (ty, field) = f.rsplit_once(' ').expect("`type name`");
                (ty.trim().to_string(), field.to_string())
            })
            .collect();
        out.push((name, fields));
        rest = &rest[close..];
    }
    out
}

/// The argument types of `int32_t NAME(...);` in the header, whitespace-normalized.
fn header_function(text: &str, name: &str) -> Option<Vec<String>> {
    let start = text.find(&format!("int32_t {name}("))? + name.len() + "int32_t (".len();
    let end = start + text[start..].find(')')?;
    Some(
        text[start..end]
            .split(',')
            .map(|a| {
                let words: Vec<&str> = a.split_whitespace().collect();
                words[..words.len() - 1].join(" ")
            })
            .collect(),
    )
}

fn abi_arg_c(arg: AbiArg, params: &ParamsDecl) -> String {
    match arg {
        AbiArg::Dst => "void*".into(),
        AbiArg::Src => "const void*".into(),
        AbiArg::ElemBits(_) | AbiArg::Dtype(_) | AbiArg::Target => "uint32_t".into(),
        AbiArg::Params => format!("const {}*", params.abi),
    }
}

#[test]
fn header_declares_the_same_structs_fields_and_types() {
    let structs = header_structs(HEADER);
    let mut seen = Vec::new();
    for d in INTRINSICS {
        let p = d.params;
        let (_, fields) = structs
            .iter()
            .find(|(n, _)| n == p.abi)
            .unwrap_or_else(|| panic!("{} is not declared in ascendc_model_abi.h", p.abi));
        let want: Vec<(String, String)> =
            p.fields.iter().map(|f| (f.ctype.c_name().to_string(), f.name.to_string())).collect();
        assert_eq!(fields, &want, "{}: header fields differ from the declaration", p.abi);
        seen.push(p.abi);
    }
    // Every struct of the header is declared (none is left to hand-written code).
    for (name, _) in &structs {
        assert!(seen.contains(&name.as_str()), "{name} is in the header but has no declaration");
    }
}

#[test]
fn header_declares_the_same_functions() {
    for d in INTRINSICS {
        let got = header_function(HEADER, d.abi_function)
            .unwrap_or_else(|| panic!("{} is not declared in ascendc_model_abi.h", d.abi_function));
        let want: Vec<String> = d.abi_args.iter().map(|a| abi_arg_c(*a, d.params)).collect();
        assert_eq!(got, want, "{}", d.abi_function);
    }
}

#[test]
fn header_parser_sees_a_mismatch() {
    // The checks above are only as good as the parser: a swapped field must show.
    let swapped =
        HEADER.replace("    uint16_t ndNum;\n    uint16_t nValue;", "    uint16_t nValue;\n    uint16_t ndNum;");
    assert_ne!(swapped, HEADER);
    let s = header_structs(&swapped);
    let (_, f) = s.iter().find(|(n, _)| n == "ascendc_model_nd2nz_params").unwrap();
    assert_eq!(f[0], ("uint16_t".to_string(), "nValue".to_string()));
    assert_eq!(
        header_function(HEADER, "ascendc_model_data_copy").unwrap(),
        ["void*", "const void*", "const ascendc_model_data_copy_params*", "uint32_t"]
    );
}

/// Size of the C struct with these field types (natural alignment, as the C compiler lays it out).
fn c_size(fields: &[FieldDecl]) -> usize {
    let size = |t: AbiType| match t {
        AbiType::Bool | AbiType::U8 => 1,
        AbiType::U16 => 2,
        AbiType::U32 | AbiType::I32 => 4,
        AbiType::U64 => 8,
    };
    let (mut at, mut align) = (0usize, 1usize);
    for f in fields {
        let s = size(f.ctype);
        at = at.div_ceil(s) * s + s;
        align = align.max(s);
    }
    at.div_ceil(align) * align
}

#[test]
fn repr_c_structs_have_the_declared_layout() {
    use std::mem::{offset_of, size_of};
    assert_eq!(size_of::<CNd2NzParams>(), c_size(ND2NZ_PARAMS.fields));
    assert_eq!(size_of::<CDataCopyParams>(), c_size(DATA_COPY_PARAMS.fields));
    assert_eq!(size_of::<CLoadData2DParams>(), c_size(LOAD_DATA_2D_PARAMS.fields));
    assert_eq!(size_of::<CLoadData2DParamsV2>(), c_size(LOAD_DATA_2D_PARAMS_V2.fields));
    assert_eq!(size_of::<CLoadData2dTransposeParams>(), c_size(LOAD_DATA_2D_TRANSPOSE_PARAMS.fields));
    assert_eq!(size_of::<CMmadParams>(), c_size(MMAD_PARAMS.fields));
    assert_eq!(size_of::<CFixpipeParamsV220>(), c_size(FIXPIPE_PARAMS_V220.fields));
    // Order: deqScalar (u64) is the 7th field, after the 4-byte quantPre at 16.
    assert_eq!(offset_of!(CFixpipeParamsV220, deqScalar), 24);
    assert_eq!(offset_of!(CMmadParams, fmOffset), 8);
}

#[test]
fn specs_keep_the_documented_ranges() {
    let a2 = crate::Nd2NzParams::<i64>::specs(Target::A2);
    let a5 = crate::Nd2NzParams::<i64>::specs(Target::A5);
    let names: Vec<&str> = a2.iter().map(|s| s.name).collect();
    assert_eq!(
        names,
        [
            "ndNum",
            "nValue",
            "dValue",
            "srcNdMatrixStride",
            "srcDValue",
            "dstNzC0Stride",
            "dstNzNStride",
            "dstNzMatrixStride"
        ]
    );
    assert_eq!((a2[2].ctype, a2[2].max), (CType::U16, 65535));
    assert_eq!((a5[2].ctype, a5[2].max), (CType::U32, u32::MAX as i64));
    assert_eq!((a5[4].ctype, a5[4].max), (CType::U64, i64::MAX));
    assert_eq!((a2[1].min, a2[1].max, a2[5].min, a2[5].max), (0, 16384, 1, 16384));
    let v2 = crate::LoadData2DParamsV2::<i64>::specs();
    assert_eq!((v2[4].name, v2[4].ctype, v2[4].min), ("srcStride", CType::I32, 0));
    // Bools, the quant mode and fixed fields are not range-checked integers.
    let fix: Vec<&str> = crate::FixpipeParamsV220::<i64>::specs().iter().map(|s| s.name).collect();
    assert_eq!(
        fix,
        ["nSize", "mSize", "srcStride", "dstStride", "deqScalar", "ndNum", "srcNdStride", "dstNdStride", "unitFlag"]
    );
    assert_eq!(crate::MmadParams::<i64>::specs().len(), 4);
}

#[test]
fn to_c_converts_every_field() {
    let p = crate::MmadParams {
        m: 40,
        n: 24,
        k: 56,
        unit_flag: 0,
        cmatrix_source: false,
        cmatrix_init_val: true,
        k_direction_align: false,
        disable_gemv: true,
    };
    let c = p.to_c().unwrap();
    assert_eq!((c.m, c.n, c.k, c.cmatrixInitVal, c.isBias, c.fmOffset), (40, 24, 56, true, false, 0));
    assert!(c.disableGemv);
    let big = crate::MmadParams { m: 70000, ..p };
    assert!(matches!(big.to_c(), Err(crate::ParamError::FieldOverflow { field: "m", value: 70000, .. })));
}

#[test]
fn every_op_is_declared_once_and_printed_fields_have_a_meaning() {
    for (i, d) in INTRINSICS.iter().enumerate() {
        assert_eq!(by_op(d.op).map(|x| x.abi_function), Some(d.abi_function));
        assert!(INTRINSICS[..i].iter().all(|e| e.op != d.op && e.abi_function != d.abi_function));
        for f in d.printed_fields(Target::A5) {
            assert!(!d.meaning(f, Target::A5).is_empty(), "{}.{} has no meaning", d.params.cpp, f.name);
        }
    }
    let nd = by_op("ascendc.fixpipe").unwrap();
    assert!(nd.printed_fields(Target::A5).all(|f| f.name != "isChannelSplit"));
    let mmad = by_op("ascendc.mmad").unwrap();
    assert_eq!(mmad.printed_fields(Target::A2).count(), 7);
    // disableGemv exists only in the arch-3510 MmadParams.
    assert_eq!(mmad.printed_fields(Target::A5).count(), 8);
    assert!(mmad.printed_fields(Target::A2).all(|f| f.name != "disableGemv"));
    // The a5 Fixpipe struct is FixpipeParamsArch3510<format>: the ND fields live in `params`
    // (NZ2ND) or do not exist (NZ2NZ, `params` is a uint8_t).
    let nz = by_op("ascendc.fixpipe_nz").unwrap();
    assert_eq!(nd.struct_name(Target::A2), "FixpipeParamsV220");
    assert_eq!(nd.struct_name(Target::A5), "FixpipeParamsArch3510<AscendC::CO2Layout::ROW_MAJOR>");
    assert_eq!(nz.struct_name(Target::A5), "FixpipeParamsArch3510<AscendC::CO2Layout::NZ>");
    let nd_num = nd.params.field("ndNum").unwrap();
    assert_eq!((nd.member(nd_num, Target::A2), nd.member(nd_num, Target::A5)), ("ndNum", "params.ndNum"));
    assert!(nz.printed_fields(Target::A5).all(|f| !f.name.contains("Nd")));
    assert!(nz.printed_fields(Target::A2).any(|f| f.name == "ndNum"));
}

/// The kind is an index into the table, every C ABI function is a JIT symbol, and the derived
/// call knows its kind and its fields.
#[test]
fn kinds_index_the_table_and_every_function_is_a_symbol() {
    assert_eq!(IntrinsicKind::ALL.len(), INTRINSICS.len());
    for (i, k) in IntrinsicKind::ALL.iter().enumerate() {
        assert!(std::ptr::eq(k.decl(), &INTRINSICS[i]));
        assert_eq!(IntrinsicKind::from_op(k.name()), Some(*k));
    }
    assert_eq!(IntrinsicKind::from_op("ascendc.mmad_typo"), None);
    assert_eq!(IntrinsicKind::from_op("ascendc.mmad").map(IntrinsicKind::buffer_count), Some(3));
    assert_eq!(IntrinsicKind::from_op("ascendc.fixpipe").map(IntrinsicKind::buffer_count), Some(2));
    let symbols = crate::ffi::c_abi_symbols();
    for d in INTRINSICS {
        let (_, address) = symbols.iter().find(|(n, _)| *n == d.abi_function).expect(d.abi_function);
        assert!(!address.is_null(), "{}", d.abi_function);
    }
    let fixpipe = crate::FixpipeParamsV220::<i64> {
        n_size: 16,
        m_size: 16,
        src_stride: 16,
        dst_stride: 16,
        relu_en: true,
        quant_pre: crate::QuantMode::F322F16,
        deq_scalar: 0,
        nd_num: 1,
        src_nd_stride: 0,
        dst_nd_stride: 0,
        unit_flag: 0,
        is_channel_split: false,
    };
    let call = Intrinsic::FixpipeNz2Nz(fixpipe);
    assert_eq!((call.kind().name(), call.function()), ("ascendc.fixpipe_nz", "Fixpipe"));
    let ints: Vec<&str> = call.fields().iter().map(|(n, _)| *n).collect();
    assert_eq!(
        ints,
        ["nSize", "mSize", "srcStride", "dstStride", "deqScalar", "ndNum", "srcNdStride", "dstNdStride", "unitFlag"]
    );
    assert_eq!(
        call.static_fields(),
        [
            ("reluEn", StaticValue::Bool(true)),
            ("quantPre", StaticValue::Quant("F322F16")),
            ("isChannelSplit", StaticValue::Bool(false))
        ]
    );
}

const CPP_API: &str = include_str!("../model/ascendc_model.h");

/// The parameter names (without the trailing `_`) of every constructor `NAME(A x_, ...)` of
/// `struct NAME : abi {` in the C++ API header.
fn cpp_constructors(text: &str, name: &str, abi: &str) -> Option<Vec<Vec<String>>> {
    let start = text.find(&format!("struct {name} : {abi} {{"))?;
    let body = &text[start..start + text[start..].find("\n};")?];
    let mut out = Vec::new();
    let mut rest = body;
    while let Some(at) = rest.find(&format!("    {name}(")) {
        rest = &rest[at + name.len() + 5..];
        let params = &rest[..rest.find(')')?];
        let names: Vec<String> = params
            .split(',')
            .filter_map(|p| p.split_whitespace().last())
            .filter_map(|n| n.strip_suffix('_'))
            .map(str::to_string)
            .collect();
        out.push(names);
    }
    Some(out)
}

#[test]
fn cpp_api_constructors_follow_the_declared_order() {
    for d in INTRINSICS {
        let p = d.params;
        let ctors = cpp_constructors(CPP_API, p.cpp, p.abi)
            .unwrap_or_else(|| panic!("struct {} : {} is not in ascendc_model.h", p.cpp, p.abi));
        let longest = ctors.iter().map(Vec::len).max().unwrap_or(0);
        assert!(longest >= 3, "{}: no field-by-field constructor", p.cpp);
        for names in &ctors {
            // A constructor takes a prefix-ordered subsequence of the fields (AscendC order).
            let mut fields = p.fields.iter().map(|f| f.name);
            for n in names {
                assert!(fields.any(|f| f == n), "{}: constructor argument {n} is out of the declared order", p.cpp);
            }
        }
    }
    // The parser reads what is there: Nd2NzParams takes all eight fields in order.
    let nd = cpp_constructors(CPP_API, "Nd2NzParams", "ascendc_model_nd2nz_params").unwrap();
    let all: Vec<&str> = ND2NZ_PARAMS.fields.iter().map(|f| f.name).collect();
    assert!(nd.iter().any(|c| c == &all));
}

#[test]
fn every_quant_mode_has_its_code_in_the_abi_header_and_the_cpp_enum() {
    use crate::QuantMode;
    for mode in QuantMode::ALL {
        let define = format!("#define ASCENDC_MODEL_QUANT_{} {}u", mode.name().to_uppercase(), mode.abi_code());
        assert!(HEADER.contains(&define), "ascendc_model_abi.h lacks `{define}`");
        let enumerator = format!("{} = ASCENDC_MODEL_QUANT_{},", mode.name(), mode.name().to_uppercase());
        assert!(CPP_API.contains(&enumerator), "ascendc_model.h QuantMode_t lacks `{enumerator}`");
    }
}

#[test]
fn every_unit_flag_has_its_code_in_the_abi_header() {
    use crate::decl::{UnitFlag, UNIT_FLAG_BLOCK_BYTES};
    for u in UnitFlag::ALL {
        let define = format!("#define ASCENDC_MODEL_UNIT_FLAG_{} {}u", u.name(), u.value());
        assert!(HEADER.contains(&define), "ascendc_model_abi.h lacks `{define}`");
        assert_eq!(UnitFlag::of(u.value()), Some(u));
    }
    let block = format!("#define ASCENDC_MODEL_UNIT_FLAG_BLOCK_BYTES {UNIT_FLAG_BLOCK_BYTES}u");
    assert!(HEADER.contains(&block), "ascendc_model_abi.h lacks `{block}`");
    // 1 and 4.. are not values the API defines.
    assert_eq!((UnitFlag::of(1), UnitFlag::of(4)), (None, None));
    // The declared range of both fields admits the defined values and nothing above them.
    for decl in [&MMAD_PARAMS, &FIXPIPE_PARAMS_V220] {
        let f = decl.fields.iter().find(|f| f.name == "unitFlag").unwrap();
        assert_eq!((f.min, f.max), (0, UnitFlag::Release.value()), "{}", decl.cpp);
    }
}

const IRDL: &str = include_str!("../../../dialects/ascendc/ascendc.irdl.mlir");

/// `irdl.operation @NAME { ... }` of the IRDL text: (name, comment lines above it, body).
fn irdl_operations(text: &str) -> Vec<(String, Vec<String>, String)> {
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let Some(rest) = line.trim().strip_prefix("irdl.operation @") else { continue };
        let name = rest.trim_end_matches('{').trim().to_string();
        let mut comments: Vec<String> =
            lines[..i].iter().rev().take_while(|l| l.trim().starts_with("//")).map(|l| l.trim().to_string()).collect();
        comments.reverse();
        let body = lines[i + 1..].iter().take_while(|l| l.trim() != "}").copied().collect::<Vec<_>>().join("\n");
        out.push((name, comments, body));
    }
    out
}

/// The names in `irdl.operands(a: %x, b: variadic %y)` or `irdl.attributes { "k" = %v, ... }`.
fn irdl_list(body: &str, directive: &str) -> Option<Vec<String>> {
    let start = body.find(directive)? + directive.len();
    let end = start + body[start..].find('\n').unwrap_or(body.len() - start);
    let inner = body[start..end].trim().trim_start_matches(['(', '{']).trim_end_matches([')', '}']);
    Some(
        inner
            .split(',')
            .map(|e| e.split(['=', ':']).next().unwrap_or("").trim().trim_matches('"').to_string())
            .collect(),
    )
}

/// Each declared intrinsic is an op of the dialect with its buffer operands (destination, then
/// the sources of the C ABI call) and the `dyn` index operands, the attributes `params`,
/// `dyn_fields` and `notes` (the fields live in `params` / `dyn_fields`: the emitter checks them
/// against the declaration, `check_fields`), and a comment naming its function, struct and pipe;
/// every op of that shape is declared.
#[test]
fn irdl_ops_agree_with_the_declaration() {
    let ops = irdl_operations(IRDL);
    for d in INTRINSICS {
        let short = d.op.strip_prefix("ascendc.").expect("ascendc op");
        let (_, comments, body) =
            ops.iter().find(|(n, _, _)| n == short).unwrap_or_else(|| panic!("{} is not in the IRDL", d.op));
        let operands = irdl_list(body, "irdl.operands").expect("operands");
        assert_eq!(operands.len(), d.buffer_count() + 1, "{}: {operands:?}", d.op);
        assert_eq!(operands.last().map(String::as_str), Some("dyn"), "{}", d.op);
        assert!(body.contains("dyn: variadic %index") && body.contains("%index = irdl.is index"), "{}", d.op);
        assert_eq!(irdl_list(body, "irdl.attributes").expect("attributes"), ["params", "dyn_fields", "notes"]);
        let comment = comments.join(" ");
        assert!(comment.contains(d.function) && comment.contains(d.params.cpp), "{}: {comment}", d.op);
        if let Some(at) = comment.find(" pipe ") {
            assert!(comment[at + 6..].starts_with(d.pipe), "{}: pipe {} expected in {comment}", d.op, d.pipe);
        }
    }
    for (name, _, body) in &ops {
        if body.contains("\"params\"") {
            assert!(by_op(&format!("ascendc.{name}")).is_some(), "IRDL op {name} has no declaration");
        }
    }
    // The parser sees what it checks: the operands and a misspelled attribute show.
    let (_, _, mmad) = ops.iter().find(|(n, _, _)| n == "mmad").unwrap();
    assert_eq!(irdl_list(mmad, "irdl.operands").unwrap(), ["c", "a", "b", "dyn"]);
    let typo = mmad.replace("\"dyn_fields\"", "\"dynfields\"");
    assert_eq!(irdl_list(&typo, "irdl.attributes").unwrap(), ["params", "dynfields", "notes"]);
}
