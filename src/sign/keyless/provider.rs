//! TEMPORARY stand-in for the main session's RustCrypto provider (replaced on merge).

pub fn install() {}
