//! The web features against a real axum server on 127.0.0.1 and a reqwest client: every
//! status of the extractor with its JSON body (pointers and kinds, no value), the two body
//! limits, the journey's headers, the response wrapper's `500`, and both reqwest extensions.
#![cfg(all(feature = "axum", feature = "reqwest"))]

use std::collections::BTreeMap;
use std::future::Future;
use std::io::{Read, Write};
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::extract::DefaultBodyLimit;
use axum::routing::{get, post};
use axum::{Extension, Router};
use contract_core::web::axum::{Checked, CheckedJson};
use contract_core::web::reqwest::{HandoffRequestExt, HandoffResponseExt, ReceiveError};
use contract_core::web::{ATTEMPT_HEADER, FROM_HEADER};
use contract_core::{HandoffContract, Journey, Limits, ProblemKind, ReceiveOptions};
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use tracing::field::{Field, Visit};
use tracing::{Event, Level, Subscriber};
use tracing_subscriber::layer::{Context, SubscriberExt};
use tracing_subscriber::Layer;

// Plain comments on the contracts: a doc comment would be part of their snapshots.

// What the consumer reads.
#[derive(Debug, Serialize, Deserialize, HandoffContract)]
#[handoff(name = "web-refund-request", version = 1)]
#[serde(rename_all = "camelCase")]
struct RefundRequest {
    order_id: String,
    amount_cents: u32,
}

// A producer whose `skip_serializing_if` drops a field the consumer requires.
#[derive(Debug, Serialize, HandoffContract)]
#[handoff(name = "web-refund-draft", version = 1)]
#[serde(rename_all = "camelCase")]
struct RefundDraft {
    #[serde(skip_serializing_if = "Option::is_none")]
    order_id: Option<String>,
    amount_cents: u32,
}

// The server's answer: which fields arrived and the journey the headers carried (structure
// and trace identity, no value of the request's payload).
#[derive(Debug, Serialize, Deserialize, HandoffContract)]
#[handoff(name = "web-refund-seen", version = 1)]
#[serde(rename_all = "camelCase")]
struct Seen {
    received: Vec<String>,
    session: Option<String>,
    workflow: Option<String>,
    from: Option<String>,
    to: Option<String>,
    attempt: Option<u32>,
    retry_of: Option<String>,
}

// A response its own contract refuses when `celsius` is not finite.
#[derive(Debug, Serialize, HandoffContract)]
#[handoff(name = "web-reading", version = 1)]
struct Reading {
    label: String,
    celsius: f64,
}

async fn seen(checked: Checked<RefundRequest>) -> CheckedJson<Seen> {
    let Checked {
        presence, journey, ..
    } = checked;
    CheckedJson(Seen {
        received: presence
            .received()
            .iter()
            .map(|path| path.as_str().to_owned())
            .collect(),
        session: journey.session_id,
        workflow: journey.workflow_name,
        from: journey.handoff_from,
        to: journey.handoff_to,
        attempt: journey.attempt,
        retry_of: journey.retry_of,
    })
}

fn limits(max_bytes: usize) -> Limits {
    Limits::default().max_bytes(max_bytes)
}

fn app() -> Router {
    Router::new()
        .route("/refunds", post(seen))
        // `max_bytes` the smaller limit.
        .merge(
            Router::new()
                .route("/small-max-bytes", post(seen))
                .layer(Extension(limits(64)))
                .layer(DefaultBodyLimit::max(1024)),
        )
        // axum's the smaller limit.
        .merge(
            Router::new()
                .route("/small-axum-limit", post(seen))
                .layer(Extension(limits(4096)))
                .layer(DefaultBodyLimit::max(128)),
        )
        .route(
            "/reading",
            get(|| async {
                CheckedJson(Reading {
                    label: "SECRET-label".into(),
                    celsius: f64::NAN,
                })
            }),
        )
        // A body that does not keep `Seen`, with a 200.
        .route(
            "/not-seen",
            get(|| async { ([("content-type", "application/json")], r#"{"received": 7}"#) }),
        )
        .route(
            "/large-seen",
            get(|| async {
                let padding = " ".repeat(1000);
                let body = format!(
                    r#"{{"received":[],"session":null,"workflow":null,"from":null,"to":null,"attempt":null,"retryOf":null}}{padding}"#
                );
                ([("content-type", "application/json")], body)
            }),
        )
}

/// Serves `app()` on an ephemeral port of 127.0.0.1 for the rest of the test.
async fn serve() -> SocketAddr {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, app()).await });
    addr
}

/// A test's body, which fails rather than hangs.
async fn bounded<F: Future<Output = ()>>(test: F) {
    tokio::time::timeout(Duration::from_secs(60), test)
        .await
        .expect("the test finished within a minute");
}

