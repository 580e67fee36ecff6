//! Differential fidelity of the exported JSON Schema against serde itself.
//!
//! For every test type: instances generated from its receiver view (see
//! `contract_tests::strategies`) must validate against the receiver schema and deserialize
//! with `serde_json::from_value::<T>`; re-serializing the value must validate against the
//! sender schema and the receiver schema; and mutations of each instance (a field removed,
//! renamed, retyped, nulled, duplicated through an alias, an unknown field added, a tag
//! retyped) must be judged by the receiver schema exactly as serde judges them, apart from the
//! documented points where the schema is stricter or looser (module docs of
//! `contract_schema::json_schema`), each of which is counted here and pinned in
//! `tests/strictness.rs`.
//!
//! The runtime is judged on the same instances: `receive::<T>` must accept every generated
//! instance, `send` must accept what serde writes, and on every mutation `receive` must agree
//! with `serde_json::from_slice::<T>` apart from the documented points where it is stricter
//! (module docs of `contract_core::runtime`, the same list), never looser.

use std::collections::BTreeMap;

use std::fmt::Debug;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use contract_core::schema::model::{Body, Constraint, Emit, Repr, Type, Unknown, VariantDefKind};
use contract_core::{json_schema, receive, send, HandoffSchema, ProblemKind, Schema, View};
use contract_tests::mutations::{field_at, site_mutations, site_object, value_mut, Mutation};
use contract_tests::strategies::{
    receiver_instances, wrong_values, Instance, Place, Site, Slot, SplitMix, Step, WrongValue,
};
use contract_tests::types::*;
use jsonschema::Validator;
use proptest::test_runner::{Config, TestCaseError, TestRunner};
use serde::de::DeserializeOwned;
use serde::Deserialize;
use serde::Serialize;
use serde_json::{json, Value};

mod both_ways;
#[path = "fidelity/serde_impls.rs"]
mod serde_impls;

/// Instances checked against a schema, over the tests of this file that have finished.
static TOTAL: AtomicUsize = AtomicUsize::new(0);
/// How often each documented point explained a disagreement.
static EXPLAINED: Mutex<BTreeMap<&'static str, usize>> = Mutex::new(BTreeMap::new());

/// Generated instances per type; `FIDELITY_CASES` overrides it for a longer run.
const CASES: u32 = 256;

