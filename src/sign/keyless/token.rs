//! The OIDC identity token that keyless signing presents to Fulcio, and the identity it names.
//!
//! The claims are read without checking the token's signature: Fulcio checks it. They are read
//! here to refuse a token Fulcio would refuse before any request is made, to print who signs,
//! and to verify the written bundle against that identity and issuer, as Fulcio derives them:
//! a GitHub Actions token signs as `https://github.com/{job_workflow_ref}`, any other as its
//! `email`; the issuer is the token's `iss`, or for a token from a federating provider (Sigstore's
//! own Dex login) the upstream issuer in `federated_claims.connector_id`.

use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use p256::elliptic_curve::zeroize::Zeroizing;
use serde_json::Value;

/// GitHub Actions' OIDC issuer.
pub const GITHUB_ACTIONS_ISSUER: &str = "https://token.actions.githubusercontent.com";

/// A JWT whose claims name an identity Fulcio can certify.
pub struct IdentityToken {
    raw: Zeroizing<String>,
    /// The identity the certificate will carry (its SAN): an e-mail or a workflow URI.
    pub identity: String,
    /// The OIDC issuer the certificate will carry.
    pub issuer: String,
    /// When the token expires (Unix seconds).
    pub expires: i64,
}

impl std::fmt::Debug for IdentityToken {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("IdentityToken")
            .field("identity", &self.identity)
            .field("issuer", &self.issuer)
            .finish_non_exhaustive()
    }
}

impl IdentityToken {
    /// Reads a JWT's claims (`header.payload.signature`, base64url without padding); `now` is
    /// the current Unix time, for the expiry. The error says what is wrong with the token.
    pub fn parse(raw: &str, now: i64) -> Result<IdentityToken, String> {
        let raw = raw.trim();
        let parts: Vec<&str> = raw.split('.').collect();
        if parts.len() != 3 {
            return Err(format!(
                "the identity token is not a JWT: it has {} part(s) separated by `.`, not 3 (header.payload.signature)",
                parts.len()
            ));
        }
        let payload = URL_SAFE_NO_PAD.decode(parts[1]).map_err(|e| {
            format!("the identity token's payload (its second part) is not base64url: {e}")
        })?;
        let claims: Value = serde_json::from_slice(&payload)
            .map_err(|e| format!("the identity token's payload is not JSON: {e}"))?;
        let Value::Object(claims) = claims else {
            return Err("the identity token's payload is not a JSON object of claims".to_string());
        };
        let text = |name: &str| match claims.get(name) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::String(s)) if s.is_empty() => Ok(None),
            Some(Value::String(s)) => Ok(Some(s.clone())),
            Some(_) => Err(format!(
                "the identity token's `{name}` claim is not a string"
            )),
        };
        let iss = text("iss")?
            .ok_or_else(|| "the identity token has no `iss` (issuer) claim".to_string())?;
        if text("sub")?.is_none() {
            return Err("the identity token has no `sub` (subject) claim".to_string());
        }
        let expires = match claims.get("exp") {
            Some(Value::Number(n)) => n.as_i64().ok_or_else(|| {
                "the identity token's `exp` claim is not a whole number of seconds".to_string()
            })?,
            None => return Err("the identity token has no `exp` (expiry) claim".to_string()),
            Some(_) => {
                return Err("the identity token's `exp` claim is not a number".to_string());
            }
        };
        let identity = if let Some(workflow) = text("job_workflow_ref")? {
            format!("https://github.com/{workflow}")
        } else if let Some(email) = text("email")? {
            if claims.get("email_verified") == Some(&Value::Bool(false)) {
                return Err(format!(
                    "the identity token's e-mail `{email}` is not verified (`email_verified` is false); Fulcio certifies only verified addresses"
                ));
            }
            email
        } else {
            return Err(
                "the identity token names no identity: it has no `email` claim, nor the `job_workflow_ref` claim of a GitHub Actions token"
                    .to_string(),
            );
        };
        let federated = claims
            .get("federated_claims")
            .and_then(|f| f.get("connector_id"))
            .and_then(Value::as_str)
            .filter(|c| c.starts_with("https://"));
        let issuer = federated.map_or(iss, str::to_string);
        if expires <= now {
            return Err(format!(
                "the identity token expired at {} ({} ago); get a fresh one",
                timestamp(expires),
                ago(now - expires)
            ));
        }
        Ok(IdentityToken {
            raw: Zeroizing::new(raw.to_string()),
            identity,
            issuer,
            expires,
        })
    }

    /// The JWT itself, to present to Fulcio.
    pub fn secret(&self) -> &str {
        &self.raw
    }
}

