//! Refusals a model can act on: a [`Rejection`] (or a refused handoff) rendered as the short
//! [`Correction`] a model needs for its next attempt.
//!
//! A model that wrote a payload (through structured outputs or a tool call) learns nothing
//! from an engineer's error. A correction tells it, per problem, where (the JSON pointer)
//! and what the contract expects there — the type, the values an enum allows, the members an
//! object requires, the limits of a number, a string or an array — taken from the contract's
//! view the payload was checked against, never from the payload: no value the model wrote is
//! repeated, so a correction can go back into a prompt without carrying data anywhere new.
//!
//! A correction is bounded: its text, and its JSON, hold at most
//! [`CorrectionOptions::max_chars`] characters (2,000 by default); the problems that do not
//! fit are counted and located in one last line, "and N more problems at …". Output that is
//! not JSON, cut off, or too large is refused by [`receive`](crate::receive) with its own
//! problems (bytes and limits), and its correction says what was wrong, with byte offsets,
//! without echoing any of it.
//!
//! ```
//! use contract_core::{receive, HandoffContract};
//! use serde::Deserialize;
//!
//! #[derive(Debug, Deserialize, HandoffContract)]
//! #[handoff(name = "refund-request", version = 1)]
//! #[serde(rename_all = "camelCase")]
//! struct RefundRequest {
//!     category: Category,
//!     order_ref: String,
//!     amount_cents: u32,
//! }
//!
//! #[derive(Debug, Deserialize, contract_core::HandoffSchema)]
//! #[serde(rename_all = "kebab-case")]
//! enum Category {
//!     Damaged,
//!     NotDelivered,
//! }
//!
//! // What a model wrote: a category the contract does not know, no orderRef.
//! let output = br#"{"category": "broken-screen", "amountCents": 1250}"#;
//! let rejection = receive::<RefundRequest>(output).unwrap_err();
//! let correction = rejection.correction();
//! assert_eq!(
//!     correction.to_string(),
//!     "Your refund-request/v1 was refused: 2 problems. Send it again, whole, with each one fixed:
//! - /category: not one of the allowed values. Expected Category: one of \"damaged\", \"not-delivered\"; required.
//! - /orderRef: missing. Expected string: a string; required."
//! );
//! // Nothing the model wrote comes back.
//! assert!(!correction.to_string().contains("broken-screen"));
//! // The same as JSON, for a tool result.
//! let json = correction.to_json();
//! assert_eq!(json["problems"][1]["pointer"], "/orderRef");
//! assert_eq!(json["problems"][0]["expected"]["allowed"][1], "not-delivered");
//! ```

mod expect;

use core::fmt;
use std::borrow::Cow;
use std::fmt::Write;

use contract_schema::{Schema, View};
use serde::Serialize;

#[cfg(feature = "derive")]
use crate::envelope::HandoffRejection;
use crate::runtime::presence::Presence;
use crate::runtime::problem::{Problem, ProblemClass, ProblemKind, Rejection};

pub use expect::Expected;

use expect::expected_at;

/// The length a correction keeps within unless told otherwise: 2,000 characters.
pub const DEFAULT_MAX_CHARS: usize = 2_000;

/// How a correction is rendered.
///
/// ```
/// use contract_core::correction::CorrectionOptions;
///
/// let options = CorrectionOptions::default().max_chars(500);
/// assert_eq!(options.max_chars, 500);
/// assert_eq!(CorrectionOptions::default().max_chars, 2_000);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct CorrectionOptions {
    /// The most characters its text, and its JSON, may hold. The first line and the count of
    /// the problems left out are always kept, so a limit below about 200 characters may be
    /// exceeded by them alone.
    pub max_chars: usize,
}

impl Default for CorrectionOptions {
    fn default() -> Self {
        CorrectionOptions {
            max_chars: DEFAULT_MAX_CHARS,
        }
    }
}

