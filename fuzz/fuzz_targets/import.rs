//! A peer's JSON Schema on any bytes: bytes that are JSON are imported as a producer's and as
//! a consumer's schema, as `handoff diff peer.json SNAP` reads them. An imported schema's
//! canonical text reads back as the same schema, and the compatibility check, the JSON Schema
//! export of both views and the export in every provider dialect run on it: the properties of
//! `contract_tests::fuzz::check_import`.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| contract_tests::fuzz::check_import(data));
