//! One test per rule of the compatibility catalogue, in each direction, on hand-built schemas.

use std::collections::BTreeMap;

use contract_schema::compat::{
    self, check, check_with, evolve, evolve_history, evolve_with, Allowances, AttributeEdit,
    CompatReport, Direction, Fix, FixTarget, Mode, Rule,
};
use contract_schema::contract::ContractId;
use contract_schema::model::{
    Body, Emit, EnumDef, FieldDef, FlatEnumDef, Repr, Schema, StructDef, Type, TypeDef, Unknown,
    VariantDef, VariantDefKind,
};
use contract_schema::shape::{FloatKind, IntKind, Provenance, StringFormat};

mod common;

// ----- a small builder ---------------------------------------------------------------------

/// A plain field (`FieldDef::plain`), under a short name: the tests below build many.
fn f(name: &str, ty: Type) -> FieldDef {
    FieldDef::plain(name, ty)
}

fn if_present(mut field: FieldDef) -> FieldDef {
    if let Some(s) = &mut field.sender {
        s.emit = Emit::IfPresent;
    }
    field
}

fn with_default(mut field: FieldDef) -> FieldDef {
    if let Some(r) = &mut field.receiver {
        r.required = false;
    }
    field
}

fn alias(mut field: FieldDef, old: &str) -> FieldDef {
    if let Some(r) = &mut field.receiver {
        r.aliases.push(old.to_owned());
    }
    field
}

fn renamed_from(mut field: FieldDef, old: &str) -> FieldDef {
    field.renamed_from.push(old.to_owned());
    field
}

fn assumption(mut field: FieldDef) -> FieldDef {
    field.provenance = Provenance::Assumption;
    field
}

fn string() -> Type {
    Type::String(StringFormat::Plain)
}

fn int(k: IntKind) -> Type {
    Type::Int(k)
}

fn opt(t: Type) -> Type {
    Type::Option(Box::new(t))
}

fn named(n: &str) -> Type {
    Type::Named(n.to_owned())
}

fn strukt(fields: Vec<FieldDef>) -> TypeDef {
    strukt_with(fields, Unknown::Ignore, None)
}

fn strukt_with(fields: Vec<FieldDef>, unknown: Unknown, extra: Option<Type>) -> TypeDef {
    TypeDef {
        rust_path: String::new(),
        doc: String::new(),
        body: Body::Struct(StructDef {
            fields,
            unknown,
            extra,
            flattened: Vec::new(),
        }),
    }
}

fn variant(name: &str, kind: VariantDefKind) -> VariantDef {
    VariantDef {
        rust_name: name.to_owned(),
        sender: Some(name.to_owned()),
        receiver: vec![name.to_owned()],
        other: false,
        untagged: false,
        kind,
        doc: String::new(),
    }
}

fn unit(name: &str) -> VariantDef {
    variant(name, VariantDefKind::Unit)
}

fn catch_all(name: &str) -> VariantDef {
    VariantDef {
        other: true,
        untagged: false,
        ..unit(name)
    }
}

fn enumm(repr: Repr, variants: Vec<VariantDef>) -> TypeDef {
    TypeDef {
        rust_path: String::new(),
        doc: String::new(),
        body: Body::Enum(EnumDef {
            repr,
            variants,
            deny_unknown_fields: false,
        }),
    }
}

fn internal(tag: &str) -> Repr {
    Repr::Internal {
        tag: tag.to_owned(),
    }
}

/// A schema whose root is the struct `Root`, with further named types.
fn schema(root: TypeDef, others: Vec<(&str, TypeDef)>) -> Schema {
    let mut types = BTreeMap::new();
    types.insert("Root".to_owned(), root);
    for (name, def) in others {
        types.insert(name.to_owned(), def);
    }
    Schema {
        contract: None,
        mode: Mode::Full,
        allowances: Default::default(),
        root: named("Root"),
        types,
    }
}

fn fields(fields: Vec<FieldDef>) -> Schema {
    schema(strukt(fields), Vec::new())
}

/// The rule ids of a report, in order.
fn ids(report: &CompatReport) -> Vec<&'static str> {
    report.findings().iter().map(|f| f.rule.id()).collect()
}

/// The (rule id, path, direction) of every finding.
fn located(report: &CompatReport) -> Vec<(&'static str, String, Direction)> {
    report
        .findings()
        .iter()
        .map(|f| (f.rule.id(), f.path.clone(), f.direction))
        .collect()
}

fn backward(old: &Schema, new: &Schema) -> Vec<&'static str> {
    ids(&evolve(old, new, Mode::Backward))
}

fn forward(old: &Schema, new: &Schema) -> Vec<&'static str> {
    ids(&evolve(old, new, Mode::Forward))
}

// ----- identity --------------------------------------------------------------------------

#[test]
fn a_schema_is_compatible_with_itself() {
    let s = schema(
        strukt(vec![
            f("orderId", string()),
            f("note", opt(string())),
            f("steps", Type::List(Box::new(named("Step")))),
            f("status", named("Status")),
        ]),
        vec![
            ("Step", strukt(vec![f("next", opt(named("Step")))])),
            (
                "Status",
                enumm(Repr::External, vec![unit("Ready"), unit("Done")]),
            ),
        ],
    );
    let report = check(&s, &s);
    assert!(report.findings().is_empty(), "{report}");
    assert!(evolve(&s, &s, Mode::Full).findings().is_empty());
}

// ----- fields added, removed, required -----------------------------------------------------

#[test]
fn required_field_added_breaks_backward_only() {
    let old = fields(vec![f("a", string())]);
    let new = fields(vec![f("a", string()), f("reason", string())]);
    assert_eq!(backward(&old, &new), ["FIELD_ADDED_REQUIRED"]);
    assert!(forward(&old, &new).is_empty());
    let checked = check(&old, &new);
    assert_eq!(ids(&checked), ["REQUIRED_FIELD_NOT_SENT"]);
    assert_eq!(
        checked.findings()[0].why,
        "`reason` is required by readers but never sent by writers"
    );
    let full = evolve(&old, &new, Mode::Full);
    assert_eq!(
        located(&full),
        [(
            "FIELD_ADDED_REQUIRED",
            "reason".to_owned(),
            Direction::Backward
        )]
    );
    assert!(!full.is_compatible());
}

#[test]
fn optional_field_added_is_compatible_both_ways() {
    let old = fields(vec![f("a", string())]);
    let new = fields(vec![f("a", string()), f("note", opt(string()))]);
    assert!(evolve(&old, &new, Mode::Full).is_compatible());
    let defaulted = fields(vec![
        f("a", string()),
        with_default(f("n", int(IntKind::U8))),
    ]);
    assert!(evolve(&old, &defaulted, Mode::Full).is_compatible());
}

#[test]
fn field_added_breaks_old_readers_that_deny_unknown_fields() {
    let old = schema(
        strukt_with(vec![f("a", string())], Unknown::Deny, None),
        vec![],
    );
    let new = fields(vec![f("a", string()), f("note", opt(string()))]);
    assert_eq!(forward(&old, &new), ["UNKNOWN_FIELD_DENIED"]);
    assert!(backward(&old, &new).is_empty());
}

#[test]
fn required_field_removed_breaks_forward_only() {
    let old = fields(vec![f("a", string()), f("orderRef", string())]);
    let new = fields(vec![f("a", string())]);
    assert_eq!(
        located(&evolve(&old, &new, Mode::Full)),
        [("FIELD_REMOVED", "orderRef".to_owned(), Direction::Forward)]
    );
}

#[test]
fn optional_field_removed_is_compatible_unless_the_new_reader_denies_it() {
    let old = fields(vec![f("a", string()), f("note", opt(string()))]);
    let new = fields(vec![f("a", string())]);
    assert!(evolve(&old, &new, Mode::Full).is_compatible());
    let closed = schema(
        strukt_with(vec![f("a", string())], Unknown::Deny, None),
        vec![],
    );
    assert_eq!(backward(&old, &closed), ["UNKNOWN_FIELD_DENIED"]);
    assert!(forward(&old, &closed).is_empty());
}

#[test]
fn reader_that_denies_unknown_fields_rejects_an_extra_writer_field() {
    let writer = fields(vec![f("a", string()), f("debug", Type::Bool)]);
    let reader = schema(
        strukt_with(vec![f("a", string())], Unknown::Deny, None),
        vec![],
    );
    let report = check(&writer, &reader);
    assert_eq!(
        located(&report),
        [("UNKNOWN_FIELD_DENIED", "debug".to_owned(), Direction::Check)]
    );
    assert!(report.findings()[0].hint.contains("deny_unknown_fields"));
    // A reader that ignores unknown fields reads it.
    assert!(check(&writer, &fields(vec![f("a", string())])).is_compatible());
}

#[test]
fn writer_flattened_map_sends_keys_a_denying_reader_rejects() {
    let writer = schema(
        strukt_with(vec![f("a", string())], Unknown::Capture, Some(string())),
        vec![],
    );
    let denying = schema(
        strukt_with(vec![f("a", string())], Unknown::Deny, None),
        vec![],
    );
    assert_eq!(
        located(&check(&writer, &denying)),
        [("UNKNOWN_FIELD_DENIED", "*".to_owned(), Direction::Check)]
    );
    let capturing_ints = schema(
        strukt_with(
            vec![f("a", string())],
            Unknown::Capture,
            Some(int(IntKind::U8)),
        ),
        vec![],
    );
    assert_eq!(
        located(&check(&writer, &capturing_ints)),
        [("TYPE_CHANGED", "*".to_owned(), Direction::Check)]
    );
    // A capturing reader reads an unknown writer field into its map, if the type fits.
    let plain_writer = fields(vec![f("a", string()), f("extra", Type::Bool)]);
    assert_eq!(
        ids(&check(&plain_writer, &capturing_ints)),
        ["TYPE_CHANGED"]
    );
}

#[test]
fn may_be_absent_became_required_breaks_backward() {
    // v1: `#[serde(default, skip_serializing_if = "String::is_empty")] note: String`
    let old = fields(vec![with_default(if_present(f("note", string())))]);
    // v2: `note: String`, required, always sent
    let new = fields(vec![f("note", string())]);
    assert_eq!(backward(&old, &new), ["FIELD_BECAME_REQUIRED"]);
    assert!(forward(&old, &new).is_empty());
}

#[test]
fn skip_serializing_if_on_a_field_the_reader_requires_breaks() {
    let old = fields(vec![f("note", string())]);
    let new = fields(vec![if_present(f("note", string()))]);
    assert_eq!(forward(&old, &new), ["FIELD_BECAME_OMITTABLE"]);
    assert!(backward(&old, &new).is_empty());
    assert_eq!(ids(&check(&new, &old)), ["REQUIRED_FIELD_MAY_BE_OMITTED"]);
    // With a default on the reading side it is fine.
    let tolerant = fields(vec![with_default(if_present(f("note", string())))]);
    assert!(check(&new, &tolerant).is_compatible());
}

#[test]
fn skipped_field_is_never_sent() {
    let mut never = f("token", string());
    never.sender = None;
    let writer = fields(vec![f("a", string()), never]);
    let reader = fields(vec![f("a", string()), f("token", string())]);
    assert_eq!(ids(&check(&writer, &reader)), ["REQUIRED_FIELD_NOT_SENT"]);
}

// ----- nullability -------------------------------------------------------------------------

#[test]
fn nullable_became_non_nullable_breaks_backward() {
    let old = fields(vec![f("note", opt(string()))]);
    let new = fields(vec![f("note", string())]);
    assert_eq!(backward(&old, &new), ["NULLABLE_BECAME_NON_NULLABLE"]);
    assert!(forward(&old, &new).is_empty());
    assert_eq!(ids(&check(&old, &new)), ["NULL_NOT_ACCEPTED"]);
}

#[test]
fn non_nullable_became_nullable_breaks_forward() {
    let old = fields(vec![f("note", string())]);
    let new = fields(vec![f("note", opt(string()))]);
    assert_eq!(forward(&old, &new), ["NON_NULLABLE_BECAME_NULLABLE"]);
    assert!(backward(&old, &new).is_empty());
}

#[test]
fn null_inside_a_list_is_checked_too() {
    let writer = fields(vec![f("tags", Type::List(Box::new(opt(string()))))]);
    let reader = fields(vec![f("tags", Type::List(Box::new(string())))]);
    assert_eq!(
        located(&check(&writer, &reader)),
        [("NULL_NOT_ACCEPTED", "tags[]".to_owned(), Direction::Check)]
    );
}

// ----- types -------------------------------------------------------------------------------

#[test]
fn type_changed_breaks_both_ways() {
    let old = fields(vec![f("amount", int(IntKind::U64))]);
    let new = fields(vec![f("amount", string())]);
    assert_eq!(
        located(&evolve(&old, &new, Mode::Full)),
        [
            ("TYPE_CHANGED", "amount".to_owned(), Direction::Backward),
            ("TYPE_CHANGED", "amount".to_owned(), Direction::Forward),
        ]
    );
}

#[test]
fn integer_narrowed_breaks_backward_and_widened_breaks_forward() {
    let wide = fields(vec![f("n", int(IntKind::U64))]);
    let narrow = fields(vec![f("n", int(IntKind::U32))]);
    assert_eq!(backward(&wide, &narrow), ["INT_NARROWED"]);
    assert!(forward(&wide, &narrow).is_empty());
    assert_eq!(forward(&narrow, &wide), ["INT_WIDENED"]);
    assert!(backward(&narrow, &wide).is_empty());
    assert_eq!(ids(&check(&wide, &narrow)), ["INT_OUT_OF_RANGE"]);
    // Signedness: u32 fits i64, i8 does not fit u64.
    let signed = fields(vec![f("n", int(IntKind::I64))]);
    assert!(check(&narrow, &signed).is_compatible());
    let small_signed = fields(vec![f("n", int(IntKind::I8))]);
    assert_eq!(ids(&check(&small_signed, &wide)), ["INT_OUT_OF_RANGE"]);
}

