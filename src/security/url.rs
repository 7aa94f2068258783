//! URLs in a line, their hosts, and the installer allowlist.

use std::sync::LazyLock;

use regex::Regex;

/// A URL written in a line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Url<'a> {
    /// As written.
    pub text: &'a str,
    /// Lower-case host.
    pub host: String,
    /// The path after the host, lower-case (`/homebrew/install/…`).
    pub path: String,
}

impl Url<'_> {
    /// Whether the host is an IP address.
    pub fn is_ip(&self) -> bool {
        let host = self.host.trim_start_matches('[').trim_end_matches(']');
        host.parse::<std::net::IpAddr>().is_ok()
    }

    /// Whether the host is a loopback or private address (a local service, not a download).
    pub fn is_local(&self) -> bool {
        let host = self.host.trim_start_matches('[').trim_end_matches(']');
        if host == "localhost" || host.ends_with(".local") || host.ends_with(".localhost") {
            return true;
        }
        match host.parse::<std::net::IpAddr>() {
            Ok(std::net::IpAddr::V4(ip)) => {
                ip.is_loopback() || ip.is_private() || ip.is_unspecified()
            }
            Ok(std::net::IpAddr::V6(ip)) => ip.is_loopback(),
            Err(_) => false,
        }
    }

    /// Whether the host says what it is for: a name made of attack words (`exfil.`,
    /// `evil-`, `c2.`, `attacker`), as attackers' own hosts and synthetic samples are.
    pub fn is_hostile(&self) -> bool {
        self.host.split(['.', '-']).any(|label| {
            HOSTILE
                .iter()
                .any(|w| label == *w || label.starts_with(w) && w.len() >= 5)
        })
    }

    /// Whether the host is named for nothing but an attack (`exfil.`, `attacker.`, `c2.`):
    /// the strict part of [`Url::is_hostile`], for a host that is only mentioned.
    pub fn is_named_for_attack(&self) -> bool {
        named_for_attack(&self.host)
    }

    /// Whether the host is a placeholder (`example.com`, `your-domain.com`, `<host>`).
    pub fn is_placeholder(&self) -> bool {
        let host = self.host.as_str();
        host == "example.com"
            || host == "example.org"
            || host == "www.example.com"
            || host.contains("your")
            || host.contains('<')
            || host.contains('{')
            || host.contains('$')
            || host.ends_with(".test")
            || host.ends_with(".invalid")
    }
}

/// Labels of a host that say it serves an attack.
#[rustfmt::skip]
const HOSTILE: &[&str] = &[
    "exfil", "exfiltrate", "evil", "attacker", "attack", "malicious", "malware", "backdoor", "c2",
    "cnc", "payload", "payloads", "loot", "stealer", "steal", "keylog", "keylogger", "sniff",
    "sniffer", "adversary", "pwn", "pwned", "hacker", "phish", "phishing", "leak", "leaks",
    "grabber", "spoof", "stealth", "ransom", "botnet", "exploit", "dropper", "implant",
    "beacon", "harvest", "harvester", "trojan", "rat", "badactor", "hijack", "bad", "rogue",
    "shadow", "hostile", "sink", "spy", "spyware", "stolen", "creds", "skim", "skimmer", "darkweb", "covert",
];

/// Labels no honest host uses.
const ATTACK_LABELS: &[&str] = &[
    "exfil",
    "exfiltrate",
    "exfiltration",
    "evil",
    "attacker",
    "malicious",
    "malware",
    "backdoor",
    "c2",
    "cnc",
    "stealer",
    "keylogger",
    "keylog",
    "phish",
    "phishing",
    "botnet",
    "trojan",
    "ransomware",
    "dropper",
    "implant",
    "pwned",
];

/// Whether a host name (`data.exfil.example`) has a label named for an attack.
pub fn named_for_attack(host: &str) -> bool {
    // A bare word (`http://evil` in a test) names no host.
    host.contains('.')
        && host
            .to_ascii_lowercase()
            .split(['.', '-'])
            .any(|label| ATTACK_LABELS.contains(&label))
}

static URL: LazyLock<Regex> = LazyLock::new(|| {
    super::regex(
        r#"(?i)\b(?:https?|ftp|sftp|smtps?|ssh|wss?|tcp|udp)://([^\s/'"`<>)\]|;,]+)([^\s'"`<>)\]|;]*)"#,
    )
});

/// The URLs of `line`, in order.
pub fn urls(line: &str) -> impl Iterator<Item = Url<'_>> {
    URL.captures_iter(line).filter_map(|c| {
        let all = c.get(0)?;
        let authority = c.get(1)?.as_str();
        let host = authority.rsplit('@').next().unwrap_or(authority);
        let host = if host.starts_with('[') {
            host.split(']')
                .next()
                .map(|h| format!("{h}]"))
                .unwrap_or_default()
        } else {
            host.split(':').next().unwrap_or(host).to_string()
        };
        Some(Url {
            text: all.as_str(),
            host: host.trim_end_matches('.').to_ascii_lowercase(),
            path: c
                .get(2)
                .map_or(String::new(), |p| p.as_str().to_ascii_lowercase()),
        })
    })
}

/// Whether `url` is on the allowlist: an entry `host[/path-prefix]` matches the host and its
/// subdomains (and, with a path, the paths under it).
pub fn host_allowed(url: &Url, allowed: &[String]) -> bool {
    allowed.iter().any(|entry| {
        let (host, path) = match entry.split_once('/') {
            Some((host, path)) => (host, Some(path)),
            None => (entry.as_str(), None),
        };
        let host_ok = url.host == host
            || url
                .host
                .strip_suffix(host)
                .is_some_and(|rest| rest.ends_with('.'));
        host_ok
            && path.is_none_or(|p| {
                url.path
                    .trim_start_matches('/')
                    .starts_with(p.trim_end_matches('/'))
            })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hosts_and_the_allowlist() {
        let found: Vec<_> = urls(
            "curl -LsSf https://astral.sh/uv/install.sh | sh; wget http://user@45.9.1.2:8080/x",
        )
        .collect();
        assert_eq!(found[0].host, "astral.sh");
        assert_eq!(found[0].path, "/uv/install.sh");
        assert_eq!(found[1].host, "45.9.1.2");
        assert!(found[1].is_ip());
        let allowed = vec![
            "astral.sh".to_string(),
            "raw.githubusercontent.com/homebrew".to_string(),
        ];
        assert!(host_allowed(&found[0], &allowed));
        assert!(!host_allowed(&found[1], &allowed));
        let brew: Vec<_> =
            urls("https://raw.githubusercontent.com/Homebrew/install/HEAD/install.sh").collect();
        assert!(host_allowed(&brew[0], &allowed));
        let other: Vec<_> = urls("https://raw.githubusercontent.com/evil/x/main/a.sh").collect();
        assert!(!host_allowed(&other[0], &allowed));
        let lookalike: Vec<_> = urls("https://notastral.sh/x").collect();
        assert!(!host_allowed(&lookalike[0], &allowed));
    }
}
