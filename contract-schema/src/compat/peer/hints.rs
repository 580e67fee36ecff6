//! Each rule's fix said as an edit of a peer's model: the pydantic, the zod and the JSON
//! Schema form, and which of them a peer is told.
//!
//! A hint is a lead ("keep `amount` within what the consumer reads") and one form per
//! language; a pydantic or zod peer gets its own form, a peer not told
//! ([`Peer::JsonSchema`]) the JSON Schema form with the other two beside it.

use super::spot::Spot;
use super::terms::{self, MAX_SAFE};
use super::who::Peer;
use crate::compat::fix::{AttributeEdit, Fix, FixTarget};
use crate::compat::report::Finding;
use crate::constraint::{IntRange, IntValue, Length, StringConstraint};
use crate::model::{EnumDef, Repr, Schema, Type};
use crate::rules::Rule;
use crate::scalar::StringFormat;

/// The two schemas of the check.
pub(super) struct Sides<'s> {
    pub(super) writer: &'s Schema,
    pub(super) reader: &'s Schema,
}

/// What the finding's path reaches on each side.
pub(super) struct At<'s> {
    pub(super) writer: Spot<'s>,
    pub(super) reader: Spot<'s>,
}

/// A fix in each peer's terms.
struct Forms {
    /// What to do, in words.
    lead: String,
    pydantic: String,
    zod: String,
    json: String,
}

impl Forms {
    fn new(
        lead: impl Into<String>,
        pydantic: impl Into<String>,
        zod: impl Into<String>,
        json: impl Into<String>,
    ) -> Self {
        Forms {
            lead: lead.into(),
            pydantic: pydantic.into(),
            zod: zod.into(),
            json: json.into(),
        }
    }

    /// The hint a peer is told.
    fn say(self, peer: Peer) -> String {
        let Forms {
            lead,
            pydantic,
            zod,
            json,
        } = self;
        match peer {
            Peer::Pydantic => format!("{lead}: {pydantic}"),
            Peer::Zod => format!("{lead}: {zod}"),
            Peer::JsonSchema => format!("{lead}: {json} (pydantic: {pydantic}; zod: {zod})"),
        }
    }
}