impl CorrectionOptions {
    /// With this bound, in characters.
    #[must_use]
    pub fn max_chars(mut self, max_chars: usize) -> Self {
        self.max_chars = max_chars;
        self
    }
}

/// One problem as a model is told it: where, what is wrong, and what the contract expects
/// there.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Fix {
    /// Where: an RFC 6901 JSON pointer into what the model wrote (`""` for all of it; `*`
    /// for a map's key).
    pub pointer: String,
    /// The problem's kind, as [`ProblemKind`] serializes it (`missing_field`).
    pub kind: &'static str,
    /// What is wrong, in a few words and without any value of the payload.
    pub problem: String,
    /// What the contract expects there; `None` for a problem of the bytes (not JSON, a
    /// limit), or where the contract says nothing more than the problem does.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub expected: Option<Expected>,
}

/// A refusal said as what a model must change in its next attempt: the problems that fit
/// within the bound, each a [`Fix`], and the count and pointers of the others.
///
/// `Display` gives the text to send back to the model; [`to_json`](Self::to_json) (and
/// `Serialize`) the same problems as JSON, for a tool result. Both hold at most
/// [`CorrectionOptions::max_chars`] characters (but for the first line and the count of the
/// problems left out), and neither holds a value of the payload.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Correction {
    contract: Option<String>,
    instruction: String,
    fixes: Vec<Fix>,
    total: usize,
    more_at: Vec<String>,
    text: String,
}

/// The JSON form.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Json<'a> {
    contract: Option<&'a str>,
    instruction: &'a str,
    problems: &'a [Fix],
    omitted: usize,
    #[serde(skip_serializing_if = "<[_]>::is_empty")]
    omitted_at: &'a [String],
}

impl Serialize for Correction {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.json_form().serialize(serializer)
    }
}

impl fmt::Display for Correction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

impl Correction {
    /// The contract the payload was checked against (`refund-request/v1`), when it was.
    #[must_use]
    pub fn contract(&self) -> Option<&str> {
        self.contract.as_deref()
    }

    /// The problems told in full, in document order.
    #[must_use]
    pub fn fixes(&self) -> &[Fix] {
        &self.fixes
    }

    /// How many problems the refusal had in all.
    #[must_use]
    pub fn total(&self) -> usize {
        self.total
    }

    /// How many problems were left out to keep within the bound.
    #[must_use]
    pub fn omitted(&self) -> usize {
        self.total - self.fixes.len()
    }

    /// The pointers of the problems left out, as many as fit (the rest only counted).
    #[must_use]
    pub fn omitted_at(&self) -> &[String] {
        &self.more_at
    }

    /// The text to send back to the model (what `Display` writes).
    #[must_use]
    pub fn text(&self) -> &str {
        &self.text
    }

    /// The JSON form, for a tool result: `contract`, `instruction` (the text's first line),
    /// `problems` (each a [`Fix`]: `pointer`, `kind`, `problem`, `expected`), `omitted` and
    /// `omittedAt`.
    #[must_use]
    pub fn to_json(&self) -> serde_json::Value {
        serde_json::to_value(self.json_form()).unwrap_or(serde_json::Value::Null)
    }