/// `YYYY-MM-DDTHH:MM:SSZ` for a Unix time.
fn timestamp(seconds: i64) -> String {
    let of_day = seconds.rem_euclid(86_400);
    format!(
        "{}T{:02}:{:02}:{:02}Z",
        crate::time::date(seconds),
        of_day / 3600,
        of_day / 60 % 60,
        of_day % 60
    )
}

/// A duration the way a person reads it: `42 s`, `5 min`, `3 h`, `2 days`.
fn ago(seconds: i64) -> String {
    match seconds {
        ..60 => format!("{seconds} s"),
        60..3600 => format!("{} min", seconds / 60),
        3600..86_400 => format!("{} h", seconds / 3600),
        _ => format!("{} days", seconds / 86_400),
    }
}

/// The current Unix time (0 before 1970, which makes every token look expired rather than
/// panicking).
pub fn now() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_secs()).unwrap_or(i64::MAX))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn jwt(claims: &str) -> String {
        format!(
            "{}.{}.c2ln",
            URL_SAFE_NO_PAD.encode(r#"{"alg":"RS256"}"#),
            URL_SAFE_NO_PAD.encode(claims)
        )
    }

    #[test]
    fn a_github_actions_token_names_its_workflow() {
        let token = IdentityToken::parse(
            &jwt(
                r#"{"iss":"https://token.actions.githubusercontent.com","sub":"repo:o/r:ref:refs/heads/main","exp":2000,"job_workflow_ref":"o/r/.github/workflows/k.yml@refs/heads/main"}"#,
            ),
            1000,
        )
        .map_err(|e| e.to_string());
        let token = token
            .as_ref()
            .map(|t| (t.identity.as_str(), t.issuer.as_str()));
        assert_eq!(
            token,
            Ok((
                "https://github.com/o/r/.github/workflows/k.yml@refs/heads/main",
                GITHUB_ACTIONS_ISSUER
            ))
        );
    }

    #[test]
    fn a_federated_token_names_the_upstream_issuer() {
        let token = IdentityToken::parse(
            &jwt(
                r#"{"iss":"https://oauth2.sigstore.dev/auth","sub":"x","exp":2000,"email":"a@example.com","email_verified":true,"federated_claims":{"connector_id":"https://github.com/login/oauth","user_id":"1"}}"#,
            ),
            1000,
        );
        let token = token
            .as_ref()
            .map(|t| (t.identity.as_str(), t.issuer.as_str()));
        assert_eq!(
            token,
            Ok(("a@example.com", "https://github.com/login/oauth"))
        );
    }

    #[test]
    fn what_is_wrong_is_named() {
        let cases = [
            (
                "a.b".to_string(),
                "the identity token is not a JWT: it has 2 part(s) separated by `.`, not 3 (header.payload.signature)",
            ),
            (
                jwt(
                    r#"{"iss":"https://i","sub":"s","exp":2000,"email":"a@b","email_verified":false}"#,
                ),
                "the identity token's e-mail `a@b` is not verified (`email_verified` is false); Fulcio certifies only verified addresses",
            ),
            (
                jwt(r#"{"iss":"https://i","sub":"s","exp":10,"email":"a@b"}"#),
                "the identity token expired at 1970-01-01T00:00:10Z (16 min ago); get a fresh one",
            ),
            (
                jwt(r#"{"iss":"https://i","sub":"s","exp":"soon","email":"a@b"}"#),
                "the identity token's `exp` claim is not a number",
            ),
            (
                jwt(r#"{"iss":"https://i","exp":2000,"email":"a@b"}"#),
                "the identity token has no `sub` (subject) claim",
            ),
            (
                jwt(r#"[1]"#),
                "the identity token's payload is not a JSON object of claims",
            ),
        ];
        for (token, message) in cases {
            assert_eq!(
                IdentityToken::parse(&token, 1000).map(|t| t.identity),
                Err(message.to_string())
            );
        }
    }
}
