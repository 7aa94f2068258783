//! Identity-based ("keyless") Sigstore bundles, verified offline (package.md, "Identity-based
//! signatures"): the certificate chain to a Fulcio CA valid at a verified time, the SCT, the
//! code-signing usage, the transparency-log entry with its inclusion proof, checkpoint and
//! signed entry timestamp, the message signature or DSSE envelope, and the artifact's digest.
//!
//! The checks are sigstore-verify's (the Sigstore project's Rust client), run over our own
//! RustCrypto provider ([`provider`]); what is ours is the policy (identity and issuer pairs,
//! exact or regular expressions, [`Policy`]), the trust ([`Trust`]: the embedded public-good
//! root, staging, or a file), the bounds on what is read, and the names of the checks in
//! failures ([`Failure`]).

pub mod provider;
#[cfg(feature = "keyless-sign")]
pub mod sign;
#[cfg(feature = "keyless-sign")]
pub mod token;

use std::path::{Path, PathBuf};

use sigstore_verify::trust_root::{
    SIGSTORE_PRODUCTION_TRUSTED_ROOT, SIGSTORE_STAGING_TRUSTED_ROOT, TrustedRoot,
};
use sigstore_verify::types::{Bundle, DerPublicKey, Sha256Hash};
use sigstore_verify::{
    CertificateError, Error, PublicKeyVerificationPolicy, VerificationPolicy, VerificationResult,
    Verifier,
};

use crate::input::{self, Links};

/// The largest trusted root read (the public-good root is about 12 KiB).
pub const MAX_TRUSTED_ROOT: u64 = 4 * 1024 * 1024;

/// What was signed: the bytes, or only their SHA-256 (`sha256:HEX`, a large file, a
/// directory digest).
pub enum Subject<'a> {
    Bytes(&'a [u8]),
    Sha256([u8; 32]),
    /// A file whose SHA-256 is known; read again (streamed) only for a bundle whose signature
    /// cannot be checked against a digest (Ed25519 message signatures).
    File {
        path: &'a Path,
        sha256: [u8; 32],
    },
}

/// Which Sigstore instance's trusted root.
#[derive(Clone, Debug)]
pub enum Trust {
    /// The public-good production root embedded in skillc.
    Production,
    /// Sigstore's staging instance (its root is embedded too).
    Staging,
    /// A `trusted_root.json` (`--trusted-root`).
    File(PathBuf),
}

impl Trust {
    /// Reads (bounded) and parses the trusted root.
    pub fn load(&self) -> Result<TrustedRoot, Failure> {
        let parsed = match self {
            Trust::Production => TrustedRoot::from_json(SIGSTORE_PRODUCTION_TRUSTED_ROOT),
            Trust::Staging => TrustedRoot::from_json(SIGSTORE_STAGING_TRUSTED_ROOT),
            Trust::File(path) => {
                let bytes =
                    input::read_bounded(path, MAX_TRUSTED_ROOT, Links::Follow).map_err(|e| {
                        Failure::new("trusted root", format!("reading `{}`: {e}", path.display()))
                    })?;
                let text = String::from_utf8(bytes).map_err(|_| {
                    Failure::new(
                        "trusted root",
                        format!("`{}` is not UTF-8 JSON", path.display()),
                    )
                })?;
                TrustedRoot::from_json(&text)
            }
        };
        parsed.map_err(|e| Failure::new("trusted root", e.to_string()))
    }

    /// How the trust is named in messages.
    pub fn describe(&self) -> String {
        match self {
            Trust::Production => "Sigstore public-good instance (embedded root)".into(),
            Trust::Staging => "Sigstore staging instance (embedded root)".into(),
            Trust::File(path) => format!("trusted root `{}`", path.display()),
        }
    }
}

/// One side of an identity pair: an exact string or a regular expression that must match
/// the whole value (cosign's `-regexp` flags are anchored the same way by Go's semantics only
/// when the pattern says so; skillc anchors always, so `acme` never matches `not-acme-evil`).
#[derive(Clone, Debug)]
pub enum Matcher {
    Exact(String),
    Regex(regex::Regex),
}

impl Matcher {
    /// A regular expression, anchored at both ends. The pattern must be one on its own: only
    /// then does wrapping it keep it whole (`a)|(.*` is none, and `^(?:a)|(.*)$` would match
    /// any value).
    pub fn regex(pattern: &str) -> Result<Matcher, String> {
        let build = |source: &str| regex::RegexBuilder::new(source).size_limit(1 << 20).build();
        build(pattern)
            .and_then(|_| build(&format!("^(?:{pattern})$")))
            .map(Matcher::Regex)
            .map_err(|e| format!("`{pattern}` is not a valid regular expression: {e}"))
    }

    fn matches(&self, value: &str) -> bool {
        match self {
            Matcher::Exact(expected) => expected == value,
            Matcher::Regex(re) => re.is_match(value),
        }
    }

    fn describe(&self) -> String {
        match self {
            Matcher::Exact(s) => format!("`{s}`"),
            Matcher::Regex(re) => {
                let s = re.as_str();
                let inner = s
                    .strip_prefix("^(?:")
                    .and_then(|s| s.strip_suffix(")$"))
                    .unwrap_or(s);
                format!("/{inner}/")
            }
        }
    }
}

