//! Keyless signing (package.md, "`skillc sign --keyless`"): an ephemeral P-256 key, a
//! short-lived Fulcio certificate for an OIDC identity, a Rekor entry (v1 or v2, as the
//! instance's signing config says) and a TSA timestamp, in a Sigstore bundle v0.3. The
//! protocol is sigstore-sign's (the Sigstore project's Rust client); what is ours is where the
//! identity token comes from ([`Network::ambient_github`], [`Network::interactive`]), the
//! network stack without aws-lc-rs (rustls over ring, sigstore-crypto over our RustCrypto
//! provider), and errors that name the service and the step.
//!
//! The services are the embedded signing config of the instance (`--staging` or production).

use std::io::Write as _;
use std::time::Duration;

use sigstore_sign::oidc::{AuthCallback, AuthMode, HtmlTemplates, OAuthClient, OAuthConfig};
use sigstore_sign::reqwest;
use sigstore_sign::types::{Artifact, Sha256Hash};
use sigstore_sign::{SigningContext, SigningServices, SigstoreInstance};

use super::token::IdentityToken;

/// Which Sigstore instance signs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Instance {
    /// The public-good instance (fulcio.sigstore.dev, rekor.sigstore.dev).
    Production,
    /// Sigstore's staging instance (`--staging`): for trying signing out, never for releases.
    Staging,
}

impl Instance {
    fn sigstore(self) -> SigstoreInstance {
        match self {
            Instance::Production => SigstoreInstance::PublicGood,
            Instance::Staging => SigstoreInstance::Staging,
        }
    }

    /// How the instance is named in messages.
    pub fn name(self) -> &'static str {
        match self {
            Instance::Production => "Sigstore's public-good instance",
            Instance::Staging => "Sigstore's staging instance",
        }
    }
}

/// The environment variable that replaces the services' URLs, for skillc's own tests only
/// (never documented for users): `fulcio=URL,rekor=URL,tsa=URL,oidc=URL`, any subset. The
/// tests point it at a closed local port so that no test reaches the real services.
const TEST_URLS: &str = "SKILLC_SIGSTORE_URLS_FOR_TESTS";

/// The audience Sigstore's Fulcio expects in an identity token.
const AUDIENCE: &str = "sigstore";

/// The largest answer read from GitHub's token endpoint (a token is about 1-2 KiB).
const MAX_TOKEN_RESPONSE: usize = 64 * 1024;

/// The network half of keyless signing: an async runtime on this thread and one HTTP client
/// (rustls with ring, the system's roots) shared by every request.
pub struct Network {
    runtime: tokio::runtime::Runtime,
    client: reqwest::Client,
}

impl Network {
    /// Installs the crypto providers (rustls: ring; sigstore-crypto: ours) and builds the
    /// runtime and the client.
    pub fn new() -> Result<Network, String> {
        // reqwest without a TLS provider feature panics on its first client unless rustls has
        // a process default; an Err here means one is installed already.
        let _ = rustls::crypto::ring::default_provider().install_default();
        super::provider::install();
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .map_err(|e| format!("starting the network runtime: {e}"))?;
        let client = reqwest::Client::builder()
            .connect_timeout(Duration::from_secs(15))
            .timeout(Duration::from_secs(120))
            .user_agent(concat!("skillc/", env!("CARGO_PKG_VERSION")))
            .build()
            .map_err(|e| format!("building the HTTP client: {}", chain(&e)))?;
        Ok(Network { runtime, client })
    }

    /// GitHub Actions' ambient identity token, when the job may have one
    /// (`ACTIONS_ID_TOKEN_REQUEST_URL` and `ACTIONS_ID_TOKEN_REQUEST_TOKEN` are set, which
    /// `permissions: id-token: write` does), for the audience `sigstore`.
    pub fn ambient_github(&self) -> Option<Result<String, String>> {
        let set = |name: &str| std::env::var(name).ok().filter(|v| !v.is_empty());
        let url = set("ACTIONS_ID_TOKEN_REQUEST_URL")?;
        let bearer = set("ACTIONS_ID_TOKEN_REQUEST_TOKEN")?;
        let context =
            "requesting an identity token from GitHub Actions (ACTIONS_ID_TOKEN_REQUEST_URL)";
        let mut url = match reqwest::Url::parse(&url) {
            Ok(url) => url,
            Err(e) => return Some(Err(format!("{context}: the URL `{url}` is not valid: {e}"))),
        };
        url.query_pairs_mut().append_pair("audience", AUDIENCE);
        // Sent inside the runtime: reqwest's timeouts need its timer.
        Some(self.runtime.block_on(async {
            let mut response = self
                .client
                .get(url)
                .bearer_auth(bearer)
                .send()
                .await
                .map_err(|e| format!("{context}: {}", chain(&e)))?;
            let status = response.status();
            let mut body = Vec::new();
            while let Some(chunk) = response
                .chunk()
                .await
                .map_err(|e| format!("{context}: reading the answer: {}", chain(&e)))?
            {
                if body.len() + chunk.len() > MAX_TOKEN_RESPONSE {
                    return Err(format!(
                        "{context}: the answer is larger than {MAX_TOKEN_RESPONSE} bytes"
                    ));
                }
                body.extend_from_slice(&chunk);
            }
            if !status.is_success() {
                return Err(format!(
                    "{context}: HTTP {status}: {}",
                    String::from_utf8_lossy(&body).trim()
                ));
            }
            serde_json::from_slice::<serde_json::Value>(&body)
                .ok()
                .and_then(|v| v.get("value")?.as_str().map(str::to_string))
                .ok_or_else(|| format!("{context}: the answer is not JSON with a string `value`"))
        }))
    }

