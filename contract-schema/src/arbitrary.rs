//! proptest strategies that generate valid [`Schema`]s (feature `proptest`).
//!
//! The schemas look like what the derive produces for real handoff types: every named
//! type that is referenced is defined (and every defined type is reachable from the root),
//! types may be recursive, every [`Type`] variant occurs, fields carry realistic
//! combinations of both views (renames, `rename(serialize, deserialize)`, aliases, skipped
//! views, optional and required fields, `renamed_from`, assumptions), structs ignore, deny
//! or capture unknown fields, enums use every serde representation (and may deny unknown
//! fields, which their struct variants then do too), tagged enums may end with
//! `#[serde(untagged)]` variants, string enums may have a catch-all, and contracts carry
//! ids, modes and sometimes allowances.
//!
//! Within one struct the Rust field names are distinct, and so are the sender names and the
//! receiver names and aliases (as serde requires of a derived type); within one enum the
//! variant names are distinct. `Option<Option<T>>` never occurs (serde cannot tell the two
//! `None`s apart, so the builder collapses them). No newtype variant of an internally tagged
//! enum holds an enum tagged under the same key (serde can never read one back).
//!
//! Structs (not struct variants) may flatten enums, or `Option`s of them
//! ([`StructDef::flattened`]): only a named type that leads to an enum is kept there, and
//! only where serde reads it back — beside no key of the struct's own fields or of another
//! flattened enum, externally tagged in a `deny_unknown_fields` struct, never in a struct
//! that captures unknown keys, never tagged under a key an internally tagged enum with a
//! newtype variant also uses, never untagged with a variant sent that is not an object (a
//! unit variant writes nothing, which serde never reads back there; a scalar, a sequence or
//! a tuple cannot be written there), and never a tagged enum with untagged
//! variants (the derive refuses to flatten one).
//!
//! ```
//! use contract_schema::arbitrary::arb_schema;
//! use proptest::strategy::{Strategy, ValueTree};
//! use proptest::test_runner::TestRunner;
//!
//! let mut runner = TestRunner::deterministic();
//! let schema = arb_schema().new_tree(&mut runner).unwrap().current();
//! for name in schema.types.keys() {
//!     assert!(schema.def(name).is_some());
//! }
//! ```

use std::collections::{BTreeMap, BTreeSet};

use proptest::collection::vec;
use proptest::prelude::*;
use proptest::sample::{select, subsequence};

use crate::allowance::{Allowance, Allowances};
use crate::contract::{ContractId, Mode};
use crate::model::{
    Body, Emit, EnumDef, FieldDef, FlatEnumDef, IntRange, IntValue, Length, ReceiverField, Repr,
    Schema, SenderField, StructDef, Type, TypeDef, Unknown, VariantDef, VariantDefKind,
};
use crate::rules::Rule;
use crate::scalar::{FloatKind, IntKind, StringFormat};
use crate::shape::Provenance;

/// Display names the generated named types are drawn from: plain names, module-qualified
/// names, generic instances (whose arguments are canonical type text) and a non-ASCII one.
pub const TYPE_NAMES: &[&str] = &[
    "RefundRequest",
    "Category",
    "OrderId",
    "Plan",
    "Step",
    "Artifact",
    "TaskResult",
    "Evidence",
    "Status",
    "Budget",
    "Handoff<RefundRequest>",
    "Handoff<TaskResult>",
    "app::v1::Step",
    "billing::Category",
    "Page<list<string>>",
    "Pair<string, u32>",
    "Grid<array<u8; 4>>",
    "Row<tuple(string, i64)>",
    "Lookup<map<string, option<Step>>>",
    "Größe",
];

/// Rust field names; a dotted name is a field inlined from a flattened struct. The last
/// segments are distinct, so every case convention maps them to distinct wire names.
const FIELD_NAMES: &[&str] = &[
    "order_id",
    "category",
    "use_case",
    "goal",
    "budget",
    "status",
    "steps",
    "owner",
    "context.task_id",
    "context.session_id",
    "attempt",
    "retry_of",
    "evidence",
    "notes",
];

/// Rust variant names.
const VARIANT_NAMES: &[&str] = &[
    "Damaged", "Late", "Wrong", "Pending", "Ready", "Done", "Failed", "Card", "Transfer", "Cash",
    "Nested", "Other",
];

/// Contract names (kebab-case).
const CONTRACT_NAMES: &[&str] = &[
    "refund-request",
    "task-result",
    "handoff",
    "plan2-step",
    "x",
];

/// Realistic doc comments, including characters the canonical text must escape.
const DOCS: &[&str] = &[
    "A refund the support agent hands to billing.",
    "The order, as the customer quoted it.",
    "Why the customer asked.\n\nSecond paragraph with `code` and a \"quote\".",
    "Tabs\tand a backslash \\ and unicode: 退款 → ok",
    "Ends with a backslash \\",
];

/// A case convention, as `#[serde(rename_all = "…")]` applies it.
#[derive(Debug, Clone, Copy)]
enum Case {
    Snake,
    Camel,
    Pascal,
    Kebab,
    ScreamingSnake,
}

impl Case {
    const ALL: [Case; 5] = [
        Case::Snake,
        Case::Camel,
        Case::Pascal,
        Case::Kebab,
        Case::ScreamingSnake,
    ];

