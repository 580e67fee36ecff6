//! Writing the canonical text.

use core::fmt::Write as _;

use crate::compat::{Allowance, Rule};
use crate::contract::Mode;
use crate::model::{
    Body, Emit, EnumDef, FieldDef, Repr, Schema, StructDef, Unknown, VariantDef, VariantDefKind,
};
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
                let presence = match s.emit {
                    Emit::Always => "always",
                    Emit::IfPresent => "if-present",
                };
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

/// Whether a character is written as an escape inside a quoted string: control
/// characters, line and paragraph separators, and invisible formatting characters (zero
/// widths, bidirectional overrides, byte-order mark) that would hide text in a review.
pub(super) fn must_escape(c: char) -> bool {
    c.is_control()
        || (c.is_whitespace() && c != ' ')
        || matches!(
            c,
            '\u{00ad}'
                | '\u{034f}'
                | '\u{061c}'
                | '\u{115f}'
                | '\u{1160}'
                | '\u{17b4}'
                | '\u{17b5}'
                | '\u{180b}'..='\u{180f}'
                | '\u{200b}'..='\u{200f}'
                | '\u{202a}'..='\u{202e}'
                | '\u{2060}'..='\u{206f}'
                | '\u{3164}'
                | '\u{fe00}'..='\u{fe0f}'
                | '\u{feff}'
                | '\u{ffa0}'
                | '\u{fff0}'..='\u{fffb}'
                | '\u{e0000}'..='\u{e0fff}'
        )
}

/// A string in double quotes, escaped.
pub(crate) struct Quoted<'a>(pub(crate) &'a str);

impl core::fmt::Display for Quoted<'_> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_char('"')?;
        for c in self.0.chars() {
            match c {
                '"' => f.write_str("\\\"")?,
                '\\' => f.write_str("\\\\")?,
                '\n' => f.write_str("\\n")?,
                '\r' => f.write_str("\\r")?,
                '\t' => f.write_str("\\t")?,
                c if must_escape(c) => write!(f, "\\u{{{:x}}}", u32::from(c))?,
                c => f.write_char(c)?,
            }
        }
        f.write_char('"')
    }
}

/// Whether a Rust field or variant name can be written without quotes.
pub(super) fn is_plain_word(name: &str) -> bool {
    !name.is_empty() && name.chars().all(is_word_char)
}

/// The characters of a bare Rust name: letters, digits, `_`, `.` (flattened paths) and
/// `#` (raw identifiers).
pub(super) fn is_word_char(c: char) -> bool {
    c.is_alphanumeric() || matches!(c, '_' | '.' | '#')
}

/// A Rust field or variant name: bare when it is a plain word, quoted otherwise.
struct RustName<'a>(&'a str);

impl core::fmt::Display for RustName<'_> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        if is_plain_word(self.0) {
            f.write_str(self.0)
        } else {
            Quoted(self.0).fmt(f)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quoted_strings_escape_what_a_review_cannot_see() {
        assert_eq!(Quoted("a \"b\" \\ c").to_string(), r#""a \"b\" \\ c""#);
        assert_eq!(
            Quoted("one\ntwo\tthree\r").to_string(),
            r#""one\ntwo\tthree\r""#
        );
        assert_eq!(Quoted("\u{0}\u{7f}").to_string(), r#""\u{0}\u{7f}""#);
        // A bidirectional override and a zero-width space would hide text in a diff.
        assert_eq!(
            Quoted("a\u{202e}b\u{200b}").to_string(),
            r#""a\u{202e}b\u{200b}""#
        );
        // Printable non-ASCII stays readable.
        assert_eq!(Quoted("退款 → ok").to_string(), "\"退款 → ok\"");
    }

    #[test]
    fn rust_names_are_bare_only_when_plain_words() {
        assert_eq!(RustName("order_id").to_string(), "order_id");
        assert_eq!(RustName("context.task_id").to_string(), "context.task_id");
        assert_eq!(RustName("r#type").to_string(), "r#type");
        assert_eq!(RustName("odd name").to_string(), "\"odd name\"");
        assert_eq!(RustName("").to_string(), "\"\"");
        assert_eq!(RustName("a:b").to_string(), "\"a:b\"");
    }
}
