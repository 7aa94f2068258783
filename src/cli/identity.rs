//! The identity-policy flags of `verify` and `unpack` (cosign's `verify-blob` names): who may
//! have signed a keyless bundle, and which Sigstore instance's root to trust.

use std::ffi::OsString;
use std::path::PathBuf;

use crate::sign::keyless::{Matcher, Policy, Trust};

#[derive(Debug, Clone, Default, clap::Args)]
pub struct IdentityArgs {
    /// A keyless bundle's expected signer: the certificate's identity (a workflow URI, an
    /// e-mail). Repeatable; pairs with --certificate-oidc-issuer in command-line order.
    #[arg(long, value_name = "ID", conflicts_with = "key")]
    pub certificate_identity: Vec<String>,
    /// Like --certificate-identity, as a regular expression matching the whole identity.
    #[arg(long, value_name = "RE", conflicts_with = "key")]
    pub certificate_identity_regexp: Vec<String>,
    /// The expected OIDC issuer of the signer's token (e.g.
    /// https://token.actions.githubusercontent.com). Repeatable.
    #[arg(long, value_name = "URL", conflicts_with = "key")]
    pub certificate_oidc_issuer: Vec<String>,
    /// Like --certificate-oidc-issuer, as a regular expression matching the whole issuer.
    #[arg(long, value_name = "RE", conflicts_with = "key")]
    pub certificate_oidc_issuer_regexp: Vec<String>,
    /// Verify a keyless bundle without checking who signed it (printed as such, never `OK`).
    #[arg(long, conflicts_with = "key")]
    pub insecure_ignore_identity: bool,
    /// The Sigstore trusted root (`trusted_root.json`) instead of the embedded public-good one.
    #[arg(long, value_name = "PATH", conflicts_with = "staging")]
    pub trusted_root: Option<PathBuf>,
    /// Trust Sigstore's staging instance (its root is embedded) instead of production.
    #[arg(long)]
    pub staging: bool,
}

/// The four identity flags, as they can appear on a command line.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Flag {
    Identity,
    IdentityRegexp,
    Issuer,
    IssuerRegexp,
}

const FLAGS: [(&str, Flag); 4] = [
    ("--certificate-identity", Flag::Identity),
    ("--certificate-identity-regexp", Flag::IdentityRegexp),
    ("--certificate-oidc-issuer", Flag::Issuer),
    ("--certificate-oidc-issuer-regexp", Flag::IssuerRegexp),
];

impl IdentityArgs {
    /// Whether any identity flag was given.
    pub fn any(&self) -> bool {
        !(self.certificate_identity.is_empty()
            && self.certificate_identity_regexp.is_empty()
            && self.certificate_oidc_issuer.is_empty()
            && self.certificate_oidc_issuer_regexp.is_empty())
    }

    pub fn trust(&self) -> Trust {
        match (&self.trusted_root, self.staging) {
            (Some(path), _) => Trust::File(path.clone()),
            (None, true) => Trust::Staging,
            (None, false) => Trust::Production,
        }
    }

    /// The policy the flags ask for: `Ok(None)` when none was given. Identities and issuers
    /// pair in command-line order (the order clap keeps within each flag, interleaved as the
    /// flags appeared); one issuer pairs with every identity.
    pub fn policy(&self) -> Result<Option<Policy>, String> {
        if self.insecure_ignore_identity {
            if self.any() {
                return Err("--insecure-ignore-identity and --certificate-identity/\
                     --certificate-oidc-issuer ask for opposite things; give one"
                    .into());
            }
            return Ok(Some(Policy::AnyIdentity));
        }
        if !self.any() {
            return Ok(None);
        }
        let order = flag_order(std::env::args_os());
        let identities = self.ordered(&order, Flag::Identity, Flag::IdentityRegexp)?;
        let issuers = self.ordered(&order, Flag::Issuer, Flag::IssuerRegexp)?;
        let pairs = match (identities.len(), issuers.len()) {
            (0, _) => {
                return Err(
                    "--certificate-oidc-issuer needs --certificate-identity (or \
                     --certificate-identity-regexp): the issuer alone says nothing of who signed"
                        .into(),
                );
            }
            (_, 0) => {
                return Err(
                    "--certificate-identity needs --certificate-oidc-issuer (or \
                     --certificate-oidc-issuer-regexp): an identity means something only with \
                     the issuer that vouched for it"
                        .into(),
                );
            }
            (_, 1) => identities
                .into_iter()
                .map(|id| (id, issuers[0].clone()))
                .collect(),
            (n, m) if n == m => identities.into_iter().zip(issuers).collect(),
            (n, m) => {
                return Err(format!(
                    "{n} identities and {m} issuers: give one issuer for all identities, or \
                     one issuer for each identity (they pair in command-line order)"
                ));
            }
        };
        Ok(Some(Policy::Pairs(pairs)))
    }

    /// The values of an exact flag and its `-regexp` form, interleaved in command-line order.
    fn ordered(&self, order: &[Flag], exact: Flag, regexp: Flag) -> Result<Vec<Matcher>, String> {
        let (exacts, regexps) = match exact {
            Flag::Identity => (
                &self.certificate_identity,
                &self.certificate_identity_regexp,
            ),
            _ => (
                &self.certificate_oidc_issuer,
                &self.certificate_oidc_issuer_regexp,
            ),
        };
        let mut exacts = exacts.iter();
        let mut regexps = regexps.iter();
        let mut out = Vec::new();
        for flag in order {
            if *flag == exact
                && let Some(value) = exacts.next()
            {
                out.push(Matcher::Exact(value.clone()));
            } else if *flag == regexp
                && let Some(value) = regexps.next()
            {
                out.push(Matcher::regex(value)?);
            }
        }
        // Values the scan did not see (a flag spelt in a way it does not know) come last.
        out.extend(exacts.map(|v| Matcher::Exact(v.clone())));
        for value in regexps {
            out.push(Matcher::regex(value)?);
        }
        Ok(out)
    }
}

/// The identity flags in the order they appear in `args` (`--flag VALUE` and `--flag=VALUE`),
/// up to a `--`. A flag's value is skipped, so a value that looks like a flag is not one.
fn flag_order(args: impl IntoIterator<Item = OsString>) -> Vec<Flag> {
    let mut order = Vec::new();
    let mut args = args.into_iter();
    while let Some(arg) = args.next() {
        let Some(arg) = arg.to_str().map(str::to_string) else {
            continue;
        };
        if arg == "--" {
            break;
        }
        for (name, flag) in FLAGS {
            if arg == name {
                order.push(flag);
                args.next();
            } else if arg
                .strip_prefix(name)
                .is_some_and(|rest| rest.starts_with('='))
            {
                order.push(flag);
            }
        }
    }
    order
}

#[cfg(test)]
mod tests {
    use super::*;

    fn os(args: &[&str]) -> Vec<OsString> {
        args.iter().map(OsString::from).collect()
    }

    #[test]
    fn flags_are_seen_in_order_and_values_skipped() {
        let order = flag_order(os(&[
            "skillc",
            "verify",
            "--certificate-identity-regexp=a.*",
            "--certificate-oidc-issuer",
            "--certificate-identity",
            "--certificate-identity",
            "b",
            "--",
            "--certificate-oidc-issuer",
        ]));
        assert!(
            order == [Flag::IdentityRegexp, Flag::Issuer, Flag::Identity],
            "the value of --certificate-oidc-issuer is not a flag, and nothing after -- is"
        );
    }
}