fn cases() -> u32 {
    std::env::var("FIDELITY_CASES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(CASES)
}

struct Harness<T> {
    schema: Arc<Schema>,
    sender: Validator,
    receiver: Validator,
    /// Instances this harness checked against a schema.
    checked: AtomicUsize,
    /// Mutations judged, by what they change (a struct object, or the kind of a wrong value
    /// of the same JSON type) and by where a wrong value sits.
    tried: Mutex<BTreeMap<String, usize>>,
    /// Disagreements of this harness that a documented point explained.
    explained: AtomicUsize,
    _type: std::marker::PhantomData<fn() -> T>,
}

/// The validator of an exported schema; `format` is validated, not only annotated (2020-12
/// annotates unless told otherwise), so a wrong format in the export is caught.
fn validator(schema: &Value) -> Validator {
    jsonschema::draft202012::meta::validate(schema).expect("the export is a valid 2020-12 schema");
    jsonschema::draft202012::options()
        .should_validate_formats(true)
        .build(schema)
        .expect("the export compiles")
}

impl<T: Serialize + DeserializeOwned + HandoffSchema + Debug + 'static> Harness<T> {
    fn new() -> Self {
        Harness {
            schema: Arc::new(T::schema()),
            sender: validator(&json_schema::<T>(View::Sender)),
            receiver: validator(&json_schema::<T>(View::Receiver)),
            checked: AtomicUsize::new(0),
            tried: Mutex::new(BTreeMap::new()),
            explained: AtomicUsize::new(0),
            _type: std::marker::PhantomData,
        }
    }

    fn serde_accepts(value: &Value) -> bool {
        serde_json::from_value::<T>(value.clone()).is_ok()
    }

    fn receiver_accepts(&self, value: &Value) -> bool {
        self.checked.fetch_add(1, Ordering::Relaxed);
        self.receiver.is_valid(value)
    }

    /// `receive`'s verdict on the bytes of `value`, checked against serde's: never looser.
    fn receive_accepts(value: &Value) -> Result<bool, TestCaseError> {
        let bytes = serde_json::to_vec(value).map_err(|e| TestCaseError::fail(e.to_string()))?;
        let received = receive::<T>(&bytes);
        let serde = serde_json::from_slice::<T>(&bytes);
        match (&received, &serde) {
            (Ok(_), Err(e)) => {
                return Err(TestCaseError::fail(format!(
                    "receive accepts {value} but serde rejects it: {e}"
                )))
            }
            // The same value as serde's, compared by what serde writes of each (arrays as
            // multisets: a `HashSet` writes its items in an order of its own).
            (Ok(ours), Ok(theirs)) => {
                let ours = serde_json::to_value(ours.value()).ok().map(unordered);
                let theirs = serde_json::to_value(theirs).ok().map(unordered);
                if ours != theirs {
                    return Err(TestCaseError::fail(format!(
                        "receive reads {value} as {ours:?}, serde as {theirs:?}"
                    )));
                }
            }
            _ => {}
        }
        Ok(received.is_ok())
    }

    /// Instances this harness checked against a schema so far.
    fn checked(&self) -> usize {
        self.checked.load(Ordering::Relaxed)
    }

    fn sender_accepts(&self, value: &Value) -> bool {
        self.checked.fetch_add(1, Ordering::Relaxed);
        self.sender.is_valid(value)
    }

    fn run(&self, name: &str) {
        let mut runner = TestRunner::new(Config {
            cases: cases(),
            failure_persistence: None,
            ..Config::default()
        });
        let result = runner.run(&receiver_instances(self.schema.clone()), |instance| {
            self.check(&instance)
        });
        if let Err(e) = result {
            panic!("{name}: {e}");
        }
    }

    fn check(&self, instance: &Instance) -> Result<(), TestCaseError> {
        let value = &instance.value;
        let receiver_errors: Vec<String> = self
            .receiver
            .iter_errors(value)
            .map(|e| format!("{} at {}", e, e.instance_path()))
            .collect();
        self.checked.fetch_add(1, Ordering::Relaxed);
        if !receiver_errors.is_empty() {
            return Err(TestCaseError::fail(format!(
                "the receiver schema rejects a generated instance {value}: {receiver_errors:?}"
            )));
        }
        let decoded: T = serde_json::from_value(value.clone()).map_err(|e| {
            TestCaseError::fail(format!(
                "the receiver schema accepts {value} but serde rejects it: {e}"
            ))
        })?;
        if !Self::receive_accepts(value)? {
            let bytes = serde_json::to_vec(value).unwrap_or_default();
            let rejection = receive::<T>(&bytes).err().map(|r| r.to_string());
            return Err(TestCaseError::fail(format!(
                "receive rejects a generated instance {value}: {rejection:?}"
            )));
        }
        let sent = match serde_json::to_value(&decoded) {
            Ok(sent) => sent,
            // A variant read but never written (`skip_serializing`, or an internally tagged
            // newtype variant of an `Option`): serde refuses to write it, and the sender view
            // has no such variant (pinned in `unwritable_internal_newtypes_are_not_sent`).
            Err(e)
                if e.to_string().contains("cannot be serialized")
                    || e.to_string().contains("containing an optional") =>
            {
                return self.mutations(instance);
            }
            Err(e) => {
                return Err(TestCaseError::fail(format!(
                    "serde cannot write {decoded:?}: {e}"
                )))
            }
        };
        if let Err(rejection) = send(&decoded) {
            // serde writes a key twice when two fields (or a field and a flattened one) share
            // a name; no receiver reads that back, and `send` says so.
            let duplicates_only = rejection
                .problems()
                .iter()
                .all(|p| matches!(p.kind, ProblemKind::DuplicateKey { .. }));
            if !duplicates_only {
                return Err(TestCaseError::fail(format!(
                    "send rejects what serde writes, {sent}: {rejection}"
                )));
            }
        }
        if !self.sender_accepts(&sent) {
            let errors: Vec<String> = self
                .sender
                .iter_errors(&sent)
                .map(|e| format!("{} at {}", e, e.instance_path()))
                .collect();
            return Err(TestCaseError::fail(format!(
                "the sender schema rejects what serde writes, {sent}: {errors:?}"
            )));
        }
        // The receiver of the same type reads it back exactly when serde does (it does not
        // when serialize and deserialize names differ, or a field is skipped one way).
        let serde = Self::serde_accepts(&sent);
        if self.receiver_accepts(&sent) != serde {
            return Err(TestCaseError::fail(format!(
                "what serde writes, {sent}, is read back by serde: {serde}, by the receiver schema: {}",
                !serde
            )));
        }
        self.mutations(instance)
    }

    /// Mutates up to `SITES` struct objects of the instance (every one when fewer), every key
    /// of each.
    fn mutations(&self, instance: &Instance) -> Result<(), TestCaseError> {
        let seed = instance.value.to_string().len() as u64 ^ instance.sites.len() as u64;
        let mut rng = SplitMix(seed.wrapping_mul(0x9E37_79B9));
        let mut sites: Vec<&Site> = instance.sites.iter().collect();
        while sites.len() > SITES {
            let drop = rng.below(sites.len());
            sites.remove(drop);
        }
        for site in sites {
            for mutation in site_mutations(&instance.value, site, &mut rng) {
                self.count("struct object");
                self.judge(instance, site, &mutation)?;
            }
        }
        self.value_mutations(instance, &mut rng)
    }

    /// Replaces values of up to `SLOTS` slots of the instance (every one when fewer) by
    /// wrong values of the same JSON type.
    fn value_mutations(
        &self,
        instance: &Instance,
        rng: &mut SplitMix,
    ) -> Result<(), TestCaseError> {
        let mut slots: Vec<&Slot> = instance.slots.iter().collect();
        while slots.len() > SLOTS {
            let drop = rng.below(slots.len());
            slots.remove(drop);
        }
        for slot in slots {
            let Some(current) = site_object(&instance.value, &slot.path) else {
                continue;
            };
            for wrong in wrong_values(&self.schema, &slot.ty, current, rng) {
                self.judge_value(instance, slot, &wrong)?;
            }
        }
        Ok(())
    }

    /// A wrong value put in a slot: judged by serde, the receiver schema and `receive` alike,
    /// apart from a documented point.
    fn judge_value(
        &self,
        instance: &Instance,
        slot: &Slot,
        wrong: &WrongValue,
    ) -> Result<(), TestCaseError> {
        let mut mutated = instance.value.clone();
        let Some(node) = value_mut(&mut mutated, &slot.path) else {
            return Ok(());
        };
        *node = wrong.value.clone();
        self.count(SAME_TYPE);
        self.count(wrong.kind);
        self.count(match slot.place {
            Place::Root => "at the root",
            Place::Field => "in an object",
            Place::ListItem => "a list item",
            Place::MapValue => "a map value",
            Place::TupleItem => "a tuple item",
        });
        let serde = Self::serde_accepts(&mutated);
        let schema = self.receiver_accepts(&mutated);
        let received = Self::receive_accepts(&mutated)?;
        for (verdict, by) in [(schema, "the receiver schema"), (received, "receive")] {
            if verdict == serde {
                continue;
            }
            // serde reads `None` for a flattened `Option` whose inlined fields do not fit.
            if serde && inside_flattened_option(instance, slot) {
                self.explain("flattened option reads none");
                continue;
            }
            if let Some(point) = documented_slot::<T>(slot).filter(|_| serde) {
                self.explain(point);
                continue;
            }
            if let Some(point) = value_point(slot, serde, schema == verdict) {
                self.explain(point);
                continue;
            }
            let error = serde_json::from_value::<T>(mutated.clone())
                .err()
                .map(|e| e.to_string());
            return Err(TestCaseError::fail(format!(
                "{} {} at {:?} ({:?}): serde accepts = {serde} ({error:?}), {by} accepts = {verdict}\n  instance: {}\n  mutated:  {mutated}",
                wrong.kind, wrong.value, slot.path, slot.ty.to_string(), instance.value
            )));
        }
        Ok(())
    }

    fn count(&self, what: &str) {
        *self
            .tried
            .lock()
            .expect("no test panics while holding the lock")
            .entry(what.to_owned())
            .or_default() += 1;
    }

    /// Counts a disagreement a documented point explains.
    fn explain(&self, point: &'static str) {
        self.explained.fetch_add(1, Ordering::Relaxed);
        *EXPLAINED
            .lock()
            .expect("no test panics while holding the lock")
            .entry(point)
            .or_default() += 1;
    }

    fn judge(
        &self,
        instance: &Instance,
        site: &Site,
        mutation: &Mutation,
    ) -> Result<(), TestCaseError> {
        let Some(mutated) = mutation.apply(&instance.value, &site.path) else {
            return Ok(());
        };

        let serde = Self::serde_accepts(&mutated);
        let schema = self.receiver_accepts(&mutated);
        let object = site_object(&instance.value, &site.path);
        let received = Self::receive_accepts(&mutated)?;
        if received != serde {
            // `receive` is never looser than serde; where it is stricter, a point says why.
            let Some(point) = self.documented(site, object, mutation, serde) else {
                let rejection = receive::<T>(&serde_json::to_vec(&mutated).unwrap_or_default())
                    .err()
                    .map(|r| r.to_string());
                return Err(TestCaseError::fail(format!(
                    "{mutation:?} at {:?}: serde accepts, receive rejects: {rejection:?}\n  instance: {}\n  mutated:  {mutated}",
                    site.path, instance.value
                )));
            };
            self.explain(point);
        }
        if serde == schema {
            return Ok(());
        }
        match self.documented(site, object, mutation, serde) {
            Some(point) => {
                self.explain(point);
                Ok(())
            }
            None => {
                let error = serde_json::from_value::<T>(mutated.clone())
                    .err()
                    .map(|e| e.to_string());
                Err(TestCaseError::fail(format!(
                    "{mutation:?} at {:?}: serde accepts = {serde} ({error:?}), receiver schema accepts = {schema}\n  instance: {}\n  mutated:  {mutated}",
                    site.path, instance.value
                )))
            }
        }
    }

    /// The documented strictness point that explains a disagreement, if one does.
    fn documented(
        &self,
        site: &Site,
        object: Option<&Value>,
        mutation: &Mutation,
        serde: bool,
    ) -> Option<&'static str> {
        let (key, value, original) = match mutation {
            Mutation::Retype { key, to } => (key, to, key),
            Mutation::Rename { key, to } => (to, &Value::Null, key),
            Mutation::AddKey { key, value } => (key, value, key),
            Mutation::Remove { .. } => return None,
        };
        if site.tags.contains(key) {
            // A tag: serde also reads a variant's index where it buffers the content (inside
            // an untagged enum or another internally tagged enum), and a catch-all takes any.
            // A tag holding an integral float: only an untagged variant beside the tagged ones
            // (a map of integers, say) can read it, and the schema takes it for an integer.
            if !serde && value.as_f64().is_some_and(|f| f.fract() == 0.0) && value.is_f64() {
                return Some("integral float as integer");
            }
            return (serde && value.is_u64()).then_some("variant index as tag");
        }
        // The value that now sits under `key`, and the type the receiver reads it as.
        let value = match mutation {
            Mutation::Rename { .. } => object?.get(original.as_str())?.clone(),
            _ => value.clone(),
        };
        if let Some(field) = field_at(site, key).or_else(|| field_at(site, original)) {
            // A field inlined from a flattened `Option` (a flattened field written only when
            // present and never required): serde reads `None` when the inlined fields do not
            // fit, whatever they hold.
            let inlined_from_option = field.rust_name.contains('.')
                && field
                    .sender
                    .as_ref()
                    .is_some_and(|s| s.emit == Emit::IfPresent)
                && field.receiver.as_ref().is_some_and(|r| !r.required);
            if serde && inlined_from_option {
                return Some("flattened option reads none");
            }
        }
        let ty = match (field_at(site, key), &site.content) {
            (Some(field), _) => field.ty.clone(),
            (None, Some((content, kind))) if content == key => match kind {
                VariantDefKind::Unit => Type::Unit,
                VariantDefKind::Newtype(ty) => ty.clone(),
                VariantDefKind::Tuple(items) => Type::Tuple(items.clone()),
                VariantDefKind::Struct(_) => {
                    return (serde && value.is_array()).then_some("struct as array");
                }
            },
            // An externally tagged variant renamed to an unknown tag, next to a catch-all:
            // serde reads `{"unknown": null}` as the catch-all unit variant.
            (None, Some(_)) if serde && value.is_null() && site.tags.is_empty() => {
                return Some("unit variant as object");
            }
            (None, _) if site.unknown == Unknown::Capture => site.extra.clone()?,
            (None, _) => return None,
        };
        let ty = self.unwrap_option(&ty);
        match (serde, &value, ty) {
            (true, Value::Array(_), Type::Named(name)) => {
                match self.schema.def(name).map(|d| &d.body) {
                    Some(Body::Struct(_)) => Some("struct as array"),
                    Some(Body::Enum(e)) if matches!(e.repr, Repr::Internal { .. }) => {
                        Some("internally tagged enum as array")
                    }
                    _ => None,
                }
            }
            (true, Value::Object(m), Type::Unit) if m.is_empty() => {
                Some("empty object as unit inside an internally tagged enum")
            }
            // serde_json reads a string's raw bytes into a `CString` too; the description is
            // the array of nonzero bytes serde writes.
            (true, Value::String(_), Type::List(item)) if item.to_string() == "u8(1..)" => {
                Some("string as C string")
            }
            (false, Value::Number(n), ty) if n.is_f64() && self.reads_integer(ty, 0) => n
                .as_f64()
                .is_some_and(|f| f.fract() == 0.0)
                .then_some("integral float as integer"),
            _ => None,
        }
    }

    /// Whether a value of `ty` may be an integer alone: an integer type, or an enum with an
    /// untagged variant (the whole enum untagged, or some variants) holding one.
    fn reads_integer(&self, ty: &Type, depth: usize) -> bool {
        let ty = self.unwrap_option(ty);
        if is_integer(ty) {
            return true;
        }
        let Type::Named(name) = ty else {
            return false;
        };
        let Some(Body::Enum(e)) = self.schema.def(name).map(|d| &d.body) else {
            return false;
        };
        depth < 8
            && e.variants
                .iter()
                .filter(|v| v.untagged || e.repr == Repr::Untagged)
                .any(|v| match &v.kind {
                    VariantDefKind::Newtype(inner) => self.reads_integer(inner, depth + 1),
                    _ => false,
                })
    }

    /// The type under any `Option` and newtype.
    fn unwrap_option<'a>(&'a self, ty: &'a Type) -> &'a Type {
        let mut ty = self.schema.resolve(ty);
        while let Type::Option(inner) = ty {
            ty = self.schema.resolve(inner);
        }
        ty
    }
}

/// Whether a type is an integer, constrained or not.
fn is_integer(ty: &Type) -> bool {
    match ty {
        Type::Int(_) => true,
        Type::Constrained(c) => matches!(**c, Constraint::Int { .. }),
        _ => false,
    }
}

/// `value` with the items of every array sorted by their text.
fn unordered(value: Value) -> Value {
    match value {
        Value::Array(items) => {
            let mut items: Vec<Value> = items.into_iter().map(unordered).collect();
            items.sort_by_cached_key(Value::to_string);
            Value::Array(items)
        }
        Value::Object(map) => {
            Value::Object(map.into_iter().map(|(k, v)| (k, unordered(v))).collect())
        }
        other => other,
    }
}

