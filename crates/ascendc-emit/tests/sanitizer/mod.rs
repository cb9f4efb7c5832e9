//! The model's sanitizer (`run::checks`, docs/sanitizer.md) on broken kernels: each test breaks
//! one thing, runs both model paths (g++ on the C++, JIT on the LLVM form) and requires the
//! located report; without the check the run succeeds and the test fails.

use super::*;

/// The 1-based line of the first line of `text` containing `needle`.
fn line_of(text: &str, needle: &str) -> usize {
    text.lines().position(|l| l.contains(needle)).unwrap_or_else(|| panic!("no `{needle}` in\n{text}")) + 1
}

/// A 32x32x32 f16 GEMM on a2 lowered to ascendc, printed, with its first line containing
/// `needle` removed; the text is parsed again (positions are lines of the returned text).
fn gemm_without<'c>(context: &'c melior::Context, name: &str, needle: &str) -> (Module<'c>, String) {
    let g = Gemm { m: 32, n: 32, k: 32, b_dn: false };
    let module = lower(context, &gemm_kernel(name, "a2", &g, "f16", "f32", "f32"));
    let text = module.as_operation().to_string();
    let cut = line_of(&text, needle);
    let text: String = text.lines().enumerate().filter(|(i, _)| i + 1 != cut).map(|(_, l)| format!("{l}\n")).collect();
    let module = Module::parse(context, &text).unwrap_or_else(|| panic!("mutated module does not parse:\n{text}"));
    (module, text)
}

fn gemm_case(name: &str) -> Case<'_> {
    let mut rng = Rng::new(7);
    Case {
        name,
        func: name,
        source: String::new(),
        target: "a2",
        inputs: vec![
            rng.array(ElemType::F16, &[32 * 32]),
            rng.array(ElemType::F16, &[32 * 32]),
            Array::zeros(ElemType::F32, &[32 * 32]),
        ],
        scalars: vec![],
        outputs: vec![2],
        sanitize: run::checks::SYNC,
    }
}

/// Both model paths fail with an error at `line` whose text contains every one of `want`.
fn both_report(context: &melior::Context, module: &Module, case: &Case, line: usize, want: &[&str]) {
    let cpp = try_cpp(module, case, case.sanitize).map(|_| ());
    let llvm = try_llvm(context, module, case, case.sanitize).map(|_| ());
    for (way, got) in [("C++ + model", cpp), ("LLVM form + model", llvm)] {
        let e = got.err().unwrap_or_else(|| panic!("{}: {way}: no sanitizer report", case.name)).to_string();
        assert!(e.contains(&format!(":{line}:")), "{}: {way}: not at line {line}: {e}", case.name);
        for w in want {
            assert!(e.contains(w), "{}: {way}: `{w}` missing from: {e}", case.name);
        }
    }
}

#[test]
fn synccheck_reports_a_missing_wait_flag() {
    // Without the first WaitFlag<MTE2_MTE1>, MTE1's LoadData reads L1 that MTE2's DataCopy
    // wrote with nothing ordering them: a RAW race on the device.
    let context = layout_runtime::create_context().unwrap();
    let (module, text) = gemm_without(&context, "san_no_wait", "\"ascendc.wait_flag\"");
    let line = line_of(&text, "\"ascendc.load_data");
    let want = [
        "sanitizer: synccheck: LoadData(LoadData2DParams) (PIPE_MTE1) reads a1 (L1 bytes [0, 2048)",
        "written by DataCopy(Nd2NzParams) (PIPE_MTE2) with no SetFlag<MTE2_MTE1> -> WaitFlag chain ordering them (RAW)",
    ];
    both_report(&context, &module, &gemm_case("san_no_wait"), line, &want);
}

