//! URLs in a line, their hosts, and the installer allowlist.

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

    /// The vendor's installer this URL may be: an `https` address on a named domain (not an IP
    /// address, not a host where anyone can publish, not named for an attack, not a
    /// placeholder) whose path or host names an installer (`/install.sh`, `/cli/install.ps1`,
    /// `get.example.com`). Returns the words of the domain's own name (`antigravity` for
    /// `cli.antigravity.google`, `[my, tool]` for `my-tool.co.uk`), which the skill's subject
    /// must name for the installer to be its vendor's ([`crate::security::Scan`]).
    pub fn installer_of(&self) -> Option<Vec<&str>> {
        let https = self
            .text
            .get(..8)
            .is_some_and(|s| s.eq_ignore_ascii_case("https://"));
        if !https || self.is_ip() || self.is_hostile() || self.is_placeholder() {
            return None;
        }
        let labels: Vec<&str> = self.host.split('.').collect();
        let n = labels.len();
        // The registrable domain: the last two labels, or three under a country's
        // second-level domain (`example.co.uk`).
        let second_level = n >= 3
            && labels[n - 1].len() == 2
            && matches!(
                labels[n - 2],
                "co" | "com" | "net" | "org" | "gov" | "ac" | "edu" | "or" | "ne" | "go"
            );
        let own = if second_level {
            n.checked_sub(3)?
        } else {
            n.checked_sub(2)?
        };
        let domain = labels[own..].join(".");
        if SHARED_HOSTS.iter().any(|shared| {
            domain == *shared
                || domain
                    .strip_suffix(shared)
                    .is_some_and(|r| r.ends_with('.'))
        }) {
            return None;
        }
        let last = self
            .path
            .split(['?', '#'])
            .next()
            .unwrap_or("")
            .trim_end_matches('/')
            .rsplit('/')
            .next()
            .unwrap_or("");
        const INSTALLER: [&str; 6] = ["install", "setup", "get", "bootstrap", "init", "download"];
        let installer = last.is_empty()
            || INSTALLER.iter().any(|w| last.starts_with(w))
            || INSTALLER
                .iter()
                .chain(&["sh", "cli", "dl", "download", "downloads"])
                .any(|w| labels.first() == Some(w));
        let mut words: Vec<&str> = labels[own].split('-').filter(|w| !w.is_empty()).collect();
        // A vendor's name with the suffix it took for its domain (`caddyserver`, `nodejs`):
        // the suffix is a word of its own.
        if let [word] = words[..]
            && let Some(suffix) = VENDOR_SUFFIXES
                .iter()
                .find(|s| word.len() >= s.len() + 4 && word.ends_with(*s))
        {
            words = vec![&word[..word.len() - suffix.len()], suffix];
        }
        (installer && labels[own].len() >= 4).then_some(words)
    }

    /// Whether the host is a placeholder (`example.com`, `your-domain.com`, `<host>`, or a name
    /// under a top-level domain reserved for examples: `.test`, `.example`, `.invalid`,
    /// `.localhost`).
    pub fn is_placeholder(&self) -> bool {
        let host = self.host.as_str();
        host == "example.com"
            || host == "example.org"
            || host == "www.example.com"
            || host.contains("your")
            || host.contains('<')
            || host.contains('{')
            || host.contains('$')
            || reserved(host)
    }
}

/// What vendors add to their name to make a domain (`caddyserver.com`, `rust-lang.org`,
/// `nodejs.org`): a skill about "Caddy" installs from its vendor when the domain is the name
/// and one of these.
pub const VENDOR_SUFFIXES: [&str; 8] = [
    "server", "lang", "js", "hq", "app", "cli", "labs", "project",
];

