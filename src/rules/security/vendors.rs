//! Named secrets of services (`$GITHUB_TOKEN`) and the hosts that are each service's own: a
//! secret sent to its own service is the skill doing its job, sent to another host it leaks.

/// Named secrets of services, and the hosts that are each service's own: a secret sent to
/// another host is sent away.
#[rustfmt::skip]
pub(super) const VENDORS: &[(&str, &[&str])] = &[
    ("ANTHROPIC", &["anthropic"]), ("CLAUDE", &["anthropic", "claude"]), ("OPENAI", &["openai", "azure"]),
    ("GITHUB", &["github", "githubusercontent"]), ("GH", &["github", "githubusercontent"]), ("GITLAB", &["gitlab"]), ("AWS", &["amazonaws", "amazon", "aws"]),
    ("NPM", &["npmjs", "npm"]), ("DOCKER", &["docker"]), ("STRIPE", &["stripe"]), ("SLACK", &["slack"]),
    ("DISCORD", &["discord", "discordapp"]), ("TELEGRAM", &["telegram"]),
    ("GOOGLE", &["google", "googleapis", "gstatic"]), ("GEMINI", &["google", "googleapis"]),
    ("GCP", &["google", "googleapis"]), ("AZURE", &["azure", "microsoft", "windows.net"]),
    ("HF", &["huggingface", "hf.co"]), ("HUGGINGFACE", &["huggingface", "hf.co"]),
    ("VERCEL", &["vercel"]), ("SUPABASE", &["supabase"]), ("SENTRY", &["sentry"]),
    ("POSTHOG", &["posthog"]), ("CLOUDFLARE", &["cloudflare"]), ("TWILIO", &["twilio"]),
    ("SENDGRID", &["sendgrid"]), ("DATADOG", &["datadoghq", "datadog"]), ("PYPI", &["pypi"]),
    ("LINEAR", &["linear"]), ("NOTION", &["notion"]), ("ATLASSIAN", &["atlassian"]),
    ("JIRA", &["atlassian", "jira"]), ("FIREBASE", &["firebase", "firebaseio", "google", "googleapis"]), ("MONGODB", &["mongodb"]),
    ("TAVILY", &["tavily"]), ("PERPLEXITY", &["perplexity"]), ("GROQ", &["groq"]),
    ("MISTRAL", &["mistral"]), ("COHERE", &["cohere"]), ("REPLICATE", &["replicate"]),
    ("ELEVENLABS", &["elevenlabs"]), ("SHOPIFY", &["shopify", "myshopify"]), ("HEROKU", &["heroku", "herokuapp"]),
    ("NETLIFY", &["netlify"]), ("FIGMA", &["figma"]), ("ZOOM", &["zoom"]), ("ASANA", &["asana"]),
];

/// The service a named secret belongs to, and whether `host` is one of its own.
pub(super) fn foreign_secret(secret: &str, host: &str) -> Option<bool> {
    let name = secret
        .trim_start_matches(['$', '{', '('])
        .trim_start_matches("env:")
        .rsplit(['"', '\'', '.', '['])
        .find(|p| {
            !p.is_empty()
                && p.chars()
                    .all(|c| c.is_ascii_uppercase() || c == '_' || c.is_ascii_digit())
        })?
        .to_string();
    let (_, hosts) = VENDORS
        .iter()
        .find(|(v, _)| name.starts_with(v) && name[v.len()..].starts_with('_'))?;
    Some(!hosts.iter().any(|h| owned_by(host, h)))
}

/// Whether `host` is the service's own: one of its labels is the service's name
/// (`api.github.com`, `acme.atlassian.net`, a self-hosted `jira.example.com`), or it is the
/// service's domain or below it (`hf.co`). The name inside a label is not enough:
/// `jira-compliance-ledger.com` is not Atlassian's.
fn owned_by(host: &str, service: &str) -> bool {
    let host = host.trim_end_matches('.');
    if service.contains('.') {
        return host.eq_ignore_ascii_case(service)
            || host.len() > service.len()
                && host.as_bytes()[host.len() - service.len()..]
                    .eq_ignore_ascii_case(service.as_bytes())
                && host.as_bytes()[host.len() - service.len() - 1] == b'.';
    }
    host.split('.')
        .any(|label| label.eq_ignore_ascii_case(service))
}

#[cfg(test)]
mod tests {
    use super::{foreign_secret, owned_by};

    #[test]
    fn a_host_is_a_service_s_own_by_a_whole_label_or_its_domain() {
        assert!(owned_by("api.github.com", "github"));
        assert!(owned_by("acme.atlassian.net", "atlassian"));
        assert!(owned_by("hf.co", "hf.co"));
        assert!(owned_by("cdn.hf.co", "hf.co"));
        assert!(!owned_by("jira-compliance-ledger.com", "jira"));
        assert!(owned_by("jira.example.com", "jira"));
        assert!(!owned_by("github-cdn.example", "github"));
        assert!(owned_by("aws.amazon.com", "amazon"));
        assert!(!owned_by("xhf.co", "hf.co"));
        // A host with non-ASCII letters is compared by bytes (slicing it by the service's
        // length cut inside `é`).
        assert!(!owned_by("éf.co", "hf.co"));
        assert_eq!(
            foreign_secret("$JIRA_API_TOKEN", "jira-sync.example"),
            Some(true)
        );
        assert_eq!(
            foreign_secret("$GITHUB_TOKEN", "uploads.github.com"),
            Some(false)
        );
        assert_eq!(foreign_secret("$ACME_TOKEN", "acme.example"), None);
    }
}