    /// Applies the convention to a snake_case or PascalCase name.
    fn apply(self, name: &str) -> String {
        let words = words(name);
        match self {
            Case::Snake => words.join("_"),
            Case::Kebab => words.join("-"),
            Case::ScreamingSnake => words.join("_").to_uppercase(),
            Case::Camel | Case::Pascal => {
                let mut out = String::new();
                for (i, w) in words.iter().enumerate() {
                    if i == 0 && matches!(self, Case::Camel) {
                        out.push_str(w);
                    } else {
                        let mut chars = w.chars();
                        if let Some(first) = chars.next() {
                            out.extend(first.to_uppercase());
                            out.push_str(chars.as_str());
                        }
                    }
                }
                out
            }
        }
    }
}

/// The lowercase words of a snake_case or PascalCase name.
fn words(name: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut current = String::new();
    for c in name.chars() {
        if c == '_' {
            if !current.is_empty() {
                words.push(std::mem::take(&mut current));
            }
        } else if c.is_uppercase() {
            if !current.is_empty() {
                words.push(std::mem::take(&mut current));
            }
            current.extend(c.to_lowercase());
        } else {
            current.push(c);
        }
    }
    if !current.is_empty() {
        words.push(current);
    }
    words
}

/// The last segment of a possibly dotted (flattened) field name.
fn last_segment(name: &str) -> &str {
    name.rsplit('.').next().unwrap_or(name)
}

/// Any integer kind.
pub fn arb_int_kind() -> impl Strategy<Value = IntKind> {
    select(IntKind::ALL.to_vec())
}

/// Any string format, plain strings most often.
pub fn arb_string_format() -> impl Strategy<Value = StringFormat> {
    prop_oneof![
        4 => Just(StringFormat::Plain),
        1 => select(StringFormat::NAMED.to_vec()),
    ]
}

/// An integer of `kind` near one of the places where sets change: the kind's bounds,
/// zero, and small values either side.
fn int_near_edges(kind: IntKind) -> impl Strategy<Value = IntValue> {
    let (lo, hi) = (IntValue::min_of(kind), IntValue::max_of(kind));
    prop_oneof![
        Just(lo),
        Just(hi),
        (-6i128..=6).prop_map(IntValue::from_i128),
        Just(lo.succ().unwrap_or(lo)),
        Just(hi.pred().unwrap_or(hi)),
    ]
    .prop_map(move |v| v.clamp(lo, hi))
}

/// A constrained integer: one to three ranges or single values of a kind (the `NonZero`
/// shapes, finite sets, and sets that exclude a value all come out), normalized.
pub fn arb_constrained_int() -> impl Strategy<Value = Type> {
    arb_int_kind().prop_flat_map(|kind| {
        vec((int_near_edges(kind), int_near_edges(kind)), 1..=3).prop_map(move |pairs| {
            Type::int_in(
                kind,
                pairs
                    .into_iter()
                    .map(|(a, b)| IntRange::new(a.min(b), a.max(b))),
            )
        })
    })
}

/// A constrained string: a format, a length and a pattern (from a few that every
/// ECMA-262 engine reads alike, one with a quote and a backslash for the text's escapes).
pub fn arb_constrained_string() -> impl Strategy<Value = Type> {
    let length = (0u64..4, proptest::option::of(0u64..6)).prop_map(|(min, extra)| Length {
        min,
        max: extra.map(|e| min + e),
    });
    let pattern = proptest::option::of(select(vec![
        "^[a-z]+$".to_owned(),
        "^[0-9]*$".to_owned(),
        "b".to_owned(),
        "^\\\\?\"?[^\\s]*$".to_owned(),
    ]));
    (arb_string_format(), length, pattern)
        .prop_map(|(format, length, pattern)| Type::string_with(format, length, pattern))
}

/// A type without structure: a scalar, or one of the given named types.
fn leaf_type(named: &[String]) -> BoxedStrategy<Type> {
    let scalars = prop_oneof![
        Just(Type::Unit),
        Just(Type::Bool),
        arb_int_kind().prop_map(Type::Int),
        arb_constrained_int(),
        arb_constrained_string(),
        select(vec![FloatKind::F32, FloatKind::F64]).prop_map(Type::Float),
        Just(Type::Char),
        arb_string_format().prop_map(Type::String),
        Just(Type::Any),
    ];
    if named.is_empty() {
        scalars.boxed()
    } else {
        prop_oneof![
            3 => scalars,
            2 => select(named.to_vec()).prop_map(Type::Named),
        ]
        .boxed()
    }
}

/// A map key: what serializes as a JSON object key.
fn key_type() -> impl Strategy<Value = Type> {
    prop_oneof![
        4 => arb_string_format().prop_map(Type::String),
        1 => arb_int_kind().prop_map(Type::Int),
        1 => arb_constrained_int(),
        1 => Just(Type::Char),
    ]
}

/// Any type, up to three levels of structure, whose named types are drawn from `named`.
pub fn arb_type(named: &[String]) -> BoxedStrategy<Type> {
    leaf_type(named)
        .prop_recursive(3, 16, 4, |inner| {
            prop_oneof![
                2 => inner.clone().prop_map(Type::option_of),
                2 => inner.clone().prop_map(|t| Type::List(Box::new(t))),
                1 => inner.clone().prop_map(|t| Type::Set(Box::new(t))),
                1 => (inner.clone(), 0usize..=8).prop_map(|(t, n)| Type::Array(Box::new(t), n)),
                1 => (key_type(), inner.clone())
                    .prop_map(|(k, v)| Type::Map(Box::new(k), Box::new(v))),
                1 => vec(inner, 0..4).prop_map(Type::Tuple),
            ]
        })
        .boxed()
}

