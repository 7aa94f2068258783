//! The key-based Sigstore bundle v0.3: written by `sign`, checked by `verify`. Signing and
//! checking take the artifact's SHA-256 state, so an artifact of any size is hashed once while
//! streamed and never held in memory.

use base64::Engine;
use base64::engine::general_purpose::STANDARD as BASE64;
use p256::ecdsa::signature::{DigestSigner, DigestVerifier};
use p256::ecdsa::{Signature, SigningKey, VerifyingKey};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use super::hint;

/// The media type skillc writes.
pub const MEDIA_TYPE_V03: &str = "application/vnd.dev.sigstore.bundle.v0.3+json";
/// Media types skillc verifies.
pub const MEDIA_TYPES: [&str; 3] = [
    MEDIA_TYPE_V03,
    "application/vnd.dev.sigstore.bundle+json;version=0.3",
    "application/vnd.dev.sigstore.bundle+json;version=0.2",
];
/// A key-based bundle is under 1 KiB; a bundle is read whole only up to this size.
pub const MAX_BUNDLE: u64 = 1024 * 1024;

/// The Sigstore bundle, as much of it as key-based signing uses.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Bundle {
    pub media_type: String,
    pub verification_material: VerificationMaterial,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub message_signature: Option<MessageSignature>,
}

/// What a verifier trusts. Key-based bundles carry only a hint to a key the verifier holds;
/// a certificate (keyless) is another kind of material, read but not yet verified.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct VerificationMaterial {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub public_key: Option<PublicKeyHint>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub certificate: Option<serde_json::Value>,
}

/// A hint naming the public key (base64 of the SHA-256 of its SPKI DER).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PublicKeyHint {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hint: Option<String>,
}

/// The signature over the artifact and the artifact's digest.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct MessageSignature {
    pub message_digest: MessageDigest,
    pub signature: String,
}

/// The artifact's digest as the bundle records it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MessageDigest {
    pub algorithm: String,
    pub digest: String,
}

/// Signs `artifact` and returns the bundle.
pub fn sign(key: &SigningKey, artifact: &[u8]) -> Bundle {
    sign_digest(key, Sha256::new_with_prefix(artifact))
}

/// Signs the artifact whose SHA-256 state is `digest` (the same ECDSA-P256-SHA256 signature
/// as over its bytes). The signature is normalised to low S, which every verifier accepts
/// and strict ones (BIP-62 style malleability checks) require.
pub fn sign_digest(key: &SigningKey, digest: Sha256) -> Bundle {
    let signature: Signature = key.sign_digest(digest.clone());
    let signature = signature.normalize_s().unwrap_or(signature);
    Bundle {
        media_type: MEDIA_TYPE_V03.into(),
        verification_material: VerificationMaterial {
            public_key: Some(PublicKeyHint {
                hint: Some(hint(key.verifying_key())),
            }),
            certificate: None,
        },
        message_signature: Some(MessageSignature {
            message_digest: MessageDigest {
                algorithm: "SHA2_256".into(),
                digest: BASE64.encode(digest.finalize()),
            },
            signature: BASE64.encode(signature.to_der().as_bytes()),
        }),
    }
}

impl Bundle {
    /// The bundle as written: two-space indent, final newline.
    pub fn to_bytes(&self) -> Vec<u8> {
        crate::encode::json_file(self)
    }

    /// Check 1: parses, has a known media type and a message signature.
    pub fn parse(bytes: &[u8]) -> Result<(Bundle, MessageSignature), String> {
        let bundle: Bundle = serde_json::from_slice(bytes)
            .map_err(|e| format!("the bundle is not valid JSON of a Sigstore bundle: {e}"))?;
        if !MEDIA_TYPES.contains(&bundle.media_type.as_str()) {
            return Err(format!(
                "unsupported bundle media type `{}`",
                bundle.media_type
            ));
        }
        let signature = bundle
            .message_signature
            .clone()
            .ok_or("the bundle has no messageSignature (only message signatures are supported)")?;
        Ok((bundle, signature))
    }
}