/// Slots where serde reads more than the description says, for a reason the type gives
/// (the type, the slot's pointer, the documented point): `Saturating` clamps an integer out
/// of its range, which the schema and `receive` refuse (the stricter list of
/// `contract_schema::json_schema`, pinned in `strictness.rs`); chrono reads a `TimeDelta`'s
/// extreme seconds, which the description leaves out (chrono couples the nanoseconds to
/// them); time reads a `UtcOffset` of one or two items too.
const DOCUMENTED_SLOTS: &[(&str, &str, &str)] = &[
    ("StdWrappers", "/saturating", "saturating integers clamp"),
    (
        "Solo<core::num::saturating::Saturating<u8>>",
        "/value",
        "saturating integers clamp",
    ),
    ("ChronoNames", "/delta/0", "time delta's extreme seconds"),
    ("ChronoNames", "/maybe/0", "time delta's extreme seconds"),
    ("OtherCrates", "/offset", "utc offset of fewer items"),
];

/// The documented point of `slot` of `T`, if it is one of [`DOCUMENTED_SLOTS`].
fn documented_slot<T>(slot: &Slot) -> Option<&'static str> {
    let pointer: String = slot
        .path
        .iter()
        .map(|step| match step {
            Step::Key(k) => format!("/{k}"),
            Step::Index(i) => format!("/{i}"),
        })
        .collect();
    let name = std::any::type_name::<T>();
    DOCUMENTED_SLOTS
        .iter()
        .find(|(ty, at, _)| name.ends_with(&format!("::{ty}")) && pointer == *at)
        .map(|(_, _, point)| *point)
}

/// The count of all wrong values of the same JSON type tried.
const SAME_TYPE: &str = "same type";

/// Slots whose values are replaced per instance, at most.
const SLOTS: usize = 8;

/// Struct objects mutated per instance, at most (an instance holds 1 to a few dozen; the
/// ones left out are drawn at random, so every object of a type is reached over the run).
const SITES: usize = 8;

/// Whether a slot sits inside a field inlined from a flattened `Option` (written only when
/// present, never required), which serde reads as `None` when the inlined fields do not fit.
fn inside_flattened_option(instance: &Instance, slot: &Slot) -> bool {
    instance.sites.iter().any(|site| {
        let Some(Step::Key(key)) = slot
            .path
            .strip_prefix(site.path.as_slice())
            .and_then(<[Step]>::first)
        else {
            return false;
        };
        field_at(site, key).is_some_and(|field| {
            field.rust_name.contains('.')
                && field
                    .sender
                    .as_ref()
                    .is_some_and(|s| s.emit == Emit::IfPresent)
                && field.receiver.as_ref().is_some_and(|r| !r.required)
        })
    })
}

/// The documented point that explains a disagreement on a wrong value of the same JSON type,
/// if one does; `by_schema` says whether the receiver schema disagrees (rather than
/// `receive`).
fn value_point(slot: &Slot, serde: bool, by_schema: bool) -> Option<&'static str> {
    use contract_core::schema::model::StringFormat;
    let last = match slot.path.last() {
        Some(Step::Key(k)) => k.as_str(),
        _ => "",
    };
    // A `Duration`'s `nanos`, a `SystemTime`'s `nanos_since_epoch`: serde carries 10^9 and
    // more into the seconds.
    if serde
        && matches!(last, "nanos" | "nanos_since_epoch")
        && slot.ty.to_string() == "u32(0..=999999999)"
    {
        return Some("nanoseconds of 10^9 or more");
    }
    let format = match &slot.ty {
        Type::String(format) => Some(*format),
        Type::Constrained(c) => match &**c {
            Constraint::String(s) => Some(s.format),
            Constraint::Int { .. } => None,
        },
        _ => None,
    };
    // Formats JSON Schema has no standard name for: only the schema is looser.
    let unchecked = matches!(
        format,
        Some(
            StringFormat::NaiveDateTime
                | StringFormat::Time
                | StringFormat::Ip
                | StringFormat::SocketAddrV4
                | StringFormat::SocketAddrV6
                | StringFormat::SocketAddr
        )
    );
    (!serde && by_schema && unchecked).then_some("formats without a standard name")
}

fn report(name: &str, checked: usize, tried: &BTreeMap<String, usize>, explained: usize) {
    let total = TOTAL.fetch_add(checked, Ordering::Relaxed) + checked;
    let all_explained = EXPLAINED.lock().map(|m| m.clone()).unwrap_or_default();
    eprintln!(
        "fidelity {name}: {checked} instances checked ({total} over the tests finished so far); \
         mutations tried: {tried:?}; disagreements explained: {explained}; \
         by documented points over the tests finished so far: {all_explained:?}"
    );
}

/// Whether every instance of `ty` holds a slot (a value with wrong values of the same JSON
/// type): `ty` has such values, or is a struct with a required field of such a type, or a
/// newtype around one. A type that does, and whose harness tried fewer same-type mutations
/// than instances, has a broken generator or mutator.
fn surely_has_slot(schema: &Schema, ty: &Type, depth: usize) -> bool {
    if depth > 8 {
        return false;
    }
    match ty {
        Type::Int(_) | Type::Char | Type::Array(..) | Type::Tuple(_) => true,
        Type::String(format) => *format != contract_core::schema::model::StringFormat::Plain,
        Type::Constrained(c) => match &**c {
            Constraint::Int { .. } => true,
            Constraint::String(s) => s.format != contract_core::schema::model::StringFormat::Plain,
        },
        Type::Named(name) => match schema.def(name).map(|d| &d.body) {
            Some(
                Body::Newtype(inner)
                | Body::Views {
                    receiver: inner, ..
                },
            ) => surely_has_slot(schema, inner, depth + 1),
            Some(Body::Struct(s)) => s.fields.iter().any(|f| {
                f.receiver.as_ref().is_some_and(|r| r.required)
                    && surely_has_slot(schema, &f.ty, depth + 1)
            }),
            Some(Body::Enum(e)) => {
                matches!(e.repr, Repr::External)
                    && e.variants
                        .iter()
                        .all(|v| matches!(v.kind, VariantDefKind::Unit))
            }
            None => false,
        },
        _ => false,
    }
}

/// Measured floors of same-type mutations, per 256 instances (the default `CASES`): a test,
/// what was tried, and at least how often (`FIDELITY_CASES` scales them). Each floor is about
/// half the count measured with `PROPTEST_RNG_SEED=20261130`, so that a generator or a
/// mutator that stops writing a kind of wrong value, or stops reaching a place, fails.
/// (Measured counts, in the same order: category 256, level 256, point 2048 and 512, keys
/// 4780, non_zeros 1837, 930 and 844, net_addrs 2992 and 2000 explained, time_and_ids 3072
/// and 1024 explained, std_types 3007, 3624, 64, 64, 160, 184, 812, 412, 1489.)
const FLOORS: &[(&str, &str, usize)] = &[
    ("category", "outside string enum", 200),
    ("level", "at the root", 128),
    ("point", "a tuple item", 1024),
    ("point", "wrong tuple length", 256),
    ("keys", "a map value", 2400),
    ("non_zeros", "excluded value", 900),
    ("non_zeros", "a list item", 450),
    ("non_zeros", "a map value", 400),
    ("net_addrs", "malformed formatted string", 1500),
    ("net_addrs", EXPLAINED_KEY, 1000),
    ("time_and_ids", "malformed formatted string", 1500),
    ("time_and_ids", EXPLAINED_KEY, 500),
    ("std_types", "integer out of range", 1500),
    ("std_types", "fraction for integer", 1800),
    ("std_types", "two characters for char", 30),
    ("std_types", "no character for char", 30),
    ("std_types", "wrong array length", 80),
    ("std_types", "wrong tuple length", 90),
    ("std_types", "a list item", 400),
    ("std_types", "a map value", 200),
    ("std_types", "a tuple item", 700),
];

/// The key of [`FLOORS`] that counts disagreements explained by documented points.
const EXPLAINED_KEY: &str = "disagreements explained";

macro_rules! fidelity {
    ($($test:ident: $ty:ty,)*) => {
        $(
            #[test]
            fn $test() {
                let harness = Harness::<$ty>::new();
                harness.run(stringify!($ty));
                let checked = harness.checked.load(Ordering::Relaxed);
                // Each case checks the instance, what serde writes back, and its mutations.
                assert!(checked >= 3 * cases() as usize, "only {checked} instances checked");
                let mut tried = harness.tried.lock().map(|m| m.clone()).unwrap_or_default();
                let explained = harness.explained.load(Ordering::Relaxed);
                report(stringify!($test), checked, &tried, explained);
                tried.insert(EXPLAINED_KEY.to_owned(), explained);
                let same_type = tried.get(SAME_TYPE).copied().unwrap_or(0);
                if surely_has_slot(&harness.schema, &harness.schema.root, 0) {
                    assert!(
                        same_type >= cases() as usize,
                        "every instance holds a slot, yet only {same_type} same-type mutations"
                    );
                }
                for (test, what, floor) in FLOORS {
                    if *test == stringify!($test) {
                        let n = tried.get(*what).copied().unwrap_or(0);
                        let floor = floor * cases() as usize / CASES as usize;
                        assert!(n >= floor, "{what}: {n} tried, below the floor of {floor}");
                    }
                }
            }
        )*
    };
}

// Shapes the catalogue does not cover, so each schema position is exercised.

/// A string enum that can key a map.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, HandoffSchema,
)]
#[serde(rename_all = "lowercase")]
pub enum Color {
    Red,
    Green,
}

/// Optional fields read under several names: at most one may be present.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, HandoffSchema)]
pub struct OptionalAliases {
    #[serde(alias = "b", alias = "c")]
    pub a: Option<u32>,
    #[serde(default, alias = "old")]
    pub d: u8,
    pub keep: bool,
}

/// An internally tagged enum that denies unknown fields and has a catch-all.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, HandoffSchema)]
#[serde(tag = "kind", deny_unknown_fields)]
pub enum StrictInternal {
    A {
        x: u8,
    },
    B,
    #[serde(other)]
    Other,
}

/// An adjacently tagged enum that denies unknown fields and has a catch-all.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, HandoffSchema)]
#[serde(tag = "t", content = "c", deny_unknown_fields)]
pub enum StrictAdjacent {
    A(u8),
    B {
        y: String,
    },
    U,
    #[serde(other)]
    Other,
}