/// The fix for a producer that is `peer`'s schema, read by the other side.
pub(super) fn producer(f: &Finding, sides: &Sides<'_>, at: &At<'_>, peer: Peer) -> String {
    let subject = subject(f);
    let reader_ty = at.reader.ty;
    let forms = match f.rule {
        Rule::IntOutOfRange => ints_producer(&subject, sides, at),
        Rule::ValueOutsideConstraint => match reader_ty.and_then(|t| terms::int_values(sides.reader, t)) {
            Some(_) => ints_producer(&subject, sides, at),
            None => strings_producer(&subject, sides, at),
        },
        Rule::FloatIntoInteger => {
            let values = reader_ty.and_then(|t| terms::int_values(sides.reader, t));
            let range = values.as_ref().and_then(terms::span).map(|(min, max)| IntRange::new(min, max));
            Forms::new(
                format!("write integers at {subject}, as the consumer reads"),
                match &range {
                    Some(r) => format!("`int` with `{}`", terms::python_range(r)),
                    None => "`int`, not `float`".to_owned(),
                },
                range
                    .as_ref()
                    .and_then(|r| terms::zod_range(r, true))
                    .map_or_else(|| "`z.number().int()`".to_owned(), |z| format!("`{z}`")),
                match &range {
                    Some(r) => format!("`\"type\": \"integer\", {}`", terms::json_range(r)),
                    None => "`\"type\": \"integer\"`".to_owned(),
                },
            )
        }
        Rule::StringIntoChar => Forms::new(
            format!("write one character at {subject}, as the consumer reads"),
            "`Field(min_length=1, max_length=1)`",
            "`z.string().length(1)`",
            "`\"minLength\": 1, \"maxLength\": 1`",
        ),
        Rule::StringFormatChanged => {
            let format = reader_ty
                .and_then(|t| terms::string_constraint(sides.reader, t))
                .map_or(StringFormat::Plain, |s| s.format);
            format_forms(&subject, format)
        }
        Rule::NullNotAccepted => {
            let inner = at
                .writer
                .ty
                .map(|t| terms::python(sides.writer, terms::strip(sides.writer, t)))
                .unwrap_or_else(|| "T".to_owned());
            let may_be_absent = at
                .reader
                .field
                .and_then(|fd| fd.receiver.as_ref())
                .is_some_and(|r| !r.required);
            Forms::new(
                format!("never write `null` at {subject}, which the consumer refuses"),
                format!("declare it `{inner}`, not `Optional[{inner}]`"),
                if may_be_absent {
                    "drop `.nullable()` or `.nullish()` (`.optional()` leaves the key out instead, which the consumer reads)".to_owned()
                } else {
                    "drop `.nullable()` or `.nullish()`".to_owned()
                },
                "remove `\"null\"` from its `type` (or its `anyOf`)",
            )
        }
        Rule::RequiredFieldMayBeOmitted => Forms::new(
            format!("always write {subject}, which the consumer requires"),
            "give `model_config` `json_schema_serialization_defaults_required=True` if it has a default (pydantic writes it; the schema then says so), else declare it without a default",
            "drop `.optional()`",
            format!("list {} in `required`", json_key(f)),
        ),
        Rule::RequiredFieldNotSent => {
            let (py, zod) = match reader_ty {
                Some(t) => (terms::python(sides.reader, t), terms::zod(sides.reader, t)),
                None => ("…".to_owned(), "…".to_owned()),
            };
            let key = f.field.clone().unwrap_or_default();
            Forms::new(
                format!("write {subject}, which the consumer requires"),
                format!("add `{key}: {py}` to the model (with `Field(alias=\"{key}\")` if the Python name differs)"),
                format!("add `{key}: {zod}` to the object"),
                format!("add {} to `properties` and `required`", json_key(f)),
            )
        }
        Rule::FieldLikelyRenamed => {
            let key = f.field.clone().unwrap_or_default();
            let sent = writer_key(f);
            Forms::new(
                format!("write `{sent}` as `{key}`, the key the consumer reads"),
                format!("`Field(alias=\"{key}\")` (or `serialization_alias=\"{key}\"`) on the field written as `{sent}`"),
                format!("rename the key `{sent}` to `{key}`"),
                format!("rename the property `\"{sent}\"` to `\"{key}\"`, in `required` too"),
            )
        }
        Rule::EnumValueUnknown => {
            let tag = last_variant(&f.path).unwrap_or_default();
            let values = at.reader.enum_def.map(receiver_values).unwrap_or_default();
            let known = terms::quoted(&values);
            Forms::new(
                format!("write only the values the consumer reads, without `\"{tag}\"`"),
                format!("`Literal[{known}]` (or an `Enum` of those values)"),
                format!("`z.enum([{known}])`"),
                format!("`\"enum\": [{known}]`"),
            )
        }
        Rule::EnumVariantUnknown => {
            let tag = last_variant(&f.path).unwrap_or_default();
            let key = at.writer.enum_def.and_then(tag_key);
            variant_forms(&tag, key.as_deref(), true)
        }
        Rule::EnumTagChanged => {
            let key = at.reader.enum_def.and_then(tag_key).unwrap_or_default();
            tag_forms(&subject, &key, "the consumer's")
        }
        Rule::UnknownFieldDenied => {
            if f.path.ends_with('*') {
                Forms::new(
                    format!("write no keys but the declared fields at {subject}, as the consumer refuses others"),
                    "`model_config = ConfigDict(extra=\"forbid\")`",
                    "a plain `z.object` (or `.strict()`), not `.loose()`, `.passthrough()` or `.catchall()`",
                    "`\"additionalProperties\": false`",
                )
            } else {
                let key = f.field.clone().unwrap_or_default();
                Forms::new(
                    format!("leave `{key}` out of what is written, as the consumer refuses unknown keys"),
                    format!("remove `{key}`, or exclude it with `Field(exclude=True)`"),
                    format!("remove `{key}` from the object"),
                    format!("remove `\"{key}\"` from `properties`"),
                )
            }
        }
        Rule::SchemaTooDeep => too_deep(),
        _ => {
            let r = reader_ty.map(|t| (t, sides.reader));
            generic(&subject, "write only what the consumer reads", r)
        }
    };
    forms.say(peer)
}