#[test]
fn integer_into_float_is_fine_float_into_integer_breaks() {
    let ints = fields(vec![f("score", int(IntKind::U32))]);
    let floats = fields(vec![f("score", Type::Float(FloatKind::F64))]);
    assert!(check(&ints, &floats).is_compatible());
    assert_eq!(ids(&check(&floats, &ints)), ["FLOAT_INTO_INTEGER"]);
    assert_eq!(backward(&floats, &ints), ["FLOAT_BECAME_INTEGER"]);
    assert_eq!(forward(&ints, &floats), ["INTEGER_BECAME_FLOAT"]);
    assert!(backward(&ints, &floats).is_empty());
}

#[test]
fn char_into_string_is_fine_string_into_char_breaks() {
    let chars = fields(vec![f("grade", Type::Char)]);
    let strings = fields(vec![f("grade", string())]);
    assert!(check(&chars, &strings).is_compatible());
    assert_eq!(ids(&check(&strings, &chars)), ["STRING_INTO_CHAR"]);
    assert_eq!(backward(&strings, &chars), ["STRING_BECAME_CHAR"]);
    assert_eq!(forward(&chars, &strings), ["CHAR_BECAME_STRING"]);
}

#[test]
fn string_format_the_writer_does_not_promise_breaks() {
    let plain = fields(vec![f("id", string())]);
    let uuid = fields(vec![f("id", Type::String(StringFormat::Uuid))]);
    assert_eq!(ids(&check(&plain, &uuid)), ["STRING_FORMAT_CHANGED"]);
    assert!(check(&uuid, &plain).is_compatible());
    let date = fields(vec![f("id", Type::String(StringFormat::Date))]);
    assert_eq!(ids(&check(&uuid, &date)), ["STRING_FORMAT_CHANGED"]);
}

#[test]
fn one_address_family_fits_the_format_that_takes_both() {
    let of = |format| fields(vec![f("addr", Type::String(format))]);
    for (narrow, wide) in [
        (StringFormat::Ipv4, StringFormat::Ip),
        (StringFormat::Ipv6, StringFormat::Ip),
        (StringFormat::SocketAddrV4, StringFormat::SocketAddr),
        (StringFormat::SocketAddrV6, StringFormat::SocketAddr),
    ] {
        assert!(check(&of(narrow), &of(wide)).is_compatible(), "{narrow:?}");
        assert_eq!(
            ids(&check(&of(wide), &of(narrow))),
            ["STRING_FORMAT_CHANGED"]
        );
    }
    // An address is not a socket address, nor the other family.
    assert_eq!(
        ids(&check(&of(StringFormat::Ip), &of(StringFormat::SocketAddr))),
        ["STRING_FORMAT_CHANGED"]
    );
    assert_eq!(
        ids(&check(&of(StringFormat::Ipv4), &of(StringFormat::Ipv6))),
        ["STRING_FORMAT_CHANGED"]
    );
}

/// A type in the canonical text.
fn ty(text: &str) -> Type {
    contract_schema::text::parse_type(text).unwrap()
}

#[test]
fn a_narrower_set_of_integers_fits_a_wider_reader_and_the_reverse_breaks() {
    let of = |t: &str| fields(vec![f("n", ty(t))]);
    for (narrow, wide) in [
        ("u64(1..)", "u64"),
        ("u8(1..)", "u16"),
        ("u8(1..)", "i16(..=-1, 1..)"),
        ("i32(1..=9)", "i32(..=-1, 1..)"),
        ("u8(0..=2, 7)", "u8(0..=7)"),
        ("i8(1..)", "u8(1..)"),
        ("u8(1..)", "f64"),
    ] {
        assert!(
            check(&of(narrow), &of(wide)).is_compatible(),
            "{narrow} into {wide}"
        );
    }
    // NonZeroU64 on the reading side: a writer's 0 is excluded.
    let (plain, non_zero) = (of("u64"), of("u64(1..)"));
    assert_eq!(
        located(&check(&plain, &non_zero)),
        [("VALUE_OUTSIDE_CONSTRAINT", "n".to_owned(), Direction::Check)]
    );
    assert_eq!(backward(&plain, &non_zero), ["CONSTRAINT_NARROWED"]);
    assert!(forward(&plain, &non_zero).is_empty());
    assert_eq!(forward(&non_zero, &plain), ["CONSTRAINT_WIDENED"]);
    assert!(backward(&non_zero, &plain).is_empty());
    // Two sets that overlap without inclusion.
    assert_eq!(
        ids(&check(&of("u8(0..=2, 7)"), &of("u8(1..)"))),
        ["VALUE_OUTSIDE_CONSTRAINT"]
    );
    // Beyond the reader's kind it is a range finding, constrained or not.
    assert_eq!(
        ids(&check(&of("u16(1..)"), &of("u8(1..)"))),
        ["INT_OUT_OF_RANGE"]
    );
    assert_eq!(
        ids(&check(&of("u16(1..)"), &of("u8"))),
        ["INT_OUT_OF_RANGE"]
    );
    assert_eq!(
        ids(&check(&of("f64"), &of("u8(1..)"))),
        ["FLOAT_INTO_INTEGER"]
    );
    // The finding says which sets, never a value of a payload (there is none).
    let report = check(&plain, &non_zero).to_string();
    assert!(
        report
            .contains("`u64` values sent by writers are not all within the `u64(1..)` of readers"),
        "{report}"
    );
}

#[test]
fn a_narrower_string_fits_a_wider_reader_and_the_reverse_breaks() {
    let of = |t: &str| fields(vec![f("s", ty(t))]);
    for (narrow, wide) in [
        ("string(len 1..=8)", "string"),
        ("string(len 2..=4)", "string(len 1..=8)"),
        ("string(pattern \"^a\")", "string"),
        ("string(len 1, pattern \"^a\")", "string(pattern \"^a\")"),
        ("string(uuid, len 36)", "string(uuid)"),
        ("string(ipv4, len ..=15)", "string(ip)"),
        ("string(len 1)", "char"),
        ("char", "string(len 1..)"),
    ] {
        assert!(
            check(&of(narrow), &of(wide)).is_compatible(),
            "{narrow} into {wide}"
        );
    }
    let (wide, narrow) = (of("string(len ..=64)"), of("string(len ..=32)"));
    assert_eq!(ids(&check(&wide, &narrow)), ["VALUE_OUTSIDE_CONSTRAINT"]);
    assert_eq!(backward(&wide, &narrow), ["CONSTRAINT_NARROWED"]);
    assert_eq!(forward(&narrow, &wide), ["CONSTRAINT_WIDENED"]);
    // A pattern is compared as text: another pattern is not known to hold the writer's.
    assert_eq!(
        ids(&check(
            &of("string(pattern \"^a\")"),
            &of("string(pattern \"^b\")")
        )),
        ["VALUE_OUTSIDE_CONSTRAINT"]
    );
    assert_eq!(
        ids(&check(&of("string"), &of("string(pattern \"^b\")"))),
        ["VALUE_OUTSIDE_CONSTRAINT"]
    );
    // The format comes first, then `char`'s one character.
    assert_eq!(
        ids(&check(&of("string"), &of("string(uuid, len ..=36)"))),
        ["STRING_FORMAT_CHANGED"]
    );
    assert_eq!(
        ids(&check(&of("string(len ..=2)"), &of("char"))),
        ["STRING_INTO_CHAR"]
    );
    assert_eq!(
        ids(&check(&of("string(len 1..)"), &of("u8"))),
        ["TYPE_CHANGED"]
    );
}

#[test]
fn a_string_enum_fits_a_constrained_string_when_every_tag_does() {
    let grade = enumm(Repr::External, vec![unit("a"), unit("bb")]);
    let writer = schema(strukt(vec![f("g", named("Grade"))]), vec![("Grade", grade)]);
    let reader = |t: &str| fields(vec![f("g", ty(t))]);
    assert!(check(&writer, &reader("string(len 1..=2)")).is_compatible());
    assert_eq!(
        ids(&check(&writer, &reader("string(len 1)"))),
        ["VALUE_OUTSIDE_CONSTRAINT"]
    );
}

#[test]
fn collections_compare_element_wise() {
    let list = |t| Type::List(Box::new(t));
    let set = |t| Type::Set(Box::new(t));
    let writer = fields(vec![f("xs", set(int(IntKind::U8)))]);
    assert!(check(&writer, &fields(vec![f("xs", list(int(IntKind::U16)))])).is_compatible());
    // A list may hold duplicates a set rejects.
    let lists = fields(vec![f("xs", list(int(IntKind::U8)))]);
    assert_eq!(ids(&check(&lists, &writer)), ["TYPE_CHANGED"]);
    // Arrays: same length, or read as a list.
    let arr = |n| fields(vec![f("xs", Type::Array(Box::new(int(IntKind::U8)), n))]);
    assert!(check(&arr(4), &arr(4)).is_compatible());
    assert!(check(&arr(4), &lists).is_compatible());
    assert_eq!(ids(&check(&arr(4), &arr(3))), ["TYPE_CHANGED"]);
    // Tuples item by item, with the index in the path.
    let tuple = |b| fields(vec![f("t", Type::Tuple(vec![string(), int(b)]))]);
    assert_eq!(
        located(&check(&tuple(IntKind::I64), &tuple(IntKind::I32))),
        [("INT_OUT_OF_RANGE", "t.1".to_owned(), Direction::Check)]
    );
}

#[test]
fn map_values_are_located_with_a_star_for_the_key() {
    let map = |v| {
        fields(vec![f(
            "labels",
            Type::Map(Box::new(string()), Box::new(v)),
        )])
    };
    let report = check(&map(int(IntKind::U64)), &map(int(IntKind::U8)));
    assert_eq!(
        located(&report),
        [("INT_OUT_OF_RANGE", "labels.*".to_owned(), Direction::Check)]
    );
    assert_eq!(report.findings()[0].field.as_deref(), Some("labels"));
}

#[test]
fn any_reads_everything_but_is_not_read_as_something_narrower() {
    let any = fields(vec![f("v", Type::Any)]);
    let s = fields(vec![f("v", string())]);
    assert!(check(&s, &any).is_compatible());
    assert_eq!(ids(&check(&any, &s)), ["TYPE_CHANGED"]);
}

// ----- nested types ------------------------------------------------------------------------

#[test]
fn renaming_a_nested_type_alone_is_not_a_break() {
    let old = schema(
        strukt(vec![f("item", named("Item"))]),
        vec![("Item", strukt(vec![f("sku", string())]))],
    );
    let new = schema(
        strukt(vec![f("item", named("Article"))]),
        vec![("Article", strukt(vec![f("sku", string())]))],
    );
    assert!(evolve(&old, &new, Mode::Full).findings().is_empty());
}

#[test]
fn a_change_inside_a_nested_type_is_located_through_it() {
    let old = schema(
        strukt(vec![f(
            "artifacts",
            Type::List(Box::new(named("Artifact"))),
        )]),
        vec![("Artifact", strukt(vec![f("version", int(IntKind::U32))]))],
    );
    let new = schema(
        strukt(vec![f(
            "artifacts",
            Type::List(Box::new(named("Artifact"))),
        )]),
        vec![("Artifact", strukt(vec![f("version", string())]))],
    );
    let report = evolve(&old, &new, Mode::Backward);
    assert_eq!(
        located(&report),
        [(
            "TYPE_CHANGED",
            "artifacts[].version".to_owned(),
            Direction::Backward
        )]
    );
    assert_eq!(report.findings()[0].field.as_deref(), Some("version"));
}

#[test]
fn newtypes_are_seen_through() {
    let old = schema(
        strukt(vec![f("id", named("OrderId"))]),
        vec![(
            "OrderId",
            TypeDef {
                rust_path: String::new(),
                doc: String::new(),
                body: Body::Newtype(string()),
            },
        )],
    );
    let new = fields(vec![f("id", string())]);
    assert!(evolve(&old, &new, Mode::Full).findings().is_empty());
}

#[test]
fn recursive_types_terminate_and_report_once() {
    let plan = |t: Type| {
        schema(
            strukt(vec![f("plan", named("Plan"))]),
            vec![(
                "Plan",
                strukt(vec![
                    f("cost", t),
                    f("steps", Type::List(Box::new(named("Plan")))),
                ]),
            )],
        )
    };
    let same = evolve(&plan(int(IntKind::U8)), &plan(int(IntKind::U8)), Mode::Full);
    assert!(same.findings().is_empty());
    let narrowed = evolve(
        &plan(int(IntKind::U64)),
        &plan(int(IntKind::U8)),
        Mode::Backward,
    );
    assert_eq!(
        located(&narrowed),
        [("INT_NARROWED", "plan.cost".to_owned(), Direction::Backward)]
    );
}

#[test]
fn mutually_recursive_types_under_other_names_terminate() {
    let s = |a: &str, b: &str| {
        schema(
            strukt(vec![f("x", named(a))]),
            vec![
                (a, strukt(vec![f("next", opt(named(b)))])),
                (b, strukt(vec![f("back", opt(named(a)))])),
            ],
        )
    };
    assert!(evolve(&s("A", "B"), &s("C", "D"), Mode::Full)
        .findings()
        .is_empty());
}

#[test]
fn struct_read_as_enum_is_a_type_change() {
    let old = schema(
        strukt(vec![f("x", named("X"))]),
        vec![("X", strukt(vec![]))],
    );
    let new = schema(
        strukt(vec![f("x", named("X"))]),
        vec![("X", enumm(Repr::External, vec![unit("A")]))],
    );
    assert_eq!(ids(&check(&old, &new)), ["TYPE_CHANGED"]);
}

#[test]
fn too_deep_a_nesting_stops_with_a_finding() {
    let mut t = string();
    for _ in 0..400 {
        t = Type::List(Box::new(t));
    }
    let s = fields(vec![f("deep", t)]);
    assert_eq!(ids(&check(&s, &s)), ["SCHEMA_TOO_DEEP"]);
}

// ----- enums -------------------------------------------------------------------------------

fn status(variants: Vec<VariantDef>) -> Schema {
    schema(
        strukt(vec![f("status", named("Status"))]),
        vec![("Status", enumm(Repr::External, variants))],
    )
}

