//! The cryptography under sigstore-verify (and sigstore-sign): a `sigstore_crypto`
//! [`CryptoProvider`] over RustCrypto's crates, so that no C library (aws-lc-rs) is built.
//!
//! Every scheme Sigstore's trust roots and bundles use verifies here: ECDSA P-256 and P-384
//! with SHA-256 or SHA-384 (DER signatures), Ed25519, and RSA PKCS#1 v1.5 and PSS (salt as
//! long as the digest, as aws-lc-rs and ring require) with 2048 to 8192-bit keys. ML-DSA is
//! refused. Keys arrive as `sigstore_crypto` passes them: the uncompressed SEC1 point for
//! ECDSA, the 32-byte key for Ed25519, PKCS#1 `RSAPublicKey` DER for RSA. Key generation
//! (for keyless signing's ephemeral key) is ECDSA P-256 only.

use sha2::{Digest as _, Sha256, Sha384, Sha512};
use sigstore_verify::crypto::{
    CryptoProvider, Error, HashContext, KeyAlgorithm, SigningKeyPair, SigningScheme,
};
use sigstore_verify::types::HashAlgorithm;

type Result<T> = std::result::Result<T, Error>;

/// Installs the provider as sigstore-crypto's process-wide default. Idempotent: a provider
/// already installed (this one, by an earlier call) is kept.
pub fn install() {
    let _ = sigstore_verify::crypto::install_default_provider(&RUST_CRYPTO);
}

static RUST_CRYPTO: RustCrypto = RustCrypto;

#[derive(Debug)]
struct RustCrypto;

/// A streaming SHA-2 state.
enum Hasher {
    Sha256(Sha256),
    Sha384(Sha384),
    Sha512(Sha512),
}

impl HashContext for Hasher {
    fn update(&mut self, data: &[u8]) {
        match self {
            Hasher::Sha256(h) => h.update(data),
            Hasher::Sha384(h) => h.update(data),
            Hasher::Sha512(h) => h.update(data),
        }
    }

    fn finalize(self: Box<Self>) -> Vec<u8> {
        match *self {
            Hasher::Sha256(h) => h.finalize().to_vec(),
            Hasher::Sha384(h) => h.finalize().to_vec(),
            Hasher::Sha512(h) => h.finalize().to_vec(),
        }
    }
}

fn digest(algorithm: HashAlgorithm, data: &[u8]) -> Vec<u8> {
    match algorithm {
        HashAlgorithm::Sha2256 => Sha256::digest(data).to_vec(),
        HashAlgorithm::Sha2384 => Sha384::digest(data).to_vec(),
        _ => Sha512::digest(data).to_vec(),
    }
}

fn invalid(scheme: SigningScheme) -> Error {
    Error::Verification(format!("{} signature invalid", scheme.name()))
}

fn bad_key(scheme: SigningScheme, why: impl std::fmt::Display) -> Error {
    Error::InvalidKeyFormat(format!("{} public key: {why}", scheme.name()))
}

/// Verifies `signature` over a digest made with the scheme's hash.
fn verify_digest(scheme: SigningScheme, key: &[u8], hashed: &[u8], signature: &[u8]) -> Result<()> {
    use p256::ecdsa::signature::hazmat::PrehashVerifier;
    match scheme {
        SigningScheme::EcdsaP256Sha256 | SigningScheme::EcdsaP256Sha384 => {
            let key =
                p256::ecdsa::VerifyingKey::from_sec1_bytes(key).map_err(|e| bad_key(scheme, e))?;
            let sig = p256::ecdsa::Signature::from_der(signature).map_err(|_| invalid(scheme))?;
            key.verify_prehash(hashed, &sig)
                .map_err(|_| invalid(scheme))
        }
        SigningScheme::EcdsaP384Sha256 | SigningScheme::EcdsaP384Sha384 => {
            let key =
                p384::ecdsa::VerifyingKey::from_sec1_bytes(key).map_err(|e| bad_key(scheme, e))?;
            let sig = p384::ecdsa::Signature::from_der(signature).map_err(|_| invalid(scheme))?;
            key.verify_prehash(hashed, &sig)
                .map_err(|_| invalid(scheme))
        }
        SigningScheme::RsaPkcs1Sha256
        | SigningScheme::RsaPkcs1Sha384
        | SigningScheme::RsaPkcs1Sha512
        | SigningScheme::RsaPssSha256
        | SigningScheme::RsaPssSha384
        | SigningScheme::RsaPssSha512 => verify_rsa(scheme, key, hashed, signature),
        _ => Err(Error::UnsupportedAlgorithm(format!(
            "{} does not verify a prehashed digest",
            scheme.name()
        ))),
    }
}

