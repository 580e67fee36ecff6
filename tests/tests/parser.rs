//! `receive`'s fast path parses the bytes itself: it must read exactly what
//! `serde_json::from_slice` reads, token by token. Every case below edits one token of a valid
//! payload (strings and their escapes, numbers at every edge of every kind, literals,
//! whitespace, separators, map keys read as numbers and booleans, enum forms) and checks
//! that `receive` accepts exactly when serde_json does, reads the same value, and does so on
//! its fast path (apart from the points where `receive` is stricter than serde, named in the
//! table). With the feature `__check-fast-path` (on in these tests) the full path checks
//! every payload the fast path accepts, too.

use std::collections::BTreeMap;

use contract_core::__private::takes_fast_path;
use contract_core::{receive, HandoffSchema};
use serde::{Deserialize, Serialize};

/// A field of every scalar kind, map keys of every kind serde_json parses, an enum of every
/// variant kind.
#[derive(Debug, Serialize, Deserialize, HandoffSchema)]
struct Every {
    text: String,
    ch: char,
    small: u8,
    signed: i64,
    wide: i128,
    uwide: u128,
    single: f32,
    double: f64,
    flag: bool,
    maybe: Option<u32>,
    unit: (),
    list: Vec<i32>,
    by_number: BTreeMap<u32, bool>,
    by_signed: BTreeMap<i8, u8>,
    by_flag: BTreeMap<bool, u8>,
    by_name: BTreeMap<String, u8>,
    kind: Kind,
}

#[derive(Debug, Serialize, Deserialize, HandoffSchema)]
enum Kind {
    Plain,
    Gift(String),
    Bulk { units: u32 },
    Pair(u8, u8),
}

const VALID: &str = r#"{"text":"plain","ch":"c","small":7,"signed":-7,"wide":7,"uwide":7,"single":1.5,"double":2.5,"flag":true,"maybe":null,"unit":null,"list":[1,2],"by_number":{"1":true},"by_signed":{"-1":1},"by_flag":{"true":1},"by_name":{"a":1},"kind":"Plain"}"#;

/// Whether `receive` may refuse what serde_json accepts in a case: it is one of the points
/// where `receive` is stricter (DESIGN.md's list).
#[derive(Clone, Copy, PartialEq)]
enum Serde {
    /// `receive` and serde_json agree.
    Agrees,
    /// `receive` refuses what serde_json takes.
    Stricter,
}

use Serde::{Agrees, Stricter};

/// `VALID` with `from` replaced by `to`.
fn edit(from: &str, to: &str) -> Vec<u8> {
    assert!(VALID.contains(from), "{from} is not in the payload");
    VALID.replacen(from, to, 1).into_bytes()
}

/// `receive` accepts `bytes` exactly when serde_json does (or refuses them, where it is
/// stricter), reads the same value, and accepts on its fast path.
fn agree(bytes: &[u8], how: Serde) {
    let shown = String::from_utf8_lossy(bytes);
    let by_serde = serde_json::from_slice::<Every>(bytes);
    match (receive::<Every>(bytes), by_serde) {
        (Ok(received), Ok(by_serde)) => {
            assert!(how == Agrees, "receive accepts a stricter point: {shown}");
            assert_eq!(
                serde_json::to_string(received.value()).ok(),
                serde_json::to_string(&by_serde).ok(),
                "another value than serde_json's: {shown}"
            );
            assert!(
                takes_fast_path::<Every>(bytes),
                "not on the fast path: {shown}"
            );
        }
        (Ok(_), Err(e)) => panic!("receive accepts what serde_json refuses ({e}): {shown}"),
        (Err(rejection), Ok(_)) => {
            assert!(
                how == Stricter,
                "receive refuses what serde_json takes: {shown}: {rejection}"
            );
        }
        (Err(_), Err(_)) => assert!(!takes_fast_path::<Every>(bytes), "{shown}"),
    }
}

#[test]
fn the_valid_payload_and_its_whitespace_take_the_fast_path() {
    agree(VALID.as_bytes(), Agrees);
    let value: Every = serde_json::from_str(VALID).expect("valid");
    let pretty = serde_json::to_string_pretty(&value).expect("writes");
    agree(pretty.as_bytes(), Agrees);
    agree(format!(" \n\t\r{VALID} \n\t\r").as_bytes(), Agrees);
    let spaced = VALID
        .replace(':', " \t: \n")
        .replace(',', "\r\n , ")
        .replace('[', "[ ")
        .replace(']', " ]");
    agree(spaced.as_bytes(), Agrees);
    for bad in [
        format!("{VALID}x"),
        format!("{VALID}{{}}"),
        format!("\u{feff}{VALID}"),
        format!("\u{b}{VALID}"),
        String::new(),
        " ".into(),
        "null".into(),
        "[]".into(),
        VALID[..VALID.len() - 1].into(),
    ] {
        agree(bad.as_bytes(), Agrees);
    }
}

