//! The generated code uses absolute paths only: shadowing the prelude changes nothing, and
//! it passes the strictest lints.
#![deny(unused_qualifications, deprecated, missing_docs)]
#![deny(clippy::pedantic)]

use contract_core::{HandoffContract, HandoffSchema};
use serde::{Deserialize, Serialize};

/// Shadows of the prelude.
pub struct Result;
/// Shadows of the prelude.
pub struct Option;
/// Shadows of the prelude.
pub struct Some;
/// Shadows of the prelude.
pub struct None;
/// Shadows of the prelude.
pub struct String;
/// Shadows of the prelude.
pub struct Vec;
/// Shadows of the prelude.
pub struct Box;
/// Shadows of `core`.
pub mod core {}
/// Shadows of `contract_core`'s items.
pub struct Shape;
/// Shadows of `contract_core`'s items.
pub struct Field;
/// Shadows of `contract_core`'s items.
pub struct Kind;

/// A contract under the shadows.
#[derive(Serialize, Deserialize, HandoffContract)]
#[handoff(name = "hygiene", version = 1)]
pub struct Hygiene<T> {
    /// A field.
    pub text: std::string::String,
    /// Another.
    pub list: std::vec::Vec<u8>,
    /// A generic one.
    pub value: std::option::Option<T>,
}

/// A nested enum under the shadows.
#[derive(Serialize, Deserialize, HandoffSchema)]
#[serde(tag = "type")]
pub enum Event {
    /// A variant.
    Created {
        /// Its id.
        id: u64,
    },
}

/// A non-generic contract (emits its snapshot test under the shadows).
#[derive(Serialize, Deserialize, HandoffContract)]
#[handoff(name = "hygiene-plain", version = 1)]
pub struct Plain {
    /// A field.
    pub event: Event,
}

fn main() {
    let _ = <Hygiene<u8> as HandoffSchema>::schema();
    let _ = <Plain as HandoffContract>::CONTRACT;
}
