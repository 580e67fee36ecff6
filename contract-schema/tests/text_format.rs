//! The canonical text of real-looking contracts, written from static descriptions as the
//! derive emits them: the exact text a reviewer sees, and that it reads back.

use contract_schema::model::StringFormat;
use contract_schema::shape::{
    AllowInfo, ContractInfo, EnumShape, Field, Kind, Mode, Provenance, Repr, Send, Shape,
    StructShape, Variant, VariantKind,
};
use contract_schema::snapshot;
use contract_schema::text::{parse, to_text};
use contract_schema::Schema;

static STRING: Shape = Shape::builtin(Kind::String(StringFormat::Plain));
static UUID: Shape = Shape::builtin(Kind::String(StringFormat::Uuid));
static U32: Shape = Shape::builtin(Kind::Int(contract_schema::model::IntKind::U32));
static OPTION_STRING: Shape = Shape::builtin(Kind::Option(string));
static STEPS: Shape = Shape::builtin(Kind::Seq(contract_schema::shape::SeqShape {
    item: plan,
    unique: false,
    len: None,
}));

fn string() -> &'static Shape {
    &STRING
}
fn uuid() -> &'static Shape {
    &UUID
}
fn u32_() -> &'static Shape {
    &U32
}
fn option_string() -> &'static Shape {
    &OPTION_STRING
}
fn steps() -> &'static Shape {
    &STEPS
}

/// A field as the derive writes it for `name: ty` without attributes.
const fn plain(name: &'static str, ty: fn() -> &'static Shape) -> Field {
    Field::new(name, ty)
}

const fn unit_variant(name: &'static str, wire: &'static str) -> Variant {
    Variant {
        name,
        ser_name: wire,
        de_name: wire,
        aliases: &[],
        skip_serializing: false,
        skip_deserializing: false,
        other: false,
        untagged: false,
        kind: VariantKind::Unit,
        doc: "",
    }
}

/// `#[serde(rename_all = "snake_case")] enum Category { Damaged, #[serde(other, skip_serializing)] Other }`
static CATEGORY: Shape = Shape {
    name: "Category",
    module: "my_app",
    generics: &[],
    doc: "Why the customer wants a refund.",
    kind: Kind::Enum(&EnumShape {
        repr: Repr::External,
        variants: &[
            unit_variant("Damaged", "damaged"),
            Variant {
                skip_serializing: true,
                other: true,
                doc: "Anything a newer writer sends.",
                ..unit_variant("Other", "other")
            },
        ],
        deny_unknown_fields: false,
    }),
};
fn category() -> &'static Shape {
    &CATEGORY
}

/// `struct OrderId(Uuid);`
static ORDER_ID: Shape = Shape {
    name: "OrderId",
    module: "my_app",
    generics: &[],
    doc: "",
    kind: Kind::Newtype(uuid),
};
fn order_id() -> &'static Shape {
    &ORDER_ID
}

/// The refund request of DESIGN.md, version 2.
static REFUND_REQUEST: Shape = Shape {
    name: "RefundRequest",
    module: "my_app",
    generics: &[],
    doc: "A refund the support agent hands to billing.",
    kind: Kind::Struct(&StructShape {
        fields: &[
            plain("category", category),
            Field {
                ser_name: "orderId",
                de_name: "orderId",
                aliases: &["orderRef"],
                renamed_from: &["orderRef"],
                doc: "The order, as \"billing\" knows it.",
                ..plain("order_id", order_id)
            },
            Field {
                ser_name: "useCase",
                de_name: "useCase",
                send: Send::IfPresent,
                provenance: Provenance::Assumption,
                ..plain("use_case", option_string)
            },
            Field {
                ser_name: "attempt",
                de_name: "attempt",
                default: true,
                send: Send::Never,
                ..plain("attempt", u32_)
            },
        ],
        deny_unknown_fields: true,
    }),
};

const REFUND_INFO: ContractInfo = ContractInfo {
    name: "refund-request",
    version: 2,
    mode: Mode::Full,
    id: "refund-request/v2",
    snapshots_dir: "",
    allows: &[],
};

