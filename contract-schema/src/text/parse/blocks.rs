//! The blocks of named types: a struct, an enum or a newtype with the lines indented
//! under it, and the lines of their fields, flattened fields and variants, with the state
//! of a struct read so far.

use std::collections::HashMap;

use super::cursor::{unknown_keyword, Cursor};
use super::lines::{set_once, Line, Once, Reference};
use super::messages::{
    choice_message, shorten, ENUM_KEYWORDS, FIELD_KEYWORDS, FLATTEN_KEYWORDS, NEWTYPE_KEYWORDS,
    STRUCT_KEYWORDS, STRUCT_VARIANT_KEYWORDS, VARIANT_KEYWORDS, VIEWS_KEYWORDS,
};
use super::parser::Parser;
use crate::model::{
    Body, Emit, EnumDef, FieldDef, FlatEnumDef, ReceiverField, Repr, SenderField, StructDef, Type,
    TypeDef, Unknown, VariantDef, VariantDefKind,
};
use crate::shape::Provenance;
use crate::text::ParseError;

/// The facts of a struct (or struct variant) read so far.
#[derive(Default)]
struct StructState {
    unknown: Once<Unknown>,
    extra: Once<Type>,
    fields: Vec<FieldDef>,
    flattened: Vec<FlatEnumDef>,
    names: HashMap<String, usize>,
}

impl<'p, 'a> Parser<'p, 'a> {
    /// The `rust` and `doc` lines every named type has; `Ok(false)` for other keywords.
    fn common(
        keyword: &str,
        c: &mut Cursor<'_, '_>,
        rust: &mut Once<String>,
        doc: &mut Once<String>,
    ) -> Result<bool, ParseError> {
        match keyword {
            "rust" => {
                let path = c.string("the Rust path")?;
                c.end_once(rust, path, keyword)?;
            }
            "doc" => {
                let text = c.string("the doc comment")?;
                c.end_once(doc, text, keyword)?;
            }
            _ => return Ok(false),
        }
        Ok(true)
    }

    fn finish_def(
        header: &Line<'_>,
        what: &str,
        name: &str,
        rust: Once<String>,
        doc: Once<String>,
        body: Body,
    ) -> Result<TypeDef, ParseError> {
        let Some((rust_path, _)) = rust else {
            return Err(header.error(format!(
                "{what} `{}` has no `rust \"PATH\"` line",
                shorten(name)
            )));
        };
        Ok(TypeDef {
            rust_path,
            doc: doc.map(|(d, _)| d).unwrap_or_default(),
            body,
        })
    }

    pub(super) fn struct_type(
        &mut self,
        header: &'p Line<'a>,
        name: &str,
    ) -> Result<TypeDef, ParseError> {
        let (mut rust, mut doc) = (None, None);
        let mut state = StructState::default();
        while let Some((mut c, keyword, at)) = self.next_child(0)? {
            if Self::common(keyword, &mut c, &mut rust, &mut doc)? {
                continue;
            }
            if !self.struct_line(keyword, &mut c, 1, &mut state)? {
                return Err(unknown_keyword(
                    &c,
                    at,
                    keyword,
                    STRUCT_KEYWORDS,
                    "a struct",
                ));
            }
        }
        let body = Body::Struct(finish_struct(header, "struct", name, state)?);
        Self::finish_def(header, "struct", name, rust, doc, body)
    }

    pub(super) fn newtype(
        &mut self,
        header: &'p Line<'a>,
        name: &str,
        inner: Type,
    ) -> Result<TypeDef, ParseError> {
        let (mut rust, mut doc) = (None, None);
        while let Some((mut c, keyword, at)) = self.next_child(0)? {
            if !Self::common(keyword, &mut c, &mut rust, &mut doc)? {
                return Err(unknown_keyword(
                    &c,
                    at,
                    keyword,
                    NEWTYPE_KEYWORDS,
                    "a newtype",
                ));
            }
        }
        Self::finish_def(header, "newtype", name, rust, doc, Body::Newtype(inner))
    }

