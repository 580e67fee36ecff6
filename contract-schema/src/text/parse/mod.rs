//! Reading the canonical text back into a [`Schema`].
//!
//! The text is split into lines with their indentation level; each line is read by a
//! [`Cursor`] that knows its line and columns, so that every error points at the offending
//! token. Named types referenced anywhere are collected with their position and checked
//! against the definitions once the whole text is read.
//!
//! This module holds the entry points; [`lines`] splits the text into lines, [`parser`]
//! reads the header and the loop over the top-level lines, [`cursor`] the tokens of one
//! line, [`types`] the type grammar, [`blocks`] the lines of structs, enums and newtypes,
//! and [`messages`] words the errors.

mod blocks;
mod cursor;
mod lines;
mod messages;
mod parser;
mod types;

use crate::model::{Schema, Type};
use crate::text::source_map::{SourceMap, SourceMapBuilder};
use crate::text::ParseError;
use cursor::Cursor;
use lines::{split_lines, Line};
use parser::Parser;

pub(super) fn schema(text: &str, line_offset: usize) -> Result<Schema, ParseError> {
    let lines = split_lines(text, line_offset)?;
    Parser::new(&lines, None).schema()
}

/// [`schema`], recording the line of each type, field and variant.
pub(super) fn schema_with_lines(
    text: &str,
    line_offset: usize,
) -> Result<(Schema, SourceMap), ParseError> {
    let lines = split_lines(text, line_offset)?;
    let mut parser = Parser::new(&lines, Some(SourceMapBuilder::default()));
    let schema = parser.schema()?;
    let map = parser.map.take().map(SourceMapBuilder::finish);
    Ok((schema, map.unwrap_or_default()))
}

pub(super) fn standalone_type(text: &str) -> Result<Type, ParseError> {
    let line = Line {
        no: 1,
        indent: 0,
        text,
    };
    let mut c = Cursor::new(&line);
    let ty = c.ty(&mut Vec::new())?;
    c.end()?;
    Ok(ty)
}

#[cfg(test)]
mod tests {
    use super::super::{parse, parse_type};
    use crate::model::{Body, Length, Type};
    use crate::shape::{FloatKind, IntKind, StringFormat};

    /// A valid schema of one struct; tests replace one of its lines.
    const VALID: &str = "\
root A

struct A
  rust \"app::A\"
  unknown ignore
  field id: string
    send \"id\" always
    receive \"id\" required
";

    fn error(text: &str) -> String {
        match parse(text) {
            Ok(schema) => panic!("expected an error, parsed {schema:?}"),
            Err(e) => e.to_string(),
        }
    }

    /// `VALID` with one line replaced.
    fn with(old: &str, new: &str) -> String {
        assert!(VALID.contains(old), "{old:?} is not in the base text");
        VALID.replacen(old, new, 1)
    }

    /// Each `(old, new, message)`: `VALID` with `old` replaced by `new` fails with `message`.
    fn errors_with(cases: &[(&str, &str, &str)]) {
        for (old, new, message) in cases {
            assert_eq!(
                error(&with(old, new)),
                *message,
                "{old:?} replaced by {new:?}"
            );
        }
    }

    /// An adjacently tagged enum; tests add an `unknown` line after its `repr`.
    const ENUM: &str = "\
root E

enum E
  rust \"app::E\"
  repr adjacent tag \"t\" content \"c\"
  variant A: newtype u8
    send \"A\"
    receive \"A\"
";

    fn enum_with(line: &str) -> String {
        ENUM.replacen("content \"c\"\n", &format!("content \"c\"\n  {line}\n"), 1)
    }

    fn denies(text: &str) -> bool {
        match parse(text).map(|s| s.types["E"].body.clone()) {
            Ok(Body::Enum(e)) => e.deny_unknown_fields,
            other => panic!("expected an enum, got {other:?}"),
        }
    }

