//! Keys: ECDSA P-256 private keys (PKCS#8, encrypted PKCS#8, or SEC1 as `openssl ecparam
//! -genkey` writes them) and SPKI public keys, all PEM. Anything else is named for what it is
//! (an RSA key, a P-384 key, a public key where the private one is expected, a cipher skillc
//! does not implement), because "ASN.1 error" helps nobody pick the right file.

use std::fmt;

use p256::ecdsa::{SigningKey, VerifyingKey};
use p256::elliptic_curve::zeroize::Zeroizing;
use p256::pkcs8::der::asn1::{AnyRef, ContextSpecific, ObjectIdentifier, OctetStringRef};
use p256::pkcs8::der::pem::PemLabel;
use p256::pkcs8::der::{self, Reader, TagNumber, Tagged, pem};
use p256::pkcs8::spki::{AlgorithmIdentifierRef, SubjectPublicKeyInfoRef};
use p256::pkcs8::{
    DecodePrivateKey, DecodePublicKey, EncodePrivateKey, EncodePublicKey, LineEnding,
    PrivateKeyInfo,
};
use p256::pkcs8::{EncryptedPrivateKeyInfo, pkcs5};

/// The environment variable holding the private key's password.
pub const PASSWORD_ENV: &str = "SKILLC_KEY_PASSWORD";

/// A key file is a few hundred bytes; anything over this is not a key (and is not read whole).
pub const MAX_KEY_FILE: u64 = 64 * 1024;

/// scrypt cost of the keys keygen encrypts: N = 2^14, r = 8, p = 1 needs 16 MiB, which
/// OpenSSL 3 reads under its default 32 MiB limit (N = 2^17, the RustCrypto default, does not).
const SCRYPT_LOG_N: u8 = 14;
const SCRYPT_R: u32 = 8;
const SCRYPT_P: u32 = 1;

/// The most scrypt memory (128·r·N bytes) a key may ask for: a hostile key file must not
/// exhaust memory. 256 MiB admits keys written by skillc before 0.2 (N = 2^17: 128 MiB).
const MAX_SCRYPT_MEMORY: u64 = 256 * 1024 * 1024;
/// The most scrypt work (N·r·p) a key may ask for, so that decrypting cannot take minutes.
const MAX_SCRYPT_WORK: u64 = 1 << 22;
/// The most PBKDF2 iterations a key may ask for (OpenSSL writes 2048; OWASP suggests 600,000).
const MAX_PBKDF2_ITERATIONS: u64 = 10_000_000;

/// Why a key file cannot be used.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum KeyError {
    /// The key is encrypted and no password was given.
    NeedsPassword,
    /// The key is encrypted with a supported scheme, and the password does not decrypt it.
    WrongPassword,
    /// A public key where the private key is expected.
    PublicKey,
    /// A private key where the public key is expected.
    PrivateKey,
    /// Not a key skillc can use; the message says what it is and what to do.
    Invalid(String),
}

impl fmt::Display for KeyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            KeyError::NeedsPassword => {
                write!(
                    f,
                    "the key is encrypted: set {PASSWORD_ENV} to its password"
                )
            }
            KeyError::WrongPassword => f.write_str("cannot decrypt the key: wrong password"),
            KeyError::PublicKey => f.write_str("this is a public key; sign with the private key"),
            KeyError::PrivateKey => {
                f.write_str("this is a private key; verify with the public key")
            }
            KeyError::Invalid(message) => f.write_str(message),
        }
    }
}

/// A new key pair: (private key PEM, public key PEM). With a password the private key is
/// encrypted PKCS#8 (PBES2, scrypt, AES-256-CBC) with parameters OpenSSL reads.
pub fn generate(password: Option<&str>) -> Result<(String, String), String> {
    let key = SigningKey::random(&mut rand_core::OsRng);
    let public = key
        .verifying_key()
        .to_public_key_pem(LineEnding::LF)
        .map_err(|e| format!("encoding the public key: {e}"))?;
    let der = key
        .to_pkcs8_der()
        .map_err(|e| format!("encoding the key: {e}"))?;
    let private = match password {
        Some(password) => encrypt(der.as_bytes(), password)?,
        None => der
            .to_pem(PrivateKeyInfo::PEM_LABEL, LineEnding::LF)
            .map_err(|e| format!("encoding the key: {e}"))?,
    };
    Ok((private.to_string(), public))
}

