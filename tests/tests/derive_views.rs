//! What the derive says about each serde attribute: the two views of every field in
//! `T::schema()`, enum representations, generics, recursion, docs, provenance, renames and
//! contract identity. Every expectation here is what serde does on the wire.
#![deny(clippy::pedantic)]

mod both_ways;

use contract_core::schema::model::{
    Body, Emit, EnumDef, FieldDef, FloatKind, IntKind, Repr, StringFormat, StructDef, Unknown,
    VariantDef, VariantDefKind,
};
use contract_core::schema::Type;
use contract_core::{HandoffContract, HandoffSchema, Mode, Provenance, Schema};
use contract_tests::types::{
    Command, Defaults, FieldDefaults, Figure, FlattenMap, FlattenStruct, Handoff, IdOrName, Level,
    Marker, Message, Meters, OrderId, Plan, Point, RefundRequest, RenameAllSplit, Renames, Skips,
    StdTypes, StrictNote, TaskContract, TaskResult, TimeAndIds, WithSchemaAs,
};

/// The root definition of `T`'s schema.
fn root_body<T: HandoffSchema>() -> (Schema, Body) {
    let schema = T::schema();
    let Type::Named(name) = &schema.root else {
        panic!("the root of {} is not a named type", schema.root)
    };
    let body = schema.def(name).expect("the root is defined").body.clone();
    (schema, body)
}

fn root_struct<T: HandoffSchema>() -> StructDef {
    match root_body::<T>().1 {
        Body::Struct(s) => s,
        other => panic!("expected a struct, found {other:?}"),
    }
}

fn root_enum<T: HandoffSchema>() -> EnumDef {
    match root_body::<T>().1 {
        Body::Enum(e) => e,
        other => panic!("expected an enum, found {other:?}"),
    }
}

fn field<'a>(s: &'a StructDef, rust_name: &str) -> &'a FieldDef {
    s.fields
        .iter()
        .find(|f| f.rust_name == rust_name)
        .unwrap_or_else(|| panic!("no field `{rust_name}`"))
}

fn variant<'a>(e: &'a EnumDef, rust_name: &str) -> &'a VariantDef {
    e.variants
        .iter()
        .find(|v| v.rust_name == rust_name)
        .unwrap_or_else(|| panic!("no variant `{rust_name}`"))
}

fn sender(f: &FieldDef) -> (&str, Emit) {
    let s = f.sender.as_ref().expect("the sender writes it");
    (s.name.as_str(), s.emit)
}

fn receiver(f: &FieldDef) -> (&str, Vec<&str>, bool) {
    let r = f.receiver.as_ref().expect("the receiver reads it");
    (
        r.name.as_str(),
        r.aliases.iter().map(String::as_str).collect(),
        r.required,
    )
}

#[test]
fn contract_identity_displays_name_and_version() {
    assert_eq!(RefundRequest::CONTRACT.to_string(), "refund-request/v2");
    assert_eq!(RefundRequest::CONTRACT.id, "refund-request/v2");
    assert_eq!(RefundRequest::CONTRACT.name, "refund-request");
    assert_eq!(RefundRequest::CONTRACT.version, 2);
    assert_eq!(RefundRequest::CONTRACT.mode, Mode::Full);
    let schema = RefundRequest::schema();
    let id = schema.contract.expect("a contract's schema carries its id");
    assert_eq!(id.to_string(), "refund-request/v2");
    assert_eq!(schema.mode, Mode::Full);
    assert_eq!(TaskContract::CONTRACT.mode, Mode::Backward);
    assert_eq!(TaskContract::schema().mode, Mode::Backward);
    assert_eq!(StrictNote::CONTRACT.mode, Mode::Forward);
    assert_eq!(TaskResult::CONTRACT.to_string(), "task-result/v1");
    // A nested type's schema has no contract.
    assert_eq!(Plan::schema().contract, None);
}

#[test]
fn snapshots_folder_is_resolved_against_the_manifest() {
    let dir = std::path::Path::new(RefundRequest::CONTRACT.snapshots_dir);
    assert!(dir.is_absolute(), "{}", dir.display());
    assert_eq!(
        dir,
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("contracts")
    );
}

#[test]
fn shape_names_the_type_and_its_module() {
    assert_eq!(RefundRequest::SHAPE.name, "RefundRequest");
    assert_eq!(RefundRequest::SHAPE.module, "contract_tests::types");
    assert!(RefundRequest::SHAPE.generics.is_empty());
    assert_eq!(<Handoff<RefundRequest>>::SHAPE.generics.len(), 1);
}

