//! Keys and Sigstore bundles (package.md): ECDSA P-256 keys in PEM ([`keys`]); the key-based
//! Sigstore bundle v0.3 ([`bundle`]), written with p256 + sha2 + base64; identity-based
//! ("keyless") bundles verified offline ([`keyless`]); and haiku.skills' directory digest
//! ([`haiku`]). Artifacts are hashed while streamed ([`read_artifact`]).

pub mod bundle;
pub mod haiku;
pub mod keyless;
pub mod keys;

use std::io::Read as _;
use std::path::Path;

use base64::Engine;
use base64::engine::general_purpose::STANDARD as BASE64;
use p256::ecdsa::VerifyingKey;
use p256::pkcs8::EncodePublicKey;
use sha2::{Digest, Sha256};

pub use bundle::{
    Bundle, MAX_BUNDLE, MEDIA_TYPE_V03, MEDIA_TYPES, MessageDigest, MessageSignature,
    PublicKeyHint, VerificationMaterial, check_digest, check_sha256, check_signature,
    check_signature_digest, sign, sign_digest,
};
pub use keys::{KeyError, MAX_KEY_FILE, PASSWORD_ENV, generate, signing_key, verifying_key};

/// The key hint: base64 of the SHA-256 of the SPKI DER public key.
pub fn hint(key: &VerifyingKey) -> String {
    let der = key
        .to_public_key_der()
        .map(|d| d.as_bytes().to_vec())
        .unwrap_or_default();
    BASE64.encode(Sha256::digest(der))
}

/// An artifact read once: its SHA-256 state, and its bytes when they were asked for.
pub struct Artifact {
    /// The SHA-256 state after the whole file (finalise it, or feed it to ECDSA).
    pub digest: Sha256,
    /// The bytes read.
    pub size: u64,
    /// Whether the bytes were kept.
    pub kept: Kept,
}

/// What [`read_artifact`] kept in memory.
pub enum Kept {
    /// Only hashed: the caller did not want the bytes.
    Streamed,
    /// The whole file.
    Bytes(Vec<u8>),
    /// Wanted, but larger than the limit (its size): only hashed.
    TooLarge(u64),
}

/// Reads a regular file once, hashing it as it streams (a FIFO or a device is refused without
/// blocking). The bytes are kept in memory only when `want` accepts the file's first bytes
/// and the file is at most `limit` bytes, so a large artifact costs no memory.
pub fn read_artifact(
    path: &Path,
    want: impl Fn(&[u8]) -> bool,
    limit: u64,
) -> std::io::Result<Artifact> {
    let mut file = crate::input::open(path, crate::input::Links::Follow)?;
    let meta = file.metadata()?;
    if !meta.is_file() {
        return Err(std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            "not a regular file",
        ));
    }
    let mut head = Vec::with_capacity(512);
    (&mut file).take(512).read_to_end(&mut head)?;
    let mut digest = Sha256::new_with_prefix(&head);
    if !want(&head) {
        let rest = std::io::copy(&mut file, &mut digest)?;
        return Ok(Artifact {
            digest,
            size: head.len() as u64 + rest,
            kept: Kept::Streamed,
        });
    }
    if meta.len() > limit {
        let rest = std::io::copy(&mut file, &mut digest)?;
        return Ok(Artifact {
            digest,
            size: head.len() as u64 + rest,
            kept: Kept::TooLarge(meta.len()),
        });
    }
    let head_len = head.len();
    let mut bytes = head;
    (&mut file)
        .take((limit + 1).saturating_sub(bytes.len() as u64))
        .read_to_end(&mut bytes)?;
    let kept_len = bytes.len() as u64;
    digest.update(&bytes[head_len..]);
    if kept_len > limit {
        // The file grew past the limit while being read: hash the rest, keep nothing.
        let rest = std::io::copy(&mut file, &mut digest)?;
        return Ok(Artifact {
            digest,
            size: kept_len + rest,
            kept: Kept::TooLarge(kept_len + rest),
        });
    }
    Ok(Artifact {
        digest,
        size: kept_len,
        kept: Kept::Bytes(bytes),
    })
}