/// The fix for a consumer that is `peer`'s schema, reading the other side.
pub(super) fn consumer(f: &Finding, sides: &Sides<'_>, at: &At<'_>, peer: Peer) -> String {
    let subject = subject(f);
    let writer_ty = at.writer.ty;
    let reader_field = at.reader.field;
    let forms = match f.rule {
        Rule::IntOutOfRange => ints_consumer(&subject, sides, at),
        Rule::ValueOutsideConstraint => {
            match writer_ty.and_then(|t| terms::int_values(sides.writer, t)) {
                Some(_) => ints_consumer(&subject, sides, at),
                None => strings_consumer(&subject, sides, at),
            }
        }
        Rule::FloatIntoInteger => Forms::new(
            format!("read numbers with a fraction at {subject}, as the producer writes floats"),
            "`float`, not `int`",
            "`z.number()`, without `.int()`",
            "`\"type\": \"number\"`",
        ),
        Rule::StringIntoChar => Forms::new(
            format!("read any string at {subject}, as the producer writes more than one character"),
            "a plain `str`, without `max_length=1`",
            "`z.string()`, without `.length(1)` or `.max(1)`",
            "no `maxLength`",
        ),
        Rule::StringFormatChanged => Forms::new(
            format!("read any string at {subject}, as the producer promises no format"),
            "a plain `str`",
            "`z.string()`",
            "no `format`",
        ),
        Rule::NullNotAccepted => {
            let (py, zod) = match reader_field.map(|fd| &fd.ty).or(at.reader.ty) {
                Some(t) => (
                    terms::python(sides.reader, terms::strip(sides.reader, t)),
                    terms::zod(sides.reader, terms::strip(sides.reader, t)),
                ),
                None => ("T".to_owned(), "…".to_owned()),
            };
            let may_be_absent = reader_field
                .and_then(|fd| fd.receiver.as_ref())
                .is_some_and(|r| !r.required);
            Forms::new(
                format!("accept `null` at {subject}, which the producer may write"),
                format!("`Optional[{py}]` (keeping its default, if it has one)"),
                if may_be_absent {
                    format!("`{zod}.nullish()` instead of `.optional()`")
                } else {
                    format!("`{zod}.nullable()`")
                },
                "add `{\"type\": \"null\"}` to its `anyOf` (or `\"null\"` to its `type`)",
            )
        }
        Rule::RequiredFieldMayBeOmitted | Rule::RequiredFieldNotSent => {
            let key = f.field.clone().unwrap_or_default();
            let ty = reader_field.map(|fd| &fd.ty).or(at.reader.ty);
            let nullable = ty.is_some_and(|t| matches!(sides.reader.resolve(t), Type::Option(_)));
            let (py, zod) = match ty {
                Some(t) => (
                    terms::python(sides.reader, terms::strip(sides.reader, t)),
                    terms::zod(sides.reader, terms::strip(sides.reader, t)),
                ),
                None => ("T".to_owned(), "…".to_owned()),
            };
            let (lead, remove) = if f.rule == Rule::RequiredFieldNotSent {
                (
                    format!("let {subject} be absent, as the producer never writes it"),
                    ", or remove it",
                )
            } else {
                (
                    format!("let {subject} be absent, as the producer may leave it out"),
                    "",
                )
            };
            Forms::new(
                lead,
                format!("give it a default, `{key}: Optional[{py}] = None`{remove}"),
                if nullable {
                    format!("`{key}: {zod}.nullish()`{remove}")
                } else {
                    format!("`{key}: {zod}.optional()`{remove}")
                },
                format!("remove {} from `required`{remove}", json_key(f)),
            )
        }
        Rule::FieldLikelyRenamed => {
            let key = f.field.clone().unwrap_or_default();
            let sent = writer_key(f);
            Forms::new(
                format!("read `{key}` from `{sent}`, the key the producer writes"),
                format!("`Field(alias=\"{sent}\")` on `{key}` (or `validation_alias=AliasChoices(\"{key}\", \"{sent}\")` to read both)"),
                format!("rename the key `{key}` to `{sent}`"),
                format!("rename the property `\"{key}\"` to `\"{sent}\"`, in `required` too"),
            )
        }
        Rule::EnumValueUnknown => {
            let tag = last_variant(&f.path).unwrap_or_default();
            Forms::new(
                format!("read the value `\"{tag}\"` the producer may write"),
                format!("add `\"{tag}\"` to the `Literal[...]` (or the `Enum`) it reads"),
                format!("add `\"{tag}\"` to its `z.enum([...])`"),
                format!("add `\"{tag}\"` to its `enum`"),
            )
        }
        Rule::EnumVariantUnknown => {
            let tag = last_variant(&f.path).unwrap_or_default();
            let key = at.reader.enum_def.and_then(tag_key);
            variant_forms(&tag, key.as_deref(), false)
        }
        Rule::EnumTagChanged => {
            let key = at.writer.enum_def.and_then(tag_key).unwrap_or_default();
            tag_forms(&subject, &key, "the producer's")
        }
        Rule::UnknownFieldDenied => {
            let declare = match &f.field {
                Some(key) if !f.path.ends_with('*') => format!(", or declare `{key}`"),
                _ => String::new(),
            };
            let json_declare = match &f.field {
                Some(key) if !f.path.ends_with('*') => {
                    format!(", or declare `\"{key}\"` in `properties`")
                }
                _ => String::new(),
            };
            Forms::new(
                format!("accept the keys the producer writes beside the declared fields at {subject}"),
                format!("drop `extra=\"forbid\"` from `model_config` (pydantic ignores unknown keys by default){declare}"),
                format!("drop `.strict()` (a plain `z.object` strips unknown keys){declare}"),
                format!("drop `\"additionalProperties\": false`{json_declare}"),
            )
        }
        Rule::SchemaTooDeep => too_deep(),
        _ => {
            let w = writer_ty.map(|t| (t, sides.writer));
            generic(&subject, "read what the producer writes", w)
        }
    };
    forms.say(peer)
}