/// A doc comment: usually none, sometimes prose, sometimes arbitrary characters (control
/// characters, quotes, backslashes, non-ASCII).
pub fn arb_doc() -> impl Strategy<Value = String> {
    prop_oneof![
        6 => Just(String::new()),
        3 => select(DOCS).prop_map(str::to_owned),
        1 => vec(any::<char>(), 1..16).prop_map(|cs| cs.into_iter().collect()),
    ]
}

/// Wire names and paths an allowance may name: keys, paths through lists, maps and
/// variants, the root (empty) and names with characters the text must escape.
const ALLOWED_FIELDS: &[&str] = &[
    "orderRef",
    "order_id",
    "artifacts[].version",
    "steps[].*.goal",
    "(Ready).note",
    "",
    "say \"hi\"",
    "tab\there",
];

/// The findings a contract accepts on purpose: usually none, else a few, each with a rule
/// of the catalogue, a field (a wire name or a path) and a reason of any characters.
pub fn arb_allowances() -> impl Strategy<Value = Allowances> {
    let field = prop_oneof![
        4 => select(ALLOWED_FIELDS).prop_map(str::to_owned),
        1 => vec(any::<char>(), 0..12).prop_map(|cs| cs.into_iter().collect()),
    ];
    let reason = prop_oneof![
        3 => select(DOCS).prop_map(str::to_owned),
        1 => vec(any::<char>(), 0..16).prop_map(|cs| cs.into_iter().collect()),
    ];
    let allowance =
        (select(Rule::ALL.to_vec()), field, reason).prop_map(|(rule, field, reason)| Allowance {
            rule: rule.id().to_owned(),
            field,
            reason,
        });
    prop_oneof![
        3 => Just(Allowances::new()),
        1 => vec(allowance, 1..4).prop_map(Allowances::from_iter),
    ]
}

/// A contract id with a kebab-case name and a version of at least 1.
pub fn arb_contract_id() -> impl Strategy<Value = ContractId> {
    (select(CONTRACT_NAMES), 1u32..=9).prop_map(|(name, version)| ContractId {
        name: name.to_owned(),
        version,
    })
}

/// Any compatibility mode, `full` most often.
pub fn arb_mode() -> impl Strategy<Value = Mode> {
    prop_oneof![
        3 => Just(Mode::Full),
        1 => Just(Mode::Backward),
        1 => Just(Mode::Forward),
        1 => Just(Mode::BackwardTransitive),
        1 => Just(Mode::ForwardTransitive),
        1 => Just(Mode::FullTransitive),
    ]
}

/// The random choices behind one field, turned into a [`FieldDef`] by [`field_def`].
type FieldChoices = (Type, (u8, u8), (u8, bool, u8), Provenance, String);

fn field_choices(named: &[String]) -> impl Strategy<Value = FieldChoices> {
    (
        arb_type(named),
        // sender: never / if-present (if-some for an option) / always; receiver: never /
        // renamed / plain
        (0u8..10, 0u8..10),
        // how many aliases, required (when not an option), which renamed_from
        (
            prop_oneof![6 => Just(0u8), 3 => Just(1u8), 1 => Just(2u8)],
            prop::bool::weighted(0.7),
            prop_oneof![6 => Just(0u8), 1 => Just(1u8), 1 => Just(2u8), 1 => Just(3u8)],
        ),
        prop_oneof![4 => Just(Provenance::Confirmed), 1 => Just(Provenance::Assumption)],
        arb_doc(),
    )
}

fn field_def(rust_name: &str, case: Case, choices: FieldChoices) -> FieldDef {
    let (ty, (send, receive), (alias_count, required, renamed_from), provenance, doc) = choices;
    let wire = case.apply(last_segment(rust_name));
    let sender = match send {
        0 => None,
        // `skip_serializing_if = "Option::is_none"` on an `Option`: never `null`.
        3 if matches!(ty, Type::Option(_)) => Some(Emit::IfSome),
        1..=3 => Some(Emit::IfPresent),
        _ => Some(Emit::Always),
    }
    .map(|emit| SenderField {
        name: wire.clone(),
        emit,
    });
    let aliases: Vec<String> = (0..alias_count)
        .map(|i| format!("{wire}Old{}", i + 1))
        .collect();
    let receiver = match receive {
        0 => None,
        // `rename(deserialize = "…")`: the receiver reads another key than the sender writes.
        1 => Some(format!("{wire}In")),
        _ => Some(wire.clone()),
    }
    .map(|name| ReceiverField {
        name,
        aliases: aliases.clone(),
        required: !matches!(ty, Type::Option(_)) && required,
    });
    let renamed_from = match renamed_from {
        // Declared together with the alias that still reads the old name.
        1 if !aliases.is_empty() => aliases.iter().take(1).cloned().collect(),
        // Declared without an alias.
        2 => vec![format!("{wire}Ref")],
        3 => vec![
            format!("{wire}Ref"),
            format!("old_{}", last_segment(rust_name)),
        ],
        _ => Vec::new(),
    };
    FieldDef {
        rust_name: rust_name.to_owned(),
        ty,
        sender,
        receiver,
        provenance,
        renamed_from,
        doc,
    }
}