#[test]
fn synccheck_reports_a_wait_with_no_set() {
    let context = layout_runtime::create_context().unwrap();
    let (module, text) = gemm_without(&context, "san_no_set", "\"ascendc.set_flag\"");
    let line = line_of(&text, "\"ascendc.wait_flag\"");
    let want = [
        "synccheck: WaitFlag<HardEvent::MTE2_MTE1>(EVENT_ID0) with no SetFlag before it: PIPE_MTE1 would wait forever",
    ];
    both_report(&context, &module, &gemm_case("san_no_set"), line, &want);
}

#[test]
fn synccheck_passes_the_emitted_gemm_and_reports_a_missing_fixpipe_wait() {
    let context = layout_runtime::create_context().unwrap();
    let g = Gemm { m: 32, n: 32, k: 32, b_dn: false };
    let module = lower(&context, &gemm_kernel("san_ok", "a2", &g, "f16", "f32", "f32"));
    let case = gemm_case("san_ok");
    try_cpp(&module, &case, run::checks::ALL).unwrap_or_else(|e| panic!("C++: {e}"));
    try_llvm(&context, &module, &case, run::checks::ALL).unwrap_or_else(|e| panic!("LLVM: {e}"));
    // The Fixpipe's WaitFlag<M_FIX> removed: the RAW on L0C is reported first.
    let (module, text) = gemm_without(&context, "san_ok", "\"ascendc.wait_flag\"() {event = \"M_FIX\"");
    let line = line_of(&text, "\"ascendc.fixpipe\"");
    let want = ["synccheck: Fixpipe (PIPE_FIX) reads co1 (L0C bytes", "written by Mmad (PIPE_M)", "(RAW)"];
    both_report(&context, &module, &case, line, &want);
}

#[test]
fn synccheck_reports_a_flag_left_set_at_exit() {
    // A second SetFlag<M_FIX> nothing waits for: on the device the flag stays set.
    let context = layout_runtime::create_context().unwrap();
    let g = Gemm { m: 32, n: 32, k: 32, b_dn: false };
    let module = lower(&context, &gemm_kernel("san_left_set", "a2", &g, "f16", "f32", "f32"));
    let text = module.as_operation().to_string();
    let set = line_of(&text, "\"ascendc.set_flag\"() {event = \"M_FIX\"");
    let mut lines: Vec<&str> = text.lines().collect();
    let extra = lines[set - 1];
    lines.insert(set, extra);
    let text = lines.join("\n");
    let module = Module::parse(&context, &text).unwrap();
    let want = ["synccheck: flag left set at kernel exit: SetFlag<HardEvent::M_FIX>(EVENT_ID0) set 1 time(s) and never waited for"];
    both_report(&context, &module, &gemm_case("san_left_set"), set + 1, &want);
}

#[test]
fn initcheck_reports_a_result_computed_from_unwritten_l1() {
    // `layout-verify` R1 rejects a kernel that reads unwritten on-chip data, so the defect is
    // made in the lowered kernel: without A's GM -> L1 DataCopy, LoadData copies unwritten L1
    // into L0A (copies pass the "written" bits along), Mmad computes C from it (definedness
    // propagates) and the Fixpipe that stores C to GM is the use that is reported.
    let context = layout_runtime::create_context().unwrap();
    let (module, text) = gemm_without(&context, "san_unwritten_l1", "\"ascendc.data_copy_nd2nz\"");
    let line = line_of(&text, "\"ascendc.fixpipe");
    let mut case = gemm_case("san_unwritten_l1");
    case.sanitize = run::checks::INIT;
    let want = [
        "initcheck: Fixpipe (PIPE_FIX) reads element 0 (byte 0) of co1 (L0C bytes",
        "which nothing wrote before (or was computed from unwritten data): coordinate (0, 0) (in @san_unwritten_l1)",
    ];
    both_report(&context, &module, &case, line, &want);
}