#[test]
fn string_enum_value_added_breaks_forward_unless_old_readers_catch_all() {
    let old = status(vec![unit("Ready"), unit("Done")]);
    let new = status(vec![unit("Ready"), unit("Done"), unit("Paused")]);
    assert_eq!(
        located(&evolve(&old, &new, Mode::Full)),
        [(
            "ENUM_VALUE_ADDED",
            "status(Paused)".to_owned(),
            Direction::Forward
        )]
    );
    let old_with_other = status(vec![unit("Ready"), unit("Done"), catch_all("Unknown")]);
    assert!(forward(&old_with_other, &new).is_empty());
}

#[test]
fn string_enum_value_removed_breaks_backward() {
    let old = status(vec![unit("Ready"), unit("Done")]);
    let new = status(vec![unit("Ready")]);
    assert_eq!(backward(&old, &new), ["ENUM_VALUE_REMOVED"]);
    assert!(forward(&old, &new).is_empty());
    assert_eq!(ids(&check(&old, &new)), ["ENUM_VALUE_UNKNOWN"]);
}

fn event(repr: Repr, variants: Vec<VariantDef>) -> Schema {
    schema(
        strukt(vec![f("event", named("Event"))]),
        vec![("Event", enumm(repr, variants))],
    )
}

fn refunded(amount: Type) -> VariantDef {
    variant(
        "Refunded",
        VariantDefKind::Struct(StructDef {
            fields: vec![f("amount", amount)],
            unknown: Unknown::Ignore,
            extra: None,
            flattened: Vec::new(),
        }),
    )
}

#[test]
fn tagged_enum_variant_added_and_removed() {
    let old = event(internal("type"), vec![unit("Opened")]);
    let new = event(
        internal("type"),
        vec![unit("Opened"), refunded(int(IntKind::U64))],
    );
    assert_eq!(forward(&old, &new), ["ENUM_VARIANT_ADDED"]);
    assert_eq!(backward(&new, &old), ["ENUM_VARIANT_REMOVED"]);
    assert_eq!(ids(&check(&new, &old)), ["ENUM_VARIANT_UNKNOWN"]);
    // An internally tagged catch-all reads any unknown variant.
    let catching = event(internal("type"), vec![unit("Opened"), catch_all("Other")]);
    assert!(check(&new, &catching).is_compatible());
    // An externally tagged catch-all reads only unit variants.
    let ext_new = event(Repr::External, vec![unit("Opened"), refunded(string())]);
    let ext_catching = event(Repr::External, vec![unit("Opened"), catch_all("Other")]);
    assert_eq!(
        ids(&check(&ext_new, &ext_catching)),
        ["ENUM_VARIANT_UNKNOWN"]
    );
}

#[test]
fn tagged_enum_variants_compare_their_contents() {
    let old = event(internal("type"), vec![refunded(int(IntKind::U64))]);
    let new = event(internal("type"), vec![refunded(int(IntKind::U32))]);
    assert_eq!(
        located(&evolve(&old, &new, Mode::Backward)),
        [(
            "INT_NARROWED",
            "event(Refunded).amount".to_owned(),
            Direction::Backward
        )]
    );
    let newtype = event(
        internal("type"),
        vec![variant("Refunded", VariantDefKind::Newtype(string()))],
    );
    assert_eq!(ids(&check(&old, &newtype)), ["TYPE_CHANGED"]);
}

#[test]
fn enum_representation_and_tag_changes_break() {
    let ext = event(Repr::External, vec![unit("Opened")]);
    let int_type = event(internal("type"), vec![unit("Opened")]);
    let int_kind = event(internal("kind"), vec![unit("Opened")]);
    assert_eq!(
        ids(&evolve(&ext, &int_type, Mode::Full)),
        ["ENUM_REPR_CHANGED", "ENUM_REPR_CHANGED"]
    );
    assert_eq!(backward(&int_type, &int_kind), ["ENUM_TAG_CHANGED"]);
    let adjacent = |content: &str| {
        event(
            Repr::Adjacent {
                tag: "t".to_owned(),
                content: content.to_owned(),
            },
            vec![unit("Opened")],
        )
    };
    assert_eq!(
        forward(&adjacent("c"), &adjacent("data")),
        ["ENUM_TAG_CHANGED"]
    );
}

/// The enum `event` of a schema, with `#[serde(deny_unknown_fields)]`: the enum's flag, and
/// its struct variants' policy as the builder records it.
fn denying(mut schema: Schema) -> Schema {
    if let Some(TypeDef {
        body: Body::Enum(e),
        ..
    }) = schema.types.get_mut("Event")
    {
        e.deny_unknown_fields = true;
        for v in &mut e.variants {
            if let VariantDefKind::Struct(s) = &mut v.kind {
                s.unknown = Unknown::Deny;
            }
        }
    }
    schema
}

#[test]
fn an_enum_that_denies_unknown_keys_reads_every_key_of_the_same_representation() {
    let adjacent = |content: &str| Repr::Adjacent {
        tag: "t".to_owned(),
        content: content.to_owned(),
    };
    let opened = || {
        vec![
            unit("Opened"),
            variant("Paid", VariantDefKind::Newtype(int(IntKind::U32))),
        ]
    };
    let ignoring = event(adjacent("c"), opened());
    let strict = denying(event(adjacent("c"), opened()));
    assert!(matches!(
        &strict.types["Event"].body,
        Body::Enum(e) if e.denies_keys_beside_tags()
    ));
    // Beside its tag and content an adjacently tagged writer sends nothing: adding or
    // removing the attribute breaks no reader.
    assert!(evolve(&ignoring, &strict, Mode::Full).is_compatible());
    assert!(check(&ignoring, &strict).is_compatible());
    // A different content key is reported once, as the change of keys it is.
    assert_eq!(
        ids(&check(&event(adjacent("data"), opened()), &strict)),
        ["ENUM_TAG_CHANGED"]
    );
    // A struct variant's fields: a field the reader does not know is denied.
    let with_fields = |names: &[&str]| {
        let fields = names.iter().map(|n| f(n, Type::Bool)).collect();
        event(
            internal("type"),
            vec![variant(
                "Closed",
                VariantDefKind::Struct(StructDef {
                    fields,
                    unknown: Unknown::Ignore,
                    extra: None,
                    flattened: Vec::new(),
                }),
            )],
        )
    };
    let reader = denying(with_fields(&["a"]));
    assert_eq!(
        located(&check(&with_fields(&["a", "b"]), &reader)),
        [(
            "UNKNOWN_FIELD_DENIED",
            "event(Closed).b".to_owned(),
            Direction::Check
        )]
    );
    assert!(check(&with_fields(&["a", "b"]), &with_fields(&["a"])).is_compatible());
}

/// `Event` internally tagged under `t`, whose variant `B` holds `content` and `D` a struct;
/// `Inner` is the enum `inner` with one struct variant `A { y }`.
fn nested_tags(content: Type, inner: Repr, others: Vec<(&str, TypeDef)>) -> Schema {
    let y = || {
        VariantDefKind::Struct(StructDef {
            fields: vec![f("y", int(IntKind::U8))],
            unknown: Unknown::Ignore,
            extra: None,
            flattened: Vec::new(),
        })
    };
    let mut s = event(
        internal("t"),
        vec![
            variant("B", VariantDefKind::Newtype(content)),
            variant("D", y()),
        ],
    );
    s.types
        .insert("Inner".to_owned(), enumm(inner, vec![variant("A", y())]));
    for (name, def) in others {
        s.types.insert(name.to_owned(), def);
    }
    s
}

#[test]
fn a_variant_whose_content_needs_the_enclosing_tag_is_never_read() {
    // serde takes `t` for `Event`; `Inner` never finds its own tag under `t`.
    let same = nested_tags(named("Inner"), internal("t"), vec![]);
    let report = check(&same, &same);
    assert_eq!(
        located(&report),
        [(
            "VARIANT_UNREADABLE",
            "event(B)".to_owned(),
            Direction::Check
        )]
    );
    let text = report.to_string();
    assert!(text.contains("never read"), "{text}");
    assert!(text.contains("under another key than `t`"), "{text}");
    // Through an Option (read there as Some), a newtype, or an adjacent tag under `t`.
    // (A writer's `Option` there writes nothing: serde writes no `Option` beside a tag.)
    let through_option = nested_tags(opt(named("Inner")), internal("t"), vec![]);
    assert_eq!(ids(&check(&same, &through_option)), ["VARIANT_UNREADABLE"]);
    assert!(check(&through_option, &through_option).is_compatible());
    let wrapped = nested_tags(
        named("Wrap"),
        internal("t"),
        vec![(
            "Wrap",
            TypeDef {
                rust_path: String::new(),
                doc: String::new(),
                body: Body::Newtype(named("Inner")),
            },
        )],
    );
    assert_eq!(ids(&check(&wrapped, &wrapped)), ["VARIANT_UNREADABLE"]);
    let adjacent = Repr::Adjacent {
        tag: "t".to_owned(),
        content: "c".to_owned(),
    };
    let adjacent = nested_tags(named("Inner"), adjacent, vec![]);
    assert_eq!(ids(&check(&adjacent, &adjacent)), ["VARIANT_UNREADABLE"]);
    // Under another key, or with a content key only, the inner enum is read.
    let other_key = nested_tags(named("Inner"), internal("k"), vec![]);
    assert!(check(&other_key, &other_key).is_compatible());
    let external = nested_tags(named("Inner"), Repr::External, vec![]);
    assert!(check(&external, &external).is_compatible());
    // A reader with such a variant still reads writers that never send it.
    let mut quiet = same.clone();
    if let Some(TypeDef {
        body: Body::Enum(e),
        ..
    }) = quiet.types.get_mut("Event")
    {
        e.variants[0].sender = None;
    }
    assert!(check(&quiet, &same).is_compatible());
    // The reader decides: a writer whose `B` holds a readable enum still breaks such a
    // reader, and in evolution the finding names who reads.
    assert_eq!(ids(&check(&other_key, &same)), ["VARIANT_UNREADABLE"]);
    assert_eq!(
        located(&evolve(&other_key, &same, Mode::Backward)),
        [(
            "VARIANT_UNREADABLE",
            "event(B)".to_owned(),
            Direction::Backward
        )]
    );
    assert!(evolve(&same, &other_key, Mode::Backward)
        .findings()
        .iter()
        .all(|f| f.rule != Rule::VariantUnreadable));
}

#[test]
fn the_json_schema_export_gives_an_unreadable_variant_no_value() {
    use contract_schema::{to_json_schema, View};
    use serde_json::json;
    let same = nested_tags(named("Inner"), internal("t"), vec![]);
    let other_key = nested_tags(named("Inner"), internal("k"), vec![]);
    for view in [View::Receiver, View::Sender] {
        let unreadable = jsonschema::draft202012::options()
            .should_validate_formats(true)
            .build(&to_json_schema(&same, view))
            .expect("the export compiles");
        let readable = jsonschema::draft202012::options()
            .should_validate_formats(true)
            .build(&to_json_schema(&other_key, view))
            .expect("the export compiles");
        // What a validator makes of serde's `{"t":"B","t":"A","y":1}`, and what a reader
        // with the inner tag under another key reads.
        assert!(!unreadable.is_valid(&json!({ "event": { "t": "A", "y": 1 } })));
        assert!(!unreadable.is_valid(&json!({ "event": { "t": "B", "y": 1 } })));
        assert!(unreadable.is_valid(&json!({ "event": { "t": "D", "y": 1 } })));
        assert!(readable.is_valid(&json!({ "event": { "t": "B", "k": "A", "y": 1 } })));
        assert!(!readable.is_valid(&json!({ "event": { "t": "B", "y": 1 } })));
    }
}

#[test]
fn untagged_variants_must_fit_some_reader_variant() {
    let id = |variants| event(Repr::Untagged, variants);
    let num = variant("Number", VariantDefKind::Newtype(int(IntKind::U64)));
    let text = variant("Text", VariantDefKind::Newtype(string()));
    let old = id(vec![num.clone(), text.clone()]);
    let new = id(vec![text]);
    assert_eq!(backward(&old, &new), ["UNTAGGED_VARIANT_UNMATCHED"]);
    assert!(forward(&old, &new).is_empty());
    // Variant names do not matter, only what fits.
    let renamed = id(vec![
        variant("Big", VariantDefKind::Newtype(int(IntKind::U128))),
        variant("Str", VariantDefKind::Newtype(string())),
    ]);
    assert!(backward(&old, &renamed).is_empty());
}

/// `#[serde(untagged)]` on a variant.
fn untagged(mut v: VariantDef) -> VariantDef {
    v.untagged = true;
    v
}

