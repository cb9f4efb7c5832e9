//! End-to-end tests of the `layout-calc` line protocol.

use std::io::Write;
use std::process::{Command, Stdio};

fn calc_args(args: &[&str]) -> (String, i32) {
    let out = Command::new(env!("CARGO_BIN_EXE_layout-calc")).args(args).output().expect("run layout-calc");
    (String::from_utf8(out.stdout).unwrap(), out.status.code().unwrap())
}

fn calc_stdin(input: &str) -> (String, i32) {
    calc_stdin_bytes(input.as_bytes())
}

fn calc_stdin_bytes(input: &[u8]) -> (String, i32) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_layout-calc"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("run layout-calc");
    child.stdin.take().unwrap().write_all(input).unwrap();
    let out = child.wait_with_output().unwrap();
    (String::from_utf8(out.stdout).unwrap(), out.status.code().unwrap())
}

fn eval(expr: &str) -> String {
    let (out, code) = calc_args(&[expr]);
    assert_eq!(code, 0, "`{expr}` failed: {out}");
    out.trim_end().to_string()
}

#[test]
fn issue_examples() {
    assert_eq!(eval("crd2offset(((4,2),(4,3)):((4,16),(1,32)),(1,5))"), "37");
    assert_eq!(eval("frame(NZ,f16,100,100)"), "((16,7),(16,7)):((16,256),(1,1792)) origin (100,100)");
    assert_eq!(eval("tile(frame(NZ,f16,100,100),(32,48),(96,96))"), "((16,2),(16,3)):((16,256),(1,1792)) origin (4,4)");
    assert_eq!(eval("composition((12,(4,8)):(59,(13,1)),(3:4,8:2))"), "(3,(2,4)):(236,(26,1))");
}

#[test]
fn catlass_and_ascendc_names_mean_the_same_layout() {
    assert_eq!(eval("frame(zN,f16,100,100)"), eval("frame(NZ,f16,100,100)"));
    assert_eq!(eval("frame(nZ,f32,100,100)"), "((8,13),(16,7)):((1,896),(8,128)) origin (100,100)");
    assert_eq!(eval("pattern(frame(zN,i8,100,100))"), "NZ(c0=32)");
    assert_eq!(eval("pattern((4,5):(4,5))"), "none");
    assert_eq!(eval("c0(f8E4M3FN)"), "32");
    assert_eq!(eval("c0(f32)"), "8");
}

#[test]
fn queries_and_cute_functions() {
    let l = "(3,(2,3)):(3,(12,1))";
    assert_eq!(eval(&format!("size({l})")), "18");
    assert_eq!(eval(&format!("cosize({l})")), "21");
    assert_eq!(eval(&format!("rank({l})")), "2");
    assert_eq!(eval(&format!("depth({l})")), "2");
    assert_eq!(eval(&format!("crd2idx({l},16)")), "17");
    assert_eq!(eval(&format!("get({l},1)")), "(2,3):(12,1)");
    assert_eq!(eval(&format!("get({l},1,0)")), "2:12");
    assert_eq!(eval("idx2crd(16,(3,(2,3)))"), "(1,(1,2))");
    assert_eq!(eval("make_layout((2,3))"), "(2,3):(1,2)");
    assert_eq!(eval("make_layout((2,3),(3,1),(2,2))"), "(2,3):(3,1) origin (2,2)");
    assert_eq!(eval("shape_div(((3,4),6),36)"), "((1,1),2)");
    assert_eq!(eval("prefix_product(((2,3),4))"), "((1,2),6)");
    assert_eq!(eval("coalesce((2,(1,6)):(1,(6,2)))"), "12:1");
    assert_eq!(eval("coalesce((2,(1,6)):(1,(6,2)),(1,1))"), "(2,6):(1,2)");
    assert_eq!(eval("complement(4:2,24)"), "(2,3):(1,8)");
    assert_eq!(eval("right_inverse((8,4):(4,1))"), "(4,8):(8,1)");
    assert_eq!(eval("logical_divide((4,2,3):(2,1,8),4:2)"), "((2,2),(2,3)):((4,1),(2,8))");
    assert_eq!(eval("blocked_product((2,5):(5,1),(3,4):(1,3))"), "((2,3),(5,4)):((5,10),(1,30))");
    assert_eq!(eval("raked_product((2,5):(5,1),(3,4):(1,3))"), "((3,2),(4,5)):((10,5),(30,1))");
}