const REFUND_TEXT: &str = r#"contract refund-request/v2
mode full
root RefundRequest

enum Category
  rust "my_app::Category"
  doc "Why the customer wants a refund."
  repr external
  variant Damaged: unit
    send "damaged"
    receive "damaged"
  variant Other: unit
    doc "Anything a newer writer sends."
    send never
    receive "other"
    catch-all

newtype OrderId: string(uuid)
  rust "my_app::OrderId"

struct RefundRequest
  rust "my_app::RefundRequest"
  doc "A refund the support agent hands to billing."
  unknown deny
  field category: Category
    send "category" always
    receive "category" required
  field order_id: OrderId
    doc "The order, as \"billing\" knows it."
    send "orderId" always
    receive "orderId" alias "orderRef" required
    renamed-from "orderRef"
  field use_case: option<string>
    send "useCase" if-present
    receive "useCase" optional
    assumption
  field attempt: u32
    send never
    receive "attempt" optional
"#;

#[test]
fn a_contract_reads_as_its_canonical_text() {
    let schema = Schema::from_contract(&REFUND_REQUEST, &REFUND_INFO);
    assert_eq!(to_text(&schema), REFUND_TEXT);
    assert_eq!(schema.to_string(), REFUND_TEXT);
    assert_eq!(parse(REFUND_TEXT), Ok(schema.clone()));
    assert_eq!(REFUND_TEXT.parse::<Schema>(), Ok(schema));
}

#[test]
fn an_insta_snapshot_file_reads_back() {
    let file = format!(
        "---\nsource: tests/contracts.rs\ndescription: \"handoff contract refund-request/v2\"\n---\n{REFUND_TEXT}"
    );
    let schema = Schema::from_contract(&REFUND_REQUEST, &REFUND_INFO);
    assert_eq!(snapshot::parse(&file), Ok(schema));
}

static REFUND_ALLOWS: [AllowInfo; 2] = [
    AllowInfo {
        rule: "FIELD_REMOVED",
        field: "orderRef",
        reason: "v1 writers were retired in \"March\"",
    },
    AllowInfo {
        rule: "FIELD_ADDED_REQUIRED",
        field: "category",
        reason: "every writer sends it since 1.4",
    },
];

const REFUND_ALLOWING: ContractInfo = ContractInfo {
    allows: &REFUND_ALLOWS,
    ..REFUND_INFO
};

#[test]
fn allowances_are_written_after_the_mode_in_the_order_declared() {
    let schema = Schema::from_contract(&REFUND_REQUEST, &REFUND_ALLOWING);
    let lines = "mode full\n\
        allow FIELD_REMOVED field \"orderRef\" reason \"v1 writers were retired in \\\"March\\\"\"\n\
        allow FIELD_ADDED_REQUIRED field \"category\" reason \"every writer sends it since 1.4\"\n";
    let expected = REFUND_TEXT.replacen("mode full\n", lines, 1);
    assert_eq!(to_text(&schema), expected);
    let parsed = parse(&expected).unwrap();
    assert_eq!(parsed.allowances, REFUND_ALLOWING.allowances());
    assert_eq!(parsed, schema);
    // Without allowances the text is the one published before they were recorded.
    let plain = Schema::from_contract(&REFUND_REQUEST, &REFUND_INFO);
    assert!(plain.allowances.as_slice().is_empty());
    assert!(!to_text(&plain).contains("allow"));
}

fn def(s: &mut Schema) -> &mut contract_schema::model::StructDef {
    match &mut s.types.get_mut("RefundRequest").unwrap().body {
        contract_schema::Body::Struct(def) => def,
        _ => unreachable!(),
    }
}