#[test]
fn strings_and_escapes_read_as_serde_json_reads_them() {
    for (text, how) in [
        (r#""a\"b\\c\/d\b\f\n\r\t""#, Agrees),
        (r#""\u0041\u00e9\u20ac\ud83d\ude00\uD83D\uDE00""#, Agrees),
        (r#""\u0000""#, Agrees),
        (r#""é€😀 mixed \n escapes""#, Agrees),
        (r#""""#, Agrees),
        (r#""\ud83d""#, Agrees),
        (r#""\ude00""#, Agrees),
        (r#""\ud83d\u0041""#, Agrees),
        (r#""\ud83dx""#, Agrees),
        (r#""\x""#, Agrees),
        (r#""\u12""#, Agrees),
        (r#""\u12G4""#, Agrees),
        ("\"tab\there\"", Agrees),
        ("\"nul\u{0}\"", Agrees),
        ("\"del\u{7f}\"", Agrees),
        (r#""unterminated"#, Agrees),
        (r#"'single'"#, Agrees),
        (r#"5"#, Agrees),
        (r#"null"#, Agrees),
    ] {
        agree(&edit(r#""plain""#, text), how);
    }
    // Bytes that are not UTF-8, bare and around an escape.
    for bytes in [
        &b"\"\xff\""[..],
        b"\"a\xc3\"",
        b"\"\xc3\\n\xa9\"",
        b"\"\xed\xa0\x80\"",
    ] {
        let mut payload = VALID.as_bytes().to_vec();
        let at = VALID.find(r#""plain""#).expect("there");
        payload.splice(at..at + 7, bytes.iter().copied());
        agree(&payload, Agrees);
    }
    for ch in [
        r#""é""#,
        r#""\u00e9""#,
        r#""ab""#,
        r#""""#,
        r#""\ud83d\ude00""#,
    ] {
        agree(&edit(r#""ch":"c""#, &format!(r#""ch":{ch}"#)), Agrees);
    }
}

#[test]
fn numbers_read_as_serde_json_reads_them_at_every_edge() {
    let cases: &[(&str, &[&str])] = &[
        (
            r#""small":7"#,
            &[
                "0", "255", "256", "-1", "-0", "1.0", "1e2", "01", "00", "+1", "1_0", "0x1",
            ],
        ),
        (
            r#""signed":-7"#,
            &[
                "-9223372036854775808",
                "-9223372036854775809",
                "9223372036854775807",
                "9223372036854775808",
                "18446744073709551615",
                "18446744073709551616",
                "-0",
                "0",
                "-",
                "--1",
                "-01",
            ],
        ),
        (
            r#""wide":7"#,
            &[
                "170141183460469231731687303715884105727",
                "170141183460469231731687303715884105728",
                "-170141183460469231731687303715884105728",
                "-170141183460469231731687303715884105729",
                "-0",
                "1e3",
                "1.5",
            ],
        ),
        (
            r#""uwide":7"#,
            &[
                "340282366920938463463374607431768211455",
                "340282366920938463463374607431768211456",
                "-1",
                "-0",
                "0",
            ],
        ),
        (
            r#""single":1.5"#,
            &[
                "0.1",
                "-0.0",
                "5",
                "-5",
                "3.4028235e38",
                "1e39",
                "1e400",
                "1e-50",
                "1.",
                ".5",
                "1.5e",
                "1.5e+",
                "1E5",
                "1e+5",
                "1e-5",
            ],
        ),
        (
            r#""double":2.5"#,
            &[
                "0.30000000000000004",
                "2.2250738585072014e-308",
                "4.9e-324",
                "1e-400",
                "1e400",
                "-1e400",
                "1.7976931348623157e308",
                "123456789012345678901234567890",
                "-123456789012345678901234567890",
                "18446744073709551616",
                "0.1e1",
                "0e0",
                "-0e-0",
                "1.5.3",
                "1e5e5",
                "NaN",
                "Infinity",
                "\"1.5\"",
            ],
        ),
    ];
    for (from, tries) in cases {
        let key = from.split(':').next().expect("a key");
        for number in *tries {
            agree(&edit(from, &format!("{key}:{number}")), Agrees);
        }
    }
}

#[test]
fn literals_options_units_and_arrays_read_as_serde_json_reads_them() {
    for (from, to) in [
        (r#""flag":true"#, r#""flag":false"#),
        (r#""flag":true"#, r#""flag":tru"#),
        (r#""flag":true"#, r#""flag":truex"#),
        (r#""flag":true"#, r#""flag":"true""#),
        (r#""flag":true"#, r#""flag":1"#),
        (r#""maybe":null"#, r#""maybe":5"#),
        (r#""maybe":null"#, r#""maybe":nul"#),
        (r#""maybe":null"#, r#""maybe":-1"#),
        (r#""unit":null"#, r#""unit":0"#),
        (r#""unit":null"#, r#""unit":[]"#),
        (r#""list":[1,2]"#, r#""list":[]"#),
        (r#""list":[1,2]"#, r#""list":[ ]"#),
        (r#""list":[1,2]"#, r#""list":[1,]"#),
        (r#""list":[1,2]"#, r#""list":[,1]"#),
        (r#""list":[1,2]"#, r#""list":[1 2]"#),
        (r#""list":[1,2]"#, r#""list":[1,2]]"#),
        (r#""list":[1,2]"#, r#""list":[1,2"#),
        (r#""list":[1,2]"#, r#""list":[-2147483648,2147483647]"#),
        (r#""list":[1,2]"#, r#""list":[2147483648]"#),
        (r#""list":[1,2]"#, r#""list":{}"#),
        (r#""list":[1,2]"#, r#""list":null"#),
        (r#","flag""#, r#",,"flag""#),
        (r#","flag""#, r#" "flag""#),
        (r#""flag":"#, r#""flag" "#),
        (r#""flag":"#, r#"flag:"#),
        (r#""kind":"Plain"}"#, r#""kind":"Plain",}"#),
    ] {
        agree(&edit(from, to), Agrees);
    }
}

#[test]
fn map_keys_read_as_numbers_and_booleans_where_the_key_type_asks() {
    for key in [
        "1",
        "0",
        "4294967295",
        "4294967296",
        "007",
        "-1",
        "-0",
        "1.5",
        "1e2",
        " 1",
        "1 ",
        "\\u0031",
        "",
        "x",
        "+1",
    ] {
        agree(
            &edit(r#"{"1":true}"#, &format!(r#"{{"{key}":true}}"#)),
            Agrees,
        );
    }
    for key in ["-128", "127", "-129", "128", "-0", "0", "-"] {
        agree(&edit(r#"{"-1":1}"#, &format!(r#"{{"{key}":1}}"#)), Agrees);
    }
    for key in ["true", "false", "True", "1", "\\u0074rue", "true "] {
        agree(&edit(r#"{"true":1}"#, &format!(r#"{{"{key}":1}}"#)), Agrees);
    }
    for keys in [
        r#"{"a":1,"b":2}"#,
        r#"{"\u0061":1}"#,
        r#"{"a":1,"\u0061":2}"#,
        r#"{"a":1,"a":2}"#,
        r#"{}"#,
        r#"{"a":1,}"#,
        r#"{"a" 1}"#,
        r#"{1:1}"#,
    ] {
        let how = if keys.contains(r#""a":1,"a""#) || keys.contains(r#""a":1,"\u0061""#) {
            // A key twice in one map: serde keeps the last value, `receive` refuses.
            Stricter
        } else {
            Agrees
        };
        agree(&edit(r#"{"a":1}"#, keys), how);
    }
    // Two keys that are one number: serde_json keeps the last, `receive` reads them as two
    // spellings of keys and refuses neither (the full path agrees).
    agree(&edit(r#"{"1":true}"#, r#"{"1":true,"2":false}"#), Agrees);
}

#[test]
fn enums_read_as_serde_json_reads_them() {
    for (kind, how) in [
        (r#""Plain""#, Agrees),
        (r#""\u0050lain""#, Agrees),
        (r#"{"Gift":"g"}"#, Agrees),
        (r#"{"\u0047ift":"g"}"#, Agrees),
        (r#"{ "Gift" : "g" }"#, Agrees),
        (r#"{"Bulk":{"units":1}}"#, Agrees),
        (r#"{"Pair":[1,2]}"#, Agrees),
        (r#"{"Pair":[1,2,3]}"#, Agrees),
        (r#"{"Pair":[1]}"#, Agrees),
        (r#"{"Plain":null}"#, Stricter),
        (r#"{"Gift":"g","Plain":null}"#, Agrees),
        (r#"{"Gift":"g",}"#, Agrees),
        (r#"{}"#, Agrees),
        (r#"{"Nope":1}"#, Agrees),
        (r#""Gift""#, Agrees),
        (r#""plain""#, Agrees),
        (r#"["Plain"]"#, Agrees),
        (r#"{"Bulk":{"units":1,"units":2}}"#, Agrees),
    ] {
        agree(
            &edit(r#""kind":"Plain""#, &format!(r#""kind":{kind}"#)),
            how,
        );
    }
}
