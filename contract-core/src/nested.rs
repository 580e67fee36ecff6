//! The compile-time check of nested types: the root asks, the nested type answers.
//!
//! Not public API: the derives emit every use of these items.
//!
//! A published contract `C` at major `N` (its snapshot exists) is checked at compile time by
//! its own derive, which sees its own fields only. The types it holds are checked by *their*
//! derives, which read the crate's snapshot folders: for every published `(contract, major)`
//! whose snapshot holds a type of the same name, a nested type's derive rebuilds its own
//! definition from its syntax, runs the compatibility engine on the whole published schema
//! with that definition replaced, and answers with what it found:
//!
//! - `impl PublishedIn<C, N> for Line { const FINDINGS }`: every breaking finding (rule,
//!   path from the root, innermost field, directions), for the candidate definition whose
//!   Rust path matches `module_path!()`;
//! - `impl<R: HandoffContract> CheckedIn<C, N, R> for Line { const CHECK }`: a `const` that
//!   panics at the offending field or variant when a finding is not accepted by the root
//!   `R` (its `allow`s, under its current `mode`: [`mask`]), then asks the types below it
//!   along the published type graph's tree (never around a cycle).
//!
//! `C` is the contract's place in the sorted list of the contract names of the crate's
//! snapshot folders (both derives list the same folders while the crate compiles), and the
//! answer checks `R`'s name as well. The root's derive evaluates
//! `<Probe<Line, C, N, Root>>::CHECK` for each type its fields hold: the inherent constant
//! when `Line` answers for `(C, N)`, the empty default of [`Unanswered`] otherwise, so that a
//! type nobody published, a new major version and a type no contract holds any more all
//! compile.

use core::marker::PhantomData;

use contract_schema::{ContractInfo, Mode};

/// One breaking finding a nested type's derive found against a published contract.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NestedFinding {
    /// The rule id.
    pub rule: &'static str,
    /// The finding's path from the contract's root (`lines[].qty`).
    pub path: &'static str,
    /// The wire name of its innermost field, or empty.
    pub field: &'static str,
    /// It breaks new readers of old data.
    pub backward: bool,
    /// It breaks old readers of new data.
    pub forward: bool,
}

/// The findings of a nested type against the published contract numbered `C` (see the
/// module docs) at major `N`.
pub trait PublishedIn<const C: u32, const N: u32> {
    /// Every breaking finding, in bit order (see [`mask`]).
    const FINDINGS: &'static [NestedFinding];
}

/// The check of a nested type, asked by the root `R` of the published contract `(C, N)`.
pub trait CheckedIn<const C: u32, const N: u32, R: ?Sized> {
    /// Panics at the offending field or variant when a finding is not accepted by `R`.
    const CHECK: ();
}

/// What a root (or a nested type) asks of the type `T` it holds: see [`Unanswered`].
pub struct Probe<T: ?Sized, const C: u32, const N: u32, R: ?Sized>(
    PhantomData<fn() -> (*const T, *const R)>,
);

/// The answer of a type that does not answer: nothing to check, nothing found. An inherent
/// constant of [`Probe`] takes precedence over this trait's when `T` answers.
pub trait Unanswered {
    /// Nothing to check.
    const CHECK: () = ();
    /// Nothing found.
    const FINDINGS: &'static [NestedFinding] = &[];
}

impl<T: ?Sized, const C: u32, const N: u32, R: ?Sized> Unanswered for Probe<T, C, N, R> {}

impl<T: ?Sized + CheckedIn<C, N, R>, const C: u32, const N: u32, R: ?Sized> Probe<T, C, N, R> {
    /// `T`'s check.
    pub const CHECK: () = <T as CheckedIn<C, N, R>>::CHECK;
}

impl<T: ?Sized + PublishedIn<C, N>, const C: u32, const N: u32, R: ?Sized> Probe<T, C, N, R> {
    /// `T`'s findings.
    pub const FINDINGS: &'static [NestedFinding] = <T as PublishedIn<C, N>>::FINDINGS;
}

