//! The source map of a snapshot: the line in the FILE (insta's header counted) of each type,
//! field and variant, and the line a compatibility finding points at in the new snapshot.

use contract_schema::arbitrary::arb_schema;
use contract_schema::compat::{self, Direction, Finding, Fix, Mode, Rule};
use contract_schema::model::{Body, StructDef, VariantDefKind};
use contract_schema::snapshot;
use contract_schema::text::{parse_with_lines, to_text, Element};
use proptest::prelude::*;

/// A snapshot whose elements sit on known lines: insta's header takes lines 1 to 4.
const NEW: &str = "\
---
source: src/lib.rs
expression: snapshot
---
contract order/v1
mode full
root Order

struct Order
  rust \"app::Order\"
  unknown ignore
  field id: u64
    send \"id\" always
    receive \"id\" required
  field lines: list<Line>
    send \"lines\" always
    receive \"lines\" required
  flatten pay: Payment
  field state: State
    send \"state\" always
    receive \"state\" required

struct Line
  rust \"app::Line\"
  unknown ignore
  field qty: u32
    send \"qty\" always
    receive \"qty\" alias \"quantity\" required

enum Payment
  rust \"app::Payment\"
  repr internal tag \"method\"
  variant Card: struct
    send \"card\"
    receive \"card\"
    unknown ignore
    field last4: string
      send \"last4\" always
      receive \"last4\" required
  variant Cash: unit
    send \"cash\"
    receive \"cash\"

enum State
  rust \"app::State\"
  repr external
  variant Open: unit
    send \"open\"
    receive \"open\"
  variant Shipped: newtype Line
    send \"shipped\"
    receive \"shipped\"
";

#[test]
fn every_type_field_and_variant_has_its_line_in_the_file() {
    let (schema, lines) = snapshot::parse_with_lines(NEW).unwrap();
    assert_eq!(
        schema,
        snapshot::parse(NEW).unwrap(),
        "the same schema as parse"
    );
    let expected = [
        (Element::Type("Order"), 9),
        (
            Element::Field {
                ty: "Order",
                field: "id",
            },
            12,
        ),
        (
            Element::Field {
                ty: "Order",
                field: "lines",
            },
            15,
        ),
        (
            Element::Field {
                ty: "Order",
                field: "pay",
            },
            18,
        ),
        (
            Element::Field {
                ty: "Order",
                field: "state",
            },
            19,
        ),
        (Element::Type("Line"), 23),
        (
            Element::Field {
                ty: "Line",
                field: "qty",
            },
            26,
        ),
        (Element::Type("Payment"), 30),
        (
            Element::Variant {
                ty: "Payment",
                variant: "Card",
            },
            33,
        ),
        (
            Element::VariantField {
                ty: "Payment",
                variant: "Card",
                field: "last4",
            },
            37,
        ),
        (
            Element::Variant {
                ty: "Payment",
                variant: "Cash",
            },
            40,
        ),
        (Element::Type("State"), 44),
        (
            Element::Variant {
                ty: "State",
                variant: "Shipped",
            },
            50,
        ),
    ];
    for (element, line) in expected {
        assert_eq!(lines.line_of(&element), Some(line), "{element:?}");
    }
    assert_eq!(lines.root_line(), Some(7));
    // What the text does not have: no line.
    for missing in [
        Element::Type("Nope"),
        Element::Field {
            ty: "Order",
            field: "last4",
        },
        Element::Field {
            ty: "Payment",
            field: "last4",
        },
        Element::VariantField {
            ty: "Payment",
            variant: "Cash",
            field: "last4",
        },
    ] {
        assert_eq!(lines.line_of(&missing), None, "{missing:?}");
    }
}

#[test]
fn without_a_header_lines_count_from_the_text() {
    let text = NEW.split_once("---\ncontract").map(|(_, t)| t).unwrap();
    let text = format!("contract{text}");
    let (_, lines) = parse_with_lines(&text).unwrap();
    assert_eq!(lines.line_of(&Element::Type("Order")), Some(5));
    let (_, lines) = snapshot::parse_with_lines(&text).unwrap();
    assert_eq!(lines.line_of(&Element::Type("Order")), Some(5));
}

/// The line `finding_line` gives the one finding of `rule` when `old` (NEW with `edit`
/// undone) evolves into NEW.
fn line_of_finding(old: &str, rule: Rule) -> Option<usize> {
    let (new_schema, lines) = snapshot::parse_with_lines(NEW).unwrap();
    let old_schema = snapshot::parse(old).unwrap();
    let report = compat::evolve(&old_schema, &new_schema, Mode::Full);
    let finding = report
        .findings()
        .iter()
        .find(|f| f.rule == rule)
        .unwrap_or_else(|| panic!("no {rule:?} in {report}"));
    snapshot::finding_line(&new_schema, &lines, finding)
}

#[test]
fn a_finding_points_at_its_innermost_element_in_the_new_snapshot() {
    // The type of a top-level field changed: the field's line.
    let old = NEW.replace("field id: u64", "field id: string");
    assert_eq!(line_of_finding(&old, Rule::TypeChanged), Some(12));
    // A field of a struct reached through a list, read under an alias.
    let old = NEW.replace("field qty: u32", "field qty: string");
    assert_eq!(line_of_finding(&old, Rule::TypeChanged), Some(26));
    // A field of a struct variant of a flattened enum.
    let old = NEW.replace("field last4: string", "field last4: u8");
    assert_eq!(line_of_finding(&old, Rule::TypeChanged), Some(37));
    // The contract's name: the root type's line.
    let old = NEW.replace("contract order/v1", "contract purchase/v1");
    assert_eq!(line_of_finding(&old, Rule::ContractNameChanged), Some(9));
}

