//! The checker: one writer's sender view against one reader's receiver view.
//!
//! Named types are compared structurally, never by name. Each pair of named types
//! (writer's, reader's) is compared once: the pair is memoized before its body is walked, so
//! recursive types terminate and every type is visited once (the cost grows linearly with
//! the schemas). A finding inside a shared type is reported at the first path that reaches
//! it.
//!
//! The `why` and `hint` texts are pinned by the derive's compile-fail cases
//! (`tests/ui/compile-fail/published-*.stderr`): rewording one means re-blessing them.

use std::collections::{HashMap, HashSet};
use std::fmt::Write as _;

use super::report::Finding;
use super::rules::{Direction, Rule};
use crate::model::{
    Body, Constraint, Emit, EnumDef, FieldDef, FlatEnumDef, IntRange, IntSet, Length,
    ReceiverField, Repr, Schema, SenderField, StringConstraint, StructDef, Type, Unknown,
    VariantDef, VariantDefKind,
};
use crate::shape::{Provenance, StringFormat};
use crate::View;

mod struct_map;

/// How deep the comparison follows nested types before it stops with `SCHEMA_TOO_DEEP`.
pub(crate) const MAX_DEPTH: usize = 256;

/// How many candidate fields a missing field is compared with to spot an undeclared rename.
const MAX_RENAME_CANDIDATES: usize = 16;

