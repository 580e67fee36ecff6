//! Writing the canonical text.

use core::fmt::Write as _;

use super::words::{Quoted, RustName};
use crate::allowance::Allowance;
use crate::contract::Mode;
use crate::model::{
    Body, EnumDef, FieldDef, Repr, Schema, StructDef, Unknown, VariantDef, VariantDefKind,
};
use crate::rules::Rule;
use crate::shape::Provenance;

/// Two spaces per level.
const INDENT: &str = "  ";

pub(super) fn schema(schema: &Schema) -> String {
    let mut w = Writer::default();
    if let Some(id) = &schema.contract {
        w.line(0, format_args!("contract {id}"));
    }
    if schema.contract.is_some() || schema.mode != Mode::Full {
        w.line(0, format_args!("mode {}", schema.mode.as_str()));
    }
    for allow in schema.allowances.as_slice() {
        w.allow(allow);
    }
    w.line(0, format_args!("root {}", schema.root));
    for (name, def) in &schema.types {
        w.out.push('\n');
        match &def.body {
            Body::Struct(_) => w.line(0, format_args!("struct {name}")),
            Body::Enum(_) => w.line(0, format_args!("enum {name}")),
            Body::Newtype(inner) => w.line(0, format_args!("newtype {name}: {inner}")),
            Body::Views { .. } => w.line(0, format_args!("views {name}")),
        }
        w.line(1, format_args!("rust {}", Quoted(&def.rust_path)));
        w.doc(1, &def.doc);
        match &def.body {
            Body::Struct(s) => w.struct_def(1, s),
            Body::Enum(e) => w.enum_def(1, e),
            Body::Newtype(_) => {}
            Body::Views { sender, receiver } => {
                w.line(1, format_args!("send {sender}"));
                w.line(1, format_args!("receive {receiver}"));
            }
        }
    }
    w.out
}

#[derive(Default)]
struct Writer {
    out: String,
}

impl Writer {
    fn line(&mut self, level: usize, args: core::fmt::Arguments<'_>) {
        for _ in 0..level {
            self.out.push_str(INDENT);
        }
        // Writing into a String cannot fail.
        let _ = self.out.write_fmt(args);
        self.out.push('\n');
    }

    /// `allow RULE_ID field "KEY" reason "TEXT"`. A rule id outside the catalogue (only an
    /// allowance built by hand has one) is quoted, so that it cannot break the line; the
    /// parser then refuses it at its column.
    fn allow(&mut self, allow: &Allowance) {
        let (field, reason) = (Quoted(&allow.field), Quoted(&allow.reason));
        if Rule::from_id(&allow.rule).is_some() {
            let rule = &allow.rule;
            self.line(
                0,
                format_args!("allow {rule} field {field} reason {reason}"),
            );
        } else {
            let rule = Quoted(&allow.rule);
            self.line(
                0,
                format_args!("allow {rule} field {field} reason {reason}"),
            );
        }
    }

    fn doc(&mut self, level: usize, doc: &str) {
        if !doc.is_empty() {
            self.line(level, format_args!("doc {}", Quoted(doc)));
        }
    }

    fn struct_def(&mut self, level: usize, s: &StructDef) {
        let unknown = match s.unknown {
            Unknown::Ignore => "ignore",
            Unknown::Deny => "deny",
            Unknown::Capture => "capture",
        };
        self.line(level, format_args!("unknown {unknown}"));
        if let Some(extra) = &s.extra {
            self.line(level, format_args!("extra {extra}"));
        }
        for field in &s.fields {
            self.field(level, field);
        }
        for flat in &s.flattened {
            self.line(
                level,
                format_args!("flatten {}: {}", RustName(&flat.rust_name), flat.ty),
            );
            self.doc(level + 1, &flat.doc);
            if !flat.sent {
                self.line(level + 1, format_args!("send never"));
            }
            if !flat.read {
                self.line(level + 1, format_args!("receive never"));
            }
        }
    }

    fn field(&mut self, level: usize, field: &FieldDef) {
        self.line(
            level,
            format_args!("field {}: {}", RustName(&field.rust_name), field.ty),
        );
        let level = level + 1;
        self.doc(level, &field.doc);
        match &field.sender {
            None => self.line(level, format_args!("send never")),
            Some(s) => {
                let presence = s.emit.as_str();
                self.line(level, format_args!("send {} {presence}", Quoted(&s.name)));
            }
        }
        match &field.receiver {
            None => self.line(level, format_args!("receive never")),
            Some(r) => {
                let mut text = format!("receive {}", Quoted(&r.name));
                for alias in &r.aliases {
                    let _ = write!(text, " alias {}", Quoted(alias));
                }
                text.push_str(if r.required { " required" } else { " optional" });
                self.line(level, format_args!("{text}"));
            }
        }
        for old in &field.renamed_from {
            self.line(level, format_args!("renamed-from {}", Quoted(old)));
        }
        if field.provenance == Provenance::Assumption {
            self.line(level, format_args!("assumption"));
        }
    }

    fn enum_def(&mut self, level: usize, e: &EnumDef) {
        match &e.repr {
            Repr::External => self.line(level, format_args!("repr external")),
            Repr::Internal { tag } => {
                self.line(level, format_args!("repr internal tag {}", Quoted(tag)));
            }
            Repr::Adjacent { tag, content } => self.line(
                level,
                format_args!(
                    "repr adjacent tag {} content {}",
                    Quoted(tag),
                    Quoted(content)
                ),
            ),
            Repr::Untagged => self.line(level, format_args!("repr untagged")),
        }
        // Ignoring is serde's default and is not written, so that the text of an enum
        // without the attribute stays as it was.
        if e.deny_unknown_fields {
            self.line(level, format_args!("unknown deny"));
        }
        for variant in &e.variants {
            self.variant(level, variant);
        }
    }

    fn variant(&mut self, level: usize, v: &VariantDef) {
        let name = RustName(&v.rust_name);
        match &v.kind {
            VariantDefKind::Unit => self.line(level, format_args!("variant {name}: unit")),
            VariantDefKind::Newtype(ty) => {
                self.line(level, format_args!("variant {name}: newtype {ty}"));
            }
            VariantDefKind::Tuple(items) => {
                // The same text as `Type::Tuple`'s display.
                let tuple = crate::model::Type::Tuple(items.clone());
                self.line(level, format_args!("variant {name}: {tuple}"));
            }
            VariantDefKind::Struct(_) => self.line(level, format_args!("variant {name}: struct")),
        }
        let level = level + 1;
        self.doc(level, &v.doc);
        match &v.sender {
            None => self.line(level, format_args!("send never")),
            Some(tag) => self.line(level, format_args!("send {}", Quoted(tag))),
        }
        match v.receiver.split_first() {
            None => self.line(level, format_args!("receive never")),
            Some((first, aliases)) => {
                let mut text = format!("receive {}", Quoted(first));
                for alias in aliases {
                    let _ = write!(text, " alias {}", Quoted(alias));
                }
                self.line(level, format_args!("{text}"));
            }
        }
        if v.other {
            self.line(level, format_args!("catch-all"));
        }
        // Written only when set, so that the text of every other variant stays as it was.
        if v.untagged {
            self.line(level, format_args!("untagged"));
        }
        if let VariantDefKind::Struct(s) = &v.kind {
            self.struct_def(level, s);
        }
    }
}
