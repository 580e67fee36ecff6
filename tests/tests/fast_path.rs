//! `receive`'s one-pass fast path: taken for the payloads it can judge alone, left for the
//! full path at every point where `receive` is stricter than serde, and (through the feature
//! `__check-fast-path`, on in these tests) checked against the full path on every payload it
//! accepts anywhere in the test suite.

// The fields are read by serde and the schema, not by the tests.
#![allow(dead_code)]

use std::collections::{BTreeMap, HashSet};

use contract_core::__private::{
    rejects_from_checkpoint, rejects_in_one_pass, sends_on_fast_path, takes_fast_path,
};
use contract_core::{
    receive, receive_with, send, HandoffSchema, Limits, ProblemKind, ReceiveOptions,
};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize, Serializer};

#[derive(Debug, Serialize, Deserialize, HandoffSchema)]
#[serde(rename_all = "camelCase")]
struct Order {
    order_ref: String,
    lines: Vec<Line>,
    status: Status,
    kind: Kind,
    #[serde(default)]
    note: Option<String>,
    meta: BTreeMap<String, u32>,
    pair: (u8, String),
}

#[derive(Debug, Serialize, Deserialize, HandoffSchema)]
struct Line {
    sku: String,
    qty: u32,
}

#[derive(Debug, Serialize, Deserialize, HandoffSchema, PartialEq, Eq, PartialOrd, Ord)]
enum Status {
    Open,
    Closed,
}

#[derive(Debug, Serialize, Deserialize, HandoffSchema)]
enum Kind {
    Gift(String),
    Bulk { units: u32 },
    Pair(u8, u8),
    Plain,
}

#[derive(Debug, Deserialize, HandoffSchema)]
struct WithSet {
    tags: HashSet<String>,
}

#[derive(Debug, Deserialize, HandoffSchema)]
#[serde(tag = "type")]
enum Tagged {
    A { x: u32 },
}

#[derive(Debug, Deserialize, HandoffSchema)]
struct Flat {
    a: u32,
    #[serde(flatten)]
    inner: Line,
}

const VALID: &str = r#"{"orderRef": "A-1", "lines": [{"sku": "s", "qty": 2}, {"sku": "t", "qty": 1}],
    "status": "Open", "kind": {"Bulk": {"units": 3}}, "meta": {"a": 1, "b": 2}, "pair": [1, "x"]}"#;

/// `VALID` with `from` replaced by `to`.
fn edit(from: &str, to: &str) -> Vec<u8> {
    assert!(VALID.contains(from), "{from} is not in the payload");
    VALID.replacen(from, to, 1).into_bytes()
}

/// What a rejection must hold.
type Expect = fn(&ProblemKind) -> bool;

fn kinds<T: DeserializeOwned + HandoffSchema + 'static>(bytes: &[u8]) -> Vec<ProblemKind> {
    let Err(rejection) = receive::<T>(bytes) else {
        panic!("accepted")
    };
    rejection
        .problems()
        .iter()
        .map(|p| p.kind.clone())
        .collect()
}