#[test]
fn a_variant_becoming_untagged_or_tagged_breaks_by_direction() {
    let note = variant("Note", VariantDefKind::Newtype(string()));
    let ping = || unit("Ping");
    let adjacent = Repr::Adjacent {
        tag: "t".to_owned(),
        content: "c".to_owned(),
    };
    for repr in [Repr::External, adjacent] {
        let tagged = event(repr.clone(), vec![ping(), note.clone()]);
        let untagged_note = event(repr.clone(), vec![ping(), untagged(note.clone())]);
        // Old data holds `Note` under its tag, which new readers no longer read: backward.
        // New writers send its content alone, which old readers read only under the tag:
        // forward. Each direction names the variant.
        assert_eq!(
            located(&evolve(&tagged, &untagged_note, Mode::Full)),
            [
                (
                    "VARIANT_TAGGING_CHANGED",
                    "event(Note)".to_owned(),
                    Direction::Backward
                ),
                (
                    "VARIANT_TAGGING_CHANGED",
                    "event(Note)".to_owned(),
                    Direction::Forward
                ),
            ],
            "{repr:?}"
        );
        // The other way round, the same rule in both directions.
        assert_eq!(
            ids(&evolve(&untagged_note, &tagged, Mode::Full)),
            ["VARIANT_TAGGING_CHANGED", "VARIANT_TAGGING_CHANGED"],
            "{repr:?}"
        );
        // Between a producer and a consumer too, with the reasons spelled out.
        let report = check(&tagged, &untagged_note);
        assert_eq!(ids(&report), ["VARIANT_TAGGING_CHANGED"]);
        let why = &report.findings()[0].why;
        assert!(
            why.contains("under its tag") && why.contains("content alone"),
            "{why}"
        );
        // Unchanged, either way, it is compatible.
        assert!(evolve(&untagged_note, &untagged_note, Mode::Full).is_compatible());
        assert!(evolve(&tagged, &tagged, Mode::Full).is_compatible());
    }
    // Internally tagged, a struct variant's tagged form is its fields beside the tag, which
    // the same variant untagged reads (it ignores the tag as an unknown key): only new
    // writers, who drop the tag, break old readers.
    let fields = |unknown| {
        variant(
            "Note",
            VariantDefKind::Struct(StructDef {
                fields: vec![f("text", string())],
                unknown,
                ..StructDef::default()
            }),
        )
    };
    let tagged = event(internal("type"), vec![ping(), fields(Unknown::Ignore)]);
    let untagged_note = event(
        internal("type"),
        vec![ping(), untagged(fields(Unknown::Ignore))],
    );
    assert_eq!(
        located(&evolve(&tagged, &untagged_note, Mode::Full)),
        [(
            "VARIANT_TAGGING_CHANGED",
            "event(Note)".to_owned(),
            Direction::Forward
        )]
    );
    // Unless the untagged variant denies unknown keys: the tag is one.
    let denying = event(
        internal("type"),
        vec![ping(), untagged(fields(Unknown::Deny))],
    );
    assert_eq!(
        ids(&evolve(&tagged, &denying, Mode::Backward)),
        ["VARIANT_TAGGING_CHANGED"]
    );
}

#[test]
fn untagged_variants_of_a_tagged_enum_are_compared_as_serde_reads_them() {
    let ping = || unit("Ping");
    let raw = |name: &str, ty| untagged(variant(name, VariantDefKind::Newtype(ty)));
    let with = |untagged: Vec<VariantDef>| {
        let mut variants = vec![ping()];
        variants.extend(untagged);
        event(Repr::External, variants)
    };
    // An untagged variant must fit one of the reader's untagged variants, whatever its name.
    let old = with(vec![
        raw("Number", int(IntKind::U64)),
        raw("Text", string()),
    ]);
    let new = with(vec![raw("Words", string())]);
    assert_eq!(
        located(&evolve(&old, &new, Mode::Backward)),
        [(
            "UNTAGGED_VARIANT_UNMATCHED",
            "event(Number)".to_owned(),
            Direction::Backward
        )]
    );
    assert!(forward(&old, &new).is_empty());
    // An untagged variant of the same name is compared precisely.
    let narrower = with(vec![
        raw("Number", int(IntKind::U32)),
        raw("Text", string()),
    ]);
    assert_eq!(backward(&old, &narrower), ["INT_NARROWED"]);
    // A tagged variant the reader does not know is caught by an untagged variant that
    // reads any value, and only by such a one.
    let extra = event(Repr::External, vec![ping(), unit("Pong")]);
    let catches = with(vec![raw("Raw", Type::Any)]);
    assert!(check(&extra, &catches).is_compatible());
    let numbers = with(vec![raw("Raw", int(IntKind::U8))]);
    assert_eq!(ids(&check(&extra, &numbers)), ["ENUM_VARIANT_UNKNOWN"]);
    // An externally tagged unit variant is its name, a string: an untagged variant that
    // reads any string reads it (known names, then any other string).
    let text_only = with(vec![raw("Raw", string())]);
    assert!(check(&extra, &text_only).is_compatible());
    let pong = event(
        Repr::External,
        vec![ping(), variant("Pong", VariantDefKind::Newtype(string()))],
    );
    assert_eq!(ids(&check(&pong, &text_only)), ["ENUM_VARIANT_UNKNOWN"]);
    assert_eq!(
        ids(&evolve(&numbers, &extra, Mode::Full)),
        ["UNTAGGED_VARIANT_UNMATCHED", "ENUM_VARIANT_ADDED"]
    );
    // A reader without untagged variants never reads a writer's untagged one.
    let plain = event(Repr::External, vec![ping()]);
    assert_eq!(
        ids(&check(&with(vec![raw("Raw", string())]), &plain)),
        ["UNTAGGED_VARIANT_UNMATCHED"]
    );
    // The representation still decides first.
    let internal_one = event(internal("type"), vec![ping(), raw("Raw", string())]);
    assert_eq!(
        ids(&check(&with(vec![raw("Raw", string())]), &internal_one)),
        ["ENUM_REPR_CHANGED"]
    );
}

// ----- renames -----------------------------------------------------------------------------

#[test]
fn declared_rename_without_alias_is_explained_with_the_alias_hint() {
    let old = fields(vec![f("orderRef", string())]);
    let new = fields(vec![renamed_from(f("orderId", string()), "orderRef")]);
    let report = evolve(&old, &new, Mode::Full);
    assert_eq!(
        located(&report),
        [
            (
                "FIELD_RENAMED_WITHOUT_ALIAS",
                "orderId".to_owned(),
                Direction::Backward
            ),
            ("FIELD_RENAMED", "orderId".to_owned(), Direction::Forward),
        ]
    );
    // Under full, an alias alone would leave old readers without `orderRef`: the fix
    // offered keeps writing it, which holds both ways at once.
    for finding in report.findings() {
        assert!(
            finding
                .hint
                .contains("#[serde(rename = \"orderRef\", alias = \"orderId\")]"),
            "{}",
            finding.hint
        );
        assert_eq!(
            finding.fix,
            Fix::Attribute {
                on: FixTarget::Field {
                    name: "orderId".to_owned()
                },
                edit: AttributeEdit::KeepOldName {
                    old: "orderRef".to_owned(),
                    new: "orderId".to_owned()
                },
            }
        );
    }
    // Backward alone: new readers only need to read the old key.
    let report = evolve(&old, &new, Mode::Backward);
    assert!(report.findings()[0]
        .hint
        .contains("add `#[serde(alias = \"orderRef\")]`"));
}

/// A field whose Rust name is `rust` and whose wire name is `wire`.
fn rust_named(mut field: FieldDef, rust: &str) -> FieldDef {
    field.rust_name = rust.to_owned();
    field
}

#[test]
fn rename_hints_name_the_rust_field_the_user_edits() {
    let old = fields(vec![rust_named(f("orderRef", string()), "order_ref")]);
    let declared = fields(vec![rust_named(
        renamed_from(f("orderId", string()), "orderRef"),
        "order_id",
    )]);
    let undeclared = fields(vec![rust_named(f("orderId", string()), "order_id")]);
    let field = "`order_id` (`orderId` on the wire)";
    for new in [&declared, &undeclared] {
        for finding in evolve(&old, new, Mode::Full).findings() {
            assert!(
                finding
                    .hint
                    .contains(&format!("alias = \"orderId\")]` on {field}")),
                "{}",
                finding.hint
            );
        }
    }
    let declared_hint = evolve(&old, &declared, Mode::Backward).findings()[0]
        .hint
        .clone();
    assert!(
        declared_hint.contains(&format!("alias = \"orderRef\")]` to {field}")),
        "{declared_hint}"
    );
    let likely = evolve(&old, &undeclared, Mode::Backward).findings()[0]
        .hint
        .clone();
    assert!(
        likely.starts_with(&format!("if {field} was renamed")),
        "{likely}"
    );
    // A producer that renamed its field: the fix is on the producer's Rust field.
    let renamed_writer = fields(vec![rust_named(
        renamed_from(f("orderId", string()), "orderRef"),
        "order_id",
    )]);
    let hint = check(&renamed_writer, &old).findings()[0].hint.clone();
    assert!(hint.contains(&format!("]` on {field})")), "{hint}");
    // Without a serde rename, the Rust name alone.
    let plain = fields(vec![renamed_from(f("order_id", string()), "order_ref")]);
    let hint = evolve(&fields(vec![f("order_ref", string())]), &plain, Mode::Full).findings()[0]
        .hint
        .clone();
    assert!(hint.contains("]` on `order_id`, or"), "{hint}");
}

/// Two majors of one contract: the later one is the new major version a hint would offer.
#[test]
fn hints_between_two_majors_offer_no_new_major_version() {
    let versioned = |version, fields_of| {
        let mut schema = fields(fields_of);
        schema.contract = Some(ContractId {
            name: "refund-request".into(),
            version,
        });
        schema
    };
    let old = || {
        vec![
            f("orderRef", string()),
            f("amount", int(IntKind::U32)),
            f("note", string()),
        ]
    };
    let new = || {
        vec![
            renamed_from(f("orderId", string()), "orderRef"),
            f("amount", string()),
            f("reason", string()),
        ]
    };
    let within = evolve(&versioned(1, old()), &versioned(1, new()), Mode::Full);
    let across = evolve(&versioned(1, old()), &versioned(2, new()), Mode::Full);
    assert_eq!(ids(&within), ids(&across));
    assert!(across.findings().len() >= 4, "{across}");
    assert!(within
        .findings()
        .iter()
        .all(|f| f.hint.contains("new major version") && !f.hint.contains("already")));
    for finding in across.findings() {
        let (keep, already) = finding
            .hint
            .split_once("; else nothing: ")
            .unwrap_or_else(|| panic!("{}", finding.hint));
        assert_eq!(
            already,
            "`refund-request/v2` is already a new major version"
        );
        assert!(!keep.contains("major"), "{}", finding.hint);
        let whose = match finding.direction {
            Direction::Forward => "if `refund-request/v1`'s consumers are to read what `refund-request/v2`'s producers send",
            _ => "if `refund-request/v2`'s consumers are to read what `refund-request/v1`'s producers sent",
        };
        assert!(keep.ends_with(whose), "{}", finding.hint);
    }
    // An older major after a newer one, or another contract's name: hints as within one.
    let back = evolve(&versioned(2, old()), &versioned(1, new()), Mode::Full);
    assert!(back.findings().iter().all(|f| !f.hint.contains("already")));
}

#[test]
fn declared_rename_with_alias_reads_old_writers_but_not_old_readers() {
    let old = fields(vec![f("orderRef", string())]);
    let new = fields(vec![alias(
        renamed_from(f("orderId", string()), "orderRef"),
        "orderRef",
    )]);
    assert!(backward(&old, &new).is_empty());
    let report = evolve(&old, &new, Mode::Forward);
    assert_eq!(ids(&report), ["FIELD_RENAMED"]);
    assert!(report.findings()[0].why.contains("renamed to `orderId`"));
    // Old readers that had it optional lose nothing they required.
    let old_optional = fields(vec![f("orderRef", opt(string()))]);
    let new_optional = fields(vec![alias(
        renamed_from(f("orderId", opt(string())), "orderRef"),
        "orderRef",
    )]);
    assert!(evolve(&old_optional, &new_optional, Mode::Full).is_compatible());
}

#[test]
fn declared_rename_of_an_optional_reader_field_without_alias_still_loses_data() {
    let old = fields(vec![f("orderRef", opt(string()))]);
    let new = fields(vec![renamed_from(f("orderId", opt(string())), "orderRef")]);
    assert_eq!(backward(&old, &new), ["FIELD_RENAMED_WITHOUT_ALIAS"]);
}

#[test]
fn undeclared_rename_is_reported_as_a_likely_rename_both_ways() {
    let old = fields(vec![f("orderRef", string())]);
    let new = fields(vec![f("orderId", string())]);
    let report = evolve(&old, &new, Mode::Full);
    assert_eq!(
        ids(&report),
        ["FIELD_LIKELY_RENAMED", "FIELD_LIKELY_RENAMED"]
    );
    // Under full, both directions are told the one fix that holds both ways.
    for finding in report.findings() {
        assert!(
            finding
                .hint
                .contains("#[serde(rename = \"orderRef\", alias = \"orderId\")]"),
            "{}",
            finding.hint
        );
    }
    // Backward alone: declaring the rename and reading the old key through an alias does.
    let report = evolve(&old, &new, Mode::Backward);
    let finding = &report.findings()[0];
    assert!(
        finding
            .hint
            .contains("#[handoff(renamed_from = \"orderRef\")]"),
        "{}",
        finding.hint
    );
    assert!(finding.hint.contains("#[serde(alias = \"orderRef\")]"));
    // A different type is no rename: a removal and an addition.
    let retyped = fields(vec![f("orderId", int(IntKind::U64))]);
    assert_eq!(
        ids(&evolve(&old, &retyped, Mode::Full)),
        ["FIELD_ADDED_REQUIRED", "FIELD_REMOVED"]
    );
}

// ----- provenance and contract -----------------------------------------------------------

#[test]
fn provenance_weakened_breaks_where_the_reader_requires_confirmed() {
    let confirmed = fields(vec![f("useCase", string())]);
    let assumed = fields(vec![assumption(f("useCase", string()))]);
    assert_eq!(ids(&check(&assumed, &confirmed)), ["PROVENANCE_WEAKENED"]);
    assert!(check(&assumed, &assumed).is_compatible());
    assert!(check(&confirmed, &assumed).is_compatible());
    assert_eq!(forward(&confirmed, &assumed), ["PROVENANCE_WEAKENED"]);
    assert!(backward(&confirmed, &assumed).is_empty());
}

#[test]
fn contract_name_changed_breaks() {
    let mut a = fields(vec![f("x", string())]);
    let mut b = a.clone();
    a.contract = Some(ContractId {
        name: "refund-request".to_owned(),
        version: 2,
    });
    b.contract = Some(ContractId {
        name: "refund-order".to_owned(),
        version: 2,
    });
    let report = check(&a, &b);
    assert_eq!(ids(&report), ["CONTRACT_NAME_CHANGED"]);
    assert_eq!(report.findings()[0].display_path(), "<root>");
    // Another version of the same name is not a finding by itself.
    let mut v3 = a.clone();
    if let Some(c) = &mut v3.contract {
        c.version = 3;
    }
    assert!(check(&a, &v3).findings().is_empty());
}

// ----- allowances --------------------------------------------------------------------------

