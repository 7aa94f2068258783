//! Fuzz target `signing`: see `skillc::fuzz::signing`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| skillc::fuzz::signing(data));
