use super::*;
use clap::{Arg, ArgAction, Command};

fn command() -> Command {
    Command::new("tool")
        .version("1.2.3")
        .arg(Arg::new("entry").long("entry").value_name("NAME"))
        .arg(Arg::new("count").long("count").value_parser(clap::value_parser!(u32)))
        .arg(Arg::new("verbose").long("verbose").action(ArgAction::SetTrue))
        .arg(Arg::new("emit").long("emit").value_parser(["llvm", "mlir"]))
}

fn parse(args: &[&str]) -> Result<clap::ArgMatches, CliError> {
    command().try_get_matches_from(std::iter::once("tool").chain(args.iter().copied())).map_err(from_clap)
}

#[test]
fn clap_errors_become_one_line_in_our_words() {
    let Err(error) = parse(&["--entyr", "f"]) else { panic!("misspelled flag accepted") };
    assert_eq!(error.to_string(), "unknown option '--entyr'; did you mean '--entry'?");
    let Err(error) = parse(&["--zzzz"]) else { panic!("unknown flag accepted") };
    assert_eq!(error.to_string(), "unknown option '--zzzz' (see --help)");
    let Err(error) = parse(&["--count", "x"]) else { panic!("bad value accepted") };
    assert_eq!(error.to_string(), "invalid value 'x' for '--count <count>': invalid digit found in string");
    let Err(error) = parse(&["--emit", "llvmm"]) else { panic!("bad kind accepted") };
    assert_eq!(
        error.to_string(),
        "invalid value 'llvmm' for '--emit <emit>' [possible values: llvm, mlir]; did you mean 'llvm'?"
    );
    let Err(error) = parse(&["--entry"]) else { panic!("missing value accepted") };
    assert!(
        matches!(&error, CliError::Usage(text) if text.starts_with("a value is required for '--entry <NAME>'") && !text.contains('\n')),
        "{error:?}"
    );
    let Err(CliError::Display(version)) = parse(&["--version"]) else { panic!("--version") };
    assert_eq!(version, "tool 1.2.3\n");
    assert!(matches!(parse(&["--help"]), Err(CliError::Display(help)) if help.contains("--verbose")));
    // A positional argument clap has no place for is a usage error, not an "option".
    assert!(matches!(parse(&["extra"]), Err(CliError::Usage(text)) if text.contains("'extra'")));
    assert!(parse(&["--entry", "f", "--verbose"]).is_ok());
}

#[test]
fn one_dash_long_options() {
    assert_eq!(long_with_one_dash("-entry").as_deref(), Some("--entry"));
    assert_eq!(long_with_one_dash("-split-input-file=x").as_deref(), Some("--split-input-file=x"));
    for kept in ["-o", "-V", "-", "--entry", "-3", "-1x", "file.mlir", "--"] {
        assert_eq!(long_with_one_dash(kept), None, "{kept}");
    }
}

#[test]
fn completion_scripts_name_the_flags() {
    let script = String::from_utf8(completions(clap_complete::Shell::Bash, &mut command(), "tool")).unwrap();
    assert!(script.contains("_tool()") && script.contains("--entry") && script.contains("--verbose"), "{script}");
}

#[test]
fn suggestions_are_close_names_only() {
    use suggest::*;
    assert_eq!(closest("layout-verfy", ["layout-fold", "layout-verify", "cse"]), Some("layout-verify"));
    assert_eq!(closest("canonicalise", ["cse", "canonicalize"]), Some("canonicalize"));
    assert_eq!(closest("compositon", ["complement", "composition", "cosize"]), Some("composition"));
    assert_eq!(closest("no-such-flag", ["layout-verify", "cse"]), None);
    // IRDL written here, not the dialect's: two dialects, ops after their dialect line.
    let irdl = "irdl.dialect @toy {\n  irdl.operation @load {\n  }\n  irdl.operation @store_v2 {\n }\n}\n\
                irdl.dialect @hw {\n  irdl.type @buf {\n  }\n  irdl.operation @copy {\n }\n}\n";
    assert_eq!(irdl_op_names(&[irdl]), ["toy.load", "toy.store_v2", "hw.copy"]);
    let generic = "unregistered operation 'toy.lod' found in dialect ('toy') that does not allow unknown operations";
    assert_eq!(op_for_unknown(generic, &[irdl]).as_deref(), Some("toy.load"));
    assert_eq!(op_for_unknown("custom op 'hw.cpy' is unknown", &[irdl]).as_deref(), Some("hw.copy"));
    assert_eq!(op_for_unknown("custom op 'zz.qqq' is unknown", &[irdl]), None);
    assert_eq!(op_for_unknown("custom op 'toy.load' is unknown (tried 'func.toy.load' as well)", &[irdl]), None);
    assert_eq!(op_for_unknown("expected ')' but got 'toy.lod'", &[irdl]), None);
}