    fn json_form(&self) -> Json<'_> {
        Json {
            contract: self.contract.as_deref(),
            instruction: &self.instruction,
            problems: &self.fixes,
            omitted: self.omitted(),
            omitted_at: &self.more_at,
        }
    }

    /// The correction of `problems`, each resolved by `resolve` (what the contract expects
    /// at a pointer), within `options`' bound.
    pub(crate) fn build<'p>(
        contract: Option<&str>,
        problems: impl ExactSizeIterator<Item = (Cow<'p, str>, &'p ProblemKind)>,
        resolve: impl Fn(&str) -> Option<Expected>,
        options: &CorrectionOptions,
    ) -> Correction {
        let total = problems.len();
        let max = options.max_chars;
        // A line of a fix is more than 8 characters: no more than this many can fit.
        let candidates = total.min(max / 8 + 1);
        let mut fixes = Vec::with_capacity(candidates);
        let mut rest = Vec::new();
        let mut not_json = false;
        for (i, (pointer, kind)) in problems.enumerate() {
            not_json |= matches!(kind.class(), ProblemClass::NotJson);
            if i < candidates {
                let (name, problem, wants) = said(kind);
                let expected = if wants { resolve(&pointer) } else { None };
                fixes.push(Fix {
                    pointer: pointer.into_owned(),
                    kind: name,
                    problem,
                    expected,
                });
            } else if rest.len() < max / 4 {
                // A pointer in the summary takes at least 4 characters (`/a, `).
                rest.push(pointer.into_owned());
            }
        }
        let instruction = instruction(contract, total, not_json);
        let mut correction = Correction {
            contract: contract.map(str::to_owned),
            instruction,
            fixes: Vec::new(),
            total,
            more_at: Vec::new(),
            text: String::new(),
        };
        // The most fixes that fit, then the most pointers of the rest (each fits or not in
        // order: a longer prefix never fits where a shorter one does not).
        // With every fix shown there is no last line: that may fit where one fix fewer does not.
        let shown = if correction.fits_with(&fixes, &[], max) && fixes.len() == total {
            total
        } else {
            largest(fixes.len().min(total.saturating_sub(1)), |k| {
                correction.fits_with(&fixes[..k], &[], max)
            })
        };
        let (shown_fixes, unshown) = fixes.split_at(shown);
        let mut pointers: Vec<String> = unshown.iter().map(|f| f.pointer.clone()).collect();
        pointers.extend(rest);
        let listed = largest(pointers.len(), |p| {
            correction.fits_with(shown_fixes, &pointers[..p], max)
        });
        correction.fixes = shown_fixes.to_vec();
        pointers.truncate(listed);
        correction.more_at = pointers;
        correction.text = correction.render();
        correction
    }

    /// Whether the correction with `fixes` and `more_at` keeps within `max` in both forms.
    fn fits_with(&self, fixes: &[Fix], more_at: &[String], max: usize) -> bool {
        let trial = Correction {
            contract: self.contract.clone(),
            instruction: self.instruction.clone(),
            fixes: fixes.to_vec(),
            total: self.total,
            more_at: more_at.to_vec(),
            text: String::new(),
        };
        let json = serde_json::to_string(&trial.json_form()).unwrap_or_default();
        trial.render().chars().count() <= max && json.chars().count() <= max
    }

    fn render(&self) -> String {
        let mut text = self.instruction.clone();
        for fix in &self.fixes {
            let at = if fix.pointer.is_empty() {
                "(root)"
            } else {
                &fix.pointer
            };
            let _ = write!(text, "\n- {at}: {}.", fix.problem);
            if let Some(expected) = &fix.expected {
                let _ = write!(text, " Expected {}: {}.", expected.ty, expected.json);
            }
        }
        let omitted = self.omitted();
        if omitted > 0 {
            let _ = write!(
                text,
                "\n- and {omitted} more problem{}",
                if omitted == 1 { "" } else { "s" }
            );
            if !self.more_at.is_empty() {
                text.push_str(" at ");
                for (i, pointer) in self.more_at.iter().enumerate() {
                    if i > 0 {
                        text.push_str(", ");
                    }
                    text.push_str(if pointer.is_empty() {
                        "(root)"
                    } else {
                        pointer
                    });
                }
                if self.more_at.len() < omitted {
                    text.push_str(", …");
                }
            }
            text.push_str(" (fix these first; the others are told after the next attempt).");
        }
        text
    }
}

/// The largest `k` in `0..=n` for which `fits(k)` holds, `fits` holding for every `k` below
/// one that fits (0 is taken when nothing fits).
fn largest(n: usize, fits: impl Fn(usize) -> bool) -> usize {
    let (mut lo, mut hi) = (0, n);
    while lo < hi {
        let mid = lo + (hi - lo).div_ceil(2);
        if fits(mid) {
            lo = mid;
        } else {
            hi = mid - 1;
        }
    }
    lo
}