/// An externally tagged enum with data-carrying variants and a catch-all.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, HandoffSchema)]
pub enum ExternalCatchAll {
    A(u8),
    B,
    #[serde(other)]
    Z,
}

/// Maps whose keys are not plain strings.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, HandoffSchema)]
pub struct Keys {
    pub unsigned: BTreeMap<u8, String>,
    pub signed: BTreeMap<i64, bool>,
    pub chars: BTreeMap<char, u8>,
    pub colors: BTreeMap<Color, u8>,
    pub ids: BTreeMap<OrderId, u32>,
}

/// Structs as fields, one of which reads from an empty array (serde's struct-as-array).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, HandoffSchema)]
pub struct StructFields {
    pub defaults: Defaults,
    pub meta: Option<Meta>,
    pub figure: Figure,
}

/// A flattened `Option` of a struct.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, HandoffSchema)]
pub struct FlattenOption {
    pub id: u8,
    #[serde(flatten)]
    pub meta: Option<Meta>,
}

/// An internally tagged enum with a map content, aliases on variants and fields, and a
/// variant never read.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, HandoffSchema)]
#[serde(tag = "kind")]
pub enum InternalMixed {
    Map(BTreeMap<String, u8>),
    #[serde(alias = "s2")]
    S {
        #[serde(alias = "aa")]
        a: Option<u8>,
        #[serde(default)]
        b: String,
    },
    #[serde(skip_deserializing)]
    Hidden,
}

/// An untagged enum with every variant kind.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, HandoffSchema)]
#[serde(untagged)]
pub enum UntaggedMixed {
    S {
        x: u8,
        #[serde(default)]
        y: bool,
    },
    T(u8, u8),
    U,
    N(String),
}

/// An externally tagged enum with aliases on data-carrying variants.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, HandoffSchema)]
pub enum ExternalAliases {
    #[serde(alias = "n2")]
    N(u8),
    #[serde(alias = "s2", alias = "s3")]
    S {
        a: u8,
    },
    U,
}

/// An internally tagged enum whose newtype variants hold other enums, written beside its tag:
/// an internally tagged one adds its own tag, an externally tagged one its variant's name, an
/// adjacently tagged one its tag and content, an untagged one its variant's content.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, HandoffSchema)]
#[serde(tag = "outer")]
pub enum NestedInternal {
    Fig(Figure),
    Strict(StrictInternal),
    Plain { z: u8 },
    Unit,
    Level(Level),
    Command(Command),
    Message(Message),
    StrictAdjacent(StrictAdjacent),
    Untagged(UntaggedMixed),
    Catch(ExternalCatchAll),
}

/// A struct that denies unknown fields, flattened: serde ignores unknown keys all the same.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, HandoffSchema)]
pub struct FlattenDenying {
    pub id: u8,
    #[serde(flatten)]
    pub inner: Scope,
}

/// `deny_unknown_fields` beside a flattened struct: serde hands the struct the keys of its
/// fields (`deserialize_struct` takes them) and rejects the keys nobody took.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, HandoffSchema)]
#[serde(deny_unknown_fields)]
pub struct DenyingFlatStruct {
    pub id: u8,
    #[serde(flatten)]
    pub meta: Meta,
}

/// `deny_unknown_fields` beside a flattened `Option` of a struct and an externally tagged
/// enum, which take their keys too.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, HandoffSchema)]
#[serde(deny_unknown_fields)]
pub struct DenyingFlatOptionAndEnum {
    pub id: u8,
    #[serde(flatten)]
    pub meta: Option<Meta>,
    #[serde(flatten)]
    pub payment: Payment,
}

/// An enum's `deny_unknown_fields` reaches a struct variant that flattens a struct.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, HandoffSchema)]
#[serde(tag = "t", deny_unknown_fields)]
pub enum DenyingFlatVariant {
    Doc {
        title: String,
        #[serde(flatten)]
        meta: Meta,
    },
    Empty,
}

/// A newtype around an `Option`: null on the wire, but serde still requires the key.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, HandoffSchema)]
pub struct MaybeName(pub Option<String>);

/// A transparent struct around an `Option`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, HandoffSchema)]
#[serde(transparent)]
pub struct MaybeCount {
    pub inner: Option<u16>,
}

/// A transparent struct around a transparent `Option`: serde looks through both.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, HandoffSchema)]
#[serde(transparent)]
pub struct MaybeCountTwice(pub MaybeCount);

/// A transparent struct around a newtype around an `Option`: the newtype stops serde.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, HandoffSchema)]
#[serde(transparent)]
pub struct TransparentName(pub MaybeName);

/// A generic transparent struct, around an `Option` in one field and a plain type in another.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, HandoffSchema)]
#[serde(transparent)]
pub struct Wrap<T>(pub T);

/// Every way a field's type may wrap an `Option`, each read as serde reads its absence.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, HandoffSchema)]
pub struct OptionWrappers {
    pub twice: MaybeCountTwice,
    pub through_newtype: TransparentName,
    pub generic_option: Wrap<Option<u8>>,
    pub generic_plain: Wrap<u8>,
    pub boxed: Box<MaybeCount>,
    pub optional_newtype: Option<MaybeName>,
}

/// An adjacently tagged enum that denies unknown keys and has no struct variant: serde
/// rejects any key beside the tag and the content all the same.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, HandoffSchema)]
#[serde(tag = "t", content = "c", deny_unknown_fields)]
pub enum DenyingAdjacent {
    A(u8),
    T(u8, bool),
    U,
}

/// An externally tagged enum that denies unknown fields: its struct variant does.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, HandoffSchema)]
#[serde(deny_unknown_fields)]
pub enum DenyingExternal {
    N(Meta),
    S { a: u8 },
    U,
}

/// An untagged enum that denies unknown fields: its struct variant does.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, HandoffSchema)]
#[serde(untagged, deny_unknown_fields)]
pub enum DenyingUntagged {
    S { a: u8, b: bool },
    N(u8),
}

/// An internally tagged enum that denies unknown fields: its struct variant does, its unit
/// variant and the struct of its newtype variant do not.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, HandoffSchema)]
#[serde(tag = "kind", deny_unknown_fields)]
pub enum DenyingInternal {
    S { a: u8 },
    N(Meta),
    U,
}

/// Options behind newtypes and boxes, and a variant with a flattened map.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, HandoffSchema)]
pub struct WrappedOptions {
    pub name: MaybeName,
    pub count: MaybeCount,
    pub boxed: Box<Option<i8>>,
    #[serde(default, skip_serializing_if = "Option::is_none", alias = "lbl")]
    pub label: Option<String>,
    pub pair: Pair<u8, Option<bool>>,
    pub tagged: Tagged,
}

/// Two generic parameters.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, HandoffSchema)]
pub struct Pair<A, B> {
    pub left: A,
    pub right: B,
}

/// An internally tagged struct variant that captures unknown keys in a flattened map.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, HandoffSchema)]
#[serde(tag = "kind")]
pub enum Tagged {
    Open {
        id: u8,
        #[serde(flatten)]
        rest: BTreeMap<String, String>,
    },
    Closed,
}

/// A flattened struct with an aliased field, which flattens a map in turn.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, HandoffSchema)]
pub struct Middle {
    #[serde(alias = "bb")]
    pub b: u8,
    #[serde(default)]
    pub c: Option<String>,
    #[serde(flatten)]
    pub extra: BTreeMap<String, u8>,
}

/// Flatten two levels deep.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, HandoffSchema)]
pub struct FlattenTwice {
    #[serde(rename = "A")]
    pub a: bool,
    #[serde(flatten)]
    pub middle: Middle,
}

/// Catalogue types nested in containers.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, HandoffSchema)]
pub struct Nested {
    pub figures: Vec<Figure>,
    pub point: Option<Point>,
    pub lengths: [Meters; 2],
    pub messages: BTreeMap<String, Message>,
    pub ids: Vec<IdOrName>,
    pub marker: Marker,
    pub pair: (Level, Option<Category>),
}

// ---------------------------------------------------------------------------------------
// Less common attribute combinations.
// ---------------------------------------------------------------------------------------

/// `rename_all_fields` and `rename_all` with per-view rules on an internally tagged enum.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, HandoffSchema)]
#[serde(
    tag = "kind",
    rename_all(serialize = "SCREAMING_SNAKE_CASE", deserialize = "kebab-case"),
    rename_all_fields(serialize = "camelCase", deserialize = "PascalCase")
)]
pub enum SplitCaseInternal {
    FirstOne {
        max_speed: u8,
        #[serde(rename = "fixed_name")]
        dry_run: bool,
    },
    #[serde(rename = "second", alias = "zweite", alias = "deuxieme")]
    SecondOne,
    ThirdOne(Meta),
}

/// `rename_all_fields` on an adjacently tagged enum, with a tuple variant, and newtype
/// variants of an `Option` (read without content as `None`) and of units.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, HandoffSchema)]
#[serde(tag = "t", content = "c", rename_all_fields = "SCREAMING-KEBAB-CASE")]
pub enum AdjacentTuples {
    Pair(u8, String),
    Triple(bool, i16, Option<u8>),
    Named {
        some_field: u8,
    },
    #[serde(alias = "N")]
    New(u32),
    Maybe(Option<String>),
    MaybeNamed(Option<Meta>),
    Unit(()),
    Mark(Marker),
    Through(MaybeName),
}

fn seven() -> u16 {
    7
}

/// Container `default` with a skipped field, a `default = "path"` field and
/// `skip_serializing_if` on non-`Option` fields.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, HandoffSchema)]
#[serde(default)]
pub struct DefaultsAndSkips {
    #[serde(skip)]
    pub cache: u8,
    #[serde(default = "seven", skip_serializing_if = "is_zero")]
    pub count: u16,
    #[serde(skip_serializing_if = "String::is_empty")]
    pub name: String,
    #[serde(skip_deserializing)]
    pub computed: bool,
    pub plain: i8,
}

