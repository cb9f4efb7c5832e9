//! The command line (clap): `--help`, `--version`, `--completions SHELL` and "did you mean"
//! for misspelled flags. Every argument that does not start with `--` is an expression (or
//! the `table`/`svg` word), so expressions like `-3` are never taken for flags.

use clap::{error::ErrorKind, Arg, ArgAction, Command};

/// What the flags ask for.
pub enum Request {
    /// Evaluate these arguments (none: read stdin).
    Evaluate(Vec<String>),
    /// Print this text (help, version, a completion script) and exit successfully.
    Print(String),
    /// A command-line mistake: clap's message, with its suggestion.
    Mistake(String),
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
        .arg(Arg::new("expressions").action(ArgAction::Append).help("Expressions, or `table EXPR`, `svg EXPR`"))
}

pub fn parse(args: Vec<String>, help: &str) -> Request {
    let (mut flags, mut expressions) = (Vec::new(), Vec::new());
    let mut args = args.into_iter();
    while let Some(arg) = args.next() {
        if arg == "--completions" {
            flags.push(arg);
            flags.extend(args.next());
        } else if arg.starts_with("--") || arg == "-h" || arg == "-V" {
            flags.push(arg);
        } else {
            expressions.push(arg);
        }
    }
    if flags.is_empty() {
        return Request::Evaluate(expressions);
    }
    let mut cmd = command(help);
    let matches = match cmd.try_get_matches_from_mut(std::iter::once("layout-calc".to_string()).chain(flags)) {
        Ok(matches) => matches,
        Err(error) if matches!(error.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion) => {
            return Request::Print(error.to_string())
        }
        Err(error) => {
            let text = error.render().to_string();
            let lines: Vec<&str> = text
                .lines()
                .map(str::trim)
                .take_while(|l| !l.starts_with("Usage:") && !l.starts_with("For more information"))
                .filter(|l| !l.is_empty())
                .collect();
            return Request::Mistake(lines.join(" ").trim_start_matches("error: ").to_string());
        }
    };
    if let Some(shell) = matches.get_one::<clap_complete::Shell>("completions") {
        let mut script = Vec::new();
        clap_complete::generate(*shell, &mut cmd, "layout-calc", &mut script);
        return Request::Print(String::from_utf8_lossy(&script).into_owned());
    }
    Request::Evaluate(expressions)
}