/// The first line: what was refused and what to do.
fn instruction(contract: Option<&str>, total: usize, not_json: bool) -> String {
    let what = contract.unwrap_or("output");
    let n = if total == 1 {
        "1 problem".to_owned()
    } else {
        format!("{total} problems")
    };
    if not_json {
        format!(
            "Your {what} was refused: it is not one complete JSON document ({n}). Send one JSON \
             value only, complete, with nothing before or after it:"
        )
    } else {
        format!("Your {what} was refused: {n}. Send it again, whole, with each one fixed:")
    }
}

/// A problem in a model's terms: its kind's name, what is wrong, and whether what the
/// contract expects at its pointer says more. Every kind is listed, so that a new kind is
/// said where it is added.
fn said(kind: &ProblemKind) -> (&'static str, String, bool) {
    let (name, text, expected): (&'static str, String, bool) = match kind {
        ProblemKind::Malformed { offset, expected } => (
            "malformed",
            format!("not valid JSON at byte {offset}: expected {expected} (output cut off ends this way too)"),
            false,
        ),
        ProblemKind::Empty => ("empty", "no JSON value: the output is empty".to_owned(), false),
        ProblemKind::ByteOrderMark => (
            "byte_order_mark",
            "a byte order mark before the JSON: leave it out".to_owned(),
            false,
        ),
        ProblemKind::InvalidUtf8 { offset } => (
            "invalid_utf8",
            format!("bytes that are not UTF-8 at byte {offset}"),
            false,
        ),
        ProblemKind::LoneSurrogate { offset } => (
            "lone_surrogate",
            format!("a \\u escape of half a surrogate pair at byte {offset}"),
            false,
        ),
        ProblemKind::TrailingData { offset } => (
            "trailing_data",
            format!("more after the JSON value, from byte {offset}: write one value and nothing else"),
            false,
        ),
        ProblemKind::TooLarge { limit } => (
            "too_large",
            format!("the output is larger than the limit of {limit} bytes: write a shorter one"),
            false,
        ),
        ProblemKind::TooDeep { offset, limit } => (
            "too_deep",
            format!("arrays and objects nest deeper than {limit} levels (at byte {offset})"),
            false,
        ),
        ProblemKind::StringTooLong { offset, limit } => (
            "string_too_long",
            format!("a string longer than the limit of {limit} bytes (at byte {offset})"),
            false,
        ),
        ProblemKind::TooManyKeys { offset, limit } => (
            "too_many_keys",
            format!("an object with more than {limit} keys (at byte {offset})"),
            false,
        ),
        ProblemKind::MissingField { .. } => ("missing_field", "missing".to_owned(), true),
        ProblemKind::WrongType { found, .. } => (
            "wrong_type",
            format!("{} is the wrong type here", found.as_str()),
            true,
        ),
        ProblemKind::NullNotAllowed { .. } => {
            ("null_not_allowed", "null is not allowed here".to_owned(), true)
        }
        ProblemKind::OutOfRange { .. } => (
            "out_of_range",
            "a number outside the allowed range".to_owned(),
            true,
        ),
        ProblemKind::NotOneCharacter => (
            "not_one_character",
            "not a string of exactly one character".to_owned(),
            true,
        ),
        ProblemKind::WrongStringLength { .. } => (
            "wrong_string_length",
            "a string of a length the contract does not allow".to_owned(),
            true,
        ),
        ProblemKind::WrongLength { expected, found } => (
            "wrong_length",
            format!("an array of {found} items where exactly {expected} belong"),
            true,
        ),
        ProblemKind::DuplicateItem => (
            "duplicate_item",
            "the same item twice: the items must be distinct".to_owned(),
            true,
        ),
        ProblemKind::UnknownField { field } => (
            "unknown_field",
            format!("`{field}` is not a member of this object, which takes no other"),
            true,
        ),
        ProblemKind::DuplicateKey { key: Some(key) } => (
            "duplicate_key",
            format!("the key `{key}` twice in one object"),
            true,
        ),
        ProblemKind::DuplicateKey { key: None } => {
            ("duplicate_key", "the same key twice in one object".to_owned(), true)
        }
        ProblemKind::DuplicateField { field } => (
            "duplicate_field",
            format!("`{field}` given twice, under two of its names: give it once"),
            true,
        ),
        ProblemKind::UnknownVariant { .. } => (
            "unknown_variant",
            "not one of the allowed values".to_owned(),
            true,
        ),
        ProblemKind::InvalidKey { expected } => (
            "invalid_key",
            format!("a key that does not read as {expected}"),
            true,
        ),
        ProblemKind::NotOneKey { .. } => (
            "not_one_key",
            "not an object with exactly one key, the variant's name".to_owned(),
            true,
        ),
        ProblemKind::NoVariantMatches { .. } => (
            "no_variant_matches",
            "matches none of the forms the contract allows here".to_owned(),
            true,
        ),
        ProblemKind::Refused { .. } => (
            "refused",
            "a value that does not read as its type".to_owned(),
            true,
        ),
        ProblemKind::SerializeFailed => (
            "serialize_failed",
            "the value could not be written as JSON".to_owned(),
            false,
        ),
        ProblemKind::OtherContract { .. } => ("other_contract", kind.to_string(), false),
        ProblemKind::OtherVersion { .. } => ("other_version", kind.to_string(), false),
        ProblemKind::UnreadableVersion { .. } => ("unreadable_version", kind.to_string(), false),
        ProblemKind::EmptyArray => (
            "empty_array",
            "an empty array: at least one item is required".to_owned(),
            true,
        ),
        ProblemKind::NotOneDataPart { .. } => ("not_one_data_part", kind.to_string(), false),
        ProblemKind::WrongMediaType { .. } => ("wrong_media_type", kind.to_string(), false),
        ProblemKind::NoContractExtension { .. } => {
            ("no_contract_extension", kind.to_string(), false)
        }
        ProblemKind::OtherMajor { .. } => ("other_major", kind.to_string(), false),
        ProblemKind::EarlierProtocol { .. } => ("earlier_protocol", kind.to_string(), false),
        ProblemKind::MissingMember { .. } => ("missing_member", kind.to_string(), false),
    };
    (name, text, expected)
}

