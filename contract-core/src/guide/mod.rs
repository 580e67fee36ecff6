//! The guide: one page per task, from a first contract to a deployment check. Every Rust
//! example on these pages is compiled and run by `cargo test --doc` (those that need a
//! PostgreSQL server are compiled only, and say so).
//!
//! | page | what it covers |
//! |---|---|
//! | [`contract`] | a first contract: the derive, the sender and receiver views, serde's attributes, the `handoff` attributes, the types it describes |
//! | [`publish`] | publishing a version: snapshots, the compile-time check of a breaking change, allowances, generic contracts |
//! | [`send_receive`] | both ends of a handoff: `receive` and `send`, every problem at once, presence, why a field is missing, limits, traces, the web edge |
//! | [`envelope`] | the envelope around a payload and the inbox that accepts it exactly once, on SQLite and then on PostgreSQL |
//! | [`a2a`] | a payload and its contract in an A2A message or artifact |
//! | [`models`] | handoffs a model writes: provider schema dialects, corrections for the next attempt, rig tools and MCP tools whose arguments and results are contracts |
//! | [`tasks`] | sub-tasks and their results: unknown is not none, budgets enforced |
//! | [`peers`] | peers in other languages: JSON Schema export and import, ajv, Python's `jsonschema`, pydantic and zod |
//! | [`ci`] | the `handoff` command line in CI: diffs, history checks against a git ref, GitHub annotations |
//! | [`sessions`] | one session's journey read back from the inboxes' ledgers, and can-i-deploy across agents |
//! | [`benchmarks`] | what each part costs, measured against what a user would write instead |
//! | [`testing`] | running this repository's tests, the ones that skip without their tools, and how to run those |
//!
//! # The crates
//!
//! | crate | what it is |
//! |---|---|
//! | `contract-core` | the crate you depend on: the traits, the derives (feature `derive`, default), JSON Schema, `receive`/`send`/presence/`why_missing`, snapshots (feature `snapshots`), spans (feature `tracing`), OpenTelemetry attributes and metrics (feature `otel`), the task contracts (`task`), the envelope and its inbox (features `sqlite`, `postgres`, `tokio` for the stores), handoffs in A2A messages and artifacts (feature `a2a`), rig tools and MCP tools (features `rig`, `rmcp`) |
//! | `contract-schema` | the schema model, its canonical text and parser (with a source map of lines), the compatibility engine, the JSON Schema export and import |
//! | `contract-derive` | the proc-macro crate |
//! | `contract-workflow` | the workflow of a `handoff.toml`: its agents and edges, their sides read at git refs, the deployment store, can-i-deploy and the graph |
//! | `contract-cli` | the `handoff` binary: snapshot diffs and folder checks for CI, JSON Schema export, `record-deployment`, `can-i-deploy`, `graph`, `sessions`, `session`, shell completions |
//! | `tests` | integration, ui and snapshot tests (`contract-tests`, not published; `tests/README.md` says where each kind of case goes) |
//! | `examples` | runnable examples of the workflows on these pages |
//! | `fuzz` | the cargo-fuzz targets of `receive`, of snapshot files and of a peer's JSON Schema import (its own workspace, outside the test run) |
//! | `interop` | the peers in other languages, pinned: ajv, zod, pydantic, Python's `jsonschema`, the A2A Python SDK |

#[doc = include_str!("contract.md")]
pub mod contract {}

#[doc = include_str!("publish.md")]
pub mod publish {}

#[doc = include_str!("send_receive.md")]
pub mod send_receive {}

#[doc = include_str!("envelope.md")]
pub mod envelope {}

#[doc = include_str!("a2a.md")]
pub mod a2a {}

#[doc = include_str!("models.md")]
pub mod models {}

#[doc = include_str!("tasks.md")]
pub mod tasks {}

#[doc = include_str!("peers.md")]
pub mod peers {}

#[doc = include_str!("ci.md")]
pub mod ci {}

#[doc = include_str!("sessions.md")]
pub mod sessions {}

#[doc = include_str!("benchmarks.md")]
pub mod benchmarks {}

#[doc = include_str!("testing.md")]
pub mod testing {}
