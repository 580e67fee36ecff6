//! The `url`, `indexmap` and `time` features: the forms those crates write, pinned (the
//! fidelity harness checks them against serde on generated instances, `OtherCrates`).

use contract_core::schema::text::to_text;
use contract_core::{json_schema, receive, HandoffSchema, View};
use contract_tests::types::OtherCrates;
use serde_json::json;

#[test]
fn the_forms_these_crates_write() {
    // time's `serde` feature (not `serde-human-readable`): numbers and arrays.
    assert_eq!(serde_json::to_value(time::Month::May).ok(), Some(json!(5)));
    assert_eq!(
        serde_json::to_value(time::Weekday::Sunday).ok(),
        Some(json!(7))
    );
    assert_eq!(
        serde_json::to_value(time::Time::from_hms_nano(23, 59, 58, 999_999_999).expect("valid"))
            .ok(),
        Some(json!([23, 59, 58, 999_999_999]))
    );
    let url = url::Url::parse("HTTPS://Example.com/a b").expect("absolute");
    assert_eq!(
        serde_json::to_value(&url).ok(),
        Some(json!("https://example.com/a%20b"))
    );
}

#[test]
fn the_descriptions() {
    let text = to_text(&OtherCrates::schema());
    for expected in [
        "field url: string(uri)",
        "field by_url: map<string(uri), u8>",
        "field index_map: map<string, u8>",
        "field index_set: set<u16>",
        "newtype Time: tuple(u8(0..=23), u8(0..=59), u8(0..=59), u32(0..=999999999))",
        "newtype Weekday: u8(1..=7)",
        "newtype Month: u8(1..=12)",
        "newtype UtcOffset: tuple(i8(-25..=25), i8(-59..=59), i8(-59..=59))",
        "newtype Duration: tuple(i64, i32(-999999999..=999999999))",
    ] {
        assert!(text.contains(expected), "{expected}\n{text}");
    }
    let receiver =
        jsonschema::draft202012::new(&json_schema::<time::Time>(View::Receiver)).expect("compiles");
    assert!(receiver.is_valid(&json!([0, 0, 0, 0])));
    assert!(!receiver.is_valid(&json!([24, 0, 0, 0])));
    assert!(!receiver.is_valid(&json!([0, 60, 0, 0])));
    assert!(!receiver.is_valid(&json!([0, 0, 0])));
}

#[test]
fn receive_agrees_with_these_crates() {
    for (payload, serde) in [
        (&br#"[23, 59, 59, 0]"#[..], true),
        (br#"[24, 0, 0, 0]"#, false),
        (br#"[0, 0, 0, 1000000000]"#, false),
    ] {
        assert_eq!(serde_json::from_slice::<time::Time>(payload).is_ok(), serde);
        assert_eq!(receive::<time::Time>(payload).is_ok(), serde);
    }
    for (payload, serde) in [
        (&b"7"[..], true),
        (b"0", false),
        (b"8", false),
        (br#""Monday""#, false),
    ] {
        assert_eq!(
            serde_json::from_slice::<time::Weekday>(payload).is_ok(),
            serde
        );
        assert_eq!(receive::<time::Weekday>(payload).is_ok(), serde);
    }
    // A duration's nanoseconds within ±999999999, whatever their sign beside the seconds.
    for (payload, serde) in [
        (&br#"[1, -999999999]"#[..], true),
        (br#"[-1, 5]"#, true),
        (br#"[0, 1000000000]"#, false),
    ] {
        assert_eq!(
            serde_json::from_slice::<time::Duration>(payload).is_ok(),
            serde
        );
        assert_eq!(receive::<time::Duration>(payload).is_ok(), serde);
    }
    // A relative URL is a string, and no URL: the description cannot see it, serde refuses.
    assert!(serde_json::from_slice::<url::Url>(br#""/relative""#).is_err());
    assert!(receive::<url::Url>(br#""/relative""#).is_err());
    assert!(receive::<url::Url>(br#""https://example.com/""#).is_ok());
    // A set refuses a repeated item, where indexmap merges it.
    assert!(serde_json::from_slice::<indexmap::IndexSet<u8>>(b"[1, 1]").is_ok());
    assert!(receive::<indexmap::IndexSet<u8>>(b"[1, 1]").is_err());
}

/// The guide's recipe for `chrono::serde::ts_seconds`: what it writes is the `i64` the
/// sender view describes, and what the receiver view admits within chrono's dates, chrono reads.
#[test]
fn the_ts_seconds_recipe() {
    use serde::{Deserialize, Serialize};

    #[derive(Serialize, Deserialize, HandoffSchema)]
    struct Seen {
        #[serde(with = "chrono::serde::ts_seconds")]
        #[handoff(schema_as = i64)]
        at: chrono::DateTime<chrono::Utc>,
    }

    let sender =
        jsonschema::draft202012::new(&json_schema::<Seen>(View::Sender)).expect("compiles");
    let at = chrono::DateTime::from_timestamp(1_700_000_000, 0).expect("in range");
    let written = serde_json::to_value(Seen { at }).expect("written");
    assert_eq!(written, json!({"at": 1_700_000_000}));
    assert!(sender.is_valid(&written));
    for seconds in [-1_i64, 0, 1_700_000_000] {
        let bytes = serde_json::to_vec(&json!({"at": seconds})).expect("bytes");
        assert!(receive::<Seen>(&bytes).is_ok(), "{seconds}");
    }
    // Beyond chrono's dates: an `i64`, which chrono refuses (the recipe's looser point).
    let beyond = serde_json::to_vec(&json!({"at": i64::MAX})).expect("bytes");
    assert!(serde_json::from_slice::<Seen>(&beyond).is_err());
    assert!(receive::<Seen>(&beyond).is_err());
}

/// A URL fits a reader's plain string; a plain string does not fit a reader's URL.
#[test]
fn a_url_is_a_string_of_its_format_to_compatibility() {
    use contract_core::schema::compat::{self, Rule};
    use serde::{Deserialize, Serialize};

    #[derive(Serialize, Deserialize, HandoffSchema)]
    struct WithUrl {
        link: url::Url,
    }

    #[derive(Serialize, Deserialize, HandoffSchema)]
    struct WithString {
        link: String,
    }

    assert!(compat::check(&WithUrl::schema(), &WithString::schema()).is_compatible());
    let report = compat::check(&WithString::schema(), &WithUrl::schema());
    let rules: Vec<Rule> = report.findings().iter().map(|f| f.rule).collect();
    assert_eq!(rules, [Rule::StringFormatChanged], "{report}");
}