// ----- integers -------------------------------------------------------------------------

/// A peer producer's integers, kept within the reader's set (its widest range when it has
/// gaps, which a bound cannot state).
fn ints_producer(subject: &str, sides: &Sides<'_>, at: &At<'_>) -> Forms {
    let values = at
        .reader
        .ty
        .and_then(|t| terms::int_values(sides.reader, t));
    let Some(values) = values else {
        return generic(
            subject,
            "write only what the consumer reads",
            at.reader.ty.map(|t| (t, sides.reader)),
        );
    };
    // What the producer writes now, kept where the consumer reads it: the widest part of
    // the producer's span inside one of the consumer's ranges.
    let writer_span = at
        .writer
        .ty
        .and_then(|t| terms::int_values(sides.writer, t))
        .as_ref()
        .and_then(terms::span);
    let kept = writer_span.and_then(|(lo, hi)| {
        let parts: Vec<IntRange> = values
            .ranges()
            .iter()
            .filter_map(|r| {
                let (min, max) = (r.min.max(lo), r.max.min(hi));
                (min <= max).then(|| IntRange::new(min, max))
            })
            .collect();
        terms::widest(&parts)
    });
    let Some(range) = kept.or_else(|| terms::widest(values.ranges())) else {
        return generic(
            subject,
            "write only what the consumer reads",
            at.reader.ty.map(|t| (t, sides.reader)),
        );
    };
    let gaps = values.ranges().len() > 1;
    let lead = if gaps {
        format!("keep {subject} within the widest range the consumer reads")
    } else {
        format!("keep {subject} within what the consumer reads")
    };
    let zod = match terms::zod_range(&range, true) {
        Some(z) => format!("`{z}`"),
        None => "no zod number holds these values exactly (a JavaScript number holds integers exactly only within ±9007199254740991); write them as strings the consumer reads, or change the consumer".to_owned(),
    };
    Forms::new(
        lead,
        format!("`{}`", terms::python_range(&range)),
        zod,
        format!("`{}`", terms::json_range(&range)),
    )
}

/// A peer consumer's integers, widened to hold every value the writer may send.
fn ints_consumer(subject: &str, sides: &Sides<'_>, at: &At<'_>) -> Forms {
    let values = at
        .writer
        .ty
        .and_then(|t| terms::int_values(sides.writer, t));
    let Some((min, max)) = values.as_ref().and_then(terms::span) else {
        return generic(
            subject,
            "read what the producer writes",
            at.writer.ty.map(|t| (t, sides.writer)),
        );
    };
    let range = IntRange::new(min, max);
    let zod = match terms::zod_range(&range, false) {
        Some(z) => format!("`{z}`"),
        None => format!(
            "no zod number reads them all: a JavaScript number holds integers exactly only within ±{MAX_SAFE}, where `z.number().int()` stops, and the producer may write up to {max}{}; have the producer keep within that range, or write the values as strings",
            if min < IntValue::from_i128(-MAX_SAFE) {
                format!(" and down to {min}")
            } else {
                String::new()
            }
        ),
    };
    Forms::new(
        format!("read every integer the producer may write at {subject}"),
        format!(
            "`{}`, or a plain `int`, which reads any integer",
            terms::python_range(&range)
        ),
        zod,
        format!("`{}`", terms::json_range(&range)),
    )
}

// ----- strings --------------------------------------------------------------------------