#[test]
fn stdin_prints_one_line_per_expression_in_order() {
    let input = "# a comment\n\nsize((2,3))\n   \nbogus(1)\nrank((1,2,3))\n# trailing comment\ncrd2offset(4:2,(1,2))\n";
    let (out, code) = calc_stdin(input);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 4, "{out}");
    assert_eq!(lines[0], "6");
    assert!(lines[1].starts_with("error: unknown function `bogus`"), "{}", lines[1]);
    assert_eq!(lines[2], "3");
    assert!(lines[3].starts_with("error: "), "{}", lines[3]);
    assert_eq!(code, 1);
    let (out, code) = calc_stdin("size(4:1)\n");
    assert_eq!((out.as_str(), code), ("4\n", 0));
}

/// A line that is not UTF-8 is one `error:` line (numbered like the input) and the lines after
/// it are still evaluated; the exit status says a line failed. (It used to stop reading with an
/// unprefixed message on stderr.)
#[test]
fn invalid_utf8_on_stdin_is_one_error_line_and_the_rest_continue() {
    let (out, code) = calc_stdin_bytes(b"size((2,3))\n# comment\nsize(\xff\xfe)\r\nrank((1,2,3))\n\xc3\n4:1");
    assert_eq!(out, "6\nerror: line 3: input is not valid UTF-8\n3\nerror: line 5: input is not valid UTF-8\n4:1\n");
    assert_eq!(code, 1);
    // Windows line ends are accepted on valid lines.
    assert_eq!(calc_stdin_bytes(b"size((2,3))\r\nsize(4:1)\r\n"), ("6\n4\n".to_string(), 0));
}

/// Nesting past `MAX_NESTING` (256) levels is a located error line, whether it comes from tuples,
/// from calls or on stdin; input nested 10,000 deep used to overflow the stack and abort.
#[test]
fn deep_nesting_is_a_located_error_not_a_stack_overflow() {
    let nested = |open: &str, depth: usize| format!("{}1{}", open.repeat(depth), ")".repeat(depth));
    let too_deep = "error: column 257: nesting deeper than 256 levels is not supported\n";
    assert_eq!(calc_args(&[&nested("(", 10_000)]), (too_deep.to_string(), 1));
    let (out, code) = calc_args(&[&nested("size(", 10_000)]);
    assert_eq!((out.as_str(), code), ("error: column 1285: nesting deeper than 256 levels is not supported\n", 1));
    let (out, code) = calc_stdin(&format!("{}\nsize(4:1)\n", nested("(", 10_000)));
    assert_eq!(out, format!("{too_deep}4\n"));
    assert_eq!(code, 1);
    // A layout's stride, and `make_layout` arguments, count the same way.
    let (out, code) = calc_args(&[&format!("(2,2):{}", nested("(", 10_000))]);
    assert!(out.starts_with("error: column 263: nesting deeper"), "{out}");
    assert_eq!(code, 1);
    // 256 levels are fine, and deep values go through the functions that walk them.
    assert_eq!(eval(&nested("(", 256)), nested("(", 256));
    assert_eq!(eval(&format!("depth({})", nested("(", 255))), "255");
    assert_eq!(eval(&format!("size({})", nested("size(", 255))), "1");
    let (shape, stride) = (nested("(", 255).replace('1', "2"), nested("(", 255));
    let deep = format!("{shape}:{stride}");
    assert_eq!(eval(&format!("flatten({deep})")), "(2):(1)");
    // The tile is the whole layout; the rest is one element: one level deeper than the input.
    assert_eq!(eval(&format!("logical_divide({deep},{deep})")), format!("({shape},1):({stride},0)"));
}