fn verify_rsa(scheme: SigningScheme, key: &[u8], hashed: &[u8], signature: &[u8]) -> Result<()> {
    use rsa::pkcs1::DecodeRsaPublicKey;
    use rsa::{Pkcs1v15Sign, Pss, RsaPublicKey};
    let key = RsaPublicKey::from_pkcs1_der(key).map_err(|e| bad_key(scheme, e))?;
    let bits = rsa::traits::PublicKeyParts::n(&key).bits();
    if !(2048..=8192).contains(&bits) {
        return Err(bad_key(
            scheme,
            format!("{bits} bits; RSA keys of 2048 to 8192 bits are accepted"),
        ));
    }
    let checked = match scheme {
        SigningScheme::RsaPkcs1Sha256 => {
            key.verify(Pkcs1v15Sign::new::<Sha256>(), hashed, signature)
        }
        SigningScheme::RsaPkcs1Sha384 => {
            key.verify(Pkcs1v15Sign::new::<Sha384>(), hashed, signature)
        }
        SigningScheme::RsaPkcs1Sha512 => {
            key.verify(Pkcs1v15Sign::new::<Sha512>(), hashed, signature)
        }
        SigningScheme::RsaPssSha256 => key.verify(Pss::new::<Sha256>(), hashed, signature),
        SigningScheme::RsaPssSha384 => key.verify(Pss::new::<Sha384>(), hashed, signature),
        _ => key.verify(Pss::new::<Sha512>(), hashed, signature),
    };
    checked.map_err(|_| invalid(scheme))
}

impl CryptoProvider for RustCrypto {
    fn hash(&self, algorithm: HashAlgorithm) -> Result<Box<dyn HashContext>> {
        Ok(Box::new(match algorithm {
            HashAlgorithm::Sha2256 => Hasher::Sha256(Sha256::new()),
            HashAlgorithm::Sha2384 => Hasher::Sha384(Sha384::new()),
            HashAlgorithm::Sha2512 => Hasher::Sha512(Sha512::new()),
            other => {
                return Err(Error::UnsupportedAlgorithm(format!("hash {other:?}")));
            }
        }))
    }

    fn verify_raw(
        &self,
        scheme: SigningScheme,
        spki_pubkey_bytes: &[u8],
        data: &[u8],
        signature: &[u8],
    ) -> Result<()> {
        if scheme == SigningScheme::Ed25519 {
            let key: &[u8; 32] = spki_pubkey_bytes
                .try_into()
                .map_err(|_| bad_key(scheme, "not 32 bytes"))?;
            let key =
                ed25519_dalek::VerifyingKey::from_bytes(key).map_err(|e| bad_key(scheme, e))?;
            let sig =
                ed25519_dalek::Signature::from_slice(signature).map_err(|_| invalid(scheme))?;
            return key.verify_strict(data, &sig).map_err(|_| invalid(scheme));
        }
        let Some(algorithm) = scheme.hash_algorithm() else {
            return Err(Error::UnsupportedAlgorithm(format!(
                "{} is not supported by skillc",
                scheme.name()
            )));
        };
        verify_digest(
            scheme,
            spki_pubkey_bytes,
            &digest(algorithm, data),
            signature,
        )
    }

    fn verify_prehashed(
        &self,
        scheme: SigningScheme,
        spki_pubkey_bytes: &[u8],
        digest: &[u8],
        signature: &[u8],
    ) -> Result<()> {
        let expected = scheme.hash_algorithm().map(|a| a.digest_size());
        if expected != Some(digest.len()) {
            return Err(Error::Verification(format!(
                "{}: a digest of {} bytes",
                scheme.name(),
                digest.len()
            )));
        }
        verify_digest(scheme, spki_pubkey_bytes, digest, signature)
    }

    fn generate_key_pair(&self, algorithm: KeyAlgorithm) -> Result<Box<dyn SigningKeyPair>> {
        match algorithm {
            KeyAlgorithm::EcdsaP256 => Ok(Box::new(P256KeyPair::new(
                p256::ecdsa::SigningKey::random(&mut rand_core::OsRng),
            ))),
            other => Err(Error::UnsupportedAlgorithm(format!(
                "key generation for {other:?}; skillc generates ECDSA P-256 keys"
            ))),
        }
    }