fn strings_producer(subject: &str, sides: &Sides<'_>, at: &At<'_>) -> Forms {
    let Some(s) = at
        .reader
        .ty
        .and_then(|t| terms::string_constraint(sides.reader, t))
    else {
        return generic(
            subject,
            "write only what the consumer reads",
            at.reader.ty.map(|t| (t, sides.reader)),
        );
    };
    let pattern = if s.pattern.is_some() {
        " (the same pattern, as text: patterns are compared as written)"
    } else {
        ""
    };
    let mut py = terms::python_length(&s);
    if py.is_empty() {
        py.push("…".to_owned());
    }
    let json = terms::json_length(&s);
    Forms::new(
        format!("keep the strings at {subject} within what the consumer reads{pattern}"),
        format!("`Field({})`", py.join(", ")),
        format!("`{}`", terms::zod_string_with(&s)),
        format!("`{}`", json.join(", ")),
    )
}

fn strings_consumer(subject: &str, sides: &Sides<'_>, at: &At<'_>) -> Forms {
    let Some(s) = at
        .writer
        .ty
        .and_then(|t| terms::string_constraint(sides.writer, t))
    else {
        return generic(
            subject,
            "read what the producer writes",
            at.writer.ty.map(|t| (t, sides.writer)),
        );
    };
    let plain = StringConstraint {
        format: s.format,
        length: Length::ANY,
        pattern: None,
    };
    if s == plain {
        return Forms::new(
            format!("read any string at {subject}, as the producer promises no length or pattern"),
            "no `min_length`, `max_length` or `pattern`",
            format!(
                "`{}`, without `.min()`, `.max()`, `.length()` or `.regex()`",
                terms::zod_string(s.format)
            ),
            "no `minLength`, `maxLength` or `pattern`",
        );
    }
    let py = terms::python_length(&s);
    Forms::new(
        format!("read every string the producer may write at {subject}"),
        format!("`Field({})`, or no bounds", py.join(", ")),
        format!("`{}`, or no bounds", terms::zod_string_with(&s)),
        format!("`{}`, or no bounds", terms::json_length(&s).join(", ")),
    )
}

/// A producer's strings of the consumer's `format`.
fn format_forms(subject: &str, format: StringFormat) -> Forms {
    let lead = format!("promise the format the consumer reads at {subject}");
    let standard = match format {
        StringFormat::Uuid => Some("uuid"),
        StringFormat::DateTime => Some("date-time"),
        StringFormat::Date => Some("date"),
        StringFormat::Ipv4 => Some("ipv4"),
        StringFormat::Ipv6 => Some("ipv6"),
        StringFormat::Url => Some("uri"),
        _ => None,
    };
    match (standard, format.as_str()) {
        (Some(name), _) => Forms::new(
            lead,
            format!("`{}`{}", terms::python_string(format), python_import(format)),
            format!("`{}`", terms::zod_string(format)),
            format!("`\"format\": \"{name}\"`"),
        ),
        (None, Some(name)) => Forms::new(
            lead,
            format!("`Field(json_schema_extra={{\"x-handoff-format\": \"{name}\"}})`, on strings of that form"),
            format!("`.meta({{ \"x-handoff-format\": \"{name}\" }})`, on strings of that form"),
            format!("`\"x-handoff-format\": \"{name}\"`, on strings of that form"),
        ),
        (None, None) => Forms::new(lead, "a plain `str`", "`z.string()`", "`\"type\": \"string\"`"),
    }
}

/// Where pydantic's type of a format comes from.
fn python_import(format: StringFormat) -> &'static str {
    match format {
        StringFormat::Uuid => " (`from uuid import UUID`)",
        StringFormat::DateTime => " (`from pydantic import AwareDatetime`)",
        StringFormat::Date => " (`from datetime import date`)",
        StringFormat::Ipv4 => " (`from ipaddress import IPv4Address`)",
        StringFormat::Ipv6 => " (`from ipaddress import IPv6Address`)",
        StringFormat::Url => " (`from pydantic import AnyUrl`)",
        _ => "",
    }
}

// ----- enums ----------------------------------------------------------------------------