fn encrypt(der: &[u8], password: &str) -> Result<Zeroizing<String>, String> {
    use rand_core::RngCore;
    let mut salt = [0u8; 16];
    let mut iv = [0u8; 16];
    rand_core::OsRng.fill_bytes(&mut salt);
    rand_core::OsRng.fill_bytes(&mut iv);
    let err = |e: &dyn fmt::Display| format!("encrypting the key: {e}");
    let cost =
        pkcs5::scrypt::Params::new(SCRYPT_LOG_N, SCRYPT_R, SCRYPT_P, 32).map_err(|e| err(&e))?;
    let params =
        pkcs5::pbes2::Parameters::scrypt_aes256cbc(cost, &salt, &iv).map_err(|e| err(&e))?;
    let info = PrivateKeyInfo::try_from(der).map_err(|e| err(&e))?;
    info.encrypt_with_params(params, password.as_bytes())
        .map_err(|e| err(&e))?
        .to_pem(EncryptedPrivateKeyInfo::PEM_LABEL, LineEnding::LF)
        .map_err(|e| err(&e))
}

/// Reads a private key: PKCS#8 (`PRIVATE KEY`), encrypted PKCS#8 (`ENCRYPTED PRIVATE KEY`,
/// needs `password`) or SEC1 (`EC PRIVATE KEY`, possibly after an `EC PARAMETERS` block).
pub fn signing_key(pem: &str, password: Option<&str>) -> Result<SigningKey, KeyError> {
    let block = key_block(pem)?;
    match block.label.as_str() {
        "PRIVATE KEY" => pkcs8_signing_key(&block.der),
        "ENCRYPTED PRIVATE KEY" => {
            check_encryption(&block.der)?;
            let password = password.ok_or(KeyError::NeedsPassword)?;
            let info = EncryptedPrivateKeyInfo::try_from(block.der.as_slice())
                .map_err(|e| KeyError::Invalid(format!("a malformed encrypted key: {e}")))?;
            let der = info
                .decrypt(password.as_bytes())
                .map_err(|_| KeyError::WrongPassword)?;
            // A wrong password that happens to unpad cleanly decrypts to noise.
            if PrivateKeyInfo::try_from(der.as_bytes()).is_err() {
                return Err(KeyError::WrongPassword);
            }
            pkcs8_signing_key(der.as_bytes())
        }
        "EC PRIVATE KEY" => sec1_signing_key(&block.der),
        "PUBLIC KEY" => Err(KeyError::PublicKey),
        label => Err(other_block(label, Want::Private)),
    }
}

/// Reads an SPKI PEM public key (the format of a cosign public key).
pub fn verifying_key(pem: &str) -> Result<VerifyingKey, KeyError> {
    let block = key_block(pem)?;
    match block.label.as_str() {
        "PUBLIC KEY" => {
            let spki = SubjectPublicKeyInfoRef::try_from(block.der.as_slice())
                .map_err(|e| KeyError::Invalid(format!("a malformed public key: {e}")))?;
            if let Some(what) = not_p256(&spki.algorithm) {
                return Err(KeyError::Invalid(format!(
                    "{what} public key; skillc verifies ECDSA P-256 signatures \
                     (keys from `skillc keygen`)"
                )));
            }
            VerifyingKey::from_public_key_der(&block.der)
                .map_err(|e| KeyError::Invalid(format!("a malformed ECDSA P-256 public key: {e}")))
        }
        "PRIVATE KEY" | "ENCRYPTED PRIVATE KEY" | "EC PRIVATE KEY" => Err(KeyError::PrivateKey),
        label => Err(other_block(label, Want::Public)),
    }
}

/// One decoded PEM block.
struct Block {
    label: String,
    der: Zeroizing<Vec<u8>>,
}