#[test]
fn memcheck_reports_an_out_of_bounds_gm_read() {
    // The GM ND -> L1 NZ copy of a 40x56 f16 tensor given a 2000-element buffer (2240 needed):
    // the DataCopy reads past the end of argument #0.
    let source = copy_kernel("a2", "f16", (40, 56), "ND", "NZ", 2240, 3072);
    let context = layout_runtime::create_context().unwrap();
    let module = lower(&context, &source);
    let case = Case {
        name: "san_oob_gm",
        func: "copy",
        source: source.clone(),
        target: "a2",
        inputs: vec![Rng::new(5).array(ElemType::F16, &[2000]), Array::zeros(ElemType::F16, &[3072])],
        scalars: vec![],
        outputs: vec![1],
        sanitize: run::checks::MEM,
    };
    let line = line_of(&source, "\"layout.load\"");
    let e = try_cpp(&module, &case, case.sanitize).expect_err("C++ + model: no memcheck report").to_string();
    assert!(e.contains(&format!(":{line}:")), "not at the layout.load: {e}");
    let want = "memcheck: DataCopy(Nd2NzParams) (PIPE_MTE2) reads 2 bytes at 0 bytes past the end of GM argument #0 (arg0: memref<2240xf16>) (4000 bytes)";
    assert!(e.contains(want), "{e}");
    // The JIT's call checks the static shape before the LLVM form can run.
    let e = try_llvm(&context, &module, &case, case.sanitize).expect_err("LLVM form ran on a short buffer").to_string();
    assert!(e.contains("dimension 0 is 2000"), "{e}");
}

// ---- unitFlag (asc-devkit UnitFlag; docs/sanitizer.md "unitFlag") -----------------------------

/// The lowered 32x32x32 f16 GEMM on a2 (one Mmad, one Fixpipe, a SetFlag/WaitFlag<M_FIX> pair).
fn gemm_text(context: &melior::Context, name: &str) -> String {
    let g = Gemm { m: 32, n: 32, k: 32, b_dn: false };
    lower(context, &gemm_kernel(name, "a2", &g, "f16", "f32", "f32")).as_operation().to_string()
}

/// `text` with the `unitFlag` of the `n`-th line (0-based) containing `op` set to `value`.
fn with_unit_flag(text: &str, op: &str, n: usize, value: u32) -> String {
    let mut seen = 0;
    let lines: Vec<String> = text
        .lines()
        .map(|l| {
            if !l.contains(op) {
                return l.to_string();
            }
            seen += 1;
            if seen - 1 != n {
                return l.to_string();
            }
            let (head, tail) = l.split_once("unitFlag = ").unwrap_or_else(|| panic!("no unitFlag in {l}"));
            let digits = tail.chars().take_while(char::is_ascii_digit).count();
            format!("{head}unitFlag = {value}{}", &tail[digits..])
        })
        .collect();
    assert!(seen > n, "fewer than {} `{op}` lines", n + 1);
    lines.join("\n") + "\n"
}

/// `text` without the lines containing any of `needles`.
fn without_lines(text: &str, needles: &[&str]) -> String {
    text.lines().filter(|l| !needles.iter().any(|n| l.contains(n))).map(|l| format!("{l}\n")).collect()
}

/// `text` with the line containing `after` followed by copies of the lines containing `copy`
/// (in text order).
fn with_copies_after(text: &str, after: &str, copy: &[&str]) -> String {
    let copies: Vec<&str> = text.lines().filter(|l| copy.iter().any(|c| l.contains(c))).collect();
    let mut out = String::new();
    for l in text.lines() {
        out.push_str(l);
        out.push('\n');
        if l.contains(after) {
            copies.iter().for_each(|c| {
                out.push_str(c);
                out.push('\n');
            });
        }
    }
    out
}

const MMAD: &str = "\"ascendc.mmad\"";
const FIXPIPE: &str = "\"ascendc.fixpipe\"";
const M_FIX: [&str; 2] = ["\"ascendc.set_flag\"() {event = \"M_FIX\"", "\"ascendc.wait_flag\"() {event = \"M_FIX\""];

fn parse<'c>(context: &'c melior::Context, text: &str) -> Module<'c> {
    Module::parse(context, text).unwrap_or_else(|| panic!("mutated module does not parse:\n{text}"))
}

