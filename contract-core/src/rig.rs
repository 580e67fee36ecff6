//! A handoff contract as the arguments of a [rig](https://docs.rs/rig-core/0.43) tool
//! (feature `rig`, rig-core 0.43).
//!
//! A model that calls a tool writes its arguments as JSON; [`ContractTool`] is a rig
//! [`Tool`] whose arguments are a contract `T`:
//!
//! - its definition's `parameters` are `T`'s receiver view in the provider's dialect
//!   ([`json_schema_dialect`]: OpenAI strict, Anthropic,
//!   Gemini), or in plain JSON Schema 2020-12 ([`ContractTool::plain`]);
//! - its arguments are read through [`receive`](crate::receive) from the text the model
//!   wrote (rig hands the tool the raw JSON, `Box<RawValue>`, so a key written twice is still
//!   seen), every problem at once;
//! - a refusal goes back to the model as the tool's error: the [`Correction`] of
//!   [`Rejection::correction`] (each problem's pointer and what the contract expects there,
//!   never a value the model wrote, at most 2,000 characters), as an `invalid_args` error
//!   marked retryable, so the model's next call can fix it. The handler never sees a refused
//!   call.
//!
//! The tool's name is the contract's name (`refund-request`): rig names a typed tool by a
//! constant, and a contract's name is one (kebab-case, which OpenAI, Anthropic and Gemini all
//! accept as a function name).
//!
//! The feature is built against rig-core 0.43.x, whose tool traits differ from other minor
//! releases', and which needs Rust 1.95 (the rest of this crate, 1.85).
//!
//! Arguments that are not JSON at all are refused by rig itself before the tool runs, as an
//! `invalid_args` error of its own ("failed to parse tool arguments: …", serde_json's syntax
//! message with a line and a column, no value).
//!
//! ```
//! use contract_core::rig::ContractTool;
//! use contract_core::{Dialect, HandoffContract, Received};
//! use rig_core::tool::tool_definition;
//! use serde::Deserialize;
//!
//! #[derive(Debug, Deserialize, HandoffContract)]
//! #[handoff(name = "refund-request", version = 1)]
//! #[serde(rename_all = "camelCase")]
//! struct RefundRequest {
//!     order_ref: String,
//!     amount_cents: u32,
//!     note: Option<String>,
//! }
//!
//! let tool = ContractTool::new(
//!     Dialect::OpenAiStrict,
//!     "File a refund request for an order.",
//!     |request: Received<RefundRequest>| async move {
//!         let request = request.into_inner();
//!         Ok::<_, std::convert::Infallible>(format!("refund filed for {}", request.order_ref))
//!     },
//! )?;
//! let definition = tool_definition(&tool);
//! assert_eq!(definition.name, "refund-request");
//! // OpenAI's strict form: every member required, `null` for the optional one.
//! let parameters = definition.parameters;
//! assert_eq!(parameters["required"], serde_json::json!(["orderRef", "amountCents", "note"]));
//! assert_eq!(parameters["additionalProperties"], false);
//! # Ok::<(), contract_core::schema::json_schema::dialect::DialectError>(())
//! ```

use core::fmt;
use core::future::Future;
use core::marker::PhantomData;

use contract_schema::json_schema::dialect::{DialectError, Narrowing};
use contract_schema::json_schema::View;
use rig_core::tool::{IntoToolOutput, Tool, ToolContext, ToolExecutionError};
use serde::de::DeserializeOwned;
use serde_json::value::RawValue;

use crate::correction::{Correction, CorrectionOptions};
use crate::json_schema::{json_schema, json_schema_dialect};
use crate::runtime::options::ReceiveOptions;
use crate::runtime::problem::Rejection;
use crate::runtime::{receive_with, Received};
use crate::traits::HandoffContract;
use crate::Dialect;

/// A rig [`Tool`] whose arguments are the contract `T`, read through
/// [`receive`](crate::receive), and whose work is the handler `F`, called with what was
/// received.
///
/// `F` is any `Fn(Received<T>) -> impl Future<Output = Result<O, E>>`: `O` is what the
/// model is told (any `Serialize` value, or rig's `ToolOutput`), `E` the handler's own error
/// (rig shows the model a safe, generic line for it and keeps the error for the host).
pub struct ContractTool<T, F> {
    description: String,
    parameters: serde_json::Value,
    warnings: Vec<Narrowing>,
    handler: F,
    receive: ReceiveOptions,
    corrections: CorrectionOptions,
    contract: PhantomData<fn() -> T>,
}

impl<T, F> fmt::Debug for ContractTool<T, F>
where
    T: HandoffContract,
{
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ContractTool")
            .field("contract", &T::CONTRACT.id)
            .field("description", &self.description)
            .finish_non_exhaustive()
    }
}

