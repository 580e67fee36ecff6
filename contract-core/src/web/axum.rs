//! axum (feature `axum`): [`Checked`] reads a request's body through [`receive_with`],
//! [`CheckedJson`] writes a response's body through [`send`].
//!
//! | the request | status | body |
//! |---|---|---|
//! | accepted | the handler's | the handler's |
//! | no JSON content type (`application/json`, `application/*+json`) | `415` | `unsupported_media_type` |
//! | not JSON (malformed, empty, a byte order mark, bad UTF-8, trailing data) | `400` | the [`Rejection`] |
//! | beyond one of the [`Limits`] | `413` | the [`Rejection`] |
//! | beyond axum's own body limit ([`DefaultBodyLimit`](::axum::extract::DefaultBodyLimit)) | `413` | `too_large` |
//! | a body that could not be read (the connection failed) | `400` | `unreadable_body` |
//! | against the contract (a missing field, a wrong type, …) | `422` | the [`Rejection`] |
//!
//! Every error body is JSON: the [`Rejection`] as it serializes (`side`, `problems` with each
//! one's `pointer` and `kind`, `presence`), which holds no value of the payload; where
//! `receive` never ran, an object of the same form with one problem at the root and no
//! `presence`: `{"side":"receive","problems":[{"pointer":"","kind":"unsupported_media_type","expected":"application/json"}]}`.
//!
//! # Two body limits: the smaller applies
//!
//! axum limits every body its extractors read (2 MB unless a
//! [`DefaultBodyLimit`](::axum::extract::DefaultBodyLimit) layer says otherwise), and
//! `receive` limits a payload to [`Limits::max_bytes`] (16 MiB by default; the extractor takes
//! the [`Limits`] from the request's extensions, put there by an
//! [`Extension`](::axum::Extension) layer, or the defaults). `Checked` reads at most one byte
//! more than `max_bytes` and within axum's limit, so whichever is smaller refuses the body,
//! with `413` either way: past `max_bytes` with the `Rejection` (`too_large` with its
//! `limit`), past axum's limit with `too_large` alone, since the extractor cannot see axum's
//! figure. Raising `max_bytes` above 2 MB therefore needs a `DefaultBodyLimit` layer too.

use std::error::Error;
use std::fmt;
use std::future::poll_fn;
use std::pin::Pin;

use ::axum::body::{Body, HttpBody};
use ::axum::extract::{FromRequest, Request};
use ::axum::http::header::CONTENT_TYPE;
use ::axum::http::{HeaderMap, HeaderValue, StatusCode};
use ::axum::response::{IntoResponse, Response};
use ::axum::RequestExt;
use serde::de::DeserializeOwned;
use serde::Serialize;

use crate::{
    receive_with, send, HandoffSchema, Journey, Limits, Presence, ProblemClass, ReceiveOptions,
    Rejection,
};

/// An extractor that reads the request's body through [`receive_with`] against `T`'s
/// contract, with the journey of the request's [headers](crate::web) and the [`Limits`] of
/// the request's extensions. A body it refuses never reaches the handler: the response is a [`CheckedRejection`] (`400`, `413`,
/// `415` or `422`, see [the module](self)).
///
/// Like axum's `Json`, it reads the body, so it is the handler's last argument.
///
/// ```no_run
/// use axum::{routing::post, Extension, Router};
/// use contract_core::web::axum::{Checked, CheckedJson};
/// use contract_core::{HandoffContract, Limits};
/// use serde::{Deserialize, Serialize};
///
/// #[derive(Deserialize, HandoffContract)]
/// #[handoff(name = "refund-request", version = 1)]
/// #[serde(rename_all = "camelCase")]
/// struct RefundRequest {
///     order_id: String,
///     amount_cents: u32,
/// }
///
/// #[derive(Serialize, HandoffContract)]
/// #[handoff(name = "refund-decision", version = 1)]
/// struct RefundDecision {
///     approved: bool,
/// }
///
/// // A request that breaks the contract gets a 422 listing every problem; this runs only
/// // for one that keeps it.
/// async fn refund(Checked { value, .. }: Checked<RefundRequest>) -> CheckedJson<RefundDecision> {
///     CheckedJson(RefundDecision { approved: value.amount_cents < 10_000 })
/// }
///
/// let limits = Limits::default().max_bytes(64 << 10);
/// let app: Router = Router::new()
///     .route("/refunds", post(refund))
///     .layer(Extension(limits));
/// ```
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct Checked<T> {
    /// The value.
    pub value: T,
    /// Which fields arrived.
    pub presence: Presence,
    /// The journey the request's headers carried (empty without them), to pass on with the
    /// next handoff.
    pub journey: Journey,
}

