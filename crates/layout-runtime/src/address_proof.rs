//! Lowered addresses equal the algebra, proven for all sizes at once (issue 15 item 3).
//!
//! [`prove_addresses`] lowers a copy of the kernel as [`crate::self_check`] does (one side
//! function per tensor value, holding the same address code as the ops, then the same address
//! simplification as the JIT hook), and instead of running the side functions it translates
//! each one's stored address — the `arith` ops as they are after `layout-simplify-offsets` and
//! its clean-up — into SMT (module [`translate`]) and asks z3 whether, for some value of the
//! parameters and some coordinate of the padded domain the loops enumerate, it differs from the
//! algebra's `crd_to_offset` or an intermediate leaves `i64`. Function arguments range over
//! `[0, 2^31)` ([`SIZE_LIMIT`]; [`AddressProofOptions::size_limit`] for another range); loop
//! variables over what their loops give (bounds read from the IR); tile coordinates over the
//! values of the side function's own loops.
//!
//! Semantics: integers with a range condition on every intermediate of the lowered code (so
//! "no overflow" is part of the claim); `divsi`/`remsi` truncate, `floordivsi` floors, unsigned
//! ops read their operands modulo 2^64, shifts and masks by constants. An op outside that list
//! makes the verdict unknown, never proven. Details: docs/index-simplification.md §14.

pub mod accesses;
pub mod inject;
pub mod intrinsics;
pub mod translate;

use std::fmt;
use std::time::{Duration, Instant};

use index_simplify::smt::{check, encode, Answer, ModelValue, Query};
use index_simplify::IndexExpr;
use layout_algebra::SymExpr;
use layout_passes::lower_to_loops::{CheckSpec, SymOrigin};
use layout_passes::verify::Rules;
use melior::ir::{block::BlockLike, operation::OperationLike, Module, OperationRef, RegionLike, ValueLike};

use crate::Result;
use translate::Translator;

/// Function arguments (sizes) are proven for every value in `[0, SIZE_LIMIT)`.
pub const SIZE_LIMIT: i64 = 1 << 31;

/// How hard the solver tries.
#[derive(Clone, Debug)]
pub struct AddressProofOptions {
    pub timeout: Duration,
    /// Function arguments range over `[0, size_limit)`. [`SIZE_LIMIT`] by default; a kernel
    /// whose address multiplies three sizes (a batch form: `b · M · K`) overflows `i64` there,
    /// and is proven for a smaller range.
    pub size_limit: i64,
}

impl AddressProofOptions {
    /// 10 s per tensor: the default of the test suite.
    pub fn fast() -> Self {
        AddressProofOptions { timeout: Duration::from_secs(10), size_limit: SIZE_LIMIT }
    }
    /// 120 s per tensor.
    pub fn full() -> Self {
        AddressProofOptions { timeout: Duration::from_secs(120), size_limit: SIZE_LIMIT }
    }
}

/// The outcome for one tensor.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AddressVerdict {
    Proven,
    /// Values (parameters by their layout symbol, `local#k` the coordinate in the padded domain,
    /// loop variables of the side function) at which the lowered address differs from the
    /// algebra or an intermediate overflows (an overflowing address is outside `i64`).
    Counterexample(Vec<(String, ModelValue)>),
    /// Timeout, or code the translation does not read (the reason).
    Unknown(String),
}

/// One tensor's proof.
#[derive(Clone, Debug)]
pub struct TensorProof {
    pub tensor: String,
    /// The side function, or for a kernel access ([`accesses`]) its witness.
    pub side_function: String,
    /// A kernel access's layout op (`file:line:col` when known); `None` for a side function.
    pub location: Option<String>,
    pub verdict: AddressVerdict,
    pub elapsed: Duration,
}

/// What one proof is about (the report's wording).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ProofSubject {
    /// One side function per tensor value ([`prove_addresses`]).
    #[default]
    Tensors,
    /// The kernel's loads and stores ([`accesses`]).
    Accesses,
    /// The AscendC path's intrinsic calls ([`intrinsics`]).
    IntrinsicCalls,
}

impl ProofSubject {
    fn noun(self) -> &'static str {
        match self {
            ProofSubject::Tensors => "tensors",
            ProofSubject::Accesses => "accesses",
            ProofSubject::IntrinsicCalls => "intrinsic calls",
        }
    }
}

/// What [`prove_addresses`] found.
#[derive(Clone, Debug, Default)]
pub struct AddressProofReport {
    /// One entry per tensor, access or intrinsic call ([`AddressProofReport::subject`]).
    pub tensors: Vec<TensorProof>,
    pub subject: ProofSubject,
    /// Tensors without a side function (the lowering's reason).
    pub unchecked: Vec<String>,
    /// The lowering and the address simplification (`layout-simplify-offsets` and its
    /// clean-up) of the copy, to compare with the solver's time.
    pub lowering_time: Duration,
    /// Solver time outside the entries: the intrinsic proof's range lemmas on user values.
    pub lemma_time: Duration,
}