    /// Sigstore's interactive login (OAuth with PKCE against the instance's OIDC provider):
    /// the URL is printed on stderr, and the code the provider shows after login is read from
    /// stdin. No browser is opened (that would take the `open` crate and its platform code).
    pub fn interactive(&self, instance: Instance) -> Result<String, String> {
        let services = services(instance)?;
        let Some(oidc) = services.oidc_url() else {
            return Err(format!(
                "{} publishes no OIDC provider for an interactive login; pass --identity-token",
                instance.name()
            ));
        };
        let client = OAuthClient::with_http_client(OAuthConfig::dex(oidc), self.client.clone());
        let token = self
            .runtime
            .block_on(client.authenticate(Login))
            .map_err(|e| format!("logging in at {oidc}: {e}"))?;
        Ok(token.expose_secret().to_string())
    }

    /// Signs a SHA-256 digest (a file's, or a directory's as haiku.skills computes it) as the
    /// token's identity, and returns the bundle's JSON.
    pub fn sign(
        &self,
        sha256: [u8; 32],
        token: &IdentityToken,
        instance: Instance,
    ) -> Result<Vec<u8>, String> {
        let services = services(instance)?;
        let oidc_token = sigstore_sign::oidc::IdentityToken::from_jwt(token.secret())
            .map_err(|e| format!("reading the identity token: {e}"))?;
        let signer = SigningContext::new(services.clone())
            .with_http_client(self.client.clone())
            .signer(oidc_token);
        let artifact = Artifact::from_digest(Sha256Hash::new(sha256));
        let bundle = self
            .runtime
            .block_on(signer.sign(artifact))
            .map_err(|e| explain(&e, &services, instance))?;
        let json = bundle
            .to_json_pretty()
            .map_err(|e| format!("writing the bundle as JSON: {e}"))?;
        let mut bytes = json.into_bytes();
        bytes.push(b'\n');
        Ok(bytes)
    }
}

/// The instance's services, from its embedded signing config (or, in skillc's tests, from
/// [`TEST_URLS`]).
fn services(instance: Instance) -> Result<SigningServices, String> {
    let embedded = SigningServices::from_embedded(instance.sigstore()).map_err(|e| {
        format!(
            "reading the signing configuration of {}: {e}",
            instance.name()
        )
    })?;
    let Some(overrides) = std::env::var(TEST_URLS).ok().filter(|v| !v.is_empty()) else {
        return Ok(embedded);
    };
    let mut fulcio = embedded.fulcio_url().to_string();
    let mut services = embedded.clone();
    for pair in overrides.split(',') {
        match pair.split_once('=') {
            Some(("fulcio", url)) => fulcio = url.to_string(),
            Some(("rekor", url)) => {
                services = services.with_rekor(url, embedded.rekor_api_version());
            }
            Some(("tsa", url)) => services = services.with_tsa_url(url),
            Some(("oidc", url)) => services = services.with_oidc_url(url),
            _ => return Err(format!("{TEST_URLS}: `{pair}` is not `service=URL`")),
        }
    }
    let mut replaced = SigningServices::new(fulcio, services.rekor_url())
        .with_rekor(services.rekor_url(), services.rekor_api_version());
    if let Some(tsa) = services.tsa_url() {
        replaced = replaced.with_tsa_url(tsa);
    }
    if let Some(oidc) = services.oidc_url() {
        replaced = replaced.with_oidc_url(oidc);
    }
    Ok(replaced)
}

/// A signing failure as a sentence that names the step and the service.
fn explain(error: &sigstore_sign::Error, services: &SigningServices, instance: Instance) -> String {
    use sigstore_sign::Error;
    match error {
        Error::Fulcio(e) => format!(
            "requesting a certificate from {}: {e}",
            services.fulcio_url()
        ),
        Error::Rekor(e) => format!(
            "logging the signature in {} (Rekor {:?}): {e}",
            services.rekor_url(),
            services.rekor_api_version()
        ),
        Error::Tsa(e) => format!(
            "requesting a timestamp from {}: {e}",
            services.tsa_url().unwrap_or("the timestamp authority")
        ),
        Error::Config(e) => format!("the signing configuration of {}: {e}", instance.name()),
        e => format!("signing: {e}"),
    }
}

/// An error and its sources, `: `-separated (reqwest's own message omits the cause, such as
/// "connection refused").
fn chain(error: &dyn std::error::Error) -> String {
    let mut text = error.to_string();
    let mut source = error.source();
    while let Some(cause) = source {
        let cause_text = cause.to_string();
        if !text.contains(&cause_text) {
            text.push_str(": ");
            text.push_str(&cause_text);
        }
        source = cause.source();
    }
    text
}

/// The interactive login's prompts, on stderr (stdout is the command's output).
struct Login;

impl HtmlTemplates for Login {}

impl AuthCallback for Login {
    fn auth_url_ready(&self, url: &str, _mode: AuthMode) {
        eprintln!("Log in to Sigstore at this address, then paste the code it shows:\n\n  {url}\n");
    }

    fn prompt_for_code(&self) -> std::io::Result<sigstore_sign::oidc::SecretString> {
        eprint!("Code: ");
        std::io::stderr().flush()?;
        let mut code = p256::elliptic_curve::zeroize::Zeroizing::new(String::new());
        std::io::stdin().read_line(&mut code)?;
        Ok(sigstore_sign::oidc::SecretString::new(code.trim()))
    }
}
