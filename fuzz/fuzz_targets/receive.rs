//! `receive` on any bytes, for a nested contract with every shape (enums of each
//! representation, flatten, maps, options, sets, tuples, arrays): the properties of
//! `contract_tests::fuzz::check_receive`.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| contract_tests::fuzz::check_receive(data));