/// Domains under which anyone can publish (a user's pages or repository, a bucket, a tunnel,
/// a paste, a short link): that a skill names one says nothing about who serves an address
/// there.
#[rustfmt::skip]
const SHARED_HOSTS: &[&str] = &[
    "github.com", "github.io", "githubusercontent.com", "gitlab.com", "gitlab.io",
    "bitbucket.org", "codeberg.org", "sourceforge.net", "pages.dev", "workers.dev", "vercel.app",
    "netlify.app", "herokuapp.com", "glitch.me", "repl.co", "replit.app", "replit.dev", "web.app",
    "firebaseapp.com", "azurewebsites.net", "windows.net", "cloudfront.net", "amazonaws.com",
    "googleapis.com", "googleusercontent.com", "ngrok.io", "ngrok.app", "ngrok-free.app",
    "trycloudflare.com", "surge.sh", "onrender.com", "fly.dev", "railway.app", "deno.dev",
    "val.run", "pastebin.com", "glot.io", "transfer.sh", "blogspot.com", "wordpress.com",
    "dropbox.com", "dropboxusercontent.com", "jsdelivr.net", "unpkg.com", "bit.ly", "tinyurl.com",
    "is.gd", "t.co", "goo.gl", "rb.gy", "cutt.ly", "duckdns.org", "ddns.net", "no-ip.com",
    "serveo.net", "loca.lt", "pinggy.io", "webhook.site", "pipedream.net", "discord.com",
    "discordapp.com", "telegram.org", "000webhostapp.com", "sharepoint.com", "box.com",
];

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
/// Whether `host` is under a top-level domain reserved for examples and tests (RFC 2606):
/// `.test`, `.example`, `.invalid`, `.localhost`. No such name resolves.
pub fn reserved(host: &str) -> bool {
    let host = host.trim_end_matches('.').to_ascii_lowercase();
    [".test", ".example", ".invalid", ".localhost"]
        .iter()
        .any(|tld| host.ends_with(tld))
}

pub fn named_for_attack(host: &str) -> bool {
    // A bare word (`http://evil` in a test) names no host.
    host.contains('.')
        && host
            .to_ascii_lowercase()
            .split(['.', '-'])
            .any(|label| ATTACK_LABELS.contains(&label))
}

/// The schemes a URL is looked for with (lower-case).
const SCHEMES: [&str; 11] = [
    "http", "https", "ftp", "sftp", "smtp", "smtps", "ssh", "ws", "wss", "tcp", "udp",
];

/// Whether `c` ends a URL's host (and `,` too) or its path.
fn ends_path(c: char) -> bool {
    c.is_whitespace() || matches!(c, '\'' | '"' | '`' | '<' | '>' | ')' | ']' | '|' | ';')
}

/// The URLs of `line`, in order: a scheme that starts a word (`https`, `ssh`…, any case),
/// `://`, a host (up to whitespace, `/`, a quote, `<>)]|;,`) and a path (up to whitespace, a
/// quote, `<>)]|;`). One pass: each `://` is found by `memchr`, its scheme read backwards.
pub fn urls(line: &str) -> impl Iterator<Item = Url<'_>> {
    let bytes = line.as_bytes();
    let finder = memchr::memmem::find_iter(bytes, b"://");
    let mut from = 0;
    finder.filter_map(move |sep| {
        if sep < from {
            return None;
        }
        let word = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
        let start = bytes[..sep]
            .iter()
            .rposition(|&b| !word(b))
            .map_or(0, |i| i + 1);
        let scheme = &line[start..sep];
        if !SCHEMES.iter().any(|s| s.eq_ignore_ascii_case(scheme)) {
            return None;
        }
        let rest = &line[sep + 3..];
        let host_len = rest
            .find(|c: char| ends_path(c) || c == '/' || c == ',')
            .unwrap_or(rest.len());
        if host_len == 0 {
            return None;
        }
        let after = &rest[host_len..];
        let path_len = after.find(ends_path).unwrap_or(after.len());
        let end = sep + 3 + host_len + path_len;
        from = end;
        Some(Url {
            text: &line[start..end],
            host: host_of(&rest[..host_len]),
            path: after[..path_len].to_ascii_lowercase(),
        })
    })
}

