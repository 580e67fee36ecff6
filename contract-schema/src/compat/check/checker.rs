//! The checker's state and its reporting: one writer, one reader, the direction, the path
//! walked so far, the pairs of types compared, and the findings. Comparing types is in
//! `types`, structs in `structs`, enums in `enums`, a struct against a map in `struct_map`.

use std::cell::OnceCell;
use std::collections::HashSet;

use super::paths::{render, Seg};
use crate::compat::direction::Direction;
use crate::compat::fix::{self, Fix};
use crate::compat::report::Finding;
use crate::model::Schema;
use crate::rules::Rule;

/// How deep the comparison follows nested types before it stops with `SCHEMA_TOO_DEEP`.
pub(crate) const MAX_DEPTH: usize = 256;

/// One side of a compared pair: a named type by name, or one occurrence of an unnamed type
/// by its address in the schema (stable for the checker's lifetime).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(super) enum Side<'a> {
    Named(&'a str),
    At(usize),
}

/// A (writer's, reader's) pair of types.
pub(super) type Pair<'a> = (Side<'a>, Side<'a>);

/// Compares one writer with one reader and collects the findings.
pub(crate) struct Checker<'a> {
    pub(super) writer: &'a Schema,
    pub(super) reader: &'a Schema,
    pub(super) direction: Direction,
    pub(super) against: Option<usize>,
    /// Whether the contract's mode checks both directions (`full`): a fix offered must then
    /// hold both ways, not only in this direction.
    pub(super) both: bool,
    pub(super) path: Vec<Seg<'a>>,
    /// Pairs (writer's, reader's) with at least one named side already compared or being
    /// compared.
    pub(super) visited: HashSet<Pair<'a>>,
    pub(super) findings: Vec<Finding>,
    /// The pairs whose comparison (not a trial's) found something, or met such a pair
    /// again: a trial that meets one again does not fit, whatever order the pairs were
    /// first met in.
    pub(super) broken: HashSet<Pair<'a>>,
    /// How many findings outside a trial, and meetings of a broken pair again, there were:
    /// a pair is broken when this grew while it was compared.
    pub(super) broken_count: usize,
    /// A trial met a broken pair again: it does not fit.
    pub(super) trial_broken: bool,
    /// A trial stops at its first finding and only answers "does it fit".
    pub(super) trial: bool,
    /// The pairs a trial added to `visited`, removed when the trial ends.
    pub(super) trial_log: Vec<Pair<'a>>,
    /// Pairs with one named side being compared now (on the current path).
    pub(super) in_progress: HashSet<Pair<'a>>,
    pub(super) depth: usize,
    /// The writer's and the reader's newtypes that loop (`Schema::looping_newtypes`),
    /// found the first time a newtype is compared.
    pub(super) writer_loops: OnceCell<HashSet<&'a str>>,
    pub(super) reader_loops: OnceCell<HashSet<&'a str>>,
}

impl<'a> Checker<'a> {
    /// Compares `writer` (sender view) with `reader` (receiver view).
    pub(crate) fn run(
        writer: &'a Schema,
        reader: &'a Schema,
        direction: Direction,
        against: Option<usize>,
        both: bool,
    ) -> Vec<Finding> {
        let mut checker = Checker::new(writer, reader, direction, against, both);
        checker.contract_names();
        checker.ty(&writer.root, &reader.root);
        let mut findings = checker.findings;
        // Two majors of one contract: the later one already is the new major version the
        // hints would offer.
        let (old, new) = match direction {
            Direction::Forward => (reader, writer),
            Direction::Check | Direction::Backward => (writer, reader),
        };
        if let (Direction::Backward | Direction::Forward, Some(old), Some(new)) =
            (direction, &old.contract, &new.contract)
        {
            if old.name == new.name && new.version > old.version {
                for finding in &mut findings {
                    finding.hint = fix::across_majors(&finding.hint, direction, old, new);
                }
            }
        }
        findings
    }

    fn new(
        writer: &'a Schema,
        reader: &'a Schema,
        direction: Direction,
        against: Option<usize>,
        both: bool,
    ) -> Self {
        Checker {
            writer,
            reader,
            direction,
            against,
            both,
            path: Vec::new(),
            visited: HashSet::new(),
            findings: Vec::new(),
            broken: HashSet::new(),
            broken_count: 0,
            trial_broken: false,
            trial: false,
            trial_log: Vec::new(),
            in_progress: HashSet::new(),
            depth: 0,
            writer_loops: OnceCell::new(),
            reader_loops: OnceCell::new(),
        }
    }

    /// Whether `w`, a type of `writer`, fits `r`, a type of `reader`, compared on their
    /// own: the other way round from this comparison, for a fix that must hold both ways.
    pub(super) fn fits_alone(
        writer: &'a Schema,
        reader: &'a Schema,
        w: &'a crate::model::Type,
        r: &'a crate::model::Type,
    ) -> bool {
        let mut checker = Checker::new(writer, reader, Direction::Check, None, false);
        checker.trial = true;
        checker.ty(w, r);
        checker.findings.is_empty()
    }