/// One segment of a finding's path.
#[derive(Debug, Clone, Copy)]
enum Seg<'a> {
    /// A struct field, by wire name.
    Field(&'a str),
    /// Any item of a list or set.
    Item,
    /// Any key of a map (keys are data: never shown).
    Key,
    /// A tuple item.
    Index(usize),
    /// An enum variant, by tag.
    Variant(&'a str),
    /// A flattened enum (`#[serde(flatten)]`), by Rust field name: it has no key of its own,
    /// its variant's keys sit beside the struct's fields. Rendered `(flatten kind)`.
    Flatten(&'a str),
}

/// Compares one writer with one reader and collects the findings.
/// One side of a compared pair: a named type by name, or one occurrence of an unnamed type
/// by its address in the schema (stable for the checker's lifetime).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum Side<'a> {
    Named(&'a str),
    At(usize),
}

/// A (writer's, reader's) pair of types.
type Pair<'a> = (Side<'a>, Side<'a>);

pub(crate) struct Checker<'a> {
    writer: &'a Schema,
    reader: &'a Schema,
    direction: Direction,
    against: Option<usize>,
    path: Vec<Seg<'a>>,
    /// Pairs (writer's, reader's) with at least one named side already compared or being
    /// compared.
    visited: HashSet<Pair<'a>>,
    findings: Vec<Finding>,
    /// A trial stops at its first finding and only answers "does it fit".
    trial: bool,
    /// The pairs a trial added to `visited`, removed when the trial ends.
    trial_log: Vec<Pair<'a>>,
    /// Pairs with one named side being compared now (on the current path).
    in_progress: HashSet<Pair<'a>>,
    depth: usize,
}

impl<'a> Checker<'a> {
    /// Compares `writer` (sender view) with `reader` (receiver view).
    pub(crate) fn run(
        writer: &'a Schema,
        reader: &'a Schema,
        direction: Direction,
        against: Option<usize>,
    ) -> Vec<Finding> {
        let mut checker = Checker {
            writer,
            reader,
            direction,
            against,
            path: Vec::new(),
            visited: HashSet::new(),
            findings: Vec::new(),
            trial: false,
            trial_log: Vec::new(),
            in_progress: HashSet::new(),
            depth: 0,
        };
        checker.contract_names();
        checker.ty(&writer.root, &reader.root);
        checker.findings
    }

    fn contract_names(&mut self) {
        if let (Some(w), Some(r)) = (&self.writer.contract, &self.reader.contract) {
            if w.name != r.name {
                let (writer, reader) = self.sides();
                let why = format!(
                    "{writer} write contract `{}` but {reader} read contract `{}`",
                    w.name, r.name
                );
                self.report(
                    Rule::ContractNameChanged,
                    why,
                    "keep the contract's name; a different name is a different contract".to_owned(),
                );
            }
        }
    }

    // ----- reporting -------------------------------------------------------------------

    fn stopped(&self) -> bool {
        self.trial && !self.findings.is_empty()
    }

    fn report(&mut self, rule: Rule, why: String, hint: String) {
        let (path, field) = render(&self.path);
        self.findings.push(Finding {
            rule,
            path,
            field,
            direction: self.direction,
            against: self.against,
            why,
            hint,
            allowed: None,
        });
    }

    /// Reports a finding whose fix is the generic one: restore `what` (see
    /// [`Checker::revert_hint`]).
    fn report_revert(&mut self, rule: Rule, why: String, what: &str) {
        let hint = self.revert_hint(what);
        self.report(rule, why, hint);
    }

    /// The writers and the readers of this comparison, as sentence subjects ("old
    /// writers", "new readers").
    fn sides(&self) -> (&'static str, &'static str) {
        (self.direction.writer(), self.direction.reader())
    }

    /// `forward` when new writers are checked against old readers, `otherwise` when readers
    /// (a consumer, or new readers) are checked against writers: the side a fix or a path
    /// speaks of.
    fn forward_or<T>(&self, forward: T, otherwise: T) -> T {
        match self.direction {
            Direction::Forward => forward,
            Direction::Check | Direction::Backward => otherwise,
        }
    }

    /// Runs `f` with `seg` appended to the path of the findings it reports.
    fn at(&mut self, seg: Seg<'a>, f: impl FnOnce(&mut Self)) {
        self.path.push(seg);
        f(self);
        self.path.pop();
    }

    /// The generic fix for a change that cannot be made compatible in place.
    fn revert_hint(&self, what: &str) -> String {
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
    /// nothing was found. A trial sees the pairs of named types the checker has compared
    /// or is comparing as fitting (they are reported, or being checked, on their own), and
    /// forgets the pairs it compared itself, so that a failed trial leaves no trace.
    fn fits(&mut self, f: impl FnOnce(&mut Checker<'a>)) -> bool {
        let findings = core::mem::take(&mut self.findings);
        let trial = core::mem::replace(&mut self.trial, true);
        let path_len = self.path.len();
        let log_start = self.trial_log.len();
        f(self);
        let fits = self.findings.is_empty();
        self.findings = findings;
        self.trial = trial;
        self.path.truncate(path_len);
        // Nested trials drain only what they logged, so the log is at least as long as it
        // was; `min` keeps the range valid whatever happens.
        let log_start = log_start.min(self.trial_log.len());
        for pair in self.trial_log.drain(log_start..) {
            self.visited.remove(&pair);
        }
        fits
    }

    // ----- types -----------------------------------------------------------------------

    /// Whether every value of writer type `w` is read by reader type `r`.
    fn ty(&mut self, w: &'a Type, r: &'a Type) {
        if self.stopped() {
            return;
        }
        if self.depth >= MAX_DEPTH {
            self.report(
                Rule::SchemaTooDeep,
                format!("types nest deeper than {MAX_DEPTH} levels; the rest was not compared"),
                "flatten the nesting of this type".to_owned(),
            );
            return;
        }
        self.depth += 1;
        match (w, r) {
            // Two named types: compared once per pair, newtypes included, so that a type
            // that contains itself (through a newtype) terminates.
            (Type::Named(a), Type::Named(b)) => self.named(w, r, a, b),
            // One side named: compared once per pair of that name and this occurrence of the
            // other side's type. Meeting the pair again while it is still being compared means
            // the named side came back to itself without the other side moving: a cycle with no
            // value of its own (a newtype that contains itself through an `Option`).
            (Type::Named(a), _) => {
                let pair = (Side::Named(a), Side::At(core::ptr::from_ref(r) as usize));
                self.one_side_named(pair, w, r, None);
            }
            (_, Type::Named(b)) => {
                let pair = (Side::At(core::ptr::from_ref(w) as usize), Side::Named(b));
                self.one_side_named(pair, w, r, Some(b));
            }
            _ => self.ty_resolved(w, r),
        }
        self.depth -= 1;
    }

    /// Compares a pair with one named side (`reader_name` when it is the reader's). On a
    /// cycle back to the pair: a writer's cycle adds no value (nothing to check); a reader's
    /// cycle reads no value, so the writer's value is not read.
    fn one_side_named(
        &mut self,
        pair: Pair<'a>,
        w: &'a Type,
        r: &'a Type,
        reader_name: Option<&str>,
    ) {
        if self.in_progress.contains(&pair) {
            if let Some(name) = reader_name {
                let (writer, reader) = self.sides();
                let why = format!(
                    "`{w}` sent by {writer} is not read by `{name}` of {reader}, which contains itself through an option and reads nothing but `null` here"
                );
                self.report_revert(
                    Rule::TypeChanged,
                    why,
                    &format!("a reader type that holds `{w}`"),
                );
            }
            return;
        }
        if self.visited.contains(&pair) {
            return;
        }
        self.in_progress.insert(pair);
        self.ty_resolved(self.writer.resolve(w), self.reader.resolve(r));
        self.in_progress.remove(&pair);
        self.first_visit(pair);
    }

    /// Marks a pair as compared; false when it already was (or is being) compared. A trial
    /// logs the pairs it marks so that they are compared again for real after it.
    fn first_visit(&mut self, pair: Pair<'a>) -> bool {
        if !self.visited.insert(pair) {
            return false;
        }
        if self.trial {
            self.trial_log.push(pair);
        }
        true
    }

    fn ty_resolved(&mut self, w: &'a Type, r: &'a Type) {
        match (w, r) {
            (_, Type::Any)
            | (Type::Unit, Type::Unit | Type::Option(_))
            | (Type::Bool, Type::Bool)
            | (Type::Int(_) | Type::Float(_), Type::Float(_))
            | (Type::Char, Type::Char | Type::String(StringFormat::Plain)) => {}
            (Type::Option(wi), Type::Option(ri)) => self.ty(wi, ri),
            (Type::Option(wi), _) => {
                if !r.is_nullable() {
                    self.null_not_accepted(r);
                }
                self.ty(wi, r);
            }
            (_, Type::Option(ri)) => self.ty(w, ri),
            (Type::Constrained(_), _) | (_, Type::Constrained(_)) => self.constrained(w, r),
            (Type::Int(a), Type::Int(b)) => {
                if !a.fits_in(*b) {
                    self.int_out_of_range(w, r);
                }
            }
            (Type::Float(_), Type::Int(_)) => self.float_into_integer(w, r),
            (Type::String(_), Type::Char) => self.string_into_char(),
            (Type::String(a), Type::String(b)) => {
                if !a.fits_in(*b) {
                    self.format_changed(w, r);
                }
            }
            (Type::Char, Type::String(_)) => self.format_changed(w, r),
            (Type::List(a) | Type::Set(a), Type::List(b))
            | (Type::Set(a), Type::Set(b))
            | (Type::Array(a, _), Type::List(b)) => self.item(a, b),
            (Type::Array(a, n), Type::Array(b, m)) if n == m => self.item(a, b),
            (Type::Array(a, n), Type::Tuple(rs)) if rs.len() == *n => {
                self.indexed(rs.iter().map(|ri| (&**a, ri)));
            }
            (Type::Tuple(ws), Type::Tuple(rs)) if ws.len() == rs.len() => {
                self.indexed(ws.iter().zip(rs));
            }
            (Type::Tuple(ws), Type::Array(b, n)) if ws.len() == *n => {
                self.indexed(ws.iter().map(|wi| (wi, &**b)));
            }
            (Type::Tuple(ws), Type::List(b)) => self.indexed(ws.iter().map(|wi| (wi, &**b))),
            (Type::Map(wk, wv), Type::Map(rk, rv)) => self.at(Seg::Key, |c| {
                c.map_key(wk, rk);
                c.ty(wv, rv);
            }),
            (Type::Named(a), Type::Named(b)) => self.named(w, r, a, b),
            // A string enum is written as its tags, which a plain string reads.
            (Type::Named(a), Type::String(StringFormat::Plain))
                if self.writer.def(a).is_some_and(|d| is_string_enum(&d.body)) => {}
            // A string enum with a catch-all reads every string.
            (Type::String(_) | Type::Char, Type::Named(b))
                if self.reader.def(b).is_some_and(|d| {
                    is_string_enum(&d.body)
                        && matches!(&d.body, Body::Enum(e) if e.catch_all().is_some())
                }) => {}
            // serde reads a struct as a map and a map as a struct (both are objects).
            (Type::Named(a), Type::Map(rk, rv)) => match self.writer.def(a).map(|d| &d.body) {
                Some(Body::Struct(s)) => self.struct_into_map(s, rk, rv),
                _ => self.type_changed(w, r),
            },
            (Type::Map(wk, wv), Type::Named(b)) => match self.reader.def(b).map(|d| &d.body) {
                Some(Body::Struct(s)) => self.map_into_struct(wk, wv, s),
                _ => self.type_changed(w, r),
            },
            _ => self.type_changed(w, r),
        }
    }

    /// A pair with a constrained side (and neither side an `Option`, `any` or named but a
    /// string enum): sets of integers compare by inclusion, strings by format, length and
    /// pattern; everything else as the unconstrained types would.
    fn constrained(&mut self, w: &'a Type, r: &'a Type) {
        match (int_values(w), int_values(r)) {
            (Some(ws), Some(rs)) => {
                if !ws.is_subset(&rs) {
                    // Beyond the reader's kind it is a range finding, as between two kinds;
                    // inside it, the reader's constraint excludes it.
                    let within_kind = match r {
                        Type::Constrained(c) => match c.base() {
                            Type::Int(k) => ws.is_subset(&IntSet::new(k, [IntRange::all_of(k)])),
                            _ => false,
                        },
                        _ => false,
                    };
                    if within_kind {
                        self.outside_constraint(w, r);
                    } else {
                        self.int_out_of_range(w, r);
                    }
                }
                return;
            }
            (Some(_), None) if matches!(r, Type::Float(_)) => return,
            (None, Some(_)) if matches!(w, Type::Float(_)) => return self.float_into_integer(w, r),
            _ => {}
        }
        match (string_values(w), string_values(r)) {
            (Some(ws), Some(rs)) => {
                if !ws.format.fits_in(rs.format) {
                    self.format_changed(w, r);
                } else if !ws.fits_in(&rs) {
                    if matches!(r, Type::Char) {
                        self.string_into_char();
                    } else {
                        self.outside_constraint(w, r);
                    }
                }
                return;
            }
            // A string enum with a catch-all reads every string.
            (Some(_), None) => {
                if let Type::Named(b) = r {
                    if self.reader.def(b).is_some_and(|d| {
                        matches!(&d.body, Body::Enum(e) if e.is_string_enum() && e.catch_all().is_some())
                    }) {
                        return;
                    }
                }
            }
            (None, Some(rs)) => {
                if let Type::Named(a) = w {
                    if let Some(Body::Enum(e)) = self.writer.def(a).map(|d| &d.body) {
                        if e.is_string_enum() {
                            // Its tags are plain strings: they fit when every one has a
                            // length the reader takes and the reader asks no more.
                            let fits = rs.format == StringFormat::Plain
                                && rs.pattern.is_none()
                                && e.variants
                                    .iter()
                                    .filter_map(|v| v.sender.as_ref())
                                    .all(|tag| rs.length.contains(tag.chars().count() as u64));
                            if !fits {
                                self.outside_constraint(w, r);
                            }
                            return;
                        }
                    }
                }
            }
            (None, None) => {}
        }
        self.type_changed(w, r);
    }

    fn int_out_of_range(&mut self, w: &Type, r: &Type) {
        let rule = self
            .direction
            .pick(Rule::IntOutOfRange, Rule::IntNarrowed, Rule::IntWidened);
        let (writer, reader) = self.sides();
        let why = format!("`{w}` values sent by {writer} do not all fit the `{r}` of {reader}");
        self.report_revert(rule, why, &format!("an integer type that holds `{w}`"));
    }

    fn float_into_integer(&mut self, w: &Type, r: &Type) {
        let rule = self.direction.pick(
            Rule::FloatIntoInteger,
            Rule::FloatBecameInteger,
            Rule::IntegerBecameFloat,
        );
        let (writer, reader) = self.sides();
        let why = format!(
            "`{w}` numbers sent by {writer} are rejected by the `{r}` of {reader} (serde reads no fraction into an integer)"
        );
        self.report_revert(rule, why, "a float on the reading side");
    }

    fn string_into_char(&mut self) {
        let rule = self.direction.pick(
            Rule::StringIntoChar,
            Rule::StringBecameChar,
            Rule::CharBecameString,
        );
        let (writer, reader) = self.sides();
        let why =
            format!("strings sent by {writer} may hold more than the one `char` {reader} accept");
        self.report_revert(rule, why, "`String` on the reading side");
    }

    fn outside_constraint(&mut self, w: &Type, r: &Type) {
        let rule = self.direction.pick(
            Rule::ValueOutsideConstraint,
            Rule::ConstraintNarrowed,
            Rule::ConstraintWidened,
        );
        let (writer, reader) = self.sides();
        let why = format!("`{w}` values sent by {writer} are not all within the `{r}` of {reader}");
        let hint = match self.direction {
            Direction::Check => self.revert_hint(&format!("the values of `{w}`")),
            Direction::Backward => {
                format!(
                    "widen the new reader's `{r}` to hold `{w}`, or publish a new major version"
                )
            }
            Direction::Forward => {
                format!("keep new writers within `{r}`, or publish a new major version")
            }
        };
        self.report(rule, why, hint);
    }

    /// Map keys are strings on the wire: an integer key is written as its digits, which a
    /// string key reads.
    fn map_key(&mut self, w: &'a Type, r: &'a Type) {
        let (wr, rr) = (self.writer.resolve(w), self.reader.resolve(r));
        if matches!(
            (wr, rr),
            (
                Type::Int(_) | Type::Constrained(_),
                Type::String(StringFormat::Plain)
            )
        ) && int_values(wr).is_some()
        {
            return;
        }
        self.ty(w, r);
    }

    fn item(&mut self, w: &'a Type, r: &'a Type) {
        self.at(Seg::Item, |c| c.ty(w, r));
    }

    /// The items of a tuple (or a fixed-length array) against the reader's, by position.
    fn indexed(&mut self, pairs: impl Iterator<Item = (&'a Type, &'a Type)>) {
        for (i, (w, r)) in pairs.enumerate() {
            self.at(Seg::Index(i), |c| c.ty(w, r));
        }
    }

    fn null_not_accepted(&mut self, r: &Type) {
        let rule = self.direction.pick(
            Rule::NullNotAccepted,
            Rule::NullableBecameNonNullable,
            Rule::NonNullableBecameNullable,
        );
        let (writer, reader) = self.sides();
        let why = format!("{writer} may send `null` here, which the `{r}` of {reader} rejects");
        let hint = self.forward_or(
            "keep the field non-optional for writers, or publish a new major version".to_owned(),
            format!("read it as `Option<…>` (`option<{r}>`) so `null` is accepted"),
        );
        self.report(rule, why, hint);
    }

    fn format_changed(&mut self, w: &Type, r: &Type) {
        let (writer, reader) = self.sides();
        let why = format!("`{w}` sent by {writer} is not promised to be the `{r}` {reader} expect");
        self.report_revert(
            Rule::StringFormatChanged,
            why,
            &format!("`{w}` on the reading side"),
        );
    }

    fn type_changed(&mut self, w: &Type, r: &Type) {
        let (writer, reader) = self.sides();
        let why = format!("`{w}` sent by {writer} is not read as the `{r}` of {reader}");
        self.report_revert(Rule::TypeChanged, why, &format!("the type `{w}`"));
    }

    /// Two named types, compared by structure. Each pair is compared once.
    fn named(&mut self, w: &'a Type, r: &'a Type, a: &'a str, b: &'a str) {
        if !self.first_visit((Side::Named(a), Side::Named(b))) {
            return;
        }
        let (Some(wd), Some(rd)) = (self.writer.def(a), self.reader.def(b)) else {
            let (side, name) = if self.writer.def(a).is_none() {
                (self.direction.writer(), a)
            } else {
                (self.direction.reader(), b)
            };
            self.report(
                Rule::TypeChanged,
                format!("the schema of {side} names `{name}` but does not define it"),
                "regenerate the schema from the Rust types".to_owned(),
            );
            return;
        };
        match (&wd.body, &rd.body) {
            (Body::Struct(ws), Body::Struct(rs)) => self.structs(ws, rs),
            (Body::Enum(we), Body::Enum(re)) => self.enums(we, re),
            // A type on the wire: what the writer sends, what the reader reads (a type with
            // two views has one of each).
            (wb, rb)
                if wb.wire_type(View::Sender).is_some()
                    || rb.wire_type(View::Receiver).is_some() =>
            {
                match (wb.wire_type(View::Sender), rb.wire_type(View::Receiver)) {
                    (Some(wi), Some(ri)) => self.ty(wi, ri),
                    (Some(wi), None) => self.ty(wi, r),
                    (None, Some(ri)) => self.ty(w, ri),
                    (None, None) => {}
                }
            }
            _ => {
                let (writer, reader) = self.sides();
                let (wk, rk) = (body_kind(&wd.body), body_kind(&rd.body));
                let why = format!("{writer} send `{a}` as {wk} but {reader} read `{b}` as {rk}");
                self.report_revert(Rule::TypeChanged, why, &format!("the {wk} `{a}`"));
            }
        }
    }

    // ----- structs ---------------------------------------------------------------------

    /// The path segment of a field: its key on the new side in an evolution.
    fn field_seg(&self, sent: &'a str, read: &'a str) -> Seg<'a> {
        Seg::Field(self.forward_or(sent, read))
    }

    fn structs(&mut self, w: &'a StructDef, r: &'a StructDef) {
        // Every key the reader reads, to the field that reads it.
        let mut index: HashMap<&'a str, usize> = HashMap::with_capacity(r.fields.len());
        for (i, field) in r.fields.iter().enumerate() {
            if let Some(recv) = &field.receiver {
                index.entry(recv.name.as_str()).or_insert(i);
                for alias in &recv.aliases {
                    index.entry(alias.as_str()).or_insert(i);
                }
            }
        }
        let mut matched = vec![false; r.fields.len()];
        // Writer fields sent under a key the reader does not read.
        let mut unknown: Vec<(&'a FieldDef, &'a SenderField)> = Vec::new();
        for wf in &w.fields {
            if self.stopped() {
                return;
            }
            let Some(sent) = &wf.sender else { continue };
            let hit = index.get(sent.name.as_str()).and_then(|&i| {
                let rf = r.fields.get(i)?;
                Some((i, rf, rf.receiver.as_ref()?))
            });
            match hit {
                Some((i, rf, recv)) => match matched.get_mut(i) {
                    Some(m) if *m => self.read_twice(sent, recv),
                    Some(m) => {
                        *m = true;
                        self.field_pair(wf, sent, rf, recv);
                    }
                    None => {}
                },
                None => unknown.push((wf, sent)),
            }
        }
        let mut consumed = vec![false; unknown.len()];
        for (rf, was_matched) in r.fields.iter().zip(&matched) {
            if self.stopped() {
                return;
            }
            if let (false, Some(recv)) = (*was_matched, &rf.receiver) {
                self.field_missing(rf, recv, &unknown, &mut consumed);
            }
        }
        if w.unknown == Unknown::Capture {
            self.at(Seg::Key, |c| match (r.unknown, &w.extra, &r.extra) {
                (Unknown::Deny, _, _) => c.unknown_denied("*", true),
                (Unknown::Capture, Some(we), Some(re)) => c.ty(we, re),
                _ => {}
            });
        }
        for ((wf, sent), used) in unknown.iter().zip(consumed) {
            if used {
                continue;
            }
            self.at(Seg::Field(sent.name.as_str()), |c| {
                match (r.unknown, &r.extra) {
                    (Unknown::Deny, _) => c.unknown_denied(&sent.name, false),
                    (Unknown::Capture, Some(extra)) => c.ty(&wf.ty, extra),
                    _ => {}
                }
            });
        }
        self.flattened(w, r);
    }

    // ----- flattened enums -------------------------------------------------------------

    /// The flattened enums of two structs, matched by Rust field name (they have no key of
    /// their own). A matched pair is compared as a field's type is: the enums' definitions
    /// like any named type (variants, representation, tags, contents); an optional writer
    /// read by a required reader is a field that may be omitted. A reader's enum the writer
    /// does not send is a required field never sent, unless the reader's is optional (serde
    /// reads `None`). A writer's enum the reader does not read sends keys the reader does
    /// not know.
    ///
    /// A reader's optional flattened enum never rejects a payload (serde reads `None` when
    /// the variant does not fit), but it then silently loses the writer's variant: a
    /// mismatch inside it is still reported.
    fn flattened(&mut self, w: &'a StructDef, r: &'a StructDef) {
        for rf in r.flattened.iter().filter(|f| f.read) {
            if self.stopped() {
                return;
            }
            let wf = w
                .flattened
                .iter()
                .find(|f| f.sent && f.rust_name == rf.rust_name);
            self.at(Seg::Flatten(&rf.rust_name), |c| match wf {
                Some(wf) => {
                    c.flat_pair(wf, rf);
                    c.flat_beside_captured(wf, r);
                }
                None => c.flat_missing(rf),
            });
        }
        for wf in w.flattened.iter().filter(|f| f.sent) {
            if self.stopped() {
                return;
            }
            if r.flattened
                .iter()
                .any(|f| f.read && f.rust_name == wf.rust_name)
            {
                continue;
            }
            self.at(Seg::Flatten(&wf.rust_name), |c| c.flat_unknown(wf, r));
        }
        self.flat_key_clashes(w, r);
    }

    /// Keys one side writes as a field and the other reads as part of a flattened enum (or
    /// the reverse): serde hands the key to whichever reads it first, so what a writer's
    /// field or enum sends is read by something else. Reported conservatively, without
    /// comparing what is sent with what reads it.
    fn flat_key_clashes(&mut self, w: &'a StructDef, r: &'a StructDef) {
        let reads_field = |key: &str| {
            r.fields
                .iter()
                .any(|f| f.receiver.as_ref().is_some_and(|recv| recv.accepts(key)))
        };
        // A writer's field the reader does not read as a field, but its flattened enum may.
        for wf in &w.fields {
            let Some(sent) = &wf.sender else { continue };
            if reads_field(&sent.name) {
                continue;
            }
            let clash = r.flattened.iter().filter(|f| f.read).find(|f| {
                self.reader
                    .flat_enum(&f.ty)
                    .is_some_and(|(e, _)| flat_keys(e).contains(&sent.name.as_str()))
            });
            if let Some(rf) = clash {
                if self.stopped() {
                    return;
                }
                self.at(Seg::Field(&sent.name), |c| {
                    let (writer, reader) = c.sides();
                    let why = format!(
                        "{writer} send the field `{}`, a key {reader} read as part of the flattened enum `{}`",
                        sent.name, rf.rust_name
                    );
                    c.report_revert(
                        Rule::TypeChanged,
                        why,
                        &format!("a field name apart from the keys of `{}`", rf.rust_name),
                    );
                });
            }
        }
        // A key of a writer's flattened enum the reader reads as a field.
        for wf in w.flattened.iter().filter(|f| f.sent) {
            let Some((e, _)) = self.writer.flat_enum(&wf.ty) else {
                continue;
            };
            let Some(key) = flat_keys(e).into_iter().find(|k| reads_field(k)) else {
                continue;
            };
            if self.stopped() {
                return;
            }
            self.at(Seg::Flatten(&wf.rust_name), |c| {
                let (writer, reader) = c.sides();
                let why = format!(
                    "{writer} send `{key}` as part of the flattened enum `{}`, a key {reader} read as a field",
                    wf.rust_name
                );
                c.report_revert(
                    Rule::TypeChanged,
                    why,
                    &format!("keys of `{}` apart from the struct's field names", wf.rust_name),
                );
            });
        }
    }

    fn flat_pair(&mut self, wf: &'a FlatEnumDef, rf: &'a FlatEnumDef) {
        let w_optional = self.writer.flat_enum(&wf.ty).is_some_and(|(_, o)| o);
        let r_optional = self.reader.flat_enum(&rf.ty).is_some_and(|(_, o)| o);
        if w_optional && !r_optional {
            let rule = self.direction.pick(
                Rule::RequiredFieldMayBeOmitted,
                Rule::FieldBecameRequired,
                Rule::FieldBecameOmittable,
            );
            let (writer, reader) = self.sides();
            let why = format!(
                "the flattened enum `{}` is required by {reader} but sent by {writer} only when present (an `Option`, whose `None` writes no key)",
                rf.rust_name
            );
            let hint = self.forward_or(
                "keep the flattened enum non-optional for writers, or publish a new major version",
                "read the flattened enum as an `Option` so data without it is still read",
            );
            self.report(rule, why, hint.to_owned());
        }
        // The types without their `Option`: whether the enum may be absent is the finding
        // above, never a `null` (serde writes no key for `None`).
        let (wt, rt) = (
            flat_inner(self.writer, &wf.ty),
            flat_inner(self.reader, &rf.ty),
        );
        self.ty(wt, rt);
        self.flat_catch_all(wf, rf);
        if !r_optional {
            self.flat_untagged_units(wf, rf);
        }
    }

    /// serde reads a flattened externally tagged enum from the first key that names one of
    /// its variants: a key its catch-all (`#[serde(other)]`) would take elsewhere names none,
    /// so the catch-all takes nothing there, and a variant the writer sends that the reader
    /// knows only through it is unknown.
    fn flat_catch_all(&mut self, wf: &'a FlatEnumDef, rf: &'a FlatEnumDef) {
        let (Some((we, _)), Some((re, _))) =
            (self.writer.flat_enum(&wf.ty), self.reader.flat_enum(&rf.ty))
        else {
            return;
        };
        if we.repr != Repr::External || re.repr != Repr::External || re.catch_all().is_none() {
            return;
        }
        let string_enum = we.is_string_enum() && re.is_string_enum();
        for wv in &we.variants {
            let Some(tag) = &wv.sender else { continue };
            if re.variants.iter().any(|rv| rv.receiver.contains(tag)) {
                continue;
            }
            let rule = if string_enum {
                self.direction.pick(
                    Rule::EnumValueUnknown,
                    Rule::EnumValueRemoved,
                    Rule::EnumValueAdded,
                )
            } else {
                self.direction.pick(
                    Rule::EnumVariantUnknown,
                    Rule::EnumVariantRemoved,
                    Rule::EnumVariantAdded,
                )
            };
            self.at(Seg::Variant(tag), |c| {
                let (writer, reader) = c.sides();
                let why = format!(
                    "{writer} may send `{tag}` in the flattened enum `{}`, which {reader} do not know: a catch-all `#[serde(other)]` takes no key of a flattened enum",
                    rf.rust_name
                );
                let hint = match c.direction {
                    Direction::Check => format!("add `{tag}` to the consumer's enum"),
                    Direction::Backward => format!("keep the variant `{tag}` (old data holds it)"),
                    Direction::Forward => format!(
                        "old readers reject `{tag}`: publish it in a new major version"
                    ),
                };
                c.report(rule, why, hint);
            });
        }
    }

    /// An untagged unit variant flattened writes nothing, and serde never reads one there
    /// (it reads a unit only from `null`): a required reader's untagged enum does not read
    /// it. (A reader's struct variant whose fields may all be absent would; the engine does
    /// not look for one.)
    fn flat_untagged_units(&mut self, wf: &'a FlatEnumDef, rf: &'a FlatEnumDef) {
        let (Some((we, _)), Some((re, _))) =
            (self.writer.flat_enum(&wf.ty), self.reader.flat_enum(&rf.ty))
        else {
            return;
        };
        if we.repr != Repr::Untagged || re.repr != Repr::Untagged {
            return;
        }
        for wv in &we.variants {
            if wv.sender.is_none() || !matches!(wv.kind, VariantDefKind::Unit) {
                continue;
            }
            self.at(Seg::Variant(&wv.rust_name), |c| {
                let (writer, reader) = c.sides();
                let why = format!(
                    "the untagged unit variant `{}` of the flattened enum `{}` is written by {writer} as no key at all, which {reader} never read as a variant (serde reads a unit only from `null`)",
                    wv.rust_name, rf.rust_name
                );
                let what = format!(
                    "a flattened enum whose variant `{}` carries fields, or an `Option` on the reading side",
                    wv.rust_name
                );
                c.report_revert(Rule::UntaggedVariantUnmatched, why, &what);
            });
        }
    }

    /// A reader that captures unknown keys in a flattened map of other than `any`, beside a
    /// flattened enum: whether serde hands the enum's keys to the map as well depends on the
    /// representation (an internally tagged or untagged enum takes no key) and on the order
    /// of declaration, which the model does not keep. Reported conservatively.
    fn flat_beside_captured(&mut self, wf: &'a FlatEnumDef, r: &'a StructDef) {
        let (Unknown::Capture, Some(extra)) = (r.unknown, &r.extra) else {
            return;
        };
        if matches!(self.reader.resolve(extra), Type::Any) {
            return;
        }
        let (writer, reader) = self.sides();
        let why = format!(
            "{writer} send the keys of the flattened enum `{}`, which the flattened map of {reader} may also read as `{extra}` values (the engine does not compare an enum's keys with a map's values)",
            wf.rust_name
        );
        self.report_revert(
            Rule::TypeChanged,
            why,
            &format!("a flattened map of any value beside `{}`", wf.rust_name),
        );
    }

    /// A reader's flattened enum the writer never sends.
    fn flat_missing(&mut self, rf: &'a FlatEnumDef) {
        if self.reader.flat_enum(&rf.ty).is_some_and(|(_, o)| o) {
            return;
        }
        let rule = self.direction.pick(
            Rule::RequiredFieldNotSent,
            Rule::FieldAddedRequired,
            Rule::FieldRemoved,
        );
        let (writer, reader) = self.sides();
        let why = format!(
            "the flattened enum `{}` is required by {reader} but never sent by {writer}",
            rf.rust_name
        );
        let hint = match self.direction {
            Direction::Check => {
                "send the flattened enum from the producer, or make the consumer's an `Option`"
            }
            Direction::Backward => {
                "make the new flattened enum an `Option`, so data without it is still read"
            }
            Direction::Forward => {
                "restore the flattened enum (old readers require it), or publish the removal as a new major version"
            }
        };
        self.report(rule, why, hint.to_owned());
    }

    /// A writer's flattened enum the reader does not read: its keys are unknown to the
    /// reader. A reader that captures unknown keys in a map reads them as its values, which
    /// is compared only when the map takes any value.
    fn flat_unknown(&mut self, wf: &'a FlatEnumDef, r: &'a StructDef) {
        match (r.unknown, &r.extra) {
            (Unknown::Deny, _) => {
                let (writer, reader) = self.sides();
                let why = format!(
                    "{writer} send the keys of the flattened enum `{}`, which {reader} do not know and deny (`deny_unknown_fields`)",
                    wf.rust_name
                );
                let hint = self.forward_or(
                    "old readers deny unknown fields: do not send the flattened enum to them; publish a new major version",
                    "remove `#[serde(deny_unknown_fields)]` from the reader, or declare the flattened enum there",
                );
                self.report(Rule::UnknownFieldDenied, why, hint.to_owned());
            }
            (Unknown::Capture, Some(extra)) if !matches!(self.reader.resolve(extra), Type::Any) => {
                let (writer, reader) = self.sides();
                let why = format!(
                    "{writer} send the keys of the flattened enum `{}`, which {reader} capture as `{extra}` values (the engine does not compare an enum's keys with a map's values)",
                    wf.rust_name
                );
                self.report_revert(
                    Rule::TypeChanged,
                    why,
                    &format!("a reader that reads the flattened enum `{}`", wf.rust_name),
                );
            }
            _ => {}
        }
    }

    fn read_twice(&mut self, sent: &'a SenderField, recv: &'a ReceiverField) {
        let (writer, reader) = self.sides();
        let why = format!(
            "{writer} may send `{}` next to another key that {reader} read into the same field `{}`; serde rejects the duplicate field",
            sent.name, recv.name
        );
        self.at(self.field_seg(&sent.name, &recv.name), |c| {
            c.report(
                Rule::FieldReadTwice,
                why,
                "send the field under one key only, or drop the reader's alias for the other key"
                    .to_owned(),
            );
        });
    }

    fn unknown_denied(&mut self, key: &str, any_key: bool) {
        let what = if any_key {
            "further keys (a flattened map)".to_owned()
        } else {
            format!("the field `{key}`")
        };
        let (writer, reader) = self.sides();
        let why = format!(
            "{writer} send {what}, which {reader} do not know and deny (`deny_unknown_fields`)"
        );
        let hint = self.forward_or(
            "old readers deny unknown fields: do not send new fields to them; publish a new major version",
            "remove `#[serde(deny_unknown_fields)]` from the reader, or declare the field there",
        );
        self.report(Rule::UnknownFieldDenied, why, hint.to_owned());
    }

    /// A field both sides have under one wire key.
    fn field_pair(
        &mut self,
        wf: &'a FieldDef,
        sent: &'a SenderField,
        rf: &'a FieldDef,
        recv: &'a ReceiverField,
    ) {
        self.at(self.field_seg(&sent.name, &recv.name), |c| {
            c.presence(sent, recv);
            c.provenance(wf, rf, sent);
            c.ty(&wf.ty, &rf.ty);
        });
    }

    /// A field the reader requires and the writer sends only when present.
    fn presence(&mut self, sent: &SenderField, recv: &ReceiverField) {
        if sent.emit != Emit::IfPresent || !recv.required {
            return;
        }
        let rule = self.direction.pick(
            Rule::RequiredFieldMayBeOmitted,
            Rule::FieldBecameRequired,
            Rule::FieldBecameOmittable,
        );
        let (writer, reader) = self.sides();
        let why = format!(
            "`{}` is required by {reader} but sent by {writer} only when present (`skip_serializing_if`)",
            recv.name
        );
        let hint = self.forward_or(
            "remove `skip_serializing_if` so the field is always sent, or publish a new major version",
            "give the reader's field `#[serde(default)]` or make it an `Option`",
        );
        self.report(rule, why, hint.to_owned());
    }

    /// A field the writer marks as an assumption and the reader relies on as confirmed.
    fn provenance(&mut self, wf: &FieldDef, rf: &FieldDef, sent: &SenderField) {
        if wf.provenance != Provenance::Assumption || rf.provenance != Provenance::Confirmed {
            return;
        }
        let (writer, reader) = self.sides();
        let why = format!(
            "`{}` is an unconfirmed assumption for {writer} but {reader} rely on it as confirmed",
            sent.name
        );
        self.report(
            Rule::ProvenanceWeakened,
            why,
            "mark the reader's field `#[handoff(assumption)]`, or confirm the value before sending it"
                .to_owned(),
        );
    }

    /// A reader field no writer field is sent under: a rename, or a field missing.
    fn field_missing(
        &mut self,
        rf: &'a FieldDef,
        recv: &'a ReceiverField,
        unknown: &[(&'a FieldDef, &'a SenderField)],
        consumed: &mut [bool],
    ) {
        let free = |consumed: &[bool], j: usize| !consumed.get(j).copied().unwrap_or(true);
        let consume = |consumed: &mut [bool], j: usize| {
            if let Some(c) = consumed.get_mut(j) {
                *c = true;
            }
        };
        let (writer, reader) = self.sides();
        // Declared by the reader: `renamed_from` names a key the writer sends.
        for old in &rf.renamed_from {
            let found = unknown
                .iter()
                .enumerate()
                .find(|(j, (_, s))| free(consumed, *j) && s.name == *old);
            if let Some((j, (wf, sent))) = found {
                consume(consumed, j);
                let why = format!(
                    "`{}` was renamed from `{old}` but {reader} do not read `{old}`, which {writer} send",
                    recv.name
                );
                let hint = format!(
                    "add `#[serde(alias = \"{old}\")]` to the field so `{old}` is still read"
                );
                self.at(self.field_seg(&sent.name, &recv.name), |c| {
                    c.report(Rule::FieldRenamedWithoutAlias, why, hint);
                    // What the alias would make the reader read must still fit.
                    c.ty(&wf.ty, &rf.ty);
                });
                return;
            }
        }
        // Declared by the writer: it sends under a new name what the reader reads under an
        // old one.
        let found = unknown.iter().enumerate().find(|(j, (wf, _))| {
            free(consumed, *j) && wf.renamed_from.iter().any(|old| recv.accepts(old))
        });
        if let Some((j, (_, sent))) = found {
            if !recv.required {
                return;
            }
            consume(consumed, j);
            let why = format!(
                "`{}` was renamed to `{}`, but {reader} require it as `{}`",
                recv.name, sent.name, recv.name
            );
            let hint = format!(
                "an alias only helps new readers; for {reader} keep writing `{}` (`#[serde(rename = \"{}\", alias = \"{}\")]`), or publish a new major version",
                recv.name, recv.name, sent.name
            );
            self.at(self.field_seg(&sent.name, &recv.name), |c| {
                c.report(Rule::FieldRenamed, why, hint);
            });
            return;
        }
        if !recv.required {
            return;
        }
        // Undeclared: a field of the same type is sent under a key the reader does not read.
        let mut tried = 0;
        let mut likely = None;
        for (j, (wf, sent)) in unknown.iter().enumerate() {
            if tried >= MAX_RENAME_CANDIDATES {
                break;
            }
            if !free(consumed, j) || sent.emit != Emit::Always {
                continue;
            }
            tried += 1;
            if self.fits(|c| c.ty(&wf.ty, &rf.ty)) {
                likely = Some((j, sent));
                break;
            }
        }
        if let Some((j, sent)) = likely {
            consume(consumed, j);
            let (old, new) = self.forward_or(
                (recv.name.as_str(), sent.name.as_str()),
                (sent.name.as_str(), recv.name.as_str()),
            );
            let why = format!(
                "`{}` is required by {reader} but not sent by {writer}, which send `{}` of the same type: likely a rename",
                recv.name, sent.name
            );
            let hint = format!(
                "if `{new}` was renamed from `{old}`, declare `#[handoff(renamed_from = \"{old}\")]` and add `#[serde(alias = \"{old}\")]`"
            );
            self.at(self.field_seg(&sent.name, &recv.name), |c| {
                c.report(Rule::FieldLikelyRenamed, why, hint);
            });
            return;
        }
        let rule = self.direction.pick(
            Rule::RequiredFieldNotSent,
            Rule::FieldAddedRequired,
            Rule::FieldRemoved,
        );
        let why = format!(
            "`{}` is required by {reader} but never sent by {writer}",
            recv.name
        );
        let hint = match self.direction {
            Direction::Check => {
                "send the field from the producer, or give the consumer's field `#[serde(default)]` or an `Option` type"
            }
            Direction::Backward => {
                "give the new field `#[serde(default)]` or an `Option` type, so data without it is still read"
            }
            Direction::Forward => {
                "restore the field (old readers require it), or publish the removal as a new major version"
            }
        };
        self.at(Seg::Field(recv.name.as_str()), |c| {
            c.report(rule, why, hint.to_owned());
        });
    }

    // ----- enums -----------------------------------------------------------------------

    fn enums(&mut self, w: &'a EnumDef, r: &'a EnumDef) {
        if w.repr != r.repr {
            // The same representation with other keys, or another representation.
            let same_kind = core::mem::discriminant(&w.repr) == core::mem::discriminant(&r.repr);
            let (rule, what) = if same_kind {
                (Rule::EnumTagChanged, "the keys")
            } else {
                (Rule::EnumReprChanged, "the representation")
            };
            let (writer, reader) = self.sides();
            let (written, read) = (repr_text(&w.repr), repr_text(&r.repr));
            let why = format!("{writer} write the enum {written} but {reader} read it {read}");
            self.report_revert(rule, why, &format!("{what} {written}"));
            return;
        }
        // From here on both sides have the same representation and keys. A reader enum's
        // `deny_unknown_fields` then rejects no key a writer sends: beside the tag and the
        // content (adjacently tagged) a writer sends nothing, and the keys of a struct
        // variant are compared field by field below, where the variant's own `unknown`
        // carries the enum's flag.
        if w.repr == Repr::Untagged {
            self.untagged(w, r);
            return;
        }
        if w.has_untagged_variants() || r.has_untagged_variants() {
            self.mixed(w, r);
            return;
        }
        let string_enum = w.is_string_enum() && r.is_string_enum();
        let mut index: HashMap<&'a str, &'a VariantDef> = HashMap::with_capacity(r.variants.len());
        for rv in &r.variants {
            for tag in &rv.receiver {
                index.entry(tag.as_str()).or_insert(rv);
            }
        }
        for wv in &w.variants {
            if self.stopped() {
                return;
            }
            let Some(tag) = &wv.sender else { continue };
            self.at(Seg::Variant(tag), |c| match index.get(tag.as_str()) {
                Some(rv) => match taken_tag(c.reader, &r.repr, rv) {
                    Some(key) => c.variant_unreadable(rv, key),
                    None => c.variant_pair(wv, rv),
                },
                None => {
                    let caught = r.catch_all().is_some()
                        && (matches!(wv.kind, VariantDefKind::Unit)
                            || matches!(w.repr, Repr::Internal { .. }));
                    if !caught {
                        c.variant_unknown(tag, string_enum);
                    }
                }
            });
        }
    }

    /// Tagged enums of the same representation where either side has untagged variants
    /// (see the [module documentation](crate::compat)): a tagged writer variant is read by
    /// the reader's variant of its tag, or by an untagged reader variant that reads any
    /// value; an untagged writer variant by one of the reader's untagged variants.
    fn mixed(&mut self, w: &'a EnumDef, r: &'a EnumDef) {
        let mut index: HashMap<&'a str, &'a VariantDef> = HashMap::with_capacity(r.variants.len());
        for rv in r.tagged_variants() {
            for tag in &rv.receiver {
                index.entry(tag.as_str()).or_insert(rv);
            }
        }
        let reads_anything = r
            .untagged_variants()
            .filter(|rv| !rv.receiver.is_empty())
            .any(|rv| self.reads_any_value(rv));
        // The reader's variant of the same Rust name with the other tagging, if any.
        let retagged = |wv: &VariantDef| {
            r.variants.iter().find(|rv| {
                rv.rust_name == wv.rust_name
                    && rv.untagged != wv.untagged
                    && !rv.receiver.is_empty()
            })
        };
        for wv in w.tagged_variants() {
            if self.stopped() {
                return;
            }
            let Some(tag) = &wv.sender else { continue };
            self.at(Seg::Variant(tag), |c| match index.get(tag.as_str()) {
                Some(rv) => match taken_tag(c.reader, &r.repr, rv) {
                    Some(key) => c.variant_unreadable(rv, key),
                    None => c.variant_pair(wv, rv),
                },
                None => {
                    let caught = r.catch_all().is_some()
                        && (matches!(wv.kind, VariantDefKind::Unit)
                            || matches!(w.repr, Repr::Internal { .. }));
                    if caught
                        || reads_anything
                        || r.untagged_variants()
                            .any(|rv| c.tagged_form_fits(&w.repr, wv, rv))
                    {
                        return;
                    }
                    match retagged(wv) {
                        Some(_) => c.tagging_changed(wv, true),
                        None => c.variant_unknown(tag, false),
                    }
                }
            });
        }
        for wv in w.untagged_variants() {
            if self.stopped() {
                return;
            }
            if wv.sender.is_none() {
                continue;
            }
            let fits_one = r
                .untagged_variants()
                .filter(|rv| !rv.receiver.is_empty())
                .any(|rv| self.fits(|c| c.variant_pair(wv, rv)));
            if fits_one {
                continue;
            }
            let same_name = r
                .untagged_variants()
                .find(|rv| !rv.receiver.is_empty() && rv.rust_name == wv.rust_name);
            self.at(Seg::Variant(&wv.rust_name), |c| {
                match (retagged(wv), same_name) {
                    (Some(_), _) => c.tagging_changed(wv, false),
                    (None, Some(rv)) => c.variant_pair(wv, rv),
                    (None, None) => {
                        let (writer, reader) = c.sides();
                        let why = format!(
                            "the untagged variant `{}` sent by {writer} fits none of the untagged variants of {reader}",
                            wv.rust_name
                        );
                        let what = format!("a reader variant that reads `{}`", wv.rust_name);
                        c.report_revert(Rule::UntaggedVariantUnmatched, why, &what);
                    }
                }
            });
        }
    }

    /// Whether the reader's untagged variant `rv` reads the tagged form of the writer's
    /// variant `wv`, as far as the description tells it: an externally tagged unit variant
    /// (its name, a string) read by a newtype of a type that reads any string, and an
    /// internally tagged variant (the tag beside its fields, or beside the fields of its
    /// newtype's struct; the tag alone for a unit variant) read by a struct variant that
    /// ignores unknown keys, reads none under the tag's key and reads the writer's fields.
    /// Anything else is assumed not to fit (conservatively).
    fn tagged_form_fits(&mut self, repr: &Repr, wv: &'a VariantDef, rv: &'a VariantDef) -> bool {
        if rv.receiver.is_empty() {
            return false;
        }
        match (repr, &wv.kind, &rv.kind) {
            (Repr::External, VariantDefKind::Unit, VariantDefKind::Newtype(content)) => {
                self.fits(|c| c.ty(&PLAIN_STRING, content))
            }
            (Repr::Internal { tag }, kind, VariantDefKind::Struct(rs)) => {
                let ignores_tag = rs.unknown == Unknown::Ignore
                    && rs.flattened.is_empty()
                    && !rs
                        .fields
                        .iter()
                        .any(|f| f.receiver.as_ref().is_some_and(|r| r.accepts(tag)));
                if !ignores_tag {
                    return false;
                }
                let ws: &'a StructDef = match kind {
                    VariantDefKind::Unit => &NO_FIELDS,
                    VariantDefKind::Struct(ws) => ws,
                    VariantDefKind::Newtype(ty) => match self.writer.resolve(ty) {
                        Type::Named(name) => match self.writer.def(name).map(|d| &d.body) {
                            Some(Body::Struct(ws)) => ws,
                            _ => return false,
                        },
                        _ => return false,
                    },
                    VariantDefKind::Tuple(_) => return false,
                };
                // The writer's own fields must not write the tag's key either.
                let writes_tag = ws
                    .fields
                    .iter()
                    .any(|f| f.sender.as_ref().is_some_and(|s| s.name == *tag));
                !writes_tag
                    && ws.unknown != Unknown::Capture
                    && ws.flattened.is_empty()
                    && self.fits(|c| c.structs(ws, rs))
            }
            _ => false,
        }
    }

    /// Whether the untagged variant `rv` reads any JSON value: a newtype of `any`.
    fn reads_any_value(&self, rv: &VariantDef) -> bool {
        matches!(&rv.kind, VariantDefKind::Newtype(ty) if *self.reader.resolve(ty) == Type::Any)
    }

    /// `wv` is tagged on the writer's side (`tagged`) and untagged on the reader's, or the
    /// other way round.
    fn tagging_changed(&mut self, wv: &VariantDef, tagged: bool) {
        let (writer, reader) = self.sides();
        let (written, read) = if tagged {
            (
                "under its tag",
                "as its content alone (`#[serde(untagged)]`)",
            )
        } else {
            (
                "as its content alone (`#[serde(untagged)]`)",
                "only under its tag",
            )
        };
        let why = format!(
            "{writer} write the variant `{}` {written} but {reader} read it {read}",
            wv.rust_name
        );
        let what = format!("the tagging of `{}`", wv.rust_name);
        self.report_revert(Rule::VariantTaggingChanged, why, &what);
    }

    /// The reader's variant `rv` is never read: its content needs `key`, its enum's tag.
    fn variant_unreadable(&mut self, rv: &VariantDef, key: &str) {
        let (writer, reader) = self.sides();
        let why = format!(
            "{writer} may send `{}`, which {reader} never read: its content is an enum tagged \
             under `{key}`, the key serde takes first for the enclosing enum",
            rv.rust_name
        );
        let hint = format!(
            "tag the enum inside `{}` under another key than `{key}` \
             (serde also writes `{key}` twice there, which it cannot read back)",
            rv.rust_name
        );
        self.report(Rule::VariantUnreadable, why, hint);
    }

    fn variant_unknown(&mut self, tag: &str, string_enum: bool) {
        let rule = if string_enum {
            self.direction.pick(
                Rule::EnumValueUnknown,
                Rule::EnumValueRemoved,
                Rule::EnumValueAdded,
            )
        } else {
            self.direction.pick(
                Rule::EnumVariantUnknown,
                Rule::EnumVariantRemoved,
                Rule::EnumVariantAdded,
            )
        };
        let what = if string_enum { "value" } else { "variant" };
        let (writer, reader) = self.sides();
        let why = format!("{writer} may send the {what} `{tag}`, which {reader} do not know");
        let hint = match self.direction {
            Direction::Check => format!(
                "add `{tag}` to the consumer's enum, or give it a catch-all `#[serde(other)]` unit variant"
            ),
            Direction::Backward => format!(
                "keep the {what} `{tag}` (old data holds it), or add a catch-all `#[serde(other)]` unit variant"
            ),
            Direction::Forward => format!(
                "old readers reject `{tag}`: publish it in a new major version; give future enums a catch-all `#[serde(other)]` variant"
            ),
        };
        self.report(rule, why, hint);
    }

    fn variant_pair(&mut self, wv: &'a VariantDef, rv: &'a VariantDef) {
        match (&wv.kind, &rv.kind) {
            (VariantDefKind::Unit, VariantDefKind::Unit) => {}
            (VariantDefKind::Newtype(a), VariantDefKind::Newtype(b)) => self.ty(a, b),
            (VariantDefKind::Tuple(a), VariantDefKind::Tuple(b)) if a.len() == b.len() => {
                self.indexed(a.iter().zip(b));
            }
            (VariantDefKind::Struct(a), VariantDefKind::Struct(b)) => self.structs(a, b),
            (a, b) => {
                let (writer, reader) = self.sides();
                let why = format!(
                    "{writer} send `{}` carrying {} but {reader} read it carrying {}",
                    wv.rust_name,
                    variant_kind_text(a),
                    variant_kind_text(b)
                );
                let what = format!("what `{}` carries", wv.rust_name);
                self.report_revert(Rule::TypeChanged, why, &what);
            }
        }
    }

    /// Untagged enums: every variant the writer sends must fit some variant of the reader.
    fn untagged(&mut self, w: &'a EnumDef, r: &'a EnumDef) {
        for wv in &w.variants {
            if self.stopped() {
                return;
            }
            if wv.sender.is_none() {
                continue;
            }
            let fits_one = r
                .variants
                .iter()
                .filter(|rv| !rv.receiver.is_empty())
                .any(|rv| self.fits(|c| c.variant_pair(wv, rv)));
            if fits_one {
                continue;
            }
            // The wire carries no tag, but a reader variant of the same name is most likely
            // the one meant: report precisely what in it does not fit.
            let same_name = r
                .variants
                .iter()
                .find(|rv| !rv.receiver.is_empty() && rv.rust_name == wv.rust_name);
            self.at(Seg::Variant(&wv.rust_name), |c| match same_name {
                Some(rv) => c.variant_pair(wv, rv),
                None => {
                    let (writer, reader) = c.sides();
                    let why = format!(
                        "the untagged variant `{}` sent by {writer} fits none of the variants of {reader}",
                        wv.rust_name
                    );
                    let what = format!("a reader variant that reads `{}`", wv.rust_name);
                    c.report_revert(Rule::UntaggedVariantUnmatched, why, &what);
                }
            });
        }
    }
}

/// A string of no format: what an externally tagged unit variant is written as.
static PLAIN_STRING: Type = Type::String(StringFormat::Plain);

/// A struct without fields that ignores unknown keys: an internally tagged unit variant's
/// fields beside its tag.
static NO_FIELDS: StructDef = StructDef {
    fields: Vec::new(),
    unknown: Unknown::Ignore,
    extra: None,
    flattened: Vec::new(),
};

/// The tag of the enum represented as `repr` when its variant `rv` is never read, as its
/// content needs that tag for itself (see [`Schema::needs_taken_tag`]).
fn taken_tag<'r>(schema: &Schema, repr: &'r Repr, rv: &VariantDef) -> Option<&'r str> {
    match (repr, &rv.kind) {
        (Repr::Internal { tag }, VariantDefKind::Newtype(content))
            if schema.needs_taken_tag(content, tag) =>
        {
            Some(tag)
        }
        _ => None,
    }
}

