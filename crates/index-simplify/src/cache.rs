//! A cache of simplifications for queries that are equal up to a renaming of their symbols.
//!
//! Every copy of a lowering reads its loop variables as fresh symbols (`i3`, `i7`, ...), so an
//! exact memo rarely hits. [`SimplifyCache::simplify`] answers what [`crate::simplify_without_rules`]
//! (else [`crate::simplify`]) would, once per class of queries differing only in the names.
//!
//! The key, in the numbering of the symbols by first occurrence in the input (pre-order, left
//! to right), holds everything the computation reads about a symbol (docs/index-simplification.md
//! §7, "the renaming cache"):
//! * the tree with each symbol replaced by its number;
//! * each symbol's facts (range, divisor, residue): a query equal up to renaming but with other
//!   facts is a different question;
//! * the order of the names as strings: the normal form sorts the atoms of a sum by name, and
//!   orders the operands of commutative atoms by their trees.
//!
//! With these equal, the two computations are the same run up to the renaming, so the result
//! of one, renamed, is the result of the other. Why egg's interned-symbol order can stay out of
//! the key (no pattern has a symbol leaf; two symbols share an e-class only when the facts pin
//! both to a constant, which the extractor takes) is argued in docs/index-simplification.md §7;
//! the tests rename to names of random interning order and compare every hit with a new search.
//! A query with inconsistent facts or too deep an input bypasses the renaming part.
//!
//! A renamed result shares (`Rc`) exactly where a fresh one would (the index emitter writes a
//! shared sub-tree once); an unimproved result is the input itself, as in [`crate::simplify`].

use std::collections::HashMap;
use std::rc::Rc;
use std::time::Instant;

use crate::expr::IndexExpr;
use crate::facts::{Facts, SymFact};
use crate::simplify::{simplify_with, simplify_without_rules, SimplifyOptions, SimplifyReport};

/// What a query up to renaming is (see the module documentation).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct RenamingKey {
    /// The input with symbol number `k` spelled `k`.
    shape: IndexExpr,
    /// The facts of symbol `k` at index `k`.
    facts: Vec<Option<SymFact>>,
    /// The symbol numbers in the string order of their names.
    by_name: Vec<usize>,
}

/// How often each level answered.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CacheStats {
    pub queries: usize,
    /// The same expression and facts as an earlier query.
    pub exact_hits: usize,
    /// An earlier query equal up to renaming.
    pub renamed_hits: usize,
}

/// The cache of one pass run (or one lowering run): see the module documentation.
#[derive(Default)]
pub struct SimplifyCache {
    exact: HashMap<IndexExpr, Vec<(Facts, SimplifyReport)>>,
    /// Reports in the numbered names of the key.
    renamed: HashMap<RenamingKey, SimplifyReport>,
    stats: CacheStats,
}

impl SimplifyCache {
    pub fn new() -> Self {
        SimplifyCache::default()
    }

    pub fn stats(&self) -> CacheStats {
        self.stats
    }

    /// `simplify_without_rules(expr, facts)`, else `simplify(expr, facts)`: the same report
    /// (the elapsed time aside), looked up first by value, then up to renaming.
    pub fn simplify(&mut self, expr: &IndexExpr, facts: &Facts) -> SimplifyReport {
        self.stats.queries += 1;
        if let Some((_, report)) = self.exact.get(expr).and_then(|seen| seen.iter().find(|(f, _)| f == facts)) {
            self.stats.exact_hits += 1;
            return report.clone();
        }
        let report = match renaming_key(expr, facts) {
            None => compute(expr, facts),
            Some((key, names)) => match self.renamed.get(&key) {
                Some(numbered) => {
                    self.stats.renamed_hits += 1;
                    let start = Instant::now();
                    let back = |n: &str| names.get(number(n)).cloned().unwrap_or_else(|| n.to_string());
                    let mut report = rename_report(numbered, expr, &back);
                    report.elapsed = start.elapsed();
                    report
                }
                None => {
                    let report = compute(expr, facts);
                    let numbers: HashMap<&str, usize> =
                        names.iter().enumerate().map(|(k, n)| (n.as_str(), k)).collect();
                    let to_number = |n: &str| numbers.get(n).map_or_else(|| n.to_string(), |k| k.to_string());
                    let numbered = rename_report(&report, &key.shape, &to_number);
                    self.renamed.insert(key, numbered);
                    report
                }
            },
        };
        self.exact.entry(expr.clone()).or_default().push((facts.clone(), report.clone()));
        report
    }
}

