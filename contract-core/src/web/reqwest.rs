//! reqwest (feature `reqwest`): [`HandoffRequestExt`] sets a request's body checked by
//! [`send_to`](crate::send_to) against the consumer's contract, [`HandoffResponseExt`] reads
//! a response's body through [`receive`](crate::receive).
//!
//! ```no_run
//! use contract_core::web::reqwest::{HandoffRequestExt, HandoffResponseExt};
//! use contract_core::{HandoffContract, Journey};
//! use serde::{Deserialize, Serialize};
//!
//! #[derive(Serialize, Deserialize, HandoffContract)]
//! #[handoff(name = "refund-request", version = 1)]
//! struct RefundRequest {
//!     order_id: String,
//! }
//!
//! #[derive(Deserialize, HandoffContract)]
//! #[handoff(name = "refund-decision", version = 1)]
//! struct RefundDecision {
//!     approved: bool,
//! }
//!
//! async fn ask(client: &reqwest::Client) -> Result<bool, Box<dyn std::error::Error>> {
//!     let request = RefundRequest { order_id: "A-1".into() };
//!     let decision = client
//!         .post("http://127.0.0.1:3000/refunds")
//!         .handoff_journey(&Journey::new("triage", "refunds").session("ctx-1"))
//!         // Refused here, before anything is sent, if the consumer's contract would refuse it.
//!         .handoff_body::<RefundRequest, _>(&request)?
//!         .send()
//!         .await?
//!         .receive::<RefundDecision>()
//!         .await?;
//!     Ok(decision.value().approved)
//! }
//! ```

use std::error::Error;
use std::fmt;
use std::future::Future;

use ::reqwest::header::{HeaderValue, CONTENT_TYPE};
use ::reqwest::{RequestBuilder, Response, StatusCode};
use serde::de::DeserializeOwned;
use serde::Serialize;

use crate::{
    receive_with, send_to_with, HandoffSchema, Journey, ReceiveOptions, Received, Rejection,
    SendOptions,
};

/// Extensions of [`reqwest::RequestBuilder`]: a body checked against the consumer's contract,
/// and the journey's headers.
///
/// Sealed: implemented for `RequestBuilder` only, so that methods can be added.
pub trait HandoffRequestExt: Sized + sealed::Sealed {
    /// Sets the body to `value` as JSON, checked by [`send_to::<C, _>`](crate::send_to)
    /// against the receiver view of the consumer's contract `C`, and the content type
    /// `application/json`.
    ///
    /// # Errors
    /// The [`Rejection`] of every problem the consumer would find: nothing is sent.
    fn handoff_body<C, T>(self, value: &T) -> Result<Self, Rejection>
    where
        C: HandoffSchema + ?Sized + 'static,
        T: Serialize + ?Sized,
    {
        self.handoff_body_with::<C, T>(value, &SendOptions::default())
    }

    /// [`handoff_body`](Self::handoff_body) with [`send_to_with`]'s
    /// options: limits, and the journey recorded on the trace (the headers are
    /// [`handoff_journey`](Self::handoff_journey)'s).
    ///
    /// # Errors
    /// The [`Rejection`] of every problem the consumer would find: nothing is sent.
    fn handoff_body_with<C, T>(self, value: &T, options: &SendOptions) -> Result<Self, Rejection>
    where
        C: HandoffSchema + ?Sized + 'static,
        T: Serialize + ?Sized;

    /// Sets the [headers](crate::web) that carry `journey` to the receiver.
    #[must_use]
    fn handoff_journey(self, journey: &Journey) -> Self;
}

impl HandoffRequestExt for RequestBuilder {
    fn handoff_body_with<C, T>(self, value: &T, options: &SendOptions) -> Result<Self, Rejection>
    where
        C: HandoffSchema + ?Sized + 'static,
        T: Serialize + ?Sized,
    {
        let sent = send_to_with::<C, T>(value, options)?;
        Ok(self
            .header(CONTENT_TYPE, HeaderValue::from_static("application/json"))
            .body(sent.into_bytes()))
    }

    fn handoff_journey(mut self, journey: &Journey) -> Self {
        for (name, value) in super::journey_headers(journey) {
            self = self.header(name, value);
        }
        self
    }
}

