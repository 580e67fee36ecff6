//! At the edge of a web service: an axum extractor and response that check bodies against
//! their contract (feature `axum`), and reqwest extensions that do the same on the client
//! (feature `reqwest`).
//!
//! A payload's [`Journey`] travels in these headers, which the extractor reads into the
//! [`ReceiveOptions`](crate::ReceiveOptions) of its `receive` and the client sets:
//!
//! | header | [`Journey`] field |
//! |---|---|
//! | `x-handoff-session` | `session_id` |
//! | `x-handoff-workflow` | `workflow_name` |
//! | `x-handoff-from` | `handoff_from` |
//! | `x-handoff-to` | `handoff_to` |
//! | `x-handoff-attempt` | `attempt` (a decimal `u32`) |
//! | `x-handoff-retry-of` | `retry_of` |
//!
//! A header holds visible ASCII only, so a value is written percent-encoded (`%` followed by
//! two hex digits, as in URLs) where it has a `%`, a control character or a character
//! outside ASCII, and read back the same way. A journey is for traces and is never checked:
//! a header that does not read (an attempt that is not a number, a value that does not
//! decode to UTF-8) is left out of it rather than failing the request.

#[cfg(feature = "axum")]
pub mod axum;
#[cfg(feature = "reqwest")]
pub mod reqwest;

#[cfg(feature = "axum")]
use http::HeaderMap;
#[cfg(feature = "reqwest")]
use http::{HeaderName, HeaderValue};

use crate::Journey;

/// The header of [`Journey::session_id`].
pub const SESSION_HEADER: &str = "x-handoff-session";
/// The header of [`Journey::workflow_name`].
pub const WORKFLOW_HEADER: &str = "x-handoff-workflow";
/// The header of [`Journey::handoff_from`].
pub const FROM_HEADER: &str = "x-handoff-from";
/// The header of [`Journey::handoff_to`].
pub const TO_HEADER: &str = "x-handoff-to";
/// The header of [`Journey::attempt`].
pub const ATTEMPT_HEADER: &str = "x-handoff-attempt";
/// The header of [`Journey::retry_of`].
pub const RETRY_OF_HEADER: &str = "x-handoff-retry-of";

/// The journey the headers carry; a header that does not read is left out.
#[cfg(feature = "axum")]
pub(crate) fn journey_from(headers: &HeaderMap) -> Journey {
    let text = |name: &str| headers.get(name).and_then(|value| decode(value.as_bytes()));
    Journey {
        session_id: text(SESSION_HEADER),
        workflow_name: text(WORKFLOW_HEADER),
        handoff_from: text(FROM_HEADER),
        handoff_to: text(TO_HEADER),
        attempt: text(ATTEMPT_HEADER).and_then(|attempt| attempt.parse().ok()),
        retry_of: text(RETRY_OF_HEADER),
        ..Journey::default()
    }
}

/// The headers that carry a journey, one per field it has.
#[cfg(feature = "reqwest")]
pub(crate) fn journey_headers(journey: &Journey) -> Vec<(HeaderName, HeaderValue)> {
    let attempt = journey.attempt.map(|attempt| attempt.to_string());
    [
        (SESSION_HEADER, journey.session_id.as_deref()),
        (WORKFLOW_HEADER, journey.workflow_name.as_deref()),
        (FROM_HEADER, journey.handoff_from.as_deref()),
        (TO_HEADER, journey.handoff_to.as_deref()),
        (ATTEMPT_HEADER, attempt.as_deref()),
        (RETRY_OF_HEADER, journey.retry_of.as_deref()),
    ]
    .into_iter()
    .filter_map(|(name, value)| {
        let value = HeaderValue::try_from(encode(value?)).ok()?;
        Some((HeaderName::from_static(name), value))
    })
    .collect()
}

/// `text` with `%`, control characters and every byte outside ASCII percent-encoded: what is
/// left is visible ASCII and spaces, which a header value holds.
#[cfg(feature = "reqwest")]
fn encode(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for byte in text.bytes() {
        if byte == b'%' || byte.is_ascii_control() || !byte.is_ascii() {
            out.push('%');
            out.push(char::from(HEX[usize::from(byte >> 4)]));
            out.push(char::from(HEX[usize::from(byte & 0xf)]));
        } else {
            out.push(char::from(byte));
        }
    }
    out
}

#[cfg(feature = "reqwest")]
const HEX: &[u8; 16] = b"0123456789ABCDEF";

/// The text [`encode`] wrote; a `%` not followed by two hex digits is taken as it is. `None`
/// when the bytes are not UTF-8 once decoded.
#[cfg(feature = "axum")]
fn decode(value: &[u8]) -> Option<String> {
    let hex = |byte: u8| char::from(byte).to_digit(16);
    let mut out = Vec::with_capacity(value.len());
    let mut i = 0;
    while i < value.len() {
        let byte = value[i];
        if byte == b'%' {
            if let (Some(hi), Some(lo)) = (
                value.get(i + 1).and_then(|&b| hex(b)),
                value.get(i + 2).and_then(|&b| hex(b)),
            ) {
                // Two hex digits are at most 0xff.
                out.push(u8::try_from(hi * 16 + lo).ok()?);
                i += 3;
                continue;
            }
        }
        out.push(byte);
        i += 1;
    }
    String::from_utf8(out).ok()
}

#[cfg(all(test, feature = "axum", feature = "reqwest"))]
mod tests {
    use super::*;

    #[test]
    fn a_journey_survives_its_headers() {
        let journey = Journey::new("triage agent", "réfund-spécialiste")
            .session("ctx-1%2")
            .workflow("support\nrefund")
            .retry(2, "run-7");
        let mut headers = HeaderMap::new();
        for (name, value) in journey_headers(&journey) {
            headers.insert(name, value);
        }
        assert_eq!(headers.len(), 6);
        assert!(headers[FROM_HEADER].to_str().is_ok(), "visible ASCII only");
        assert_eq!(journey_from(&headers), journey);
    }

    #[test]
    fn an_unreadable_header_is_left_out() {
        let mut headers = HeaderMap::new();
        headers.insert(ATTEMPT_HEADER, HeaderValue::from_static("second"));
        headers.insert(FROM_HEADER, HeaderValue::from_static("%FF%FE"));
        headers.insert(TO_HEADER, HeaderValue::from_static("50%-off%4"));
        let journey = journey_from(&headers);
        assert_eq!(journey.attempt, None);
        assert_eq!(journey.handoff_from, None);
        assert_eq!(journey.handoff_to.as_deref(), Some("50%-off%4"));
        assert_eq!(journey_from(&HeaderMap::new()), Journey::default());
    }
}