/// What the contract a presence was recorded against expects at a pointer, when the
/// presence knows its schema.
fn resolver(presence: Option<&Presence>) -> impl Fn(&str) -> Option<Expected> + '_ {
    let schema_view: Option<(&'static Schema, View)> = presence.and_then(Presence::schema_view);
    move |pointer| schema_view.and_then(|(schema, view)| expected_at(schema, view, pointer))
}

fn pointed(problems: &[Problem]) -> impl ExactSizeIterator<Item = (Cow<'_, str>, &ProblemKind)> {
    problems
        .iter()
        .map(|p| (Cow::Borrowed(p.pointer.as_str()), &p.kind))
}

impl Rejection {
    /// This refusal as the correction a model needs for its next attempt, within 2,000
    /// characters: per problem its pointer and what the contract's view expects there (see
    /// [`correction`](crate::correction)).
    ///
    /// ```
    /// use contract_core::{receive, HandoffContract};
    /// use serde::Deserialize;
    ///
    /// #[derive(Debug, Deserialize, HandoffContract)]
    /// #[handoff(name = "reading", version = 1)]
    /// struct Reading {
    ///     percent: u8,
    /// }
    ///
    /// let refused = receive::<Reading>(br#"{"percent": 4000}"#).unwrap_err();
    /// assert_eq!(
    ///     refused.correction().to_string(),
    ///     "Your reading/v1 was refused: 1 problem. Send it again, whole, with each one fixed:
    /// - /percent: a number outside the allowed range. Expected u8: an integer from 0 to 255; required."
    /// );
    /// ```
    #[must_use]
    pub fn correction(&self) -> Correction {
        self.correction_with(&CorrectionOptions::default())
    }