/// A POST of `body` with `content_type` (none for `None`): the status and the JSON body.
async fn post_raw(
    addr: SocketAddr,
    path: &str,
    content_type: Option<&str>,
    body: &str,
) -> (u16, String, Value) {
    let mut request = reqwest::Client::new()
        .post(format!("http://{addr}{path}"))
        .body(body.to_owned());
    if let Some(content_type) = content_type {
        request = request.header("content-type", content_type);
    }
    let response = request.send().await.unwrap();
    let status = response.status().as_u16();
    let content_type = response.headers()["content-type"]
        .to_str()
        .unwrap()
        .to_owned();
    let text = response.text().await.unwrap();
    let body = serde_json::from_str(&text).unwrap_or_else(|_| panic!("JSON body: {text}"));
    (status, content_type, body)
}

/// Each problem of an error body as `pointer kind`.
fn problems(body: &Value) -> Vec<String> {
    body["problems"]
        .as_array()
        .expect("a problems array")
        .iter()
        .map(|p| {
            format!(
                "{} {}",
                p["pointer"].as_str().unwrap(),
                p["kind"].as_str().unwrap()
            )
        })
        .collect()
}

const VALID: &str = r#"{"orderId":"A-1","amountCents":5}"#;

#[tokio::test]
async fn a_body_that_keeps_the_contract_reaches_the_handler() {
    bounded(async {
        let addr = serve().await;
        for content_type in [
            "application/json",
            "application/json; charset=utf-8",
            "Application/JSON",
            "application/vnd.refund+json",
        ] {
            let (status, response_type, body) =
                post_raw(addr, "/refunds", Some(content_type), VALID).await;
            assert_eq!(status, 200, "{content_type}");
            assert_eq!(response_type, "application/json");
            assert_eq!(body["received"], json!(["orderId", "amountCents"]));
        }
    })
    .await;
}

#[tokio::test]
async fn a_body_that_is_not_json_content_is_415() {
    bounded(async {
        let addr = serve().await;
        for content_type in [
            Some("text/plain"),
            Some("application/jsonx"),
            Some("json"),
            None,
        ] {
            let (status, response_type, body) =
                post_raw(addr, "/refunds", content_type, VALID).await;
            assert_eq!(status, 415, "{content_type:?}");
            assert_eq!(response_type, "application/json");
            assert_eq!(
                body,
                json!({"side": "receive", "problems": [{
                    "pointer": "", "kind": "unsupported_media_type", "expected": "application/json"
                }]})
            );
        }
    })
    .await;
}