#[test]
fn synccheck_takes_the_unit_flag_handshake_for_the_m_fix_event() {
    // Mmad 3 and Fixpipe 3 without the SetFlag/WaitFlag<M_FIX> pair: the handshake orders the
    // Fixpipe's read of each L0C block after the Mmad (asc-devkit UnitFlag), so synccheck
    // passes and the outputs are the event-synchronized kernel's. With unitFlag 0 on both the
    // same kernel is a RAW (synccheck_passes_the_emitted_gemm_and_reports_a_missing_fixpipe_wait).
    let context = layout_runtime::create_context().unwrap();
    let text = gemm_text(&context, "san_unit_ok");
    let case = gemm_case("san_unit_ok");
    let want = try_cpp(&parse(&context, &text), &case, 0).unwrap_or_else(|e| panic!("{e}"));
    let unit = with_unit_flag(&with_unit_flag(&text, MMAD, 0, 3), FIXPIPE, 0, 3);
    let module = parse(&context, &without_lines(&unit, &M_FIX));
    let cpp = try_cpp(&module, &case, run::checks::ALL).unwrap_or_else(|e| panic!("C++: {e}"));
    let llvm = try_llvm(&context, &module, &case, run::checks::ALL).unwrap_or_else(|e| panic!("LLVM: {e}"));
    assert!(cpp[2] == want[2] && llvm[2] == want[2], "unitFlag changed the result");
    // A second tile on the same accumulator (Mmad 3, Fixpipe 3 again) with no FIX_M event: the
    // Mmad writes each block after the Fixpipe cleared it.
    let twice = with_copies_after(&without_lines(&unit, &M_FIX), FIXPIPE, &[MMAD, FIXPIPE]);
    let module = parse(&context, &twice);
    try_cpp(&module, &case, run::checks::ALL).unwrap_or_else(|e| panic!("C++, two tiles: {e}"));
    try_llvm(&context, &module, &case, run::checks::ALL).unwrap_or_else(|e| panic!("LLVM, two tiles: {e}"));
}

#[test]
fn synccheck_reports_a_one_sided_unit_flag_on_the_fixpipe() {
    // Mmad 3, Fixpipe 0, no M_FIX event: nothing orders the Fixpipe's read.
    let context = layout_runtime::create_context().unwrap();
    let text = without_lines(&with_unit_flag(&gemm_text(&context, "san_unit_fix0"), MMAD, 0, 3), &M_FIX);
    let want = [
        "synccheck: Fixpipe (PIPE_FIX) reads co1 (L0C bytes",
        "written by Mmad (PIPE_M) with no SetFlag<M_FIX> -> WaitFlag chain ordering them (RAW)",
        "the Mmad released the block with unitFlag 3 but this Fixpipe has unitFlag 0",
    ];
    both_report(&context, &parse(&context, &text), &gemm_case("san_unit_fix0"), line_of(&text, FIXPIPE), &want);
}

#[test]
fn synccheck_reports_a_fixpipe_unit_flag_whose_mmad_did_not_release_the_blocks() {
    // Fixpipe 3 after an Mmad with 0 or 2, the M_FIX event kept: the block flags are 0, so on
    // the device the Fixpipe would wait for an Mmad with unitFlag 3 that never comes.
    let context = layout_runtime::create_context().unwrap();
    for mmad in [0, 2] {
        let name = "san_unit_mmad";
        let text = with_unit_flag(&with_unit_flag(&gemm_text(&context, name), MMAD, 0, mmad), FIXPIPE, 0, 3);
        let last = format!("whose unit flag is 0 (the last Mmad that wrote it used unitFlag {mmad})");
        let want = [
            "synccheck: Fixpipe (PIPE_FIX) with unitFlag 3 reads co1 (L0C bytes [0, 4096)",
            "bytes [0, 512) (a 512 B unit-flag block)",
            &last,
            "waits for a later Mmad",
        ];
        both_report(&context, &parse(&context, &text), &gemm_case(name), line_of(&text, FIXPIPE), &want);
    }
}

