//! A snapshot file on any bytes: the text of a `.snap` file a user or a peer commits, read as
//! `handoff` and the published check read it (as UTF-8 when the bytes are). When a schema
//! reads, its canonical text reads back as the same schema, and the compatibility check, the
//! JSON Schema export of both views and the export in every provider dialect run on it: the
//! properties of `contract_tests::fuzz::check_snapshot`.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| contract_tests::fuzz::check_snapshot(data));
