//! The command line (clap, errors through `cli_common`): `--help`, `--version`,
//! `--completions SHELL`, `--list-functions`, `--input FILE` (repeatable) and "did you mean"
//! for misspelled flags. Every argument that does not start with `--` is an expression (or
//! the `table`/`svg` word), so expressions like `-3` are never taken for flags.

use clap::{Arg, ArgAction, Command};
use cli_common::CliError;

/// What the flags ask for.
pub enum Request {
    /// Evaluate these arguments (none and no `inputs`: read stdin), then the lines of each
    /// input file in order (`-`: stdin).
    Evaluate { expressions: Vec<String>, inputs: Vec<String> },
    /// Print this text (help, version, a completion script, the functions) and exit successfully.
    Print(String),
}

fn command(help: &str) -> Command {
    Command::new("layout-calc")
        .version(env!("CARGO_PKG_VERSION"))
        .override_help(help.to_string())
        .arg(
            Arg::new("completions")
                .long("completions")
                .value_name("SHELL")
                .value_parser(clap::value_parser!(clap_complete::Shell))
                .help("Print a shell completion script"),
        )
        .arg(Arg::new("list-functions").long("list-functions").action(ArgAction::SetTrue).help("List the functions"))
        .arg(
            Arg::new("input")
                .long("input")
                .short('i')
                .value_name("FILE")
                .action(ArgAction::Append)
                .help("Read expressions from FILE, one per line ('-': stdin); repeatable, in order"),
        )
        .arg(Arg::new("expressions").action(ArgAction::Append).help("Expressions, or `table EXPR`, `svg EXPR`"))
}

/// Flags that take a value (the next argument, unless given as `--flag=value`).
const WITH_VALUE: &[&str] = &["--completions", "--input", "-i"];

pub fn parse(args: Vec<String>, help: &str, functions: &str) -> Result<Request, CliError> {
    let (mut flags, mut expressions) = (Vec::new(), Vec::new());
    let mut args = args.into_iter();
    while let Some(arg) = args.next() {
        if WITH_VALUE.contains(&arg.as_str()) {
            flags.push(arg);
            flags.extend(args.next());
        } else if arg.starts_with("--") || arg == "-h" || arg == "-V" {
            flags.push(arg);
        } else {
            expressions.push(arg);
        }
    }
    if flags.is_empty() {
        return Ok(Request::Evaluate { expressions, inputs: Vec::new() });
    }
    let mut cmd = command(help);
    let matches = cmd
        .try_get_matches_from_mut(std::iter::once("layout-calc".to_string()).chain(flags))
        .map_err(cli_common::from_clap)?;
    if let Some(shell) = matches.get_one::<clap_complete::Shell>("completions") {
        let script = cli_common::completions(*shell, &mut cmd, "layout-calc");
        return Ok(Request::Print(String::from_utf8_lossy(&script).into_owned()));
    }
    if matches.get_flag("list-functions") {
        return Ok(Request::Print(functions.to_string()));
    }
    let inputs = matches.get_many::<String>("input").map(|files| files.cloned().collect()).unwrap_or_default();
    Ok(Request::Evaluate { expressions, inputs })
}