impl<T> Checked<T> {
    /// The value.
    #[must_use]
    pub fn into_inner(self) -> T {
        self.value
    }
}

impl<S, T> FromRequest<S> for Checked<T>
where
    S: Send + Sync,
    T: DeserializeOwned + HandoffSchema + 'static,
{
    type Rejection = CheckedRejection;

    async fn from_request(req: Request, _state: &S) -> Result<Self, Self::Rejection> {
        if !is_json(req.headers()) {
            return Err(CheckedRejection::new(Refusal::ContentType));
        }
        let options = ReceiveOptions {
            limits: req
                .extensions()
                .get::<Limits>()
                .copied()
                .unwrap_or_default(),
            journey: super::journey_from(req.headers()),
            ..ReceiveOptions::default()
        };
        let bytes = read_body(req.into_limited_body(), options.limits.max_bytes).await?;
        match receive_with::<T>(&bytes, &options) {
            Ok(received) => {
                let (value, presence) = received.into_parts();
                Ok(Checked {
                    value,
                    presence,
                    journey: options.journey,
                })
            }
            Err(rejection) => Err(CheckedRejection::new(Refusal::Rejected(rejection))),
        }
    }
}

/// Whether the content type is JSON: `application/json` or `application/<anything>+json`,
/// parameters aside (axum's `Json` accepts the same).
fn is_json(headers: &HeaderMap) -> bool {
    let Some(Ok(value)) = headers.get(CONTENT_TYPE).map(HeaderValue::to_str) else {
        return false;
    };
    let essence = value.split(';').next().unwrap_or_default().trim();
    let Some((kind, subtype)) = essence.split_once('/') else {
        return false;
    };
    let subtype = subtype.as_bytes();
    kind.eq_ignore_ascii_case("application")
        && (subtype.eq_ignore_ascii_case(b"json")
            || (subtype.len() > 5 && subtype[subtype.len() - 5..].eq_ignore_ascii_case(b"+json")))
}

/// The body, up to one byte past `max_bytes`: the rest is not read, and `receive_with` refuses
/// what was kept as too large (with its limit, in a `Rejection`).
async fn read_body(mut body: Body, max_bytes: usize) -> Result<Vec<u8>, CheckedRejection> {
    let keep = max_bytes.saturating_add(1);
    let mut bytes = Vec::new();
    while let Some(frame) = poll_fn(|cx| Pin::new(&mut body).poll_frame(cx)).await {
        let frame = frame.map_err(body_error)?;
        // Trailers carry no payload.
        if let Ok(data) = frame.into_data() {
            let room = keep - bytes.len();
            bytes.extend_from_slice(&data[..data.len().min(room)]);
            if bytes.len() == keep {
                break;
            }
        }
    }
    Ok(bytes)
}

/// axum's body limit, or a body that failed to arrive.
fn body_error(error: ::axum::Error) -> CheckedRejection {
    // axum wraps the limit's error in its own, twice (the limited body is boxed in a `Body`).
    let mut source: Option<&(dyn Error + 'static)> = Some(&error);
    while let Some(error) = source {
        if error.is::<http_body_util::LengthLimitError>() {
            return CheckedRejection::new(Refusal::BodyLimit);
        }
        source = error.source();
    }
    CheckedRejection::new(Refusal::UnreadableBody)
}

/// Why [`Checked`] refused a request: its response (see [the module](self)) and, where
/// `receive` ran, the [`Rejection`].
///
/// `Display` names the status and every problem; neither it nor the response holds a value
/// of the payload.
#[derive(Debug)]
pub struct CheckedRejection {
    status: StatusCode,
    refusal: Refusal,
}

#[derive(Debug)]
enum Refusal {
    /// `receive` refused the body.
    Rejected(Rejection),
    /// No JSON content type.
    ContentType,
    /// Beyond axum's body limit.
    BodyLimit,
    /// The body failed to arrive.
    UnreadableBody,
}

impl CheckedRejection {
    fn new(refusal: Refusal) -> Self {
        let status = match &refusal {
            Refusal::Rejected(rejection) => status_of(rejection),
            Refusal::ContentType => StatusCode::UNSUPPORTED_MEDIA_TYPE,
            Refusal::BodyLimit => StatusCode::PAYLOAD_TOO_LARGE,
            Refusal::UnreadableBody => StatusCode::BAD_REQUEST,
        };
        CheckedRejection { status, refusal }
    }

    /// The response's status: `400`, `413`, `415` or `422`.
    #[must_use]
    pub fn status(&self) -> StatusCode {
        self.status
    }

    /// What `receive` refused, where it ran (not for a wrong content type, axum's body
    /// limit or a body that failed to arrive).
    #[must_use]
    pub fn rejection(&self) -> Option<&Rejection> {
        match &self.refusal {
            Refusal::Rejected(rejection) => Some(rejection),
            Refusal::ContentType | Refusal::BodyLimit | Refusal::UnreadableBody => None,
        }
    }
}

/// `413` for a payload beyond a limit, `400` for one that is not JSON, `422` for one against
/// the contract; the first that applies, since a scan that stops early finds nothing after.
fn status_of(rejection: &Rejection) -> StatusCode {
    let has = |class| {
        rejection
            .problems()
            .iter()
            .any(|problem| problem.kind.class() == class)
    };
    if has(ProblemClass::Limit) {
        StatusCode::PAYLOAD_TOO_LARGE
    } else if has(ProblemClass::NotJson) {
        StatusCode::BAD_REQUEST
    } else {
        StatusCode::UNPROCESSABLE_ENTITY
    }
}

impl fmt::Display for CheckedRejection {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: ", self.status)?;
        match &self.refusal {
            Refusal::Rejected(rejection) => fmt::Display::fmt(rejection, f),
            Refusal::ContentType => f.write_str("the body's content type is not application/json"),
            Refusal::BodyLimit => f.write_str("the body exceeds the server's body limit"),
            Refusal::UnreadableBody => f.write_str("the body could not be read"),
        }
    }
}

