//! Fuzz target `skill_file`: see `skillc::fuzz::skill_file`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| skillc::fuzz::skill_file(data));
