//! Enums: variants matched by tag, representations and their tags, the forms a tagged
//! variant is written in, and untagged variants (read by trying each reader variant in turn).

use std::collections::HashMap;

use crate::compat::direction::Direction;
use crate::compat::fix::Fix;
use crate::model::{
    Body, EnumDef, Repr, Schema, StructDef, Type, Unknown, VariantDef, VariantDefKind,
};
use crate::rules::Rule;
use crate::scalar::StringFormat;

use super::checker::Checker;
use super::paths::{repr_text, variant_kind_text, Seg};

impl<'a> Checker<'a> {
    // ----- enums -----------------------------------------------------------------------

    pub(super) fn enums(&mut self, w: &'a EnumDef, r: &'a EnumDef) {
        // A writer that sends no variant (none is written in its view, or each it writes is
        // a newtype of such an enum) sends nothing to read.
        // (Beside an internal tag a newtype of an `Option` writes nothing either.)
        let beside_tag = matches!(w.repr, Repr::Internal { .. });
        if w.variants
            .iter()
            .all(|v| writes_nothing(self.writer, v, beside_tag && !v.untagged))
        {
            return;
        }
        // A writer that sends only untagged values (an untagged enum, or a tagged one whose
        // tagged variants are never written) read by a reader that reads them as untagged
        // variants (its own, or all of them): no tag is on the wire, so the representation
        // does not matter, only whether each value fits a variant the reader tries.
        let writes_untagged_only = w.repr == Repr::Untagged
            || w.tagged_variants()
                .all(|v| writes_nothing(self.writer, v, beside_tag));
        if w.repr != r.repr
            && writes_untagged_only
            && (r.repr == Repr::Untagged || r.has_untagged_variants())
        {
            let sent: Vec<&'a VariantDef> = if w.repr == Repr::Untagged {
                w.variants.iter().collect()
            } else {
                w.untagged_variants().collect()
            };
            let read: Vec<&'a VariantDef> = if r.repr == Repr::Untagged {
                r.variants.iter().collect()
            } else {
                r.untagged_variants().collect()
            };
            self.untagged_variants(&sent, &read);
            return;
        }
        if let (Repr::Internal { tag: wt }, Repr::Adjacent { tag: rt, content }) =
            (&w.repr, &r.repr)
        {
            if wt == rt {
                self.internal_as_adjacent(w, r, content);
                return;
            }
        }
        // An externally tagged writer variant is an object of one key (a unit variant its
        // name, a string): an untagged reader may read it as one of its own variants.
        if w.repr == Repr::External && r.repr == Repr::Untagged && self.external_as_untagged(w, r) {
            return;
        }
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
        self.tagged(w, r);
    }

    /// Tagged enums of the same representation, with or without untagged variants (see the
    /// [module documentation](crate::compat)): a tagged writer variant is read by the
    /// reader's variant of its tag (a catch-all reads an unknown unit or internally tagged
    /// one), or by an untagged reader variant that reads any value or its tagged form; an
    /// untagged writer variant by one of the reader's untagged variants.
    fn tagged(&mut self, w: &'a EnumDef, r: &'a EnumDef) {
        // Never true of an enum with untagged variants.
        let string_enum = w.is_string_enum() && r.is_string_enum();
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
        let beside_tag = matches!(w.repr, Repr::Internal { .. });
        for wv in w.tagged_variants() {
            if self.stopped() {
                return;
            }
            let Some(tag) = &wv.sender else { continue };
            // A variant with no value to write (see `writes_nothing`) sends nothing to read.
            if writes_nothing(self.writer, wv, beside_tag) {
                continue;
            }
            self.at(Seg::Variant(tag), |c| match index.get(tag.as_str()) {
                Some(rv) => match taken_tag(c.reader, &r.repr, rv) {
                    Some(key) => c.variant_unreadable(rv, key),
                    None => c.tagged_pair(&w.repr, wv, rv),
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
                        None => c.variant_unknown(tag, string_enum),
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
                .any(|rv| self.fits(|c| c.untagged_pair(wv, rv)));
            if fits_one {
                continue;
            }
            let same_name = r
                .untagged_variants()
                .find(|rv| !rv.receiver.is_empty() && rv.rust_name == wv.rust_name);
            self.at(Seg::Variant(&wv.rust_name), |c| {
                match (retagged(wv), same_name) {
                    (Some(_), _) => c.tagging_changed(wv, false),
                    (None, Some(rv)) => c.untagged_pair(wv, rv),
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

    /// The rule a variant (of a string enum: a value) the reader does not know breaks, in
    /// this direction.
    pub(super) fn unknown_variant_rule(&self, string_enum: bool) -> Rule {
        if string_enum {
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
        }
    }

    fn variant_unknown(&mut self, tag: &str, string_enum: bool) {
        let rule = self.unknown_variant_rule(string_enum);
        let what = if string_enum { "value" } else { "variant" };
        let (writer, reader) = self.sides();
        let why = format!("{writer} may send the {what} `{tag}`, which {reader} do not know");
        let (hint, fix) = match self.direction {
            Direction::Check => (
                format!(
                    "add `{tag}` to the consumer's enum, or give it a catch-all `#[serde(other)]` unit variant"
                ),
                Fix::Described,
            ),
            // A catch-all is written under its own name: under a full mode new writers could
            // send it to old readers, which do not know it. Only keeping the value holds both ways.
            Direction::Backward if self.both => (
                format!(
                    "keep the {what} `{tag}` (old data holds it); a catch-all `#[serde(other)]` variant is no fix under mode full, as new writers may send it to old readers"
                ),
                Fix::KeepVariant {
                    name: tag.to_owned(),
                },
            ),
            Direction::Backward => (
                format!(
                    "keep the {what} `{tag}` (old data holds it), or add a catch-all `#[serde(other)]` unit variant"
                ),
                Fix::KeepVariant {
                    name: tag.to_owned(),
                },
            ),
            Direction::Forward => (
                format!(
                    "old readers reject `{tag}`: publish it in a new major version; give future enums a catch-all `#[serde(other)]` variant"
                ),
                Fix::NewMajorVersion,
            ),
        };
        self.report_fix(rule, why, hint, fix);
    }

    /// Two variants of one tag in enums of the same representation `repr`. Internally
    /// tagged, a newtype variant of a struct is written as the struct's fields beside the
    /// tag, which is what a struct variant is written as: the two forms are one wire form,
    /// compared field by field; so is a unit variant, the tag alone, which is what a struct
    /// variant none of whose fields is written is.
    fn tagged_pair(&mut self, repr: &Repr, wv: &'a VariantDef, rv: &'a VariantDef) {
        // Adjacently tagged, a unit variant is the tag alone, which a newtype variant of an
        // `Option` reads as `None` (serde reads a missing content of an `Option` so).
        if matches!(repr, Repr::Adjacent { .. })
            && matches!(wv.kind, VariantDefKind::Unit)
            && matches!(&rv.kind, VariantDefKind::Newtype(Type::Option(_)))
        {
            return;
        }
        if matches!(repr, Repr::Internal { .. }) {
            // A unit variant is the tag alone, which a newtype variant reads when its
            // content reads an empty remainder (serde reads `()`, and a newtype of it, from
            // the empty map left beside the tag).
            if let (VariantDefKind::Unit, VariantDefKind::Newtype(rt)) = (&wv.kind, &rv.kind) {
                if reads_empty_remainder(self.reader, rt, 0) {
                    return;
                }
            }
            let ws: Option<&'a StructDef> = match &wv.kind {
                VariantDefKind::Struct(ws) => Some(ws),
                VariantDefKind::Newtype(ty) => newtype_struct(self.writer, ty),
                VariantDefKind::Unit => Some(&NO_FIELDS),
                VariantDefKind::Tuple(_) => None,
            };
            let rs = match &rv.kind {
                VariantDefKind::Struct(rs) => Some(rs),
                VariantDefKind::Newtype(ty) => newtype_struct(self.reader, ty),
                _ => None,
            };
            let one_newtype = matches!(wv.kind, VariantDefKind::Newtype(_))
                != matches!(rv.kind, VariantDefKind::Newtype(_));
            let unit_written = matches!(wv.kind, VariantDefKind::Unit);
            if let (true, Some(ws), Some(rs)) = (one_newtype || unit_written, ws, rs) {
                self.structs(ws, rs);
                return;
            }
            // serde reads the keys beside the tag from what it buffered, as strings, which
            // a map of integer (or `bool`) keys does not read: such a reader reads only the
            // tag alone.
            if let Some((rk, _)) = newtype_map(self.reader, rv) {
                if !self.reader.reads_buffered_string(rk) && writes_beside_tag(self.writer, wv) {
                    let (writer, reader) = self.sides();
                    let why = format!(
                        "{writer} send keys beside the tag of `{}`, which {reader} read into a map of `{rk}` keys, and serde reads keys there only as strings, which `{rk}` does not read",
                        wv.rust_name
                    );
                    let what = format!("a map key type that reads a string in `{}`", rv.rust_name);
                    self.report_revert(Rule::TypeChanged, why, &what);
                    return;
                }
            }
            // A newtype variant of a map is written as the map's entries beside the tag,
            // and read from the keys beside it: a struct's fields (or none) on the other
            // side are the same object, compared as a struct and a map are.
            match (newtype_map(self.writer, wv), newtype_map(self.reader, rv)) {
                (Some((wk, wval)), None) => {
                    if let Some(rs) = rs {
                        self.map_into_struct(wk, wval, rs);
                        return;
                    }
                }
                (None, Some((rk, rval))) => {
                    if let Some(ws) = ws {
                        self.struct_into_map(ws, rk, rval);
                        return;
                    }
                }
                _ => {}
            }
            if let (VariantDefKind::Newtype(wt), VariantDefKind::Newtype(rt)) = (&wv.kind, &rv.kind)
            {
                self.units_beside_tag(wt, rt);
            }
        }
        self.variant_pair(wv, rv);
    }

    /// An internally tagged newtype variant's content `wt`, an untagged enum, read as `rt`,
    /// an untagged enum: serde writes the content's unit variants as the tag alone (nothing
    /// beside it), which an untagged unit variant does not read (it reads only `null`, and
    /// finds an empty object); so each unit variant the writer sends is a `TYPE_CHANGED`
    /// at it unless some variant the reader tries reads an object with no key (see
    /// [`reads_empty_remainder`]). Everything else is compared as the types are.
    fn units_beside_tag(&mut self, wt: &'a Type, rt: &'a Type) {
        let (Some(we), Some(_)) = (
            untagged_enum(self.writer, wt),
            untagged_enum(self.reader, rt),
        ) else {
            return;
        };
        if reads_empty_remainder(self.reader, rt, 0) {
            return;
        }
        let variants: Vec<&'a VariantDef> = we.variants.iter().collect();
        for wv in sent_untagged(self.writer, &variants) {
            if self.stopped() {
                return;
            }
            if !matches!(wv.kind, VariantDefKind::Unit) {
                continue;
            }
            self.at(Seg::Variant(&wv.rust_name), |c| {
                let (writer, reader) = c.sides();
                let why = format!(
                    "{writer} send the untagged unit variant `{}` beside the tag as the tag alone, which {reader} read as no variant (an untagged unit variant reads only `null`)",
                    wv.rust_name
                );
                let what = format!("a reader variant that reads `{}` beside the tag", wv.rust_name);
                c.report_revert(Rule::TypeChanged, why, &what);
            });
        }
    }

    fn variant_pair(&mut self, wv: &'a VariantDef, rv: &'a VariantDef) {
        match (&wv.kind, &rv.kind) {
            (VariantDefKind::Unit, VariantDefKind::Unit) => {}
            (VariantDefKind::Newtype(a), VariantDefKind::Newtype(b)) => self.ty(a, b),
            (VariantDefKind::Tuple(a), VariantDefKind::Tuple(b)) if a.len() == b.len() => {
                self.indexed(a.iter().zip(b));
            }
            (VariantDefKind::Struct(a), VariantDefKind::Struct(b)) => self.structs(a, b),
            // A tuple variant and a newtype variant of a tuple of its length: the same array.
            (VariantDefKind::Tuple(a), VariantDefKind::Newtype(b)) if matches!(self.reader.resolve(b), Type::Tuple(bs) if bs.len() == a.len()) => {
                if let Type::Tuple(bs) = self.reader.resolve(b) {
                    self.indexed(a.iter().zip(bs));
                }
            }
            (VariantDefKind::Newtype(a), VariantDefKind::Tuple(b)) if matches!(self.writer.resolve(a), Type::Tuple(ws) if ws.len() == b.len()) => {
                if let Type::Tuple(ws) = self.writer.resolve(a) {
                    self.indexed(ws.iter().zip(b));
                }
            }
            // A writer's alternatives for a struct (a newtype of an untagged enum), read by a
            // struct variant: each alternative as the variant's fields.
            (VariantDefKind::Newtype(a), VariantDefKind::Struct(b))
                if untagged_enum(self.writer, a).is_some() =>
            {
                self.content_into_struct(a, b);
            }
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

    /// Two untagged variants, each written as its content alone: a unit variant as `null`,
    /// a newtype as its value, a struct as an object of its fields. So a unit variant is a
    /// newtype of `unit`, and a struct variant a newtype of a struct (or a map, or an
    /// untagged enum of them) on the other side.
    fn untagged_pair(&mut self, wv: &'a VariantDef, rv: &'a VariantDef) {
        match (&wv.kind, &rv.kind) {
            (VariantDefKind::Unit, VariantDefKind::Newtype(b)) => self.ty(&UNIT, b),
            (VariantDefKind::Newtype(a), VariantDefKind::Unit) => self.ty(a, &UNIT),
            (VariantDefKind::Newtype(a), VariantDefKind::Struct(rs))
                if object_content(self.writer, a) =>
            {
                self.content_into_struct(a, rs);
            }
            (VariantDefKind::Struct(ws), VariantDefKind::Newtype(b))
                if newtype_struct(self.reader, b).is_some() =>
            {
                if let Some(rs) = newtype_struct(self.reader, b) {
                    self.structs(ws, rs);
                }
            }
            (VariantDefKind::Struct(ws), VariantDefKind::Newtype(b))
                if matches!(self.reader.resolve(b), Type::Map(..)) =>
            {
                if let Type::Map(rk, rval) = self.reader.resolve(b) {
                    self.struct_into_map(ws, rk, rval);
                }
            }
            _ => self.variant_pair(wv, rv),
        }
    }

    /// Whether every variant the writer's externally tagged enum `w` sends is read by some
    /// variant of the untagged reader `r`, as the wire has it: a unit variant is its name, a
    /// string, read by a newtype variant of a string; any other is an object of one key, its
    /// name, holding its content, read by a struct variant (or a newtype of a struct) whose
    /// other fields are all optional, that reads the key into a field (or captures or
    /// ignores it) whose type reads the content; an untagged writer variant as its content
    /// alone. Where one does not fit, nothing is reported here (the representations then
    /// differ, as the caller reports).
    fn external_as_untagged(&mut self, w: &'a EnumDef, r: &'a EnumDef) -> bool {
        let read: Vec<&'a VariantDef> = r
            .variants
            .iter()
            .filter(|rv| !rv.receiver.is_empty())
            .collect();
        for wv in w.variants.iter().filter(|v| v.sender.is_some()) {
            let fits = read.iter().any(|&rv| {
                if wv.untagged {
                    return self.fits(|c| c.untagged_pair(wv, rv));
                }
                let Some(tag) = &wv.sender else { return false };
                self.one_key_comparable(tag, wv, rv)
                    && self.fits(|c| c.one_key_into_untagged(tag, wv, rv))
            });
            if !fits {
                return false;
            }
        }
        true
    }

    /// The reader's struct an untagged variant `rv` reads an object as: its own fields, or
    /// its newtype's struct.
    fn read_struct(&self, rv: &'a VariantDef) -> Option<&'a StructDef> {
        match &rv.kind {
            VariantDefKind::Struct(rs) => Some(rs),
            VariantDefKind::Newtype(ty) => newtype_struct(self.reader, ty),
            VariantDefKind::Unit | VariantDefKind::Tuple(_) => None,
        }
    }

    /// Where an untagged reader's struct `rs` puts the one key `tag` of an externally
    /// tagged value: `Some(Some(ty))` a field (or the captured keys) of type `ty`,
    /// `Some(None)` nowhere (ignored), `None` refused (denied, or another field required).
    fn one_key_target(&self, tag: &str, rs: &'a StructDef) -> Option<Option<&'a Type>> {
        if !rs.flattened.is_empty() {
            return None;
        }
        let others_required = rs.fields.iter().any(|f| {
            f.receiver
                .as_ref()
                .is_some_and(|r| r.required && !r.accepts(tag))
        });
        if others_required {
            return None;
        }
        let field = rs
            .fields
            .iter()
            .find(|f| f.receiver.as_ref().is_some_and(|r| r.accepts(tag)));
        match (field, rs.unknown, &rs.extra) {
            (Some(f), _, _) => Some(Some(&f.ty)),
            (None, Unknown::Deny, _) => None,
            (None, Unknown::Capture, Some(extra)) => Some(Some(extra)),
            (None, _, _) => Some(None),
        }
    }

    /// Whether [`Checker::one_key_into_untagged`] can compare the externally tagged writer
    /// variant `wv` (written under `tag`) with the untagged reader variant `rv`.
    fn one_key_comparable(&self, tag: &str, wv: &'a VariantDef, rv: &'a VariantDef) -> bool {
        if matches!(wv.kind, VariantDefKind::Unit) {
            return matches!(rv.kind, VariantDefKind::Newtype(_));
        }
        let Some(rs) = self.read_struct(rv) else {
            return false;
        };
        match (self.one_key_target(tag, rs), &wv.kind) {
            (None, _) => false,
            (Some(None), _) | (Some(Some(_)), VariantDefKind::Newtype(_)) => true,
            (Some(Some(t)), VariantDefKind::Tuple(ts)) => {
                matches!(self.reader.resolve(t), Type::Tuple(rt) if rt.len() == ts.len())
            }
            (Some(Some(t)), VariantDefKind::Struct(_)) => newtype_struct(self.reader, t).is_some(),
            (Some(Some(_)), VariantDefKind::Unit) => false,
        }
    }

    /// The externally tagged writer variant `wv`, written under `tag`, read by the untagged
    /// reader variant `rv` (as [`Checker::one_key_comparable`] allows).
    fn one_key_into_untagged(&mut self, tag: &'a str, wv: &'a VariantDef, rv: &'a VariantDef) {
        if let (VariantDefKind::Unit, VariantDefKind::Newtype(b)) = (&wv.kind, &rv.kind) {
            self.ty(&PLAIN_STRING, b);
            return;
        }
        let Some(Some(target)) = self
            .read_struct(rv)
            .and_then(|rs| self.one_key_target(tag, rs))
        else {
            return;
        };
        self.at(Seg::Field(tag), |c| match &wv.kind {
            VariantDefKind::Newtype(a) => c.ty(a, target),
            VariantDefKind::Tuple(ts) => {
                if let Type::Tuple(rt) = c.reader.resolve(target) {
                    c.indexed(ts.iter().zip(rt));
                }
            }
            VariantDefKind::Struct(ws) => {
                if let Some(rs) = newtype_struct(c.reader, target) {
                    c.structs(ws, rs);
                }
            }
            VariantDefKind::Unit => {}
        });
    }

    /// A writer's internally tagged enum read by an adjacently tagged reader under the same
    /// tag (what a JSON Schema of an adjacently tagged enum whose alternatives each hold one
    /// key beside the tag reads as: the same JSON). A writer variant of no fields is the
    /// tag alone, a unit variant's form; one whose only field is the content key, always
    /// written, is the content; any other is written in a form the reader does not read.
    /// (Other keys a writer variant may write are ignored unless the reader denies them.)
    /// Untagged variants are compared as [`Checker::tagged`] does: a writer's tagged variant
    /// of no reader tag may be read by a reader's untagged one, and the writer's untagged
    /// variants by the reader's.
    fn internal_as_adjacent(&mut self, w: &'a EnumDef, r: &'a EnumDef, content: &'a str) {
        let mut index: HashMap<&'a str, &'a VariantDef> = HashMap::with_capacity(r.variants.len());
        for rv in r.tagged_variants() {
            for tag in &rv.receiver {
                index.entry(tag.as_str()).or_insert(rv);
            }
        }
        let denies = r.deny_unknown_fields;
        for wv in w.tagged_variants() {
            if self.stopped() {
                return;
            }
            let Some(tag) = &wv.sender else { continue };
            if writes_nothing(self.writer, wv, true) {
                continue;
            }
            self.at(Seg::Variant(tag), |c| {
                let Some(rv) = index.get(tag.as_str()).copied() else {
                    let caught = r.catch_all().is_some()
                        && written_content(c.writer, wv, content, denies, false) == Some(None);
                    let untagged = r
                        .untagged_variants()
                        .any(|rv| c.tagged_form_fits(&w.repr, wv, rv));
                    if !caught && !untagged {
                        c.variant_unknown(tag, false);
                    }
                    return;
                };
                // serde reads a missing content of an `Option` as `None`: a content field
                // the writer may leave out is then read.
                let absent_read = matches!(&rv.kind, VariantDefKind::Newtype(Type::Option(_)));
                match (
                    written_content(c.writer, wv, content, denies, absent_read),
                    &rv.kind,
                ) {
                    (Some(None), VariantDefKind::Unit) => {}
                    (Some(Some(ty)), VariantDefKind::Unit) => c.ty(ty, &UNIT),
                    (Some(Some(ty)), VariantDefKind::Newtype(b)) => c.ty(ty, b),
                    (Some(Some(ty)), VariantDefKind::Struct(rs))
                        if object_content(c.writer, ty) =>
                    {
                        c.content_into_struct(ty, rs);
                    }
                    (Some(Some(ty)), VariantDefKind::Tuple(rt)) => match c.writer.resolve(ty) {
                        Type::Tuple(wt) if wt.len() == rt.len() => c.indexed(wt.iter().zip(rt)),
                        _ => c.variant_pair(wv, rv),
                    },
                    _ => c.variant_pair(wv, rv),
                }
            });
        }
        let sent: Vec<&'a VariantDef> = w.untagged_variants().collect();
        let read: Vec<&'a VariantDef> = r.untagged_variants().collect();
        self.untagged_variants(&sent, &read);
    }

    /// Untagged enums: every variant the writer sends must fit some variant of the reader.
    fn untagged(&mut self, w: &'a EnumDef, r: &'a EnumDef) {
        let sent: Vec<&'a VariantDef> = w.variants.iter().collect();
        let read: Vec<&'a VariantDef> = r.variants.iter().collect();
        self.untagged_variants(&sent, &read);
    }

    /// Untagged values: every variant of `sent` the writer sends must fit some variant of
    /// `read` the reader reads. A sent newtype of an untagged enum writes what that enum's
    /// variants write, each of which must fit (see [`sent_untagged`]).
    fn untagged_variants(&mut self, sent: &[&'a VariantDef], read: &[&'a VariantDef]) {
        let sent = sent_untagged(self.writer, sent);
        let read = read_untagged(self.reader, read);
        let read = read.as_slice();
        for wv in sent {
            if self.stopped() {
                return;
            }
            if wv.sender.is_none() {
                continue;
            }
            let fits_one = read
                .iter()
                .filter(|rv| !rv.receiver.is_empty())
                .any(|rv| self.fits(|c| c.untagged_pair(wv, rv)));
            if fits_one {
                continue;
            }
            // The wire carries no tag, but a reader variant of the same name is most likely
            // the one meant: report precisely what in it does not fit.
            let same_name = read
                .iter()
                .copied()
                .find(|rv| !rv.receiver.is_empty() && rv.rust_name == wv.rust_name);
            self.at(Seg::Variant(&wv.rust_name), |c| match same_name {
                Some(rv) => c.untagged_pair(wv, rv),
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

impl<'a> Checker<'a> {
    /// A writer's untagged enum read by the reader's struct `rs` (the named type `r`): each
    /// variant it sends must be read as that struct, a struct variant field by field, a
    /// newtype variant as its content is.
    pub(super) fn untagged_into_struct(&mut self, w: &'a EnumDef, r: &'a Type, rs: &'a StructDef) {
        self.alternatives_into(w, |c, wv| match &wv.kind {
            VariantDefKind::Struct(ws) => {
                c.structs(ws, rs);
                true
            }
            VariantDefKind::Newtype(ty) => {
                c.ty(ty, r);
                true
            }
            VariantDefKind::Unit | VariantDefKind::Tuple(_) => false,
        });
    }

    /// A writer's variant content `ty` (an [`object_content`]) read as the fields of the
    /// reader's struct variant `rs`: a struct field by field, a map as a struct reads a map,
    /// an untagged enum's alternatives each so (a struct alternative field by field, a
    /// newtype alternative of a struct or a map as its content).
    fn content_into_struct(&mut self, ty: &'a Type, rs: &'a StructDef) {
        if let Some(ws) = newtype_struct(self.writer, ty) {
            self.structs(ws, rs);
        } else if let Type::Map(wk, wv) = self.writer.resolve(ty) {
            self.map_into_struct(wk, wv, rs);
        } else if let Some(we) = untagged_enum(self.writer, ty) {
            self.alternatives_into(we, |c, wv| match &wv.kind {
                VariantDefKind::Struct(ws) => {
                    c.structs(ws, rs);
                    true
                }
                // (Not an untagged enum again: one may hold itself.)
                VariantDefKind::Newtype(inner)
                    if object_content(c.writer, inner)
                        && untagged_enum(c.writer, inner).is_none() =>
                {
                    c.content_into_struct(inner, rs);
                    true
                }
                _ => false,
            });
        }
    }

    /// Each variant the writer's untagged enum `w` sends, compared at its own path by
    /// `compare`, which says `false` when the variant cannot be read as the reader's
    /// struct at all (a `TYPE_CHANGED` there).
    fn alternatives_into(
        &mut self,
        w: &'a EnumDef,
        mut compare: impl FnMut(&mut Self, &'a VariantDef) -> bool,
    ) {
        for wv in w.variants.iter().filter(|v| v.sender.is_some()) {
            if self.stopped() {
                return;
            }
            self.at(Seg::Variant(&wv.rust_name), |c| {
                if !compare(c, wv) {
                    let (writer, reader) = c.sides();
                    let why = format!(
                        "{writer} send `{}` carrying {}, where {reader} read a struct",
                        wv.rust_name,
                        variant_kind_text(&wv.kind)
                    );
                    let what = format!("what `{}` carries", wv.rust_name);
                    c.report_revert(Rule::TypeChanged, why, &what);
                }
            });
        }
    }
}

/// The untagged enum `ty` is in `schema` (through newtypes), if it is one.
fn untagged_enum<'s>(schema: &'s Schema, ty: &Type) -> Option<&'s EnumDef> {
    match schema.resolve(ty) {
        Type::Named(name) => match schema.def(name).map(|d| &d.body) {
            Some(Body::Enum(e)) if e.repr == Repr::Untagged => Some(e),
            _ => None,
        },
        _ => None,
    }
}

/// Whether the variant `v` of `schema` is never written: it is not sent, or it is a newtype
/// of an enum (through newtypes) none of whose variants is sent. `beside_tag`: the variant
/// is internally tagged, where serde writes no `Option` at all (its `None` is no object to
/// set the tag in, and it refuses `Some` as well), so that a newtype of an `Option`
/// (through newtypes) writes nothing either.
fn writes_nothing(schema: &Schema, v: &VariantDef, beside_tag: bool) -> bool {
    if v.sender.is_none() {
        return true;
    }
    let VariantDefKind::Newtype(ty) = &v.kind else {
        return false;
    };
    match schema.resolve(ty) {
        Type::Option(_) => beside_tag,
        Type::Named(name) => matches!(
            schema.def(name).map(|d| &d.body),
            Some(Body::Enum(inner)) if inner.sends_no_variant()
        ),
        _ => false,
    }
}

/// The untagged variants of `variants` a writer of `schema` sends, a newtype of an
/// untagged enum (through newtypes) replaced by that enum's variants (once each, so a
/// cycle ends) and a variant that writes nothing ([`writes_nothing`]: a newtype of an enum
/// that sends no variant among them) left out.
fn sent_untagged<'s>(schema: &'s Schema, variants: &[&'s VariantDef]) -> Vec<&'s VariantDef> {
    untagged_tried(schema, variants, |schema, v| {
        writes_nothing(schema, v, false)
    })
}

/// The untagged variants of `variants` a reader of `schema` tries, a newtype of an untagged
/// enum (through newtypes) replaced by that enum's variants (once each, so a cycle ends):
/// serde tries them in turn, as the enum itself does.
fn read_untagged<'s>(schema: &'s Schema, variants: &[&'s VariantDef]) -> Vec<&'s VariantDef> {
    untagged_tried(schema, variants, |_, v| v.receiver.is_empty())
}

/// `variants` in order with those `absent` from the side at hand left out, and a newtype of
/// an untagged enum (through newtypes) replaced by that enum's variants, the same way, once
/// per enum (so that a cycle ends).
fn untagged_tried<'s>(
    schema: &'s Schema,
    variants: &[&'s VariantDef],
    absent: fn(&Schema, &VariantDef) -> bool,
) -> Vec<&'s VariantDef> {
    let mut out = Vec::with_capacity(variants.len());
    let mut seen: Vec<&'s EnumDef> = Vec::new();
    let mut stack: Vec<&'s VariantDef> = variants.iter().rev().copied().collect();
    while let Some(v) = stack.pop() {
        if absent(schema, v) {
            continue;
        }
        if let VariantDefKind::Newtype(ty) = &v.kind {
            if let Some(inner) = untagged_enum(schema, ty) {
                if !seen.iter().any(|e| std::ptr::eq(*e, inner)) {
                    seen.push(inner);
                    stack.extend(inner.variants.iter().rev());
                }
                continue;
            }
        }
        out.push(v);
    }
    out
}

/// Whether `ty` of `schema`, the content of an internally tagged newtype variant, reads the
/// tag alone (no key beside it), as serde reads it there: a struct none of whose fields is
/// required (nothing flattened), a map, `any`, `()` (read only from an empty remainder), an
/// `Option` of such (read as `Some`), or an untagged enum one of whose variants a reader
/// tries does (a struct variant so, or a newtype of such; a unit variant reads only `null`).
fn reads_empty_remainder(schema: &Schema, ty: &Type, depth: usize) -> bool {
    if depth >= MAX_EMPTY_REMAINDER_DEPTH {
        return false;
    }
    let no_required = |s: &StructDef| {
        s.flattened.is_empty()
            && s.fields
                .iter()
                .all(|f| f.receiver.as_ref().is_none_or(|r| !r.required))
    };
    match schema.resolve(ty) {
        Type::Any | Type::Unit | Type::Map(..) => true,
        Type::Option(inner) => reads_empty_remainder(schema, inner, depth + 1),
        Type::Named(name) => match schema.def(name).map(|d| &d.body) {
            Some(Body::Struct(s)) => no_required(s),
            Some(Body::Enum(e)) if e.repr == Repr::Untagged => {
                let variants: Vec<&VariantDef> = e.variants.iter().collect();
                read_untagged(schema, &variants)
                    .into_iter()
                    .any(|v| match &v.kind {
                        VariantDefKind::Struct(s) => no_required(s),
                        VariantDefKind::Newtype(t) => reads_empty_remainder(schema, t, depth + 1),
                        VariantDefKind::Unit | VariantDefKind::Tuple(_) => false,
                    })
            }
            _ => false,
        },
        _ => false,
    }
}

/// Whether the internally tagged variant `wv` of `schema` may write a key beside its tag: a
/// newtype of a map, or fields (a struct variant, a newtype of a struct) of which one is
/// sent or which capture or flatten other keys.
fn writes_beside_tag(schema: &Schema, wv: &VariantDef) -> bool {
    let fields = match &wv.kind {
        VariantDefKind::Struct(ws) => ws,
        VariantDefKind::Newtype(ty) => match newtype_struct(schema, ty) {
            Some(ws) => ws,
            None => return matches!(schema.resolve(ty), Type::Map(..)),
        },
        VariantDefKind::Unit | VariantDefKind::Tuple(_) => return false,
    };
    fields.fields.iter().any(|f| f.sender.is_some())
        || fields.unknown == Unknown::Capture
        || !fields.flattened.is_empty()
}

/// How deep [`reads_empty_remainder`] follows `Option`s and newtype variants.
const MAX_EMPTY_REMAINDER_DEPTH: usize = 64;

/// Whether `ty` of `schema` is written as an object a struct variant's fields are read
/// from: a struct, a map or an untagged enum (through newtypes).
fn object_content(schema: &Schema, ty: &Type) -> bool {
    newtype_struct(schema, ty).is_some()
        || matches!(schema.resolve(ty), Type::Map(..))
        || untagged_enum(schema, ty).is_some()
}

/// The struct a newtype variant of `schema` holds, through newtypes: `None` when it holds
/// anything else.
fn newtype_struct<'s>(schema: &'s Schema, ty: &Type) -> Option<&'s StructDef> {
    match schema.resolve(ty) {
        Type::Named(name) => match schema.def(name).map(|d| &d.body) {
            Some(Body::Struct(def)) => Some(def),
            _ => None,
        },
        _ => None,
    }
}

/// The key and value types of the map a newtype variant `v` of `schema` holds, through
/// newtypes: `None` when it is not a newtype variant of a map.
fn newtype_map<'s>(schema: &'s Schema, v: &'s VariantDef) -> Option<(&'s Type, &'s Type)> {
    match &v.kind {
        VariantDefKind::Newtype(ty) => match schema.resolve(ty) {
            Type::Map(k, val) => Some((k, val)),
            _ => None,
        },
        _ => None,
    }
}

/// What an internally tagged variant `wv` writes beside its tag, seen as an adjacently
/// tagged variant's content under the key `content`: `Some(None)` for nothing (a unit
/// variant, or fields none of which is written), `Some(Some(ty))` for one field, always
/// written under `content`, of type `ty`; `None` for anything else. Further keys the
/// variant captures (a flattened map) count only for a reader that `denies` unknown keys.
/// The one field may also be written only when present where the reader reads an absent
/// content (`absent_read`).
fn written_content<'s>(
    schema: &'s Schema,
    wv: &'s VariantDef,
    content: &str,
    denies: bool,
    absent_read: bool,
) -> Option<Option<&'s Type>> {
    let fields = match &wv.kind {
        VariantDefKind::Unit => return Some(None),
        VariantDefKind::Struct(ws) => ws,
        VariantDefKind::Newtype(ty) => newtype_struct(schema, ty)?,
        VariantDefKind::Tuple(_) => return None,
    };
    if (denies && fields.unknown == Unknown::Capture) || !fields.flattened.is_empty() {
        return None;
    }
    let mut sent = fields.fields.iter().filter(|f| f.sender.is_some());
    match (sent.next(), sent.next()) {
        (None, _) => Some(None),
        (Some(f), None) => {
            let s = f.sender.as_ref()?;
            (s.name == content && (s.emit == crate::model::Emit::Always || absent_read))
                .then(|| Some(f.sent_type()))
        }
        _ => None,
    }
}

/// `null`: an adjacently tagged unit variant's content.
static UNIT: Type = Type::Unit;

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