#[test]
fn an_allowed_finding_stays_in_the_report_but_does_not_break() {
    let old = schema(strukt(vec![f("a", string())]), vec![]);
    let new = fields(vec![f("a", string()), f("reason", string())]);
    let by_name = Allowances::new().allow(
        "FIELD_ADDED_REQUIRED",
        "reason",
        "every producer was upgraded on 2026-11-01",
    );
    let report = evolve_with(&old, &new, Mode::Full, &by_name);
    assert!(report.is_compatible());
    assert_eq!(report.findings().len(), 1);
    assert_eq!(
        report.findings()[0].allowed.as_deref(),
        Some("every producer was upgraded on 2026-11-01")
    );
    assert!(report.to_string().contains("allowed[FIELD_ADDED_REQUIRED]"));
    // Another rule or another field does not cover it.
    let wrong_rule = Allowances::new().allow("FIELD_REMOVED", "reason", "no");
    assert!(!evolve_with(&old, &new, Mode::Full, &wrong_rule).is_compatible());
    let wrong_field = Allowances::new().allow("FIELD_ADDED_REQUIRED", "a", "no");
    assert!(!evolve_with(&old, &new, Mode::Full, &wrong_field).is_compatible());
}

#[test]
fn an_allowance_can_name_the_whole_path() {
    let old = schema(
        strukt(vec![f(
            "artifacts",
            Type::List(Box::new(named("Artifact"))),
        )]),
        vec![("Artifact", strukt(vec![f("version", int(IntKind::U64))]))],
    );
    let new = schema(
        strukt(vec![f(
            "artifacts",
            Type::List(Box::new(named("Artifact"))),
        )]),
        vec![("Artifact", strukt(vec![f("version", int(IntKind::U32))]))],
    );
    let allow = Allowances::new().allow("INT_OUT_OF_RANGE", "artifacts[].version", "bounded");
    assert!(check_with(&old, &new, &allow).is_compatible());
    assert!(!check(&old, &new).is_compatible());
}

#[test]
fn an_allowance_on_a_field_covers_the_paths_under_it() {
    // `artifacts[].version` narrowed inside a nested type: an allowance on `artifacts`
    // covers it (the field holds the type), one on a field whose name only starts the same
    // way does not, nor another rule.
    let holder = |version: IntKind| {
        schema(
            strukt(vec![
                f("artifacts", Type::List(Box::new(named("Artifact")))),
                f("artifact", string()),
            ]),
            vec![("Artifact", strukt(vec![f("version", int(version))]))],
        )
    };
    let (old, new) = (holder(IntKind::U64), holder(IntKind::U32));
    let on_field = Allowances::new().allow("INT_OUT_OF_RANGE", "artifacts", "bounded");
    assert!(check_with(&old, &new, &on_field).is_compatible());
    let prefix_only = Allowances::new().allow("INT_OUT_OF_RANGE", "artifact", "no");
    assert!(!check_with(&old, &new, &prefix_only).is_compatible());
    let other_rule = Allowances::new().allow("FIELD_REMOVED", "artifacts", "no");
    assert!(!check_with(&old, &new, &other_rule).is_compatible());
    // The one matcher, a `const fn` the compile-time check of nested types evaluates.
    for (field, path, covered) in [
        ("lines", "lines[].qty", true),
        ("lines", "lines", true),
        ("kind", "kind(Refund)", true),
        ("meta", "meta.owner", true),
        ("lines", "linesTotal", false),
        ("lines[].qty", "lines", false),
        ("", "", false),
    ] {
        assert_eq!(
            compat::covers("INT_NARROWED", field, "INT_NARROWED", path, ""),
            covered,
            "{field} / {path}"
        );
    }
    assert!(compat::covers(
        "INT_NARROWED",
        "qty",
        "INT_NARROWED",
        "lines[].qty",
        "qty"
    ));
    assert!(!compat::covers(
        "INT_NARROWED",
        "lines",
        "FIELD_REMOVED",
        "lines[].qty",
        ""
    ));
}

#[test]
fn allowances_that_cover_nothing_are_listed_as_unused() {
    let old = fields(vec![f("a", string()), f("b", string())]);
    let new = fields(vec![f("a", string())]);
    let allow = Allowances::new()
        .allow("FIELD_REMOVED", "b", "retired")
        .allow("FIELD_REMOVED", "c", "stale");
    let report = evolve_with(&old, &new, Mode::Full, &allow);
    assert!(report.is_compatible());
    let unused: Vec<&str> = allow.unused(&report).map(|a| a.field.as_str()).collect();
    assert_eq!(unused, ["c"]);
}

#[test]
fn allowances_with_unknown_rule_ids_are_listed() {
    let allow =
        Allowances::new()
            .allow("FIELD_REMOVED", "a", "ok")
            .allow("FIELD_REMOVD", "a", "typo");
    let unknown: Vec<&str> = allow.unknown_rules().map(|a| a.rule.as_str()).collect();
    assert_eq!(unknown, ["FIELD_REMOVD"]);
}

// ----- history -----------------------------------------------------------------------------

#[test]
fn transitive_history_reports_every_failing_version() {
    let v0 = fields(vec![f("a", int(IntKind::U64))]);
    let v1 = fields(vec![f("a", int(IntKind::U32))]);
    let v2 = fields(vec![f("a", int(IntKind::U64))]);
    let new = fields(vec![f("a", int(IntKind::U32))]);
    let history = [v0, v1, v2];
    let report = evolve_history(&history, &new, Mode::BackwardTransitive);
    assert_eq!(report.failing_versions(), [0, 2]);
    assert!(report
        .findings()
        .iter()
        .all(|f| f.rule == Rule::IntNarrowed && f.direction == Direction::Backward));
    assert!(report.to_string().contains("against older version #2"));
    // Non-transitive: only against the latest.
    let latest = evolve_history(&history, &new, Mode::Backward);
    assert_eq!(latest.failing_versions(), [2]);
    // Full transitive: v0 and v2 break backward; no version breaks forward (u32 fits u64).
    let full = evolve_history(&history, &new, Mode::FullTransitive);
    assert_eq!(full.failing_versions(), [0, 2]);
    assert!(evolve_history(&[], &new, Mode::FullTransitive).is_compatible());
}

#[test]
fn mode_directions() {
    assert_eq!(
        compat::directions(Mode::Full),
        [Direction::Backward, Direction::Forward]
    );
    assert_eq!(
        compat::directions(Mode::ForwardTransitive),
        [Direction::Forward]
    );
    assert!(compat::is_transitive(Mode::FullTransitive));
    assert!(!compat::is_transitive(Mode::Backward));
}

// ----- output ------------------------------------------------------------------------------

#[test]
fn human_text_names_the_rule_path_direction_why_and_hint() {
    let old = fields(vec![f("a", string()), f("orderRef", string())]);
    let new = fields(vec![f("a", string())]);
    let text = evolve(&old, &new, Mode::Full).to_string();
    let expected =
        "error[FIELD_REMOVED]: `orderRef` is required by old readers but never sent by new writers
  --> orderRef (forward: new writers -> old readers)
   = help: restore the field (old readers require it), or publish the removal as a new major version

incompatible: 1 breaking finding";
    assert_eq!(text, expected);
    assert_eq!(evolve(&new, &new, Mode::Full).to_string(), "compatible");
}

#[test]
fn json_output_has_rule_ids_paths_and_directions() {
    let old = fields(vec![f("a", string()), f("orderRef", string())]);
    let new = fields(vec![f("a", string())]);
    let allow = Allowances::new().allow("FIELD_REMOVED", "orderRef", "v1 readers retired");
    let json = serde_json::to_value(evolve_with(&old, &new, Mode::Full, &allow)).unwrap();
    assert_eq!(
        json,
        serde_json::json!({
            "compatible": true,
            "findings": [{
                "rule": "FIELD_REMOVED",
                "path": "orderRef",
                "field": "orderRef",
                "direction": "forward",
                "against": null,
                "why": "`orderRef` is required by old readers but never sent by new writers",
                "hint": "restore the field (old readers require it), or publish the removal as a new major version",
                "fix": {"kind": "keep_field", "name": "orderRef"},
                "allowed": "v1 readers retired",
            }]
        })
    );
}

// ----- the catalogue -----------------------------------------------------------------------

#[test]
fn rule_ids_are_unique_screaming_snake_and_documented() {
    let docs = include_str!("../src/compat/mod.rs");
    let mut seen = std::collections::BTreeSet::new();
    for rule in Rule::ALL {
        let id = rule.id();
        assert!(
            id.chars().all(|c| c.is_ascii_uppercase() || c == '_'),
            "{id}"
        );
        assert!(seen.insert(id), "duplicate id {id}");
        assert_eq!(Rule::from_id(id), Some(rule));
        let in_table = docs
            .lines()
            .filter(|l| l.starts_with("//! | `"))
            .any(|l| l.contains(&format!("`{id}`")));
        assert!(in_table, "{id} is missing from the rule catalogue table");
    }
    assert_eq!(Rule::from_id("NOT_A_RULE"), None);
}

#[test]
fn a_newtype_that_contains_itself_terminates() {
    // `struct Grid(Vec<(Box<Grid>, i128)>)`, under two names.
    let grid = |name: &str, n: IntKind| {
        schema(
            strukt(vec![f("grid", named(name))]),
            vec![(
                name,
                TypeDef {
                    rust_path: String::new(),
                    doc: String::new(),
                    body: Body::Newtype(Type::List(Box::new(Type::Tuple(vec![
                        named(name),
                        int(n),
                    ])))),
                },
            )],
        )
    };
    let same = evolve(
        &grid("Grid", IntKind::I128),
        &grid("Mesh", IntKind::I128),
        Mode::Full,
    );
    assert!(same.findings().is_empty(), "{same}");
    let narrowed = check(&grid("Grid", IntKind::I128), &grid("Mesh", IntKind::I64));
    assert_eq!(
        located(&narrowed),
        [("INT_OUT_OF_RANGE", "grid[].1".to_owned(), Direction::Check)]
    );
}

#[test]
fn untagged_variant_of_the_same_name_is_reported_precisely() {
    let id = |t: Type| {
        event(
            Repr::Untagged,
            vec![
                variant("Text", VariantDefKind::Newtype(string())),
                refunded(t),
            ],
        )
    };
    let report = check(&id(int(IntKind::U64)), &id(int(IntKind::U8)));
    assert_eq!(
        located(&report),
        [(
            "INT_OUT_OF_RANGE",
            "event(Refunded).amount".to_owned(),
            Direction::Check
        )]
    );
}

#[test]
fn two_writer_keys_read_into_one_reader_field_are_a_duplicate() {
    let writer = fields(vec![f("orderRef", string()), f("orderId", string())]);
    let reader = fields(vec![alias(f("orderId", string()), "orderRef")]);
    assert_eq!(
        located(&check(&writer, &reader)),
        [("FIELD_READ_TWICE", "orderId".to_owned(), Direction::Check)]
    );
}

#[test]
fn a_string_enum_is_read_as_a_string_and_a_catch_all_reads_any_string() {
    let as_enum = status(vec![unit("Ready"), unit("Done")]);
    let as_string = fields(vec![f("status", string())]);
    assert!(check(&as_enum, &as_string).is_compatible());
    assert_eq!(ids(&check(&as_string, &as_enum)), ["TYPE_CHANGED"]);
    let catching = status(vec![unit("Ready"), catch_all("Unknown")]);
    assert!(check(&as_string, &catching).is_compatible());
    // A uuid string is still a string to a plain-string reader of the enum's tags.
    let uuid = fields(vec![f("status", Type::String(StringFormat::Uuid))]);
    assert!(check(&uuid, &catching).is_compatible());
}

#[test]
fn integer_map_keys_are_read_by_string_keys_but_not_the_reverse() {
    let map = |k: Type| {
        fields(vec![f(
            "counts",
            Type::Map(Box::new(k), Box::new(int(IntKind::U32))),
        )])
    };
    assert!(check(&map(int(IntKind::U64)), &map(string())).is_compatible());
    assert_eq!(
        located(&check(&map(string()), &map(int(IntKind::U64)))),
        [("TYPE_CHANGED", "counts.*".to_owned(), Direction::Check)]
    );
    assert_eq!(
        ids(&check(&map(int(IntKind::I64)), &map(int(IntKind::U8)))),
        ["INT_OUT_OF_RANGE"]
    );
}

#[test]
fn a_long_chain_of_nested_types_stops_without_overflowing_the_stack() {
    // T0 { next: T1 }, T1 { next: T2 }, ... 1000 distinct types, compared on a test
    // thread's small stack.
    let chain = |n: usize| {
        let mut types: Vec<(String, TypeDef)> = (0..n)
            .map(|i| {
                (
                    format!("T{i}"),
                    strukt(vec![f("next", named(&format!("T{}", i + 1)))]),
                )
            })
            .collect();
        types.push((format!("T{n}"), strukt(vec![f("end", Type::Bool)])));
        let others = types.iter().map(|(n, d)| (n.as_str(), d.clone())).collect();
        schema(strukt(vec![f("head", named("T0"))]), others)
    };
    let s = chain(1000);
    let report = check(&s, &s);
    assert_eq!(ids(&report), ["SCHEMA_TOO_DEEP"]);
    assert!(report.findings()[0].path.starts_with("head.next.next."));
    // A chain within the limit is compared to its end.
    let short = chain(100);
    assert!(check(&short, &short).findings().is_empty());
}

/// A newtype that reaches itself through an `Option` on the reader's side, against a writer
/// type that does not shrink with it: compared once, no depth-limit finding.
#[test]
fn a_newtype_reaching_itself_through_an_option_terminates_without_a_depth_finding() {
    let reader = contract_schema::text::parse(
        "root Msg\n\nstruct Msg\n  rust \"m::Msg\"\n  unknown capture\n  extra Step\n\nnewtype Step: option<Step>\n  rust \"m::Step\"\n",
    )
    .expect("the reader parses");
    let writer = contract_schema::text::parse(
        "root Msg\n\nstruct Msg\n  rust \"m::Msg\"\n  unknown ignore\n  field note: string\n    send \"note\" always\n    receive \"note\" required\n",
    )
    .expect("the writer parses");
    let report = contract_schema::compat::check(&writer, &reader);
    assert!(
        !report
            .findings()
            .iter()
            .any(|f| f.rule.id() == "SCHEMA_TOO_DEEP"),
        "{report}"
    );
    // A string is not `null`, the only value a `Step` holds: the captured key breaks the reader.
    assert!(!report.is_compatible(), "{report}");
    assert!(
        report.to_string().contains("reads nothing but `null`"),
        "{report}"
    );
}

