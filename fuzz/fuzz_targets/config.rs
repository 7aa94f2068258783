//! Fuzz target `config`: see `skillc::fuzz::config`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| skillc::fuzz::config(data));