    #[test]
    fn an_enum_denies_unknown_keys_only_when_it_says_so() {
        assert!(!denies(ENUM));
        assert!(denies(&enum_with("unknown deny")));
        // The default may be written out; the canonical text leaves it out.
        assert!(!denies(&enum_with("unknown ignore")));
        let ignoring = parse(&enum_with("unknown ignore")).unwrap();
        assert_eq!(super::super::to_text(&ignoring), ENUM);
        let denying = parse(&enum_with("unknown deny")).unwrap();
        assert_eq!(super::super::to_text(&denying), enum_with("unknown deny"));
    }

    #[test]
    fn an_enum_cannot_capture_unknown_keys() {
        assert_eq!(
            error(&enum_with("unknown capture")),
            "line 6, column 11: an enum cannot capture unknown keys; write `unknown deny` or \
             `unknown ignore`"
        );
        assert_eq!(
            error(&enum_with("unknown dney")),
            "line 6, column 11: unknown word `dney` after `unknown`; did you mean `deny`?"
        );
        assert_eq!(
            error(&enum_with("unknown deny\n  unknown deny")),
            "line 7, column 3: a second `unknown` line (the first is at line 6)"
        );
    }

    #[test]
    fn the_base_text_is_valid() {
        let schema = parse(VALID).unwrap();
        assert_eq!(schema.root, Type::Named("A".into()));
        assert!(matches!(schema.types["A"].body, Body::Struct(_)));
    }

    #[test]
    fn a_missing_type_after_a_colon() {
        errors_with(&[
            (
                "field id: string",
                "field id:",
                "line 6, column 12: expected a type after ':'",
            ),
            (
                "field id: string",
                "field id string",
                "line 6, column 12: expected `:` after the field name, found `string`",
            ),
        ]);
    }

    #[test]
    fn a_misspelt_keyword_gets_a_suggestion() {
        errors_with(&[
            (
                "send \"id\" always",
                "sned \"id\" always",
                "line 7, column 5: unknown keyword `sned` in a field; did you mean `send`?",
            ),
            (
                "unknown ignore",
                "unknonw ignore",
                "line 5, column 3: unknown keyword `unknonw` in a struct; did you mean `unknown`?",
            ),
            (
                "root A",
                "rooot A",
                "line 1, column 1: unknown keyword `rooot` in the header; did you mean `root`?",
            ),
            (
                "send \"id\" always",
                "send \"id\" alwyas",
                "line 7, column 15: unknown word `alwyas` after the sent key; did you mean \
                 `always`?",
            ),
            (
                "unknown ignore",
                "unknown ignroe",
                "line 5, column 11: unknown word `ignroe` after `unknown`; did you mean `ignore`?",
            ),
        ]);
    }

    #[test]
    fn an_unrelated_word_lists_what_is_expected() {
        errors_with(&[
            (
                "send \"id\" always",
                "banana",
                "line 7, column 5: unknown keyword `banana` in a field; expected one of `doc`, \
                 `send`, `receive`, `renamed-from`, `assumption`",
            ),
            (
                "send \"id\" always",
                "\"id\"",
                "line 7, column 5: expected a keyword in a field, found `\"id\"`; expected one \
                 of `doc`, `send`, `receive`, `renamed-from`, `assumption`",
            ),
        ]);
    }

    /// An enum with the given `repr` line and variants (each `(name, untagged, catch_all)`).
    fn enum_text(repr: &str, variants: &[(&str, bool, bool)]) -> String {
        let mut text = format!("root E\n\nenum E\n  rust \"app::E\"\n  repr {repr}\n");
        for (name, untagged, catch_all) in variants {
            text.push_str(&format!(
                "  variant {name}: unit\n    send \"{name}\"\n    receive \"{name}\"\n"
            ));
            if *catch_all {
                text.push_str("    catch-all\n");
            }
            if *untagged {
                text.push_str("    untagged\n");
            }
        }
        text
    }

