//! Structs: their fields matched by wire key (presence, provenance, keys read twice, missing
//! fields and undeclared renames), the keys a reader does not know, and flattened enums
//! (matched by Rust field name, their keys beside the struct's fields).

use std::collections::{HashMap, HashSet};

use crate::compat::direction::Direction;
use crate::compat::fix::{AttributeEdit, Fix, FixTarget};
use crate::model::{
    Emit, FieldDef, FlatEnumDef, ReceiverField, Repr, Schema, SenderField, StructDef, Type,
    Unknown, VariantDefKind,
};
use crate::rules::Rule;
use crate::shape::Provenance;

use super::checker::{Checker, MAX_DEPTH};
use super::paths::Seg;

/// How many candidate fields a missing field is compared with to spot an undeclared rename.
const MAX_RENAME_CANDIDATES: usize = 16;

impl<'a> Checker<'a> {
    // ----- structs ---------------------------------------------------------------------

    pub(super) fn structs(&mut self, w: &'a StructDef, r: &'a StructDef) {
        let index = reader_keys(r);
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
        let mut unsent = Unsent::new(unknown);
        for (rf, was_matched) in r.fields.iter().zip(&matched) {
            if self.stopped() {
                return;
            }
            if let (false, Some(recv)) = (*was_matched, &rf.receiver) {
                self.field_missing(rf, recv, &mut unsent);
            }
        }
        if w.unknown == Unknown::Capture {
            self.at(Seg::Key, |c| match (r.unknown, &w.extra, &r.extra) {
                (Unknown::Deny, _, _) => c.unknown_denied("*", true),
                (Unknown::Capture, Some(we), Some(re)) => c.ty(we, re),
                _ => {}
            });
        }
        for ((wf, sent), used) in unsent.unknown.iter().zip(&unsent.consumed) {
            if *used {
                continue;
            }
            self.at(Seg::Field(sent.name.as_str()), |c| {
                match (r.unknown, &r.extra) {
                    (Unknown::Deny, _) => c.unknown_denied(&sent.name, false),
                    (Unknown::Capture, Some(extra)) => c.ty(wf.sent_type(), extra),
                    _ => {}
                }
            });
        }
        self.flattened(w, r, &index);
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
    fn flattened(&mut self, w: &'a StructDef, r: &'a StructDef, index: &ReaderKeys<'a>) {
        // The first of each name, as a search in declaration order would find it.
        let mut sent: HashMap<&'a str, &'a FlatEnumDef> = HashMap::new();
        for f in w.flattened.iter().filter(|f| f.sent) {
            sent.entry(f.rust_name.as_str()).or_insert(f);
        }
        let read: HashSet<&'a str> = r
            .flattened
            .iter()
            .filter(|f| f.read)
            .map(|f| f.rust_name.as_str())
            .collect();
        for rf in r.flattened.iter().filter(|f| f.read) {
            if self.stopped() {
                return;
            }
            let wf = sent.get(rf.rust_name.as_str()).copied();
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
            if read.contains(wf.rust_name.as_str()) {
                continue;
            }
            self.at(Seg::Flatten(&wf.rust_name), |c| c.flat_unknown(wf, r));
        }
        self.flat_key_clashes(w, r, index);
    }

    /// Keys one side writes as a field and the other reads as part of a flattened enum (or
    /// the reverse): serde hands the key to whichever reads it first, so what a writer's
    /// field or enum sends is read by something else. Reported conservatively, without
    /// comparing what is sent with what reads it.
    fn flat_key_clashes(&mut self, w: &'a StructDef, r: &'a StructDef, index: &ReaderKeys<'a>) {
        let reads_field = |key: &str| index.contains_key(key);
        // The keys of each flattened enum the reader reads, gathered once for every field.
        let reader_flat: Vec<(&'a FlatEnumDef, HashSet<&'a str>)> = r
            .flattened
            .iter()
            .filter(|f| f.read)
            .filter_map(|f| {
                let (e, _) = self.reader.flat_enum(&f.ty)?;
                Some((f, e.flat_keys().into_iter().collect()))
            })
            .collect();
        // A writer's field the reader does not read as a field, but its flattened enum may.
        for wf in &w.fields {
            let Some(sent) = &wf.sender else { continue };
            if reads_field(&sent.name) {
                continue;
            }
            let clash = reader_flat
                .iter()
                .find(|(_, keys)| keys.contains(sent.name.as_str()))
                .map(|&(f, _)| f);
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
            let Some(key) = e.flat_keys().into_iter().find(|k| reads_field(k)) else {
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
            let rule = self.unknown_variant_rule(string_enum);
            self.at(Seg::Variant(tag), |c| {
                let (writer, reader) = c.sides();
                let why = format!(
                    "{writer} may send `{tag}` in the flattened enum `{}`, which {reader} do not know: a catch-all `#[serde(other)]` takes no key of a flattened enum",
                    rf.rust_name
                );
                let (hint, fix) = match c.direction {
                    Direction::Check => {
                        (format!("add `{tag}` to the consumer's enum"), Fix::Described)
                    }
                    Direction::Backward => (
                        format!("keep the variant `{tag}` (old data holds it)"),
                        Fix::KeepVariant {
                            name: tag.clone(),
                        },
                    ),
                    Direction::Forward => (
                        format!("old readers reject `{tag}`: publish it in a new major version"),
                        Fix::NewMajorVersion,
                    ),
                };
                c.report_fix(rule, why, hint, fix);
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

    pub(super) fn unknown_denied(&mut self, key: &str, any_key: bool) {
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
        let fix = match self.direction {
            Direction::Forward => Fix::NewMajorVersion,
            // Removing the denial on the new reader holds both ways: old readers never see
            // what new writers do not send.
            Direction::Check | Direction::Backward => Fix::Attribute {
                on: FixTarget::Container,
                edit: AttributeEdit::RemoveDenyUnknownFields,
            },
        };
        self.report_fix(Rule::UnknownFieldDenied, why, hint.to_owned(), fix);
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
            c.provenance(wf, rf, sent, recv);
            c.ty(wf.sent_type(), &rf.ty);
        });
    }

    /// A field the reader requires and the writer sends only when present.
    fn presence(&mut self, sent: &SenderField, recv: &ReceiverField) {
        if !sent.emit.may_omit() || !recv.required {
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
        let hint = match self.direction {
            Direction::Forward => {
                "remove `skip_serializing_if` so the field is always sent, or publish a new major version"
            }
            // An `Option` would let new writers send `null` to old readers, which require
            // a value: under a full mode only a default holds both ways.
            Direction::Backward if self.both => {
                "give the reader's field `#[serde(default)]` (not an `Option`: new writers would send `null` to old readers)"
            }
            Direction::Check | Direction::Backward => {
                "give the reader's field `#[serde(default)]` or make it an `Option`"
            }
        };
        let fix = self.forward_or(
            Fix::on_field(&sent.name, AttributeEdit::RemoveSkipSerializingIf),
            Fix::on_field(&recv.name, AttributeEdit::AddDefault),
        );
        self.report_fix(rule, why, hint.to_owned(), fix);
    }

    /// A field the writer marks as an assumption and the reader relies on as confirmed.
    fn provenance(
        &mut self,
        wf: &FieldDef,
        rf: &FieldDef,
        sent: &SenderField,
        recv: &ReceiverField,
    ) {
        if wf.provenance != Provenance::Assumption || rf.provenance != Provenance::Confirmed {
            return;
        }
        let (writer, reader) = self.sides();
        let why = format!(
            "`{}` is an unconfirmed assumption for {writer} but {reader} rely on it as confirmed",
            sent.name
        );
        let (hint, fix) = match self.direction {
            Direction::Check => (
                "mark the reader's field `#[handoff(assumption)]`, or confirm the value before sending it",
                Fix::Described,
            ),
            Direction::Backward => (
                "mark the new reader's field `#[handoff(assumption)]`: old data holds assumptions",
                Fix::on_field(&recv.name, AttributeEdit::MarkAssumption),
            ),
            Direction::Forward => (
                "confirm the value before sending it and drop `#[handoff(assumption)]`: old readers rely on it as confirmed",
                Fix::on_field(&sent.name, AttributeEdit::UnmarkAssumption),
            ),
        };
        self.report_fix(Rule::ProvenanceWeakened, why, hint.to_owned(), fix);
    }

    /// A reader field no writer field is sent under: a rename, or a field missing.
    fn field_missing(
        &mut self,
        rf: &'a FieldDef,
        recv: &'a ReceiverField,
        unsent: &mut Unsent<'a>,
    ) {
        let (writer, reader) = self.sides();
        // Declared by the reader: `renamed_from` names a key the writer sends.
        for old in &rf.renamed_from {
            if let Some(j) = unsent.first_sent_as(old) {
                let Some(&(wf, sent)) = unsent.unknown.get(j) else {
                    continue;
                };
                unsent.consume(j);
                let why = format!(
                    "`{}` was renamed from `{old}` but {reader} do not read `{old}`, which {writer} send",
                    recv.name
                );
                let (hint, fix) = self.rename_fix(old, (&rf.rust_name, &recv.name), true);
                self.at(self.field_seg(&sent.name, &recv.name), |c| {
                    c.report_fix(Rule::FieldRenamedWithoutAlias, why, hint, fix);
                    // What the alias would make the reader read must still fit.
                    c.ty(wf.sent_type(), &rf.ty);
                });
                return;
            }
        }
        // Declared by the writer: it sends under a new name what the reader reads under an
        // old one.
        let found = unsent
            .first_renamed_from(recv)
            .and_then(|j| Some((j, *unsent.unknown.get(j)?)));
        if let Some((j, (wf, sent))) = found {
            if !recv.required {
                return;
            }
            unsent.consume(j);
            let why = format!(
                "`{}` was renamed to `{}`, but {reader} require it as `{}`",
                recv.name, sent.name, recv.name
            );
            // In an evolution, the text of the one fix both directions of a full mode share,
            // so that a rename without alias and its other direction offer the same help.
            let (hint, fix) = match self.direction {
                Direction::Check => (
                    format!(
                        "an alias only helps new readers; for {reader} keep writing `{}` (`#[serde(rename = \"{}\", alias = \"{}\")]` on {}), or publish a new major version",
                        recv.name,
                        recv.name,
                        sent.name,
                        rust_field(&wf.rust_name, &sent.name)
                    ),
                    Fix::on_field(
                        &sent.name,
                        AttributeEdit::KeepOldName {
                            old: recv.name.clone(),
                            new: sent.name.clone(),
                        },
                    ),
                ),
                Direction::Backward | Direction::Forward => {
                    self.rename_fix(&recv.name, (&wf.rust_name, &sent.name), true)
                }
            };
            self.at(self.field_seg(&sent.name, &recv.name), |c| {
                c.report_fix(Rule::FieldRenamed, why, hint, fix);
            });
            return;
        }
        if !recv.required {
            return;
        }
        // Undeclared: a field of the same type is sent under a key the reader does not read.
        // Of the candidates whose type fits: the first of the reader's Rust name (a key
        // renamed, the field kept), else the first whose type the reader's also fits (a
        // `tuple(T, T)` fits a `list<T>` reader, but a `list<T>` sent beside it is the
        // likelier rename), else the first; so that the pairing does not depend on the
        // order the writer's fields come in where they tell one rename from another.
        // A trial only asks whether anything is found, which a required field not sent is,
        // renamed or not: it looks for no candidate (whose search compares types on their
        // own, which for a type that holds itself would search again without end).
        let searched = if self.trial { 0 } else { MAX_RENAME_CANDIDATES };
        // Under a full mode the rename's fix keeps one key for both sides, so the types
        // must fit both ways: a `u64` that fits an `f32` reader is no rename of it when old
        // `f32` data would then be read as a `u64`.
        let (read_by, written_by) = (self.reader, self.writer);
        let both = |wf: &'a FieldDef| Checker::fits_alone(read_by, written_by, &rf.ty, &wf.ty);
        let mut likely = unsent
            .first_named(&rf.rust_name)
            .filter(|_| searched > 0)
            .and_then(|j| Some((j, *unsent.unknown.get(j)?)))
            .filter(|&(_, (wf, _))| {
                self.fits(|c| c.ty(wf.sent_type(), &rf.ty)) && (!self.both || both(wf))
            })
            .map(|(j, (wf, sent))| (j, wf, sent));
        let mut one_way = None;
        let mut next = unsent.candidate_from(0);
        for _ in 0..searched {
            if likely.is_some() {
                break;
            }
            let Some((j, &(wf, sent))) = next.and_then(|j| Some((j, unsent.unknown.get(j)?)))
            else {
                break;
            };
            next = unsent.candidate_from(j + 1);
            if !self.fits(|c| c.ty(wf.sent_type(), &rf.ty)) {
                continue;
            }
            if both(wf) {
                likely = Some((j, wf, sent));
            } else if !self.both && one_way.is_none() {
                one_way = Some((j, wf, sent));
            }
        }
        let likely = likely.or(one_way);
        if let Some((j, wf, sent)) = likely {
            unsent.consume(j);
            let (old, new) = self.forward_or(
                (
                    recv.name.as_str(),
                    (wf.rust_name.as_str(), sent.name.as_str()),
                ),
                (
                    sent.name.as_str(),
                    (rf.rust_name.as_str(), recv.name.as_str()),
                ),
            );
            // The candidate's type fits the reader's, which is not "the same type" (a `u64`
            // fits an `f32`): say what was checked.
            let why = format!(
                "`{}` is required by {reader} but not sent by {writer}, which send `{}`, of a type `{}` can read: likely a rename",
                recv.name, sent.name, recv.name
            );
            let (hint, fix) = self.rename_fix(old, new, false);
            self.at(self.field_seg(&sent.name, &recv.name), |c| {
                c.report_fix(Rule::FieldLikelyRenamed, why, hint, fix);
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
        let (hint, fix) = match self.direction {
            Direction::Check => (
                "send the field from the producer, or give the consumer's field `#[serde(default)]` or an `Option` type",
                Fix::Described,
            ),
            Direction::Backward => (
                "give the new field `#[serde(default)]` or an `Option` type, so data without it is still read",
                Fix::on_field(&recv.name, AttributeEdit::AddDefault),
            ),
            Direction::Forward => (
                "restore the field (old readers require it), or publish the removal as a new major version",
                Fix::KeepField {
                    name: recv.name.clone(),
                },
            ),
        };
        self.at(Seg::Field(recv.name.as_str()), |c| {
            c.report_fix(rule, why, hint.to_owned(), fix);
        });
    }
}

impl Checker<'_> {
    /// The fix for a field whose key changed from `old` to `new`, and its text. An alias
    /// on the new field lets new readers read old data (enough for a producer/consumer
    /// check, or backward alone), but old readers still require `old`: when they are
    /// checked too (forward, or a full mode), the field keeps writing `old` and reads
    /// `new` as well. `declared`: the new field already says `renamed_from`. `new` is the
    /// new field's Rust name and its wire name: the hint names the field the user edits.
    fn rename_fix(&self, old: &str, (rust, new): (&str, &str), declared: bool) -> (String, Fix) {
        let field = rust_field(rust, new);
        let old_readers = self.both || self.direction == Direction::Forward;
        if old_readers {
            let edit = AttributeEdit::KeepOldName {
                old: old.to_owned(),
                new: new.to_owned(),
            };
            let hint = format!(
                "old readers still require `{old}` (an alias only helps new readers): keep writing it with `{}` on {field}, or publish a new major version",
                edit.attribute()
            );
            (hint, Fix::on_field(new, edit))
        } else {
            let edit = AttributeEdit::AliasOldName {
                old: old.to_owned(),
            };
            let hint = if declared {
                format!("add `#[serde(alias = \"{old}\")]` to {field} so `{old}` is still read")
            } else {
                format!(
                    "if {field} was renamed from `{old}`, declare `#[handoff(renamed_from = \"{old}\")]` and add `#[serde(alias = \"{old}\")]` on it"
                )
            };
            (hint, Fix::on_field(new, edit))
        }
    }
}

/// A field as a hint names it: by its Rust name, which is what the user edits, with its wire
/// name beside it when serde renames it (`` `order_id` (`orderId` on the wire) ``).
fn rust_field(rust: &str, wire: &str) -> String {
    if rust == wire {
        format!("`{rust}`")
    } else {
        format!("`{rust}` (`{wire}` on the wire)")
    }
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

/// Every key a reader's field reads (its name and its aliases), to the first field that
/// reads it: built once per pair of structs, so that matching a writer's field, or asking
/// whether a key is read as a field, is one lookup whatever the number of fields.
type ReaderKeys<'a> = HashMap<&'a str, usize>;

fn reader_keys(r: &StructDef) -> ReaderKeys<'_> {
    let mut index: ReaderKeys<'_> = HashMap::with_capacity(r.fields.len());
    for (i, field) in r.fields.iter().enumerate() {
        if let Some(recv) = &field.receiver {
            index.entry(recv.name.as_str()).or_insert(i);
            for alias in &recv.aliases {
                index.entry(alias.as_str()).or_insert(i);
            }
        }
    }
    index
}

/// The writer's fields sent under a key the reader does not read, in declaration order,
/// with what a missing reader field may take from them: each is taken (`consumed`) at most
/// once, as a rename, and the lookups a missing field makes are by name, so that a struct
/// whose fields all changed is still checked in time linear in its fields.
struct Unsent<'a> {
    unknown: Vec<(&'a FieldDef, &'a SenderField)>,
    consumed: Vec<bool>,
    /// Sent name to the positions sent under it, ascending.
    by_name: HashMap<&'a str, Vec<usize>>,
    /// A writer's `renamed_from` name to the positions that declare it, ascending.
    by_old_name: HashMap<&'a str, Vec<usize>>,
    /// A Rust field name to the positions always sent under it, ascending.
    by_rust_name: HashMap<&'a str, Vec<usize>>,
    /// The next position at or after each one that may be an undeclared rename (always
    /// sent, not taken), or `unknown.len()`: a chain that skips what was taken, shortened as
    /// it is followed.
    next: Vec<usize>,
}

impl<'a> Unsent<'a> {
    fn new(unknown: Vec<(&'a FieldDef, &'a SenderField)>) -> Self {
        let mut by_name: HashMap<&'a str, Vec<usize>> = HashMap::new();
        let mut by_old_name: HashMap<&'a str, Vec<usize>> = HashMap::new();
        let mut by_rust_name: HashMap<&'a str, Vec<usize>> = HashMap::new();
        let mut next = Vec::with_capacity(unknown.len() + 1);
        for (j, (wf, sent)) in unknown.iter().enumerate() {
            by_name.entry(sent.name.as_str()).or_default().push(j);
            if sent.emit == Emit::Always {
                by_rust_name
                    .entry(wf.rust_name.as_str())
                    .or_default()
                    .push(j);
            }
            for old in &wf.renamed_from {
                by_old_name.entry(old.as_str()).or_default().push(j);
            }
            next.push(if sent.emit == Emit::Always { j } else { j + 1 });
        }
        next.push(unknown.len());
        Self {
            consumed: vec![false; unknown.len()],
            unknown,
            by_name,
            by_old_name,
            by_rust_name,
            next,
        }
    }

    fn is_free(&self, j: usize) -> bool {
        !self.consumed.get(j).copied().unwrap_or(true)
    }

    fn consume(&mut self, j: usize) {
        if let Some(c) = self.consumed.get_mut(j) {
            *c = true;
        }
        if let Some(n) = self.next.get_mut(j) {
            *n = j + 1;
        }
    }

    /// The first free position among `positions` (ascending).
    fn first_free(&self, positions: Option<&Vec<usize>>) -> Option<usize> {
        positions?.iter().copied().find(|&j| self.is_free(j))
    }

    /// The first free writer field sent under `name`.
    fn first_sent_as(&self, name: &str) -> Option<usize> {
        self.first_free(self.by_name.get(name))
    }

    /// The first free, always sent writer field of the Rust name `name`.
    fn first_named(&self, name: &str) -> Option<usize> {
        self.first_free(self.by_rust_name.get(name))
    }

    /// The first free writer field that declares it was renamed from a key `recv` reads.
    fn first_renamed_from(&self, recv: &ReceiverField) -> Option<usize> {
        std::iter::once(&recv.name)
            .chain(&recv.aliases)
            .filter_map(|key| self.first_free(self.by_old_name.get(key.as_str())))
            .min()
    }

    /// The first free, always sent writer field at or after `from`.
    fn candidate_from(&mut self, from: usize) -> Option<usize> {
        let mut last = from;
        while let Some(&n) = self.next.get(last) {
            if n == last {
                break;
            }
            last = n;
        }
        // Every position passed on the way now points at the end of the chain.
        let mut j = from;
        while j < last {
            match self.next.get_mut(j) {
                Some(n) => {
                    let after = *n;
                    *n = last;
                    j = after;
                }
                None => break,
            }
        }
        (last < self.unknown.len()).then_some(last)
    }
}
