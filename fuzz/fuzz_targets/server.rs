//! Fuzz target `server`: see `skillc::fuzz::server`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| skillc::fuzz::server(data));