impl Default for DefaultsAndSkips {
    fn default() -> Self {
        DefaultsAndSkips {
            cache: 1,
            count: 3,
            name: String::new(),
            computed: true,
            plain: -1,
        }
    }
}

#[allow(clippy::trivially_copy_pass_by_ref)]
fn is_zero(n: &u16) -> bool {
    *n == 0
}

/// `Option<Option<T>>` with and without `skip_serializing_if`, and with `default`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, HandoffSchema)]
pub struct DoubleOptions {
    pub plain: Option<Option<u8>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub skipped: Option<Option<String>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub defaulted: Option<Option<bool>>,
    pub inner_vec: Option<Vec<Option<u8>>>,
}

/// An untagged enum whose variants overlap: the first that fits wins.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, HandoffSchema)]
#[serde(untagged)]
pub enum UntaggedOverlap {
    Wide { a: u8, b: Option<u8> },
    Narrow { a: u8 },
    Tuple(u8, u8),
    Single(u8),
    Newtype(Meta),
    Float(f32),
    Text(String),
    Nothing,
}

/// An internally tagged enum with a newtype of a map, of a unit struct and of a struct
/// with defaults.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, HandoffSchema)]
#[serde(tag = "type")]
pub enum InternalNewtypes {
    Map(BTreeMap<String, String>),
    Unit(Marker),
    Defaults(Defaults),
    Flat(FlattenStruct),
    Opened(FlattenMap),
}

/// Maps keyed by `bool`, by `char`, by a renamed enum and by 128-bit integers.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, HandoffSchema)]
pub struct MoreKeys {
    pub flags: BTreeMap<bool, u8>,
    pub levels: BTreeMap<KeyLevel, u8>,
    pub big: BTreeMap<u128, u8>,
    pub small: BTreeMap<i128, u8>,
    pub tiny: BTreeMap<i8, u8>,
}

/// An enum that keys a map, renamed, with an alias.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, HandoffSchema,
)]
#[serde(rename_all = "kebab-case")]
pub enum KeyLevel {
    LowLevel,
    #[serde(alias = "hi")]
    HighLevel,
}

/// Odd std shapes.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, HandoffSchema)]
pub struct OddStd {
    pub empty: [u8; 0],
    pub unit: (),
    pub boxed_slice: Box<[u16]>,
    pub arc: Arc<str>,
    pub boxed_str: Box<str>,
    pub small_float: f32,
    pub optional_unit: Option<()>,
    pub one: (u8,),
    pub extremes: (i128, u128),
}

/// A generic envelope around nested generics.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, HandoffSchema)]
pub struct Generics<T> {
    pub value: Pair<Option<Vec<T>>, Wrap<Option<T>>>,
    pub more: Option<Box<Generics<T>>>,
}

/// A struct variant with a flattened struct and a flattened map, externally tagged.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, HandoffSchema)]
pub enum FlattenInVariant {
    S {
        id: u8,
        #[serde(flatten)]
        meta: Meta,
    },
    M {
        #[serde(flatten)]
        rest: BTreeMap<String, u8>,
    },
    U,
}

/// A struct variant with a flattened struct, adjacently tagged.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, HandoffSchema)]
#[serde(tag = "t", content = "c")]
pub enum FlattenInAdjacent {
    S {
        id: u8,
        #[serde(flatten)]
        meta: Meta,
    },
    U,
}

/// A struct variant with a flattened struct, internally tagged.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, HandoffSchema)]
#[serde(tag = "t")]
pub enum FlattenInInternal {
    S {
        id: u8,
        #[serde(flatten)]
        meta: Meta,
    },
    U,
}

/// Skipped variants in each representation, and a catch-all that is read only.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, HandoffSchema)]
#[serde(tag = "t", content = "c")]
pub enum AdjacentSkips {
    A(u8),
    #[serde(skip)]
    Hidden(u8),
    #[serde(skip_deserializing)]
    WriteOnly {
        x: u8,
    },
    #[serde(other)]
    Other,
}

/// `bound` on a generic struct.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, HandoffSchema)]
#[serde(bound(serialize = "T: Serialize", deserialize = "T: Deserialize<'de>"))]
pub struct Bounded<T> {
    #[serde(bound(serialize = "T: Serialize", deserialize = "T: Deserialize<'de>"))]
    pub inner: T,
}

/// Internally tagged newtype variants of a unit, a unit struct and an `Option` of a struct:
/// serde reads a unit only when no key but the tags remains, and `Some` of the struct from
/// the keys beside the tags (it writes neither `Some` nor `None` there).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, HandoffSchema)]
#[serde(tag = "t")]
pub enum InternalUnits {
    Unit(()),
    Mark(Marker),
    Maybe(Option<Meta>),
    MaybeStrict(Option<Scope>),
    Nested(InnerUnits),
}

/// An internally tagged enum with a unit newtype variant, inside [`InternalUnits`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, HandoffSchema)]
#[serde(tag = "inner")]
pub enum InnerUnits {
    Empty(()),
    Twice(Option<Option<Marker>>),
}

/// A flattened generic parameter: each instantiation is checked at compile time to be a
/// struct or a map (or an `Option` of one), and described as such.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, HandoffSchema)]
pub struct FlatGeneric<T> {
    pub id: u8,
    #[serde(flatten)]
    pub payload: T,
}

/// Flattened structs whose keys an earlier field already reads: serde gives a key to the
/// struct's own field first, then to the flattened fields in declaration order.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, HandoffSchema)]
pub struct Shadowing {
    #[serde(flatten)]
    pub first: ShadowedFirst,
    pub id: u8,
    #[serde(flatten)]
    pub second: ShadowedSecond,
}

/// Its `id` is never read (the outer `id` takes the key): serde reads `None`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, HandoffSchema)]
pub struct ShadowedFirst {
    pub id: Option<u8>,
    #[serde(alias = "ex")]
    pub x: u8,
}

/// Its `x` is read only under its last alias, its `label` not under its alias.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, HandoffSchema)]
pub struct ShadowedSecond {
    #[serde(default, alias = "ex", alias = "x2")]
    pub x: u8,
    #[serde(default, alias = "id")]
    pub label: String,
}

/// Fields of one struct that share a key: serde's first declared field takes it (and rustc
/// warns of an unreachable pattern in serde's code, allowed here).
mod clash {
    #![allow(unreachable_patterns)]
    use super::{Deserialize, HandoffSchema, Serialize};

    /// `b` is also an alias of `a`, and `c` is renamed `a`: neither is ever read.
    #[derive(Debug, Clone, PartialEq, Serialize, Deserialize, HandoffSchema)]
    pub struct ClashingNames {
        #[serde(alias = "b")]
        pub a: u8,
        pub b: Option<u8>,
        #[serde(rename = "a", alias = "cc")]
        pub c: Option<bool>,
    }

    /// `B` is also an alias of `A`, and `C` is renamed `A`: the first declared variant takes
    /// the tag.
    #[derive(Debug, Clone, PartialEq, Serialize, Deserialize, HandoffSchema)]
    pub enum ClashingVariants {
        #[serde(alias = "B")]
        A(u8),
        B(String),
        #[serde(rename = "A", alias = "C2")]
        C(bool),
    }

    /// The same, internally tagged.
    #[derive(Debug, Clone, PartialEq, Serialize, Deserialize, HandoffSchema)]
    #[serde(tag = "t")]
    pub enum ClashingInternal {
        #[serde(alias = "B")]
        A {
            x: u8,
        },
        B {
            y: String,
        },
        U,
    }
}

/// `default` on a struct with flattened fields, and on a flattened field: serde ignores both
/// for the flattened type, which it reads from the remaining keys regardless.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, HandoffSchema)]
#[serde(default)]
pub struct DefaultAroundFlatten {
    pub a: u8,
    #[serde(flatten)]
    pub inner: RequiredInner,
    #[serde(flatten, default)]
    pub more: MoreInner,
}

/// Required fields, with a `Default` that serde never uses when flattened.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, HandoffSchema)]
pub struct RequiredInner {
    pub author: String,
    pub count: Option<u8>,
}

/// A required field and one with its own `default`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, HandoffSchema)]
pub struct MoreInner {
    pub flag: bool,
    #[serde(default)]
    pub level: i16,
}

/// An internally tagged enum whose content has fields under the tag's key: serde takes the
/// tag out first, so they are never read under it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, HandoffSchema)]
#[serde(tag = "t")]
pub enum TagShadow {
    N(UnderTag),
    S { y: u8 },
}

/// A field named like the tag.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, HandoffSchema)]
pub struct UnderTag {
    pub t: Option<String>,
    pub x: u8,
}

/// A required field named like the tag: serde never reads the variant.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, HandoffSchema)]
#[serde(tag = "t")]
pub enum TagTakesRequired {
    N(RequiredUnderTag),
    U,
}

/// See [`TagTakesRequired`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, HandoffSchema)]
pub struct RequiredUnderTag {
    pub t: String,
}

