//! `layout-calc`: evaluate layout expressions.
//!
//! * `layout-calc EXPR...`: one output line per argument.
//! * `layout-calc` (no argument): reads expressions from stdin, one per line; blank lines and
//!   lines starting with `#` print nothing; every other line prints exactly one line.
//! * `layout-calc table EXPR`: the offset grid of a rank-2 layout.
//! * `layout-calc svg EXPR`: the same grid as an SVG document (fractal blocks outlined, padding
//!   and the origin boundary marked), the picture the Python package's `Layout.svg()` draws.
//! * `layout-calc --input FILE ...` (`-i`, repeatable; `-` is stdin): the lines of each file in
//!   order, as stdin's; an error line is located, `FILE:LINE:COL: error: ...`.
//!
//! A failing expression prints `error: ...` (to stdout, in order) and the rest continue; the
//! exit status is 1 if any expression failed. A stdin line that is not UTF-8 is one such line
//! (`error: line N: input is not valid UTF-8`), and nesting deeper than
//! `layout_algebra::parse::MAX_NESTING` brackets is a `column N` error, not a stack overflow.

mod cli;
mod error;
mod expr;
mod functions;
mod value;

use std::io::{self, BufRead, Write};
use std::process::ExitCode;

use error::CalcError;
use value::Value;

fn help() -> String {
    let mut s = String::from(
        "layout-calc: evaluate CuTe and Ascend layout expressions\n\n\
         usage: layout-calc EXPR...        evaluate each argument\n\
        \x20      layout-calc               read expressions from stdin, one per line\n\
        \x20      layout-calc table EXPR    print the offset grid of a rank-2 layout\n\
        \x20      layout-calc svg EXPR      the same grid as SVG (fractal blocks, padding, origin)\n\
        \x20      layout-calc -i F1 -i F2   read the expressions of each file (errors FILE:LINE:COL)\n\n\
         values: 37  (1,(2,3))  SHAPE:STRIDE  SHAPE:STRIDE origin ORIGIN  names (NZ, f16, _)\n\
         flags: --help, --version, --completions SHELL (bash, zsh, fish, elvish, powershell),\n\
        \x20       --list-functions, --input FILE (-i; repeatable; each file's lines in order, '-' = stdin)\n\
         example: crd2offset(((4,2),(4,3)):((4,16),(1,32)),(1,5))  ->  37\n\nfunctions:\n",
    );
    s.push_str(&function_list());
    s
}

/// One line per function: its usage and what it does (`--list-functions`, and in `--help`).
fn function_list() -> String {
    let width = functions::FUNCTIONS.iter().map(|f| f.usage.len()).max().unwrap_or(0);
    functions::FUNCTIONS.iter().map(|f| format!("  {:width$}  {}\n", f.usage, f.help)).collect()
}

fn line_result(text: &str) -> Result<Value, CalcError> {
    for picture in ["table", "svg"] {
        if text.trim_start().strip_prefix(picture).is_some_and(|rest| rest.starts_with(' ')) {
            return Err(CalcError::Type(format!("`{picture}` prints many lines; run `layout-calc {picture} EXPR`")));
        }
    }
    expr::evaluate(text)
}

fn print_result(out: &mut impl Write, r: Result<Value, CalcError>) -> io::Result<bool> {
    match r {
        Ok(v) => writeln!(out, "{v}").map(|_| true),
        Err(e) => writeln!(out, "error: {e}").map(|_| false),
    }
}

