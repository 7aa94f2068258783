//! Keys and Sigstore bundles (package.md): ECDSA P-256 keys in PKCS#8 / SPKI PEM, and the
//! key-based Sigstore bundle v0.3, written with p256 + sha2 + base64. Verification takes its
//! trust from a `VerificationMaterial`, so keyless (certificate) material can slot in later.

use base64::Engine;
use base64::engine::general_purpose::STANDARD as BASE64;
use p256::ecdsa::signature::{Signer, Verifier};
use p256::ecdsa::{Signature, SigningKey, VerifyingKey};
use p256::pkcs8::{
    DecodePrivateKey, DecodePublicKey, EncodePrivateKey, EncodePublicKey, LineEnding,
};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

/// The environment variable holding the private key's password.
pub const PASSWORD_ENV: &str = "SKILLC_KEY_PASSWORD";
/// The media type skillc writes.
pub const MEDIA_TYPE_V03: &str = "application/vnd.dev.sigstore.bundle.v0.3+json";
/// Media types skillc verifies.
pub const MEDIA_TYPES: [&str; 3] = [
    MEDIA_TYPE_V03,
    "application/vnd.dev.sigstore.bundle+json;version=0.3",
    "application/vnd.dev.sigstore.bundle+json;version=0.2",
];

/// A key problem: a usage error (exit 2) or a failure.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum KeyError {
    /// The key is encrypted and no password was given.
    NeedsPassword,
    /// Unreadable, wrong password, or not a P-256 key.
    Invalid(String),
}

/// A new key pair: (private key PEM, public key PEM).
pub fn generate(password: Option<&str>) -> Result<(String, String), String> {
    let key = SigningKey::random(&mut rand_core::OsRng);
    let private = match password {
        Some(password) => key
            .to_pkcs8_encrypted_pem(&mut rand_core::OsRng, password.as_bytes(), LineEnding::LF)
            .map_err(|e| format!("encrypting the key: {e}"))?,
        None => key
            .to_pkcs8_pem(LineEnding::LF)
            .map_err(|e| format!("encoding the key: {e}"))?,
    };
    let public = key
        .verifying_key()
        .to_public_key_pem(LineEnding::LF)
        .map_err(|e| format!("encoding the public key: {e}"))?;
    Ok((private.to_string(), public))
}

/// Reads a PKCS#8 PEM private key, encrypted or not.
pub fn signing_key(pem: &str, password: Option<&str>) -> Result<SigningKey, KeyError> {
    if pem.contains("BEGIN ENCRYPTED PRIVATE KEY") {
        let password = password.ok_or(KeyError::NeedsPassword)?;
        return SigningKey::from_pkcs8_encrypted_pem(pem, password.as_bytes()).map_err(|_| {
            KeyError::Invalid(
                "cannot decrypt the key: wrong password, or not a P-256 PKCS#8 key".into(),
            )
        });
    }
    SigningKey::from_pkcs8_pem(pem)
        .map_err(|e| KeyError::Invalid(format!("not an ECDSA P-256 PKCS#8 private key: {e}")))
}

/// Reads an SPKI PEM public key (the format of a cosign public key).
pub fn verifying_key(pem: &str) -> Result<VerifyingKey, String> {
    VerifyingKey::from_public_key_pem(pem)
        .map_err(|e| format!("not an ECDSA P-256 public key (SPKI PEM): {e}"))
}

/// The key hint: base64 of the SHA-256 of the SPKI DER public key.
pub fn hint(key: &VerifyingKey) -> String {
    let der = key
        .to_public_key_der()
        .map(|d| d.as_bytes().to_vec())
        .unwrap_or_default();
    BASE64.encode(Sha256::digest(der))
}

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

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PublicKeyHint {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hint: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct MessageSignature {
    pub message_digest: MessageDigest,
    pub signature: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MessageDigest {
    pub algorithm: String,
    pub digest: String,
}

/// Signs `artifact` and returns the bundle.
pub fn sign(key: &SigningKey, artifact: &[u8]) -> Bundle {
    let signature: Signature = key.sign(artifact);
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
                digest: BASE64.encode(Sha256::digest(artifact)),
            },
            signature: BASE64.encode(signature.to_der().as_bytes()),
        }),
    }
}

impl Bundle {
    /// The bundle as written: two-space indent, final newline.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut text = serde_json::to_string_pretty(self).unwrap_or_default();
        text.push('\n');
        text.into_bytes()
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
    if signature.message_digest.algorithm != "SHA2_256" {
        return Err(format!(
            "unsupported digest algorithm `{}`",
            signature.message_digest.algorithm
        ));
    }
    let expected = BASE64.encode(Sha256::digest(artifact));
    if signature.message_digest.digest != expected {
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
    key.verify(artifact, &parsed)
        .map_err(|_| "the signature does not verify with the given public key".to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

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

    #[test]
    fn encrypted_keys_need_the_password() {
        let (private, _) = generate(Some("hunter2")).unwrap();
        assert!(private.starts_with("-----BEGIN ENCRYPTED PRIVATE KEY-----"));
        assert_eq!(
            signing_key(&private, None).unwrap_err(),
            KeyError::NeedsPassword
        );
        assert!(matches!(
            signing_key(&private, Some("wrong")),
            Err(KeyError::Invalid(_))
        ));
        assert!(signing_key(&private, Some("hunter2")).is_ok());
    }
}
