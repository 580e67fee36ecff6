//! Laws of the compatibility engine over generated schemas (`contract_schema::arbitrary`):
//! a consistent schema is compatible with itself, and every single-step mutation of a
//! generated struct is classified as the rule catalogue says, in each direction.

use std::cell::RefCell;
use std::collections::BTreeMap;

use contract_schema::arbitrary::{arb_int_kind, arb_schema};
use contract_schema::compat::{check, evolve, CompatReport, Mode};
use contract_schema::model::{
    Body, Emit, FieldDef, IntRange, IntValue, Repr, Schema, Type, Unknown, VariantDefKind,
};
use contract_schema::shape::{FloatKind, IntKind, Provenance, StringFormat};
use proptest::prelude::*;
use proptest::sample::Index;
use proptest::test_runner::{Config, TestCaseError, TestRunner};

mod common;

use common::{consistent, rename, root_struct, rooted};

fn ids(report: &CompatReport) -> Vec<&'static str> {
    report.findings().iter().map(|f| f.rule.id()).collect()
}

fn backward(old: &Schema, new: &Schema) -> Vec<&'static str> {
    ids(&evolve(old, new, Mode::Backward))
}

fn forward(old: &Schema, new: &Schema) -> Vec<&'static str> {
    ids(&evolve(old, new, Mode::Forward))
}

/// The rules a value sent to a capturing reader may break (the key reads into its map).
const CAPTURE_FORWARD: &[&str] = &[
    "TYPE_CHANGED",
    "STRING_FORMAT_CHANGED",
    "CHAR_BECAME_STRING",
    "NON_NULLABLE_BECAME_NULLABLE",
    "INT_WIDENED",
    "CONSTRAINT_WIDENED",
    "INTEGER_BECAME_FLOAT",
    "ENUM_VALUE_ADDED",
    "ENUM_VARIANT_ADDED",
    "ENUM_REPR_CHANGED",
    "ENUM_TAG_CHANGED",
    "UNTAGGED_VARIANT_UNMATCHED",
    "FIELD_REMOVED",
    "FIELD_BECAME_OMITTABLE",
    "FIELD_RENAMED",
    "FIELD_LIKELY_RENAMED",
    "FIELD_RENAMED_WITHOUT_ALIAS",
    "UNKNOWN_FIELD_DENIED",
    "PROVENANCE_WEAKENED",
];

const CAPTURE_BACKWARD: &[&str] = &[
    "TYPE_CHANGED",
    "STRING_FORMAT_CHANGED",
    "STRING_BECAME_CHAR",
    "NULLABLE_BECAME_NON_NULLABLE",
    "INT_NARROWED",
    "CONSTRAINT_NARROWED",
    "FLOAT_BECAME_INTEGER",
    "ENUM_VALUE_REMOVED",
    "ENUM_VARIANT_REMOVED",
    "ENUM_REPR_CHANGED",
    "ENUM_TAG_CHANGED",
    "UNTAGGED_VARIANT_UNMATCHED",
    "FIELD_ADDED_REQUIRED",
    "FIELD_BECAME_REQUIRED",
    "FIELD_RENAMED",
    "FIELD_LIKELY_RENAMED",
    "FIELD_RENAMED_WITHOUT_ALIAS",
    "UNKNOWN_FIELD_DENIED",
    "PROVENANCE_WEAKENED",
];