#[test]
fn every_fact_changes_the_text() {
    let schema = Schema::from_contract(&REFUND_REQUEST, &REFUND_INFO);
    let base = to_text(&schema);
    let mut edits: Vec<(&str, Schema)> = Vec::new();
    let mut s = schema.clone();
    s.mode = Mode::Backward;
    edits.push(("mode", s));
    let mut s = schema.clone();
    s.contract = None;
    edits.push(("contract", s));
    let mut s = schema.clone();
    def(&mut s).fields[1]
        .receiver
        .as_mut()
        .unwrap()
        .aliases
        .clear();
    edits.push(("alias", s));
    let mut s = schema.clone();
    def(&mut s).fields[1].renamed_from.clear();
    edits.push(("renamed-from", s));
    let mut s = schema.clone();
    def(&mut s).fields[2].provenance = Provenance::Confirmed;
    edits.push(("provenance", s));
    let mut s = schema.clone();
    def(&mut s).fields[3].receiver = None;
    edits.push(("receiver view", s));
    let mut s = schema.clone();
    def(&mut s).fields[2].sender.as_mut().unwrap().name = "use_case".into();
    edits.push(("sender name", s));
    let mut s = schema.clone();
    def(&mut s).unknown = contract_schema::model::Unknown::Ignore;
    edits.push(("unknown", s));
    let mut s = schema.clone();
    s.types.get_mut("OrderId").unwrap().rust_path = "other::OrderId".into();
    edits.push(("rust path", s));
    let mut s = schema.clone();
    s.types.get_mut("Category").unwrap().doc.push(' ');
    edits.push(("doc", s));
    let mut s = schema.clone();
    match &mut s.types.get_mut("Category").unwrap().body {
        contract_schema::Body::Enum(e) => e.deny_unknown_fields = true,
        _ => unreachable!(),
    }
    edits.push(("enum's unknown keys", s));
    let mut s = schema.clone();
    s.allowances = REFUND_ALLOWING.allowances();
    edits.push(("allowances", s));
    let mut s = schema.clone();
    s.allowances =
        contract_schema::compat::Allowances::new().allow("FIELD_REMOVED", "orderRef", "retired");
    edits.push(("one allowance", s));
    for (what, edited) in edits {
        let text = to_text(&edited);
        assert_ne!(text, base, "changing the {what} leaves the text unchanged");
        assert_eq!(parse(&text), Ok(edited), "after changing the {what}");
    }
}

/// `struct Plan { id: String, #[serde(flatten)] meta: Meta, steps: Vec<Plan> }` with
/// `#[serde(rename(serialize = "stepList", deserialize = "steps"))]` on `steps`.
static PLAN: Shape = Shape {
    name: "Plan",
    module: "app::v1",
    generics: &[],
    doc: "",
    kind: Kind::Struct(&StructShape {
        fields: &[
            plain("id", string),
            Field {
                flatten: true,
                ..plain("meta", meta)
            },
            Field {
                ser_name: "stepList",
                de_name: "steps",
                ..plain("steps", steps)
            },
        ],
        deny_unknown_fields: false,
    }),
};
fn plan() -> &'static Shape {
    &PLAN
}

static META: Shape = Shape {
    name: "Meta",
    module: "app::v1",
    generics: &[],
    doc: "",
    kind: Kind::Struct(&StructShape {
        fields: &[Field {
            ser_name: "traceId",
            de_name: "traceId",
            default: true,
            ..plain("trace_id", string)
        }],
        deny_unknown_fields: false,
    }),
};
fn meta() -> &'static Shape {
    &META
}

/// `#[serde(tag = "kind")] enum Event { Started { at: String }, Stopped }`
static EVENT: Shape = Shape {
    name: "Event",
    module: "app",
    generics: &[],
    doc: "",
    kind: Kind::Enum(&EnumShape {
        repr: Repr::Internal { tag: "kind" },
        variants: &[
            Variant {
                aliases: &["begun"],
                kind: VariantKind::Struct(&[plain("at", string)]),
                ..unit_variant("Started", "started")
            },
            unit_variant("Stopped", "stopped"),
        ],
        deny_unknown_fields: true,
    }),
};