/// The keys a flattened enum may write or read beside a struct's fields: an externally
/// tagged one's variant names, the tag and content keys of a tagged one, and the fields of
/// the struct variants of an internally tagged or untagged one (which reads every key).
fn flat_keys(e: &EnumDef) -> Vec<&str> {
    let mut keys = Vec::new();
    match &e.repr {
        Repr::External => {
            for v in &e.variants {
                keys.extend(v.sender.iter().map(String::as_str));
                keys.extend(v.receiver.iter().map(String::as_str));
            }
        }
        Repr::Internal { tag } => keys.push(tag.as_str()),
        Repr::Adjacent { tag, content } => keys.extend([tag.as_str(), content.as_str()]),
        Repr::Untagged => {}
    }
    if matches!(e.repr, Repr::Internal { .. } | Repr::Untagged) {
        for v in &e.variants {
            if let VariantDefKind::Struct(s) = &v.kind {
                for f in &s.fields {
                    keys.extend(f.sender.iter().map(|x| x.name.as_str()));
                    if let Some(r) = &f.receiver {
                        keys.push(&r.name);
                        keys.extend(r.aliases.iter().map(String::as_str));
                    }
                }
            }
        }
    }
    keys
}

/// A flattened enum's type without its `Option` (through newtypes): the named type that
/// leads to the enum.
fn flat_inner<'s>(schema: &'s Schema, ty: &'s Type) -> &'s Type {
    let mut ty = ty;
    for _ in 0..MAX_DEPTH {
        match schema.resolve(ty) {
            Type::Option(inner) => ty = inner,
            _ => return ty,
        }
    }
    ty
}

