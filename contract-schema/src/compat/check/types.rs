//! Whether every value of a writer's type is read by a reader's type: the comparison of two
//! types, named types once per pair, and the findings about scalars, options, sequences,
//! tuples and maps.

use super::checker::{Checker, Pair, Side, MAX_DEPTH};
use super::paths::{body_kind, Seg};
use crate::compat::direction::Direction;
use crate::model::{Body, Constraint, IntRange, IntSet, Length, StringConstraint, Type, View};
use crate::rules::Rule;
use crate::scalar::StringFormat;
impl<'a> Checker<'a> {
    // ----- types -----------------------------------------------------------------------

    /// Whether every value of writer type `w` is read by reader type `r`.
    pub(super) fn ty(&mut self, w: &'a Type, r: &'a Type) {
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
    pub(super) fn one_side_named(
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
            self.met_again(pair);
            return;
        }
        let before = self.broken_count;
        self.in_progress.insert(pair);
        self.ty_resolved(self.writer.resolve(w), self.reader.resolve(r));
        self.in_progress.remove(&pair);
        self.first_visit(pair);
        self.compared(pair, before);
    }

    /// Marks a pair as compared; false when it already was (or is being) compared. A trial
    /// logs the pairs it marks so that they are compared again for real after it.
    pub(super) fn first_visit(&mut self, pair: Pair<'a>) -> bool {
        if !self.visited.insert(pair) {
            return false;
        }
        if self.trial {
            self.trial_log.push(pair);
        }
        true
    }

    pub(super) fn ty_resolved(&mut self, w: &'a Type, r: &'a Type) {
        match (w, r) {
            (_, Type::Any)
            | (Type::Unit, Type::Unit | Type::Option(_))
            | (Type::Bool, Type::Bool)
            | (Type::Int(_) | Type::Float(_), Type::Float(_))
            | (Type::Char, Type::Char | Type::String(StringFormat::Plain)) => {}
            // An inner value that is `null` itself (`unit`) is read as `None`.
            (Type::Option(wi), Type::Option(ri)) => {
                if !matches!(self.writer.resolve(wi), Type::Unit) {
                    self.ty(wi, ri);
                }
            }
            (Type::Option(wi), _) => {
                // An `option` of what already holds `null` (`any`, `unit`) is that type on
                // the wire: its own comparison says what the reader refuses.
                if !r.is_nullable() && !self.writer.resolve(wi).is_nullable() {
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
    pub(super) fn constrained(&mut self, w: &'a Type, r: &'a Type) {
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

    pub(super) fn int_out_of_range(&mut self, w: &Type, r: &Type) {
        let rule = self
            .direction
            .pick(Rule::IntOutOfRange, Rule::IntNarrowed, Rule::IntWidened);
        let (writer, reader) = self.sides();
        let why = format!("`{w}` values sent by {writer} do not all fit the `{r}` of {reader}");
        self.report_revert(rule, why, &format!("an integer type that holds `{w}`"));
    }

    pub(super) fn float_into_integer(&mut self, w: &Type, r: &Type) {
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

    pub(super) fn string_into_char(&mut self) {
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

    pub(super) fn outside_constraint(&mut self, w: &Type, r: &Type) {
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
    pub(super) fn map_key(&mut self, w: &'a Type, r: &'a Type) {
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

    pub(super) fn item(&mut self, w: &'a Type, r: &'a Type) {
        self.at(Seg::Item, |c| c.ty(w, r));
    }

    /// The items of a tuple (or a fixed-length array) against the reader's, by position.
    pub(super) fn indexed(&mut self, pairs: impl Iterator<Item = (&'a Type, &'a Type)>) {
        for (i, (w, r)) in pairs.enumerate() {
            self.at(Seg::Index(i), |c| c.ty(w, r));
        }
    }

    pub(super) fn null_not_accepted(&mut self, r: &Type) {
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

    pub(super) fn format_changed(&mut self, w: &Type, r: &Type) {
        let (writer, reader) = self.sides();
        let why = format!("`{w}` sent by {writer} is not promised to be the `{r}` {reader} expect");
        self.report_revert(
            Rule::StringFormatChanged,
            why,
            &format!("`{w}` on the reading side"),
        );
    }

    pub(super) fn type_changed(&mut self, w: &Type, r: &Type) {
        let (writer, reader) = self.sides();
        let why = format!("`{w}` sent by {writer} is not read as the `{r}` of {reader}");
        self.report_revert(Rule::TypeChanged, why, &format!("the type `{w}`"));
    }

    /// Two named types, compared by structure. Each pair is compared once.
    pub(super) fn named(&mut self, w: &'a Type, r: &'a Type, a: &'a str, b: &'a str) {
        let pair = (Side::Named(a), Side::Named(b));
        if !self.first_visit(pair) {
            self.met_again(pair);
            return;
        }
        let before = self.broken_count;
        self.named_pair(w, r, a, b);
        self.compared(pair, before);
    }

    /// [`Checker::named`]'s comparison of a pair met for the first time.
    fn named_pair(&mut self, w: &'a Type, r: &'a Type, a: &'a str, b: &'a str) {
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
        // A reader's newtype of itself (through newtypes only) reads no value: what the
        // writer sends is not read, unless it sends none (a newtype of itself too, or an enum
        // that sends no variant).
        let reader = self.reader;
        let reader_loops = self.reader_loops.get_or_init(|| reader.looping_newtypes());
        if reader_loops.contains(b) && !self.sends_no_value(a) {
            let (writer, reader) = self.sides();
            let why = format!(
                "`{a}` sent by {writer} is not read by `{b}` of {reader}, a newtype of itself that reads no value"
            );
            self.report_revert(
                Rule::TypeChanged,
                why,
                &format!("a reader type that holds `{a}`"),
            );
            return;
        }
        match (&wd.body, &rd.body) {
            (Body::Struct(ws), Body::Struct(rs)) => self.structs(ws, rs),
            (Body::Enum(we), Body::Enum(re)) => self.enums(we, re),
            // A writer's alternatives (an untagged enum: a producer's object that writes one
            // of several keys, as JSON Schema says it) read by a reader's struct.
            (Body::Enum(we), Body::Struct(rs)) if we.repr == crate::model::Repr::Untagged => {
                self.untagged_into_struct(we, r, rs);
            }
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
}

impl Checker<'_> {
    /// Whether the writer sends no value of its named type `name`: a newtype of itself
    /// (through newtypes only), or an enum none of whose variants is sent.
    fn sends_no_value(&self, name: &str) -> bool {
        let writer = self.writer;
        self.writer_loops
            .get_or_init(|| writer.looping_newtypes())
            .contains(name)
            || matches!(
                writer.def(name).map(|d| &d.body),
                Some(Body::Enum(e)) if e.sends_no_variant()
            )
    }
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