/// Check 2: the artifact's SHA-256 equals the bundle's digest.
pub fn check_digest(signature: &MessageSignature, artifact: &[u8]) -> Result<(), String> {
    check_sha256(signature, &Sha256::digest(artifact))
}

/// Check 2 on a digest computed while streaming: `sha256` is the artifact's SHA-256.
pub fn check_sha256(signature: &MessageSignature, sha256: &[u8]) -> Result<(), String> {
    if signature.message_digest.algorithm != "SHA2_256" {
        return Err(format!(
            "unsupported digest algorithm `{}`",
            signature.message_digest.algorithm
        ));
    }
    if signature.message_digest.digest != BASE64.encode(sha256) {
        return Err("the artifact's SHA-256 does not match the bundle's messageDigest".into());
    }
    Ok(())
}

/// Check 3: the signature verifies with `key`, and the bundle's key hint, if any, is `key`'s.
pub fn check_signature(
    bundle: &Bundle,
    signature: &MessageSignature,
    key: &VerifyingKey,
    artifact: &[u8],
) -> Result<(), String> {
    check_signature_digest(bundle, signature, key, Sha256::new_with_prefix(artifact))
}

/// Check 3 on the artifact's SHA-256 state. High-S signatures are accepted, as
/// `@sigstore/verify`, cosign and OpenSSL accept them: ECDSA malleability does not let anyone
/// sign a different artifact.
pub fn check_signature_digest(
    bundle: &Bundle,
    signature: &MessageSignature,
    key: &VerifyingKey,
    digest: Sha256,
) -> Result<(), String> {
    if let Some(hint_in_bundle) = bundle
        .verification_material
        .public_key
        .as_ref()
        .and_then(|p| p.hint.as_ref())
        && *hint_in_bundle != hint(key)
    {
        return Err(format!(
            "the bundle's key hint {hint_in_bundle} is not the given public key's ({})",
            hint(key)
        ));
    }
    let der = BASE64
        .decode(signature.signature.trim())
        .map_err(|_| "the signature is not valid base64".to_string())?;
    let parsed = Signature::from_der(&der)
        .map_err(|_| "the signature is not a DER ECDSA signature".to_string())?;
    key.verify_digest(digest, &parsed)
        .map_err(|_| "the signature does not verify with the given public key".to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sign::{generate, signing_key, verifying_key};

    #[test]
    fn sign_and_verify_round_trip() {
        let (private, public) = generate(None).unwrap();
        let key = signing_key(&private, None).unwrap();
        let public = verifying_key(&public).unwrap();
        let bundle = sign(&key, b"artifact");
        let (parsed, signature) = Bundle::parse(&bundle.to_bytes()).unwrap();
        assert!(check_digest(&signature, b"artifact").is_ok());
        assert!(check_signature(&parsed, &signature, &public, b"artifact").is_ok());
        assert!(check_digest(&signature, b"artifacT").is_err());
        assert!(check_signature(&parsed, &signature, &public, b"artifacT").is_err());
    }

    /// Signing normalises to low S; verifying accepts the high-S twin of a valid signature.
    #[test]
    fn low_s_when_signing_both_when_verifying() {
        use p256::ecdsa::signature::Verifier;
        let (private, public) = generate(None).unwrap();
        let key = signing_key(&private, None).unwrap();
        let public = verifying_key(&public).unwrap();
        for i in 0..16u8 {
            let artifact = [i; 7];
            let bundle = sign(&key, &artifact);
            let (parsed, signature) = Bundle::parse(&bundle.to_bytes()).unwrap();
            let der = BASE64.decode(&signature.signature).unwrap();
            let low = Signature::from_der(&der).unwrap();
            assert!(low.normalize_s().is_none(), "signature {i} is high-S");
            let (r, s) = low.split_scalars();
            let high = Signature::from_scalars(r, -*s).unwrap();
            assert!(public.verify(&artifact, &high).is_ok());
            let mut twin = signature.clone();
            twin.signature = BASE64.encode(high.to_der().as_bytes());
            assert!(check_signature(&parsed, &twin, &public, &artifact).is_ok());
        }
    }
}