// ----- structs read as maps, maps read as structs -------------------------------------------

fn map(k: Type, v: Type) -> Type {
    Type::Map(Box::new(k), Box::new(v))
}

/// `Root { meta: T }`, with further named types.
fn meta(ty: Type, others: Vec<(&str, TypeDef)>) -> Schema {
    schema(strukt(vec![f("meta", ty)]), others)
}

/// `Root { meta: Meta }` with `Meta` the given struct.
fn meta_struct(def: TypeDef) -> Schema {
    meta(named("Meta"), vec![("Meta", def)])
}

#[test]
fn a_struct_is_read_by_a_string_map_whose_values_fit_every_field() {
    let writer = meta_struct(strukt(vec![f("a", string()), f("b", opt(string()))]));
    let nullable = meta(map(string(), opt(string())), vec![]);
    let report = check(&writer, &nullable);
    assert!(report.findings().is_empty(), "{report}");
    // `b` may be `null`, which a map of strings rejects; a map of bytes reads neither.
    assert_eq!(
        located(&check(&writer, &meta(map(string(), string()), vec![]))),
        [("NULL_NOT_ACCEPTED", "meta.b".to_owned(), Direction::Check)]
    );
    assert_eq!(
        ids(&check(
            &writer,
            &meta(map(string(), int(IntKind::U8)), vec![])
        )),
        ["TYPE_CHANGED", "NULL_NOT_ACCEPTED", "TYPE_CHANGED"]
    );
    // A field never sent is not an entry.
    let mut skipped = f("secret", int(IntKind::U8));
    skipped.sender = None;
    let with_skipped = meta_struct(strukt(vec![f("a", string()), skipped]));
    assert!(check(&with_skipped, &meta(map(string(), string()), vec![])).is_compatible());
    // By direction: a struct that became a map reads old writers; old readers lose fields.
    let old = meta_struct(strukt(vec![f("a", string())]));
    let new = meta(map(string(), string()), vec![]);
    assert!(backward(&old, &new).is_empty());
    assert_eq!(
        located(&evolve(&old, &new, Mode::Forward)),
        [(
            "FIELD_BECAME_OMITTABLE",
            "meta.a".to_owned(),
            Direction::Forward
        )]
    );
}

#[test]
fn a_struct_capturing_unknown_keys_sends_them_to_the_map_too() {
    let writer = meta_struct(strukt_with(
        vec![f("a", string())],
        Unknown::Capture,
        Some(int(IntKind::U8)),
    ));
    assert_eq!(
        located(&check(&writer, &meta(map(string(), string()), vec![]))),
        [("TYPE_CHANGED", "meta.*".to_owned(), Direction::Check)]
    );
    assert!(check(&writer, &meta(map(string(), Type::Any), vec![])).is_compatible());
    // Keys that are data are not all read by a key of a narrower type.
    let single = meta_struct(strukt_with(
        vec![f("a", string())],
        Unknown::Capture,
        Some(string()),
    ));
    let report = check(&single, &meta(map(Type::Char, string()), vec![]));
    assert_eq!(
        located(&report),
        [("TYPE_CHANGED", "meta.*".to_owned(), Direction::Check)]
    );
    assert!(report.findings()[0].why.contains("flattened map"));
}

#[test]
fn a_struct_read_as_a_map_needs_keys_that_read_its_field_names() {
    let writer = meta_struct(strukt(vec![f("1", string()), f("300", string())]));
    let report = check(&writer, &meta(map(int(IntKind::U8), string()), vec![]));
    assert_eq!(
        located(&report),
        [("TYPE_CHANGED", "meta.300".to_owned(), Direction::Check)]
    );
    assert_eq!(
        report.findings()[0].why,
        "writers send a struct whose field `300` is read by readers as a map key, which the `u8` keys do not read"
    );
    assert!(check(&writer, &meta(map(int(IntKind::U16), string()), vec![])).is_compatible());
    let named_fields = meta_struct(strukt(vec![f("orderId", string())]));
    assert_eq!(
        located(&check(
            &named_fields,
            &meta(map(int(IntKind::U64), string()), vec![])
        )),
        [("TYPE_CHANGED", "meta.orderId".to_owned(), Direction::Check)]
    );
    // A string enum key reads its tags; a catch-all reads every name.
    let writer = meta_struct(strukt(vec![f("Ready", string()), f("Other", string())]));
    let by_status = |variants| {
        meta(
            map(named("Status"), string()),
            vec![("Status", enumm(Repr::External, variants))],
        )
    };
    assert_eq!(
        located(&check(
            &writer,
            &by_status(vec![unit("Ready"), unit("Done")])
        )),
        [("TYPE_CHANGED", "meta.Other".to_owned(), Direction::Check)]
    );
    assert!(check(
        &writer,
        &by_status(vec![unit("Ready"), catch_all("Unknown")])
    )
    .is_compatible());
}

#[test]
fn a_string_map_read_as_a_struct_may_omit_every_field() {
    let writer = meta(map(string(), string()), vec![]);
    let reader = meta_struct(strukt(vec![
        f("a", string()),
        f("b", opt(string())),
        f("c", opt(int(IntKind::U8))),
    ]));
    let report = check(&writer, &reader);
    assert_eq!(
        located(&report),
        [
            (
                "REQUIRED_FIELD_MAY_BE_OMITTED",
                "meta.a".to_owned(),
                Direction::Check
            ),
            ("TYPE_CHANGED", "meta.c".to_owned(), Direction::Check),
        ]
    );
    assert_eq!(
        report.findings()[0].why,
        "`a` is required by readers but writers send a map, which may leave out any key"
    );
    // Optional fields of the map's value type read it; unknown keys are ignored.
    let optional = meta_struct(strukt(vec![
        f("b", opt(string())),
        with_default(f("d", string())),
    ]));
    let report = check(&writer, &optional);
    assert!(report.findings().is_empty(), "{report}");
    // A nullable value into a field that rejects `null`.
    let nullable = meta(map(string(), opt(string())), vec![]);
    assert_eq!(
        located(&check(&nullable, &optional)),
        [("NULL_NOT_ACCEPTED", "meta.d".to_owned(), Direction::Check)]
    );
    // By direction.
    let old = writer;
    let new = meta_struct(strukt(vec![f("a", string())]));
    assert_eq!(
        located(&evolve(&old, &new, Mode::Backward)),
        [(
            "FIELD_BECAME_REQUIRED",
            "meta.a".to_owned(),
            Direction::Backward
        )]
    );
    assert!(forward(&old, &new).is_empty());
}

#[test]
fn a_map_read_as_a_struct_meets_its_unknown_field_policy() {
    let writer = meta(map(string(), string()), vec![]);
    let fields = vec![f("b", opt(string()))];
    let denying = meta_struct(strukt_with(fields.clone(), Unknown::Deny, None));
    let report = check(&writer, &denying);
    assert_eq!(
        located(&report),
        [(
            "UNKNOWN_FIELD_DENIED",
            "meta.*".to_owned(),
            Direction::Check
        )]
    );
    assert!(report.findings()[0].hint.contains("deny_unknown_fields"));
    let capturing =
        |extra: Type| meta_struct(strukt_with(fields.clone(), Unknown::Capture, Some(extra)));
    assert!(check(&writer, &capturing(string())).is_compatible());
    assert_eq!(
        located(&check(&writer, &capturing(int(IntKind::U8)))),
        [("TYPE_CHANGED", "meta.*".to_owned(), Direction::Check)]
    );
    // Two keys of one field may both come: serde rejects the duplicate.
    let aliased = meta_struct(strukt(vec![alias(f("orderId", opt(string())), "orderRef")]));
    assert_eq!(
        located(&check(&writer, &aliased)),
        [(
            "FIELD_READ_TWICE",
            "meta.orderId".to_owned(),
            Direction::Check
        )]
    );
}

#[test]
fn a_map_read_as_a_struct_sends_only_the_keys_its_key_type_writes() {
    // Integer keys are never `orderId`: a required field is never sent, an optional one
    // is never read (whatever its type), and every key is unknown to the reader.
    let by_number = meta(map(int(IntKind::U32), string()), vec![]);
    let required = meta_struct(strukt(vec![f("orderId", int(IntKind::U8))]));
    let report = check(&by_number, &required);
    assert_eq!(
        located(&report),
        [(
            "REQUIRED_FIELD_NOT_SENT",
            "meta.orderId".to_owned(),
            Direction::Check
        )]
    );
    assert_eq!(
        report.findings()[0].why,
        "`orderId` is required by readers but never sent by writers, whose map keys (`u32`) cannot be `orderId`"
    );
    let optional = meta_struct(strukt(vec![f("orderId", opt(int(IntKind::U8)))]));
    assert!(check(&by_number, &optional).is_compatible());
    let numbered = meta_struct(strukt(vec![f("7", opt(int(IntKind::U8)))]));
    assert_eq!(
        located(&check(&by_number, &numbered)),
        [("TYPE_CHANGED", "meta.7".to_owned(), Direction::Check)]
    );
    // String-enum keys are exactly its tags: a denying reader that reads them all is fine.
    let status = (
        "Status",
        enumm(Repr::External, vec![unit("Ready"), unit("Done")]),
    );
    let by_status = meta(map(named("Status"), int(IntKind::U8)), vec![status.clone()]);
    let reader = |fields: Vec<FieldDef>| {
        meta(
            named("Meta"),
            vec![("Meta", strukt_with(fields, Unknown::Deny, None))],
        )
    };
    let all = reader(vec![
        f("Ready", opt(int(IntKind::U16))),
        f("Done", opt(int(IntKind::U8))),
    ]);
    let report = check(&by_status, &all);
    assert!(report.findings().is_empty(), "{report}");
    assert_eq!(
        located(&check(
            &by_status,
            &reader(vec![f("Ready", opt(int(IntKind::U8)))])
        )),
        [(
            "UNKNOWN_FIELD_DENIED",
            "meta.Done".to_owned(),
            Direction::Check
        )]
    );
}

#[test]
fn json_values_stay_as_they_are_against_structs_and_maps() {
    let structured = meta_struct(strukt(vec![f("a", string())]));
    let any = meta(Type::Any, vec![]);
    assert!(check(&structured, &any).is_compatible());
    assert!(check(&meta(map(string(), string()), vec![]), &any).is_compatible());
    assert_eq!(
        located(&check(&any, &structured)),
        [("TYPE_CHANGED", "meta".to_owned(), Direction::Check)]
    );
    assert_eq!(
        located(&check(&any, &meta(map(string(), string()), vec![]))),
        [("TYPE_CHANGED", "meta".to_owned(), Direction::Check)]
    );
}

// ----- flattened enums ---------------------------------------------------------------------

/// A `#[serde(flatten)]` entry of `ty` (the enum, or an `option` of it), sent and read.
fn flat(name: &str, ty: Type) -> FlatEnumDef {
    FlatEnumDef {
        rust_name: name.to_owned(),
        ty,
        sent: true,
        read: true,
        doc: String::new(),
    }
}

/// A root struct with the field `id`, the given flattened entries and the enum `Kind`.
fn flat_root(flattened: Vec<FlatEnumDef>, unknown: Unknown, kind: TypeDef) -> Schema {
    let mut root = strukt_with(vec![f("id", string())], unknown, None);
    if let Body::Struct(s) = &mut root.body {
        s.flattened = flattened;
    }
    schema(root, vec![("Kind", kind)])
}

fn kind_ab() -> TypeDef {
    enumm(
        Repr::External,
        vec![
            variant("A", VariantDefKind::Newtype(string())),
            variant("B", VariantDefKind::Newtype(int(IntKind::U32))),
        ],
    )
}

fn flat_kind(kind: TypeDef) -> Schema {
    flat_root(vec![flat("kind", named("Kind"))], Unknown::Ignore, kind)
}

#[test]
fn a_flattened_enum_is_compatible_with_itself() {
    for s in [
        flat_kind(kind_ab()),
        flat_root(
            vec![flat("kind", opt(named("Kind")))],
            Unknown::Deny,
            kind_ab(),
        ),
    ] {
        assert!(check(&s, &s).findings().is_empty(), "{}", check(&s, &s));
        assert!(evolve(&s, &s, Mode::Full).findings().is_empty());
    }
}

#[test]
fn a_variant_removed_from_a_flattened_enum_breaks() {
    let old = flat_kind(kind_ab());
    let new = flat_kind(enumm(
        Repr::External,
        vec![variant("A", VariantDefKind::Newtype(string()))],
    ));
    assert_eq!(
        located(&check(&old, &new)),
        [(
            "ENUM_VARIANT_UNKNOWN",
            "(flatten kind)(B)".to_owned(),
            Direction::Check
        )]
    );
    assert_eq!(backward(&old, &new), ["ENUM_VARIANT_REMOVED"]);
    assert!(forward(&old, &new).is_empty());
    assert_eq!(forward(&new, &old), ["ENUM_VARIANT_ADDED"]);
}

#[test]
fn a_variant_retyped_in_a_flattened_enum_breaks() {
    let old = flat_kind(kind_ab());
    let new = flat_kind(enumm(
        Repr::External,
        vec![
            variant("A", VariantDefKind::Newtype(string())),
            variant("B", VariantDefKind::Newtype(int(IntKind::U8))),
        ],
    ));
    assert_eq!(
        located(&check(&old, &new)),
        [(
            "INT_OUT_OF_RANGE",
            "(flatten kind)(B)".to_owned(),
            Direction::Check
        )]
    );
    assert_eq!(backward(&old, &new), ["INT_NARROWED"]);
    assert_eq!(forward(&new, &old), ["INT_WIDENED"]);
    let retyped = flat_kind(enumm(
        Repr::External,
        vec![
            variant("A", VariantDefKind::Newtype(int(IntKind::U8))),
            variant("B", VariantDefKind::Newtype(int(IntKind::U32))),
        ],
    ));
    assert_eq!(ids(&check(&old, &retyped)), ["TYPE_CHANGED"]);
    assert_eq!(
        ids(&evolve(&old, &retyped, Mode::Full)),
        ["TYPE_CHANGED", "TYPE_CHANGED"]
    );
}