/// The key's PEM block: the first block that is not `EC PARAMETERS` (openssl ecparam writes
/// the curve's parameters before the key).
fn key_block(text: &str) -> Result<Block, KeyError> {
    let blocks = pem_blocks(text);
    let Some(&(label, raw)) = blocks.iter().find(|(label, _)| *label != "EC PARAMETERS") else {
        return Err(KeyError::Invalid(if blocks.is_empty() {
            "not a PEM key (no `-----BEGIN …-----` block); skillc reads PEM keys such as \
             `skillc keygen` writes"
                .into()
        } else {
            "holds only EC parameters, no key".into()
        }));
    };
    if raw.contains("Proc-Type:") || raw.contains("DEK-Info:") {
        return Err(KeyError::Invalid(format!(
            "encrypted in OpenSSL's legacy PEM format (Proc-Type header), which skillc does not \
             read; {REENCRYPT}"
        )));
    }
    let (_, der) = pem::decode_vec(raw.as_bytes())
        .map_err(|e| KeyError::Invalid(format!("a malformed PEM block `{label}`: {e}")))?;
    Ok(Block {
        label: label.to_string(),
        der: Zeroizing::new(der),
    })
}

/// The PEM blocks of a text: (label, the block from its BEGIN line to its END line).
fn pem_blocks(text: &str) -> Vec<(&str, &str)> {
    const BEGIN: &str = "-----BEGIN ";
    let mut blocks = Vec::new();
    let mut rest = text;
    while let Some(start) = rest.find(BEGIN) {
        let after = &rest[start + BEGIN.len()..];
        let Some(label_len) = after.find("-----") else {
            break;
        };
        let label = &after[..label_len];
        let end = format!("-----END {label}-----");
        let Some(end_at) = after.find(&end) else {
            break;
        };
        let block_end = start + BEGIN.len() + end_at + end.len();
        blocks.push((label, &rest[start..block_end]));
        rest = &rest[block_end..];
    }
    blocks
}

/// Which half of a key pair a command wants.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Want {
    Private,
    Public,
}

/// A block that is no key skillc reads, named for what it is.
fn other_block(label: &str, want: Want) -> KeyError {
    let what = match label {
        "RSA PRIVATE KEY" => "an RSA private key",
        "RSA PUBLIC KEY" => "an RSA public key",
        "DSA PRIVATE KEY" => "a DSA private key",
        "OPENSSH PRIVATE KEY" => {
            return KeyError::Invalid(
                "an OpenSSH private key; skillc reads PEM keys: convert an ECDSA P-256 \
                 (nistp256) key with `ssh-keygen -p -m PKCS8 -f KEY`, or generate one with \
                 `skillc keygen`"
                    .into(),
            );
        }
        "CERTIFICATE" | "TRUSTED CERTIFICATE" => "an X.509 certificate, not a key",
        "CERTIFICATE REQUEST" | "NEW CERTIFICATE REQUEST" => "a certificate request, not a key",
        _ => {
            return KeyError::Invalid(format!(
                "a PEM `{label}` block, not a key skillc reads ({})",
                expected(want)
            ));
        }
    };
    KeyError::Invalid(format!("{what}; {}", expected(want)))
}

fn expected(want: Want) -> &'static str {
    match want {
        Want::Private => {
            "skillc signs with ECDSA P-256 private keys — generate one with `skillc keygen`"
        }
        Want::Public => {
            "skillc verifies with an ECDSA P-256 public key (`-----BEGIN PUBLIC KEY-----`, the \
             `.pub` file of `skillc keygen`)"
        }
    }
}

/// A PKCS#8 key: a P-256 key is read; any other algorithm or curve is named.
fn pkcs8_signing_key(der: &[u8]) -> Result<SigningKey, KeyError> {
    let info = PrivateKeyInfo::try_from(der)
        .map_err(|e| KeyError::Invalid(format!("a malformed PKCS#8 private key: {e}")))?;
    if let Some(what) = not_p256(&info.algorithm) {
        return Err(KeyError::Invalid(format!(
            "{what} key; {}",
            expected(Want::Private)
        )));
    }
    SigningKey::from_pkcs8_der(der)
        .map_err(|e| KeyError::Invalid(format!("a malformed ECDSA P-256 private key: {e}")))
}