#[test]
fn refund_request_rename_alias_and_provenance() {
    let s = root_struct::<RefundRequest>();
    let order = field(&s, "order_id");
    assert_eq!(sender(order), ("orderId", Emit::Always));
    assert_eq!(receiver(order), ("orderId", vec!["orderRef"], true));
    assert_eq!(order.renamed_from, vec!["orderRef".to_owned()]);
    assert_eq!(order.provenance, Provenance::Confirmed);
    let use_case = field(&s, "use_case");
    assert_eq!(sender(use_case), ("useCase", Emit::Always));
    // An `Option` may be absent and may be null.
    assert_eq!(receiver(use_case), ("useCase", vec![], false));
    assert!(use_case.ty.is_nullable());
    assert_eq!(use_case.ty.to_string(), "option<string>");
    assert_eq!(use_case.provenance, Provenance::Assumption);
    assert_eq!(field(&s, "category").ty, Type::Named("Category".into()));
    assert_eq!(s.unknown, Unknown::Ignore);
}

#[test]
fn string_enum_with_rename_all_and_other() {
    let schema = RefundRequest::schema();
    let Body::Enum(category) = &schema.def("Category").expect("Category is defined").body else {
        panic!("Category is an enum")
    };
    assert!(category.is_string_enum());
    let tags: Vec<&str> = category
        .variants
        .iter()
        .filter_map(|v| v.sender.as_deref())
        .collect();
    assert_eq!(tags, ["damaged", "not-delivered", "double-charge", "other"]);
    assert_eq!(
        category.catch_all().map(|v| v.rust_name.as_str()),
        Some("Other")
    );

    let level = root_enum::<Level>();
    assert!(level.is_string_enum());
    assert_eq!(
        variant(&level, "VeryHigh").sender.as_deref(),
        Some("VERY_HIGH")
    );
    assert_eq!(
        variant(&level, "VeryHigh").receiver,
        ["VERY_HIGH", "CRITICAL"]
    );
    assert!(variant(&level, "Unknown").other);
    assert!(!variant(&level, "Low").other);
}

#[test]
fn rename_split_and_aliases() {
    let s = root_struct::<Renames>();
    assert_eq!(sender(field(&s, "id")), ("ID", Emit::Always));
    assert_eq!(receiver(field(&s, "id")), ("ID", vec![], true));
    assert_eq!(sender(field(&s, "split")).0, "outName");
    assert_eq!(receiver(field(&s, "split")).0, "inName");
    assert_eq!(
        receiver(field(&s, "name")),
        ("name", vec!["fullName", "full_name"], true)
    );
    assert_eq!(sender(field(&s, "kind")).0, "kindOut");
    assert_eq!(receiver(field(&s, "kind")).0, "kind");
}

#[test]
fn rename_all_per_view() {
    let s = root_struct::<RenameAllSplit>();
    assert_eq!(sender(field(&s, "user_id")).0, "USER_ID");
    assert_eq!(receiver(field(&s, "user_id")).0, "userId");
    assert_eq!(sender(field(&s, "extra_field")).0, "x");
    assert_eq!(receiver(field(&s, "extra_field")).0, "x");
}

#[test]
fn defaults_make_fields_optional_for_the_receiver_only() {
    let s = root_struct::<Defaults>();
    for f in &s.fields {
        assert_eq!(sender(f).1, Emit::Always, "{}", f.rust_name);
        assert!(!receiver(f).2, "{} has a container default", f.rust_name);
        // `default` does not make `null` acceptable.
        assert!(!f.ty.is_nullable());
    }
    let s = root_struct::<FieldDefaults>();
    assert!(receiver(field(&s, "query")).2);
    assert!(!receiver(field(&s, "limit")).2);
    assert!(!receiver(field(&s, "tags")).2);
}

#[test]
fn skips_shape_each_view() {
    let s = root_struct::<Skips>();
    assert!(
        s.fields.iter().all(|f| f.rust_name != "cache"),
        "a field skipped both ways is not on the wire"
    );
    let write_only = field(&s, "write_only");
    assert!(write_only.sender.is_none());
    assert_eq!(receiver(write_only), ("write_only", vec![], true));
    let computed = field(&s, "computed");
    assert_eq!(sender(computed), ("computed", Emit::Always));
    assert!(computed.receiver.is_none());
    // Skipped when `None` (`Option::is_none`): written only when `Some`, never `null`.
    let note = field(&s, "note");
    assert_eq!(sender(note).1, Emit::IfSome);
    assert_eq!(note.sent_type(), &Type::String(StringFormat::Plain));
    assert!(!receiver(note).2);
    let items = field(&s, "items");
    assert_eq!(sender(items).1, Emit::IfPresent);
    assert!(
        receiver(items).2,
        "skip_serializing_if without default: the receiver still requires it"
    );
}