/// Who may have signed: any of the (identity, issuer) pairs, or — only when asked for by
/// name — anyone at all.
#[derive(Clone, Debug)]
pub enum Policy {
    Pairs(Vec<(Matcher, Matcher)>),
    /// `--insecure-ignore-identity`: the signature, chain and log are checked, the signer is
    /// not.
    AnyIdentity,
    /// A key-based bundle logged in a transparency log (`--key` with such a bundle).
    Key(Vec<u8>),
}

impl Policy {
    pub fn exact(identity: &str, issuer: &str) -> Policy {
        Policy::Pairs(vec![(
            Matcher::Exact(identity.to_string()),
            Matcher::Exact(issuer.to_string()),
        )])
    }
}

/// What a verified bundle says of its signer.
#[derive(Debug)]
pub struct Signed {
    /// The certificate's identity (SAN), or the key for a key-based bundle.
    pub identity: Option<String>,
    pub issuer: Option<String>,
    /// When it was logged or timestamped (RFC 3339), from a verified source.
    pub logged_at: Option<String>,
}

/// The check that failed, named as in the Sigstore client specification's order, and why.
#[derive(Debug, PartialEq, Eq)]
pub struct Failure {
    pub check: &'static str,
    pub detail: String,
}

impl Failure {
    pub fn new(check: &'static str, detail: impl Into<String>) -> Failure {
        Failure {
            check,
            detail: detail.into(),
        }
    }
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} check failed: {}", self.check, self.detail)
    }
}

/// Whether a parsed bundle JSON carries transparency-log entries (a key-based bundle with
/// entries is verified here, against the trusted root; one without, offline by
/// `sign::bundle`).
pub fn has_tlog_entries(bundle_json: &[u8]) -> bool {
    serde_json::from_slice::<serde_json::Value>(bundle_json)
        .ok()
        .and_then(|v| {
            v.pointer("/verificationMaterial/tlogEntries")
                .and_then(|e| e.as_array())
                .map(|e| !e.is_empty())
        })
        .unwrap_or(false)
}

/// Parses a bundle (already read under `sign::MAX_BUNDLE`).
pub fn parse_bundle(bundle_json: &[u8]) -> Result<Bundle, Failure> {
    let text = std::str::from_utf8(bundle_json)
        .map_err(|_| Failure::new("bundle", "the bundle is not UTF-8 JSON"))?;
    Bundle::from_json(text).map_err(|e| Failure::new("bundle", e.to_string()))
}

/// Verifies a bundle against a subject, a policy and a trusted root, offline.
pub fn verify(
    subject: Subject<'_>,
    bundle_json: &[u8],
    policy: &Policy,
    root: &TrustedRoot,
) -> Result<Signed, Failure> {
    provider::install();
    let bundle = parse_bundle(bundle_json)?;
    let verifier = Verifier::new(root).map_err(|e| Failure::new("trusted root", e.to_string()))?;
    let result = match policy {
        Policy::Key(spki_der) => {
            let key = PublicKeyVerificationPolicy::new(DerPublicKey::new(spki_der.clone()));
            run(&verifier, subject, &bundle, &key)
        }
        Policy::Pairs(_) | Policy::AnyIdentity => run(
            &verifier,
            subject,
            &bundle,
            &VerificationPolicy::any_identity(),
        ),
    }
    .map_err(failure)?;
    let identity = result.identity().map(|san| san.as_str().to_string());
    let issuer = result.issuer().map(str::to_string);
    if let Policy::Pairs(pairs) = policy {
        check_identity(pairs, identity.as_deref(), issuer.as_deref())?;
    }
    let logged_at = result
        .integrated_time()
        .or_else(|| result.verified_timestamps().first().copied())
        .map(|t| t.to_string());
    Ok(Signed {
        identity,
        issuer,
        logged_at,
    })
}

fn run(
    verifier: &Verifier,
    subject: Subject<'_>,
    bundle: &Bundle,
    policy: &(impl sigstore_verify::Policy + ?Sized),
) -> Result<VerificationResult, Error> {
    match subject {
        Subject::Bytes(bytes) => verifier.verify(bytes, bundle, policy),
        Subject::Sha256(sha256) => verifier.verify(Sha256Hash::new(sha256), bundle, policy),
        Subject::File { path, sha256 } => {
            match verifier.verify(Sha256Hash::new(sha256), bundle, policy) {
                Err(Error::UnsupportedArtifact(_)) => {
                    let file = input::open(path, Links::Follow).map_err(Error::ArtifactRead)?;
                    verifier.verify_reader(file, bundle, policy)
                }
                other => other,
            }
        }
    }
}