#[test]
fn valid_payloads_take_the_fast_path_with_their_presence() {
    assert!(takes_fast_path::<Order>(VALID.as_bytes()));
    let received = receive::<Order>(VALID.as_bytes()).expect("accepted");
    assert_eq!(
        received.presence().received(),
        [
            "orderRef",
            "lines",
            "lines[].sku",
            "lines[].qty",
            "status",
            "kind",
            "kind(Bulk).units",
            "meta",
            "pair"
        ]
    );
    for (from, to) in [
        (r#"{"Bulk": {"units": 3}}"#, r#""Plain""#),
        (r#"{"Bulk": {"units": 3}}"#, r#"{"Gift": "g"}"#),
        (r#"{"Bulk": {"units": 3}}"#, r#"{"Pair": [1, 2]}"#),
        (r#""status": "Open""#, r#""status": "Closed", "note": null"#),
        (r#""status": "Open""#, r#""status": "Open", "note": "n""#),
        (r#""meta": {"a": 1, "b": 2}"#, r#""meta": {}"#),
        (
            r#""qty": 1"#,
            r#""qty": 1, "unknown": {"deep": ["ok", 1, null]}"#,
        ),
    ] {
        let bytes = edit(from, to);
        assert!(takes_fast_path::<Order>(&bytes), "{to}");
        receive::<Order>(&bytes).expect("accepted");
    }
}

#[test]
fn stricter_points_are_left_to_the_full_path() {
    let cases: [(&str, &str, Expect); 9] = [
        // A key twice: an unknown one, in a map, inside an ignored value.
        (r#""pair""#, r#""x": 1, "x": 2, "pair""#, |k| {
            matches!(k, ProblemKind::DuplicateKey { .. })
        }),
        (r#""b": 2"#, r#""b": 2, "a": 3"#, |k| {
            matches!(k, ProblemKind::DuplicateKey { .. })
        }),
        (r#""pair""#, r#""x": {"k": 1, "k": 2}, "pair""#, |k| {
            matches!(k, ProblemKind::DuplicateKey { .. })
        }),
        // A lone surrogate in a value nobody reads.
        (r#""pair""#, r#""x": ["\udc00"], "pair""#, |k| {
            matches!(k, ProblemKind::LoneSurrogate { .. })
        }),
        // A struct written as an array.
        (r#"{"sku": "t", "qty": 1}"#, r#"["t", 1]"#, |k| {
            matches!(k, ProblemKind::WrongType { .. })
        }),
        // A unit variant written as an object, an enum of names written as an object.
        (r#"{"Bulk": {"units": 3}}"#, r#"{"Plain": null}"#, |k| {
            matches!(k, ProblemKind::WrongType { .. })
        }),
        (r#""Open""#, r#"{"Open": null}"#, |k| {
            matches!(
                k,
                ProblemKind::WrongType { .. } | ProblemKind::NullNotAllowed { .. }
            )
        }),
        // Problems serde finds itself: the full path lists them.
        (r#""qty": 2"#, r#""qty": -2"#, |k| {
            matches!(k, ProblemKind::OutOfRange { .. })
        }),
        (
            r#"{"Bulk": {"units": 3}}"#,
            r#"{"Gift": "g", "Plain": null}"#,
            |k| matches!(k, ProblemKind::NotOneKey { .. }),
        ),
    ];
    for (from, to, expected) in cases {
        let bytes = edit(from, to);
        assert!(!takes_fast_path::<Order>(&bytes), "{to}");
        let kinds = kinds::<Order>(&bytes);
        assert!(kinds.iter().any(expected), "{to}: {kinds:?}");
    }
    // Invalid UTF-8 inside an ignored string.
    let mut bytes = edit(r#""pair""#, r#""x": "??", "pair""#);
    let at = bytes
        .windows(2)
        .position(|w| w == b"??")
        .expect("placeholder");
    bytes[at] = 0xFF;
    assert!(!takes_fast_path::<Order>(&bytes));
    assert!(kinds::<Order>(&bytes)
        .iter()
        .any(|k| matches!(k, ProblemKind::InvalidUtf8 { .. })));
}