/// Extensions of [`reqwest::Response`]: its body read through [`receive`](crate::receive).
///
/// Sealed: implemented for `Response` only, so that methods can be added.
pub trait HandoffResponseExt: sealed::Sealed {
    /// Reads the body and checks it against `T`'s contract with [`receive`](crate::receive).
    ///
    /// # Errors
    /// [`ReceiveError::Status`] for a status other than `2xx` (its body is an error, not a
    /// `T`: read it from the response before calling this to see it);
    /// [`ReceiveError::Transport`] when the body fails to arrive;
    /// [`ReceiveError::Rejected`] with every problem when the body breaks the contract.
    fn receive<T>(self) -> impl Future<Output = Result<Received<T>, ReceiveError>> + Send
    where
        T: DeserializeOwned + HandoffSchema + 'static;

    /// [`receive`](Self::receive) with [`receive_with`]'s options. At
    /// most one byte past [`Limits::max_bytes`](crate::Limits::max_bytes) is read: a larger
    /// body is refused without reading the rest.
    ///
    /// # Errors
    /// As [`receive`](Self::receive).
    fn receive_with<T>(
        self,
        options: &ReceiveOptions,
    ) -> impl Future<Output = Result<Received<T>, ReceiveError>> + Send
    where
        T: DeserializeOwned + HandoffSchema + 'static;
}

impl HandoffResponseExt for Response {
    async fn receive<T>(self) -> Result<Received<T>, ReceiveError>
    where
        T: DeserializeOwned + HandoffSchema + 'static,
    {
        self.receive_with(&ReceiveOptions::default()).await
    }

    async fn receive_with<T>(
        mut self,
        options: &ReceiveOptions,
    ) -> Result<Received<T>, ReceiveError>
    where
        T: DeserializeOwned + HandoffSchema + 'static,
    {
        let status = self.status();
        if !status.is_success() {
            return Err(ReceiveError::Status(status));
        }
        let keep = options.limits.max_bytes.saturating_add(1);
        let mut bytes = Vec::new();
        while let Some(chunk) = self.chunk().await.map_err(ReceiveError::Transport)? {
            let room = keep - bytes.len();
            bytes.extend_from_slice(&chunk[..chunk.len().min(room)]);
            // Past `max_bytes` the rest is not read: `receive_with` refuses what was kept.
            if bytes.len() == keep {
                break;
            }
        }
        receive_with::<T>(&bytes, options).map_err(ReceiveError::Rejected)
    }
}

mod sealed {
    /// Implemented by the types the extensions extend, and by nothing outside this crate.
    pub trait Sealed {}
    impl Sealed for reqwest::RequestBuilder {}
    impl Sealed for reqwest::Response {}
}

/// Why [`HandoffResponseExt::receive`] returned no value. Its `Display` holds no value of the
/// payload.
#[derive(Debug)]
#[non_exhaustive]
pub enum ReceiveError {
    /// The response's status is not `2xx`.
    Status(StatusCode),
    /// The body failed to arrive.
    Transport(::reqwest::Error),
    /// The body arrived and breaks the contract.
    Rejected(Rejection),
}

impl ReceiveError {
    /// The rejection, when the body arrived and broke the contract.
    #[must_use]
    pub fn rejection(&self) -> Option<&Rejection> {
        match self {
            ReceiveError::Rejected(rejection) => Some(rejection),
            ReceiveError::Status(_) | ReceiveError::Transport(_) => None,
        }
    }
}

impl fmt::Display for ReceiveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReceiveError::Status(status) => write!(f, "the peer answered {status}"),
            // The cause is the `source`, not repeated here.
            ReceiveError::Transport(_) => f.write_str("the response's body failed to arrive"),
            ReceiveError::Rejected(rejection) => fmt::Display::fmt(rejection, f),
        }
    }
}

impl Error for ReceiveError {
    fn source(&self) -> Option<&(dyn Error + 'static)> {
        match self {
            ReceiveError::Transport(error) => Some(error),
            // Its `Display` is the rejection's own.
            ReceiveError::Status(_) | ReceiveError::Rejected(_) => None,
        }
    }
}
