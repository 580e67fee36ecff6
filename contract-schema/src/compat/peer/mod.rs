//! Fix hints in a peer's own terms, when a side of a check is a JSON Schema written by
//! pydantic, zod or another generator rather than a Rust contract.
//!
//! The engine's hints speak Rust (`#[serde(default)]`, `Option<…>`, "use one contract
//! version"): right for a contract, no help to a Python or TypeScript peer, whose schema is
//! generated from its own model. [`check_peer`] runs the same check and then says each
//! finding's fix as an edit of the peer's model: a pydantic producer whose plain `int` a
//! `u64` consumer cannot hold is told `Field(ge=0, le=18446744073709551615)`, a zod
//! consumer that requires a field the producer may leave out is told `.optional()`. The
//! rule ids, paths and `why` lines are the engine's, unchanged; the `hint` is rewritten and
//! the [`Fix`] becomes [`Fix::Described`] (the Rust attribute edits do not apply). When both
//! sides are peers, the hint says the fix for each side.
//!
//! Which generator wrote a schema is given as a [`Peer`]; [`Peer::of_document`] tells it
//! from a document where the document says so, and otherwise answers
//! [`Peer::JsonSchema`]: the fix in JSON Schema keywords, with the pydantic and the zod
//! form beside it.
//!
//! | finding | a peer producer is told | a peer consumer is told |
//! |---|---|---|
//! | `INT_OUT_OF_RANGE`, `VALUE_OUTSIDE_CONSTRAINT` (integers) | the consumer's bounds: `Field(ge=…, le=…)`, `z.number().int().min(…).max(…)`, `"minimum"`/`"maximum"` | the producer's bounds, or that a zod number cannot hold them |
//! | `VALUE_OUTSIDE_CONSTRAINT` (strings) | the consumer's length and pattern: `Field(max_length=…)`, `.max(…)`, `"maxLength"` | the producer's |
//! | `FLOAT_INTO_INTEGER` | `int`, `.int()`, `"type": "integer"` | `float`, no `.int()`, `"type": "number"` |
//! | `STRING_INTO_CHAR` | `Field(min_length=1, max_length=1)`, `.length(1)` | no length bounds |
//! | `STRING_FORMAT_CHANGED` | the format's type: `UUID`, `z.uuid()`, `"format": "uuid"`, … | a plain `str`, `z.string()` |
//! | `NULL_NOT_ACCEPTED` | the type without `Optional[…]`; no `.nullable()`/`.nullish()` (`.optional()` where it may be absent) | `Optional[…]`; `.nullable()`, or `.nullish()` for a field that may be absent |
//! | `REQUIRED_FIELD_MAY_BE_OMITTED` | `json_schema_serialization_defaults_required=True` or no default; no `.optional()`; listed in `required` | a default (`= None`); `.optional()`; out of `required` |
//! | `REQUIRED_FIELD_NOT_SENT` | the field added, in the consumer's type | a default, `.optional()`, or the field removed |
//! | `FIELD_LIKELY_RENAMED` | the consumer's key: `Field(alias=…)`, the key renamed | the producer's key |
//! | `ENUM_VALUE_UNKNOWN` | the consumer's values: `Literal[…]`, `z.enum([…])`, `"enum"` | the value added |
//! | `ENUM_VARIANT_UNKNOWN` | the union member removed | a member added |
//! | `ENUM_TAG_CHANGED` | the consumer's tag: `Field(discriminator=…)`, `z.discriminatedUnion(…)` | the producer's tag |
//! | `UNKNOWN_FIELD_DENIED` | `ConfigDict(extra="forbid")`, a plain `z.object`, `"additionalProperties": false`; or the field left out | no `extra="forbid"`, no `.strict()`; or the field declared |
//! | any other rule | the type the consumer reads there, in the peer's terms | the type the producer writes there |
//!
//! ```
//! use contract_schema::compat::{self, Peer, PeerSides};
//! use contract_schema::json_schema::{import, View};
//! use contract_schema::snapshot;
//! use serde_json::json;
//!
//! // A pydantic producer: `amount: int` (unbounded).
//! let doc = json!({
//!     "title": "Refund", "type": "object",
//!     "properties": {"amount": {"title": "Amount", "type": "integer"}},
//!     "required": ["amount"],
//! });
//! assert_eq!(Peer::of_document(&doc), Some(Peer::Pydantic));
//! let producer = import(&doc, View::Sender)?.schema;
//! // A Rust consumer of `amount: u64`.
//! let consumer = snapshot::parse(
//!     "root Refund\n\nstruct Refund\n  rust \"app::Refund\"\n  unknown ignore\n  field amount: u64\n    send \"amount\" always\n    receive \"amount\" required\n",
//! )?;
//! let report = compat::check_peer(&producer, &consumer, PeerSides::producer(Peer::Pydantic));
//! let finding = &report.findings()[0];
//! assert_eq!(finding.rule.id(), "INT_OUT_OF_RANGE");
//! assert_eq!(
//!     finding.hint,
//!     "keep `amount` within what the consumer reads: `Field(ge=0, le=18446744073709551615)`"
//! );
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod detect;
mod hints;
mod spot;
mod terms;
mod who;

pub use who::{Peer, PeerSides};

use super::fix::Fix;
use super::report::CompatReport;
use crate::allowance::Allowances;
use crate::model::{Schema, View};

/// [`check`](super::check) of a producer against a consumer, one or both of them a peer's
/// JSON Schema (imported with [`json_schema::import`](crate::json_schema::import)), with
/// every finding's hint said in the peer's terms.
#[must_use]
pub fn check_peer(writer: &Schema, reader: &Schema, peers: PeerSides) -> CompatReport {
    check_peer_with(writer, reader, peers, &Allowances::new())
}

/// [`check_peer`], with some findings accepted on purpose.
#[must_use]
pub fn check_peer_with(
    writer: &Schema,
    reader: &Schema,
    peers: PeerSides,
    allowances: &Allowances,
) -> CompatReport {
    let report = super::check_with(writer, reader, allowances);
    if peers.is_empty() {
        return report;
    }
    let sides = hints::Sides { writer, reader };
    let findings = report
        .findings()
        .iter()
        .cloned()
        .map(|mut finding| {
            let at = hints::At {
                writer: spot::spot(writer, View::Sender, &finding.path),
                reader: spot::spot(reader, View::Receiver, &finding.path),
            };
            let mut parts = Vec::new();
            if let Some(peer) = peers.producer {
                parts.push((peer, hints::producer(&finding, &sides, &at, peer)));
            }
            if let Some(peer) = peers.consumer {
                parts.push((peer, hints::consumer(&finding, &sides, &at, peer)));
            }
            finding.hint = match parts.as_slice() {
                [(_, only)] => only.clone(),
                _ => parts
                    .iter()
                    .zip(["in the producer", "or in the consumer"])
                    .map(|((peer, hint), who)| format!("{who} ({peer}): {hint}"))
                    .collect::<Vec<_>>()
                    .join("; "),
            };
            finding.fix = Fix::Described;
            finding
        })
        .collect();
    CompatReport::new(findings)
}