#[test]
fn unknown_names_are_recorded_in_the_order_they_came_plain_or_escaped() {
    // Plain names are named when the call succeeds, an escaped one where it is read: the
    // record keeps the payload's order either way (and the full path, through
    // `__check-fast-path`, records the same).
    let bytes = edit(
        r#""qty": 1"#,
        r#""qty": 1, "z1": 0, "\u007a2": 0, "z3": 0, "z1b": [1], "\u007a4": 0"#,
    );
    assert!(takes_fast_path::<Order>(&bytes));
    let received = receive::<Order>(&bytes).expect("accepted");
    assert_eq!(
        received.presence().unknown(),
        [
            "lines[].z1",
            "lines[].z2",
            "lines[].z3",
            "lines[].z1b",
            "lines[].z4"
        ]
    );
    // A payload the fast path leaves names nothing from its try.
    let bad = edit(r#""qty": 1"#, r#""qty": 1, "z1": 0, "zz": 0, "qty": 2"#);
    let rejection = receive::<Order>(&bad).expect_err("qty twice");
    assert_eq!(rejection.presence().unknown(), ["lines[].z1", "lines[].zz"]);
}

#[test]
fn limits_hold_on_the_fast_path() {
    let with = |f: fn(&mut Limits)| {
        let mut options = ReceiveOptions::default();
        f(&mut options.limits);
        options
    };
    let long = edit(r#""A-1""#, &format!("\"{}\"", "a".repeat(64)));
    let rejected =
        receive_with::<Order>(&long, &with(|l| l.max_string_bytes = 32)).expect_err("too long");
    assert!(matches!(
        rejected.problems()[0].kind,
        ProblemKind::StringTooLong { .. }
    ));
    let rejected =
        receive_with::<Order>(VALID.as_bytes(), &with(|l| l.max_depth = 2)).expect_err("deep");
    assert!(matches!(
        rejected.problems()[0].kind,
        ProblemKind::TooDeep { .. }
    ));
    let rejected = receive_with::<Order>(VALID.as_bytes(), &with(|l| l.max_keys_per_object = 3))
        .expect_err("too many keys");
    assert!(matches!(
        rejected.problems()[0].kind,
        ProblemKind::TooManyKeys { .. }
    ));
    let rejected = receive_with::<Order>(VALID.as_bytes(), &with(|l| l.max_bytes = 16))
        .expect_err("too large");
    assert!(matches!(
        rejected.problems()[0].kind,
        ProblemKind::TooLarge { .. }
    ));
    // The same payloads within the limits pass on the fast path.
    assert!(takes_fast_path::<Order>(&long));
}

#[test]
fn types_the_fast_path_cannot_follow_take_the_full_path() {
    // A set (serde merges duplicate items), an internally tagged enum (the tag may follow the
    // fields it decides), a flattened field (serde buffers the values).
    let set = br#"{"tags": ["a", "b"]}"#;
    assert!(!takes_fast_path::<WithSet>(set));
    receive::<WithSet>(set).expect("accepted");
    let tagged = br#"{"x": 1, "type": "A"}"#;
    assert!(!takes_fast_path::<Tagged>(tagged));
    receive::<Tagged>(tagged).expect("accepted");
    let flat = br#"{"a": 1, "sku": "s", "qty": 2}"#;
    assert!(!takes_fast_path::<Flat>(flat));
    let received = receive::<Flat>(flat).expect("accepted");
    assert_eq!(received.presence().received(), ["a", "sku", "qty"]);
}

/// Described as a string, written as a number by a hand-written `Serialize`.
#[derive(Debug, HandoffSchema)]
#[handoff(schema_as = String)]
struct Liar;

impl Serialize for Liar {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_u8(7)
    }
}

#[derive(Debug, Serialize, HandoffSchema)]
struct Reading {
    value: f64,
    label: Liar,
}

#[derive(Debug, Serialize, HandoffSchema)]
struct Measure {
    value: f64,
}

#[test]
fn send_takes_the_fast_path_and_leaves_every_surprise_to_the_full_path() {
    let order: Order = serde_json::from_str(VALID).expect("valid");
    assert!(sends_on_fast_path(&order));
    let sent = send(&order).expect("sent");
    assert_eq!(
        sent.bytes(),
        serde_json::to_vec(&order).expect("serializes")
    );
    // `note` is written as `null`: it has no `skip_serializing_if`.
    assert_eq!(
        sent.presence().received(),
        [
            "orderRef",
            "lines",
            "lines[].sku",
            "lines[].qty",
            "status",
            "kind",
            "kind(Bulk).units",
            "note",
            "meta",
            "pair"
        ]
    );
    // A float serde_json writes as `null`, a value of another kind than described.
    let nan = Measure { value: f64::NAN };
    assert!(!sends_on_fast_path(&nan));
    let rejected = send(&nan).expect_err("null for a float");
    assert!(matches!(
        rejected.problems()[0].kind,
        ProblemKind::NullNotAllowed { .. }
    ));
    let liar = Reading {
        value: 1.0,
        label: Liar,
    };
    assert!(!sends_on_fast_path(&liar));
    let rejected = send(&liar).expect_err("a number for a string");
    assert!(matches!(
        rejected.problems()[0].kind,
        ProblemKind::WrongType { .. }
    ));
}

#[derive(Debug, Serialize, Deserialize, HandoffSchema)]
struct Bounded {
    count: std::num::NonZeroU8,
    wait: std::time::Duration,
}

#[test]
fn constrained_values_are_checked_on_both_fast_paths() {
    let ok = br#"{"count": 3, "wait": {"secs": 1, "nanos": 5}}"#;
    assert!(takes_fast_path::<Bounded>(ok));
    let value = receive::<Bounded>(ok).expect("accepted").into_inner();
    assert!(sends_on_fast_path(&value));
    // serde carries nanoseconds past a second into the seconds; the contract describes what
    // serde writes, so `receive` refuses them, on the full path.
    let carried = br#"{"count": 3, "wait": {"secs": 1, "nanos": 1000000000}}"#;
    assert!(serde_json::from_slice::<Bounded>(carried).is_ok());
    assert!(!takes_fast_path::<Bounded>(carried));
    assert!(kinds::<Bounded>(carried)
        .iter()
        .any(|k| matches!(k, ProblemKind::OutOfRange { .. })));
}

#[derive(Debug, Serialize, Deserialize, HandoffSchema)]
struct ByStatus {
    counts: BTreeMap<Status, u32>,
}

#[test]
fn enum_keys_are_read_on_the_fast_path_and_checked_for_repeats() {
    let ok = br#"{"counts": {"Open": 1, "Closed": 2}}"#;
    assert!(takes_fast_path::<ByStatus>(ok));
    let value = receive::<ByStatus>(ok).expect("accepted").into_inner();
    assert!(sends_on_fast_path(&value));
    let twice = br#"{"counts": {"Open": 1, "Open": 2}}"#;
    assert!(!takes_fast_path::<ByStatus>(twice));
    assert!(kinds::<ByStatus>(twice)
        .iter()
        .any(|k| matches!(k, ProblemKind::DuplicateKey { .. })));
    let unknown = br#"{"counts": {"Gone": 1}}"#;
    assert!(!takes_fast_path::<ByStatus>(unknown));
    receive::<ByStatus>(unknown).expect_err("no such variant");
}

#[derive(Debug, Deserialize, HandoffSchema)]
struct Clamped {
    n: std::num::Saturating<u32>,
}

#[test]
fn an_integer_out_of_its_kind_is_left_to_the_full_path_even_where_serde_clamps_it() {
    assert!(takes_fast_path::<Clamped>(br#"{"n": 7}"#));
    let below = br#"{"n": -1}"#;
    assert!(serde_json::from_slice::<Clamped>(below).is_ok());
    assert!(!takes_fast_path::<Clamped>(below));
    assert!(kinds::<Clamped>(below)
        .iter()
        .any(|k| matches!(k, ProblemKind::OutOfRange { .. })));
}

#[derive(Debug, Serialize, Deserialize, HandoffSchema)]
struct Written {
    text: String,
    letter: char,
    small: i8,
    big: i128,
    huge: u128,
    single: f32,
    double: f64,
    flag: bool,
    by_number: BTreeMap<i64, String>,
    by_name: BTreeMap<String, Status>,
    by_status: BTreeMap<Status, u8>,
    kind: Kind,
    items: Vec<Kind>,
    pair: (u8, String),
    empty: Vec<u8>,
    nothing: Option<String>,
}

fn written(text: String, single: f32, double: f64, big: i128) -> Written {
    Written {
        letter: text.chars().next().unwrap_or('"'),
        by_number: [(big as i64, text.clone()), (-1, String::new())].into(),
        by_name: [
            (text.clone(), Status::Open),
            ("\u{7f}".into(), Status::Closed),
        ]
        .into(),
        by_status: [(Status::Closed, 7), (Status::Open, u8::MAX)].into(),
        kind: Kind::Gift(text.clone()),
        items: vec![Kind::Plain, Kind::Pair(0, 255), Kind::Bulk { units: 3 }],
        pair: (1, text.clone()),
        text,
        small: i8::MIN,
        big,
        huge: u128::MAX,
        single,
        double,
        flag: true,
        empty: Vec::new(),
        nothing: None,
    }
}

proptest::proptest! {
    /// `send`'s own writer writes byte for byte what serde_json writes: strings with every
    /// character that needs an escape, at every length around the eight-byte steps, numbers
    /// at their edges, map keys of each kind, variants of each kind.
    #[test]
    fn send_writes_what_serde_json_writes(
        text in "[\"\\\\\u{0}-\u{1f}a-z\u{7f}\u{e9}\u{1f600}]{0,40}",
        single in proptest::num::f32::NORMAL | proptest::num::f32::SUBNORMAL | proptest::num::f32::ZERO,
        double in proptest::num::f64::NORMAL | proptest::num::f64::SUBNORMAL | proptest::num::f64::ZERO,
        big in proptest::num::i128::ANY,
    ) {
        let value = written(text, single, double, big);
        proptest::prop_assert!(sends_on_fast_path(&value));
        let sent = send(&value).expect("sent");
        proptest::prop_assert_eq!(sent.bytes(), serde_json::to_vec(&value).expect("serializes"));
    }
}

#[test]
fn every_ascii_character_is_written_as_serde_json_writes_it() {
    for len in 0..20 {
        for c in 0..=0x7f_u8 {
            let text: String = (0..len)
                .map(|i| if i == len / 2 { char::from(c) } else { 'x' })
                .collect();
            let value = written(text, 1.5, -0.1, 42);
            let sent = send(&value).expect("sent");
            assert_eq!(
                sent.bytes(),
                serde_json::to_vec(&value).expect("serializes"),
                "byte {c:#x} in a string of {len}"
            );
        }
    }
}

#[derive(Debug, Serialize, HandoffSchema)]
struct Widths {
    a: u8,
    b: u16,
    c: u32,
    d: u64,
    e: i8,
    f: i16,
    g: i32,
    h: i64,
    i: i128,
    on: bool,
    off: bool,
    maybe: Option<u16>,
    keyed: BTreeMap<i16, u8>,
}

/// Integers of every width (small ones, around each digit count, negative ones) and both
/// booleans are written by `send`'s own writer as serde_json writes them.
#[test]
fn integers_of_every_width_and_booleans_are_written_as_serde_json_writes_them() {
    fn or_zero<T: TryFrom<i32> + Default>(v: i32) -> T {
        T::try_from(v).unwrap_or_default()
    }
    for v in -1_100..=1_100 {
        let value = Widths {
            a: or_zero(v),
            b: or_zero(v),
            c: or_zero(v),
            d: or_zero(v),
            e: or_zero(v),
            f: or_zero(v),
            g: v,
            h: i64::from(v),
            i: i128::from(v),
            on: v % 2 == 0,
            off: v % 2 != 0,
            maybe: u16::try_from(v).ok(),
            keyed: [(or_zero(v), or_zero(v))].into(),
        };
        assert!(sends_on_fast_path(&value), "{v}");
        let sent = send(&value).expect("sent");
        assert_eq!(
            sent.bytes(),
            serde_json::to_vec(&value).expect("serializes"),
            "{v}"
        );
    }
}

#[derive(Debug, PartialEq, Deserialize, HandoffSchema)]
struct Numbers {
    unsigned: u64,
    signed: i64,
    double: f64,
    byte: u8,
    maybe: Option<i32>,
    any: serde_json::Value,
}

/// Integers are read in one pass where their text is plain, and handed over as serde_json
/// hands them: every number at the edges of that reading is taken (or refused) as
/// `serde_json::from_slice` takes it, with the same value.
#[test]
fn numbers_at_the_edges_of_the_one_pass_integer_read_are_serde_jsons() {
    let texts = [
        "0",
        "-0",
        "00",
        "01",
        "-01",
        "7",
        "-7",
        "255",
        "256",
        "-1",
        "999999999999999999",
        "-999999999999999999",
        "9999999999999999999",
        "18446744073709551615",
        "18446744073709551616",
        "-9223372036854775808",
        "-9223372036854775809",
        "1.0",
        "-0.0",
        "1e2",
        "1E2",
        "12.5e-1",
        "-",
        "1.",
        "2147483648",
    ];
    for text in texts {
        for field in ["unsigned", "signed", "double", "byte", "maybe", "any"] {
            let mut fields = vec![
                ("unsigned", "1"),
                ("signed", "1"),
                ("double", "1"),
                ("byte", "1"),
                ("maybe", "1"),
                ("any", "1"),
            ];
            for (name, value) in &mut fields {
                if *name == field {
                    *value = text;
                }
            }
            let body: Vec<String> = fields
                .iter()
                .map(|(name, value)| format!(r#""{name}":{value}"#))
                .collect();
            let payload = format!("{{{}}}", body.join(","));
            let serde = serde_json::from_slice::<Numbers>(payload.as_bytes()).ok();
            let ours = receive::<Numbers>(payload.as_bytes())
                .ok()
                .map(contract_core::Received::into_inner);
            assert_eq!(ours, serde, "{payload}");
        }
    }
}

#[derive(Debug, Deserialize, HandoffSchema)]
#[serde(deny_unknown_fields)]
struct Strict {
    #[serde(alias = "nr")]
    n: u8,
    letter: char,
    fixed: [u8; 2],
    tagged: Kind,
    keyed: BTreeMap<u8, Status>,
    #[serde(default)]
    note: Option<String>,
}

const STRICT: &str = r#"{"n": 1, "letter": "a", "fixed": [1, 2], "tagged": {"Pair": [1, 2]},
    "keyed": {"1": "Open"}, "note": null}"#;

/// A payload of a type the fast path follows, which it gave up on because of problems the
/// description sees, has them listed in one more pass, without the full path's tape (with
/// the feature `__check-fast-path`, on here, the full path lists them again and must agree):
/// every problem in one call, in document order, the missing fields after their struct's
/// keys. Where the walk would decide from what follows, or the scan refuse the document,
/// the one pass gives up and the full path lists them.
#[test]
fn a_rejection_is_listed_in_one_pass_where_the_full_path_would_list_the_same() {
    assert!(takes_fast_path::<Strict>(STRICT.as_bytes()));
    let strict = |from: &str, to: &str| {
        assert!(STRICT.contains(from), "{from}");
        STRICT.replacen(from, to, 1).into_bytes()
    };
    let one_pass = [
        strict(r#""n": 1"#, r#""n": 300"#),
        strict(r#""n": 1"#, r#""n": -0"#),
        strict(r#""n": 1"#, r#""n": 1.5"#),
        // Integers at the edges of the one-pass integer read, each judged as the walk does.
        strict(r#""n": 1"#, r#""n": 255, "zz": 1"#),
        strict(r#""n": 1"#, r#""n": 0, "zz": 1"#),
        strict(r#""n": 1"#, r#""n": 256"#),
        strict(r#""n": 1"#, r#""n": -1"#),
        strict(r#""n": 1"#, r#""n": 999999999999999999"#),
        strict(r#""n": 1"#, r#""n": 123456789012345678901"#),
        strict(r#""n": 1"#, r#""n": 1e2"#),
        strict(r#""n": 1"#, r#""n":2, "zz": 1"#),
        strict(r#""n": 1"#, r#""n": null"#),
        strict(r#""n": 1"#, r#""n": "1""#),
        strict(r#""n": 1"#, r#""n": [1, {"a": 1}]"#),
        strict(r#""n": 1"#, r#""n": 1, "nr": 2"#),
        strict(r#""n": 1, "#, ""),
        strict(r#""letter": "a""#, r#""letter": "ab""#),
        strict(r#""letter": "a""#, r#""letter": "éé""#),
        strict(r#""fixed": [1, 2]"#, r#""fixed": [1, 999]"#),
        strict(r#""fixed": [1, 2]"#, r#""fixed": {}"#),
        strict(r#"{"Pair": [1, 2]}"#, r#"{"Pair": [1, -2]}"#),
        strict(r#"{"Pair": [1, 2]}"#, r#"{"Pair": {"x": 1}}"#),
        strict(r#"{"Pair": [1, 2]}"#, r#"{"Bulk": {"units": -1, "x": 2}}"#),
        strict(r#"{"Pair": [1, 2]}"#, r#"{"Bulk": 3}"#),
        strict(r#"{"Pair": [1, 2]}"#, r#"{"Nope": [1]}"#),
        strict(r#"{"Pair": [1, 2]}"#, r#"{"Plain": 1}"#),
        strict(r#"{"Pair": [1, 2]}"#, r#""Nope""#),
        strict(r#"{"Pair": [1, 2]}"#, r#""Gift""#),
        strict(r#"{"Pair": [1, 2]}"#, r#"{}"#),
        strict(
            r#"{"1": "Open"}"#,
            r#"{"x": "Open", "2": "Shut", "-0": "Open"}"#,
        ),
        strict(r#""note": null"#, r#""note": 5, "extra\/~": 1"#),
        strict(r#""note": null"#, r#""n\u0065w": 1, "e\u0301": 2"#),
    ];
    for bytes in &one_pass {
        let text = String::from_utf8_lossy(bytes);
        assert!(!takes_fast_path::<Strict>(bytes), "{text}");
        assert!(rejects_in_one_pass::<Strict>(bytes), "{text}");
        assert!(receive::<Strict>(bytes).is_err(), "{text}");
    }
    let full_path = [
        // The scan refuses, or the walk decides from what follows.
        strict(r#""n": 1"#, r#""n": 300, "n": 2"#),
        strict(r#""n": 1"#, r#""n": 300, "x": {"k": 1, "k": 2}"#),
        strict(r#""n": 1"#, r#""n": 300,"#),
        strict(r#""n": 1"#, r#""n": 01, "zz": 1"#),
        strict(r#""n": 1"#, r#""n": 1x, "zz": 1"#),
        strict(r#""n": 1"#, r#""n": "\udc00""#),
        strict(r#""fixed": [1, 2]"#, r#""fixed": [1, 2, 3]"#),
        strict(r#"{"Pair": [1, 2]}"#, r#"{"Pair": [1, 2], "Plain": null}"#),
        // A key twice, and nothing else.
        strict(r#""n": 1"#, r#""n": 1, "note": "x", "note": "y""#),
    ];
    for bytes in &full_path {
        let text = String::from_utf8_lossy(bytes);
        assert!(!rejects_in_one_pass::<Strict>(bytes), "{text}");
        assert!(receive::<Strict>(bytes).is_err(), "{text}");
    }
    // Every problem of a payload at once, the missing field after the struct's keys.
    let bytes = strict(r#""n": 1, "letter": "a""#, r#""n": 300, "x": 1"#);
    assert!(rejects_in_one_pass::<Strict>(&bytes));
    let Err(rejection) = receive::<Strict>(&bytes) else {
        panic!("accepted")
    };
    let listed: Vec<(&str, &ProblemKind)> = rejection
        .problems()
        .iter()
        .map(|p| (p.pointer.as_str(), &p.kind))
        .collect();
    assert_eq!(listed.len(), 3, "{listed:?}");
    assert_eq!(listed[0].0, "/n");
    assert!(matches!(listed[0].1, ProblemKind::OutOfRange { .. }));
    assert_eq!(listed[1].0, "/x");
    assert!(matches!(listed[1].1, ProblemKind::UnknownField { .. }));
    assert_eq!(listed[2].0, "/letter");
    assert!(matches!(listed[2].1, ProblemKind::MissingField { .. }));
    assert_eq!(rejection.presence().missing(), ["letter"]);
}

const ORDER: &str = r#"{"orderRef": "o-1", "lines": [{"sku": "a", "qty": 1, "x": 1},
    {"sku": "b", "qty": 2}], "status": "Open", "kind": "Plain", "note": null,
    "meta": {"k": 1}, "pair": [1, "p"]}"#;

/// Where the fast path gave up inside the top-level struct, the one-pass rejection goes on
/// from the last top-level key it began, with the record it kept (what came after that key
/// forgotten): the same problems and presence as the full path (checked by the feature
/// `__check-fast-path` on every rejection). Where the record holds what forgetting cannot
/// undo (an unknown top-level key, an unknown key with an escape), it starts over; where a
/// key after the checkpoint names a field filled before it, the full path decides.
#[test]
fn a_rejection_goes_on_from_where_the_fast_path_gave_up() {
    assert!(takes_fast_path::<Order>(ORDER.as_bytes()));
    let order = |from: &str, to: &str| {
        assert!(ORDER.contains(from), "{from}");
        ORDER.replacen(from, to, 1).into_bytes()
    };
    let from_checkpoint = [
        // Late, with an unknown key named before the checkpoint.
        order(r#"[1, "p"]"#, r#"[300, "p"]"#),
        order(r#"[1, "p"]"#, r#"[1, {"y": 1}]"#),
        // In the second line, the unknown key of the first forgotten and met again.
        order(r#""qty": 2"#, r#""qty": -2, "z": 1"#),
        order(r#""qty": 2"#, r#""qty": -2, "x": 1"#),
        // A field missing: serde refuses at the end, the pass goes on from the last key.
        order(r#", "pair": [1, "p"]"#, ""),
        order(r#""status": "Open""#, r#""status": "Shut""#),
        order(r#""kind": "Plain""#, r#""kind": {"Bulk": {"units": -1}}"#),
        order(r#""meta": {"k": 1}"#, r#""meta": {"k": -1, "j": 2}"#),
        order(r#""note": null"#, r#""note": 5"#),
    ];
    for bytes in &from_checkpoint {
        let text = String::from_utf8_lossy(bytes);
        assert!(!takes_fast_path::<Order>(bytes), "{text}");
        assert!(rejects_from_checkpoint::<Order>(bytes), "{text}");
        assert!(receive::<Order>(bytes).is_err(), "{text}");
    }
    let late = |from: &str, to: &str| {
        String::from_utf8_lossy(&order(from, to))
            .replacen(r#"[1, "p"]"#, r#"[300, "p"]"#, 1)
            .into_bytes()
    };
    let from_start = [
        // An unknown top-level key before the checkpoint.
        late(r#""note": null"#, r#""note": null, "zz": 1"#),
        // An unknown key with an escape, named in the record as it came.
        late(r#""x": 1"#, r#""\u0078": 1"#),
        // No key begun: no checkpoint.
        b"[1]".to_vec(),
    ];
    for bytes in &from_start {
        let text = String::from_utf8_lossy(bytes);
        assert!(!rejects_from_checkpoint::<Order>(bytes), "{text}");
        assert!(rejects_in_one_pass::<Order>(bytes), "{text}");
        assert!(receive::<Order>(bytes).is_err(), "{text}");
    }
    // A field filled before the checkpoint named again after it: the full path says how.
    let again = order(r#"[1, "p"]"#, r#"[300, "p"], "orderRef": "o-2""#);
    assert!(!rejects_in_one_pass::<Order>(&again));
    assert!(receive::<Order>(&again).is_err());
}

/// A map key outside its constraint (serde reads a key's kind and no more) makes the fast
/// path give up, so that the full path lists it: before, the fast path let it through, and
/// a rejection that went on from a later key would not have listed it.
#[test]
fn a_constrained_map_key_outside_its_constraint_is_left_to_the_full_path() {
    use contract_core::schema::shape::{ConstraintShape, Kind, Shape, StringFormat};

    #[derive(Debug, PartialEq, Eq, PartialOrd, Ord, Deserialize)]
    #[serde(transparent)]
    struct Code(String);

    impl HandoffSchema for Code {
        const SHAPE: &'static Shape =
            &Shape::builtin(Kind::Constrained(&ConstraintShape::String {
                format: StringFormat::Plain,
                min_len: 1,
                max_len: Some(4),
                pattern: None,
            }));
    }

    #[derive(Debug, Deserialize, HandoffSchema)]
    struct Coded {
        by_code: BTreeMap<Code, u8>,
        code: Code,
    }

    let ok = br#"{"by_code": {"abcd": 1}, "code": "ab"}"#;
    assert!(takes_fast_path::<Coded>(ok));
    let bad_key = br#"{"by_code": {"abcde": 1}, "code": "ab"}"#;
    assert!(!takes_fast_path::<Coded>(bad_key));
    let Err(rejection) = receive::<Coded>(bad_key) else {
        panic!("accepted")
    };
    let listed: Vec<(&str, &ProblemKind)> = rejection
        .problems()
        .iter()
        .map(|p| (p.pointer.as_str(), &p.kind))
        .collect();
    assert_eq!(listed.len(), 1, "{listed:?}");
    assert_eq!(listed[0].0, "/by_code/*");
    assert!(matches!(listed[0].1, ProblemKind::InvalidKey { .. }));
    // With a later problem too: both listed, the key's first.
    let both = br#"{"by_code": {"abcde": 1}, "code": ""}"#;
    let Err(rejection) = receive::<Coded>(both) else {
        panic!("accepted")
    };
    let pointers: Vec<&str> = rejection
        .problems()
        .iter()
        .map(|p| p.pointer.as_str())
        .collect();
    assert_eq!(pointers, ["/by_code/*", "/code"]);
}