fidelity! {
    category: Category,
    refund_request: RefundRequest,
    scope: Scope,
    budget: Budget,
    task_contract: TaskContract,
    task_status: TaskStatus,
    evidence: Evidence,
    task_result: TaskResult,
    artifact: Artifact,
    handoff_status: HandoffStatus,
    handoff_refund: Handoff<RefundRequest>,
    handoff_task_result: Handoff<TaskResult>,
    renames: Renames,
    rename_all_split: RenameAllSplit,
    defaults: Defaults,
    field_defaults: FieldDefaults,
    skips: Skips,
    meta: Meta,
    flatten_struct: FlattenStruct,
    flatten_map: FlattenMap,
    figure: Figure,
    message: Message,
    id_or_name: IdOrName,
    command: Command,
    level: Level,
    order_id: OrderId,
    meters: Meters,
    point: Point,
    marker: Marker,
    plan: Plan,
    std_types: StdTypes,
    std_wrappers: StdWrappers,
    net_addrs: NetAddrs,
    non_zeros: NonZeros,
    times: Times,
    ffi_strings: FfiStrings,
    time_and_ids: TimeAndIds,
    with_schema_as: WithSchemaAs,
    strict_note: StrictNote,
    optional_aliases: OptionalAliases,
    strict_internal: StrictInternal,
    strict_adjacent: StrictAdjacent,
    external_catch_all: ExternalCatchAll,
    keys: Keys,
    nested: Nested,
    struct_fields: StructFields,
    flatten_option: FlattenOption,
    internal_mixed: InternalMixed,
    untagged_mixed: UntaggedMixed,
    external_aliases: ExternalAliases,
    nested_internal: NestedInternal,
    flatten_denying: FlattenDenying,
    denying_flat_struct: DenyingFlatStruct,
    denying_flat_option_and_enum: DenyingFlatOptionAndEnum,
    denying_flat_variant: DenyingFlatVariant,
    wrapped_options: WrappedOptions,
    flatten_twice: FlattenTwice,
    option_wrappers: OptionWrappers,
    denying_adjacent: DenyingAdjacent,
    denying_external: DenyingExternal,
    denying_untagged: DenyingUntagged,
    denying_internal: DenyingInternal,
    split_case_internal: SplitCaseInternal,
    adjacent_tuples: AdjacentTuples,
    defaults_and_skips: DefaultsAndSkips,
    double_options: DoubleOptions,
    untagged_overlap: UntaggedOverlap,
    internal_newtypes: InternalNewtypes,
    more_keys: MoreKeys,
    odd_std: OddStd,
    generics: Generics<Category>,
    handoff_nested_generics: Handoff<Option<Vec<Meta>>>,
    flatten_in_variant: FlattenInVariant,
    flatten_in_adjacent: FlattenInAdjacent,
    flatten_in_internal: FlattenInInternal,
    adjacent_skips: AdjacentSkips,
    bounded: Bounded<Level>,
    internal_units: InternalUnits,
    flat_generic_struct: FlatGeneric<Meta>,
    flat_generic_option: FlatGeneric<Option<Meta>>,
    flat_generic_map: FlatGeneric<BTreeMap<String, u8>>,
    flat_generic_nested: FlatGeneric<Option<FlattenStruct>>,
    shadowing: Shadowing,
    clashing_names: clash::ClashingNames,
    clashing_variants: clash::ClashingVariants,
    clashing_internal: clash::ClashingInternal,
    default_around_flatten: DefaultAroundFlatten,
    reprs: Reprs,
    flatten_external: FlattenExternal,
    flatten_internal_enum: FlattenInternalEnum,
    flatten_adjacent_enum: FlattenAdjacentEnum,
    flatten_untagged_enum: FlattenUntaggedEnum,
    flatten_optional_enums: FlattenOptionalEnums,
    flatten_rest: FlattenRest,
    flatten_counted: FlattenCounted,
    chrono_names: ChronoNames,
    other_crates: OtherCrates,
    external_with_untagged: ExternalWithUntagged,
    internal_with_untagged: InternalWithUntagged,
    adjacent_with_untagged: AdjacentWithUntagged,
    channel: Channel,
    with_untagged_variants: WithUntaggedVariants,
}

// ---------------------------------------------------------------------------------------
// A flattened variant that takes every key left (serde's own pattern): written and read
// back, by `send`, `receive` and both views of the JSON Schema.
// ---------------------------------------------------------------------------------------

/// Any JSON value, untagged: flattened, every key beside the struct's.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, HandoffSchema)]
#[serde(untagged)]
pub enum AnyKeys {
    V(Value),
}

/// Flattens [`AnyKeys`]; denies nothing.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, HandoffSchema)]
pub struct FlatAnyKeys {
    #[serde(flatten)]
    pub u: AnyKeys,
}

/// A map of integers, internally tagged: flattened, the tag and every other key beside the
/// struct's.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, HandoffSchema)]
#[serde(tag = "t")]
pub enum MapKeys {
    M(BTreeMap<String, i32>),
}

/// Flattens [`MapKeys`] beside a field of its own.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, HandoffSchema)]
pub struct FlatMapKeys {
    pub id: u8,
    #[serde(flatten)]
    pub m: MapKeys,
}

#[test]
fn a_flattened_variant_of_a_map_or_any_value_takes_every_key_left() {
    fn written_and_read<T>(value: &T, written: &Value)
    where
        T: Serialize + DeserializeOwned + HandoffSchema + Debug + PartialEq + 'static,
    {
        assert_eq!(
            &serde_json::to_value(value).expect("serde writes it"),
            written
        );
        assert_eq!(
            &serde_json::from_value::<T>(written.clone()).expect("and reads it"),
            value
        );
        let sent = send(value).unwrap_or_else(|r| panic!("send refuses {written}: {r}"));
        assert_eq!(
            &serde_json::from_slice::<Value>(sent.bytes()).expect("JSON"),
            written
        );
        let bytes = serde_json::to_vec(written).expect("serializes");
        let received = receive::<T>(&bytes).unwrap_or_else(|r| panic!("receive refuses: {r}"));
        assert_eq!(received.value(), value);
        for view in [View::Sender, View::Receiver] {
            let schema = validator(&json_schema::<T>(view));
            assert!(schema.is_valid(written), "{view:?} view refuses {written}");
        }
    }
    written_and_read(
        &FlatAnyKeys {
            u: AnyKeys::V(json!({ "k": 1 })),
        },
        &json!({ "k": 1 }),
    );
    written_and_read(
        &FlatMapKeys {
            id: 3,
            m: MapKeys::M(BTreeMap::from([("k".to_owned(), 1)])),
        },
        &json!({ "id": 3, "k": 1, "t": "M" }),
    );
    // The keys left are the map's entries: a value it does not read is refused by serde,
    // by `receive` (at a pointer that hides the key, which is data) and by both views; the
    // struct's own key is judged by its field only.
    let wrong = json!({ "id": 3, "k": "text", "t": "M" });
    assert!(serde_json::from_value::<FlatMapKeys>(wrong.clone()).is_err());
    let rejection = receive::<FlatMapKeys>(&serde_json::to_vec(&wrong).expect("serializes"))
        .expect_err("a string is no i32");
    assert_eq!(rejection.problems().len(), 1, "{rejection}");
    assert_eq!(rejection.problems()[0].pointer, "/*");
    assert!(matches!(
        rejection.problems()[0].kind,
        ProblemKind::WrongType { .. }
    ));
    for view in [View::Sender, View::Receiver] {
        let schema = validator(&json_schema::<FlatMapKeys>(view));
        assert!(!schema.is_valid(&wrong), "{view:?} view accepts {wrong}");
        assert!(
            !schema.is_valid(&json!({ "id": 300, "t": "M" })),
            "{view:?}"
        );
        assert!(schema.is_valid(&json!({ "id": 3, "t": "M" })), "{view:?}");
    }
}

// ---------------------------------------------------------------------------------------
// Two facts once documented as exceptions, now pinned as agreements with serde.
// ---------------------------------------------------------------------------------------

/// What serde says of an instance, and what the receiver schema says.
fn verdicts<T: HandoffSchema + DeserializeOwned>(instance: &Value) -> (bool, bool) {
    let receiver = validator(&json_schema::<T>(View::Receiver));
    (
        serde_json::from_value::<T>(instance.clone()).is_ok(),
        receiver.is_valid(instance),
    )
}

/// serde and the receiver schema give the same verdict, the one expected.
fn agree<T: HandoffSchema + DeserializeOwned>(instance: Value, accepted: bool) {
    assert_eq!(
        verdicts::<T>(&instance),
        (accepted, accepted),
        "(serde, schema) on {instance}"
    );
}

/// The receiver view of the fields of the root struct of `T`, by Rust name: required or not.
fn required_fields<T: HandoffSchema>() -> BTreeMap<String, bool> {
    let schema = T::schema();
    let Type::Named(root) = &schema.root else {
        panic!("a named root")
    };
    match schema.def(root).map(|d| &d.body) {
        Some(Body::Struct(s)) => s
            .fields
            .iter()
            .map(|f| {
                let required = f.receiver.as_ref().is_some_and(|r| r.required);
                (f.rust_name.clone(), required)
            })
            .collect(),
        other => panic!("a struct, got {other:?}"),
    }
}

#[test]
fn an_adjacently_tagged_enum_denies_keys_beside_its_tag_and_content() {
    // serde rejects an unknown key whatever the variant carries.
    agree::<DenyingAdjacent>(json!({ "t": "A", "c": 1, "x": 0 }), false);
    agree::<DenyingAdjacent>(json!({ "t": "U", "x": 0 }), false);
    agree::<DenyingAdjacent>(json!({ "t": "T", "c": [1, true], "x": 0 }), false);
    agree::<DenyingAdjacent>(json!({ "t": "A", "c": 1 }), true);
    agree::<DenyingAdjacent>(json!({ "t": "U" }), true);
    agree::<DenyingAdjacent>(json!({ "t": "U", "c": null }), true);
    // With a struct variant, and with a catch-all, the same.
    agree::<StrictAdjacent>(json!({ "t": "A", "c": 1, "x": 0 }), false);
    agree::<StrictAdjacent>(json!({ "t": "new", "x": 0 }), false);
    agree::<StrictAdjacent>(json!({ "t": "B", "c": { "y": "s", "x": 0 } }), false);
    agree::<StrictAdjacent>(json!({ "t": "B", "c": { "y": "s" } }), true);
    // The fact is in the description, not inferred from the variants.
    let schema = DenyingAdjacent::schema();
    let Some(Body::Enum(e)) = schema.def("DenyingAdjacent").map(|d| &d.body) else {
        panic!("an enum")
    };
    assert!(e.deny_unknown_fields && e.denies_keys_beside_tags());
    // Without the attribute both ignore unknown keys.
    agree::<Message>(json!({ "t": "Ping", "x": 0 }), true);
}