    /// A type with two views: its `send TYPE` and `receive TYPE` lines.
    pub(super) fn views_type(
        &mut self,
        header: &'p Line<'a>,
        name: &str,
    ) -> Result<TypeDef, ParseError> {
        let (mut rust, mut doc) = (None, None);
        let (mut sender, mut receiver): (Once<Type>, Once<Type>) = (None, None);
        while let Some((mut c, keyword, at)) = self.next_child(0)? {
            if Self::common(keyword, &mut c, &mut rust, &mut doc)? {
                continue;
            }
            let slot = match keyword {
                "send" => &mut sender,
                "receive" => &mut receiver,
                _ => {
                    return Err(unknown_keyword(
                        &c,
                        at,
                        keyword,
                        VIEWS_KEYWORDS,
                        "a type with two views",
                    ))
                }
            };
            c.spaces();
            let ty = c.ty(&mut self.refs)?;
            c.end_once(slot, ty, keyword)?;
        }
        let missing = |what: &str| {
            header.error(format!(
                "views `{}` has no `{what} TYPE` line",
                shorten(name)
            ))
        };
        let Some((sender, _)) = sender else {
            return Err(missing("send"));
        };
        let Some((receiver, _)) = receiver else {
            return Err(missing("receive"));
        };
        let body = Body::Views { sender, receiver };
        Self::finish_def(header, "views", name, rust, doc, body)
    }

    /// A line of a struct body at `level`: `unknown`, `extra` or `field` (with the field's
    /// own lines). `Ok(false)` for other keywords.
    fn struct_line(
        &mut self,
        keyword: &str,
        c: &mut Cursor<'_, '_>,
        level: usize,
        state: &mut StructState,
    ) -> Result<bool, ParseError> {
        match keyword {
            "unknown" => {
                c.spaces();
                let (word, at) = c.keyword();
                let unknown = match word {
                    "ignore" => Unknown::Ignore,
                    "deny" => Unknown::Deny,
                    "capture" => Unknown::Capture,
                    other => {
                        return Err(c.error_at(
                            at,
                            choice_message(
                                other,
                                &["ignore", "deny", "capture"],
                                "after `unknown`",
                            ),
                        ))
                    }
                };
                c.end_once(&mut state.unknown, unknown, keyword)?;
            }
            "extra" => {
                let ty = self.type_to_end(c)?;
                set_once(&mut state.extra, ty, c.line, keyword)?;
            }
            "field" => {
                let rust_name = c.unique_rust_name("field", &mut state.names)?;
                if let Some(map) = &mut self.map {
                    map.field(&rust_name, c.line.no);
                }
                c.expect_colon("the field name")?;
                let ty = self.type_to_end(c)?;
                let field = self.field(c.line, level, rust_name, ty)?;
                state.fields.push(field);
            }
            "flatten" => {
                let rust_name = c.unique_rust_name("field", &mut state.names)?;
                if let Some(map) = &mut self.map {
                    map.field(&rust_name, c.line.no);
                }
                c.expect_colon("the field name")?;
                c.spaces();
                let at = c.pos;
                let ty = self.type_to_end(c)?;
                let named = match &ty {
                    Type::Option(inner) => matches!(**inner, Type::Named(_)),
                    other => matches!(other, Type::Named(_)),
                };
                if !named {
                    return Err(c.error_at(
                        at,
                        "a flattened field holds an enum, by name, or an `option` of one",
                    ));
                }
                self.flats.push((ty.clone(), c.line.no, c.column(at)));
                let flat = self.flattened(level, rust_name, ty)?;
                state.flattened.push(flat);
            }
            _ => return Ok(false),
        }
        Ok(true)
    }

