//! Findings: deduplication, minimization and the saved reproducers.

use crate::targets::{Problem, Setup, Target};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// What identifies one bug, so one bug found through many inputs is reported once: a panic by
/// its location (`file:line`; the message often quotes the input), a crash by its signal and
/// message, anything else by its kind and detail, numbers blanked (`#`).
pub fn key(target: &str, problem: &Problem) -> String {
    let (prefix, rest) = match (problem.kind.as_str(), problem.detail.split_once(": ")) {
        ("panic", Some((location, _))) => (location.to_string(), ""),
        ("crash", Some((signal, rest))) => (format!("{signal}: "), rest),
        _ => (String::new(), problem.detail.as_str()),
    };
    let mut blanked = String::new();
    for c in rest.chars().take(120) {
        match c {
            '0'..='9' if blanked.ends_with('#') => {}
            '0'..='9' => blanked.push('#'),
            _ => blanked.push(c),
        }
    }
    let rest = blanked;
    format!("{target}: {}: {prefix}{rest}", problem.kind)
}

/// FNV-1a, for stable file names.
fn fnv(text: &str) -> u64 {
    text.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| (h ^ b as u64).wrapping_mul(0x0100_0000_01b3))
}

pub struct Finding {
    pub reproducer: PathBuf,
    pub original_len: usize,
    pub minimized_len: usize,
    pub hits: usize,
}

#[derive(Default)]
pub struct Findings {
    pub by_key: BTreeMap<String, Finding>,
}

impl Findings {
    /// Records a hit; the first hit of a key is minimized and saved under `dir`.
    #[allow(clippy::too_many_arguments)]
    pub fn record(
        &mut self,
        target: &Target,
        setup: &Setup,
        problem: Problem,
        input: &[u8],
        variant: usize,
        dir: &Path,
        minimize_for: Duration,
    ) {
        let key = key(target.name, &problem);
        if let Some(finding) = self.by_key.get_mut(&key) {
            finding.hits += 1;
            return;
        }
        let reproduces = |candidate: &[u8]| {
            target
                .run(setup, &[candidate.to_vec()], variant)
                .iter()
                .any(|p| crate::findings::key(target.name, &Problem { index: None, ..p.clone() }) == key)
        };
        let minimized = minimize(input, reproduces, minimize_for);
        let stem = format!("{}-{:08x}", target.name, fnv(&key) as u32);
        let reproducer = dir.join(format!("{stem}.{}", target.extension));
        let _ = std::fs::create_dir_all(dir);
        let _ = std::fs::write(&reproducer, &minimized);
        let _ = std::fs::write(dir.join(format!("{stem}.original.{}", target.extension)), input);
        let note = format!(
            "{key}\nreplay: {}\n(minimized from {} to {} bytes)\n",
            target.command(&reproducer, variant),
            input.len(),
            minimized.len()
        );
        let _ = std::fs::write(dir.join(format!("{stem}.note")), note);
        let finding = Finding { reproducer, original_len: input.len(), minimized_len: minimized.len(), hits: 1 };
        self.by_key.insert(key, finding);
    }
}

/// Greedy delta debugging: removes ever smaller byte spans while `reproduces` holds, until no
/// single byte can go or `budget` has passed. The input itself is assumed to reproduce.
pub fn minimize(input: &[u8], reproduces: impl Fn(&[u8]) -> bool, budget: Duration) -> Vec<u8> {
    let start = Instant::now();
    let mut best = input.to_vec();
    let mut span = best.len().div_ceil(2).max(1);
    while !best.is_empty() && start.elapsed() < budget {
        let mut removed_any = false;
        let mut at = 0;
        while at < best.len() && start.elapsed() < budget {
            let end = (at + span).min(best.len());
            let candidate: Vec<u8> = best[..at].iter().chain(&best[end..]).copied().collect();
            if reproduces(&candidate) {
                best = candidate;
                removed_any = true;
            } else {
                at += span;
            }
        }
        if !removed_any {
            if span == 1 {
                break;
            }
            span = span.div_ceil(2);
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn minimizes_to_the_bytes_that_matter() {
        let input = b"((16,7),(16,7)):((16,256),(1,X1792)) origin (100,Y100)";
        let needs_x_then_y = |c: &[u8]| {
            let x = c.iter().position(|&b| b == b'X');
            let y = c.iter().position(|&b| b == b'Y');
            matches!((x, y), (Some(x), Some(y)) if x < y)
        };
        assert_eq!(minimize(input, needs_x_then_y, Duration::from_secs(10)), b"XY");
    }

    #[test]
    fn keys_ignore_numbers() {
        let p = |detail: &str| Problem { index: Some(1), kind: "panic".into(), detail: detail.into() };
        assert_eq!(key("parse", &p("src/a.rs:12: index 7 of `(1,€`")), key("parse", &p("src/a.rs:12: index 9 of `€`")));
        assert_ne!(key("parse", &p("src/a.rs:12: x")), key("parse", &p("src/a.rs:13: x")));
        assert_ne!(key("parse", &p("src/a.rs:12: x")), key("npy", &p("src/a.rs:12: x")));
        let q =
            |detail: &str| Problem { index: None, kind: "failure without a diagnostic".into(), detail: detail.into() };
        assert_eq!(key("opt", &q("<stdin>:3:1: error: x")), key("opt", &q("<stdin>:40:7: error: x")));
    }
}