/// serde reads a flattened field under `deny_unknown_fields` when it takes its keys (a
/// struct without a `flatten` of its own, an `Option` of one, an externally tagged enum); the
/// keys nobody took are unknown. The schema and `receive` say the same.
#[test]
fn deny_unknown_fields_beside_flattened_fields_that_take_their_keys() {
    fn both<T: HandoffSchema + DeserializeOwned + 'static>(instance: Value, accepted: bool) {
        agree::<T>(instance.clone(), accepted);
        let bytes = serde_json::to_vec(&instance).expect("serializes");
        assert_eq!(
            receive::<T>(&bytes).is_ok(),
            accepted,
            "receive on {instance}"
        );
    }
    both::<DenyingFlatStruct>(json!({ "id": 1, "author": "a", "revision": 2 }), true);
    both::<DenyingFlatStruct>(json!({ "id": 1, "author": "a" }), true);
    both::<DenyingFlatStruct>(json!({ "id": 1, "author": "a", "x": 0 }), false);
    both::<DenyingFlatStruct>(json!({ "id": 1 }), false);

    both::<DenyingFlatOptionAndEnum>(json!({ "id": 1, "cash": null }), true);
    both::<DenyingFlatOptionAndEnum>(json!({ "id": 1, "author": "a", "card": 7 }), true);
    // An alias of a variant is taken like its name.
    both::<DenyingFlatOptionAndEnum>(json!({ "id": 1, "credit": 7 }), true);
    both::<DenyingFlatOptionAndEnum>(json!({ "id": 1, "cash": null, "x": 0 }), false);
    // A second variant's key is taken by nobody.
    both::<DenyingFlatOptionAndEnum>(json!({ "id": 1, "cash": null, "card": 7 }), false);

    both::<DenyingFlatVariant>(json!({ "t": "Doc", "title": "t", "author": "a" }), true);
    both::<DenyingFlatVariant>(
        json!({ "t": "Doc", "title": "t", "author": "a", "x": 0 }),
        false,
    );

    // The description: the inlined fields and the enum beside them, unknown keys denied.
    let schema = DenyingFlatOptionAndEnum::schema();
    let Some(Body::Struct(s)) = schema.def("DenyingFlatOptionAndEnum").map(|d| &d.body) else {
        panic!("a struct")
    };
    assert_eq!(s.unknown, Unknown::Deny);
    assert_eq!(s.flattened.len(), 1);
    assert!(s.fields.iter().any(|f| f.rust_name == "meta.author"));
}

#[test]
fn deny_unknown_fields_on_other_enums_reaches_their_struct_variants_only() {
    // Externally tagged: the struct variant denies; the object holds one key regardless.
    agree::<DenyingExternal>(json!({ "S": { "a": 1, "x": 0 } }), false);
    agree::<DenyingExternal>(json!({ "S": { "a": 1 } }), true);
    agree::<DenyingExternal>(json!({ "N": { "author": "a", "x": 0 } }), true);
    agree::<DenyingExternal>(json!({ "S": { "a": 1 }, "x": 0 }), false);
    // Internally tagged: the struct variant denies; a unit variant ignores other keys, and a
    // newtype variant's struct follows its own attribute.
    agree::<DenyingInternal>(json!({ "kind": "S", "a": 1, "x": 0 }), false);
    agree::<DenyingInternal>(json!({ "kind": "S", "a": 1 }), true);
    agree::<DenyingInternal>(json!({ "kind": "U", "x": 0 }), true);
    agree::<DenyingInternal>(json!({ "kind": "N", "author": "a", "x": 0 }), true);
    // Untagged: the struct variant denies, and the next variant that fits wins.
    agree::<DenyingUntagged>(json!({ "a": 1, "b": true, "x": 0 }), false);
    agree::<DenyingUntagged>(json!({ "a": 1, "b": true }), true);
    agree::<DenyingUntagged>(json!(3), true);
    // None of them is an adjacently tagged enum: no key beside a tag to deny.
    for schema in [
        DenyingExternal::schema(),
        DenyingInternal::schema(),
        DenyingUntagged::schema(),
    ] {
        for def in schema.types.values() {
            if let Body::Enum(e) = &def.body {
                assert!(e.deny_unknown_fields && !e.denies_keys_beside_tags());
            }
        }
    }
}

#[test]
fn a_transparent_option_may_be_absent_and_a_newtype_option_may_not() {
    // serde reads a missing transparent `Option` as `None` (the transparent impl forwards
    // to `Option`'s), and requires a newtype struct (`deserialize_newtype_struct`).
    agree::<WrappedOptions>(
        json!({
            "name": null, "boxed": null, "pair": { "left": 1, "right": null },
            "tagged": { "kind": "Closed" }
        }),
        true,
    );
    agree::<WrappedOptions>(
        json!({
            "count": 1, "boxed": null, "pair": { "left": 1, "right": null },
            "tagged": { "kind": "Closed" }
        }),
        false,
    );
    let read: WrappedOptions = serde_json::from_value(json!({
        "name": "n", "boxed": null, "pair": { "left": 1, "right": null },
        "tagged": { "kind": "Closed" }
    }))
    .expect("serde reads it");
    assert_eq!(read.count, MaybeCount { inner: None });
    assert_eq!(
        required_fields::<WrappedOptions>(),
        BTreeMap::from(
            [
                ("name", true),
                ("count", false),
                ("boxed", false),
                ("label", false),
                ("pair", true),
                ("tagged", true),
            ]
            .map(|(k, v)| (k.to_owned(), v))
        )
    );
}

#[test]
fn transparent_wrappers_are_looked_through_and_newtypes_are_not() {
    let all = json!({
        "twice": 1, "through_newtype": "n", "generic_option": 2, "generic_plain": 3,
        "boxed": 4, "optional_newtype": "m"
    });
    agree::<OptionWrappers>(all.clone(), true);
    let without = |key: &str| {
        let mut value = all.clone();
        value.as_object_mut().expect("an object").remove(key);
        value
    };
    for (key, absent_ok) in [
        ("twice", true),
        ("through_newtype", false),
        ("generic_option", true),
        ("generic_plain", false),
        ("boxed", true),
        ("optional_newtype", true),
    ] {
        agree::<OptionWrappers>(without(key), absent_ok);
    }
    assert_eq!(
        required_fields::<OptionWrappers>(),
        BTreeMap::from(
            [
                ("twice", false),
                ("through_newtype", true),
                ("generic_option", false),
                ("generic_plain", true),
                ("boxed", false),
                ("optional_newtype", false),
            ]
            .map(|(k, v)| (k.to_owned(), v))
        )
    );
    // Named transparent types stay named types in the schema.
    let schema = OptionWrappers::schema();
    for name in [
        "MaybeCountTwice",
        "MaybeCount",
        "TransparentName",
        "MaybeName",
    ] {
        assert!(
            matches!(schema.def(name).map(|d| &d.body), Some(Body::Newtype(_))),
            "{name}"
        );
    }
}

#[test]
fn an_internally_tagged_newtype_of_a_unit_reads_no_other_key() {
    // serde reads a unit only when no key but the tags remains, where a unit variant ignores
    // other keys.
    agree::<InternalUnits>(json!({ "t": "Unit" }), true);
    agree::<InternalUnits>(json!({ "t": "Unit", "x": 1 }), false);
    agree::<InternalUnits>(json!({ "t": "Mark" }), true);
    agree::<InternalUnits>(json!({ "t": "Mark", "x": null }), false);
    agree::<InternalUnits>(json!({ "t": "Nested", "inner": "Empty" }), true);
    agree::<InternalUnits>(json!({ "t": "Nested", "inner": "Empty", "x": 1 }), false);
    agree::<DenyingInternal>(json!({ "kind": "U", "x": 0 }), true);
    // It writes the tags alone.
    assert_eq!(
        serde_json::to_value(InternalUnits::Nested(InnerUnits::Empty(()))).expect("written"),
        json!({ "t": "Nested", "inner": "Empty" })
    );
}

#[test]
fn unwritable_internal_newtypes_are_not_sent() {
    // serde reads `Some` of a struct from the keys beside the tag, whatever that struct says of
    // unknown fields (the tag is not its key), and nothing reads `None`.
    agree::<InternalUnits>(json!({ "t": "MaybeStrict", "requiredFields": [] }), true);
    agree::<InternalUnits>(json!({ "t": "MaybeStrict" }), false);
    agree::<InternalUnits>(json!({ "t": "Maybe" }), false);
    agree::<InternalUnits>(json!({ "t": "Nested", "inner": "Twice" }), true);
    agree::<InternalUnits>(json!({ "t": "Nested", "inner": "Twice", "x": 1 }), false);
    // ...and serde refuses to write either.
    for value in [
        InternalUnits::Maybe(None),
        InternalUnits::Maybe(Some(Meta {
            author: "a".into(),
            revision: 0,
        })),
        InternalUnits::Nested(InnerUnits::Twice(None)),
    ] {
        let error = serde_json::to_value(&value).expect_err("serde does not write it");
        assert!(
            error.to_string().contains("containing an optional"),
            "{error}"
        );
    }
    // So the sender view has no such variant, and the receiver view keeps it.
    let schema = InternalUnits::schema();
    let sent = |name: &str| {
        let Some(Body::Enum(e)) = schema.def(name).map(|d| &d.body) else {
            panic!("an enum")
        };
        e.variants
            .iter()
            .map(|v| {
                (
                    v.rust_name.clone(),
                    (v.sender.is_some(), !v.receiver.is_empty()),
                )
            })
            .collect::<BTreeMap<_, _>>()
    };
    let expected = |pairs: &[(&str, (bool, bool))]| {
        pairs
            .iter()
            .map(|(k, v)| ((*k).to_owned(), *v))
            .collect::<BTreeMap<_, _>>()
    };
    assert_eq!(
        sent("InternalUnits"),
        expected(&[
            ("Unit", (true, true)),
            ("Mark", (true, true)),
            ("Maybe", (false, true)),
            ("MaybeStrict", (false, true)),
            ("Nested", (true, true)),
        ])
    );
    assert_eq!(
        sent("InnerUnits"),
        expected(&[("Empty", (true, true)), ("Twice", (false, true))])
    );
    // A primitive, a sequence or a transparent `Option` is neither read nor written there.
    #[derive(Debug, Serialize, Deserialize, HandoffSchema)]
    #[serde(tag = "t")]
    enum Unwritable {
        Number(u8),
        Text(OrderId),
        List(Vec<u8>),
        Count(MaybeCount),
        Ok(Meta),
    }
    for (value, tag) in [
        (Unwritable::Number(1), "Number"),
        (Unwritable::Text(OrderId("o".into())), "Text"),
        (Unwritable::List(vec![1]), "List"),
        (Unwritable::Count(MaybeCount { inner: Some(1) }), "Count"),
    ] {
        assert!(serde_json::to_value(&value).is_err(), "{tag}");
        agree::<Unwritable>(json!({ "t": tag }), false);
        agree::<Unwritable>(json!({ "t": tag, "inner": 1 }), false);
    }
    let schema = Unwritable::schema();
    let Some(Body::Enum(e)) = schema.def("Unwritable").map(|d| &d.body) else {
        panic!("an enum")
    };
    let sent: Vec<&str> = e
        .variants
        .iter()
        .filter_map(|v| v.sender.as_deref())
        .collect();
    assert_eq!(sent, ["Ok"]);
}