/// The integers a type holds: every value of an integer kind, or a constrained set.
fn int_values(ty: &Type) -> Option<IntSet> {
    match ty {
        Type::Int(kind) => Some(IntSet::new(*kind, [IntRange::all_of(*kind)])),
        Type::Constrained(c) => match &**c {
            Constraint::Int { values, .. } => Some(values.clone()),
            Constraint::String(_) => None,
        },
        _ => None,
    }
}

/// The strings a type holds, as a constraint: a string of a format, one `char`, or a
/// constrained string.
fn string_values(ty: &Type) -> Option<StringConstraint> {
    match ty {
        Type::String(format) => Some(StringConstraint {
            format: *format,
            length: Length::ANY,
            pattern: None,
        }),
        Type::Char => Some(StringConstraint {
            format: StringFormat::Plain,
            length: Length {
                min: 1,
                max: Some(1),
            },
            pattern: None,
        }),
        Type::Constrained(c) => match &**c {
            Constraint::String(s) => Some(s.clone()),
            Constraint::Int { .. } => None,
        },
        _ => None,
    }
}

fn is_string_enum(body: &Body) -> bool {
    matches!(body, Body::Enum(e) if e.is_string_enum())
}

fn body_kind(body: &Body) -> &'static str {
    match body {
        Body::Struct(_) => "a struct",
        Body::Enum(_) => "an enum",
        Body::Newtype(_) => "a newtype",
        Body::Views { .. } => "a type with two views",
    }
}