    #[test]
    fn untagged_variants_come_last_in_a_tagged_enum_only() {
        let ok = parse(&enum_text(
            "external",
            &[("A", false, false), ("B", true, false)],
        ))
        .expect("a trailing untagged variant reads");
        let Some(Body::Enum(e)) = ok.def("E").map(|d| &d.body) else {
            panic!("E is an enum");
        };
        assert_eq!(
            e.variants.iter().map(|v| v.untagged).collect::<Vec<_>>(),
            [false, true]
        );
        assert_eq!(
            error(&enum_text(
                "external",
                &[("A", true, false), ("B", false, false)]
            )),
            "line 10, column 3: the tagged variant `B` follows the untagged variant `A`: serde \
             requires untagged variants to come after every tagged one"
        );
        assert_eq!(
            error(&enum_text("untagged", &[("A", true, false)])),
            "line 6, column 3: variant `A` is marked `untagged` in an enum that is \
             `repr untagged` as a whole: drop the `untagged` line"
        );
        assert_eq!(
            error(&enum_text("internal tag \"t\"", &[("A", true, true)])),
            "line 6, column 3: variant `A` is both `catch-all` and `untagged`: serde reads a \
             catch-all only from a tag, and an untagged variant reads no tag"
        );
        // `repr` after the variants: the enum's own check still sees it.
        let late = "root E\n\nenum E\n  rust \"app::E\"\n  variant A: unit\n    send \"A\"\n    untagged\n  repr untagged\n";
        assert_eq!(
            error(late),
            "line 3, column 1: variant `A` is marked `untagged` in an enum that is \
             `repr untagged` as a whole: drop the `untagged` line"
        );
    }

    #[test]
    fn a_keyword_in_the_wrong_place() {
        assert_eq!(
            error(&with("send \"id\" always", "catch-all")),
            "line 7, column 5: `catch-all` does not belong in a field; expected one of `doc`, \
             `send`, `receive`, `renamed-from`, `assumption`"
        );
        assert_eq!(
            error(&format!("{VALID}root A\n")),
            "line 9, column 1: `root` belongs in the header, before the first type"
        );
    }

    #[test]
    fn an_undefined_type_is_reported_at_the_reference() {
        assert_eq!(
            error(&with("field id: string", "field id: list<Categroy>")),
            "line 6, column 18: type `Categroy` is not defined in this schema"
        );
        let text = format!(
            "{}\nenum Category\n  rust \"app::Category\"\n  repr external\n",
            with("field id: string", "field id: list<Categroy>")
        );
        assert_eq!(
            error(&text),
            "line 6, column 18: type `Categroy` is not defined; did you mean `Category`?"
        );
        errors_with(&[
            (
                "field id: string",
                "field id: String",
                "line 6, column 13: type `String` is not defined; did you mean the built-in \
                 `string`?",
            ),
            (
                "root A",
                "root B",
                "line 1, column 6: type `B` is not defined; did you mean `A`?",
            ),
        ]);
    }

    #[test]
    fn a_long_undefined_name_is_reported_without_a_suggestion() {
        // Two names of 100,000 characters one edit apart: comparing them would take
        // 10^10 steps; they are not compared.
        let defined = "A".repeat(100_000);
        let typo = format!("{}B", "A".repeat(99_999));
        let text = VALID
            .replace("root A", &format!("root {typo}"))
            .replace("struct A", &format!("struct {defined}"));
        assert_eq!(
            error(&text),
            format!(
                "line 1, column 6: type `{}…` is not defined in this schema",
                "A".repeat(32)
            )
        );
    }

    #[test]
    fn generic_arguments_of_a_name_need_no_definition() {
        let text = VALID.replace('A', "Handoff<Refund>");
        let schema = parse(&text).unwrap();
        assert!(schema.types.contains_key("Handoff<Refund>"));
        // A name is normalised to the canonical spelling of its arguments.
        let text = VALID
            .replace("root A", "root Pair<string,u32>")
            .replace("struct A", "struct Pair<string , u32>");
        assert!(parse(&text)
            .unwrap()
            .types
            .contains_key("Pair<string, u32>"));
    }

