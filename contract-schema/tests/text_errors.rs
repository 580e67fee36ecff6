//! Any input gets a schema or a located error, never a panic, and errors stay short.

use contract_schema::arbitrary::arb_schema;
use contract_schema::snapshot;
use contract_schema::text::{parse, parse_type, to_text};
use proptest::prelude::*;

/// Errors locate a real position and quote little of the input.
fn check_error(text: &str, error: &contract_schema::text::ParseError) -> Result<(), TestCaseError> {
    let lines = text.split('\n').count();
    prop_assert!(
        error.line() >= 1 && error.line() <= lines.max(1),
        "line {} of {}",
        error.line(),
        lines
    );
    prop_assert!(error.column() >= 1);
    prop_assert!(
        error.message().chars().count() < 400,
        "long message: {}",
        error.message()
    );
    let prefix = format!("line {}, column {}: ", error.line(), error.column());
    prop_assert!(error.to_string().starts_with(&prefix));
    Ok(())
}

/// Single-character edits of a valid text, at a position chosen by `at`.
fn edit(text: &str, at: usize, kind: u8, c: char) -> String {
    let chars: Vec<char> = text.chars().collect();
    if chars.is_empty() {
        return c.to_string();
    }
    let at = at % chars.len();
    let mut out: Vec<char> = chars.clone();
    match kind % 3 {
        0 => {
            out.remove(at);
        }
        1 => out.insert(at, c),
        _ => out[at] = c,
    }
    out.into_iter().collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn arbitrary_input_never_panics(text in "\\PC*") {
        if let Err(e) = parse(&text) {
            check_error(&text, &e)?;
        }
        let _ = snapshot::parse(&text);
        let _ = parse_type(&text);
    }

    #[test]
    fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..200)) {
        let text = String::from_utf8_lossy(&bytes);
        if let Err(e) = parse(&text) {
            check_error(&text, &e)?;
        }
    }

    #[test]
    fn edited_schemas_parse_or_fail_with_a_location(
        schema in arb_schema(),
        at in any::<usize>(),
        kind in any::<u8>(),
        c in prop::sample::select(vec![' ', '"', '\\', ':', '<', '>', '(', ')', ',', ';', 'x', '\n', '\t', '-', '0']),
    ) {
        let text = edit(&to_text(&schema), at, kind, c);
        match parse(&text) {
            // Whatever an edit leaves valid reads back to the same text.
            Ok(parsed) => prop_assert_eq!(parse(&to_text(&parsed)), Ok(parsed)),
            Err(e) => check_error(&text, &e)?,
        }
    }

    #[test]
    fn dropping_a_line_parses_or_fails_with_a_location(schema in arb_schema(), at in any::<usize>()) {
        let text = to_text(&schema);
        let lines: Vec<&str> = text.lines().collect();
        let drop = at % lines.len();
        let edited: String = lines
            .iter()
            .enumerate()
            .filter(|(i, _)| *i != drop)
            .map(|(_, l)| format!("{l}\n"))
            .collect();
        if let Err(e) = parse(&edited) {
            check_error(&edited, &e)?;
        }
    }
}