fn variant_kind_text(kind: &VariantDefKind) -> String {
    match kind {
        VariantDefKind::Unit => "nothing".to_owned(),
        VariantDefKind::Newtype(t) => format!("`{t}`"),
        VariantDefKind::Tuple(items) => format!("a tuple of {}", items.len()),
        VariantDefKind::Struct(_) => "named fields".to_owned(),
    }
}

fn repr_text(repr: &Repr) -> String {
    match repr {
        Repr::External => "externally tagged".to_owned(),
        Repr::Internal { tag } => format!("internally tagged (tag `{tag}`)"),
        Repr::Adjacent { tag, content } => {
            format!("adjacently tagged (tag `{tag}`, content `{content}`)")
        }
        Repr::Untagged => "untagged".to_owned(),
    }
}

/// The path text and the innermost field's wire name.
fn render(path: &[Seg<'_>]) -> (String, Option<String>) {
    let mut out = String::new();
    let mut field = None;
    for seg in path {
        match seg {
            Seg::Field(name) => {
                if !out.is_empty() {
                    out.push('.');
                }
                out.push_str(name);
                field = Some(*name);
            }
            Seg::Item => out.push_str("[]"),
            Seg::Key => {
                if !out.is_empty() {
                    out.push('.');
                }
                out.push('*');
            }
            Seg::Index(i) => {
                if !out.is_empty() {
                    out.push('.');
                }
                let _ = write!(out, "{i}");
            }
            Seg::Variant(tag) => {
                out.push('(');
                out.push_str(tag);
                out.push(')');
            }
            Seg::Flatten(name) => {
                if !out.is_empty() {
                    out.push('.');
                }
                out.push_str("(flatten ");
                out.push_str(name);
                out.push(')');
            }
        }
    }
    (out, field.map(str::to_owned))
}
