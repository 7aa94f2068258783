//! Fuzz target `fix`: `validate --fix --unsafe-fixes` on a generated skill file, judged by an
//! independent YAML reader (see `fix_oracle.rs`).
#![no_main]

#[path = "../fix_oracle.rs"]
mod fix_oracle;

libfuzzer_sys::fuzz_target!(|data: &[u8]| fix_oracle::check(data));