    /// [`correction`](Self::correction) within `options`' bound.
    #[must_use]
    pub fn correction_with(&self, options: &CorrectionOptions) -> Correction {
        let presence = self.presence();
        Correction::build(
            presence.contract(),
            pointed(self.problems()),
            resolver(Some(presence)),
            options,
        )
    }
}

#[cfg(feature = "derive")]
impl HandoffRejection {
    /// This refusal as the correction the writer of the envelope needs for its next attempt:
    /// pointers from the envelope's root (`/payload/orderRef`), what the payload's contract
    /// expects under `/payload` and what the envelope's own contract expects elsewhere.
    ///
    /// ```
    /// use contract_core::{receive_handoff, HandoffContract, ReceiveOptions};
    /// use serde::Deserialize;
    ///
    /// #[derive(Debug, Deserialize, HandoffContract)]
    /// #[handoff(name = "refund-request", version = 1)]
    /// #[serde(rename_all = "camelCase")]
    /// struct RefundRequest {
    ///     order_ref: String,
    /// }
    ///
    /// let envelope = br#"{"payload": {"orderId": "A-1"}, "contract": "refund-request/v1",
    ///     "schemaVersion": "handoff-envelope/v1", "contextId": "ctx-1", "handoffId": "h-1",
    ///     "goal": "", "owner": "billing", "status": "ready"}"#;
    /// let refused = receive_handoff::<RefundRequest>(envelope, &ReceiveOptions::default())
    ///     .unwrap_err();
    /// let correction = refused.correction();
    /// assert_eq!(correction.fixes()[0].pointer, "/payload/orderRef");
    /// assert!(correction.to_string().ends_with("- /payload/orderRef: missing. Expected string: a string; required."));
    /// ```
    #[must_use]
    pub fn correction(&self) -> Correction {
        self.correction_with(&CorrectionOptions::default())
    }

    /// [`correction`](Self::correction) within `options`' bound.
    #[must_use]
    pub fn correction_with(&self, options: &CorrectionOptions) -> Correction {
        let payload = resolver(self.presence());
        let envelope = resolver(self.envelope_presence());
        Correction::build(
            Some(self.payload_contract()),
            pointed(self.problems()),
            |pointer| match payload_pointer(pointer) {
                Some(inner) => payload(inner),
                None => envelope(pointer),
            },
            options,
        )
    }