/// The host of a URL's authority (`user@host:port`, `[::1]:8080`), lower-case, without a
/// trailing dot.
fn host_of(authority: &str) -> String {
    let host = authority.rsplit('@').next().unwrap_or(authority);
    let host = if host.starts_with('[') {
        host.split(']')
            .next()
            .map(|h| format!("{h}]"))
            .unwrap_or_default()
    } else {
        host.split(':').next().unwrap_or(host).to_string()
    };
    host.trim_end_matches('.').to_ascii_lowercase()
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

    /// The one-pass finder finds what the regular expression it replaced finds, on texts made
    /// of schemes, separators, words, quotes and non-ASCII letters.
    #[test]
    fn urls_are_what_the_pattern_finds() {
        let pattern = crate::security::regex(
            r#"(?i)\b(?:https?|ftp|sftp|smtps?|ssh|wss?|tcp|udp)://([^\s/'"`<>)\]|;,]+)([^\s'"`<>)\]|;]*)"#,
        );
        let pieces = [
            "http",
            "HTTPS",
            "ssh",
            "wss",
            "Smtps",
            "ftp",
            "sftp",
            "tcp",
            "x",
            "_",
            "é",
            "://",
            ":/",
            "/",
            ",",
            ";",
            " ",
            "\u{a0}",
            "\u{2003}",
            "'",
            "\"",
            "`",
            "<",
            ">",
            ")",
            "]",
            "|",
            "@",
            ":",
            "[",
            ".",
            "a.b",
            "evil.example",
            "ws",
            "udp",
            "1",
        ];
        let mut seed: u64 = 0x2545_f491_4f6c_dd1d;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        for _ in 0..20_000 {
            let mut text = String::new();
            for _ in 0..next() % 14 {
                text.push_str(pieces[next() as usize % pieces.len()]);
            }
            let expected: Vec<(&str, String, String)> = pattern
                .captures_iter(&text)
                .map(|c| {
                    let all = c.get(0).map_or("", |m| m.as_str());
                    let authority = c.get(1).map_or("", |m| m.as_str());
                    let path = c.get(2).map_or("", |m| m.as_str());
                    (all, host_of(authority), path.to_ascii_lowercase())
                })
                .collect();
            let found: Vec<(&str, String, String)> =
                urls(&text).map(|u| (u.text, u.host, u.path)).collect();
            assert_eq!(found, expected, "{text:?}");
        }
    }

    #[test]
    fn a_vendors_installer_is_https_on_its_own_named_domain() {
        let brand = |text: &str| {
            urls(text)
                .next()
                .and_then(|u| u.installer_of().map(|w| w.join(" ")))
        };
        assert_eq!(
            brand("https://antigravity.google/cli/install.sh").as_deref(),
            Some("antigravity")
        );
        assert_eq!(
            brand("https://get.quarkline.dev").as_deref(),
            Some("quarkline")
        );
        assert_eq!(
            brand("https://my-tool.co.uk/setup.ps1").as_deref(),
            Some("my tool")
        );
        assert_eq!(
            brand("https://caddyserver.com/api/download?os=linux&arch=amd64").as_deref(),
            Some("caddy server")
        );
        assert_eq!(
            brand("https://rust-lang.org/install.sh").as_deref(),
            Some("rust lang")
        );
        // Too short a name before the suffix to be one.
        assert_eq!(
            brand("https://goapp.dev/install.sh").as_deref(),
            Some("goapp")
        );
        // Not an installer's path, not https, a shared host, an address, a short name.
        assert_eq!(brand("https://quarkline.dev/plugins/loader.sh"), None);
        assert_eq!(brand("http://quarkline.dev/install.sh"), None);
        assert_eq!(brand("https://quarkline.pages.dev/install.sh"), None);
        assert_eq!(
            brand("https://raw.githubusercontent.com/x/y/main/install.sh"),
            None
        );
        assert_eq!(brand("https://203.0.113.9/install.sh"), None);
        assert_eq!(brand("https://abc.io/install.sh"), None);
        assert_eq!(brand("https://evil-installer.com/install.sh"), None);
    }

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