/// The findings that break `contract` (its current mode, its allowances), one bit each, in
/// the order of `findings` (the first 64: a derive answers with no more).
#[must_use]
pub const fn mask(findings: &[NestedFinding], contract: &ContractInfo) -> u64 {
    let (backward, forward) = directions(contract.mode);
    let mut mask = 0;
    let mut i = 0;
    while i < findings.len() && i < 64 {
        let f = &findings[i];
        if ((f.backward && backward) || (f.forward && forward)) && !allowed(f, contract) {
            mask |= 1 << i;
        }
        i += 1;
    }
    mask
}

/// Whether one of the contract's allowances covers the finding, as
/// [`Allowance::covers`](contract_schema::compat::Allowance::covers) decides it.
#[must_use]
pub const fn allowed(finding: &NestedFinding, contract: &ContractInfo) -> bool {
    let mut i = 0;
    while i < contract.allows.len() {
        let allow = &contract.allows[i];
        if contract_schema::compat::covers(
            allow.rule,
            allow.field,
            finding.rule,
            finding.path,
            finding.field,
        ) {
            return true;
        }
        i += 1;
    }
    false
}

/// The directions a mode checks: (backward, forward).
const fn directions(mode: Mode) -> (bool, bool) {
    match mode {
        Mode::Backward | Mode::BackwardTransitive => (true, false),
        Mode::Forward | Mode::ForwardTransitive => (false, true),
        Mode::Full | Mode::FullTransitive => (true, true),
    }
}

/// Whether `contract` is the contract `name`.
#[must_use]
pub const fn is_contract(contract: &ContractInfo, name: &str) -> bool {
    same(contract.name.as_bytes(), name.as_bytes())
}

/// Whether `module_path` (a `module_path!()`) is the module `suffix` below its crate's root:
/// `app::orders` is `orders`, `app` is the empty suffix. A snapshot names a type by its Rust
/// path; the crate's own name is left out, so that the check does not depend on it.
#[must_use]
pub const fn module_is(module_path: &str, suffix: &str) -> bool {
    let path = module_path.as_bytes();
    let mut start = 0;
    // Skip the crate's name and the `::` after it.
    while start < path.len() && path[start] != b':' {
        start += 1;
    }
    if start < path.len() {
        start += 2;
    }
    let suffix = suffix.as_bytes();
    if path.len().saturating_sub(start) != suffix.len() {
        return false;
    }
    let mut i = 0;
    while i < suffix.len() {
        if path[start + i] != suffix[i] {
            return false;
        }
        i += 1;
    }
    true
}

