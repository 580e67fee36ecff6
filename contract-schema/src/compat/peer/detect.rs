//! Who wrote a JSON Schema document, from the marks its generator leaves: this crate's
//! annotations, pydantic's per-field titles, zod's safe-integer bounds.

use serde_json::Value;

use super::terms::MAX_SAFE;
use super::who::Peer;

/// How many schema objects the search for marks visits at most: a mark is near the top of
/// any document a peer writes, and a huge document costs no more than this.
const MAX_VISITS: usize = 10_000;

impl Peer {
    /// Who wrote `doc`, as far as the document tells: `None` for this crate's own export
    /// (it has `x-handoff-view` or `x-handoff-contract`: its fixes are Rust's);
    /// [`Peer::Pydantic`] when it has pydantic's marks (no `$schema`, and a `title` on every
    /// property that is not a bare `$ref`, as pydantic titles each field); [`Peer::Zod`]
    /// when it has zod's (an integer bounded by `±9007199254740991`, what zod's `.int()`
    /// writes); else [`Peer::JsonSchema`].
    ///
    /// ```
    /// use contract_schema::compat::Peer;
    /// use serde_json::json;
    ///
    /// let zod = json!({
    ///     "$schema": "https://json-schema.org/draft/2020-12/schema",
    ///     "type": "object",
    ///     "properties": {"n": {"type": "integer", "minimum": -9_007_199_254_740_991_i64, "maximum": 9_007_199_254_740_991_i64}},
    /// });
    /// assert_eq!(Peer::of_document(&zod), Some(Peer::Zod));
    /// assert_eq!(Peer::of_document(&json!({"type": "string"})), Some(Peer::JsonSchema));
    /// assert_eq!(Peer::of_document(&json!({"type": "string", "x-handoff-view": "sender"})), None);
    /// ```
    #[must_use]
    pub fn of_document(doc: &serde_json::Value) -> Option<Peer> {
        of_document(doc)
    }
}

/// See [`Peer::of_document`].
fn of_document(doc: &Value) -> Option<Peer> {
    let Some(root) = doc.as_object() else {
        return Some(Peer::JsonSchema);
    };
    if root.contains_key("x-handoff-view") || root.contains_key("x-handoff-contract") {
        return None;
    }
    let mut marks = Marks::default();
    marks.visit(doc);
    if !root.contains_key("$schema") && marks.titled > 0 && marks.untitled == 0 {
        Some(Peer::Pydantic)
    } else if marks.safe_int {
        Some(Peer::Zod)
    } else {
        Some(Peer::JsonSchema)
    }
}

/// What the walk over a document found.
#[derive(Default)]
struct Marks {
    /// Properties with a `title` (bare `$ref`s aside).
    titled: usize,
    /// Properties without one (bare `$ref`s aside).
    untitled: usize,
    /// An integer bounded by zod's `.int()` bounds.
    safe_int: bool,
    visits: usize,
}

impl Marks {
    fn visit(&mut self, value: &Value) {
        let mut stack = vec![value];
        while let Some(value) = stack.pop() {
            if self.visits >= MAX_VISITS {
                return;
            }
            self.visits += 1;
            match value {
                Value::Object(map) => {
                    if map.get("type").and_then(Value::as_str) == Some("integer")
                        && map.get("minimum").and_then(Value::as_i64) == Some(-(MAX_SAFE as i64))
                        && map.get("maximum").and_then(Value::as_i64) == Some(MAX_SAFE as i64)
                    {
                        self.safe_int = true;
                    }
                    if let Some(Value::Object(props)) = map.get("properties") {
                        for prop in props.values() {
                            let Some(p) = prop.as_object() else { continue };
                            let bare_ref = p.contains_key("$ref") && p.len() == 1;
                            if bare_ref {
                                continue;
                            }
                            if p.get("title").is_some_and(Value::is_string) {
                                self.titled += 1;
                            } else {
                                self.untitled += 1;
                            }
                        }
                    }
                    stack.extend(map.values());
                }
                Value::Array(items) => stack.extend(items),
                _ => {}
            }
        }
    }
}