/// A variant to remove from a producer's union (`remove`) or add to a consumer's.
fn variant_forms(tag: &str, key: Option<&str>, remove: bool) -> Forms {
    let (py_member, zod_member) = match key {
        Some(key) => (
            format!("the model whose `{key}` is `Literal[\"{tag}\"]`"),
            format!("`z.object({{ {key}: z.literal(\"{tag}\"), … }})`"),
        ),
        None => (
            format!("the member for `\"{tag}\"`"),
            format!("the member for `\"{tag}\"`"),
        ),
    };
    if remove {
        Forms::new(
            format!("write no variant `{tag}`, which the consumer does not know"),
            format!("remove {py_member} from the union"),
            format!("remove {zod_member} from the union"),
            format!("remove the alternative for `\"{tag}\"` from its `oneOf` or `anyOf`"),
        )
    } else {
        Forms::new(
            format!("read the variant `{tag}` the producer may write"),
            format!("add {py_member} to the union"),
            format!("add {zod_member} to the union"),
            format!("add an alternative for `\"{tag}\"` to its `oneOf` or `anyOf`"),
        )
    }
}

/// A tagged union under the other side's tag `key`.
fn tag_forms(subject: &str, key: &str, whose: &str) -> Forms {
    Forms::new(
        format!("tag the union at {subject} with {whose} key `{key}`"),
        format!("`Field(discriminator=\"{key}\")`, each member's tag field named `{key}`"),
        format!("`z.discriminatedUnion(\"{key}\", [...])`, each member's tag under `{key}`"),
        format!("each alternative's `const` tag under `\"{key}\"`"),
    )
}

/// The key an enum's tag is under, when it has one.
fn tag_key(e: &EnumDef) -> Option<String> {
    match &e.repr {
        Repr::Internal { tag } | Repr::Adjacent { tag, .. } => Some(tag.clone()),
        Repr::External | Repr::Untagged => None,
    }
}

/// The string values a reader's enum reads.
fn receiver_values(e: &EnumDef) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for v in &e.variants {
        for tag in &v.receiver {
            if !out.contains(tag) {
                out.push(tag.clone());
            }
        }
    }
    out
}

// ----- the rest -------------------------------------------------------------------------

fn too_deep() -> Forms {
    Forms::new(
        "nest the schema less deeply",
        "fewer levels of nested models",
        "fewer levels of nested schemas",
        "fewer levels of nested schemas",
    )
}

/// The other side's type at the path, in each peer's terms.
fn generic(subject: &str, what: &str, other: Option<(&Type, &Schema)>) -> Forms {
    let lead = format!("{what} at {subject}");
    match other {
        Some((ty, schema)) => Forms::new(
            lead,
            format!("`{}`", terms::python(schema, ty)),
            format!("`{}`", terms::zod(schema, ty)),
            format!("a schema of the contract's `{ty}`"),
        ),
        None => Forms::new(
            lead,
            "change the model where the finding points",
            "change the schema where the finding points",
            "change the schema where the finding points",
        ),
    }
}

/// What a hint calls the place a finding points at.
fn subject(f: &Finding) -> String {
    match &f.field {
        Some(field) if f.path.ends_with(field.as_str()) => format!("`{field}`"),
        _ if f.path.is_empty() => "the document's root".to_owned(),
        _ => format!("`{}`", f.path),
    }
}

/// The finding's field as a JSON string (`"note"`).
fn json_key(f: &Finding) -> String {
    format!(
        "`{}`",
        serde_json::Value::String(f.field.clone().unwrap_or_default())
    )
}

/// The key the writer sends, for a likely rename: the old name its fix reads.
fn writer_key(f: &Finding) -> String {
    match &f.fix {
        Fix::Attribute {
            on: FixTarget::Field { .. },
            edit: AttributeEdit::AliasOldName { old } | AttributeEdit::KeepOldName { old, .. },
        } => old.clone(),
        _ => "…".to_owned(),
    }
}

/// The tag of the path's last segment when it is a variant, `(tag)`.
fn last_variant(path: &str) -> Option<String> {
    let inside = path.strip_suffix(')')?;
    // The innermost variant: its `(` is the last one that opens a segment.
    let open = inside.rfind('(')?;
    Some(inside.get(open + 1..)?.to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::constraint::IntSet;

    #[test]
    fn the_last_variant_of_a_path() {
        assert_eq!(last_variant("reason(lost)").as_deref(), Some("lost"));
        assert_eq!(last_variant("a(B).c(D)").as_deref(), Some("D"));
        assert_eq!(last_variant("reason"), None);
    }

    #[test]
    fn an_unbounded_set_has_no_zod_int_beyond_safe() {
        let all = IntSet::new(
            crate::scalar::IntKind::U64,
            [IntRange::all_of(crate::scalar::IntKind::U64)],
        );
        assert_eq!(terms::zod_int(&all), None);
    }
}