/// Byte equality, in a `const fn`.
const fn same(a: &[u8], b: &[u8]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

#[cfg(test)]
mod tests {
    use super::{allowed, mask, module_is, NestedFinding};
    use contract_schema::contract::AllowInfo;
    use contract_schema::{ContractInfo, Mode};

    const FINDINGS: &[NestedFinding] = &[
        NestedFinding {
            rule: "INT_NARROWED",
            path: "lines[].qty",
            field: "qty",
            backward: true,
            forward: false,
        },
        NestedFinding {
            rule: "FIELD_REMOVED",
            path: "lines[].sku",
            field: "sku",
            backward: false,
            forward: true,
        },
    ];

    fn contract(mode: Mode, allows: &'static [AllowInfo]) -> ContractInfo {
        ContractInfo {
            name: "order",
            version: 1,
            mode,
            id: "order/v1",
            snapshots_dir: "",
            allows,
        }
    }

    #[test]
    fn the_mode_and_the_allowances_choose_the_bits() {
        assert_eq!(mask(FINDINGS, &contract(Mode::Full, &[])), 0b11);
        assert_eq!(mask(FINDINGS, &contract(Mode::Backward, &[])), 0b01);
        assert_eq!(
            mask(FINDINGS, &contract(Mode::ForwardTransitive, &[])),
            0b10
        );
        const ON_LINES: &[AllowInfo] = &[AllowInfo {
            rule: "INT_NARROWED",
            field: "lines",
            reason: "r",
        }];
        assert_eq!(mask(FINDINGS, &contract(Mode::Full, ON_LINES)), 0b10);
        const OTHER_FIELD: &[AllowInfo] = &[AllowInfo {
            rule: "INT_NARROWED",
            field: "line",
            reason: "r",
        }];
        assert_eq!(mask(FINDINGS, &contract(Mode::Full, OTHER_FIELD)), 0b11);
    }

    /// Two versions of a contract whose nested types break in several ways: a narrowed
    /// integer two levels down, a removed field, a removed enum value, a field renamed.
    const OLD: &str = "contract order/v1\nmode full\nroot Order\n\n\
enum Kind\n  rust \"app::Kind\"\n  repr external\n  variant A: unit\n    send \"A\"\n    receive \"A\"\n  variant B: unit\n    send \"B\"\n    receive \"B\"\n\n\
struct Line\n  rust \"app::Line\"\n  unknown ignore\n  field sku: string\n    send \"sku\" always\n    receive \"sku\" required\n  field price: Money\n    send \"price\" always\n    receive \"price\" required\n\n\
struct Money\n  rust \"app::Money\"\n  unknown ignore\n  field cents: u64\n    send \"cents\" always\n    receive \"cents\" required\n\n\
struct Order\n  rust \"app::Order\"\n  unknown ignore\n  field lines: list<Line>\n    send \"lines\" always\n    receive \"lines\" required\n  field kind: option<Kind>\n    send \"kind\" always\n    receive \"kind\" optional\n";

    /// [`OLD`] broken: `cents` narrowed, `sku` renamed `code`, the value `B` removed.
    fn new_text() -> String {
        OLD.replace("cents: u64", "cents: u32")
            .replace(
                "field sku: string\n    send \"sku\" always\n    receive \"sku\"",
                "field code: string\n    send \"code\" always\n    receive \"code\"",
            )
            .replace("  variant B: unit\n    send \"B\"\n    receive \"B\"\n", "")
    }

    #[test]
    fn the_const_matcher_agrees_with_the_reports() {
        use contract_schema::compat::{evolve, Allowances};
        use contract_schema::snapshot::parse;
        let old = parse(OLD).expect("the old text parses");
        let new = parse(&new_text()).expect("the new text parses");
        let report = evolve(&old, &new, Mode::Full);
        assert!(report.findings().len() >= 3, "{report}");
        let leak = |s: &str| -> &'static str { Box::leak(s.to_owned().into_boxed_str()) };
        let mut compared = 0;
        for finding in report.findings() {
            let nested = NestedFinding {
                rule: finding.rule.id(),
                path: leak(&finding.path),
                field: leak(finding.field.as_deref().unwrap_or("")),
                backward: true,
                forward: true,
            };
            // Every prefix of the path at a separator, the innermost field, the whole path,
            // and near misses; the finding's rule and another.
            let mut fields: Vec<String> = finding
                .path
                .match_indices(['.', '[', '('])
                .map(|(i, _)| finding.path[..i].to_owned())
                .collect();
            fields.extend([
                finding.path.clone(),
                finding.field.clone().unwrap_or_default(),
                format!("{}x", finding.path),
                "lin".to_owned(),
                String::new(),
            ]);
            for field in &fields {
                for rule in [finding.rule.id(), "NOT_A_RULE"] {
                    let allows: &'static [AllowInfo] = Box::leak(Box::new([AllowInfo {
                        rule,
                        field: leak(field),
                        reason: "r",
                    }]));
                    let by_report = Allowances::new().allow(rule, field.as_str(), "r");
                    assert_eq!(
                        allowed(&nested, &contract(Mode::Full, allows)),
                        by_report.as_slice()[0].covers(finding),
                        "{rule} at {field:?} for {} at {}",
                        finding.rule.id(),
                        finding.path
                    );
                    compared += 1;
                }
            }
        }
        assert!(compared > 20);
    }

    #[test]
    fn a_module_is_named_below_its_crate() {
        assert!(module_is("app", ""));
        assert!(module_is("app::orders", "orders"));
        assert!(module_is("app::orders::lines", "orders::lines"));
        assert!(!module_is("app::orders", ""));
        assert!(!module_is("app", "orders"));
        assert!(!module_is("app::orders2", "orders"));
    }
}
