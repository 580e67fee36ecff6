//! The canonical text holds every fact of the model: `parse(to_text(s)) == s`.

use contract_schema::arbitrary::arb_schema;
use contract_schema::snapshot;
use contract_schema::text::{parse, to_text};
use proptest::prelude::*;

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn parse_reads_back_what_to_text_writes(schema in arb_schema()) {
        let text = to_text(&schema);
        let parsed = parse(&text);
        prop_assert_eq!(parsed.as_ref(), Ok(&schema), "text:\n{}", text);
    }

    #[test]
    fn the_text_is_canonical(schema in arb_schema()) {
        let text = to_text(&schema);
        let again = to_text(&parse(&text).unwrap());
        prop_assert_eq!(text, again);
    }

    #[test]
    fn a_snapshot_file_reads_back(schema in arb_schema()) {
        let contents = format!(
            "---\nsource: tests/contracts.rs\nexpression: text\n---\n{}",
            to_text(&schema)
        );
        prop_assert_eq!(snapshot::parse(&contents), Ok(schema));
    }

    #[test]
    fn one_fact_per_line(schema in arb_schema()) {
        let text = to_text(&schema);
        for line in text.lines() {
            prop_assert!(!line.ends_with(' '), "trailing space in {:?}", line);
            let indent = line.len() - line.trim_start_matches(' ').len();
            prop_assert_eq!(indent % 2, 0, "odd indentation in {:?}", line);
        }
        prop_assert!(text.ends_with('\n'));
    }
}

/// Replaces every free-form string of a schema (keys, tags, aliases, earlier names, Rust
/// names and paths, docs, allowed fields and their reasons) with arbitrary text, keeping Rust names distinct.
fn scramble(schema: &mut contract_schema::Schema, words: &[String]) {
    use contract_schema::model::{Body, Repr, StructDef, VariantDefKind};
    let mut next = 0usize;
    let mut word = || {
        next += 1;
        words
            .get(next % words.len().max(1))
            .cloned()
            .unwrap_or_default()
    };
    fn fields(s: &mut StructDef, word: &mut dyn FnMut() -> String) {
        for (i, f) in s.fields.iter_mut().enumerate() {
            f.rust_name = format!("{}{i}", word());
            f.doc = word();
            if let Some(sender) = &mut f.sender {
                sender.name = word();
            }
            if let Some(r) = &mut f.receiver {
                r.name = word();
                r.aliases.iter_mut().for_each(|a| *a = word());
            }
            f.renamed_from.iter_mut().for_each(|a| *a = word());
        }
    }
    schema.allowances = schema
        .allowances
        .as_slice()
        .iter()
        .map(|a| contract_schema::compat::Allowance {
            rule: a.rule.clone(),
            field: word(),
            reason: word(),
        })
        .collect();
    for def in schema.types.values_mut() {
        def.rust_path = word();
        def.doc = word();
        match &mut def.body {
            Body::Struct(s) => fields(s, &mut word),
            Body::Newtype(_) | Body::Views { .. } => {}
            Body::Enum(e) => {
                match &mut e.repr {
                    Repr::Internal { tag } => *tag = word(),
                    Repr::Adjacent { tag, content } => {
                        *tag = word();
                        *content = word();
                    }
                    Repr::External | Repr::Untagged => {}
                }
                for (i, v) in e.variants.iter_mut().enumerate() {
                    v.rust_name = format!("{}{i}", word());
                    v.doc = word();
                    if let Some(s) = &mut v.sender {
                        *s = word();
                    }
                    v.receiver.iter_mut().for_each(|r| *r = word());
                    if let VariantDefKind::Struct(s) = &mut v.kind {
                        fields(s, &mut word);
                    }
                }
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn any_string_in_any_quoted_place_reads_back(
        mut schema in arb_schema(),
        words in proptest::collection::vec(
            proptest::collection::vec(any::<char>(), 0..12)
                .prop_map(|cs| cs.into_iter().collect::<String>()),
            1..20,
        ),
    ) {
        scramble(&mut schema, &words);
        let text = to_text(&schema);
        // Every character a review could miss is escaped: one fact per visible line.
        for c in text.chars() {
            prop_assert!(
                c == '\n' || !(c.is_control() || ('\u{202a}'..='\u{202e}').contains(&c)),
                "unescaped {:?}", c
            );
        }
        prop_assert_eq!(parse(&text), Ok(schema), "text:\n{}", text);
    }
}

/// A struct with flattened enums, as the derive describes one: every `flatten` line (a
/// plain enum, an `option` of one, a doc, a view that skips it) reads back as written.
#[test]
fn flattened_enums_read_back() {
    use contract_schema::model::{Body, Type};
    let text = r#"root Order

enum Kind
  rust "app::Kind"
  repr external
  variant Cash: unit
    send "Cash"
    receive "Cash"
  variant Card: newtype u16
    send "Card"
    receive "Card" alias "Credit"

struct Order
  rust "app::Order"
  unknown deny
  field id: u32
    send "id" always
    receive "id" required
  flatten kind: Kind
    doc "How it is paid."
  flatten meta.status: option<Status>
    send never

enum Status
  rust "app::Status"
  repr internal tag "status"
  variant Open: unit
    send "Open"
    receive "Open"
"#;
    let schema = parse(text).expect("the text parses");
    let Some(Body::Struct(order)) = schema.def("Order").map(|d| &d.body) else {
        panic!("Order is a struct");
    };
    assert_eq!(order.flattened.len(), 2);
    assert_eq!(order.flattened[0].ty, Type::Named("Kind".to_owned()));
    assert_eq!(order.flattened[0].doc, "How it is paid.");
    assert!(order.flattened[0].sent && order.flattened[0].read);
    assert_eq!(order.flattened[1].rust_name, "meta.status");
    assert!(!order.flattened[1].sent && order.flattened[1].read);
    assert!(matches!(
        schema.flat_enum(&order.flattened[1].ty),
        Some((_, true))
    ));
    assert_eq!(to_text(&schema), text);
}

/// A `flatten` line names an enum: a struct, a built-in type or a `send` other than
/// `never` is an error at its column.
#[test]
fn a_flatten_line_holds_an_enum() {
    let base = r#"root S

struct Inner
  rust "app::Inner"
  unknown ignore

struct S
  rust "app::S"
  unknown ignore
  flatten inner: TYPE
"#;
    let error = parse(&base.replace("TYPE", "Inner")).expect_err("a struct is refused");
    assert_eq!((error.line(), error.column()), (10, 18));
    assert!(
        error.message().contains("`Inner` is not an enum"),
        "{}",
        error.message()
    );
    let error = parse(&base.replace("TYPE", "u8")).expect_err("a built-in is refused");
    assert!(
        error.message().contains("holds an enum"),
        "{}",
        error.message()
    );
    let error = parse(&format!(
        "{}    send always\n",
        base.replace("TYPE", "option<Inner>")
    ))
    .expect_err("send always is refused");
    assert!(
        error.message().contains("takes only `never`"),
        "{}",
        error.message()
    );
}