#[tokio::test]
async fn a_body_that_is_not_json_is_400_with_the_rejection() {
    bounded(async {
        let addr = serve().await;
        let json = Some("application/json");
        let (status, _, body) = post_raw(addr, "/refunds", json, r#"{"orderId": "SECRET-1""#).await;
        assert_eq!(status, 400);
        assert_eq!(body["side"], "receive");
        assert_eq!(problems(&body), [" malformed"]);
        assert!(
            body["presence"].is_object(),
            "the Rejection as it serializes"
        );
        assert!(!body.to_string().contains("SECRET"), "{body}");

        for (text, kind) in [("", " empty"), ("{} {}", " trailing_data")] {
            let (status, _, body) = post_raw(addr, "/refunds", json, text).await;
            assert_eq!((status, problems(&body)), (400, vec![kind.to_owned()]));
        }
    })
    .await;
}

#[tokio::test]
async fn a_body_against_the_contract_is_422_with_every_problem_and_no_value() {
    bounded(async {
        let addr = serve().await;
        let (status, response_type, body) = post_raw(
            addr,
            "/refunds",
            Some("application/json"),
            r#"{"orderRef":"SECRET-1","amountCents":"SECRET-2"}"#,
        )
        .await;
        assert_eq!(status, 422);
        assert_eq!(response_type, "application/json");
        assert_eq!(
            problems(&body),
            ["/amountCents wrong_type", "/orderId missing_field"]
        );
        assert_eq!(body["problems"][1]["field"], "orderId");
        assert_eq!(body["presence"]["unknownFields"], json!(["orderRef"]));
        assert!(!body.to_string().contains("SECRET"), "{body}");
    })
    .await;
}

#[tokio::test]
async fn limits_beyond_max_bytes_are_413_with_the_rejection() {
    bounded(async {
        let addr = serve().await;
        let json = Some("application/json");
        // Valid JSON, padded past the route's `max_bytes` (64) but within axum's 1024.
        let padded = format!("{VALID}{}", " ".repeat(100));
        let (status, _, body) = post_raw(addr, "/small-max-bytes", json, &padded).await;
        assert_eq!(status, 413);
        assert_eq!(
            body["problems"],
            json!([{"pointer": "", "kind": "too_large", "limit": 64}])
        );
        assert_eq!(body["side"], "receive");
        // The same body within both limits elsewhere, and a small one here.
        assert_eq!(post_raw(addr, "/refunds", json, &padded).await.0, 200);
        assert_eq!(post_raw(addr, "/small-max-bytes", json, VALID).await.0, 200);

        // The other limits are 413 too: here, nesting deeper than 127.
        let deep = format!("{}{}", "[".repeat(200), "]".repeat(200));
        let (status, _, body) = post_raw(addr, "/refunds", json, &deep).await;
        assert_eq!(
            (status, problems(&body)),
            (413, vec![" too_deep".to_owned()])
        );
    })
    .await;
}

#[tokio::test]
async fn beyond_axums_own_smaller_limit_is_413_too() {
    bounded(async {
        let addr = serve().await;
        let json = Some("application/json");
        // Past axum's 128 bytes, well within `max_bytes` (4096).
        let padded = format!("{VALID}{}", " ".repeat(200));
        let (status, response_type, body) =
            post_raw(addr, "/small-axum-limit", json, &padded).await;
        assert_eq!(status, 413);
        assert_eq!(response_type, "application/json");
        assert_eq!(
            body,
            json!({"side": "receive", "problems": [{"pointer": "", "kind": "too_large"}]})
        );
        assert_eq!(
            post_raw(addr, "/small-axum-limit", json, VALID).await.0,
            200
        );
    })
    .await;
}

#[tokio::test]
async fn the_journey_travels_in_the_headers_both_ways() {
    bounded(async {
        let addr = serve().await;
        let client = reqwest::Client::new();
        let url = format!("http://{addr}/refunds");
        let request = RefundRequest {
            order_id: "A-1".into(),
            amount_cents: 5,
        };
        // A name outside ASCII, and one with a `%`, survive the percent-encoding.
        let journey = Journey::new("triage", "réfund-spécialiste")
            .session("ctx-100%")
            .workflow("support-refund")
            .retry(2, "run-1");
        let seen = client
            .post(&url)
            .handoff_journey(&journey)
            .handoff_body::<RefundRequest, _>(&request)
            .unwrap()
            .send()
            .await
            .unwrap()
            .receive::<Seen>()
            .await
            .unwrap();
        let seen = seen.into_inner();
        assert_eq!(seen.from.as_deref(), Some("triage"));
        assert_eq!(seen.to.as_deref(), Some("réfund-spécialiste"));
        assert_eq!(seen.session.as_deref(), Some("ctx-100%"));
        assert_eq!(seen.workflow.as_deref(), Some("support-refund"));
        assert_eq!(seen.attempt, Some(2));
        assert_eq!(seen.retry_of.as_deref(), Some("run-1"));

        // Without the headers, an empty journey; an attempt that does not read is left out,
        // and the request still goes through.
        let seen = client
            .post(&url)
            .header(FROM_HEADER, "triage")
            .header(ATTEMPT_HEADER, "second")
            .handoff_body::<RefundRequest, _>(&request)
            .unwrap()
            .send()
            .await
            .unwrap()
            .receive::<Seen>()
            .await
            .unwrap()
            .into_inner();
        assert_eq!(seen.from.as_deref(), Some("triage"));
        assert_eq!((seen.attempt, seen.session, seen.to), (None, None, None));
    })
    .await;
}

/// The fields of every error event, as text.
#[derive(Clone, Default)]
struct Errors(Arc<Mutex<Vec<BTreeMap<String, String>>>>);

struct Fields<'a>(&'a mut BTreeMap<String, String>);

impl Visit for Fields<'_> {
    fn record_str(&mut self, field: &Field, value: &str) {
        self.0.insert(field.name().to_owned(), value.to_owned());
    }

    fn record_debug(&mut self, field: &Field, value: &dyn std::fmt::Debug) {
        self.0.insert(field.name().to_owned(), format!("{value:?}"));
    }
}

impl<S: Subscriber> Layer<S> for Errors {
    fn on_event(&self, event: &Event<'_>, _: Context<'_, S>) {
        if *event.metadata().level() == Level::ERROR {
            let mut fields = BTreeMap::new();
            event.record(&mut Fields(&mut fields));
            self.0.lock().unwrap().push(fields);
        }
    }
}