#[test]
fn a_key_goes_to_the_first_field_serde_gives_it_to() {
    agree::<Shadowing>(json!({ "id": 1, "x": 2 }), true);
    agree::<Shadowing>(json!({ "id": 1, "ex": 2, "x2": 3, "label": "l" }), true);
    agree::<Shadowing>(json!({ "id": null, "x": 2 }), false);
    agree::<Shadowing>(json!({ "id": 1, "x": 2, "ex": 3 }), false);
    // Within one struct too: the first declared field takes a shared key.
    agree::<clash::ClashingNames>(json!({ "a": 1 }), true);
    agree::<clash::ClashingNames>(json!({ "b": 1 }), true);
    agree::<clash::ClashingNames>(json!({ "a": null }), false);
    agree::<clash::ClashingNames>(json!({ "b": null }), false);
    agree::<clash::ClashingNames>(json!({ "a": 1, "cc": true }), true);
    agree::<clash::ClashingNames>(json!({ "a": 1, "cc": 1 }), false);
    let read: Shadowing =
        serde_json::from_value(json!({ "id": 1, "x": 2, "x2": 3 })).expect("serde reads it");
    assert_eq!((read.first.id, read.first.x, read.second.x), (None, 2, 3));
    let schema = Shadowing::schema();
    let Some(Body::Struct(s)) = schema.def("Shadowing").map(|d| &d.body) else {
        panic!("a struct")
    };
    let keys: Vec<_> = s
        .fields
        .iter()
        .map(|f| {
            (
                f.rust_name.as_str(),
                f.receiver
                    .as_ref()
                    .map(|r| (r.name.as_str(), r.aliases.as_slice())),
            )
        })
        .collect();
    assert_eq!(
        keys,
        [
            ("first.id", None),
            ("first.x", Some(("x", &["ex".to_owned()][..]))),
            ("id", Some(("id", &[][..]))),
            ("second.x", Some(("x2", &[][..]))),
            ("second.label", Some(("label", &[][..]))),
        ]
    );
}

#[test]
fn default_does_not_reach_flattened_fields() {
    agree::<DefaultAroundFlatten>(json!({ "author": "a", "flag": true }), true);
    agree::<DefaultAroundFlatten>(json!({ "flag": true }), false);
    agree::<DefaultAroundFlatten>(json!({ "author": "a" }), false);
    assert_eq!(
        required_fields::<DefaultAroundFlatten>(),
        BTreeMap::from(
            [
                ("a", false),
                ("inner.author", true),
                ("inner.count", false),
                ("more.flag", true),
                ("more.level", false),
            ]
            .map(|(k, v)| (k.to_owned(), v))
        )
    );
}

#[test]
fn an_adjacently_tagged_option_may_come_without_content() {
    agree::<AdjacentTuples>(json!({ "t": "Maybe" }), true);
    agree::<AdjacentTuples>(json!({ "t": "Maybe", "c": null }), true);
    agree::<AdjacentTuples>(json!({ "t": "MaybeNamed" }), true);
    // A unit, and a newtype struct around an `Option`, need their content.
    agree::<AdjacentTuples>(json!({ "t": "Unit" }), false);
    agree::<AdjacentTuples>(json!({ "t": "Mark" }), false);
    agree::<AdjacentTuples>(json!({ "t": "Through" }), false);
    agree::<AdjacentTuples>(json!({ "t": "Through", "c": null }), true);
    // serde writes the `null`.
    assert_eq!(
        serde_json::to_value(AdjacentTuples::Maybe(None)).expect("written"),
        json!({ "t": "Maybe", "c": null })
    );
}

#[test]
fn a_key_taken_by_a_tag_reaches_no_field() {
    agree::<TagShadow>(json!({ "t": "N", "x": 1 }), true);
    agree::<TagShadow>(json!({ "t": "S", "y": 1 }), true);
    agree::<TagShadow>(json!({ "t": "S" }), false);
    agree::<TagShadow>(json!({ "t": "N" }), false);
    let read: TagShadow =
        serde_json::from_value(json!({ "t": "N", "x": 1 })).expect("serde reads it");
    assert_eq!(read, TagShadow::N(UnderTag { t: None, x: 1 }));
    // A required field under the tag's key: never read, so neither is its variant.
    agree::<TagTakesRequired>(json!({ "t": "N" }), false);
    agree::<TagTakesRequired>(json!({ "t": "U" }), true);
    // serde writes such a key twice: `{"t":"N","t":null,"x":1}`, which it cannot read back,
    // so the sender view has no such variant.
    let written =
        serde_json::to_string(&TagShadow::N(UnderTag { t: None, x: 1 })).expect("written");
    assert_eq!(written, r#"{"t":"N","t":null,"x":1}"#);
    assert!(serde_json::from_str::<TagShadow>(&written).is_err());
    let sender = validator(&json_schema::<TagShadow>(View::Sender));
    assert!(!sender.is_valid(&json!({ "t": "N", "x": 1 })));
    assert!(!sender.is_valid(&json!({ "t": null, "x": 1 })));
    assert!(sender.is_valid(&json!({ "t": "S", "y": 1 })));
}

#[test]
fn a_tag_goes_to_the_first_variant_that_reads_it() {
    use clash::{ClashingInternal, ClashingVariants};
    agree::<ClashingVariants>(json!({ "A": 1 }), true);
    agree::<ClashingVariants>(json!({ "B": 1 }), true);
    agree::<ClashingVariants>(json!({ "B": "x" }), false);
    agree::<ClashingVariants>(json!({ "A": true }), false);
    agree::<ClashingVariants>(json!({ "C2": true }), true);
    agree::<ClashingInternal>(json!({ "t": "B", "x": 1 }), true);
    agree::<ClashingInternal>(json!({ "t": "B", "y": "s" }), false);
    let schema = ClashingVariants::schema();
    let Some(Body::Enum(e)) = schema.def("ClashingVariants").map(|d| &d.body) else {
        panic!("an enum")
    };
    let read: Vec<(&str, &[String])> = e
        .variants
        .iter()
        .map(|v| (v.rust_name.as_str(), v.receiver.as_slice()))
        .collect();
    assert_eq!(
        read,
        [
            ("A", &["A".to_owned(), "B".to_owned()][..]),
            ("B", &[][..]),
            ("C", &["C2".to_owned()][..]),
        ]
    );
}

#[test]
fn every_fidelity_type_is_rebuilt_from_its_syntax_as_its_shape_describes_it() {
    let compared = both_ways::assert_rebuilt_as_described(
        "tests/fidelity.rs",
        include_str!("fidelity.rs"),
        &both_ways::described![
            Color,
            OptionalAliases,
            StrictInternal,
            StrictAdjacent,
            ExternalCatchAll,
            Keys,
            StructFields,
            FlattenOption,
            InternalMixed,
            UntaggedMixed,
            ExternalAliases,
            NestedInternal,
            FlattenDenying,
            MaybeName,
            MaybeCount,
            MaybeCountTwice,
            TransparentName,
            OptionWrappers,
            DenyingAdjacent,
            DenyingExternal,
            DenyingUntagged,
            DenyingInternal,
            WrappedOptions,
            Tagged,
            Middle,
            FlattenTwice,
            Nested,
            SplitCaseInternal,
            AdjacentTuples,
            DefaultsAndSkips,
            DoubleOptions,
            UntaggedOverlap,
            InternalNewtypes,
            MoreKeys,
            KeyLevel,
            OddStd,
            FlattenInVariant,
            FlattenInAdjacent,
            FlattenInInternal,
            AdjacentSkips,
            InternalUnits,
            InnerUnits,
            Shadowing,
            ShadowedFirst,
            ShadowedSecond,
            clash::ClashingNames,
            clash::ClashingVariants,
            clash::ClashingInternal,
            DefaultAroundFlatten,
            RequiredInner,
            MoreInner,
            TagShadow,
            UnderTag,
            TagTakesRequired,
            RequiredUnderTag,
            DenyingFlatStruct,
            DenyingFlatOptionAndEnum,
            DenyingFlatVariant,
            AnyKeys,
            FlatAnyKeys,
            MapKeys,
            FlatMapKeys,
        ],
        &[
            // Flattened fields, in a struct or in a struct variant.
            "FlattenOption",
            "FlattenDenying",
            "DenyingFlatStruct",
            "DenyingFlatOptionAndEnum",
            "DenyingFlatVariant",
            "FlatAnyKeys",
            "FlatMapKeys",
            "Tagged",
            "Middle",
            "FlattenTwice",
            "FlattenInVariant",
            "FlattenInAdjacent",
            "FlattenInInternal",
            "Shadowing",
            "DefaultAroundFlatten",
            // Newtype and transparent structs.
            "MaybeName",
            "MaybeCount",
            "MaybeCountTwice",
            "TransparentName",
        ],
    );
    assert_eq!(
        compared.generic, 5,
        "`Wrap`, `Pair`, `Generics`, `Bounded`, `FlatGeneric`"
    );
    assert_eq!(
        compared.nested, 11,
        "held nested types, rebuilt inside their holders"
    );
    eprintln!("tests/fidelity.rs: {compared:?}");
}
