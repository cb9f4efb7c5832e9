//! "Did you mean": the closest known name to a misspelled flag, pass, subcommand, function or
//! op name, by one measure for every tool.

/// The known name closest to `name` (Jaro–Winkler similarity above 0.8, clap's threshold for
/// its own suggestions), or `None` when nothing is close.
pub fn closest<'a>(name: &str, known: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    known
        .into_iter()
        .map(|candidate| (strsim::jaro_winkler(name, candidate), candidate))
        .filter(|(score, _)| *score > 0.8)
        .max_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, candidate)| candidate)
}

/// Every op (`dialect.op`) that the IRDL `sources` define, read from the definitions so the list
/// cannot drift from them.
pub fn irdl_op_names(sources: &[&str]) -> Vec<String> {
    let word = |rest: &str| rest.split(|c: char| !(c.is_alphanumeric() || c == '_')).next().unwrap_or("").to_string();
    let mut names = Vec::new();
    for source in sources {
        let mut dialect = String::new();
        for line in source.lines().map(str::trim) {
            if let Some(rest) = line.strip_prefix("irdl.dialect @") {
                dialect = word(rest);
            } else if let Some(rest) = line.strip_prefix("irdl.operation @") {
                names.push(format!("{dialect}.{}", word(rest)));
            }
        }
    }
    names
}

/// The op name MLIR's parser could not find, from its message: "unregistered operation 'X'
/// found in dialect ..." (generic form) or "custom op 'X' is unknown" (custom form).
pub fn unknown_op_name(message: &str) -> Option<&str> {
    let rest = ["unregistered operation '", "custom op '"].iter().find_map(|prefix| message.strip_prefix(prefix))?;
    let name = &rest[..rest.find('\'')?];
    let expected_tail = ["' found in dialect", "' is unknown"];
    expected_tail.iter().any(|tail| rest[name.len()..].starts_with(tail)).then_some(name)
}

/// For such a message, the op of the IRDL `sources` the name most likely meant; `None` for a
/// name that is one of them (an IRDL op written in custom form is not a misspelling).
pub fn op_for_unknown(message: &str, sources: &[&str]) -> Option<String> {
    let name = unknown_op_name(message)?;
    let known = irdl_op_names(sources);
    closest(name, known.iter().map(String::as_str)).filter(|op| *op != name).map(str::to_string)
}