#[tokio::test]
async fn a_response_its_contract_refuses_is_a_500_naming_the_contract() {
    // The runtime of `#[tokio::test]` runs the server on this thread, under this subscriber.
    let errors = Errors::default();
    let _subscriber =
        tracing::subscriber::set_default(tracing_subscriber::registry().with(errors.clone()));
    bounded(async {
        let addr = serve().await;
        let response = reqwest::get(format!("http://{addr}/reading"))
            .await
            .unwrap();
        assert_eq!(response.status().as_u16(), 500);
        assert_eq!(response.headers()["content-type"], "application/json");
        let text = response.text().await.unwrap();
        let body: Value = serde_json::from_str(&text).unwrap();
        assert_eq!(body["contract"], "web-reading/v1");
        assert!(!text.contains("SECRET"), "{text}");
    })
    .await;
    // The log says why, with the problem's pointer and no value.
    let errors = errors.0.lock().unwrap();
    let refused = errors
        .iter()
        .find(|fields| fields.contains_key("handoff.contract"))
        .expect("an error event of the refused response");
    assert_eq!(refused["handoff.contract"], "web-reading/v1");
    assert!(refused["rejection"].contains("/celsius"), "{refused:?}");
    assert!(!format!("{refused:?}").contains("SECRET"), "{refused:?}");
}

#[tokio::test]
async fn a_request_body_the_consumer_would_refuse_is_never_sent() {
    let draft = RefundDraft {
        order_id: None,
        amount_cents: 5,
    };
    let builder = reqwest::Client::new().post("http://127.0.0.1:9/refunds");
    let rejection = builder
        .handoff_body::<RefundRequest, _>(&draft)
        .expect_err("the consumer requires orderId");
    assert_eq!(
        rejection.problems()[0].kind,
        ProblemKind::MissingField {
            field: "orderId".into()
        }
    );

    // A draft that has it: the body is exactly what `send_to` writes, as JSON.
    let draft = RefundDraft {
        order_id: Some("A-1".into()),
        amount_cents: 5,
    };
    let request = reqwest::Client::new()
        .post("http://127.0.0.1:9/refunds")
        .handoff_body::<RefundRequest, _>(&draft)
        .unwrap()
        .build()
        .unwrap();
    assert_eq!(request.headers()["content-type"], "application/json");
    let sent = contract_core::send_to::<RefundRequest, _>(&draft).unwrap();
    assert_eq!(request.body().unwrap().as_bytes(), Some(sent.bytes()));
}

#[tokio::test]
async fn a_response_is_read_through_receive() {
    bounded(async {
        let addr = serve().await;
        let client = reqwest::Client::new();

        // A 200 whose body breaks `Seen`: a rejection, with pointers and no value.
        let response = client
            .get(format!("http://{addr}/not-seen"))
            .send()
            .await
            .unwrap();
        let error = response.receive::<Seen>().await.unwrap_err();
        let rejection = error.rejection().expect("the body broke the contract");
        assert_eq!(rejection.problems()[0].pointer, "/received");
        assert!(matches!(error, ReceiveError::Rejected(_)));
        assert!(error
            .to_string()
            .starts_with("receive of web-refund-seen/v1 refused"));

        // An error status is not read as the contract's payload.
        let response = client
            .post(format!("http://{addr}/refunds"))
            .header("content-type", "application/json")
            .body("{}")
            .send()
            .await
            .unwrap();
        let error = response.receive::<Seen>().await.unwrap_err();
        assert!(
            matches!(error, ReceiveError::Status(status) if status.as_u16() == 422),
            "{error:?}"
        );
        assert_eq!(
            error.to_string(),
            "the peer answered 422 Unprocessable Entity"
        );

        // `receive_with`'s limits: a body past `max_bytes` is refused as too large.
        let response = client
            .get(format!("http://{addr}/large-seen"))
            .send()
            .await
            .unwrap();
        let mut options = ReceiveOptions::default();
        options.limits = limits(256);
        let error = response.receive_with::<Seen>(&options).await.unwrap_err();
        assert_eq!(
            error.rejection().unwrap().problems()[0].kind,
            ProblemKind::TooLarge { limit: 256 }
        );
        let response = client
            .get(format!("http://{addr}/large-seen"))
            .send()
            .await
            .unwrap();
        assert!(response.receive::<Seen>().await.is_ok());
    })
    .await;
}

#[tokio::test]
async fn a_body_that_fails_to_arrive_is_a_transport_error() {
    bounded(async {
        // A server that promises 100 bytes, sends 4 and hangs up.
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let addr = listener.local_addr().unwrap();
        let server = std::thread::spawn(move || {
            let (mut stream, _) = listener.accept().unwrap();
            let mut request = [0; 1024];
            let _ = stream.read(&mut request).unwrap();
            stream
                .write_all(
                    b"HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 100\r\n\r\n{\"re",
                )
                .unwrap();
        });
        let response = reqwest::get(format!("http://{addr}/")).await.unwrap();
        let error = response.receive::<Seen>().await.unwrap_err();
        assert!(matches!(error, ReceiveError::Transport(_)), "{error:?}");
        assert!(error.rejection().is_none());
        assert!(std::error::Error::source(&error).is_some());
        server.join().unwrap();
    })
    .await;
}