#[test]
fn flattened_renamed_and_recursive_fields() {
    let schema = Schema::from_shape(&PLAN);
    let text = to_text(&schema);
    assert_eq!(
        text,
        r#"root Plan

struct Plan
  rust "app::v1::Plan"
  unknown ignore
  field id: string
    send "id" always
    receive "id" required
  field meta.trace_id: string
    send "traceId" always
    receive "traceId" optional
  field steps: list<Plan>
    send "stepList" always
    receive "steps" required
"#
    );
    assert_eq!(parse(&text), Ok(schema));
}

#[test]
fn struct_variants_nest_one_level_deeper() {
    let schema = Schema::from_shape(&EVENT);
    let text = to_text(&schema);
    assert_eq!(
        text,
        r#"root Event

enum Event
  rust "app::Event"
  repr internal tag "kind"
  unknown deny
  variant Started: struct
    send "started"
    receive "started" alias "begun"
    unknown deny
    field at: string
      send "at" always
      receive "at" required
  variant Stopped: unit
    send "stopped"
    receive "stopped"
"#
    );
    assert_eq!(parse(&text), Ok(schema));
}

/// `#[serde(tag = "kind")] enum Message { Ping, Note { at: String }, #[serde(untagged)]
/// Raw(String), #[serde(untagged)] Empty }`: the untagged variants keep their names (they
/// say whether a variant is written and read) but no tagged variant loses a tag to them.
static MESSAGE: Shape = Shape {
    name: "Message",
    module: "app",
    generics: &[],
    doc: "",
    kind: Kind::Enum(&EnumShape {
        repr: Repr::Internal { tag: "kind" },
        variants: &[
            unit_variant("Ping", "ping"),
            Variant {
                aliases: &["raw"],
                kind: VariantKind::Struct(&[plain("at", string)]),
                ..unit_variant("Note", "note")
            },
            Variant {
                untagged: true,
                kind: VariantKind::Newtype(string),
                ..unit_variant("Raw", "raw")
            },
            Variant {
                untagged: true,
                ..unit_variant("Empty", "ping")
            },
        ],
        deny_unknown_fields: false,
    }),
};

#[test]
fn untagged_variants_of_a_tagged_enum_say_so_and_shadow_no_tag() {
    let schema = Schema::from_shape(&MESSAGE);
    let text = to_text(&schema);
    assert_eq!(
        text,
        r#"root Message

enum Message
  rust "app::Message"
  repr internal tag "kind"
  variant Ping: unit
    send "ping"
    receive "ping"
  variant Note: struct
    send "note"
    receive "note" alias "raw"
    unknown ignore
    field at: string
      send "at" always
      receive "at" required
  variant Raw: newtype string
    send "raw"
    receive "raw"
    untagged
  variant Empty: unit
    send "ping"
    receive "ping"
    untagged
"#
    );
    assert_eq!(parse(&text), Ok(schema));
}

/// `#[serde(untagged)]` on every variant: the enum is untagged, and no variant says so again.
static ALL_UNTAGGED: Shape = Shape {
    name: "Id",
    module: "app",
    generics: &[],
    doc: "",
    kind: Kind::Enum(&EnumShape {
        repr: Repr::Untagged,
        variants: &[Variant {
            untagged: true,
            kind: VariantKind::Newtype(string),
            ..unit_variant("Text", "Text")
        }],
        deny_unknown_fields: false,
    }),
};

#[test]
fn an_enum_untagged_throughout_marks_no_variant() {
    let schema = Schema::from_shape(&ALL_UNTAGGED);
    let Some(contract_schema::model::Body::Enum(e)) = schema.def("Id").map(|d| &d.body) else {
        panic!("Id is an enum");
    };
    assert!(!e.has_untagged_variants());
    assert!(!to_text(&schema).contains("    untagged"));
}

#[test]
fn blank_lines_and_trailing_spaces_do_not_matter() {
    let loose = REFUND_TEXT.replace('\n', "  \n\n");
    assert_eq!(parse(&loose), parse(REFUND_TEXT));
    let no_final_newline = REFUND_TEXT.trim_end();
    assert_eq!(parse(no_final_newline), parse(REFUND_TEXT));
}