    #[test]
    fn a_type_defined_twice() {
        let text = format!("{VALID}\nstruct A\n  rust \"app::A\"\n  unknown deny\n");
        assert_eq!(
            error(&text),
            "line 10, column 8: type `A` is defined twice (first at line 3)"
        );
    }

    #[test]
    fn a_field_or_variant_named_twice() {
        let text = format!("{VALID}  field id: u8\n    send never\n    receive never\n");
        assert_eq!(
            error(&text),
            "line 9, column 9: a second field `id` (the first is at line 6)"
        );
        let text = "root E\n\nenum E\n  rust \"e\"\n  repr external\n  variant A: unit\n    \
                    send \"a\"\n    receive \"a\"\n  variant A: unit\n    send never\n    \
                    receive never\n";
        assert_eq!(
            error(text),
            "line 9, column 11: a second variant `A` (the first is at line 6)"
        );
    }

    #[test]
    fn a_line_given_twice() {
        errors_with(&[
            (
                "send \"id\" always\n",
                "send \"id\" always\n    send never\n",
                "line 8, column 5: a second `send` line (the first is at line 7)",
            ),
            (
                "root A\n",
                "root A\nroot A\n",
                "line 2, column 1: a second `root` line (the first is at line 1)",
            ),
        ]);
    }

    #[test]
    fn missing_lines() {
        errors_with(&[
            (
                "root A\n",
                "",
                "line 1, column 1: no `root` line: the header names the type on the wire (`root \
                 TYPE`)",
            ),
            (
                "    send \"id\" always\n",
                "",
                "line 6, column 3: field `id` has no `send` line; write `send never` when the \
                 sender never writes it",
            ),
            (
                "    receive \"id\" required\n",
                "",
                "line 6, column 3: field `id` has no `receive` line; write `receive never` when \
                 the receiver never reads it",
            ),
            (
                "  rust \"app::A\"\n",
                "",
                "line 3, column 1: struct `A` has no `rust \"PATH\"` line",
            ),
            (
                "  unknown ignore\n",
                "",
                "line 3, column 1: struct `A` has no `unknown` line (`unknown ignore`, `deny` or \
                 `capture`)",
            ),
        ]);
        assert_eq!(
            error("root E\n\nenum E\n  rust \"e\"\n"),
            "line 3, column 1: enum `E` has no `repr` line (`repr external`, `internal tag \
             \"…\"`, `adjacent tag \"…\" content \"…\"` or `untagged`)"
        );
        // A variant's view lines may be left out: it is then never sent or read.
        let variant = "root E\n\nenum E\n  rust \"e\"\n  repr external\n  variant A: unit\n";
        let Body::Enum(e) = &parse(variant).unwrap().types["E"].body else {
            panic!("an enum")
        };
        assert_eq!(e.variants[0].sender, None);
        assert!(e.variants[0].receiver.is_empty());
    }

    #[test]
    fn indentation_errors() {
        errors_with(&[
            (
                "  unknown ignore",
                "   unknown ignore",
                "line 5, column 4: an indentation of 3 spaces; indent with two spaces per level",
            ),
            (
                "  unknown ignore",
                "  \tunknown ignore",
                "line 5, column 3: a tab in the indentation; indent with two spaces per level",
            ),
            (
                "  unknown ignore",
                "    unknown ignore",
                "line 5, column 5: an indentation of 4 spaces where 2 are expected",
            ),
            (
                "root A",
                "  root A",
                "line 1, column 3: an indented line outside any struct, enum or newtype; remove \
                 the indentation or the line",
            ),
        ]);
    }