impl AddressProofReport {
    fn count(&self, f: fn(&AddressVerdict) -> bool) -> usize {
        self.tensors.iter().filter(|t| f(&t.verdict)).count()
    }
    pub fn proven(&self) -> usize {
        self.count(|v| *v == AddressVerdict::Proven)
    }
    pub fn counterexamples(&self) -> usize {
        self.count(|v| matches!(v, AddressVerdict::Counterexample(_)))
    }
    pub fn unknown(&self) -> usize {
        self.count(|v| matches!(v, AddressVerdict::Unknown(_)))
    }
    pub fn solver_time(&self) -> Duration {
        self.tensors.iter().map(|t| t.elapsed).sum::<Duration>() + self.lemma_time
    }
}

impl fmt::Display for AddressProofReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "address proofs: {} {}: {} proven, {} counterexamples, {} unknown; {} not covered; solver {:.1} ms, lowering and simplification {:.1} ms",
            self.tensors.len(),
            self.subject.noun(),
            self.proven(),
            self.counterexamples(),
            self.unknown(),
            self.unchecked.len(),
            self.solver_time().as_secs_f64() * 1e3,
            self.lowering_time.as_secs_f64() * 1e3
        )?;
        for t in &self.tensors {
            let at = t.location.as_ref().map(|l| format!("{l}: ")).unwrap_or_default();
            match &t.verdict {
                AddressVerdict::Proven => {}
                AddressVerdict::Counterexample(values) => {
                    let shown: Vec<String> = values.iter().map(|(s, v)| format!("{s} = {v}")).collect();
                    write!(f, "\n  counterexample: {at}{}: {}", t.tensor, shown.join(", "))?;
                }
                AddressVerdict::Unknown(why) => write!(f, "\n  unknown: {at}{}: {why}", t.tensor)?,
            }
        }
        Ok(())
    }
}

/// Proves every lowered address of `module` (which may contain layout ops; the lowering
/// verifies it with every `layout-verify` rule) after the JIT hook's simplification.
pub fn prove_addresses(module: &Module, opts: &AddressProofOptions) -> Result<AddressProofReport> {
    prove_addresses_with(module, Rules::default(), &crate::layout_lowering::simplify_lowered, opts)
}

/// [`prove_addresses`] with `rules` and with `after_lowering` in place of the simplification
/// (tests inject a wrong rewrite there, as for [`crate::self_check::self_check_with`]).
pub fn prove_addresses_with(
    module: &Module,
    rules: Rules,
    after_lowering: &dyn Fn(&mut Module) -> Result<()>,
    opts: &AddressProofOptions,
) -> Result<AddressProofReport> {
    let start = Instant::now();
    let (copy, lowered) = crate::self_check::lower_for_checks(module, rules, after_lowering, "address proof")?;
    let lowering_time = start.elapsed();
    let mut report = AddressProofReport { unchecked: lowered.unchecked, lowering_time, ..Default::default() };
    for spec in &lowered.checks {
        let start = Instant::now();
        let verdict = match side_function(&copy, &spec.side_function) {
            None => AddressVerdict::Unknown(format!("side function @{} not found", spec.side_function)),
            Some(func) => prove_spec(func, spec, opts),
        };
        let elapsed = start.elapsed();
        report.tensors.push(TensorProof {
            tensor: spec.tensor.clone(),
            side_function: spec.side_function.clone(),
            location: None,
            verdict,
            elapsed,
        });
    }
    Ok(report)
}

/// The `func.func @name` at the top of `module`.
fn side_function<'c, 'a>(module: &'a Module<'c>, name: &str) -> Option<OperationRef<'c, 'a>> {
    let mut op = module.body().first_operation();
    while let Some(o) = op {
        let named = o
            .attribute("sym_name")
            .ok()
            .and_then(|a| melior::ir::attribute::StringAttribute::try_from(a).ok())
            .is_some_and(|s| s.value() == name);
        if named {
            return Some(o);
        }
        op = o.next_in_block();
    }
    None
}

/// The algebra's address of local coordinate `locals` (`crd_to_offset(layout, coord + local)`
/// with the coordinate structured like the origin), as an expression over the spec's symbols.
fn algebra_address(
    layout: &layout_algebra::Layout<SymExpr>,
    coord: &[SymExpr],
    locals: &[SymExpr],
) -> std::result::Result<SymExpr, String> {
    let global = coord
        .iter()
        .zip(locals)
        .map(|(c, l)| SymExpr::bin(layout_algebra::sym::BinOp::Add, c, l))
        .collect::<layout_algebra::Result<Vec<_>>>()
        .map_err(|e| e.to_string())?;
    let crd = layout.origin().unflatten(&global).map_err(|e| e.to_string())?;
    layout.crd_to_offset(&crd).map_err(|e| e.to_string())
}

/// The model's names of the lowered address and the algebra's (in a counterexample).
pub const LOWERED: &str = "lowered";
pub const ALGEBRA: &str = "algebra";

/// The name of the `k`-th local coordinate in the algebra's formula.
fn local_symbol(k: usize) -> String {
    format!("local#{k}")
}

