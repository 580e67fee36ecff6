//! What every command writes to stdout: text, and JSON pretty-printed.

use std::io::Write as _;

use serde::Serialize;

/// Prints `text` to stdout; a closed pipe is not an error worth a panic.
pub(crate) fn print(text: &str) {
    let mut out = std::io::stdout().lock();
    let _ = writeln!(out, "{text}");
}

/// `value` as pretty-printed JSON.
pub(crate) fn to_json<T: Serialize>(value: &T) -> Result<String, String> {
    serde_json::to_string_pretty(value).map_err(|e| format!("cannot write JSON: {e}"))
}
