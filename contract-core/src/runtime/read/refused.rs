//! serde's verdict on a payload the walk found no problem in, located on the tape, without
//! serde's message (which may quote values).

use contract_schema::Schema;

use crate::runtime::problem::{Problem, ProblemKind};
use crate::runtime::tape::scan::Tape;

/// serde's verdict on a payload the walk found no problem in, located, without its message.
pub(crate) fn refused(
    e: &serde_json::Error,
    schema: &Schema,
    bytes: &[u8],
    tape: &Tape,
) -> Problem {
    let offset = byte_offset(bytes, e.line(), e.column());
    let category = match e.classify() {
        serde_json::error::Category::Io => "io",
        serde_json::error::Category::Syntax => "syntax",
        serde_json::error::Category::Data => "data",
        serde_json::error::Category::Eof => "eof",
    };
    let names = field_names(schema);
    Problem {
        pointer: tape.pointer_at(bytes, offset, &|key| {
            std::str::from_utf8(key).is_ok_and(|k| names.contains(k))
        }),
        kind: ProblemKind::Refused { offset, category },
    }
}

/// Every field, tag and content name of the schema, in both views: structure, never data.
fn field_names(schema: &Schema) -> std::collections::HashSet<&str> {
    use contract_schema::model::{Body, Repr, StructDef, VariantDefKind};
    fn add_struct<'a>(s: &'a StructDef, names: &mut std::collections::HashSet<&'a str>) {
        for f in &s.fields {
            names.extend(f.sender.iter().map(|s| s.name.as_str()));
            if let Some(r) = &f.receiver {
                names.insert(r.name.as_str());
                names.extend(r.aliases.iter().map(String::as_str));
            }
        }
    }
    let mut names = std::collections::HashSet::new();
    for def in schema.types.values() {
        match &def.body {
            Body::Struct(s) => add_struct(s, &mut names),
            Body::Enum(e) => {
                match &e.repr {
                    Repr::Internal { tag } => {
                        names.insert(tag.as_str());
                    }
                    Repr::Adjacent { tag, content } => {
                        names.insert(tag.as_str());
                        names.insert(content.as_str());
                    }
                    Repr::External | Repr::Untagged => {}
                }
                for v in &e.variants {
                    if let VariantDefKind::Struct(s) = &v.kind {
                        add_struct(s, &mut names);
                    }
                }
            }
            Body::Newtype(_) | Body::Views { .. } => {}
        }
    }
    names
}

/// The byte offset of serde_json's 1-based line and column (the column counts bytes).
fn byte_offset(bytes: &[u8], line: usize, column: usize) -> usize {
    let mut start = 0;
    for _ in 1..line {
        match bytes[start..].iter().position(|b| *b == b'\n') {
            Some(n) => start += n + 1,
            None => break,
        }
    }
    (start + column.saturating_sub(1)).min(bytes.len())
}