    #[test]
    fn string_errors() {
        errors_with(&[
            (
                "rust \"app::A\"",
                "rust \"app::A",
                "line 4, column 8: the Rust path is not closed by a `\"` on this line",
            ),
            (
                "rust \"app::A\"",
                "rust \"a\\qb\"",
                "line 4, column 10: unknown escape `\\q`; use `\\\"`, `\\\\`, `\\n`, `\\r`, \
                 `\\t` or `\\u{…}`",
            ),
            (
                "rust \"app::A\"",
                "rust \"\\u{d800}\"",
                "line 4, column 9: `\\u{d800}` is not a Unicode scalar value",
            ),
            (
                "rust \"app::A\"",
                "rust \"\\u{1234567}\"",
                "line 4, column 9: a `\\u{…}` escape takes one to six hexadecimal digits and a \
                 closing `}`",
            ),
            (
                "rust \"app::A\"",
                "rust app::A",
                "line 4, column 8: expected the Rust path as a quoted string, found `app::A`",
            ),
            (
                "send \"id\" always",
                "send id always",
                "line 7, column 10: expected the sent key as a quoted string, or `never`; found \
                 `id`",
            ),
        ]);
    }

    #[test]
    fn escapes_read_back() {
        let text = with(
            "rust \"app::A\"",
            "rust \"q\\\" b\\\\ n\\n r\\r t\\t u\\u{202e}\\u{1F600}\"",
        );
        assert_eq!(
            parse(&text).unwrap().types["A"].rust_path,
            "q\" b\\ n\n r\r t\t u\u{202e}\u{1f600}"
        );
    }

    #[test]
    fn header_values() {
        assert_eq!(
            error(&format!("contract Refund_Request/v2\n{VALID}")),
            "line 1, column 10: expected a contract id `NAME/vN` (a kebab-case name and a \
             version of at least 1), found `Refund_Request/v2`"
        );
        assert_eq!(
            error(&format!("contract refund/v0\n{VALID}")),
            "line 1, column 10: expected a contract id `NAME/vN` (a kebab-case name and a \
             version of at least 1), found `refund/v0`"
        );
        assert_eq!(
            error(&format!("contract refund/v02\n{VALID}")),
            "line 1, column 10: expected a contract id `NAME/vN` (a kebab-case name and a \
             version of at least 1), found `refund/v02`"
        );
        // A contract name starts with a letter, as the derive requires.
        assert_eq!(
            error(&format!("contract 2fa/v1\n{VALID}")),
            "line 1, column 10: expected a contract id `NAME/vN` (a kebab-case name and a \
             version of at least 1), found `2fa/v1`"
        );
        assert_eq!(
            error(&format!("mode fulll\n{VALID}")),
            "line 1, column 6: unknown word `fulll` after `mode`; did you mean `full`?"
        );
        let schema = parse(&format!(
            "contract a-b2/v10\nmode backward-transitive\n{VALID}"
        ))
        .unwrap();
        assert_eq!(schema.contract.unwrap().to_string(), "a-b2/v10");
        assert_eq!(schema.mode, crate::Mode::BackwardTransitive);
    }

    /// `VALID` as a contract with `line` after its mode.
    fn allowing(line: &str) -> String {
        format!("contract a/v1\nmode full\n{line}\n{VALID}")
    }

    #[test]
    fn allowances_read_in_order() {
        let schema = parse(&allowing(
            "allow FIELD_REMOVED field \"orderRef\" reason \"retired \\\"v1\\\"\"\n\
             allow TYPE_CHANGED field \"artifacts[].version\" reason \"\"",
        ))
        .unwrap();
        let read: Vec<_> = schema
            .allowances
            .as_slice()
            .iter()
            .map(|a| (a.rule.as_str(), a.field.as_str(), a.reason.as_str()))
            .collect();
        assert_eq!(
            read,
            [
                ("FIELD_REMOVED", "orderRef", "retired \"v1\""),
                ("TYPE_CHANGED", "artifacts[].version", ""),
            ]
        );
        assert!(parse(VALID).unwrap().allowances.as_slice().is_empty());
    }