#[test]
fn a_flattened_enum_with_another_representation_breaks() {
    let old = flat_kind(kind_ab());
    let mut tagged = kind_ab();
    if let Body::Enum(e) = &mut tagged.body {
        e.repr = Repr::Adjacent {
            tag: "t".to_owned(),
            content: "c".to_owned(),
        };
    }
    let new = flat_kind(tagged.clone());
    assert_eq!(
        located(&check(&old, &new)),
        [(
            "ENUM_REPR_CHANGED",
            "(flatten kind)".to_owned(),
            Direction::Check
        )]
    );
    assert_eq!(
        ids(&evolve(&old, &new, Mode::Full)),
        ["ENUM_REPR_CHANGED", "ENUM_REPR_CHANGED"]
    );
    if let Body::Enum(e) = &mut tagged.body {
        e.repr = Repr::Adjacent {
            tag: "type".to_owned(),
            content: "c".to_owned(),
        };
    }
    assert_eq!(ids(&check(&new, &flat_kind(tagged))), ["ENUM_TAG_CHANGED"]);
}

#[test]
fn a_required_flattened_enum_added_or_removed_breaks() {
    let without = flat_root(vec![], Unknown::Ignore, kind_ab());
    let with = flat_kind(kind_ab());
    assert_eq!(
        located(&check(&without, &with)),
        [(
            "REQUIRED_FIELD_NOT_SENT",
            "(flatten kind)".to_owned(),
            Direction::Check
        )]
    );
    assert_eq!(backward(&without, &with), ["FIELD_ADDED_REQUIRED"]);
    assert!(forward(&without, &with).is_empty());
    assert_eq!(forward(&with, &without), ["FIELD_REMOVED"]);
    // An optional one reads `None` from data without it.
    let optional = flat_root(
        vec![flat("kind", opt(named("Kind")))],
        Unknown::Ignore,
        kind_ab(),
    );
    assert!(check(&without, &optional).is_compatible());
    assert!(evolve(&without, &optional, Mode::Full).is_compatible());
    // A reader that skips it (`skip_deserializing`) requires nothing.
    let mut skipped = with.clone();
    if let Some(TypeDef {
        body: Body::Struct(s),
        ..
    }) = skipped.types.get_mut("Root")
    {
        s.flattened[0].read = false;
    }
    assert!(check(&without, &skipped).is_compatible());
}

#[test]
fn a_flattened_enum_made_optional_breaks_required_readers() {
    let required = flat_kind(kind_ab());
    let optional = flat_root(
        vec![flat("kind", opt(named("Kind")))],
        Unknown::Ignore,
        kind_ab(),
    );
    assert_eq!(
        located(&check(&optional, &required)),
        [(
            "REQUIRED_FIELD_MAY_BE_OMITTED",
            "(flatten kind)".to_owned(),
            Direction::Check
        )]
    );
    assert_eq!(backward(&optional, &required), ["FIELD_BECAME_REQUIRED"]);
    assert_eq!(forward(&required, &optional), ["FIELD_BECAME_OMITTABLE"]);
    // Optional for the reader only: it reads every variant sent.
    assert!(check(&required, &optional).is_compatible());
    // Optionality is never a `null`: no nullability finding.
    assert!(
        !ids(&evolve(&required, &optional, Mode::Full)).contains(&"NON_NULLABLE_BECAME_NULLABLE")
    );
}

#[test]
fn a_catch_all_takes_no_key_of_a_flattened_enum() {
    let reader = flat_kind(enumm(
        Repr::External,
        vec![unit("Ready"), catch_all("Other")],
    ));
    let writer = flat_kind(enumm(Repr::External, vec![unit("Ready"), unit("Done")]));
    assert_eq!(
        located(&check(&writer, &reader)),
        [(
            "ENUM_VALUE_UNKNOWN",
            "(flatten kind)(Done)".to_owned(),
            Direction::Check
        )]
    );
    assert_eq!(backward(&writer, &reader), ["ENUM_VALUE_REMOVED"]);
    assert_eq!(forward(&reader, &writer), ["ENUM_VALUE_ADDED"]);
    // Not flattened, the catch-all reads it.
    let field = |kind| schema(strukt(vec![f("kind", named("Kind"))]), vec![("Kind", kind)]);
    assert!(check(
        &field(enumm(Repr::External, vec![unit("Ready"), unit("Done")])),
        &field(enumm(
            Repr::External,
            vec![unit("Ready"), catch_all("Other")]
        ))
    )
    .is_compatible());
}

#[test]
fn a_field_and_a_flattened_enum_under_one_key_are_a_type_change() {
    // The reader reads the writer's field `A` as the variant `A` of its flattened enum.
    let writer = schema(strukt(vec![f("id", string()), f("A", Type::Bool)]), vec![]);
    let optional = flat_root(
        vec![flat("kind", opt(named("Kind")))],
        Unknown::Ignore,
        kind_ab(),
    );
    assert_eq!(
        located(&check(&writer, &optional)),
        [("TYPE_CHANGED", "A".to_owned(), Direction::Check)]
    );
    // Forward, old readers also miss the field `A`.
    assert_eq!(
        ids(&evolve(&writer, &optional, Mode::Full)),
        ["TYPE_CHANGED", "FIELD_REMOVED", "TYPE_CHANGED"]
    );
    // The reverse: the writer's variant `A` is read by the reader's field `A` (which the
    // writer's variant `B` leaves out).
    assert_eq!(
        located(&check(&optional, &writer)),
        [
            ("REQUIRED_FIELD_NOT_SENT", "A".to_owned(), Direction::Check),
            (
                "TYPE_CHANGED",
                "(flatten kind)".to_owned(),
                Direction::Check
            )
        ]
    );
}

#[test]
fn a_flattened_enum_beside_a_capturing_reader_is_compared_conservatively() {
    let capture = |extra: Type, flattened| {
        let mut root = strukt_with(vec![f("id", string())], Unknown::Capture, Some(extra));
        if let Body::Struct(s) = &mut root.body {
            s.flattened = flattened;
        }
        schema(root, vec![("Kind", kind_ab())])
    };
    let with = flat_kind(kind_ab());
    // Its keys captured by a map of strings, or read beside one: not compared, reported.
    for reader in [
        capture(string(), vec![]),
        capture(string(), vec![flat("kind", named("Kind"))]),
    ] {
        assert_eq!(
            located(&check(&with, &reader)),
            [(
                "TYPE_CHANGED",
                "(flatten kind)".to_owned(),
                Direction::Check
            )]
        );
        assert!(ids(&evolve(&with, &reader, Mode::Full)).contains(&"TYPE_CHANGED"));
    }
    // A map of any value reads them.
    assert!(check(&with, &capture(Type::Any, vec![])).is_compatible());
    assert!(check(
        &with,
        &capture(Type::Any, vec![flat("kind", named("Kind"))])
    )
    .is_compatible());
}

#[test]
fn a_flattened_untagged_unit_variant_is_never_read() {
    let kind = || {
        enumm(
            Repr::Untagged,
            vec![
                unit("None"),
                variant(
                    "Some",
                    VariantDefKind::Struct(StructDef {
                        fields: vec![f("x", string())],
                        ..StructDef::default()
                    }),
                ),
            ],
        )
    };
    let required = flat_kind(kind());
    assert_eq!(
        located(&check(&required, &required)),
        [(
            "UNTAGGED_VARIANT_UNMATCHED",
            "(flatten kind)(None)".to_owned(),
            Direction::Check
        )]
    );
    assert_eq!(
        ids(&evolve(&required, &required, Mode::Full)),
        ["UNTAGGED_VARIANT_UNMATCHED", "UNTAGGED_VARIANT_UNMATCHED"]
    );
    // Read as an `Option`, it is `None`.
    let optional = flat_root(
        vec![flat("kind", opt(named("Kind")))],
        Unknown::Ignore,
        kind(),
    );
    assert!(check(&required, &optional).is_compatible());
}

#[test]
fn a_flattened_enum_a_denying_reader_does_not_know_breaks() {
    let with = flat_kind(kind_ab());
    let denying = flat_root(vec![], Unknown::Deny, kind_ab());
    assert_eq!(
        located(&check(&with, &denying)),
        [(
            "UNKNOWN_FIELD_DENIED",
            "(flatten kind)".to_owned(),
            Direction::Check
        )]
    );
    assert_eq!(
        located(&evolve(&denying, &with, Mode::Full)),
        [
            (
                "FIELD_ADDED_REQUIRED",
                "(flatten kind)".to_owned(),
                Direction::Backward
            ),
            (
                "UNKNOWN_FIELD_DENIED",
                "(flatten kind)".to_owned(),
                Direction::Forward
            )
        ]
    );
    // A reader that ignores unknown keys ignores its keys.
    let ignoring = flat_root(vec![], Unknown::Ignore, kind_ab());
    assert!(check(&with, &ignoring).is_compatible());
}

#[test]
fn a_flattened_enum_is_matched_by_rust_name_inside_nested_types() {
    // The enum reached through a flattened entry is compared like a named type reached
    // from a field, memoized with it: a break is reported once, at the first path.
    let old = flat_kind(kind_ab());
    let mut new = flat_kind(enumm(
        Repr::External,
        vec![variant("A", VariantDefKind::Newtype(string()))],
    ));
    if let Some(TypeDef {
        body: Body::Struct(s),
        ..
    }) = new.types.get_mut("Root")
    {
        s.flattened[0].rust_name = "variant".to_owned();
    }
    // Renamed in Rust: the old one is gone (its keys unknown, ignored), the new one never sent.
    assert_eq!(
        located(&check(&old, &new)),
        [(
            "REQUIRED_FIELD_NOT_SENT",
            "(flatten variant)".to_owned(),
            Direction::Check
        )]
    );
}

#[test]
fn a_flattened_enum_read_as_a_map_or_from_a_map() {
    let with = flat_kind(kind_ab());
    let mut as_map = with.clone();
    as_map.root = map(string(), string());
    let mut writer = with.clone();
    writer.root = named("Root");
    // The struct's flattened keys are not sure to fit a `map<string, string>`.
    let report = check(&with, &as_map);
    assert!(
        located(&report).contains(&(
            "TYPE_CHANGED",
            "(flatten kind)".to_owned(),
            Direction::Check
        )),
        "{report}"
    );
    // A map of anything reads them.
    let mut as_any_map = with.clone();
    as_any_map.root = map(string(), Type::Any);
    assert!(check(&with, &as_any_map).is_compatible());
    // A map may hold no variant of a required flattened enum.
    let report = check(&as_any_map, &with);
    assert!(
        located(&report).contains(&(
            "REQUIRED_FIELD_MAY_BE_OMITTED",
            "(flatten kind)".to_owned(),
            Direction::Check
        )),
        "{report}"
    );
}

// ----- the catalogue is covered ------------------------------------------------------------

/// Whether `text` holds `id` as a whole word (`AB_C` is not found inside `AB_C_D`, as one
/// rule id may start another).
fn mentions_id(text: &str, id: &str) -> bool {
    let word = |c: char| c.is_ascii_alphanumeric() || c == '_';
    text.match_indices(id)
        .any(|(at, _)| !text[..at].ends_with(word) && !text[at + id.len()..].starts_with(word))
}

/// A rule added to the catalogue fails here until a test raises it: its id appears in this
/// file, or, for a rule only the command-line tool raises, in the CLI's tests.
#[test]
fn every_rule_of_the_catalogue_has_a_rule_test() {
    let here = include_str!("compat_rules.rs");
    let cli = include_str!("../../contract-cli/tests/cli.rs");
    let raised_by_the_cli = [Rule::PublishedVersionRemoved];
    let untested: Vec<&str> = Rule::ALL
        .into_iter()
        .filter(|rule| {
            let tests = if raised_by_the_cli.contains(rule) {
                cli
            } else {
                here
            };
            !mentions_id(tests, rule.id())
        })
        .map(Rule::id)
        .collect();
    assert!(
        untested.is_empty(),
        "rules without a rule test: {untested:?}"
    );
    assert!(mentions_id("a AB_C b", "AB_C"));
    assert!(!mentions_id("AB_C_D", "AB_C"));
}

// ----- fixes that hold under the contract's mode --------------------------------------------

/// The named type under a field's type (through `Option` and lists).
fn named_under(ty: &Type) -> Option<&str> {
    match ty {
        Type::Named(n) => Some(n),
        Type::Option(t) | Type::List(t) => named_under(t),
        _ => None,
    }
}

/// Whether a field is written or read under this wire key.
fn has_key(field: &FieldDef, key: &str) -> bool {
    field.sender.as_ref().is_some_and(|s| s.name == key)
        || field.receiver.as_ref().is_some_and(|r| r.accepts(key))
}

/// A finding's path split into the named type that holds its last segment and that
/// segment (`status(Paused)`: the type of `status` and the tag `Paused`), walked from the
/// root through fields. The cases below keep paths to fields and variants of named types.
fn holder(schema: &Schema, path: &str) -> (String, String) {
    let mut current = named_under(&schema.root).expect("a named root").to_owned();
    let (fields_part, tag) = match path.find('(') {
        Some(i) => (&path[..i], Some(path[i + 1..].trim_end_matches(')'))),
        None => (path, None),
    };
    let mut segs: Vec<&str> = fields_part.split('.').filter(|s| !s.is_empty()).collect();
    let last = match tag {
        Some(tag) => tag.to_owned(),
        None => segs.pop().expect("a path to a field").to_owned(),
    };
    for seg in segs {
        let key = seg.trim_end_matches("[]");
        let Body::Struct(s) = &schema.types[&current].body else {
            panic!("`{path}` walks through a non-struct");
        };
        let field = s.fields.iter().find(|f| has_key(f, key)).expect("a field");
        current = named_under(&field.ty).expect("a named type").to_owned();
    }
    (current, last)
}