#[test]
fn a_finding_about_what_is_gone_points_at_what_held_it() {
    // A field removed: the struct that held it.
    let old = NEW.replace(
        "  field lines:",
        "  field note: string\n    send \"note\" always\n    receive \"note\" required\n  field lines:",
    );
    assert_eq!(line_of_finding(&old, Rule::FieldRemoved), Some(9));
    // A field of a struct variant removed: the variant that held it.
    let old = NEW.replace(
        "  variant Cash: unit",
        "    field pin: string\n      send \"pin\" always\n      receive \"pin\" required\n  variant Cash: unit",
    );
    assert_eq!(line_of_finding(&old, Rule::FieldRemoved), Some(33));
    // A variant removed: the enum that held it.
    let old = format!("{NEW}  variant Lost: unit\n    send \"lost\"\n    receive \"lost\"\n");
    assert_eq!(line_of_finding(&old, Rule::EnumVariantRemoved), Some(44));
}

/// The line `n` of `file` (from 1), without its indentation.
fn line_at<'f>(file: &[&'f str], n: Option<usize>) -> Option<&'f str> {
    file.get(n?.checked_sub(1)?).map(|l| l.trim_start())
}

/// Whether `line` is the `field` or `flatten` line of the field `name`.
fn is_field_line(line: Option<&str>, name: &str) -> bool {
    line.is_some_and(|l| {
        ["field ", "flatten "].iter().any(|k| {
            l.strip_prefix(k)
                .is_some_and(|rest| rest.starts_with(&format!("{name}:")) || rest.starts_with('"'))
        })
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn every_element_of_any_schema_has_the_line_that_writes_it(schema in arb_schema()) {
        let contents = format!("---\nsource: tests/a.rs\n---\n{}", to_text(&schema));
        let (parsed, lines) = snapshot::parse_with_lines(&contents).unwrap();
        prop_assert_eq!(&parsed, &schema);
        let file: Vec<&str> = contents.lines().collect();
        prop_assert_eq!(line_at(&file, lines.root_line()).map(|l| l.starts_with("root ")), Some(true));
        for (name, def) in &schema.types {
            let head = line_at(&file, lines.line_of(&Element::Type(name)));
            prop_assert!(
                head.is_some_and(|l| ["struct ", "enum ", "newtype ", "views "]
                    .iter()
                    .any(|k| l.strip_prefix(k).is_some_and(|rest| rest.starts_with(name.as_str())))),
                "type {} at {:?}", name, head
            );
            let fields_of = |s: &StructDef| -> Vec<String> {
                s.fields.iter().map(|f| f.rust_name.clone())
                    .chain(s.flattened.iter().map(|f| f.rust_name.clone()))
                    .collect()
            };
            match &def.body {
                Body::Struct(s) => {
                    for field in fields_of(s) {
                        let at = line_at(&file, lines.line_of(&Element::Field { ty: name, field: &field }));
                        prop_assert!(is_field_line(at, &field), "{}.{} at {:?}", name, field, at);
                    }
                }
                Body::Enum(e) => {
                    for v in &e.variants {
                        let variant = v.rust_name.as_str();
                        let at = line_at(&file, lines.line_of(&Element::Variant { ty: name, variant }));
                        prop_assert!(at.is_some_and(|l| l.starts_with("variant ")), "{}::{} at {:?}", name, variant, at);
                        if let VariantDefKind::Struct(s) = &v.kind {
                            for field in fields_of(s) {
                                let element = Element::VariantField { ty: name, variant, field: &field };
                                let at = line_at(&file, lines.line_of(&element));
                                prop_assert!(is_field_line(at, &field), "{:?} at {:?}", element, at);
                            }
                        }
                    }
                }
                Body::Newtype(_) | Body::Views { .. } => {}
            }
        }
    }

    /// Whatever a finding's path says (the engine's or not), its line is one of the file's.
    #[test]
    fn any_path_finds_a_line_of_the_file_never_a_panic(
        schema in arb_schema(),
        path in "[a-zA-Z0-9_.*()\\[\\] ]{0,40}",
        forward in any::<bool>(),
    ) {
        let contents = format!("---\nsource: tests/a.rs\n---\n{}", to_text(&schema));
        let (parsed, lines) = snapshot::parse_with_lines(&contents).unwrap();
        let direction = if forward { Direction::Forward } else { Direction::Backward };
        let finding = Finding::new(Rule::TypeChanged, path, direction, "why", "hint", Fix::Described);
        let line = snapshot::finding_line(&parsed, &lines, &finding);
        // The header takes lines 1 to 3.
        prop_assert!(line.is_some_and(|n| (4..=contents.lines().count()).contains(&n)), "{:?}", line);
    }

    /// The findings between any two schemas point at an element's line of the new one.
    #[test]
    fn every_finding_points_at_an_element_line(old in arb_schema(), new in arb_schema()) {
        let contents = format!("---\nsource: tests/a.rs\n---\n{}", to_text(&new));
        let (parsed, lines) = snapshot::parse_with_lines(&contents).unwrap();
        let file: Vec<&str> = contents.lines().collect();
        let report = compat::evolve(&old, &parsed, Mode::Full);
        for finding in report.findings() {
            let at = line_at(&file, snapshot::finding_line(&parsed, &lines, finding));
            let keywords = ["root ", "struct ", "enum ", "newtype ", "views ", "field ", "flatten ", "variant "];
            prop_assert!(
                at.is_some_and(|l| keywords.iter().any(|k| l.starts_with(k))),
                "{} at {:?} points at {:?}", finding.rule.id(), finding.path, at
            );
        }
    }
}