/// The form proposed in the design brief, verbatim (its `Other` variant has no `send`
/// line: a variant's missing view line means it is never sent).
const BRIEF_EXAMPLE: &str = r#"contract refund-request/v2
mode full
root RefundRequest

struct RefundRequest
  rust "my_app::RefundRequest"
  doc "A refund the support agent hands to billing."
  unknown ignore
  field category: Category
    send "category" always
    receive "category" required
  field order_id: string
    send "orderId" always
    receive "orderId" alias "orderRef" required
    renamed-from "orderRef"
  field use_case: option<string>
    send "useCase" if-present
    receive "useCase" optional
    assumption

enum Category
  rust "my_app::Category"
  repr external
  variant Damaged: unit
    send "damaged"
    receive "damaged"
  variant Other: unit
    receive "other"
    catch-all

newtype OrderId: string
  rust "my_app::OrderId"
"#;

#[test]
fn the_briefs_example_reads_as_written() {
    let schema = parse(BRIEF_EXAMPLE).unwrap();
    assert_eq!(
        schema.contract.as_ref().unwrap().to_string(),
        "refund-request/v2"
    );
    assert_eq!(schema.types.len(), 3);
    let contract_schema::Body::Enum(category) = &schema.types["Category"].body else {
        panic!("an enum")
    };
    let other = category.catch_all().unwrap();
    assert_eq!(other.sender, None);
    assert_eq!(other.receiver, vec!["other".to_owned()]);
    let contract_schema::Body::Struct(request) = &schema.types["RefundRequest"].body else {
        panic!("a struct")
    };
    let order_id = &request.fields[1];
    assert!(order_id.receiver.as_ref().unwrap().accepts("orderRef"));
    assert_eq!(order_id.renamed_from, vec!["orderRef".to_owned()]);
    assert_eq!(request.fields[2].provenance, Provenance::Assumption);
    // The canonical text sorts the types and spells out `send never`; it reads back the same.
    let canonical = to_text(&schema);
    assert!(canonical.contains("  variant Other: unit\n    send never\n    receive \"other\"\n"));
    assert_eq!(parse(&canonical), Ok(schema));
}

static BILLING_CATEGORY: Shape = Shape {
    name: "Category",
    module: "billing",
    generics: &[],
    doc: "",
    kind: Kind::Enum(&EnumShape {
        repr: Repr::External,
        variants: &[unit_variant("Refund", "refund")],
        deny_unknown_fields: false,
    }),
};
fn billing_category() -> &'static Shape {
    &BILLING_CATEGORY
}
fn refund_request() -> &'static Shape {
    &REFUND_REQUEST
}

/// `struct Handoff<T> { payload: T, billing: billing::Category }`, at `T = RefundRequest`,
/// which also reaches `my_app::Category`: two types share the bare name `Category`.
static HANDOFF: Shape = Shape {
    name: "Handoff",
    module: "envelope",
    generics: &[refund_request],
    doc: "",
    kind: Kind::Struct(&StructShape {
        fields: &[
            plain("payload", refund_request),
            plain("billing", billing_category),
        ],
        deny_unknown_fields: false,
    }),
};

#[test]
fn generic_and_qualified_names_read_back() {
    let schema = Schema::from_shape(&HANDOFF);
    let names: Vec<&str> = schema.types.keys().map(String::as_str).collect();
    assert_eq!(
        names,
        [
            "Handoff<RefundRequest>",
            "OrderId",
            "RefundRequest",
            "billing::Category",
            "my_app::Category",
        ]
    );
    let text = to_text(&schema);
    assert!(text.starts_with("root Handoff<RefundRequest>\n"));
    assert!(text.contains("\nstruct Handoff<RefundRequest>\n"));
    assert!(text.contains("  field billing: billing::Category\n"));
    assert!(text.contains("  field category: my_app::Category\n"));
    assert_eq!(parse(&text), Ok(schema));
}