impl<T, F, Fut, O, E> ContractTool<T, F>
where
    T: HandoffContract + DeserializeOwned + Send + 'static,
    F: Fn(Received<T>) -> Fut + Send + Sync,
    Fut: Future<Output = Result<O, E>> + Send,
    O: IntoToolOutput,
    E: std::error::Error + Send + Sync + 'static,
{
    /// The tool, its `parameters` the receiver view of `T` in `dialect`.
    ///
    /// # Errors
    ///
    /// [`DialectError`] when `dialect` cannot state what `T`'s receiver accepts without
    /// accepting more (each problem with its JSON pointer and rule): the model would be
    /// asked for payloads the receiver refuses.
    pub fn new(
        dialect: Dialect,
        description: impl Into<String>,
        handler: F,
    ) -> Result<Self, DialectError> {
        let export = json_schema_dialect::<T>(dialect)?;
        Ok(Self::with_parameters(
            description.into(),
            export.schema,
            export.warnings,
            handler,
        ))
    }

    /// The tool, its `parameters` the receiver view of `T` in plain JSON Schema 2020-12
    /// ([`json_schema`](crate::json_schema)), for a provider that takes any schema.
    pub fn plain(description: impl Into<String>, handler: F) -> Self {
        Self::with_parameters(
            description.into(),
            json_schema::<T>(View::Receiver),
            Vec::new(),
            handler,
        )
    }
}

impl<T, F> ContractTool<T, F> {
    fn with_parameters(
        description: String,
        parameters: serde_json::Value,
        warnings: Vec<Narrowing>,
        handler: F,
    ) -> Self {
        ContractTool {
            description,
            parameters,
            warnings,
            handler,
            receive: ReceiveOptions::default(),
            corrections: CorrectionOptions::default(),
            contract: PhantomData,
        }
    }

    /// With these options for reading the arguments (limits, the journey on the trace).
    #[must_use]
    pub fn receive_options(mut self, options: ReceiveOptions) -> Self {
        self.receive = options;
        self
    }

    /// With corrections bounded by these options (2,000 characters unless told).
    #[must_use]
    pub fn corrections(mut self, options: CorrectionOptions) -> Self {
        self.corrections = options;
        self
    }

    /// Where the dialect asks the model for less than the receiver would take (empty for
    /// [`plain`](Self::plain)), each with its JSON pointer.
    #[must_use]
    pub fn warnings(&self) -> &[Narrowing] {
        &self.warnings
    }
}

/// Why a [`ContractTool`] call failed: the arguments were refused, or the handler failed.
#[derive(Debug)]
pub enum ToolError<E> {
    /// The arguments broke the contract; the handler was not called.
    Refused(Box<Refused>),
    /// The handler's own error.
    Handler(E),
}

/// Arguments refused by the contract: what [`receive`](crate::receive) found and the
/// correction the model is sent.
#[derive(Debug, Clone)]
pub struct Refused {
    rejection: Rejection,
    correction: Correction,
}

impl Refused {
    /// Every problem found, each with its pointer, and the presence record of the arguments.
    #[must_use]
    pub fn rejection(&self) -> &Rejection {
        &self.rejection
    }

    /// What the model is sent (its text is the tool's error).
    #[must_use]
    pub fn correction(&self) -> &Correction {
        &self.correction
    }
}

impl<E: fmt::Display> fmt::Display for ToolError<E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ToolError::Refused(refused) => fmt::Display::fmt(&refused.rejection, f),
            ToolError::Handler(error) => error.fmt(f),
        }
    }
}

impl<E: std::error::Error + 'static> std::error::Error for ToolError<E> {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            ToolError::Refused(refused) => Some(&refused.rejection),
            ToolError::Handler(error) => Some(error),
        }
    }
}

impl<T, F, Fut, O, E> Tool for ContractTool<T, F>
where
    T: HandoffContract + DeserializeOwned + Send + 'static,
    F: Fn(Received<T>) -> Fut + Send + Sync,
    Fut: Future<Output = Result<O, E>> + Send,
    O: IntoToolOutput,
    E: std::error::Error + Send + Sync + 'static,
{
    const NAME: &'static str = T::CONTRACT.name;
    type Args = Box<RawValue>;
    type Output = O;
    type Error = ToolError<E>;

    fn description(&self) -> String {
        self.description.clone()
    }

    fn parameters(&self) -> serde_json::Value {
        self.parameters.clone()
    }

    fn map_error(&self, error: Self::Error) -> ToolExecutionError {
        match error {
            ToolError::Refused(refused) => {
                ToolExecutionError::invalid_args(refused.correction.text().to_owned())
                    .with_retryable(true)
                    .with_source(ToolError::<E>::Refused(refused))
            }
            ToolError::Handler(error) => ToolExecutionError::from_error(error),
        }
    }

    async fn call(
        &self,
        _context: &mut ToolContext,
        args: Self::Args,
    ) -> Result<Self::Output, Self::Error> {
        let received =
            receive_with::<T>(args.get().as_bytes(), &self.receive).map_err(|rejection| {
                let correction = rejection.correction_with(&self.corrections);
                ToolError::Refused(Box::new(Refused {
                    rejection,
                    correction,
                }))
            })?;
        (self.handler)(received).await.map_err(ToolError::Handler)
    }
}