/// A SEC1 `ECPrivateKey`: the curve is named by its parameters or, when they are omitted, by
/// the length of the private scalar.
fn sec1_signing_key(der: &[u8]) -> Result<SigningKey, KeyError> {
    let malformed = |e: der::Error| KeyError::Invalid(format!("a malformed EC private key: {e}"));
    let (scalar_len, curve) = AnyRef::try_from(der)
        .and_then(|any| {
            any.sequence(|r| {
                let _version: u8 = r.decode()?;
                let scalar: OctetStringRef = r.decode()?;
                let curve = ContextSpecific::<AnyRef>::decode_explicit(r, TagNumber::N0)?
                    .and_then(|p| p.value.decode_as::<ObjectIdentifier>().ok());
                while !r.is_finished() {
                    let _: AnyRef = r.decode()?;
                }
                Ok((scalar.as_bytes().len(), curve))
            })
        })
        .map_err(malformed)?;
    let curve = match curve {
        Some(oid) => curve_name(&oid),
        None => match scalar_len {
            32 => "P-256".into(),
            48 => "P-384".into(),
            66 => "P-521".into(),
            n => format!("on an unnamed curve ({n}-byte private key)"),
        },
    };
    if curve != "P-256" {
        return Err(KeyError::Invalid(format!(
            "an ECDSA {curve} key; {}",
            expected(Want::Private)
        )));
    }
    p256::SecretKey::from_sec1_der(der)
        .map(SigningKey::from)
        .map_err(|_| KeyError::Invalid("a malformed ECDSA P-256 SEC1 private key".into()))
}

const EC_PUBLIC_KEY: &str = "1.2.840.10045.2.1";
const P256: &str = "1.2.840.10045.3.1.7";

/// What a key algorithm is, unless it is ECDSA P-256: "an ECDSA P-384", "an RSA", …
fn not_p256(algorithm: &AlgorithmIdentifierRef<'_>) -> Option<String> {
    let oid = algorithm.oid.to_string();
    if oid == EC_PUBLIC_KEY {
        let curve = algorithm
            .parameters_oid()
            .map(|oid| curve_name(&oid))
            .unwrap_or_else(|_| "on an unnamed curve (explicit parameters)".into());
        return (curve != "P-256").then(|| format!("an ECDSA {curve}"));
    }
    Some(
        match oid.as_str() {
            "1.2.840.113549.1.1.1" => "an RSA",
            "1.2.840.113549.1.1.10" => "an RSA-PSS",
            "1.2.840.10040.4.1" => "a DSA",
            "1.3.101.110" => "an X25519",
            "1.3.101.111" => "an X448",
            "1.3.101.112" => "an Ed25519",
            "1.3.101.113" => "an Ed448",
            "1.3.132.1.12" => "an ECDH-only",
            _ => return Some(format!("an unknown algorithm's (OID {oid})")),
        }
        .to_string(),
    )
}

fn curve_name(oid: &ObjectIdentifier) -> String {
    match oid.to_string().as_str() {
        P256 => "P-256".into(),
        "1.3.132.0.34" => "P-384".into(),
        "1.3.132.0.35" => "P-521".into(),
        "1.3.132.0.33" => "P-224".into(),
        "1.2.840.10045.3.1.1" => "P-192".into(),
        "1.3.132.0.10" => "secp256k1".into(),
        "1.3.36.3.3.2.8.1.1.7" => "brainpoolP256r1".into(),
        "1.3.36.3.3.2.8.1.1.11" => "brainpoolP384r1".into(),
        "1.2.156.10197.1.301" => "SM2".into(),
        other => format!("on the curve with OID {other}"),
    }
}

/// How to re-encrypt a key into a form skillc reads.
const REENCRYPT: &str = "re-encrypt it with AES-256: \
    `openssl pkcs8 -topk8 -v2 aes-256-cbc -in OLD.key -out NEW.key`";

const PBES2: &str = "1.2.840.113549.1.5.13";
const PBKDF2: &str = "1.2.840.113549.1.5.12";
const SCRYPT: &str = "1.3.6.1.4.1.11591.4.11";
const HMAC_SHA1: &str = "1.2.840.113549.2.7";