/// A struct whose field types draw their named types from `named`.
pub fn arb_struct_def(named: &[String]) -> BoxedStrategy<StructDef> {
    let named = named.to_vec();
    (
        subsequence(FIELD_NAMES, 0..=6).prop_shuffle(),
        select(Case::ALL.to_vec()),
        prop_oneof![
            3 => Just(Unknown::Ignore),
            2 => Just(Unknown::Deny),
            1 => Just(Unknown::Capture),
        ],
    )
        .prop_flat_map(move |(names, case, unknown)| {
            let fields: Vec<_> = names
                .iter()
                .map(|name| {
                    let name = *name;
                    field_choices(&named).prop_map(move |c| field_def(name, case, c))
                })
                .collect();
            let extra = match unknown {
                Unknown::Capture => arb_type(&named).prop_map(Some).boxed(),
                Unknown::Ignore | Unknown::Deny => Just(None).boxed(),
            };
            (fields, extra, flattened_candidates(&named)).prop_map(
                move |(fields, extra, flattened)| StructDef {
                    fields,
                    unknown,
                    extra,
                    flattened,
                },
            )
        })
        .boxed()
}

/// The Rust names of flattened enums (distinct from [`FIELD_NAMES`]).
const FLAT_NAMES: &[&str] = &["kind", "variant"];

/// Flattened entries of named types drawn from `named`, an `Option` of one at times; which
/// lead to an enum is known only once the schema's types are: [`keep_flattened_enums`]
/// drops the others.
fn flattened_candidates(named: &[String]) -> BoxedStrategy<Vec<FlatEnumDef>> {
    if named.is_empty() {
        return Just(Vec::new()).boxed();
    }
    let entry = (
        select(named.to_vec()),
        any::<bool>(),
        prop_oneof![6 => Just((true, true)), 1 => Just((false, true)), 1 => Just((true, false))],
        arb_doc(),
    );
    vec(entry, 0..=FLAT_NAMES.len())
        .prop_map(|entries| {
            entries
                .into_iter()
                .zip(FLAT_NAMES)
                .map(|((name, optional, (sent, read), doc), rust_name)| {
                    let ty = Type::Named(name);
                    FlatEnumDef {
                        rust_name: (*rust_name).to_owned(),
                        ty: if optional { Type::option_of(ty) } else { ty },
                        sent,
                        read,
                        doc,
                    }
                })
                .collect()
        })
        .boxed()
}

/// Keeps the flattened entries serde reads back (see the [module documentation](self)):
/// those that lead to an enum, beside no other key, in structs only.
fn keep_flattened_enums(schema: &mut Schema) {
    // The tags of internally tagged enums with a newtype variant: a struct holding a
    // flattened enum tagged under one may be that variant's content, which serde hands
    // every key but the tag.
    let taken: BTreeSet<String> = schema
        .types
        .values()
        .filter_map(|def| match &def.body {
            Body::Enum(EnumDef {
                repr: Repr::Internal { tag },
                variants,
                ..
            }) if variants
                .iter()
                .any(|v| matches!(v.kind, VariantDefKind::Newtype(_))) =>
            {
                Some(tag.clone())
            }
            _ => None,
        })
        .collect();
    let names: Vec<String> = schema.types.keys().cloned().collect();
    for name in names {
        let Some(def) = schema.types.get(&name) else {
            continue;
        };
        let kept = match &def.body {
            Body::Struct(s) => Some(kept_flattened(schema, s, &taken)),
            _ => None,
        };
        let Some(def) = schema.types.get_mut(&name) else {
            continue;
        };
        match &mut def.body {
            Body::Struct(s) => s.flattened = kept.unwrap_or_default(),
            Body::Enum(e) => {
                for v in &mut e.variants {
                    if let VariantDefKind::Struct(s) = &mut v.kind {
                        s.flattened.clear();
                    }
                }
            }
            Body::Newtype(_) | Body::Views { .. } => {}
        }
    }
}

fn kept_flattened(schema: &Schema, s: &StructDef, taken: &BTreeSet<String>) -> Vec<FlatEnumDef> {
    if s.unknown == Unknown::Capture {
        return Vec::new();
    }
    let mut used: BTreeSet<&str> = BTreeSet::new();
    for f in &s.fields {
        used.extend(f.sender.iter().map(|x| x.name.as_str()));
        if let Some(r) = &f.receiver {
            used.insert(&r.name);
            used.extend(r.aliases.iter().map(String::as_str));
        }
    }
    let mut kept = Vec::new();
    for flat in &s.flattened {
        let Some((e, _)) = schema.flat_enum(&flat.ty) else {
            continue;
        };
        // The derive refuses to flatten an enum with untagged variants.
        if e.has_untagged_variants() {
            continue;
        }
        let keys = e.flat_keys();
        let fits = match &e.repr {
            Repr::External => true,
            Repr::Internal { tag } | Repr::Adjacent { tag, .. } => {
                s.unknown != Unknown::Deny && !taken.contains(tag)
            }
            // Beside fields serde writes and reads an untagged variant only when it is an
            // object: a struct variant, or a newtype of a struct or a map (a unit variant
            // writes nothing, which serde never reads back; a scalar, a sequence or a tuple
            // cannot be written there).
            Repr::Untagged => {
                s.unknown != Unknown::Deny
                    && e.variants
                        .iter()
                        .filter(|v| v.sender.is_some())
                        .all(|v| is_object_variant(schema, &v.kind))
            }
        };
        if fits && keys.iter().all(|k| !used.contains(k)) {
            used.extend(keys);
            kept.push(flat.clone());
        }
    }
    kept
}

/// Whether a variant's content is written as an object: named fields, or a newtype of a
/// struct or a map (through newtypes).
fn is_object_variant(schema: &Schema, kind: &VariantDefKind) -> bool {
    match kind {
        VariantDefKind::Struct(_) => true,
        VariantDefKind::Newtype(ty) => match schema.resolve(ty) {
            Type::Map(..) => true,
            Type::Named(name) => matches!(schema.def(name).map(|d| &d.body), Some(Body::Struct(_))),
            _ => false,
        },
        VariantDefKind::Unit | VariantDefKind::Tuple(_) => false,
    }
}