#[test]
fn flatten_inlines_structs_and_captures_maps() {
    let s = root_struct::<FlattenStruct>();
    let names: Vec<&str> = s.fields.iter().map(|f| f.rust_name.as_str()).collect();
    assert_eq!(names, ["title", "meta.author", "meta.revision"]);
    assert_eq!(sender(field(&s, "meta.author")).0, "author");
    assert!(!receiver(field(&s, "meta.revision")).2);
    assert_eq!(s.unknown, Unknown::Ignore);

    let s = root_struct::<FlattenMap>();
    assert_eq!(s.fields.len(), 1);
    assert_eq!(s.unknown, Unknown::Capture);
    assert_eq!(s.extra, Some(Type::Any));
}

#[test]
fn deny_unknown_fields_and_renamed_from() {
    let s = root_struct::<StrictNote>();
    assert_eq!(s.unknown, Unknown::Deny);
    assert_eq!(
        field(&s, "text").renamed_from,
        vec!["body".to_owned(), "content".to_owned()]
    );
    // `renamed_from` explains; it never makes the receiver read the old name.
    assert_eq!(receiver(field(&s, "text")).1, Vec::<&str>::new());
}

#[test]
fn enum_representations() {
    let figure = root_enum::<Figure>();
    assert_eq!(figure.repr, Repr::Internal { tag: "type".into() });
    assert_eq!(variant(&figure, "Circle").sender.as_deref(), Some("circle"));
    let VariantDefKind::Struct(rect) = &variant(&figure, "Rect").kind else {
        panic!("Rect has fields")
    };
    assert_eq!(rect.fields.len(), 2);
    assert_eq!(
        variant(&figure, "Labelled").kind,
        VariantDefKind::Newtype(Type::Named("Meta".into()))
    );
    assert_eq!(variant(&figure, "Empty").kind, VariantDefKind::Unit);

    let message = root_enum::<Message>();
    assert_eq!(
        message.repr,
        Repr::Adjacent {
            tag: "t".into(),
            content: "c".into()
        }
    );
    assert_eq!(
        variant(&message, "Pair").kind,
        VariantDefKind::Tuple(vec![Type::Int(IntKind::U32); 2])
    );

    let id = root_enum::<IdOrName>();
    assert_eq!(id.repr, Repr::Untagged);
    assert_eq!(id.variants.len(), 2);
}

#[test]
fn external_enum_variants_and_their_views() {
    let command = root_enum::<Command>();
    assert_eq!(command.repr, Repr::External);
    assert!(!command.is_string_enum());
    assert!(
        command.variants.iter().all(|v| v.rust_name != "Internal"),
        "a variant skipped both ways is not on the wire"
    );
    let halt = variant(&command, "Halt");
    assert_eq!(halt.sender.as_deref(), Some("halt"));
    assert_eq!(halt.receiver, ["halt", "abort"]);
    let legacy = variant(&command, "Legacy");
    assert_eq!(legacy.sender, None);
    assert_eq!(legacy.receiver, ["Legacy"]);
    let VariantDefKind::Struct(configure) = &variant(&command, "Configure").kind else {
        panic!("Configure has fields")
    };
    assert_eq!(sender(field(configure, "max_speed")).0, "maxSpeed");
    assert_eq!(
        receiver(field(configure, "dry_run")),
        ("dryRun", vec![], false)
    );
    assert_eq!(
        variant(&command, "Goto").kind,
        VariantDefKind::Tuple(vec![Type::Int(IntKind::I64); 2])
    );
    assert_eq!(
        variant(&command, "Say").kind,
        VariantDefKind::Newtype(Type::String(StringFormat::Plain))
    );
}

#[test]
fn newtype_transparent_tuple_and_unit_structs() {
    assert_eq!(
        root_body::<OrderId>().1,
        Body::Newtype(Type::String(StringFormat::Plain))
    );
    assert_eq!(
        root_body::<Meters>().1,
        Body::Newtype(Type::Float(FloatKind::F64))
    );
    let i32_ = Type::Int(IntKind::I32);
    assert_eq!(
        root_body::<Point>().1,
        Body::Newtype(Type::Tuple(vec![i32_.clone(), i32_]))
    );
    assert_eq!(Marker::schema().root, Type::Unit);
}