/// Checks that an encrypted key uses a scheme skillc implements (PBES2 with PBKDF2-HMAC-SHA2
/// or scrypt, and AES-CBC) at a cost it can afford, so that a failure to decrypt afterwards
/// means a wrong password, and a hostile key cannot exhaust memory or time.
fn check_encryption(der: &[u8]) -> Result<(), KeyError> {
    let malformed = |e: der::Error| KeyError::Invalid(format!("a malformed encrypted key: {e}"));
    let scheme = AnyRef::try_from(der)
        .and_then(|any| {
            any.sequence(|r| {
                let scheme: AlgorithmIdentifierRef = r.decode()?;
                let _data: OctetStringRef = r.decode()?;
                Ok(scheme)
            })
        })
        .map_err(malformed)?;
    let unsupported = |what: String| {
        Err(KeyError::Invalid(format!(
            "encrypted with an unsupported {what}; {REENCRYPT}"
        )))
    };
    if scheme.oid.to_string() != PBES2 {
        return unsupported(format!("scheme ({})", oid_name(&scheme.oid)));
    }
    let (kdf, cipher) = scheme
        .parameters
        .ok_or_else(|| malformed(der::Tag::Sequence.value_error()))?
        .sequence(|r| {
            let kdf: AlgorithmIdentifierRef = r.decode()?;
            let cipher: AlgorithmIdentifierRef = r.decode()?;
            Ok((kdf, cipher))
        })
        .map_err(malformed)?;
    let cipher_name = oid_name(&cipher.oid);
    if !matches!(
        cipher_name.as_str(),
        "aes-128-cbc" | "aes-192-cbc" | "aes-256-cbc"
    ) {
        return unsupported(format!("cipher ({cipher_name})"));
    }
    let kdf_params = kdf
        .parameters
        .ok_or_else(|| malformed(der::Tag::Sequence.value_error()))?;
    match kdf.oid.to_string().as_str() {
        PBKDF2 => {
            let (iterations, prf) = kdf_params
                .sequence(|r| {
                    let _salt: OctetStringRef = r.decode()?;
                    let iterations: u64 = r.decode()?;
                    let mut prf = None;
                    while !r.is_finished() {
                        let field: AnyRef = r.decode()?;
                        if field.tag() == der::Tag::Sequence {
                            prf = Some(field.decode_as::<AlgorithmIdentifierRef>()?.oid);
                        }
                    }
                    Ok((iterations, prf))
                })
                .map_err(malformed)?;
            // PBKDF2's PRF defaults to HMAC-SHA1, which the RustCrypto build here leaves out.
            let prf = prf.map_or_else(|| "hmacWithSHA1".to_string(), |oid| oid_name(&oid));
            if !matches!(
                prf.as_str(),
                "hmacWithSHA224" | "hmacWithSHA256" | "hmacWithSHA384" | "hmacWithSHA512"
            ) {
                return unsupported(format!("key derivation (PBKDF2 with {prf})"));
            }
            if iterations > MAX_PBKDF2_ITERATIONS {
                return Err(KeyError::Invalid(format!(
                    "encrypted with {iterations} PBKDF2 iterations; the limit is \
                     {MAX_PBKDF2_ITERATIONS}; {REENCRYPT}"
                )));
            }
        }
        SCRYPT => {
            let (n, r, p) = kdf_params
                .sequence(|r| {
                    let _salt: OctetStringRef = r.decode()?;
                    let n: u64 = r.decode()?;
                    let block: u64 = r.decode()?;
                    let p: u64 = r.decode()?;
                    while !r.is_finished() {
                        let _: AnyRef = r.decode()?;
                    }
                    Ok((n, block, p))
                })
                .map_err(malformed)?;
            let memory = 128u64.saturating_mul(r).saturating_mul(n);
            let work = n.saturating_mul(r).saturating_mul(p);
            if memory > MAX_SCRYPT_MEMORY || work > MAX_SCRYPT_WORK {
                return Err(KeyError::Invalid(format!(
                    "encrypted with scrypt parameters too costly to decrypt (N={n}, r={r}, \
                     p={p}: {} MiB and N·r·p = {work}; the limits are {} MiB and \
                     {MAX_SCRYPT_WORK}); {REENCRYPT}",
                    memory / (1024 * 1024),
                    MAX_SCRYPT_MEMORY / (1024 * 1024)
                )));
            }
        }
        _ => return unsupported(format!("key derivation ({})", oid_name(&kdf.oid))),
    }
    Ok(())
}

