//! Fuzz target `tool_schema`: see `skillc::fuzz::tool_schema`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| skillc::fuzz::tool_schema(data));
