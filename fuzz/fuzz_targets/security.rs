//! Fuzz target `security`: see `skillc::fuzz::security`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| skillc::fuzz::security(data));