#[test]
fn synccheck_reports_a_fixpipe_reading_an_unfinished_accumulation() {
    // Two Mmads on the accumulator, the first with 3 and the second with 2: the second waits on
    // the device until a Fixpipe has read what the first left, an unfinished accumulation.
    let context = layout_runtime::create_context().unwrap();
    let text = gemm_text(&context, "san_unit_early");
    let text = with_copies_after(&text, MMAD, &[MMAD]);
    let text = with_unit_flag(&with_unit_flag(&with_unit_flag(&text, MMAD, 0, 3), MMAD, 1, 2), FIXPIPE, 0, 3);
    let second = text.lines().enumerate().filter(|(_, l)| l.contains(MMAD)).nth(1).unwrap().0 + 1;
    let want = [
        "synccheck: Mmad (PIPE_M) with unitFlag 2 writes co1 (L0C bytes [0, 4096)",
        "bytes [0, 512) (a 512 B unit-flag block), whose unit flag is still 1",
        "reads an unfinished accumulation",
    ];
    both_report(&context, &parse(&context, &text), &gemm_case("san_unit_early"), second, &want);
    // The accumulation released by its last Mmad only (2 then 3) passes, no M_FIX event.
    let ok = with_unit_flag(
        &with_unit_flag(
            &with_unit_flag(&with_copies_after(&gemm_text(&context, "san_unit_early"), MMAD, &[MMAD]), MMAD, 0, 2),
            MMAD,
            1,
            3,
        ),
        FIXPIPE,
        0,
        3,
    );
    let module = parse(&context, &without_lines(&ok, &M_FIX));
    let case = gemm_case("san_unit_early");
    try_cpp(&module, &case, run::checks::ALL).unwrap_or_else(|e| panic!("C++: {e}"));
    try_llvm(&context, &module, &case, run::checks::ALL).unwrap_or_else(|e| panic!("LLVM: {e}"));
}

#[test]
fn synccheck_reports_the_next_mmad_without_unit_flag_over_blocks_a_fixpipe_reads() {
    // A second tile whose Mmad has unitFlag 0, no FIX_M event: it overwrites L0C the first
    // tile's Fixpipe may still be reading (WAR), and the handshake cannot order it.
    let context = layout_runtime::create_context().unwrap();
    let text = gemm_text(&context, "san_unit_war");
    let unit = without_lines(&with_unit_flag(&with_unit_flag(&text, MMAD, 0, 3), FIXPIPE, 0, 3), &M_FIX);
    let twice = with_copies_after(&unit, FIXPIPE, &[MMAD, FIXPIPE]);
    let twice = with_unit_flag(&twice, MMAD, 1, 0);
    let second = twice.lines().enumerate().filter(|(_, l)| l.contains(MMAD)).nth(1).unwrap().0 + 1;
    let want = [
        "synccheck: Mmad (PIPE_M) writes co1 (L0C bytes",
        "read by Fixpipe (PIPE_FIX) with no SetFlag<FIX_M> -> WaitFlag chain ordering them (WAR)",
        "the Fixpipe cleared the block with unitFlag 3 but this Mmad has unitFlag 0",
    ];
    both_report(&context, &parse(&context, &twice), &gemm_case("san_unit_war"), second, &want);
}

#[test]
fn a_unit_flag_the_api_does_not_define_is_an_error() {
    let context = layout_runtime::create_context().unwrap();
    let text = with_unit_flag(&gemm_text(&context, "san_unit_one"), MMAD, 0, 1);
    let module = parse(&context, &text);
    let case = gemm_case("san_unit_one");
    for (way, got) in
        [("C++", try_cpp(&module, &case, 0).map(|_| ())), ("LLVM", try_llvm(&context, &module, &case, 0).map(|_| ()))]
    {
        let e = got.err().unwrap_or_else(|| panic!("{way}: unitFlag 1 ran")).to_string();
        assert!(e.contains("unitFlag must be 0, 2 or 3"), "{way}: {e}");
    }
}