/// A transparent struct around an `Option`.
#[derive(serde::Serialize, serde::Deserialize, HandoffSchema)]
#[serde(transparent)]
struct MaybeNote {
    inner: Option<String>,
}

/// A newtype struct around an `Option`.
#[derive(serde::Serialize, serde::Deserialize, HandoffSchema)]
struct NoteSlot(Option<String>);

/// A transparent struct around the newtype.
#[derive(serde::Serialize, serde::Deserialize, HandoffSchema)]
#[serde(transparent)]
struct WrappedSlot(NoteSlot);

#[derive(serde::Serialize, serde::Deserialize, HandoffSchema)]
struct Notes {
    transparent: MaybeNote,
    newtype: NoteSlot,
    wrapped: WrappedSlot,
    boxed: Box<MaybeNote>,
}

#[test]
fn transparent_and_newtype_structs_differ_only_when_absent() {
    use contract_core::schema::shape::Kind;
    assert!(matches!(Meters::SHAPE.kind, Kind::Transparent(_)));
    assert!(matches!(MaybeNote::SHAPE.kind, Kind::Transparent(_)));
    assert!(matches!(OrderId::SHAPE.kind, Kind::Newtype(_)));
    assert!(matches!(NoteSlot::SHAPE.kind, Kind::Newtype(_)));
    // Both are named types whose body is the inner type on the wire.
    let (schema, _) = root_body::<Notes>();
    let option = Type::Option(Box::new(Type::String(StringFormat::Plain)));
    for name in ["MaybeNote", "NoteSlot"] {
        assert_eq!(
            schema.def(name).map(|d| &d.body),
            Some(&Body::Newtype(option.clone())),
            "{name}"
        );
    }
    // serde reads a missing transparent `Option` as `None`, through transparent wrappers
    // and boxes, and requires a newtype struct.
    let s = root_struct::<Notes>();
    let required = |name: &str| receiver(field(&s, name)).2;
    assert!(!required("transparent"));
    assert!(required("newtype"));
    assert!(required("wrapped"));
    assert!(!required("boxed"));
    assert_eq!(field(&s, "transparent").ty, Type::Named("MaybeNote".into()));
}

#[test]
fn recursive_types_resolve() {
    let schema = Plan::schema();
    assert_eq!(schema.root.to_string(), "Plan");
    assert_eq!(schema.types.len(), 1);
    let s = root_struct::<Plan>();
    assert_eq!(field(&s, "steps").ty.to_string(), "list<Plan>");
    assert_eq!(field(&s, "fallback").ty.to_string(), "option<Plan>");
}

#[test]
fn generic_types_are_identified_with_their_arguments() {
    let refund = <Handoff<RefundRequest>>::schema();
    assert_eq!(refund.root.to_string(), "Handoff<RefundRequest>");
    assert!(refund.def("RefundRequest").is_some());
    let result = <Handoff<TaskResult>>::schema();
    assert_eq!(result.root.to_string(), "Handoff<TaskResult>");
    let s = root_struct::<Handoff<TaskResult>>();
    assert_eq!(field(&s, "payload").ty.to_string(), "TaskResult");
    assert_eq!(field(&s, "context_id").ty.to_string(), "string(uuid)");
    assert_eq!(field(&s, "decisions").provenance, Provenance::Confirmed);
    assert_eq!(field(&s, "assumptions").provenance, Provenance::Assumption);
    assert!(!receiver(field(&s, "assumptions")).2);
}

#[test]
fn every_std_type_has_its_wire_type() {
    let s = root_struct::<StdTypes>();
    let ty = |name: &str| field(&s, name).ty.to_string();
    let expected = [
        ("flag", "bool"),
        ("u8", "u8"),
        ("u128", "u128"),
        ("usize", "u64"),
        ("i8", "i8"),
        ("i128", "i128"),
        ("isize", "i64"),
        ("f32", "f32"),
        ("f64", "f64"),
        ("char", "char"),
        ("string", "string"),
        ("option", "option<u32>"),
        ("nested_option", "option<u32>"),
        ("vec", "list<string>"),
        ("deque", "list<u16>"),
        ("array", "array<u8; 4>"),
        ("hash_set", "set<string>"),
        ("btree_set", "set<i32>"),
        ("hash_map", "map<string, u32>"),
        ("btree_map", "map<string, list<bool>>"),
        ("boxed", "string"),
        ("arc", "string"),
        ("rc", "u32"),
        ("cow", "string"),
        ("any", "any"),
        ("unit", "unit"),
        ("tuple", "tuple(string, i64)"),
    ];
    for (name, wire) in expected {
        assert_eq!(ty(name), wire, "field `{name}`");
    }
    assert!(!receiver(field(&s, "option")).2);
    assert!(receiver(field(&s, "vec")).2);
}