/// The usual name of an algorithm OID in encrypted keys, or the OID itself.
fn oid_name(oid: &ObjectIdentifier) -> String {
    let oid = oid.to_string();
    let name = match oid.as_str() {
        PBES2 => "PBES2",
        PBKDF2 => "PBKDF2",
        SCRYPT => "scrypt",
        HMAC_SHA1 => "hmacWithSHA1",
        "1.2.840.113549.2.8" => "hmacWithSHA224",
        "1.2.840.113549.2.9" => "hmacWithSHA256",
        "1.2.840.113549.2.10" => "hmacWithSHA384",
        "1.2.840.113549.2.11" => "hmacWithSHA512",
        "2.16.840.1.101.3.4.1.2" => "aes-128-cbc",
        "2.16.840.1.101.3.4.1.22" => "aes-192-cbc",
        "2.16.840.1.101.3.4.1.42" => "aes-256-cbc",
        "2.16.840.1.101.3.4.1.6" => "aes-128-gcm",
        "2.16.840.1.101.3.4.1.46" => "aes-256-gcm",
        "1.2.840.113549.3.7" => "des-ede3-cbc",
        "1.3.14.3.2.7" => "des-cbc",
        "1.2.840.113549.3.2" => "rc2-cbc",
        "1.2.840.113549.1.5.3" => "pbeWithMD5AndDES-CBC",
        "1.2.840.113549.1.5.10" => "pbeWithSHA1AndDES-CBC",
        "1.2.840.113549.1.12.1.1" => "pbeWithSHAAnd128BitRC4",
        "1.2.840.113549.1.12.1.3" => "pbeWithSHAAnd3-KeyTripleDES-CBC",
        "1.2.840.113549.1.12.1.4" => "pbeWithSHAAnd2-KeyTripleDES-CBC",
        "1.2.840.113549.1.12.1.5" => "pbeWithSHAAnd128BitRC2-CBC",
        "1.2.840.113549.1.12.1.6" => "pbeWithSHAAnd40BitRC2-CBC",
        _ => return format!("OID {oid}"),
    };
    name.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn encrypted_keys_need_the_password() {
        let (private, _) = generate(Some("hunter2")).unwrap();
        assert!(private.starts_with("-----BEGIN ENCRYPTED PRIVATE KEY-----"));
        assert_eq!(
            signing_key(&private, None).unwrap_err(),
            KeyError::NeedsPassword
        );
        assert_eq!(
            signing_key(&private, Some("wrong")).unwrap_err(),
            KeyError::WrongPassword
        );
        assert!(signing_key(&private, Some("hunter2")).is_ok());
    }

    #[test]
    fn halves_are_told_apart() {
        let (private, public) = generate(None).unwrap();
        assert_eq!(signing_key(&public, None).unwrap_err(), KeyError::PublicKey);
        assert_eq!(verifying_key(&private).unwrap_err(), KeyError::PrivateKey);
        assert!(signing_key(&private, None).is_ok());
        assert!(verifying_key(&public).is_ok());
    }

    #[test]
    fn sec1_keys_after_ec_parameters() {
        let (private, _) = generate(None).unwrap();
        let key = signing_key(&private, None).unwrap();
        let secret = p256::SecretKey::from(&key);
        let sec1 = p256::elliptic_curve::SecretKey::to_sec1_pem(&secret, LineEnding::LF).unwrap();
        let text = format!(
            "-----BEGIN EC PARAMETERS-----\nBggqhkjOPQMBBw==\n-----END EC PARAMETERS-----\n{}",
            sec1.as_str()
        );
        assert_eq!(signing_key(&text, None).unwrap(), key);
    }
}