fn run() -> io::Result<bool> {
    let stdout = io::stdout();
    let mut out = stdout.lock();
    let (args, inputs) = match cli::parse(std::env::args().skip(1).collect(), &help(), &function_list()) {
        Ok(cli::Request::Evaluate { expressions, inputs }) => (expressions, inputs),
        Ok(cli::Request::Print(text)) | Err(cli_common::CliError::Display(text)) => {
            write!(out, "{text}")?;
            return Ok(true);
        }
        Err(mistake) => {
            cli_common::fail("layout-calc", &mistake.to_string());
            return Ok(false);
        }
    };
    let picture: Option<fn(&layout_algebra::Layout) -> layout_algebra::Result<String>> =
        match args.first().map(String::as_str) {
            Some("table") => Some(layout_algebra::picture::table),
            Some("svg") => Some(layout_algebra::picture::svg),
            _ => None,
        };
    if let Some(draw) = picture {
        if !inputs.is_empty() {
            writeln!(out, "error: `{}` takes its expression as arguments, not with --input", args[0])?;
            return Ok(false);
        }
        let text = args[1..].join(" ");
        let rendered = expr::evaluate(&text)
            .and_then(|v| v.expect_layout(&format!("{}'s argument", args[0])))
            .and_then(|l| Ok(draw(&l)?));
        return match rendered {
            Ok(t) => write!(out, "{t}").map(|_| true),
            Err(e) => writeln!(out, "error: {e}").map(|_| false),
        };
    }
    let mut ok = true;
    for a in &args {
        ok &= print_result(&mut out, line_result(a))?;
    }
    if args.is_empty() && inputs.is_empty() {
        ok &= evaluate_lines(&mut io::stdin().lock(), None, &mut out)?;
    }
    for input in &inputs {
        ok &= if input == "-" {
            evaluate_lines(&mut io::stdin().lock(), Some("<stdin>"), &mut out)?
        } else {
            match std::fs::read(input) {
                Ok(bytes) => evaluate_lines(&mut bytes.as_slice(), Some(input), &mut out)?,
                Err(e) => {
                    writeln!(out, "error: cannot open input file '{input}': {e}")?;
                    false
                }
            }
        };
    }
    Ok(ok)
}

/// Evaluates the lines of `input` (blank and `#` lines print nothing). Errors are `error: ...`
/// for stdin without `--input` (as ever); with a file name `name`, `NAME:LINE:COL: error: ...`
/// (COL: where a syntax error is, else where the expression starts). False if any line failed.
fn evaluate_lines(input: &mut impl BufRead, name: Option<&str>, out: &mut impl Write) -> io::Result<bool> {
    let mut ok = true;
    let mut bytes = Vec::new();
    let mut number = 0usize;
    while read_line(input, &mut bytes)? {
        number += 1;
        // A line that is not UTF-8 is one error line; the lines after it still count.
        let Ok(line) = std::str::from_utf8(&bytes) else {
            match name {
                Some(name) => writeln!(out, "{name}:{number}:1: error: input is not valid UTF-8")?,
                None => writeln!(out, "error: line {number}: input is not valid UTF-8")?,
            }
            ok = false;
            continue;
        };
        let trimmed = line.trim();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        let result = line_result(trimmed);
        match (name, result) {
            (Some(name), Err(error)) => {
                let indent = line.chars().take_while(|c| c.is_whitespace()).count();
                let (column, message) = match &error {
                    CalcError::Syntax { column, message } => (indent + column, message.clone()),
                    other => (indent + 1, other.to_string()),
                };
                writeln!(out, "{name}:{number}:{column}: error: {message}")?;
                ok = false;
            }
            (_, result) => ok &= print_result(out, result)?,
        }
    }
    Ok(ok)
}

/// Reads the next line of `input` as bytes into `line`, without its `\n` or `\r\n`; false at
/// the end of the input.
fn read_line(input: &mut impl BufRead, line: &mut Vec<u8>) -> io::Result<bool> {
    line.clear();
    if input.read_until(b'\n', line)? == 0 {
        return Ok(false);
    }
    if line.last() == Some(&b'\n') {
        line.pop();
        if line.last() == Some(&b'\r') {
            line.pop();
        }
    }
    Ok(true)
}

fn main() -> ExitCode {
    match run() {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::from(1),
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("layout-calc: {e}");
            ExitCode::from(1)
        }
    }
}