    fn field(
        &mut self,
        header: &Line<'_>,
        level: usize,
        rust_name: String,
        ty: Type,
    ) -> Result<FieldDef, ParseError> {
        let mut doc: Once<String> = None;
        let mut send: Once<Option<SenderField>> = None;
        let mut receive: Once<Option<ReceiverField>> = None;
        let mut assumption: Once<()> = None;
        let mut renamed_from = Vec::new();
        while let Some((mut c, keyword, at)) = self.next_child(level)? {
            match keyword {
                "doc" => {
                    let text = c.string("the doc comment")?;
                    c.end_once(&mut doc, text, keyword)?;
                }
                "send" => {
                    let sender = match c.name_or_never("the sent key")? {
                        None => None,
                        Some(name) => {
                            c.spaces();
                            let (word, at) = c.keyword();
                            let presence = match word {
                                "always" => Emit::Always,
                                "if-present" => Emit::IfPresent,
                                "if-some" => Emit::IfSome,
                                other => {
                                    return Err(c.error_at(
                                        at,
                                        choice_message(
                                            other,
                                            &["always", "if-present", "if-some"],
                                            "after the sent key",
                                        ),
                                    ))
                                }
                            };
                            Some(SenderField {
                                name,
                                emit: presence,
                            })
                        }
                    };
                    c.end_once(&mut send, sender, keyword)?;
                }
                "receive" => {
                    let receiver = match c.name_or_never("the received key")? {
                        None => None,
                        Some(name) => {
                            let aliases = c.aliases()?;
                            let (word, at) = c.keyword();
                            let required = match word {
                                "required" => true,
                                "optional" => false,
                                other => {
                                    return Err(c.error_at(
                                        at,
                                        choice_message(
                                            other,
                                            &["alias", "required", "optional"],
                                            "after the received key",
                                        ),
                                    ))
                                }
                            };
                            Some(ReceiverField {
                                name,
                                aliases,
                                required,
                            })
                        }
                    };
                    c.end_once(&mut receive, receiver, keyword)?;
                }
                "renamed-from" => {
                    renamed_from.push(c.string("the earlier name")?);
                    c.end()?;
                }
                "assumption" => {
                    c.end_once(&mut assumption, (), keyword)?;
                }
                other => return Err(unknown_keyword(&c, at, other, FIELD_KEYWORDS, "a field")),
            }
        }
        let name = shorten(&rust_name);
        let Some((sender, _)) = send else {
            return Err(header.error(format!(
                "field `{name}` has no `send` line; write `send never` when the sender never writes it"
            )));
        };
        let Some((receiver, _)) = receive else {
            return Err(header.error(format!(
                "field `{name}` has no `receive` line; write `receive never` when the receiver never reads it"
            )));
        };
        Ok(FieldDef {
            rust_name,
            ty,
            sender,
            receiver,
            provenance: if assumption.is_some() {
                Provenance::Assumption
            } else {
                Provenance::Confirmed
            },
            renamed_from,
            doc: doc.map(|(d, _)| d).unwrap_or_default(),
        })
    }

    /// The lines of a `flatten` field: its doc, and `send never` or `receive never` when a
    /// view skips it.
    fn flattened(
        &mut self,
        level: usize,
        rust_name: String,
        ty: Type,
    ) -> Result<FlatEnumDef, ParseError> {
        let mut doc: Once<String> = None;
        let mut send: Once<()> = None;
        let mut receive: Once<()> = None;
        while let Some((mut c, keyword, at)) = self.next_child(level)? {
            let slot = match keyword {
                "doc" => {
                    let text = c.string("the doc comment")?;
                    c.end_once(&mut doc, text, keyword)?;
                    continue;
                }
                "send" => &mut send,
                "receive" => &mut receive,
                other => {
                    return Err(unknown_keyword(
                        &c,
                        at,
                        other,
                        FLATTEN_KEYWORDS,
                        "a flattened field",
                    ))
                }
            };
            c.spaces();
            let (word, at) = c.keyword();
            if word != "never" {
                return Err(c.error_at(
                    at,
                    format!(
                        "a flattened field is written and read as its enum says; \
                         `{keyword}` takes only `never`"
                    ),
                ));
            }
            c.end_once(slot, (), keyword)?;
        }
        Ok(FlatEnumDef {
            rust_name,
            ty,
            sent: send.is_none(),
            read: receive.is_none(),
            doc: doc.map(|(d, _)| d).unwrap_or_default(),
        })
    }