    #[test]
    fn allowance_errors_are_located() {
        for (line, message) in [
            (
                "allow FEILD_REMOVED field \"x\" reason \"r\"",
                "line 3, column 7: unknown rule `FEILD_REMOVED` after `allow`; did you mean \
                 `FIELD_REMOVED`?",
            ),
            (
                "allow field_removed field \"x\" reason \"r\"",
                "line 3, column 7: unknown rule `field_removed` after `allow`; did you mean \
                 `FIELD_REMOVED`?",
            ),
            (
                "allow EVERYTHING field \"x\" reason \"r\"",
                "line 3, column 7: unknown rule `EVERYTHING` after `allow`; expected a rule id \
                 of the catalogue (such as `FIELD_REMOVED`)",
            ),
            (
                "allow \"FIELD REMOVED\" field \"x\" reason \"r\"",
                "line 3, column 7: unknown rule `FIELD REMOVED` after `allow`; did you mean \
                 `FIELD_REMOVED`?",
            ),
            (
                "allow",
                "line 3, column 6: expected a rule id after `allow` (such as `FIELD_REMOVED`), \
                 found the end of the line",
            ),
            (
                "allow FIELD_REMOVED \"x\" reason \"r\"",
                "line 3, column 21: expected `field` after the rule id, found `\"x\"`",
            ),
            (
                "allow FIELD_REMOVED field x reason \"r\"",
                "line 3, column 27: expected the field as a quoted string, found `x`",
            ),
            (
                "allow FIELD_REMOVED field \"x\"",
                "line 3, column 30: expected `reason` after the field, found the end of the line",
            ),
            (
                "allow FIELD_REMOVED field \"x\" reason \"r",
                "line 3, column 38: the reason is not closed by a `\"` on this line",
            ),
            (
                "allow FIELD_REMOVED field \"x\" reason \"r\" twice",
                "line 3, column 42: unexpected `twice` at the end of the line",
            ),
            (
                "alow FIELD_REMOVED field \"x\" reason \"r\"",
                "line 3, column 1: unknown keyword `alow` in the header; did you mean `allow`?",
            ),
        ] {
            assert_eq!(error(&allowing(line)), message, "{line}");
        }
        assert_eq!(
            error(&format!(
                "{VALID}allow FIELD_REMOVED field \"x\" reason \"r\"\n"
            )),
            "line 9, column 1: `allow` belongs in the header, before the first type"
        );
        assert_eq!(
            error(&with(
                "    send \"id\" always",
                "    allow FIELD_REMOVED field \"x\" reason \"r\""
            )),
            "line 7, column 5: `allow` does not belong in a field; expected one of `doc`, \
             `send`, `receive`, `renamed-from`, `assumption`"
        );
    }

    #[test]
    fn a_rule_id_outside_the_catalogue_is_written_quoted_and_refused() {
        let mut schema = parse(&allowing("")).unwrap();
        schema.allowances = crate::compat::Allowances::new().allow("EVIL\nroot u8", "x", "r");
        let text = super::super::to_text(&schema);
        assert!(
            text.contains("\nallow \"EVIL\\nroot u8\" field \"x\" reason \"r\"\nroot A\n"),
            "{text}"
        );
        assert_eq!(
            error(&text),
            "line 3, column 7: unknown rule `EVIL\\nroot u8` after `allow`; expected a rule id \
             of the catalogue (such as `FIELD_REMOVED`)"
        );
    }

    #[test]
    fn trailing_tokens_are_rejected() {
        errors_with(&[
            (
                "send \"id\" always",
                "send \"id\" always please",
                "line 7, column 22: unexpected `please` at the end of the line",
            ),
            (
                "field id: string",
                "field id: string>",
                "line 6, column 19: unexpected `>` at the end of the line",
            ),
        ]);
    }