/// What a reader with this unknown-field policy makes of one field it does not know.
fn unknown_field(
    found: &[&'static str],
    unknown: Unknown,
    capture_rules: &[&str],
) -> Result<(), TestCaseError> {
    match unknown {
        Unknown::Ignore => prop_assert!(found.is_empty(), "{found:?}"),
        Unknown::Deny => prop_assert_eq!(found, ["UNKNOWN_FIELD_DENIED"]),
        Unknown::Capture => prop_assert!(
            found.iter().all(|id| capture_rules.contains(id)),
            "{found:?}"
        ),
    }
    Ok(())
}

/// Counts how often each mutation was applied, so that a generator that stops producing
/// applicable cases fails the test instead of passing vacuously.
#[derive(Default)]
struct Applied(RefCell<BTreeMap<&'static str, usize>>);

impl Applied {
    fn hit(&self, name: &'static str) {
        *self.0.borrow_mut().entry(name).or_default() += 1;
    }

    /// Fails unless each mutation of `kinds` was applied at least 10 times.
    fn assert_each_applied(self, kinds: &[&str]) {
        let counts = self.0.into_inner();
        println!("mutations applied: {counts:?}");
        for kind in kinds {
            let n = counts.get(kind).copied().unwrap_or(0);
            assert!(
                n >= 10,
                "mutation `{kind}` applied only {n} times: {counts:?}"
            );
        }
    }
}

fn runner(cases: u32) -> TestRunner {
    TestRunner::new(Config {
        cases,
        failure_persistence: None,
        ..Config::default()
    })
}

#[test]
fn a_consistent_schema_is_compatible_with_itself() {
    let mut runner = runner(512);
    runner
        .run(&arb_schema(), |schema| {
            let s = consistent(schema);
            let report = check(&s, &s);
            prop_assert!(report.findings().is_empty(), "{}", report);
            prop_assert!(evolve(&s, &s, Mode::Full).findings().is_empty());
            Ok(())
        })
        .unwrap();
}

#[test]
fn single_step_mutations_are_classified_by_the_catalogue() {
    let applied = Applied::default();
    let strategy = (
        arb_schema(),
        any::<Index>(),
        any::<Index>(),
        (arb_int_kind(), arb_int_kind()),
    );
    let mut runner = runner(768);
    runner
        .run(
            &strategy,
            |(schema, pick_struct, pick_field, (int_from, int_to))| {
                let structs: Vec<String> = schema
                    .types
                    .iter()
                    .filter(|(_, d)| matches!(d.body, Body::Struct(_)))
                    .map(|(n, _)| n.clone())
                    .collect();
                if structs.is_empty() {
                    return Ok(());
                }
                let name = pick_struct.get(&structs);
                let mut base = rooted(&schema, name);
                let unknown = root_struct(&mut base).unknown;
                let sent: Vec<usize> = root_struct(&mut base)
                    .fields
                    .iter()
                    .enumerate()
                    .filter(|(_, f)| f.sender.is_some())
                    .map(|(i, _)| i)
                    .collect();

                // Adding a required field breaks old writers only.
                let mut new = base.clone();
                root_struct(&mut new).fields.push(FieldDef::plain(
                    "zzAdded",
                    Type::String(StringFormat::Plain),
                ));
                prop_assert_eq!(backward(&base, &new), ["FIELD_ADDED_REQUIRED"]);
                unknown_field(&forward(&base, &new), unknown, CAPTURE_FORWARD)?;
                applied.hit("add required");

                // Adding an optional field breaks only old readers that deny it.
                let mut new = base.clone();
                root_struct(&mut new).fields.push(FieldDef::plain(
                    "zzAdded",
                    Type::Option(Box::new(Type::Bool)),
                ));
                prop_assert!(backward(&base, &new).is_empty());
                unknown_field(&forward(&base, &new), unknown, CAPTURE_FORWARD)?;
                applied.hit("add optional");

                let Some(&i) = sent.get(pick_field.index(sent.len().max(1))) else {
                    return Ok(());
                };
                let field = root_struct(&mut base).fields[i].clone();
                let required = field.receiver.as_ref().is_some_and(|r| r.required);

                // Removing a field breaks old readers that required it, and new readers that
                // deny the key old writers still send.
                let mut new = base.clone();
                root_struct(&mut new).fields.remove(i);
                let fw = forward(&base, &new);
                if required {
                    prop_assert_eq!(fw, ["FIELD_REMOVED"]);
                } else {
                    prop_assert!(fw.is_empty(), "{fw:?}");
                }
                unknown_field(&backward(&base, &new), unknown, CAPTURE_BACKWARD)?;
                applied.hit("remove");

                // Changing an integer's width: narrowed breaks backward, widened forward.
                {
                    let mut old = base.clone();
                    root_struct(&mut old).fields[i].ty = Type::Int(int_from);
                    let mut new = old.clone();
                    root_struct(&mut new).fields[i].ty = Type::Int(int_to);
                    let expect =
                        |ok: bool, rule: &'static str| if ok { vec![] } else { vec![rule] };
                    prop_assert_eq!(
                        backward(&old, &new),
                        expect(int_from.fits_in(int_to), "INT_NARROWED")
                    );
                    prop_assert_eq!(
                        forward(&old, &new),
                        expect(int_to.fits_in(int_from), "INT_WIDENED")
                    );
                    applied.hit("int width");

                    // Restricting the integers to the positive ones of a kind: within the
                    // writer's kind a constraint narrowed, beyond it a range; the positive
                    // values fit the old reader when the new kind's largest does.
                    let mut new = old.clone();
                    root_struct(&mut new).fields[i].ty = Type::int_in(
                        int_to,
                        [IntRange::new(
                            IntValue::from_i128(1),
                            IntValue::max_of(int_to),
                        )],
                    );
                    let narrowed = if int_from.fits_in(int_to) {
                        "CONSTRAINT_NARROWED"
                    } else {
                        "INT_NARROWED"
                    };
                    prop_assert_eq!(backward(&old, &new), [narrowed]);
                    prop_assert_eq!(
                        forward(&old, &new),
                        expect(int_to.max() <= int_from.max(), "INT_WIDENED")
                    );
                    // The same restriction on both sides is no change; removing it breaks
                    // old readers only.
                    prop_assert!(evolve(&new, &new, Mode::Full).findings().is_empty());
                    let mut plain = new.clone();
                    root_struct(&mut plain).fields[i].ty = Type::Int(int_to);
                    prop_assert!(backward(&new, &plain).is_empty());
                    prop_assert_eq!(forward(&new, &plain), ["CONSTRAINT_WIDENED"]);
                    applied.hit("int constraint");

                    // An integer replaced by a float: fine for new readers, not for old ones.
                    let mut new = old.clone();
                    root_struct(&mut new).fields[i].ty = Type::Float(FloatKind::F64);
                    prop_assert!(backward(&old, &new).is_empty());
                    prop_assert_eq!(forward(&old, &new), ["INTEGER_BECAME_FLOAT"]);
                    prop_assert_eq!(backward(&new, &old), ["FLOAT_BECAME_INTEGER"]);

                    // An integer replaced by something unrelated breaks both ways.
                    let mut new = old.clone();
                    root_struct(&mut new).fields[i].ty = Type::Bool;
                    prop_assert_eq!(backward(&old, &new), ["TYPE_CHANGED"]);
                    prop_assert_eq!(forward(&old, &new), ["TYPE_CHANGED"]);
                    applied.hit("type");
                }

                // Making a non-nullable field nullable breaks old readers only.
                if !base.resolve(&field.ty).is_nullable() {
                    let mut new = base.clone();
                    let f = &mut root_struct(&mut new).fields[i];
                    f.ty = Type::Option(Box::new(f.ty.clone()));
                    if let Some(r) = &mut f.receiver {
                        r.required = false;
                    }
                    prop_assert!(backward(&base, &new).is_empty());
                    prop_assert_eq!(forward(&base, &new), ["NON_NULLABLE_BECAME_NULLABLE"]);
                    // ... and the reverse breaks new readers only.
                    prop_assert!(forward(&new, &base).is_empty());
                    prop_assert_eq!(backward(&new, &base), ["NULLABLE_BECAME_NON_NULLABLE"]);
                    applied.hit("nullable");
                }

                // Weakening provenance breaks old readers that rely on it being confirmed.
                if field.provenance == Provenance::Confirmed {
                    let mut new = base.clone();
                    root_struct(&mut new).fields[i].provenance = Provenance::Assumption;
                    prop_assert!(backward(&base, &new).is_empty());
                    prop_assert_eq!(forward(&base, &new), ["PROVENANCE_WEAKENED"]);
                    applied.hit("provenance");
                }

                let always = field
                    .sender
                    .as_ref()
                    .is_some_and(|s| s.emit == Emit::Always);
                if required && always {
                    let old_name = field.sender.as_ref().map(|s| s.name.clone()).unwrap();

                    // An undeclared rename is reported as a likely rename, both ways.
                    let mut new = base.clone();
                    rename(&mut root_struct(&mut new).fields[i], "zzRenamed");
                    prop_assert_eq!(backward(&base, &new), ["FIELD_LIKELY_RENAMED"]);
                    prop_assert_eq!(forward(&base, &new), ["FIELD_LIKELY_RENAMED"]);

                    // Declared without an alias: new readers miss the old name, old readers
                    // the new one.
                    root_struct(&mut new).fields[i]
                        .renamed_from
                        .push(old_name.clone());
                    prop_assert_eq!(backward(&base, &new), ["FIELD_RENAMED_WITHOUT_ALIAS"]);
                    prop_assert_eq!(forward(&base, &new), ["FIELD_RENAMED"]);

                    // Declared with the alias: new readers read old writers.
                    if let Some(r) = &mut root_struct(&mut new).fields[i].receiver {
                        r.aliases.push(old_name);
                    }
                    prop_assert!(backward(&base, &new).is_empty());
                    prop_assert_eq!(forward(&base, &new), ["FIELD_RENAMED"]);
                    applied.hit("rename");
                }

                Ok(())
            },
        )
        .unwrap();
    applied.assert_each_applied(&[
        "add required",
        "add optional",
        "remove",
        "int width",
        "int constraint",
        "nullable",
        "provenance",
        "rename",
        "type",
    ]);
}

/// The (rule id, path) of every finding of a mode.
fn located(old: &Schema, new: &Schema, mode: Mode) -> Vec<(&'static str, String)> {
    evolve(old, new, mode)
        .findings()
        .iter()
        .map(|f| (f.rule.id(), f.path.clone()))
        .collect()
}

#[test]
fn single_step_flattened_enum_mutations_are_classified_by_the_catalogue() {
    let applied = Applied::default();
    let mut runner = runner(1024);
    runner
        .run(&(arb_schema(), any::<Index>(), any::<Index>()), |(schema, pick_struct, pick_flat)| {
            let structs: Vec<String> = schema
                .types
                .iter()
                .filter(|(_, d)| matches!(&d.body, Body::Struct(s) if s.flattened.iter().any(|f| f.sent)))
                .map(|(n, _)| n.clone())
                .collect();
            if structs.is_empty() {
                return Ok(());
            }
            let name = pick_struct.get(&structs);
            let mut base = rooted(&schema, name);
            let unknown = root_struct(&mut base).unknown;
            let sent: Vec<usize> = root_struct(&mut base)
                .flattened
                .iter()
                .enumerate()
                .filter(|(_, f)| f.sent)
                .map(|(i, _)| i)
                .collect();
            let i = *pick_flat.get(&sent);
            let flat = root_struct(&mut base).flattened[i].clone();
            let at = vec![(String::new(), format!("(flatten {})", flat.rust_name))];
            let (e, optional) = base.flat_enum(&flat.ty).expect("a flattened enum");
            let e = e.clone();
            let path_of = |found: &[(&'static str, String)]| {
                found.iter().map(|(_, p)| (String::new(), p.clone())).collect::<Vec<_>>()
            };

            // Removing it breaks old readers that require it, and new readers that deny
            // its keys.
            let mut new = base.clone();
            root_struct(&mut new).flattened.remove(i);
            let fw = located(&base, &new, Mode::Forward);
            if optional {
                prop_assert!(fw.is_empty(), "{fw:?}");
            } else {
                prop_assert_eq!(fw.iter().map(|(id, _)| *id).collect::<Vec<_>>(), ["FIELD_REMOVED"]);
                prop_assert_eq!(path_of(&fw), at.clone());
            }
            let bw = located(&base, &new, Mode::Backward);
            match unknown {
                Unknown::Deny => {
                    prop_assert_eq!(bw.iter().map(|(id, _)| *id).collect::<Vec<_>>(), ["UNKNOWN_FIELD_DENIED"]);
                    prop_assert_eq!(path_of(&bw), at.clone());
                }
                _ => prop_assert!(bw.is_empty(), "{bw:?}"),
            }
            applied.hit("remove");

            // Making it optional breaks old readers only; the reverse new readers only.
            if !optional {
                let mut new = base.clone();
                let f = &mut root_struct(&mut new).flattened[i];
                f.ty = Type::Option(Box::new(f.ty.clone()));
                prop_assert!(backward(&base, &new).is_empty());
                let fw = located(&base, &new, Mode::Forward);
                prop_assert_eq!(fw.iter().map(|(id, _)| *id).collect::<Vec<_>>(), ["FIELD_BECAME_OMITTABLE"]);
                prop_assert_eq!(path_of(&fw), at.clone());
                prop_assert!(forward(&new, &base).is_empty());
                prop_assert_eq!(backward(&new, &base), ["FIELD_BECAME_REQUIRED"]);
                applied.hit("optional");
            }

            // The enum's definition is compared like a named type reached from a field.
            // The enum's name, through newtypes and the `Option`.
            let mut ty = &flat.ty;
            let enum_name = loop {
                match base.resolve(ty) {
                    Type::Option(inner) => ty = inner,
                    Type::Named(n) => break n.clone(),
                    other => panic!("a flattened `{other}`"),
                }
            };
            prop_assert!(
                matches!(base.def(&enum_name).map(|d| &d.body), Some(Body::Enum(_))),
                "`{}` is the enum",
                enum_name
            );
            let set_enum = |schema: &mut Schema, def: contract_schema::model::EnumDef| {
                if let Some(Body::Enum(e)) = schema.types.get_mut(&enum_name).map(|d| &mut d.body) {
                    *e = def;
                }
            };

            // Another representation breaks both ways.
            let mut other = e.clone();
            other.repr = match e.repr {
                Repr::External => Repr::Adjacent {
                    tag: "zzTag".to_owned(),
                    content: "zzContent".to_owned(),
                },
                _ => Repr::External,
            };
            let mut new = base.clone();
            set_enum(&mut new, other);
            // Unless no tagged variant is sent: then no tag is on the wire, only untagged
            // values (or nothing), which the same untagged variants read either way.
            let expected: &[&str] = if e.tagged_variants().all(|v| v.sender.is_none()) {
                &[]
            } else {
                &["ENUM_REPR_CHANGED"]
            };
            prop_assert_eq!(backward(&base, &new), expected);
            // An untagged reader of the externally tagged form: each variant is an object of
            // one key (a unit variant a string), which a struct variant that reads any object
            // (none of its fields required, unknown keys not denied) or a newtype variant may
            // read; the values are then compared, and may all be read.
            let may_read_tagged = e.repr == Repr::Untagged
                && e.variants.iter().any(|v| {
                    !v.receiver.is_empty()
                        && match &v.kind {
                            VariantDefKind::Struct(s) => {
                                s.unknown != Unknown::Deny
                                    && s.fields
                                        .iter()
                                        .all(|f| f.receiver.as_ref().is_none_or(|r| !r.required))
                            }
                            VariantDefKind::Newtype(_) => true,
                            VariantDefKind::Unit | VariantDefKind::Tuple(_) => false,
                        }
                });
            let found = forward(&base, &new);
            if may_read_tagged && expected == ["ENUM_REPR_CHANGED"] {
                prop_assert!(found.is_empty() || found == expected, "{found:?}");
            } else {
                prop_assert_eq!(found, expected);
            }
            applied.hit("repr");

            // A tagged variant removed breaks new readers only.
            let sent_variants: Vec<usize> = e
                .variants
                .iter()
                .enumerate()
                .filter(|(_, v)| v.sender.is_some() && !v.untagged)
                .map(|(j, _)| j)
                .collect();
            if e.repr != Repr::Untagged
                && e.catch_all().is_none()
                && !e.has_untagged_variants()
                && sent_variants.len() >= 2
            {
                let mut fewer = e.clone();
                fewer.variants.remove(sent_variants[0]);
                let rule = if e.is_string_enum() && fewer.is_string_enum() {
                    "ENUM_VALUE_REMOVED"
                } else {
                    "ENUM_VARIANT_REMOVED"
                };
                let mut new = base.clone();
                set_enum(&mut new, fewer);
                prop_assert_eq!(backward(&base, &new), [rule]);
                prop_assert!(forward(&base, &new).is_empty());
                applied.hit("variant removed");
            }
            Ok(())
        })
        .unwrap();
    applied.assert_each_applied(&["remove", "optional", "repr", "variant removed"]);
}

#[test]
fn integer_fit_is_exactly_range_inclusion() {
    for a in IntKind::ALL {
        for b in IntKind::ALL {
            let s = |k| Schema {
                contract: None,
                mode: Mode::Full,
                allowances: Default::default(),
                root: Type::Int(k),
                types: BTreeMap::new(),
            };
            let fits = a.min() >= b.min() && a.max() <= b.max();
            assert_eq!(
                check(&s(a), &s(b)).is_compatible(),
                fits,
                "{a:?} into {b:?}"
            );
        }
    }
}

/// Whether one of the enum's untagged variants (of a tagged enum) reads any value: it
/// then reads every tagged variant the reader does not know.
fn reads_any_value(schema: &Schema, e: &contract_schema::model::EnumDef) -> bool {
    e.untagged_variants().any(|v| {
        !v.receiver.is_empty()
            && matches!(&v.kind, contract_schema::model::VariantDefKind::Newtype(t) if *schema.resolve(t) == Type::Any)
    })
}

fn root_enum(schema: &mut Schema) -> &mut contract_schema::model::EnumDef {
    let Type::Named(name) = &schema.root else {
        panic!("the root is a named enum")
    };
    match schema.types.get_mut(name).map(|d| &mut d.body) {
        Some(Body::Enum(e)) => e,
        _ => panic!("the root is a named enum"),
    }
}

/// Whether the tagged variant `v` of `e`, an enum of `schema`, writes a value: it is sent,
/// and it is not a newtype of an enum that sends no variant, nor, internally tagged, a
/// newtype of an `Option` (serde writes no `Option` beside a tag).
fn writes_a_value(
    schema: &Schema,
    e: &contract_schema::model::EnumDef,
    v: &contract_schema::model::VariantDef,
) -> bool {
    let empty = |t: &Type| match schema.resolve(t) {
        Type::Named(n) => matches!(schema.def(n).map(|d| &d.body),
            Some(Body::Enum(inner)) if inner.variants.iter().all(|v| v.sender.is_none())),
        _ => false,
    };
    v.sender.is_some()
        && !matches!(&v.kind, VariantDefKind::Newtype(t)
            if empty(t)
                || (matches!(e.repr, contract_schema::model::Repr::Internal { .. })
                    && matches!(schema.resolve(t), Type::Option(_))))
}

#[test]
fn single_step_enum_mutations_are_classified_by_the_catalogue() {
    use contract_schema::model::{Repr, VariantDef, VariantDefKind};
    let applied = Applied::default();
    let strategy = (arb_schema(), any::<Index>(), any::<Index>());
    let mut runner = runner(768);
    runner
        .run(&strategy, |(schema, pick_enum, pick_variant)| {
            let enums: Vec<String> = schema
                .types
                .iter()
                .filter(|(_, d)| matches!(&d.body, Body::Enum(e) if e.repr != Repr::Untagged))
                .map(|(n, _)| n.clone())
                .collect();
            if enums.is_empty() {
                return Ok(());
            }
            let name: &String = pick_enum.get(&enums);
            let mut base = rooted(&schema, name);
            let e = root_enum(&mut base).clone();
            let string_enum = e.is_string_enum();
            let (added, removed) = if string_enum {
                ("ENUM_VALUE_ADDED", "ENUM_VALUE_REMOVED")
            } else {
                ("ENUM_VARIANT_ADDED", "ENUM_VARIANT_REMOVED")
            };

            // A unit variant added (before the untagged ones, as serde requires): old readers
            // without a catch-all, or an untagged variant reading any value, reject it.
            let mut new = base.clone();
            let at = e
                .variants
                .iter()
                .position(|v| v.untagged)
                .unwrap_or(e.variants.len());
            let catches = e.catch_all().is_some() || reads_any_value(&base, &e);
            root_enum(&mut new).variants.insert(
                at,
                VariantDef {
                    rust_name: "ZzNew".to_owned(),
                    sender: Some("ZzNew".to_owned()),
                    receiver: vec!["ZzNew".to_owned()],
                    other: false,
                    untagged: false,
                    kind: VariantDefKind::Unit,
                    doc: String::new(),
                },
            );
            prop_assert!(backward(&base, &new).is_empty());
            let fw = forward(&base, &new);
            if catches {
                prop_assert!(fw.is_empty(), "{fw:?}");
            } else if e.has_untagged_variants() {
                // An untagged variant may read the new tagged form (`compat_rules.rs` pins
                // which; `compat_soundness.rs` checks every such verdict on the wire).
                prop_assert!(fw.is_empty() || fw == [added], "{fw:?}");
            } else {
                prop_assert_eq!(fw, [added]);
            }
            applied.hit("variant added");

            // A sent variant removed: new readers reject what old writers send.
            let sent: Vec<usize> = e
                .variants
                .iter()
                .enumerate()
                .filter(|(_, v)| writes_a_value(&base, &e, v) && !v.other && !v.untagged)
                .map(|(i, _)| i)
                .collect();
            if let Some(&i) = sent.get(pick_variant.index(sent.len().max(1))) {
                let mut new = base.clone();
                let gone = root_enum(&mut new).variants.remove(i);
                let caught = (e.catch_all().is_some()
                    && (matches!(gone.kind, VariantDefKind::Unit)
                        || matches!(e.repr, Repr::Internal { .. })))
                    || reads_any_value(&base, &e);
                let bw = backward(&base, &new);
                if caught {
                    prop_assert!(bw.is_empty(), "{bw:?}");
                } else if e.has_untagged_variants() {
                    prop_assert!(bw.is_empty() || bw == [removed], "{bw:?}");
                } else {
                    prop_assert_eq!(bw, [removed]);
                }
                prop_assert!(forward(&base, &new).is_empty());
                applied.hit("variant removed");
            }

            // The representation or its tag changed: nothing reads across.
            let mut new = base.clone();
            let expected = match &e.repr {
                Repr::Internal { tag } => {
                    root_enum(&mut new).repr = Repr::Internal {
                        tag: format!("{tag}Zz"),
                    };
                    "ENUM_TAG_CHANGED"
                }
                _ => {
                    root_enum(&mut new).repr = Repr::Internal {
                        tag: "zz".to_owned(),
                    };
                    "ENUM_REPR_CHANGED"
                }
            };
            // Unless the writer sends no tagged variant: then no tag is on the wire (see
            // above).
            let sends_tagged = |writer: &Schema| {
                let Some(Body::Enum(w)) = writer.def(name).map(|d| &d.body) else {
                    return false;
                };
                w.tagged_variants().any(|v| writes_a_value(writer, w, v))
            };
            let expected_from = |writer: &Schema| -> Vec<&str> {
                if sends_tagged(writer) {
                    vec![expected]
                } else {
                    Vec::new()
                }
            };
            prop_assert_eq!(backward(&base, &new), expected_from(&base));
            prop_assert_eq!(forward(&base, &new), expected_from(&new));
            applied.hit("repr");

            // The enum's `deny_unknown_fields` toggled (its struct variants' own policy
            // kept): with one representation a writer sends no key beside the tag and the
            // content, so no reader rejects one.
            let mut new = base.clone();
            let deny = &mut root_enum(&mut new).deny_unknown_fields;
            *deny = !*deny;
            prop_assert!(backward(&base, &new).is_empty());
            prop_assert!(forward(&base, &new).is_empty());
            applied.hit("enum deny toggled");
            Ok(())
        })
        .unwrap();
    applied.assert_each_applied(&[
        "variant added",
        "variant removed",
        "repr",
        "enum deny toggled",
    ]);
}
