//! Names as text of the pages the tools write: HTML and the SVG inside it.
//!
//! Shared by the session page (`contract-core`) and the workflow's graph page
//! (`contract-workflow`), which both depend on this crate and not on each other, so that both
//! escape a name the same way. Public for those crates only (hidden from the documentation):
//! not part of the API.
//!
//! ```
//! use contract_schema::escape::html_text;
//!
//! assert_eq!(
//!     html_text(r#"<b title="it's">&</b>"#),
//!     "&lt;b title=&quot;it&#39;s&quot;&gt;&amp;&lt;/b&gt;"
//! );
//! ```

/// `text` for HTML (and SVG) text and attribute values: `&`, `<`, `>`, `"` and `'` as
/// references; every other character as it is.
#[must_use]
pub fn html_text(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}