    fn key_pair_from_pkcs8_der(&self, pkcs8: &[u8]) -> Result<Box<dyn SigningKeyPair>> {
        use p256::pkcs8::DecodePrivateKey;
        let key = p256::ecdsa::SigningKey::from_pkcs8_der(pkcs8)
            .map_err(|e| Error::InvalidKeyFormat(format!("a PKCS#8 ECDSA P-256 key: {e}")))?;
        Ok(Box::new(P256KeyPair::new(key)))
    }
}

/// An ECDSA P-256 key pair (keyless signing's ephemeral key).
struct P256KeyPair {
    key: p256::ecdsa::SigningKey,
    /// The uncompressed SEC1 point.
    public: Vec<u8>,
}

impl P256KeyPair {
    fn new(key: p256::ecdsa::SigningKey) -> Self {
        let public = key
            .verifying_key()
            .to_encoded_point(false)
            .as_bytes()
            .to_vec();
        P256KeyPair { key, public }
    }
}

impl SigningKeyPair for P256KeyPair {
    fn algorithm(&self) -> KeyAlgorithm {
        KeyAlgorithm::EcdsaP256
    }

    fn public_key_bytes(&self) -> &[u8] {
        &self.public
    }

    fn sign_raw(&self, data: &[u8]) -> Result<Vec<u8>> {
        use p256::ecdsa::signature::Signer;
        let sig: p256::ecdsa::Signature = self
            .key
            .try_sign(data)
            .map_err(|e| Error::Signing(e.to_string()))?;
        Ok(sig.to_der().as_bytes().to_vec())
    }

    fn sign_prehashed(&self, digest: &[u8]) -> Result<Vec<u8>> {
        use p256::ecdsa::signature::hazmat::PrehashSigner;
        if digest.len() != 32 {
            return Err(Error::Signing(format!(
                "a SHA-256 digest is 32 bytes, not {}",
                digest.len()
            )));
        }
        let sig: p256::ecdsa::Signature = self
            .key
            .sign_prehash(digest)
            .map_err(|e| Error::Signing(e.to_string()))?;
        Ok(sig.to_der().as_bytes().to_vec())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn p256_signs_and_verifies_raw_and_prehashed() {
        let pair = RustCrypto
            .generate_key_pair(KeyAlgorithm::EcdsaP256)
            .unwrap();
        let sig = pair.sign_raw(b"skill").unwrap();
        let scheme = SigningScheme::EcdsaP256Sha256;
        assert!(
            RustCrypto
                .verify_raw(scheme, pair.public_key_bytes(), b"skill", &sig)
                .is_ok()
        );
        assert!(
            RustCrypto
                .verify_raw(scheme, pair.public_key_bytes(), b"skilk", &sig)
                .is_err()
        );
        let hashed = Sha256::digest(b"skill");
        let pre = pair.sign_prehashed(&hashed).unwrap();
        assert!(
            RustCrypto
                .verify_prehashed(scheme, pair.public_key_bytes(), &hashed, &pre)
                .is_ok()
        );
        assert!(
            RustCrypto
                .verify_raw(scheme, pair.public_key_bytes(), b"skill", &pre)
                .is_ok()
        );
        // A digest of the wrong length is refused, not truncated.
        let err = RustCrypto
            .verify_prehashed(scheme, pair.public_key_bytes(), &hashed[..31], &pre)
            .unwrap_err();
        assert_eq!(
            err.to_string(),
            "Verification error: ECDSA_P256_SHA256: a digest of 31 bytes"
        );
    }

    #[test]
    fn garbage_keys_and_signatures_are_errors() {
        for scheme in [
            SigningScheme::EcdsaP256Sha256,
            SigningScheme::EcdsaP384Sha384,
            SigningScheme::Ed25519,
            SigningScheme::RsaPkcs1Sha256,
            SigningScheme::RsaPssSha256,
            SigningScheme::MlDsa65,
        ] {
            assert!(
                RustCrypto
                    .verify_raw(scheme, &[4, 1, 2], b"x", &[0x30, 0])
                    .is_err()
            );
            assert!(RustCrypto.verify_raw(scheme, &[], b"x", &[]).is_err());
        }
    }
}