/// The wire views of a variant: its sender tag and receiver tags.
fn variant_views(
    rust_name: &str,
    case: Case,
    choice: (u8, u8, bool),
) -> (Option<String>, Vec<String>) {
    let (send, receive, alias) = choice;
    let tag = case.apply(rust_name);
    let sender = (send != 0).then(|| tag.clone());
    let mut receiver = Vec::new();
    if receive != 0 {
        receiver.push(tag.clone());
        if alias {
            receiver.push(format!("{tag}_old"));
        }
    }
    (sender, receiver)
}

fn view_choice() -> impl Strategy<Value = (u8, u8, bool)> {
    (0u8..10, 0u8..10, prop::bool::weighted(0.2))
}

/// A string enum: externally tagged unit variants, the last one possibly a catch-all.
fn string_enum() -> BoxedStrategy<EnumDef> {
    (
        subsequence(VARIANT_NAMES, 1..=5).prop_shuffle(),
        select(Case::ALL.to_vec()),
        any::<bool>(),
        prop::bool::weighted(0.2),
    )
        .prop_flat_map(|(names, case, catch_all, deny)| {
            let count = names.len();
            let variants: Vec<_> = names
                .into_iter()
                .enumerate()
                .map(|(i, name)| {
                    let other = catch_all && i + 1 == count;
                    (view_choice(), arb_doc()).prop_map(move |(choice, doc)| {
                        let (sender, mut receiver) = variant_views(name, case, choice);
                        if other && receiver.is_empty() {
                            // `#[serde(other)]` on a variant that is never read is useless.
                            receiver.push(case.apply(name));
                        }
                        VariantDef {
                            rust_name: name.to_owned(),
                            sender,
                            receiver,
                            other,
                            untagged: false,
                            kind: VariantDefKind::Unit,
                            doc,
                        }
                    })
                })
                .collect();
            // `deny_unknown_fields` on a string enum changes nothing on the wire, but the
            // derive records it all the same.
            variants.prop_map(move |variants| EnumDef {
                repr: Repr::External,
                variants,
                deny_unknown_fields: deny,
            })
        })
        .boxed()
}

fn arb_repr() -> impl Strategy<Value = Repr> {
    prop_oneof![
        Just(Repr::External),
        select(vec!["type", "kind", "t"]).prop_map(|tag| Repr::Internal {
            tag: tag.to_owned()
        }),
        (
            select(vec!["type", "t"]),
            select(vec!["content", "c", "data"])
        )
            .prop_map(|(tag, content)| Repr::Adjacent {
                tag: tag.to_owned(),
                content: content.to_owned(),
            }),
        Just(Repr::Untagged),
    ]
}

/// What a variant of an enum with this representation may carry (serde rejects tuple
/// variants in internally tagged enums).
fn variant_kind(named: &[String], repr: &Repr) -> BoxedStrategy<VariantDefKind> {
    let unit = Just(VariantDefKind::Unit);
    let structs = arb_struct_def(named).prop_map(VariantDefKind::Struct);
    match repr {
        Repr::Internal { .. } => {
            let mut newtype_targets: Vec<Type> = named.iter().cloned().map(Type::Named).collect();
            newtype_targets.push(Type::Map(
                Box::new(Type::String(StringFormat::Plain)),
                Box::new(Type::Any),
            ));
            prop_oneof![
                2 => unit,
                2 => structs,
                1 => select(newtype_targets).prop_map(VariantDefKind::Newtype),
            ]
            .boxed()
        }
        Repr::External | Repr::Adjacent { .. } | Repr::Untagged => prop_oneof![
            2 => unit,
            2 => arb_type(named).prop_map(VariantDefKind::Newtype),
            1 => vec(arb_type(named), 2..4).prop_map(VariantDefKind::Tuple),
            2 => structs,
        ]
        .boxed(),
    }
}

/// What an untagged variant of a tagged enum may carry: anything (its content is written
/// alone), but no tuple in an internally tagged enum (serde rejects tuple variants there,
/// untagged or not).
fn untagged_variant_kind(named: &[String], repr: &Repr) -> BoxedStrategy<VariantDefKind> {
    match repr {
        Repr::Internal { .. } => prop_oneof![
            1 => Just(VariantDefKind::Unit),
            2 => arb_type(named).prop_map(VariantDefKind::Newtype),
            2 => arb_struct_def(named).prop_map(VariantDefKind::Struct),
        ]
        .boxed(),
        _ => variant_kind(named, &Repr::Untagged),
    }
}