/// Asks the negated obligation and, so that a proof is never vacuous, whether the facts alone
/// (parameters in range, the path to the store) admit some point.
fn prove_spec(func: OperationRef, spec: &CheckSpec, opts: &AddressProofOptions) -> AddressVerdict {
    decide(obligation(func, spec, opts.size_limit), opts)
}

/// The verdict on `(negated obligation, facts alone)`.
fn decide(queries: std::result::Result<(Query, Query), String>, opts: &AddressProofOptions) -> AddressVerdict {
    let (negated, reachable) = match queries {
        Ok(q) => q,
        Err(why) => return AddressVerdict::Unknown(why),
    };
    match check(&[negated, reachable], opts.timeout).as_deref() {
        Err(e) => AddressVerdict::Unknown(e.to_string()),
        Ok([Answer::Unsat, Answer::Sat(_)]) => AddressVerdict::Proven,
        Ok([Answer::Unsat, Answer::Unsat]) => {
            AddressVerdict::Unknown("vacuous: no parameter value reaches the store".into())
        }
        Ok([Answer::Sat(values), _]) => AddressVerdict::Counterexample(values.clone()),
        Ok([Answer::Unknown(why), _] | [_, Answer::Unknown(why)]) => AddressVerdict::Unknown(why.clone()),
        Ok(other) => AddressVerdict::Unknown(format!("unexpected answers {other:?}")),
    }
}

/// `path ∧ parameters in range ∧ ¬(every intermediate in i64 ∧ lowered = algebra)` for the
/// one `memref.store` of the side function (into its first argument), and the same facts
/// without the negated goal.
fn obligation(func: OperationRef, spec: &CheckSpec, size_limit: i64) -> std::result::Result<(Query, Query), String> {
    let body = func.region(0).ok().and_then(|r| r.first_block()).ok_or("side function without a body")?;
    let out = body.argument(0).map_err(|e| e.to_string())?;
    let mut store = None;
    func.walk(melior::ir::operation::WalkOrder::PreOrder, |op| {
        let into_out = op.operand(1).is_ok_and(|m| m.to_raw().ptr == out.to_raw().ptr);
        if layout_passes::ir::op_name(&op) == "memref.store" && into_out {
            store = Some(op.to_raw());
        }
        melior::ir::operation::WalkResult::Advance
    });
    // Safety: the op is alive (the module is not changed while proving).
    let store = unsafe { OperationRef::from_raw(store.ok_or("no store of the address")?) };
    let mut t = Translator::new(body);
    let address = t.int(store.operand(0).map_err(|e| e.to_string())?)?;
    let mut facts = t.path(&store)?;
    // Parameters: the layout's symbols are the side function's arguments 1.. in order.
    for (k, (symbol, origin)) in spec.params.iter().enumerate() {
        let arg = t.int(body.argument(k + 1).map_err(|e| e.to_string())?.into())?;
        if matches!(origin, SymOrigin::Arg { .. }) {
            facts.push(format!("(<= 0 {arg})"));
            facts.push(format!("(< {arg} {size_limit})"));
        }
        let name = encode::symbol(symbol);
        facts.push(format!("(= {name} {arg})"));
        t.declare(symbol);
    }
    let indices: Vec<_> = store.operands().skip(2).collect();
    if indices.len() != spec.extents.len() {
        return Err(format!("the store has {} indices for {} extents", indices.len(), spec.extents.len()));
    }
    let mut locals = Vec::new();
    for (k, index) in indices.into_iter().enumerate() {
        let term = t.int(index)?;
        let name = local_symbol(k);
        facts.push(format!("(= {} {term})", encode::symbol(&name)));
        t.declare(&name);
        locals.push(SymExpr::sym(&name));
    }
    let expected = IndexExpr::from(&algebra_address(&spec.layout, &spec.coord, &locals)?);
    goal(&mut t, facts, &address, &expected)
}

/// `facts ∧ ¬(every intermediate in i64 ∧ address = expected)`, and `facts` alone (is the
/// access reachable): the end of every obligation (side functions, accesses). The lowered and
/// the algebra's addresses are named for a counterexample.
pub(super) fn goal(
    t: &mut Translator,
    mut facts: Vec<String>,
    address: &str,
    expected: &IndexExpr,
) -> std::result::Result<(Query, Query), String> {
    if !encode::int_expressible(expected) {
        return Err(format!("the algebra's address {expected} has bit operations"));
    }
    // Over ℤ: the algebra's formula is the reference, whatever its own intermediates.
    let expected = encode::encode(expected, encode::Theory::Int, encode::Semantics::Checked).value;
    t.declare_unbounded(LOWERED);
    t.declare_unbounded(ALGEBRA);
    facts.push(format!("(= {} {address})", encode::symbol(LOWERED)));
    facts.push(format!("(= {} {expected})", encode::symbol(ALGEBRA)));
    let reachable = t.query(facts.clone());
    facts.push(format!("(not (and {} (= {address} {expected})))", encode::conj(&t.defined)));
    Ok((t.query(facts), reachable))
}