fn struct_mut<'s>(schema: &'s mut Schema, name: &str) -> &'s mut StructDef {
    match &mut schema.types.get_mut(name).expect("the type").body {
        Body::Struct(s) => s,
        _ => panic!("`{name}` is not a struct"),
    }
}

fn field_mut<'s>(schema: &'s mut Schema, ty: &str, key: &str) -> &'s mut FieldDef {
    struct_mut(schema, ty)
        .fields
        .iter_mut()
        .find(|f| has_key(f, key))
        .expect("the fix names a field of the new side")
}

/// Applies a fix to the new side (`after`) on the model, as the attribute or the kept
/// field or variant would; `None` for a fix that is no such edit (a new major version, a
/// restore, a fix in words).
fn apply(fix: &Fix, path: &str, before: &Schema, after: &Schema) -> Option<Schema> {
    let mut out = after.clone();
    match fix {
        Fix::Attribute { on, edit } => {
            let (ty, last) = holder(after, path);
            match (on, edit) {
                (FixTarget::Container, AttributeEdit::RemoveDenyUnknownFields) => {
                    struct_mut(&mut out, &ty).unknown = Unknown::Ignore;
                }
                (FixTarget::Field { name }, edit) => {
                    assert_eq!(name, &last, "the fix names the field its path ends with");
                    let field = field_mut(&mut out, &ty, name);
                    match edit {
                        AttributeEdit::AliasOldName { old } => {
                            field.renamed_from.push(old.clone());
                            field.receiver.as_mut().unwrap().aliases.push(old.clone());
                        }
                        AttributeEdit::KeepOldName { old, new } => {
                            field.sender.as_mut().unwrap().name = old.clone();
                            let r = field.receiver.as_mut().unwrap();
                            r.name = old.clone();
                            r.aliases.push(new.clone());
                        }
                        AttributeEdit::AddDefault => {
                            field.receiver.as_mut().unwrap().required = false
                        }
                        AttributeEdit::RemoveSkipSerializingIf => {
                            field.sender.as_mut().unwrap().emit = Emit::Always;
                        }
                        AttributeEdit::MarkAssumption => field.provenance = Provenance::Assumption,
                        AttributeEdit::UnmarkAssumption => field.provenance = Provenance::Confirmed,
                        other => panic!("no applier for {other:?}"),
                    }
                }
                other => panic!("no applier for {other:?}"),
            }
        }
        Fix::KeepField { name } => {
            let (ty, _) = holder(after, path);
            let (old_ty, _) = holder(before, path);
            let Body::Struct(s) = &before.types[&old_ty].body else {
                panic!("not a struct")
            };
            let kept = s
                .fields
                .iter()
                .find(|f| has_key(f, name))
                .expect("the old field");
            struct_mut(&mut out, &ty).fields.push(kept.clone());
        }
        Fix::KeepVariant { name } => {
            let (ty, _) = holder(after, path);
            let (old_ty, _) = holder(before, path);
            let Body::Enum(e) = &before.types[&old_ty].body else {
                panic!("not an enum")
            };
            let kept = e
                .variants
                .iter()
                .find(|v| v.sender.as_deref() == Some(name.as_str()))
                .expect("the old variant");
            let Body::Enum(e) = &mut out.types.get_mut(&ty).unwrap().body else {
                panic!("not an enum")
            };
            e.variants.push(kept.clone());
        }
        _ => return None,
    }
    Some(out)
}

/// One before/after pair per rule with a fix (named after the rule it shows).
fn fix_cases() -> Vec<(&'static str, Schema, Schema)> {
    let status = |values: &[&str]| {
        schema(
            strukt(vec![f("status", named("Status"))]),
            vec![(
                "Status",
                enumm(Repr::External, values.iter().map(|v| unit(v)).collect()),
            )],
        )
    };
    let event = |with_refund: bool| {
        let mut variants = vec![variant("Created", VariantDefKind::Newtype(string()))];
        if with_refund {
            variants.push(variant(
                "Refunded",
                VariantDefKind::Newtype(int(IntKind::U64)),
            ));
        }
        schema(
            strukt(vec![f("event", named("Event"))]),
            vec![("Event", enumm(internal("type"), variants))],
        )
    };
    let nested = |inner: Vec<FieldDef>| {
        schema(
            strukt(vec![f("order", named("Order"))]),
            vec![("Order", strukt(inner))],
        )
    };
    let denying = |fields: Vec<FieldDef>| schema(strukt_with(fields, Unknown::Deny, None), vec![]);
    vec![
        (
            "FIELD_ADDED_REQUIRED",
            fields(vec![f("a", string())]),
            fields(vec![f("a", string()), f("reason", string())]),
        ),
        (
            "FIELD_REMOVED",
            fields(vec![f("a", string()), f("orderRef", string())]),
            fields(vec![f("a", string())]),
        ),
        (
            "FIELD_REMOVED nested",
            nested(vec![f("a", string()), f("orderRef", string())]),
            nested(vec![f("a", string())]),
        ),
        (
            "FIELD_BECAME_REQUIRED",
            fields(vec![with_default(if_present(f("note", string())))]),
            fields(vec![f("note", string())]),
        ),
        (
            "FIELD_BECAME_OMITTABLE",
            fields(vec![f("note", string())]),
            fields(vec![if_present(f("note", string()))]),
        ),
        (
            "UNKNOWN_FIELD_DENIED backward",
            fields(vec![f("a", string()), f("note", opt(string()))]),
            denying(vec![f("a", string())]),
        ),
        (
            "UNKNOWN_FIELD_DENIED forward",
            denying(vec![f("a", string())]),
            fields(vec![f("a", string()), f("note", opt(string()))]),
        ),
        (
            "ENUM_VALUE_REMOVED",
            status(&["Ready", "Paused"]),
            status(&["Ready"]),
        ),
        (
            "ENUM_VALUE_ADDED",
            status(&["Ready"]),
            status(&["Ready", "Paused"]),
        ),
        ("ENUM_VARIANT_REMOVED", event(true), event(false)),
        ("ENUM_VARIANT_ADDED", event(false), event(true)),
        (
            "FIELD_RENAMED_WITHOUT_ALIAS",
            fields(vec![f("orderRef", string())]),
            fields(vec![renamed_from(f("orderId", string()), "orderRef")]),
        ),
        (
            "FIELD_RENAMED",
            fields(vec![f("orderRef", string())]),
            fields(vec![alias(
                renamed_from(f("orderId", string()), "orderRef"),
                "orderRef",
            )]),
        ),
        (
            "FIELD_LIKELY_RENAMED",
            fields(vec![f("orderRef", string())]),
            fields(vec![f("orderId", string())]),
        ),
        (
            "FIELD_LIKELY_RENAMED nested",
            nested(vec![f("orderRef", string())]),
            nested(vec![f("orderId", string())]),
        ),
        (
            "FIELD_LIKELY_RENAMED one way",
            fields(vec![f("confidence", Type::Float(FloatKind::F32))]),
            fields(vec![f("amountCents", int(IntKind::U64))]),
        ),
        (
            "PROVENANCE_WEAKENED backward",
            fields(vec![assumption(f("useCase", string()))]),
            fields(vec![f("useCase", string())]),
        ),
        (
            "PROVENANCE_WEAKENED forward",
            fields(vec![f("useCase", string())]),
            fields(vec![assumption(f("useCase", string()))]),
        ),
        (
            "TYPE_CHANGED",
            fields(vec![f("amount", int(IntKind::U64))]),
            fields(vec![f("amount", string())]),
        ),
        (
            "INT_NARROWED",
            fields(vec![f("n", int(IntKind::U64))]),
            fields(vec![f("n", int(IntKind::U32))]),
        ),
    ]
}

/// The rule, path and direction of every finding of a report.
fn keys(report: &CompatReport) -> Vec<(&'static str, String, Direction)> {
    located(report)
}

#[test]
fn every_structured_fix_holds_under_the_mode_it_was_offered_for() {
    let (mut applied, mut exempt, mut described) = (0, 0, 0);
    let mut rules_fixed = std::collections::BTreeSet::new();
    for (case, before, after) in fix_cases() {
        let mut found_any = false;
        for mode in [Mode::Backward, Mode::Forward, Mode::Full] {
            let report = evolve(&before, &after, mode);
            let findings = keys(&report);
            for finding in report.findings() {
                found_any = true;
                if finding.fix.needs_new_major() {
                    // Exempt: old readers already deployed reject it; the hint says so.
                    assert!(
                        finding.hint.contains("new major version"),
                        "{case} ({mode:?}): {}",
                        finding.hint
                    );
                    exempt += 1;
                    continue;
                }
                let Some(fixed) = apply(&finding.fix, &finding.path, &before, &after) else {
                    assert_eq!(finding.fix, Fix::Described, "{case}");
                    described += 1;
                    continue;
                };
                applied += 1;
                rules_fixed.insert(finding.rule.id());
                let again = evolve(&before, &fixed, mode);
                let left = keys(&again);
                // Nothing more at the finding's path, and nothing new anywhere: a fix that
                // trades one finding for another (a catch-all that new writers send to
                // old readers) is no fix.
                assert!(
                    !left.iter().any(|(_, path, _)| *path == finding.path),
                    "{case} ({mode:?}): the fix {:?} for {} left\n{again}",
                    finding.fix,
                    finding.rule
                );
                for key in &left {
                    assert!(
                        findings.contains(key),
                        "{case} ({mode:?}): the fix {:?} for {} brought {key:?}\n{again}",
                        finding.fix,
                        finding.rule
                    );
                }
            }
        }
        assert!(found_any, "{case} finds nothing to fix");
    }
    // Every rule whose fix is an edit was applied in at least one mode.
    for rule in [
        "FIELD_ADDED_REQUIRED",
        "FIELD_REMOVED",
        "FIELD_BECAME_REQUIRED",
        "FIELD_BECAME_OMITTABLE",
        "UNKNOWN_FIELD_DENIED",
        "ENUM_VALUE_REMOVED",
        "ENUM_VARIANT_REMOVED",
        "FIELD_RENAMED_WITHOUT_ALIAS",
        "FIELD_RENAMED",
        "FIELD_LIKELY_RENAMED",
        "PROVENANCE_WEAKENED",
    ] {
        assert!(rules_fixed.contains(rule), "no fix of {rule} was applied");
    }
    eprintln!("fixes applied: {applied}, exempt (new major version): {exempt}, described only: {described}");
    assert!(
        applied >= 20 && exempt >= 6,
        "{applied} applied, {exempt} exempt"
    );
}

#[test]
fn the_fixes_of_the_issue_hold_under_mode_full() {
    // A removed value: keep it (a catch-all would be written to old readers).
    let with_paused = schema(
        strukt(vec![f("status", named("Status"))]),
        vec![(
            "Status",
            enumm(Repr::External, vec![unit("Ready"), unit("Paused")]),
        )],
    );
    let with_catch_all = schema(
        strukt(vec![f("status", named("Status"))]),
        vec![(
            "Status",
            enumm(Repr::External, vec![unit("Ready"), catch_all("Other")]),
        )],
    );
    let full = evolve(&with_paused, &with_catch_all, Mode::Full);
    assert_eq!(ids(&full), ["ENUM_VALUE_ADDED"], "{full}");
    let ready_only = schema(
        strukt(vec![f("status", named("Status"))]),
        vec![("Status", enumm(Repr::External, vec![unit("Ready")]))],
    );
    let removed = evolve(&with_paused, &ready_only, Mode::Full);
    let finding = &removed.findings()[0];
    assert_eq!(finding.rule, Rule::EnumValueRemoved);
    assert_eq!(
        finding.fix,
        Fix::KeepVariant {
            name: "Paused".to_owned()
        }
    );
    assert!(
        !finding.hint.contains("or add a catch-all"),
        "{}",
        finding.hint
    );
    // Backward alone, a catch-all is still offered beside keeping the value.
    let backward_only = evolve(&with_paused, &ready_only, Mode::Backward);
    assert!(backward_only.findings()[0]
        .hint
        .contains("or add a catch-all"));

    // An `f32` replaced by a `u64`: under full no rename is claimed (the types fit one way
    // only); forward alone, the rename's why no longer says "of the same type".
    let old = fields(vec![f("confidence", Type::Float(FloatKind::F32))]);
    let new = fields(vec![f("amountCents", int(IntKind::U64))]);
    assert_eq!(
        ids(&evolve(&old, &new, Mode::Full)),
        ["FIELD_ADDED_REQUIRED", "FIELD_REMOVED"]
    );
    let one_way = evolve(&old, &new, Mode::Forward);
    assert_eq!(ids(&one_way), ["FIELD_LIKELY_RENAMED"]);
    let why = &one_way.findings()[0].why;
    assert!(!why.contains("same type"), "{why}");
    assert!(why.contains("of a type `confidence` can read"), "{why}");

    // A field that became required: under full, an `Option` would send `null` to old
    // readers, so only the default is offered.
    let omittable = fields(vec![with_default(if_present(f("note", string())))]);
    let required = fields(vec![f("note", string())]);
    let became_required = evolve(&omittable, &required, Mode::Full);
    let finding = &became_required.findings()[0];
    assert_eq!(finding.rule, Rule::FieldBecameRequired);
    assert!(
        !finding.hint.contains("or make it an `Option`"),
        "{}",
        finding.hint
    );
    let as_option = fields(vec![f("note", opt(string()))]);
    assert_eq!(
        ids(&evolve(&omittable, &as_option, Mode::Full)),
        ["NON_NULLABLE_BECAME_NULLABLE"]
    );

    // The fix is serialized beside the hint.
    let json = serde_json::to_value(&one_way).unwrap();
    assert_eq!(
        json["findings"][0]["fix"],
        serde_json::json!({
            "kind": "attribute",
            "on": {"kind": "field", "name": "amountCents"},
            "edit": {"kind": "keep_old_name", "old": "confidence", "new": "amountCents"},
        })
    );
}