/// An enum carrying data, in any representation; a tagged one may end with
/// `#[serde(untagged)]` variants (serde requires them last).
fn data_enum(named: &[String]) -> BoxedStrategy<EnumDef> {
    let named = named.to_vec();
    (
        arb_repr(),
        subsequence(VARIANT_NAMES, 1..=4).prop_shuffle(),
        select(Case::ALL.to_vec()),
        prop::bool::weighted(0.3),
        prop_oneof![6 => Just(0usize), 2 => Just(1usize), 1 => Just(2usize)],
    )
        .prop_flat_map(move |(repr, names, case, deny, untagged_count)| {
            let count = names.len();
            // At least one variant stays tagged: an enum untagged throughout is
            // `Repr::Untagged`.
            let untagged_from = if repr == Repr::Untagged {
                count
            } else {
                count - untagged_count.min(count - 1)
            };
            let variants: Vec<_> = names
                .into_iter()
                .enumerate()
                .map(|(i, name)| {
                    let untagged = i >= untagged_from;
                    let kind = if untagged {
                        untagged_variant_kind(&named, &repr)
                    } else {
                        variant_kind(&named, &repr)
                    };
                    (kind, view_choice(), arb_doc()).prop_map(move |(mut kind, choice, doc)| {
                        let (sender, receiver) = variant_views(name, case, choice);
                        // The enum's `deny_unknown_fields` applies to its struct variants,
                        // as the builder records it (a captured map still captures).
                        if let VariantDefKind::Struct(s) = &mut kind {
                            if deny && s.unknown == Unknown::Ignore {
                                s.unknown = Unknown::Deny;
                            }
                        }
                        VariantDef {
                            rust_name: name.to_owned(),
                            sender,
                            receiver,
                            other: false,
                            untagged,
                            kind,
                            doc,
                        }
                    })
                })
                .collect();
            variants.prop_map(move |variants| EnumDef {
                repr: repr.clone(),
                variants,
                deny_unknown_fields: deny,
            })
        })
        .boxed()
}

/// An enum: a string enum (possibly with a catch-all) or an enum carrying data.
pub fn arb_enum_def(named: &[String]) -> BoxedStrategy<EnumDef> {
    prop_oneof![1 => string_enum(), 1 => data_enum(named)].boxed()
}

/// A tuple struct with items skipped in one direction: each item is sent, read, or both, and
/// the two arrays differ.
fn arb_views(named: &[String]) -> BoxedStrategy<Body> {
    // 0: both views, 1: sent only (`skip_deserializing`), 2: read only (`skip_serializing`).
    vec((arb_type(named), 0..3u8), 1..4)
        .prop_map(|items| {
            let view = |keep: u8| {
                Type::Tuple(
                    items
                        .iter()
                        .filter(|(_, side)| *side == 0 || *side == keep)
                        .map(|(ty, _)| ty.clone())
                        .collect(),
                )
            };
            Body::Views {
                sender: view(1),
                receiver: view(2),
            }
        })
        .prop_filter(
            "two views that differ",
            |body| !matches!(body, Body::Views { sender, receiver } if sender == receiver),
        )
        .boxed()
}

/// The definition of the named type `name`, its body referring to `named`.
pub fn arb_type_def(name: &str, named: &[String]) -> BoxedStrategy<TypeDef> {
    let rust_path = if name.contains("::") {
        name.to_owned()
    } else {
        format!("my_app::{name}")
    };
    let body = prop_oneof![
        6 => arb_struct_def(named).prop_map(Body::Struct),
        4 => arb_enum_def(named).prop_map(Body::Enum),
        2 => arb_type(named).prop_map(Body::Newtype),
        1 => arb_views(named),
    ];
    (body, arb_doc())
        .prop_map(move |(body, doc)| TypeDef {
            rust_path: rust_path.clone(),
            doc,
            body,
        })
        .boxed()
}

/// A valid schema: see the [module documentation](self).
pub fn arb_schema() -> impl Strategy<Value = Schema> {
    subsequence(TYPE_NAMES, 0..=6)
        .prop_flat_map(|names| {
            let names: Vec<String> = names.into_iter().map(str::to_owned).collect();
            let defs: Vec<_> = names.iter().map(|n| arb_type_def(n, &names)).collect();
            let root = if names.is_empty() {
                arb_type(&names)
            } else {
                prop_oneof![
                    4 => select(names.clone()).prop_map(Type::Named),
                    1 => arb_type(&names),
                ]
                .boxed()
            };
            let contract = prop_oneof![
                1 => Just(None),
                3 => arb_contract_id().prop_map(Some),
            ];
            (
                Just(names),
                defs,
                root,
                contract,
                arb_mode(),
                arb_allowances(),
            )
        })
        .prop_map(|(names, defs, root, contract, mode, allowances)| {
            // Only a contract has a mode other than `full` and allowances.
            let (mode, allowances) = if contract.is_some() {
                (mode, allowances)
            } else {
                (Mode::Full, Allowances::new())
            };
            let types: BTreeMap<String, TypeDef> = names.into_iter().zip(defs).collect();
            let mut schema = Schema {
                contract,
                mode,
                allowances,
                root,
                types,
            };
            unit_for_unreadable_variants(&mut schema);
            keep_flattened_enums(&mut schema);
            retain_reachable(&mut schema);
            schema
        })
}

/// Makes a unit variant of every newtype variant of an internally tagged enum whose content
/// is an enum tagged under the same key: serde can never read it back (the compatibility
/// engine's `VARIANT_UNREADABLE`), so a derived type that round-trips has none.
fn unit_for_unreadable_variants(schema: &mut Schema) {
    let mut unreadable = Vec::new();
    for (name, def) in &schema.types {
        if let Body::Enum(EnumDef {
            repr: Repr::Internal { tag },
            variants,
            ..
        }) = &def.body
        {
            // An untagged variant is read without the tag: its content keeps it.
            for (i, v) in variants.iter().enumerate().filter(|(_, v)| !v.untagged) {
                if let VariantDefKind::Newtype(ty) = &v.kind {
                    if schema.needs_taken_tag(ty, tag) {
                        unreadable.push((name.clone(), i));
                    }
                }
            }
        }
    }
    for (name, i) in unreadable {
        if let Some(TypeDef {
            body: Body::Enum(e),
            ..
        }) = schema.types.get_mut(&name)
        {
            if let Some(v) = e.variants.get_mut(i) {
                v.kind = VariantDefKind::Unit;
            }
        }
    }
}