    pub(super) fn enum_type(
        &mut self,
        header: &'p Line<'a>,
        name: &str,
    ) -> Result<TypeDef, ParseError> {
        let (mut rust, mut doc) = (None, None);
        let mut repr: Once<Repr> = None;
        let mut deny: Once<bool> = None;
        let mut variants = Vec::new();
        let mut names: HashMap<String, usize> = HashMap::new();
        while let Some((mut c, keyword, at)) = self.next_child(0)? {
            let line = c.line;
            if Self::common(keyword, &mut c, &mut rust, &mut doc)? {
                continue;
            }
            match keyword {
                "repr" => {
                    let r = c.repr()?;
                    set_once(&mut repr, r, line, keyword)?;
                }
                "unknown" => {
                    c.spaces();
                    let (word, at) = c.keyword();
                    let denies = match word {
                        "ignore" => false,
                        "deny" => true,
                        "capture" => {
                            return Err(c.error_at(
                                at,
                                "an enum cannot capture unknown keys; write `unknown deny` \
                                 or `unknown ignore`",
                            ))
                        }
                        other => {
                            return Err(c.error_at(
                                at,
                                choice_message(other, &["ignore", "deny"], "after `unknown`"),
                            ))
                        }
                    };
                    c.end_once(&mut deny, denies, keyword)?;
                }
                "variant" => {
                    let rust_name = c.unique_rust_name("variant", &mut names)?;
                    c.expect_colon("the variant name")?;
                    let kind = c.variant_kind(&mut self.refs)?;
                    c.end()?;
                    if let Some(map) = &mut self.map {
                        map.begin_variant(&rust_name, line.no);
                    }
                    let variant = self.variant(line, rust_name, kind)?;
                    if let Some(map) = &mut self.map {
                        map.end_variant();
                    }
                    check_untagged_variant(line, &repr, &variants, &variant)?;
                    variants.push(variant);
                }
                other => return Err(unknown_keyword(&c, at, other, ENUM_KEYWORDS, "an enum")),
            }
        }
        let Some((repr, _)) = repr else {
            return Err(header.error(format!(
                "enum `{}` has no `repr` line (`repr external`, `internal tag \"…\"`, \
                 `adjacent tag \"…\" content \"…\"` or `untagged`)",
                shorten(name)
            )));
        };
        if repr == Repr::Untagged {
            if let Some(v) = variants.iter().find(|v| v.untagged) {
                return Err(header.error(format!(
                    "variant `{}` is marked `untagged` in an enum that is `repr untagged` as \
                     a whole: drop the `untagged` line",
                    shorten(&v.rust_name)
                )));
            }
        }
        let body = Body::Enum(EnumDef {
            repr,
            variants,
            deny_unknown_fields: deny.is_some_and(|(d, _)| d),
        });
        Self::finish_def(header, "enum", name, rust, doc, body)
    }

    fn variant(
        &mut self,
        header: &'p Line<'a>,
        rust_name: String,
        kind: VariantKind,
    ) -> Result<VariantDef, ParseError> {
        let mut doc: Once<String> = None;
        let mut send: Once<Option<String>> = None;
        let mut receive: Once<Vec<String>> = None;
        let mut catch_all: Once<()> = None;
        let mut untagged: Once<()> = None;
        let mut state = StructState::default();
        let is_struct = matches!(kind, VariantKind::Struct);
        while let Some((mut c, keyword, at)) = self.next_child(1)? {
            match keyword {
                "doc" => {
                    let text = c.string("the doc comment")?;
                    c.end_once(&mut doc, text, keyword)?;
                }
                "send" => {
                    let tag = c.name_or_never("the sent tag")?;
                    c.end_once(&mut send, tag, keyword)?;
                }
                "receive" => {
                    let tags = match c.name_or_never("the received tag")? {
                        None => Vec::new(),
                        Some(first) => {
                            let mut tags = vec![first];
                            tags.extend(c.aliases()?);
                            tags
                        }
                    };
                    c.end_once(&mut receive, tags, keyword)?;
                }
                "catch-all" => {
                    c.end_once(&mut catch_all, (), keyword)?;
                }
                "untagged" => {
                    c.end_once(&mut untagged, (), keyword)?;
                }
                "unknown" | "extra" | "field" | "flatten" if !is_struct => {
                    return Err(c.error_at(
                        at,
                        format!(
                            "`{keyword}` belongs only in a struct variant (`variant {}: struct`)",
                            shorten(&rust_name)
                        ),
                    ));
                }
                other => {
                    if !self.struct_line(other, &mut c, 2, &mut state)? {
                        let allowed = if is_struct {
                            STRUCT_VARIANT_KEYWORDS
                        } else {
                            VARIANT_KEYWORDS
                        };
                        return Err(unknown_keyword(&c, at, other, allowed, "a variant"));
                    }
                }
            }
        }
        // A variant without a `send` (or `receive`) line is never sent (or read): the
        // canonical text writes `send never`, but hand-written texts often leave it out.
        let sender = send.and_then(|(tag, _)| tag);
        let receiver = receive.map(|(tags, _)| tags).unwrap_or_default();
        let kind = match kind {
            VariantKind::Unit => VariantDefKind::Unit,
            VariantKind::Newtype(t) => VariantDefKind::Newtype(t),
            VariantKind::Tuple(items) => VariantDefKind::Tuple(items),
            VariantKind::Struct => {
                VariantDefKind::Struct(finish_struct(header, "struct variant", &rust_name, state)?)
            }
        };
        if catch_all.is_some() && untagged.is_some() {
            return Err(header.error(format!(
                "variant `{}` is both `catch-all` and `untagged`: serde reads a catch-all \
                 only from a tag, and an untagged variant reads no tag",
                shorten(&rust_name)
            )));
        }
        Ok(VariantDef {
            rust_name,
            sender,
            receiver,
            other: catch_all.is_some(),
            untagged: untagged.is_some(),
            kind,
            doc: doc.map(|(d, _)| d).unwrap_or_default(),
        })
    }
}