impl Error for CheckedRejection {
    fn source(&self) -> Option<&(dyn Error + 'static)> {
        self.rejection().map(|rejection| rejection as _)
    }
}

/// The body of a refusal where `receive` never ran: the form of a [`Rejection`]'s.
#[derive(Serialize)]
struct RootProblem {
    side: &'static str,
    problems: [Root; 1],
}

#[derive(Serialize)]
struct Root {
    pointer: &'static str,
    kind: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    expected: Option<&'static str>,
}

impl IntoResponse for CheckedRejection {
    fn into_response(self) -> Response {
        let root = |kind, expected| RootProblem {
            side: "receive",
            problems: [Root {
                pointer: "",
                kind,
                expected,
            }],
        };
        let body = match &self.refusal {
            Refusal::Rejected(rejection) => serde_json::to_vec(rejection),
            Refusal::ContentType => {
                serde_json::to_vec(&root("unsupported_media_type", Some("application/json")))
            }
            Refusal::BodyLimit => serde_json::to_vec(&root("too_large", None)),
            Refusal::UnreadableBody => serde_json::to_vec(&root("unreadable_body", None)),
        };
        // Neither serializes a map with keys that are not strings, so neither fails; the
        // status still says what happened if one did.
        let body = body.unwrap_or_default();
        (self.status, json_content_type(), body).into_response()
    }
}

/// A response whose body [`send`] checked against `T`'s contract before it is
/// written, as `application/json`.
///
/// A value its own contract refuses (a `NaN` where a number is due, a map key that does not
/// serialize) is never sent: the response is a `500` whose body names the contract
/// (`{"error":"the response broke its contract","contract":"refund-decision/v1"}`), and the
/// rejection, with every problem's pointer, goes to the log as a `tracing` error event (no
/// value of the payload in either).
#[derive(Debug, Clone, Copy, Default)]
pub struct CheckedJson<T>(pub T);

impl<T> IntoResponse for CheckedJson<T>
where
    T: Serialize + HandoffSchema + 'static,
{
    fn into_response(self) -> Response {
        match send(&self.0) {
            Ok(sent) => (json_content_type(), sent.into_bytes()).into_response(),
            Err(rejection) => {
                let contract = rejection.presence().contract().unwrap_or("payload");
                tracing::error!(
                    handoff.contract = contract,
                    %rejection,
                    "a response refused by its contract was not sent"
                );
                let body = serde_json::json!({
                    "error": "the response broke its contract",
                    "contract": contract,
                });
                (
                    StatusCode::INTERNAL_SERVER_ERROR,
                    json_content_type(),
                    body.to_string(),
                )
                    .into_response()
            }
        }
    }
}

/// `content-type: application/json`, which replaces the one the body's own response sets.
fn json_content_type() -> [(::axum::http::HeaderName, HeaderValue); 1] {
    [(CONTENT_TYPE, HeaderValue::from_static("application/json"))]
}