/// Removes the named types the root does not reach, as the builder never defines them.
fn retain_reachable(schema: &mut Schema) {
    let mut reached = BTreeSet::new();
    let mut stack = Vec::new();
    schema.root.push_names(&mut stack);
    while let Some(name) = stack.pop() {
        if !reached.insert(name.clone()) {
            continue;
        }
        if let Some(def) = schema.types.get(&name) {
            def.body.push_names(&mut stack);
        }
    }
    schema.types.retain(|name, _| reached.contains(name));
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::strategy::ValueTree;
    use proptest::test_runner::{Config, RngSeed, TestRunner};
    use std::collections::HashSet;

    /// `count` schemas drawn from a fixed seed (the one `.ci/run` sets), whatever
    /// `PROPTEST_RNG_SEED` says: what they cover is then the same on every run.
    fn sample(count: u32) -> Vec<Schema> {
        let mut runner = TestRunner::new(Config {
            cases: count,
            rng_seed: RngSeed::Fixed(20_261_130),
            failure_persistence: None,
            ..Config::default()
        });
        let strategy = arb_schema();
        (0..count)
            .map(|_| strategy.new_tree(&mut runner).unwrap().current())
            .collect()
    }

    #[test]
    fn case_conventions_match_serde() {
        assert_eq!(Case::Camel.apply("order_id"), "orderId");
        assert_eq!(Case::Pascal.apply("order_id"), "OrderId");
        assert_eq!(Case::Kebab.apply("order_id"), "order-id");
        assert_eq!(Case::ScreamingSnake.apply("order_id"), "ORDER_ID");
        assert_eq!(Case::Snake.apply("DamagedItem"), "damaged_item");
        assert_eq!(Case::Camel.apply("DamagedItem"), "damagedItem");
    }

    proptest! {
        #[test]
        fn referenced_types_are_defined_and_defined_types_reached(schema in arb_schema()) {
            let mut refs = Vec::new();
            schema.root.push_names(&mut refs);
            for def in schema.types.values() {
                def.body.push_names(&mut refs);
            }
            for name in &refs {
                prop_assert!(schema.types.contains_key(name), "{name} is not defined");
            }
            let refs: BTreeSet<&String> = refs.iter().collect();
            for name in schema.types.keys() {
                prop_assert!(refs.contains(name), "{name} is unreachable");
            }
            if schema.contract.is_none() {
                prop_assert_eq!(schema.mode, Mode::Full);
            }
        }

        #[test]
        fn names_within_a_struct_or_enum_are_distinct(schema in arb_schema()) {
            fn check_struct(s: &StructDef) -> Result<(), TestCaseError> {
                let mut rust = HashSet::new();
                let mut sent = HashSet::new();
                let mut read = HashSet::new();
                for f in &s.fields {
                    prop_assert!(rust.insert(&f.rust_name));
                    if let Some(sender) = &f.sender {
                        prop_assert!(sent.insert(sender.name.clone()));
                    }
                    if let Some(r) = &f.receiver {
                        prop_assert!(read.insert(r.name.clone()));
                        for a in &r.aliases {
                            prop_assert!(read.insert(a.clone()));
                        }
                        if matches!(f.ty, Type::Option(_)) {
                            prop_assert!(!r.required);
                        }
                    }
                    prop_assert!(!matches!(&f.ty, Type::Option(inner) if matches!(**inner, Type::Option(_))));
                }
                prop_assert_eq!(s.extra.is_some(), s.unknown == Unknown::Capture);
                Ok(())
            }
            for def in schema.types.values() {
                match &def.body {
                    Body::Struct(s) => check_struct(s)?,
                    Body::Newtype(_) => {}
                    Body::Views { sender, receiver } => {
                        prop_assert!(sender != receiver, "two views that are one");
                    }
                    Body::Enum(e) => {
                        let mut names = HashSet::new();
                        for v in &e.variants {
                            prop_assert!(names.insert(&v.rust_name));
                            if v.other {
                                prop_assert!(e.is_string_enum());
                                prop_assert!(!v.receiver.is_empty());
                            }
                            if let VariantDefKind::Struct(s) = &v.kind {
                                check_struct(s)?;
                            }
                            if matches!(e.repr, Repr::Internal { .. }) {
                                prop_assert!(!matches!(v.kind, VariantDefKind::Tuple(_)));
                            }
                        }
                    }
                }
            }
        }
    }

    /// The generator reaches every kind of fact the model has, so properties over it
    /// exercise them all.
    ///
    /// The rarest kinds (an untagged variant of each tagged representation, an adjacent enum
    /// that denies unknown keys) occur in about 1 schema of 90: 400 schemas from a random seed
    /// missed one in about 1 run of 20, 800 hold each about 9 times (at least 3 in 30 random
    /// seeds), and the fixed seed of [`sample`] makes the run the same every time.
    #[test]
    fn generated_schemas_cover_the_model() {
        let mut seen: BTreeSet<&'static str> = BTreeSet::new();
        fn ty(t: &Type, seen: &mut BTreeSet<&'static str>) {
            seen.insert(match t {
                Type::Unit => "unit",
                Type::Bool => "bool",
                Type::Int(_) => "int",
                Type::Float(_) => "float",
                Type::Char => "char",
                Type::String(StringFormat::Plain) => "string",
                Type::String(_) => "formatted string",
                Type::Any => "any",
                Type::Option(_) => "option",
                Type::List(_) => "list",
                Type::Set(_) => "set",
                Type::Array(..) => "array",
                Type::Map(..) => "map",
                Type::Tuple(_) => "tuple",
                Type::Named(_) => "named",
                Type::Constrained(c) => match **c {
                    crate::model::Constraint::Int { .. } => "constrained int",
                    crate::model::Constraint::String(_) => "constrained string",
                },
            });
            match t {
                Type::Option(i) | Type::List(i) | Type::Set(i) | Type::Array(i, _) => ty(i, seen),
                Type::Map(k, v) => {
                    ty(k, seen);
                    ty(v, seen);
                }
                Type::Tuple(items) => items.iter().for_each(|i| ty(i, seen)),
                _ => {}
            }
        }
        fn fields(s: &StructDef, seen: &mut BTreeSet<&'static str>) {
            seen.insert(match s.unknown {
                Unknown::Ignore => "ignore",
                Unknown::Deny => "deny",
                Unknown::Capture => "capture",
            });
            for f in &s.fields {
                ty(&f.ty, seen);
                match &f.sender {
                    None => seen.insert("send never"),
                    Some(s) if s.emit == Emit::IfPresent => seen.insert("if-present"),
                    Some(_) => seen.insert("always"),
                };
                match &f.receiver {
                    None => seen.insert("receive never"),
                    Some(r) => {
                        if !r.aliases.is_empty() {
                            seen.insert("alias");
                        }
                        if Some(&r.name) != f.sender.as_ref().map(|s| &s.name) {
                            seen.insert("two names");
                        }
                        seen.insert(if r.required { "required" } else { "optional" })
                    }
                };
                if !f.renamed_from.is_empty() {
                    seen.insert("renamed-from");
                }
                if f.provenance == Provenance::Assumption {
                    seen.insert("assumption");
                }
                if f.rust_name.contains('.') {
                    seen.insert("flattened");
                }
            }
        }
        for schema in sample(800) {
            if schema.contract.is_some() {
                seen.insert("contract");
            }
            if schema.mode != Mode::Full {
                seen.insert("mode");
            }
            ty(&schema.root, &mut seen);
            for def in schema.types.values() {
                if !def.doc.is_empty() {
                    seen.insert("doc");
                }
                match &def.body {
                    Body::Struct(s) => fields(s, &mut seen),
                    Body::Newtype(t) => {
                        seen.insert("newtype");
                        ty(t, &mut seen);
                    }
                    Body::Views { sender, receiver } => {
                        seen.insert("views");
                        ty(sender, &mut seen);
                        ty(receiver, &mut seen);
                    }
                    Body::Enum(e) => {
                        seen.insert(match e.repr {
                            Repr::External => "external",
                            Repr::Internal { .. } => "internal",
                            Repr::Adjacent { .. } => "adjacent",
                            Repr::Untagged => "untagged",
                        });
                        if e.is_string_enum() {
                            seen.insert("string enum");
                        }
                        if e.catch_all().is_some() {
                            seen.insert("catch-all");
                        }
                        for v in e.untagged_variants() {
                            seen.insert(match e.repr {
                                Repr::External => "untagged variant of an external enum",
                                Repr::Internal { .. } => "untagged variant of an internal enum",
                                Repr::Adjacent { .. } => "untagged variant of an adjacent enum",
                                Repr::Untagged => "untagged variant of an untagged enum",
                            });
                            if v.sender.is_some() && !v.receiver.is_empty() {
                                seen.insert("untagged variant sent and read");
                            }
                        }
                        if e.denies_keys_beside_tags() {
                            seen.insert("enum denies unknown keys");
                        }
                        for v in &e.variants {
                            match &v.kind {
                                VariantDefKind::Unit => {}
                                VariantDefKind::Newtype(t) => ty(t, &mut seen),
                                VariantDefKind::Tuple(items) => {
                                    seen.insert("tuple variant");
                                    items.iter().for_each(|t| ty(t, &mut seen));
                                }
                                VariantDefKind::Struct(s) => {
                                    seen.insert("struct variant");
                                    fields(s, &mut seen);
                                }
                            }
                        }
                    }
                }
            }
            // Recursion: a type that reaches itself.
            for (name, def) in &schema.types {
                let mut refs = Vec::new();
                def.body.push_names(&mut refs);
                if refs.contains(name) {
                    seen.insert("recursion");
                }
            }
        }
        let expected = [
            "unit",
            "bool",
            "int",
            "float",
            "char",
            "string",
            "formatted string",
            "constrained int",
            "constrained string",
            "any",
            "option",
            "list",
            "set",
            "array",
            "map",
            "tuple",
            "named",
            "ignore",
            "deny",
            "capture",
            "send never",
            "if-present",
            "always",
            "receive never",
            "alias",
            "two names",
            "required",
            "optional",
            "renamed-from",
            "assumption",
            "flattened",
            "contract",
            "mode",
            "doc",
            "newtype",
            "views",
            "external",
            "internal",
            "adjacent",
            "untagged",
            "untagged variant of an external enum",
            "untagged variant of an internal enum",
            "untagged variant of an adjacent enum",
            "untagged variant sent and read",
            "string enum",
            "catch-all",
            "enum denies unknown keys",
            "tuple variant",
            "struct variant",
            "recursion",
        ];
        let missing: Vec<&str> = expected
            .iter()
            .copied()
            .filter(|e| !seen.contains(e))
            .collect();
        assert!(missing.is_empty(), "never generated: {missing:?}");
    }
}