    pub(super) fn contract_names(&mut self) {
        if let (Some(w), Some(r)) = (&self.writer.contract, &self.reader.contract) {
            if w.name != r.name {
                let (writer, reader) = self.sides();
                let why = format!(
                    "{writer} write contract `{}` but {reader} read contract `{}`",
                    w.name, r.name
                );
                self.report_fix(
                    Rule::ContractNameChanged,
                    why,
                    "keep the contract's name; a different name is a different contract".to_owned(),
                    Fix::Described,
                );
            }
        }
    }

    // ----- reporting -------------------------------------------------------------------

    pub(super) fn stopped(&self) -> bool {
        self.trial && (self.trial_broken || !self.findings.is_empty())
    }

    /// A pair compared before (or being compared) met again: not compared again, but
    /// when its comparison found something a trial does not fit, and the pairs being
    /// compared for real are broken too.
    pub(super) fn met_again(&mut self, pair: Pair<'a>) {
        if !self.broken.contains(&pair) {
            return;
        }
        if self.trial {
            self.trial_broken = true;
        } else {
            self.broken_count += 1;
        }
    }

    /// The end of the comparison of `pair` (outside a trial), begun when
    /// [`Checker::broken_count`] was `before`.
    pub(super) fn compared(&mut self, pair: Pair<'a>, before: usize) {
        if !self.trial && self.broken_count != before {
            self.broken.insert(pair);
        }
    }

    /// Reports a finding whose fix is in its hint only ([`Fix::Described`]).
    pub(super) fn report(&mut self, rule: Rule, why: String, hint: String) {
        self.report_fix(rule, why, hint, Fix::Described);
    }

    /// Reports a finding with its hint and the structured fix the hint describes.
    pub(super) fn report_fix(&mut self, rule: Rule, why: String, hint: String, fix: Fix) {
        if !self.trial {
            self.broken_count += 1;
        }
        let (path, field) = render(&self.path);
        self.findings.push(Finding {
            rule,
            path,
            field,
            direction: self.direction,
            against: self.against,
            why,
            hint,
            fix,
            allowed: None,
        });
    }

    /// Reports a finding whose fix is the generic one: restore `what` (see
    /// [`Checker::revert_hint`]).
    pub(super) fn report_revert(&mut self, rule: Rule, why: String, what: &str) {
        let hint = self.revert_hint(what);
        let fix = match self.direction {
            Direction::Check => Fix::Described,
            Direction::Backward | Direction::Forward => Fix::RestoreOrNewMajor {
                what: what.to_owned(),
            },
        };
        self.report_fix(rule, why, hint, fix);
    }

    /// The writers and the readers of this comparison, as sentence subjects ("old
    /// writers", "new readers").
    pub(super) fn sides(&self) -> (&'static str, &'static str) {
        (self.direction.writer(), self.direction.reader())
    }

    /// `forward` when new writers are checked against old readers, `otherwise` when readers
    /// (a consumer, or new readers) are checked against writers: the side a fix or a path
    /// speaks of.
    pub(super) fn forward_or<T>(&self, forward: T, otherwise: T) -> T {
        match self.direction {
            Direction::Forward => forward,
            Direction::Check | Direction::Backward => otherwise,
        }
    }

    /// The generic fix for a change that cannot be made compatible in place.
    pub(super) fn revert_hint(&self, what: &str) -> String {
        match self.direction {
            Direction::Check => {
                format!(
                    "make the producer and the consumer agree on {what} (use one contract version)"
                )
            }
            Direction::Backward | Direction::Forward => {
                format!("restore {what}, or publish the change as a new major version")
            }
        }
    }

    /// Runs `f` as a trial that stops at its first finding and keeps none; true when
    /// nothing was found. A trial sees the pairs of named types the checker is comparing
    /// as fitting (they are being checked on their own), and those it has compared as they
    /// were found (a pair whose comparison found something does not fit: the answer does
    /// not depend on whether the trial or the comparison met the pair first); it forgets
    /// the pairs it compared itself, so that a failed trial leaves no trace.
    pub(super) fn fits(&mut self, f: impl FnOnce(&mut Checker<'a>)) -> bool {
        let findings = core::mem::take(&mut self.findings);
        let trial = core::mem::replace(&mut self.trial, true);
        let trial_broken = core::mem::replace(&mut self.trial_broken, false);
        let path_len = self.path.len();
        let log_start = self.trial_log.len();
        f(self);
        let fits = self.findings.is_empty() && !self.trial_broken;
        self.findings = findings;
        self.trial = trial;
        self.trial_broken = trial_broken;
        self.path.truncate(path_len);
        // Nested trials drain only what they logged, so the log is at least as long as it
        // was; `min` keeps the range valid whatever happens.
        let log_start = log_start.min(self.trial_log.len());
        for pair in self.trial_log.drain(log_start..) {
            self.visited.remove(&pair);
        }
        fits
    }

    // ----- paths -----------------------------------------------------------------------

    /// Runs `f` with `seg` appended to the path of the findings it reports.
    pub(super) fn at(&mut self, seg: Seg<'a>, f: impl FnOnce(&mut Self)) {
        self.path.push(seg);
        f(self);
        self.path.pop();
    }

    /// The path segment of a field: its key on the new side in an evolution.
    pub(super) fn field_seg(&self, sent: &'a str, read: &'a str) -> Seg<'a> {
        Seg::Field(self.forward_or(sent, read))
    }
}