#[test]
fn bad_input_is_an_error_line_not_a_crash() {
    for bad in [
        "(1,2",
        "make_layout((2,3),(1,2,3))",
        "composition(6:2,(4,3):(3,1)",
        "size(4:1) extra",
        "crd2offset((2,3):(1,2),(1,2,3))",
        "frame(QQ,f16,4,4)",
        "frame(NZ,f99,4,4)",
        "frame(NZ,f16,0,4)",
        "size((4294967296,4294967296))",
        "99999999999999999999",
        "make_layout((2,0))",
        "complement((2,2):(1,1),4)",
        "get((1,2),5)",
        "table (2,3):(1,2)",
        "",
        ")",
    ] {
        let (out, code) = calc_args(&[bad]);
        assert_eq!(code, 1, "`{bad}` should fail: {out}");
        assert_eq!(out.lines().count(), 1, "`{bad}`: {out}");
        assert!(out.starts_with("error: "), "`{bad}`: {out}");
    }
    let (out, _) = calc_args(&["(1,2"]);
    assert_eq!(out, "error: column 5: expected `,` or `)` in tuple, found end of input\n");
    let (out, _) = calc_args(&["compositon(1:1,1:1)"]);
    assert!(out.contains("did you mean `composition`"), "{out}");
}

/// Extreme integers reach floor division and modulo inside the algebra: a result or an error
/// line, never a crash (an earlier floor modulo overflowed internally on `i64::MIN mod 3`).
#[test]
fn extreme_integers_never_crash() {
    for expr in [
        "idx2crd(-9223372036854775808,(3,3))",
        "crd2offset(make_layout((3,3)),-9223372036854775808)",
        "crd2offset((3,3):(9223372036854775807,1),(2,0))",
        "shape_div((9223372036854775807,3),3)",
        "complement(3:3074457345618258603,9223372036854775807)",
    ] {
        let (out, code) = calc_args(&[expr]);
        assert!(code == 0 || code == 1, "`{expr}` crashed with {code}: {out}");
        assert_eq!(out.lines().count(), 1, "`{expr}`: {out}");
    }
    assert_eq!(eval("idx2crd(-9223372036854775808,(3,3))"), "(1,-3074457345618258603)");
}

#[test]
fn printed_values_parse_back() {
    for expr in [
        "frame(NZ,f16,100,100)",
        "frame(ZN,i8,33,70)",
        "frame(NZ,f16,2,100,100)",
        "tile(frame(ZZ,f32,50,60),(16,16),(48,56))",
        "zipped_divide((9,(4,8)):(59,(13,1)),(3:3,(2,4):(1,8)))",
        "idx2crd(16,(3,(2,3)))",
    ] {
        let once = eval(expr);
        let twice = eval(&once);
        assert_eq!(once, twice, "{expr}");
    }
}

#[test]
fn table_marks_padding() {
    let (out, code) = calc_args(&["table", "(4,3):(1,4) origin (3,2)"]);
    assert_eq!(code, 0, "{out}");
    let want = "\
(4,3):(1,4) origin (3,2)
4x3 cells, origin 3x2; padding in [brackets]
     0    1    2
0    0    4  [ 8]
1    1    5  [ 9]
2    2    6  [10]
3  [ 3] [ 7] [11]
";
    assert_eq!(out, want);
    let (out, code) = calc_args(&["table", "frame(NZ,f16,20,20)"]);
    assert_eq!(code, 0);
    // 32 x 32 padded grid; (1,0) is at 16 and (0,16) at 512 = align(20,16)*16.
    let row1: Vec<&str> = out.lines().nth(4).unwrap().split_whitespace().collect();
    assert_eq!(row1[0], "1");
    assert_eq!(row1[1], "16");
    let row0: Vec<&str> = out.lines().nth(3).unwrap().split_whitespace().collect();
    assert_eq!(row0[17], "512");
    assert_eq!(calc_args(&["table", "(2,3,4):(1,2,6)"]).1, 1);
}

