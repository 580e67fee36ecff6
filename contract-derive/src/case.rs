//! Small text helpers: the kebab-case spelling of a name and doc comments (whether a name
//! is a contract name is `contract_schema::contract::is_contract_name`, "did you mean" is
//! `contract_schema::suggest`).

/// The kebab-case spelling of `name` (`RefundRequest`, `refund_request`, `Refund Request`
/// all become `refund-request`), keeping only ASCII letters and digits.
pub fn to_kebab_case(name: &str) -> String {
    let mut out = String::with_capacity(name.len() + 4);
    let mut prev_lower_or_digit = false;
    let chars: Vec<char> = name.chars().collect();
    for (i, &c) in chars.iter().enumerate() {
        if c.is_ascii_alphanumeric() {
            let next_lower = chars.get(i + 1).is_some_and(char::is_ascii_lowercase);
            // A word starts at an uppercase letter after a lowercase one or a digit
            // (`refundRequest`), or at the last capital of an acronym (`HTTPServer`).
            let boundary = c.is_ascii_uppercase()
                && (prev_lower_or_digit
                    || (next_lower && out.chars().last().is_some_and(|p| p != '-')));
            if boundary && !out.is_empty() && !out.ends_with('-') {
                out.push('-');
            }
            out.push(c.to_ascii_lowercase());
            prev_lower_or_digit = c.is_ascii_lowercase() || c.is_ascii_digit();
        } else {
            if !out.is_empty() && !out.ends_with('-') {
                out.push('-');
            }
            prev_lower_or_digit = false;
        }
    }
    while out.ends_with('-') {
        out.pop();
    }
    // A kebab name starts with a letter.
    let start = out
        .find(|c: char| c.is_ascii_lowercase())
        .unwrap_or(out.len());
    out.split_off(start)
}

/// Joins doc-comment lines with `\n`, removing their common indentation and the blank
/// lines around them.
pub fn trim_doc(lines: &[String]) -> String {
    let lines: Vec<&str> = lines.iter().flat_map(|l| l.split('\n')).collect();
    let indent = lines
        .iter()
        .filter(|l| !l.trim().is_empty())
        .map(|l| l.len() - l.trim_start().len())
        .min()
        .unwrap_or(0);
    let trimmed: Vec<&str> = lines
        .iter()
        .map(|l| l.get(indent..).unwrap_or("").trim_end())
        .collect();
    let first = trimmed.iter().position(|l| !l.is_empty());
    let last = trimmed.iter().rposition(|l| !l.is_empty());
    match (first, last) {
        (Some(first), Some(last)) => trimmed.get(first..=last).unwrap_or(&[]).join("\n"),
        _ => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use contract_schema::contract::is_contract_name;

    #[test]
    fn kebab_case_is_suggested() {
        assert_eq!(to_kebab_case("RefundRequest"), "refund-request");
        assert_eq!(to_kebab_case("refund_request"), "refund-request");
        assert_eq!(to_kebab_case("Refund Request"), "refund-request");
        assert_eq!(to_kebab_case("refundRequestV2"), "refund-request-v2");
        assert_eq!(to_kebab_case("HTTPServer"), "http-server");
        assert_eq!(to_kebab_case("__x__"), "x");
        assert_eq!(to_kebab_case("2fa"), "fa");
        for name in ["Task Result 2", "2fa", "refund__request", "HTTP2Server"] {
            assert!(is_contract_name(&to_kebab_case(name)), "{name}");
        }
    }

    #[test]
    fn doc_lines_are_trimmed_and_joined() {
        let lines = vec![
            " A refund.".to_owned(),
            "".to_owned(),
            "     indented".to_owned(),
            " ".to_owned(),
        ];
        assert_eq!(trim_doc(&lines), "A refund.\n\n    indented");
        assert_eq!(trim_doc(&[]), "");
        assert_eq!(trim_doc(&["\n  one\n  two\n".to_owned()]), "one\ntwo");
    }
}