/// The identity pairs: any pair whose identity and issuer both match passes.
fn check_identity(
    pairs: &[(Matcher, Matcher)],
    identity: Option<&str>,
    issuer: Option<&str>,
) -> Result<(), Failure> {
    let (Some(identity), Some(issuer)) = (identity, issuer) else {
        return Err(Failure::new(
            "identity",
            format!(
                "the certificate names {} and {}; a policy needs both",
                identity.map_or("no identity".to_string(), |i| format!("identity `{i}`")),
                issuer.map_or("no OIDC issuer".to_string(), |i| format!("issuer `{i}`")),
            ),
        ));
    };
    if pairs
        .iter()
        .any(|(id, iss)| id.matches(identity) && iss.matches(issuer))
    {
        return Ok(());
    }
    let expected: Vec<String> = pairs
        .iter()
        .map(|(id, iss)| format!("{} with issuer {}", id.describe(), iss.describe()))
        .collect();
    Err(Failure::new(
        "identity",
        format!(
            "signed by `{identity}` (issuer `{issuer}`), which matches no identity given: \
             expected {}",
            expected.join(", or ")
        ),
    ))
}

/// Names the failed check of a sigstore-verify error.
fn failure(e: Error) -> Failure {
    let check = match &e {
        Error::IdentityMismatch { .. } | Error::IssuerMismatch { .. } => "identity",
        Error::SignatureInvalid(_) | Error::Crypto(_) => "signature",
        Error::ArtifactMismatch(_) | Error::UnsupportedArtifact(_) => "digest",
        Error::Certificate(CertificateError::Sct(_)) => "sct",
        Error::Certificate(_) => "certificate",
        Error::TransparencyLog(_) => "transparency log",
        Error::Timestamp(_) => "timestamp",
        Error::InvalidTrustRoot(_) | Error::TrustRoot(_) | Error::TrustedCertificate(_) => {
            "trusted root"
        }
        Error::ArtifactRead(_) => "artifact",
        _ => "bundle",
    };
    Failure::new(check, e.to_string())
}

/// `sha256:HEX` as 32 bytes.
pub fn parse_sha256(text: &str) -> Option<Result<[u8; 32], String>> {
    let hex = text.strip_prefix("sha256:")?;
    let mut out = [0u8; 32];
    if hex.len() != 64 {
        return Some(Err(format!(
            "`{text}`: a SHA-256 digest is 64 hexadecimal digits, not {}",
            hex.len()
        )));
    }
    for (i, pair) in hex.as_bytes().chunks(2).enumerate() {
        let digit = |c: u8| (c as char).to_digit(16);
        match (digit(pair[0]), digit(pair[1])) {
            (Some(h), Some(l)) => out[i] = (h * 16 + l) as u8,
            _ => {
                return Some(Err(format!(
                    "`{text}`: a SHA-256 digest is 64 hexadecimal digits"
                )));
            }
        }
    }
    Some(Ok(out))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn regex_matchers_are_anchored() {
        let m = Matcher::regex("https://github.com/acme/.*").unwrap();
        assert!(
            m.matches("https://github.com/acme/skills/.github/workflows/r.yml@refs/heads/main")
        );
        assert!(!m.matches("evil https://github.com/acme/x"));
        assert_eq!(m.describe(), "/https://github.com/acme/.*/");
        assert!(Matcher::regex("(").is_err());
        // A pattern that is no regular expression alone is refused, even when wrapping it
        // would make one: `a)|(.*` would become `^(?:a)|(.*)$`, which matches anything
        // ending anywhere.
        for pattern in ["a)|(.*", "x)|(?:evil", "(?:a))|((?:b"] {
            assert!(Matcher::regex(pattern).is_err(), "{pattern}");
        }
        assert!(!Matcher::regex("a)|(.*").is_ok_and(|m| m.matches("evil")));
    }

    #[test]
    fn identity_pairs_match_together() {
        let pairs = vec![
            (
                Matcher::Exact("a@x".into()),
                Matcher::Exact("https://i1".into()),
            ),
            (
                Matcher::Exact("b@x".into()),
                Matcher::Exact("https://i2".into()),
            ),
        ];
        assert!(check_identity(&pairs, Some("a@x"), Some("https://i1")).is_ok());
        assert!(check_identity(&pairs, Some("b@x"), Some("https://i2")).is_ok());
        // a's identity with b's issuer is no pair.
        let err = check_identity(&pairs, Some("a@x"), Some("https://i2")).unwrap_err();
        assert_eq!(
            err.to_string(),
            "identity check failed: signed by `a@x` (issuer `https://i2`), which matches no \
             identity given: expected `a@x` with issuer `https://i1`, or `b@x` with issuer \
             `https://i2`"
        );
    }

    #[test]
    fn digests_parse_strictly() {
        assert_eq!(parse_sha256("a.txt"), None);
        assert_eq!(
            parse_sha256(&format!("sha256:{}", "ab".repeat(32))),
            Some(Ok([0xab; 32]))
        );
        assert!(matches!(parse_sha256("sha256:abc"), Some(Err(_))));
        assert!(matches!(
            parse_sha256(&format!("sha256:{}", "zz".repeat(32))),
            Some(Err(_))
        ));
    }

    #[test]
    fn embedded_roots_load() {
        assert!(Trust::Production.load().is_ok());
        assert!(Trust::Staging.load().is_ok());
    }
}