/// An `untagged` variant belongs only in a tagged enum, after its tagged variants (serde
/// rejects a tagged variant after an untagged one); `repr` is known when it came first.
fn check_untagged_variant(
    line: &Line<'_>,
    repr: &Once<Repr>,
    before: &[VariantDef],
    variant: &VariantDef,
) -> Result<(), ParseError> {
    if variant.untagged && matches!(repr, Some((Repr::Untagged, _))) {
        return Err(line.error(format!(
            "variant `{}` is marked `untagged` in an enum that is `repr untagged` as a whole: \
             drop the `untagged` line",
            shorten(&variant.rust_name)
        )));
    }
    if !variant.untagged {
        if let Some(earlier) = before.iter().find(|v| v.untagged) {
            return Err(line.error(format!(
                "the tagged variant `{}` follows the untagged variant `{}`: serde requires \
                 untagged variants to come after every tagged one",
                shorten(&variant.rust_name),
                shorten(&earlier.rust_name)
            )));
        }
    }
    Ok(())
}

fn finish_struct(
    header: &Line<'_>,
    what: &str,
    name: &str,
    state: StructState,
) -> Result<StructDef, ParseError> {
    let Some((unknown, _)) = state.unknown else {
        return Err(header.error(format!(
            "{what} `{}` has no `unknown` line (`unknown ignore`, `deny` or `capture`)",
            shorten(name)
        )));
    };
    Ok(StructDef {
        fields: state.fields,
        unknown,
        extra: state.extra.map(|(t, _)| t),
        flattened: state.flattened,
    })
}

/// What a variant line says it carries, before its struct fields are read.
enum VariantKind {
    Unit,
    Newtype(Type),
    Tuple(Vec<Type>),
    Struct,
}

impl Cursor<'_, '_> {
    fn repr(&mut self) -> Result<Repr, ParseError> {
        let (word, at) = self.keyword();
        let repr = match word {
            "external" => Repr::External,
            "untagged" => Repr::Untagged,
            "internal" => {
                self.expect_word("tag", "after `internal`")?;
                Repr::Internal {
                    tag: self.string("the tag key")?,
                }
            }
            "adjacent" => {
                self.expect_word("tag", "after `adjacent`")?;
                let tag = self.string("the tag key")?;
                self.expect_word("content", "after the tag key")?;
                let content = self.string("the content key")?;
                Repr::Adjacent { tag, content }
            }
            other => {
                return Err(self.error_at(
                    at,
                    choice_message(
                        other,
                        &["external", "internal", "adjacent", "untagged"],
                        "after `repr`",
                    ),
                ))
            }
        };
        self.end()?;
        Ok(repr)
    }

    fn variant_kind(&mut self, refs: &mut Vec<Reference>) -> Result<VariantKind, ParseError> {
        let save = self.pos;
        let (word, at) = self.keyword();
        match word {
            "unit" => Ok(VariantKind::Unit),
            "struct" => Ok(VariantKind::Struct),
            "newtype" => {
                self.spaces();
                if self.rest().is_empty() {
                    return Err(self.error_at(self.pos, "expected a type after `newtype`"));
                }
                Ok(VariantKind::Newtype(self.ty(refs)?))
            }
            "tuple" => {
                self.pos = save;
                match self.ty(refs)? {
                    Type::Tuple(items) => Ok(VariantKind::Tuple(items)),
                    _ => Err(self.error_at(at, "expected `tuple(…)`")),
                }
            }
            _ => Err(self.error_at(
                at,
                format!(
                    "expected what the variant carries: `unit`, `newtype TYPE`, `tuple(…)` \
                     or `struct`; found {}",
                    self.token_at(at)
                ),
            )),
        }
    }
}