    /// The correction of the payload alone, for a writer that wrote only the payload (a
    /// model): its problems' pointers made relative to the payload, the envelope's own
    /// problems left out; `None` when no problem is the payload's.
    pub(crate) fn payload_correction(&self, options: &CorrectionOptions) -> Option<Correction> {
        let problems: Vec<(Cow<'_, str>, &ProblemKind)> = self
            .problems()
            .iter()
            .filter_map(|p| {
                payload_pointer(&p.pointer).map(|inner| (Cow::Borrowed(inner), &p.kind))
            })
            .collect();
        if problems.is_empty() {
            return None;
        }
        Some(Correction::build(
            Some(self.payload_contract()),
            problems.into_iter(),
            resolver(self.presence()),
            options,
        ))
    }
}

/// The pointer inside the payload of a pointer from the envelope's root, if it is one.
#[cfg(feature = "derive")]
fn payload_pointer(pointer: &str) -> Option<&str> {
    let rest = pointer.strip_prefix("/payload")?;
    (rest.is_empty() || rest.starts_with('/')).then_some(rest)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::runtime::problem::JsonKind;

    /// One problem of every kind, each named once: the list is also the pattern of an
    /// exhaustive match, which fails to compile when a kind is added without being listed.
    macro_rules! one_of_each {
        ($($kind:ident $({ $($field:ident: $value:expr),* $(,)? })?),* $(,)?) => {{
            let kinds = vec![$(ProblemKind::$kind $({ $($field: $value),* })?),*];
            for kind in &kinds {
                // `DuplicateKey` is listed twice (with a key and without).
                #[allow(unreachable_patterns)]
                match kind {
                    $(ProblemKind::$kind { .. })|* => {}
                }
            }
            kinds
        }};
    }

    fn every_kind() -> Vec<ProblemKind> {
        let c = |s: &'static str| Cow::Borrowed(s);
        one_of_each![
            Malformed {
                offset: 3,
                expected: "`,` or `}`",
            },
            Empty,
            ByteOrderMark,
            InvalidUtf8 { offset: 1 },
            LoneSurrogate { offset: 2 },
            TrailingData { offset: 4 },
            TooLarge { limit: 10 },
            TooDeep {
                offset: 5,
                limit: 2,
            },
            StringTooLong {
                offset: 6,
                limit: 8,
            },
            TooManyKeys {
                offset: 7,
                limit: 3,
            },
            MissingField {
                field: c("orderRef"),
            },
            WrongType {
                expected: c("string"),
                found: JsonKind::Integer,
            },
            NullNotAllowed {
                expected: c("string"),
            },
            OutOfRange { expected: c("u8") },
            NotOneCharacter,
            WrongStringLength {
                expected: c("string(len 1..=4)"),
            },
            WrongLength {
                expected: 3,
                found: 2,
            },
            DuplicateItem,
            UnknownField { field: c("colour") },
            DuplicateKey {
                key: Some(c("sku")),
            },
            DuplicateKey { key: None },
            DuplicateField {
                field: c("orderId"),
            },
            UnknownVariant {
                expected: c("Category"),
                known: vec![c("damaged")],
                known_count: 1,
            },
            InvalidKey { expected: c("u8") },
            NotOneKey {
                expected: c("Action"),
            },
            NoVariantMatches {
                expected: c("Amount"),
            },
            Refused {
                offset: 9,
                category: "data",
            },
            SerializeFailed,
            OtherContract {
                expected: c("refund-request/v1"),
                found: c("invoice/v1"),
            },
            OtherVersion {
                expected: c("refund-request/v1"),
                found: c("refund-request/v2"),
                rule: None,
                path: None,
            },
            UnreadableVersion {
                expected: c("refund-request/v1"),
            },
            EmptyArray,
            NotOneDataPart { found: 0 },
            WrongMediaType {
                expected: "application/json",
            },
            NoContractExtension {
                expected: c("https://example.invalid/refund-request/v1"),
            },
            OtherMajor {
                expected: c("refund-request/v1"),
                found: c("refund-request/v2"),
            },
            EarlierProtocol {
                found: "A2A 0.3",
                expected: "ROLE_AGENT (A2A 1.0)",
            },
            MissingMember {
                member: "messageId",
                protocol: "A2A 1.0",
            },
        ]
    }

    #[test]
    fn every_kind_is_said_by_its_serialized_name() {
        for kind in every_kind() {
            let (name, text, wants) = said(&kind);
            let tag = serde_json::to_value(&kind).unwrap()["kind"].clone();
            assert_eq!(tag, name, "{kind:?}");
            assert!(!text.is_empty() && !text.ends_with('.'), "{kind:?}: {text}");
            // Problems of the bytes and the limits are said without the contract.
            if matches!(kind.class(), ProblemClass::NotJson | ProblemClass::Limit) {
                assert!(!wants, "{kind:?}");
            }
            let problem = Problem {
                pointer: "/a".to_owned(),
                kind: kind.clone(),
            };
            let c = Correction::build(
                Some("x/v1"),
                pointed(std::slice::from_ref(&problem)),
                |_| None,
                &CorrectionOptions::default(),
            );
            assert_eq!(c.fixes().len(), 1);
            assert!(c.to_string().contains(&format!("- /a: {text}.")), "{c}");
        }
    }

    #[test]
    fn the_largest_prefix_that_fits() {
        for n in 0..20 {
            for k in 0..=n {
                assert_eq!(largest(n, |i| i <= k), k);
            }
        }
    }
}