#[test]
fn uuid_and_chrono_types_are_formatted_strings() {
    let s = root_struct::<TimeAndIds>();
    let ty = |name: &str| field(&s, name).ty.to_string();
    assert_eq!(ty("id"), "string(uuid)");
    assert_eq!(ty("at"), "string(date-time)");
    assert_eq!(ty("local"), "string(date-time)");
    assert_eq!(ty("naive"), "string(naive-date-time)");
    assert_eq!(ty("day"), "string(date)");
    assert_eq!(ty("time"), "string(time)");
}

#[test]
fn schema_as_describes_a_with_field() {
    let s = root_struct::<WithSchemaAs>();
    assert_eq!(field(&s, "timeout").ty.to_string(), "u64");
}

#[test]
fn doc_comments_become_descriptions() {
    let schema = RefundRequest::schema();
    let def = schema.def("RefundRequest").expect("defined");
    assert_eq!(
        def.doc,
        "A refund request handed from the triage agent to the refund agent (seed 003)."
    );
    let s = root_struct::<RefundRequest>();
    assert_eq!(
        field(&s, "order_id").doc,
        "The order, called `orderRef` in v1."
    );
    let level = root_enum::<Level>();
    assert_eq!(
        variant(&level, "VeryHigh").doc,
        "`VERY_HIGH`, also read as `CRITICAL`."
    );
    assert_eq!(RefundRequest::SHAPE.doc, def.doc);
}

/// Borrowed strings: `borrow` and `bound` do not change the wire.
#[derive(Debug, serde::Serialize, serde::Deserialize, HandoffSchema)]
#[serde(bound(deserialize = "'de: 'a"))]
struct Borrowed<'a> {
    #[serde(borrow)]
    name: std::borrow::Cow<'a, str>,
    plain: &'a str,
    #[serde(borrow, default, skip_serializing_if = "Option::is_none")]
    note: Option<std::borrow::Cow<'a, str>>,
}

#[test]
fn borrowed_fields_are_strings_in_both_views() {
    let s = root_struct::<Borrowed>();
    for (name, required) in [("name", true), ("plain", true), ("note", false)] {
        let f = field(&s, name);
        assert_eq!(receiver(f), (name, vec![], required), "{name}");
        // `note` is an `Option` skipped when `None`.
        let presence = if required { Emit::Always } else { Emit::IfSome };
        assert_eq!(sender(f), (name, presence), "{name}");
    }
    assert_eq!(field(&s, "name").ty, Type::String(StringFormat::Plain));
    assert_eq!(field(&s, "plain").ty, Type::String(StringFormat::Plain));
    assert_eq!(
        field(&s, "note").ty,
        Type::Option(Box::new(Type::String(StringFormat::Plain)))
    );
    // serde borrows them from the text it reads.
    let text = r#"{"name":"n","plain":"p"}"#;
    let read: Borrowed = serde_json::from_str(text).expect("serde reads it");
    assert!(matches!(read.name, std::borrow::Cow::Borrowed("n")));
    assert_eq!(serde_json::to_string(&read).expect("writes"), text);
}

#[test]
fn every_type_here_is_rebuilt_from_its_syntax_as_its_shape_describes_it() {
    let compared = both_ways::assert_rebuilt_as_described(
        "tests/derive_views.rs",
        include_str!("derive_views.rs"),
        &both_ways::described![MaybeNote, NoteSlot, WrappedSlot, Notes],
        // Newtype and transparent structs.
        &["MaybeNote", "NoteSlot", "WrappedSlot"],
    );
    // `Notes`, whose fields are named types around an `Option`: the syntax cannot tell a
    // transparent one (may be absent) from a newtype (required), the published schema does.
    assert_eq!(compared.equal, 1);
    assert_eq!(compared.generic, 1, "`Borrowed<'a>`");
}