/// `layout-calc svg` prints the algebra's SVG: one cell and offset per element, the fractal
/// blocks, and the origin boundary of a tail.
#[test]
fn svg_draws_cells_blocks_and_origin() {
    let (out, code) = calc_args(&["svg", "frame(NZ,f16,20,20)"]);
    assert_eq!(code, 0, "{out}");
    assert!(out.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""), "{out}");
    assert!(out.ends_with("</svg>\n"));
    assert_eq!(out.matches("<rect class=\"cell").count(), 32 * 32);
    assert_eq!(out.matches("<rect class=\"cell padding\"").count(), 32 * 32 - 400);
    assert_eq!(out.matches("<rect class=\"block\"").count(), 4);
    assert_eq!(out.matches("<rect class=\"origin\"").count(), 1);
    assert!(out.contains(">512</text>"), "offset of (0,16)");
    let (out, code) = calc_args(&["svg", "(2,3,4):(1,2,6)"]);
    assert_eq!(code, 1);
    assert!(out.starts_with("error: a picture needs a rank-2 layout"), "{out}");
    let (out, code) = calc_args(&["svg (2,2):(1,2)"]);
    assert_eq!(code, 1);
    assert!(out.contains("run `layout-calc svg EXPR`"), "{out}");
}

/// The clap flags: version, completions, a misspelled flag with clap's suggestion (on stderr,
/// exit 1, in the words of every tool: `cli_common`), and expressions that start with `-` still
/// evaluated, not taken for flags.
#[test]
fn command_line_flags() {
    let (out, code) = calc_args(&["--version"]);
    assert_eq!((out.trim(), code), (concat!("layout-calc ", env!("CARGO_PKG_VERSION")), 0));
    let (out, code) = calc_args(&["--completions", "bash"]);
    assert!(code == 0 && out.contains("_layout__calc()") && out.contains("--completions"), "{out}");
    let out = Command::new(env!("CARGO_BIN_EXE_layout-calc")).arg("--verson").output().expect("run layout-calc");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(stderr, "layout-calc: error: unknown option '--verson'; did you mean '--version'?\n");
    let (out, code) = calc_args(&["-3", "crd2offset(((4,2),(4,3)):((4,16),(1,32)),(1,5))"]);
    assert_eq!((out.as_str(), code), ("-3\n37\n", 0));
    let (out, _) = calc_args(&["--help"]);
    assert!(out.contains("usage: layout-calc EXPR") && out.contains("--completions SHELL"), "{out}");
}

/// `--input FILE` (repeatable, `-` for stdin): the arguments first, then each file's lines in
/// order; errors located `FILE:LINE:COL` (a syntax error's column counts the line's indent), a
/// line that is not UTF-8 and an unreadable file are error lines too, and the rest go on.
#[test]
fn input_files_are_read_in_order_with_located_errors() {
    let dir = std::env::temp_dir().join(format!("layout-calc-input-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (a, b) = (dir.join("a.txt"), dir.join("b.txt"));
    std::fs::write(&a, b"size((2,3))\n\n# comment\n   (1,2\n\xff\xfe\nrank((1,2,3))\n").unwrap();
    std::fs::write(&b, "cosize(4:2)\nbogus(1)\n").unwrap();
    let (a, b, d) = (a.to_str().unwrap(), b.to_str().unwrap(), dir.to_str().unwrap());
    let (out, code) = calc_args(&["depth(1)", "--input", a, "-i", b, &format!("--input={d}"), "--input", b]);
    let expected = format!(
        "0\n6\n{a}:4:8: error: expected `,` or `)` in tuple, found end of input\n{a}:5:1: error: input is not valid \
         UTF-8\n3\n7\n{b}:2:1: error: unknown function `bogus`\n"
    );
    let (head, tail) = out.split_at(expected.len().min(out.len()));
    assert_eq!(head, expected);
    assert!(tail.starts_with(&format!("error: cannot open input file '{d}': ")), "{tail}");
    assert!(tail.ends_with(&format!("7\n{b}:2:1: error: unknown function `bogus`\n")), "{tail}");
    assert_eq!(code, 1);
    // Stdin as one of the inputs.
    let mut child = Command::new(env!("CARGO_BIN_EXE_layout-calc"))
        .args(["-i", b, "-i", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("run layout-calc");
    child.stdin.take().unwrap().write_all(b"size(3)\n(1\n").unwrap();
    let out = String::from_utf8(child.wait_with_output().unwrap().stdout).unwrap();
    assert_eq!(
        out,
        format!("7\n{b}:2:1: error: unknown function `bogus`\n3\n<stdin>:2:3: error: expected `,` or `)` in tuple, found end of input\n")
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
