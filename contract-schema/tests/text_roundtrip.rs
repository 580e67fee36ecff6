//! The canonical text holds every fact of the model: `parse(to_text(s)) == s`.

use contract_schema::arbitrary::arb_schema;
use contract_schema::text::{parse, parse_snapshot, to_text};
use proptest::prelude::*;

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn parse_reads_back_what_to_text_writes(schema in arb_schema()) {
        let text = to_text(&schema);
        let parsed = parse(&text);
        prop_assert_eq!(parsed.as_ref(), Ok(&schema), "text:\n{}", text);
    }

    #[test]
    fn the_text_is_canonical(schema in arb_schema()) {
        let text = to_text(&schema);
        let again = to_text(&parse(&text).unwrap());
        prop_assert_eq!(text, again);
    }

    #[test]
    fn a_snapshot_file_reads_back(schema in arb_schema()) {
        let contents = format!(
            "---\nsource: tests/contracts.rs\nexpression: text\n---\n{}",
            to_text(&schema)
        );
        prop_assert_eq!(parse_snapshot(&contents), Ok(schema));
    }

    #[test]
    fn one_fact_per_line(schema in arb_schema()) {
        let text = to_text(&schema);
        for line in text.lines() {
            prop_assert!(!line.ends_with(' '), "trailing space in {:?}", line);
            let indent = line.len() - line.trim_start_matches(' ').len();
            prop_assert_eq!(indent % 2, 0, "odd indentation in {:?}", line);
        }
        prop_assert!(text.ends_with('\n'));
    }
}