    #[test]
    fn type_syntax_errors() {
        for (text, message) in [
            (
                "option<string",
                "line 1, column 14: expected `>` to close `option<`, found the end of the line",
            ),
            (
                "map<string u8>",
                "line 1, column 12: expected `,` between the key and value types of `map<`, \
                 found `u8>`",
            ),
            (
                "array<u8; n>",
                "line 1, column 11: expected the array's length, found `n>`",
            ),
            (
                "array<u8; 99999999999999999999999>",
                "line 1, column 11: expected the array's length, found `99999999999999999999999>`",
            ),
            (
                "string(uuidd)",
                "line 1, column 8: unknown word `uuidd` as a string format or restriction; \
                 did you mean `uuid`?",
            ),
            (
                "list",
                "line 1, column 5: expected `<` after `list`, found the end of the line",
            ),
            ("u8(256)", "line 1, column 4: `256` is not a value of `u8`"),
            (
                "u8(-1..=3)",
                "line 1, column 4: `-1` is not a value of `u8`",
            ),
            (
                "i8(3..=1)",
                "line 1, column 4: an empty range: its end is below its start",
            ),
            (
                "i8(1..3)",
                "line 1, column 7: a range includes its end: write `A..=B`",
            ),
            (
                "u8(1 2)",
                "line 1, column 6: expected `,` between the values of `u8(`, or `)` after them, \
                 found `2)`",
            ),
            ("u8(x)", "line 1, column 4: expected an integer, found `x)`"),
            (
                "u128(1..=340282366920938463463374607431768211456)",
                "line 1, column 10: `34028236692093846346337460743176…` is not a value of `u128`",
            ),
            (
                "string(len 5..=2)",
                "line 1, column 12: an empty range: its end is below its start",
            ),
            (
                "string(len 1, len 2)",
                "line 1, column 15: `string(` takes len once",
            ),
            (
                "string(uuid, ipv4)",
                "line 1, column 14: `string(` takes a format once",
            ),
            (
                "string(lenn 2)",
                "line 1, column 8: unknown word `lenn` as a string format or restriction; \
                 did you mean `len`?",
            ),
            (
                "string(pattern x)",
                "line 1, column 16: expected the pattern as a quoted string, found `x)`",
            ),
            (
                "app::",
                "line 1, column 4: unexpected `::` at the end of the line",
            ),
            (
                "",
                "line 1, column 1: expected a type, found the end of the line",
            ),
        ] {
            assert_eq!(
                parse_type(text).unwrap_err().to_string(),
                message,
                "{text:?}"
            );
        }
    }

    /// The keyword table is the parser's and the display's: every keyword is read as a
    /// built-in, never as a named type, and every built-in type is displayed starting with
    /// one of them (a new `Type` variant fails to compile here until it is listed).
    #[test]
    fn the_keyword_table_is_what_the_parser_and_the_display_use() {
        for word in super::super::RESERVED {
            assert!(
                !matches!(parse_type(word), Ok(Type::Named(_))),
                "{word} must be a built-in"
            );
        }
        let unit = || Box::new(Type::Unit);
        for ty in [
            Type::Unit,
            Type::Bool,
            Type::Int(IntKind::U128),
            Type::Float(FloatKind::F32),
            Type::Char,
            Type::String(StringFormat::Plain),
            Type::Any,
            Type::Option(unit()),
            Type::List(unit()),
            Type::Set(unit()),
            Type::Array(unit(), 1),
            Type::Map(unit(), unit()),
            Type::Tuple(Vec::new()),
            Type::int_in(IntKind::U8, []),
            Type::string_with(StringFormat::Plain, Length::ANY, Some("a".into())),
        ] {
            match ty {
                Type::Unit
                | Type::Bool
                | Type::Int(_)
                | Type::Float(_)
                | Type::Char
                | Type::String(_)
                | Type::Any
                | Type::Option(_)
                | Type::List(_)
                | Type::Set(_)
                | Type::Array(..)
                | Type::Map(..)
                | Type::Tuple(_)
                | Type::Constrained(_) => {}
                Type::Named(_) => unreachable!("a named type is not a keyword"),
            }
            let shown = ty.to_string();
            let word: String = shown
                .chars()
                .take_while(char::is_ascii_alphanumeric)
                .collect();
            assert!(super::super::RESERVED.contains(&word.as_str()), "{shown}");
        }
        for kind in IntKind::ALL {
            assert!(super::super::RESERVED.contains(&kind.as_str()), "{kind:?}");
        }
    }