/// The computation the cache stands for.
fn compute(expr: &IndexExpr, facts: &Facts) -> SimplifyReport {
    simplify_without_rules(expr, facts).unwrap_or_else(|| simplify_with(expr, facts, &SimplifyOptions::default()))
}

/// The number of a numbered symbol (always one the key gave).
fn number(name: &str) -> usize {
    name.parse().unwrap_or(usize::MAX)
}

/// The key of `(expr, facts)` and the names by number; `None` for a query the renaming part
/// does not serve.
fn renaming_key(expr: &IndexExpr, facts: &Facts) -> Option<(RenamingKey, Vec<String>)> {
    if facts.check().is_err() || expr.depth() > SimplifyOptions::default().max_depth {
        return None;
    }
    let mut names: Vec<String> = Vec::new();
    let shape = numbered(expr, &mut names, &mut HashMap::new());
    let mut by_name: Vec<usize> = (0..names.len()).collect();
    by_name.sort_by(|a, b| names[*a].cmp(&names[*b]));
    let facts = names.iter().map(|n| facts.get(n).copied()).collect();
    Some((RenamingKey { shape, facts, by_name }, names))
}

/// `e` with each symbol replaced by its number of first occurrence (pre-order, left to right).
fn numbered(e: &IndexExpr, names: &mut Vec<String>, numbers: &mut HashMap<String, usize>) -> IndexExpr {
    match e {
        IndexExpr::Const(_) => e.clone(),
        IndexExpr::Sym(n) => {
            let k = *numbers.entry(n.clone()).or_insert_with(|| {
                names.push(n.clone());
                names.len() - 1
            });
            IndexExpr::Sym(k.to_string())
        }
        IndexExpr::Bin(op, a, b) => {
            let a = numbered(a, names, numbers);
            let b = numbered(b, names, numbers);
            IndexExpr::bin(*op, a, b)
        }
    }
}

/// `report` with its symbols renamed by `rename` and its input replaced by `input` (an
/// unimproved result is the input itself, as the simplifier returns it).
fn rename_report(report: &SimplifyReport, input: &IndexExpr, rename: &dyn Fn(&str) -> String) -> SimplifyReport {
    let expr = if report.improved() { renamed(&report.expr, rename, &mut HashMap::new()) } else { input.clone() };
    SimplifyReport { input: input.clone(), expr, ..report.clone() }
}

/// `e` with each symbol renamed, sharing exactly where `e` shares (one new `Rc` per `Rc` of `e`).
fn renamed(
    e: &IndexExpr,
    rename: &dyn Fn(&str) -> String,
    memo: &mut HashMap<*const IndexExpr, Rc<IndexExpr>>,
) -> IndexExpr {
    match e {
        IndexExpr::Const(_) => e.clone(),
        IndexExpr::Sym(n) => IndexExpr::Sym(rename(n)),
        IndexExpr::Bin(op, a, b) => {
            let mut operand = |x: &Rc<IndexExpr>| {
                if let Some(done) = memo.get(&Rc::as_ptr(x)) {
                    return done.clone();
                }
                let done = Rc::new(renamed(x, rename, memo));
                memo.insert(Rc::as_ptr(x), done.clone());
                done
            };
            let (a, b) = (operand(a), operand(b));
            IndexExpr::Bin(*op, a, b)
        }
    }
}
