//! Names as text of the pages and diagrams the tools write: HTML and the SVG inside it, and
//! Mermaid's quoted labels.
//!
//! Shared by the session's page and flowchart (`contract-core`) and the workflow's graph
//! (`contract-workflow`), which both depend on this crate and not on each other, so that both
//! escape a name the same way. Public for those crates only (hidden from the documentation):
//! not part of the API.
//!
//! ```
//! use contract_schema::escape::{html_text, mermaid_label};
//!
//! assert_eq!(
//!     html_text(r#"<b title="it's">&</b>"#),
//!     "&lt;b title=&quot;it&#39;s&quot;&gt;&amp;&lt;/b&gt;"
//! );
//! assert_eq!(mermaid_label("a \"b\" #1 | <c>"), "a #quot;b#quot; #35;1 #124; #lt;c#gt;");
//! ```

use std::fmt::Write as _;

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

/// `text` for inside a Mermaid label's quotes (`a["…"]`, `-->|"…"|`): each character that
/// means something to Mermaid or to HTML, and each control character, as Mermaid's entity
/// code (`#quot;`, `#35;`); every other character as it is.
#[must_use]
pub fn mermaid_label(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '"' => out.push_str("#quot;"),
            '&' => out.push_str("#amp;"),
            '<' => out.push_str("#lt;"),
            '>' => out.push_str("#gt;"),
            '#' | '`' | '|' | '%' | '\\' => {
                let _ = write!(out, "#{};", u32::from(c));
            }
            c if c.is_control() => {
                let _ = write!(out, "#{};", u32::from(c));
            }
            c => out.push(c),
        }
    }
    out
}
