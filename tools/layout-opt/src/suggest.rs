//! "Did you mean": the closest known name to a misspelled pass, option or op name.

use layout_dialect::{ASCENDC_IRDL_SOURCE, IRDL_SOURCE};

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

/// Every op of the dialects defined in IRDL (`layout.*`, `ascendc.*`), read from their
/// definitions so the list cannot drift from them.
pub fn irdl_op_names() -> Vec<String> {
    let mut names = Vec::new();
    for source in [IRDL_SOURCE, ASCENDC_IRDL_SOURCE] {
        let mut dialect = "";
        for line in source.lines().map(str::trim) {
            if let Some(rest) = line.strip_prefix("irdl.dialect @") {
                dialect = rest.split(|c: char| !(c.is_alphanumeric() || c == '_')).next().unwrap_or("");
            } else if let Some(rest) = line.strip_prefix("irdl.operation @") {
                let op = rest.split(|c: char| !(c.is_alphanumeric() || c == '_')).next().unwrap_or("");
                names.push(format!("{dialect}.{op}"));
            }
        }
    }
    names
}

/// For MLIR's "unregistered operation 'layout.lod' found in dialect ..." message, the
/// registered op the name most likely meant.
pub fn op_for_unregistered(message: &str) -> Option<String> {
    let rest = message.strip_prefix("unregistered operation '")?;
    let name = &rest[..rest.find('\'')?];
    let known = irdl_op_names();
    closest(name, known.iter().map(String::as_str)).map(str::to_string)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suggests_close_names_only() {
        assert_eq!(closest("layout-verfy", ["layout-fold", "layout-verify", "cse"]), Some("layout-verify"));
        assert_eq!(closest("canonicalise", ["cse", "canonicalize"]), Some("canonicalize"));
        assert_eq!(closest("no-such-flag", ["layout-verify", "cse"]), None);
        let ops = irdl_op_names();
        assert!(ops.iter().any(|o| o == "layout.load") && ops.iter().any(|o| o.starts_with("ascendc.")), "{ops:?}");
        let message =
            "unregistered operation 'layout.lod' found in dialect ('layout') that does not allow unknown operations";
        assert_eq!(op_for_unregistered(message).as_deref(), Some("layout.load"));
    }
}
