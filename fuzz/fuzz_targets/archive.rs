//! Fuzz target `archive`: see `skillc::fuzz::archive`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| skillc::fuzz::archive(data));