    #[test]
    fn types_read_as_displayed() {
        for text in [
            "unit",
            "u128",
            "i8",
            "f32",
            "string(naive-date-time)",
            "option<list<string>>",
            "map<string, set<u8>>",
            "array<u8; 4>",
            "tuple()",
            "tuple(string, i64, any)",
            "Handoff<RefundRequest>",
            "app::v1::Step",
            "Page<list<string>>",
            "app::string",
            "u8(1..)",
            "i32(..=-1, 1..)",
            "u8(0..=2, 7)",
            "u8()",
            "i128(..=-1, 1..)",
            "u128(1..)",
            "i16(-5..=5)",
            "string(len 1..=64)",
            "string(len 3)",
            "string(len 2..)",
            "string(uuid, len ..=36, pattern \"^[0-9a-f-]+$\")",
            r#"string(pattern "\\d+ \"q\"")"#,
            "option<i64(..=-1, 1..)>",
            "tuple(u8(1..), string(len 3))",
            "map<u16(1..), list<string(ipv4, len 7..=15)>>",
        ] {
            assert_eq!(parse_type(text).unwrap().to_string(), text);
        }
        // Other spellings of one set read to its one form; a restriction that restricts
        // nothing is the plain type.
        for (text, canonical) in [
            ("u8(5, 1..=4, 6..)", "u8(1..)"),
            ("u8(1..=255)", "u8(1..)"),
            ("u8(..)", "u8"),
            ("u8(0..)", "u8"),
            ("i8(-128..=-1, 0..=127)", "i8"),
            ("i8(1, 3, 2)", "i8(1..=3)"),
            ("string(len 0..)", "string"),
            ("string(len 4, uuid)", "string(uuid, len 4)"),
        ] {
            assert_eq!(parse_type(text).unwrap().to_string(), canonical, "{text}");
        }
        assert_eq!(
            parse_type("app::string").unwrap(),
            Type::Named("app::string".into())
        );
    }

    #[test]
    fn deep_nesting_is_refused_not_overflowed() {
        let deep = format!("{}u8{}", "list<".repeat(10_000), ">".repeat(10_000));
        assert_eq!(
            parse_type(&deep).unwrap_err().message(),
            "a type nested more than 64 levels deep"
        );
        let ok = format!("{}u8{}", "list<".repeat(60), ">".repeat(60));
        assert!(parse_type(&ok).is_ok());
    }

    #[test]
    fn a_built_in_type_cannot_be_defined() {
        let text = VALID
            .replace("struct A", "struct string")
            .replace("root A", "root u8");
        assert_eq!(
            error(&text),
            "line 3, column 8: `string` is a built-in type, not a name for a struct"
        );
    }

    #[test]
    fn struct_lines_belong_to_struct_variants_only() {
        let text = "root E\n\nenum E\n  rust \"e\"\n  repr external\n  variant A: unit\n    \
                    send \"a\"\n    receive \"a\"\n    field x: u8\n";
        assert_eq!(
            error(text),
            "line 9, column 5: `field` belongs only in a struct variant (`variant A: struct`)"
        );
        let text = "root E\n\nenum E\n  rust \"e\"\n  repr external\n  variant A: string\n";
        assert_eq!(
            error(text),
            "line 6, column 14: expected what the variant carries: `unit`, `newtype TYPE`, \
             `tuple(…)` or `struct`; found `string`"
        );
    }

    #[test]
    fn errors_quote_at_most_a_short_token() {
        let long = "x".repeat(10_000);
        let message = error(&with("send \"id\" always", &long));
        assert!(message.len() < 200, "{message}");
        assert!(
            message.contains(&format!("`{}…`", "x".repeat(32))),
            "{message}"
        );
        let message = error(&with("field id: string", &format!("field id: {long}")));
        assert!(message.len() < 200, "{message}");
    }
}
