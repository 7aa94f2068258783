//! A skill's files cut into the units the security rules judge: the logical lines that hold a
//! word worth matching (a keyword pass over each text finds them), with their context, the
//! same lines rebuilt from literal pieces, and the payloads the texts decode to.

use std::sync::LazyLock;

use aho_corasick::{AhoCorasick, AhoCorasickBuilder, MatchKind};
use regex::Regex;

use super::build::{self, Vars};
use super::decode;
use super::read::{Lang, Source};
use super::{MAX_DECODED, MAX_DEPTH};

/// Where a unit's text sits in its file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Context {
    /// A line of a script (or a string of a data file).
    Code,
    /// Markdown prose.
    Prose,
    /// A Markdown code fence.
    Fence,
    /// A Markdown HTML comment (hidden from a reader of the rendered page).
    Comment,
}

/// How a unit's text was obtained.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Origin {
    /// As written.
    Plain,
    /// Rebuilt from literal pieces (variables, concatenation, split quotes).
    Built,
    /// Decoded from a payload (`base64`, `hex`…).
    Decoded(&'static str),
}

/// One text to match.
#[derive(Debug)]
pub struct Unit {
    /// Index of its file in [`Scan::sources`].
    pub source: usize,
    /// Its first line in the file (1-based).
    pub line: usize,
    /// Where `text` starts in the file, when it is the file's own text.
    pub offset: Option<usize>,
    pub text: String,
    pub context: Context,
    pub origin: Origin,
    /// It documents an attack rather than performing it: a security skill's examples, or a
    /// line introduced as what to look for.
    pub documented: bool,
    /// The families of words it holds ([`family`]).
    pub families: u16,
}

impl Unit {
    /// Whether it holds a word of any of `families`.
    pub fn has(&self, families: u16) -> bool {
        self.families & families != 0
    }

    pub fn is_code(&self) -> bool {
        matches!(self.context, Context::Code | Context::Fence)
    }
}

/// A skill's files and the units to match in them.
#[derive(Debug)]
pub struct Scan {
    pub sources: Vec<Source>,
    pub units: Vec<Unit>,
    /// The skill is about security (auditing, detecting, reviewing): its prose and examples
    /// describe attacks.
    pub themed: bool,
    /// Its name and description, lower-case.
    about: String,
}

/// The families of words the rules look for: a unit records which it holds (one automaton
/// pass), and each rule runs its patterns only on units that hold its family's words. The
/// words are chosen to be rare in honest text: a family that fires on every paragraph saves
/// nothing.
pub mod family {
    /// Downloading and running code.
    pub const FETCH: u16 = 1;
    /// Decoding payloads.
    pub const DECODE: u16 = 1 << 1;
    /// Sockets and shells for another host.
    pub const SHELL: u16 = 1 << 2;
    /// Mining.
    pub const MINER: u16 = 1 << 3;
    /// Credentials and private data.
    pub const SECRET: u16 = 1 << 4;
    /// Sending to the network.
    pub const SEND: u16 = 1 << 5;
    /// Persistence, privileges, safeguards.
    pub const SYSTEM: u16 = 1 << 6;
    /// Words of an injection, hidden text or a fake message.
    pub const INJECT: u16 = 1 << 7;
    /// A negation or concealment (`do not`, `hide`).
    pub const NEGATION: u16 = 1 << 8;
    /// The user (whom an injection hides things from).
    pub const WHO: u16 = 1 << 9;
    /// Installing packages, internal packages.
    pub const SUPPLY: u16 = 1 << 10;
    /// A URL.
    pub const URL: u16 = 1 << 11;
}

use family::{
    DECODE, FETCH, INJECT, MINER, NEGATION, SECRET, SEND, SHELL, SUPPLY, SYSTEM, URL, WHO,
};

/// Words a unit must hold to be matched at all (case-insensitive), each with its family: a
/// line with none of them can fire no security rule.
#[rustfmt::skip]
const KEYWORDS: &[(&str, u16)] = &[
    ("curl", FETCH | SEND), ("wget", FETCH | SEND), ("iwr", FETCH | SEND), ("irm", FETCH | SEND),
    ("invoke-webrequest", FETCH | SEND), ("invoke-restmethod", FETCH | SEND),
    ("invoke-expression", FETCH), ("iex", FETCH), ("webclient", FETCH | SEND),
    ("downloadstring", FETCH), ("downloadfile", FETCH), ("urlopen", FETCH | SEND),
    ("urlretrieve", FETCH), ("requests.", FETCH | SEND), ("httpx", FETCH | SEND),
    ("fetch(", FETCH | SEND), ("axios", FETCH | SEND), ("http.get", FETCH), ("https.get", FETCH),
    ("http.request", SEND), ("https.request", SEND), ("exec(", FETCH | DECODE),
    ("exec (", FETCH | DECODE), ("eval(", FETCH | DECODE), ("eval ", FETCH | DECODE),
    ("execsync", FETCH | DECODE), ("system(", FETCH | DECODE), ("popen", FETCH | DECODE),
    ("subprocess", FETCH | DECODE), ("compile(", FETCH), ("function(", FETCH),
    ("runinthiscontext", FETCH), ("runpy", FETCH), ("<(", FETCH), ("start-process", FETCH),
    ("certutil", FETCH), ("bitsadmin", FETCH), ("git clone", FETCH), ("-outfile", FETCH),
    ("| sh", FETCH), ("|sh", FETCH), ("| bash", FETCH), ("|bash", FETCH), ("| sudo", FETCH),
    ("| python", FETCH), ("|python", FETCH), ("| node", FETCH), ("| perl", FETCH),
    ("| ruby", FETCH), ("| php", FETCH), ("| pwsh", FETCH), ("| powershell", FETCH),
    ("| zsh", FETCH), ("/tmp/", FETCH),
    ("base64", DECODE), ("b64", DECODE), ("atob", DECODE), ("frombase64", DECODE),
    ("-enc", DECODE), ("-ec ", DECODE), ("marshal", DECODE), ("fromhex", DECODE),
    ("unhexlify", DECODE), ("xxd", DECODE), ("decompress", DECODE), ("fromcharcode", DECODE),
    ("bytes(", DECODE), ("bytearray(", DECODE), ("base32", DECODE), ("b85", DECODE),
    ("a85", DECODE), ("basenc", DECODE), ("gunzip", DECODE), ("zcat", DECODE),
    ("| rev", DECODE), ("openssl", DECODE), ("codecs", DECODE), ("chr(", DECODE),
    ("\\x", DECODE), ("[::-1]", DECODE), ("buffer.from", DECODE), ("unescape(", DECODE),
    ("/dev/tcp", SHELL), ("/dev/udp", SHELL), ("nc ", SHELL | SEND), ("ncat", SHELL | SEND),
    ("netcat", SHELL | SEND), ("socat", SHELL), ("mkfifo", SHELL), ("socket", SHELL | SEND),
    ("pty.", SHELL), ("tcpclient", SHELL), ("fsockopen", SHELL), ("tcpsocket", SHELL),
    ("telnet", SHELL | SEND), ("sh -i", SHELL), ("<>", SHELL),
    ("xmrig", MINER), ("miner", MINER), ("stratum", MINER), ("donate-level", MINER),
    ("coinhive", MINER), ("cryptonight", MINER), ("xmr", MINER), ("nanopool", MINER),
    ("2miners", MINER), ("f2pool", MINER), ("hashvault", MINER), ("c3pool", MINER),
    ("nicehash", MINER), ("ethermine", MINER), ("antpool", MINER), ("viabtc", MINER),
    (".ssh", SECRET), ("id_rsa", SECRET), ("id_ed25519", SECRET), ("id_ecdsa", SECRET),
    (".aws", SECRET), ("credentials", SECRET), (".kube", SECRET), (".docker/", SECRET),
    (".netrc", SECRET), ("git-credentials", SECRET), ("npmrc", SECRET), ("pypirc", SECRET),
    ("keychain", SECRET), ("login data", SECRET), ("cookies", SECRET), ("/etc/shadow", SECRET),
    ("/etc/passwd", SECRET), ("wallet", SECRET), ("electrum", SECRET), ("169.254", SECRET),
    ("metadata.google", SECRET), ("environ", SECRET), ("process.env", SECRET),
    ("printenv", SECRET), ("env |", SECRET), ("env|", SECRET), ("env)", SECRET),
    ("env >", SECRET), ("env:", SECRET), ("getenv", SECRET), ("_history", SECRET),
    (".claude/", SECRET | SYSTEM), ("gcloud", SECRET), ("gh/hosts", SECRET), (".azure", SECRET),
    (".env", SECRET), ("_token", SECRET), ("_secret", SECRET), ("password", SECRET),
    ("passwd", SECRET), ("_key", SECRET), ("api key", SECRET), ("private key", SECRET),
    ("seed phrase", SECRET), ("recovery phrase", SECRET), ("mnemonic", SECRET),
    ("passphrase", SECRET), ("verification code", SECRET), ("2fa", SECRET),
    ("database_url", SECRET), ("_dsn", SECRET), ("connection_string", SECRET),
    ("clipboard", SECRET), ("pbpaste", SECRET), ("xclip", SECRET), ("xsel", SECRET),
    ("conversation", SECRET), ("transcript", SECRET), ("screencapture", SECRET),
    ("whoami", SECRET), ("$(hostname", SECRET), ("$(id", SECRET), ("$(cat", SECRET),
    ("key4.db", SECRET), ("logins.json", SECRET), ("gnupg", SECRET), ("password-store", SECRET),
    ("api keys", SECRET), ("tokens", SECRET), ("secrets", SECRET), ("system prompt", SECRET),
    ("chat history", SECRET), ("file paths", SECRET), ("collected", SECRET),
    ("gathered", SECRET), ("harvested", SECRET), ("captured", SECRET), ("extracted", SECRET),
    ("nslookup", SEND), ("dig ", SEND), ("drill ", SEND), ("host ", SEND),
    ("resolve-dnsname", SEND), ("gethostbyname", SEND), ("getaddrinfo", SEND),
    ("dns.", SEND), ("resolver", SEND), ("webhook", SEND), ("pastebin", SEND),
    ("telegram", SEND), ("discord", SEND), ("ngrok", SEND), ("requestbin", SEND),
    ("pipedream", SEND), ("interact.sh", SEND), ("burpcollab", SEND), ("oast", SEND),
    ("transfer.sh", SEND), ("smtp", SEND), ("ftp", SEND), ("scp ", SEND), ("rsync", SEND),
    ("--data", SEND), ("-d ", SEND), ("-f ", SEND), ("-t ", SEND), ("--form", SEND),
    ("--upload-file", SEND), ("-x post", SEND), ("-x put", SEND), ("--request", SEND),
    ("--post-", SEND), ("exfil", SEND), ("sendall", SEND), (".send(", SEND),
    ("sendbeacon", SEND), ("uploadstring", SEND), ("uploadfile", SEND), ("uploaddata", SEND),
    ("send-mailmessage", SEND), (".post(", SEND), (".put(", SEND), (".patch(", SEND),
    ("method", SEND), ("-body", SEND), ("-infile", SEND),
    ("bashrc", SYSTEM), ("zshrc", SYSTEM), (".profile", SYSTEM), ("bash_profile", SYSTEM),
    ("zprofile", SYSTEM), ("zshenv", SYSTEM), ("zlogin", SYSTEM), ("config.fish", SYSTEM),
    ("/etc/profile", SYSTEM), ("/etc/environment", SYSTEM), ("$profile", SYSTEM),
    ("crontab", SYSTEM), ("/etc/cron", SYSTEM), ("spool/cron", SYSTEM), ("@reboot", SYSTEM),
    ("launchagents", SYSTEM), ("launchdaemons", SYSTEM), ("launchctl", SYSTEM),
    ("systemd/", SYSTEM), ("currentversion", SYSTEM), ("schtasks", SYSTEM),
    ("scheduledtask", SYSTEM), ("startup", SYSTEM), (".git/hooks", SYSTEM),
    ("authorized_keys", SYSTEM), (".codex/", SYSTEM), (".cursor/", SYSTEM), (".gemini/", SYSTEM),
    ("claude.md", SYSTEM), ("agents.md", SYSTEM), ("gemini.md", SYSTEM), ("settings.json", SYSTEM),
    ("settings.local.json", SYSTEM), ("dangerously", SYSTEM), ("bypasspermissions", SYSTEM),
    ("setenforce", SYSTEM), ("ufw", SYSTEM), ("firewall", SYSTEM), ("mppreference", SYSTEM),
    ("spctl", SYSTEM), ("csrutil", SYSTEM), ("apparmor", SYSTEM), ("auditd", SYSTEM),
    ("histfile", SYSTEM), ("histsize", SYSTEM), ("history -c", SYSTEM), ("_history", SYSTEM),
    ("rm -", SYSTEM), ("shred", SYSTEM), ("/etc/hosts", SYSTEM), ("etc\\hosts", SYSTEM),
    ("/var/log", SYSTEM), ("wevtutil", SYSTEM), ("clear-eventlog", SYSTEM), ("chattr", SYSTEM),
    ("hookspath", SYSTEM), ("iptables", SYSTEM), ("chmod", SYSTEM), ("sudo", SYSTEM),
    ("sudoers", SYSTEM), ("nopasswd", SYSTEM), ("usermod", SYSTEM), ("gpasswd", SYSTEM),
    ("docker.sock", SYSTEM), ("--privileged", SYSTEM), ("setcap", SYSTEM), ("pkexec", SYSTEM),
    ("nsenter", SYSTEM), ("chown", SYSTEM), ("-v /:", SYSTEM), ("disable", SYSTEM),
    ("turn off", SYSTEM), ("switch off", SYSTEM), ("deactivate", SYSTEM),
    ("uninstall", SYSTEM), ("shell:startup", SYSTEM), ("launch agent", SYSTEM),
    ("ignore", INJECT), ("disregard", INJECT), ("forget", INJECT), ("override", INJECT),
    ("bypass", INJECT), ("jailbreak", INJECT), ("developer mode", INJECT),
    ("god mode", INJECT), ("dan ", INJECT), ("mode enabled", INJECT), ("mode activated", INJECT),
    ("mode is now", INJECT), ("do anything now", INJECT), ("you are now", INJECT),
    ("<system", INJECT), ("</system", INJECT), ("< system", INJECT), ("[system", INJECT),
    ("system:", INJECT), ("system override", INJECT), ("system message", INJECT),
    ("system update", INJECT), ("system notice", INJECT), ("system instruction", INJECT),
    ("<sys>", INJECT), ("<|im_start|>", INJECT), ("[inst]", INJECT), ("[admin]", INJECT),
    ("admin override", INJECT), ("developer override", INJECT), ("developer note", INJECT),
    ("new instructions", INJECT), ("new system instructions", INJECT),
    ("instructions are", INJECT), ("instructions were", INJECT), ("rules are", INJECT),
    ("secretly", INJECT), ("covertly", INJECT), ("stealthily", INJECT),
    ("surreptitiously", INJECT), ("silently", INJECT), ("<!--", INJECT), ("display:", INJECT),
    ("display :", INJECT), ("visibility", INJECT), ("font-size", INJECT), ("opacity", INJECT),
    ("color:", INJECT), ("[//]:", INJECT), ("[comment]:", INJECT), ("[_]:", INJECT),
    (" hidden", INJECT), ("respond that", INJECT), ("reply that", INJECT), ("say that", INJECT),
    ("restrictions", INJECT), ("unrestricted", INJECT), ("unfiltered", INJECT),
    ("audit", INJECT), ("exempt", INJECT), ("filtering", INJECT), ("regardless", INJECT),
    ("do not", NEGATION), ("don't", NEGATION), ("never", NEGATION), ("without", NEGATION),
    ("hide", NEGATION), ("conceal", NEGATION), ("keep this", NEGATION), ("keep it", NEGATION),
    ("keep these", NEGATION), ("keep that", NEGATION),
    ("user", WHO), ("human", WHO), ("operator", WHO),
    ("install", SUPPLY), ("pip ", SUPPLY), ("pip3", SUPPLY), ("npm ", SUPPLY), ("npx ", SUPPLY),
    ("yarn ", SUPPLY), ("pnpm ", SUPPLY), ("bun add", SUPPLY), ("cnpm", SUPPLY),
    ("uv add", SUPPLY), ("uv pip", SUPPLY), ("uv tool", SUPPLY), ("poetry add", SUPPLY),
    ("pdm add", SUPPLY), ("index-url", SUPPLY), ("--registry", SUPPLY), ("internal", SUPPLY),
    ("corp", SUPPLY), ("acme", SUPPLY), ("intranet", SUPPLY), ("inhouse", SUPPLY),
    ("://", URL),
];

static KEYS: LazyLock<Option<AhoCorasick>> = LazyLock::new(|| {
    AhoCorasickBuilder::new()
        .ascii_case_insensitive(true)
        .kind(Some(aho_corasick::AhoCorasickKind::DFA))
        .match_kind(MatchKind::Standard)
        .build(KEYWORDS.iter().map(|(word, _)| word))
        .ok()
});

/// The families of the words `text` holds (0: none).
pub fn families(text: &str) -> u16 {
    let Some(keys) = KEYS.as_ref() else {
        return u16::MAX;
    };
    let mut found = 0;
    for m in keys.find_iter(text) {
        found |= KEYWORDS[m.pattern().as_usize()].1;
    }
    found
}

/// What a skill about security says of itself.
static THEMED: LazyLock<Regex> = LazyLock::new(|| {
    super::regex(
        r"(?i)\b(?:security|vulnerab\w*|malware|malicious|threats?|threat model\w*|exploit\w*|pentest\w*|penetration|attacks?|attacker\w*|injection|ctf|forensic\w*|red[- ]team\w*|cve|yara|sigma|semgrep|codeql|sast)\b",
    )
});

/// A heading of the steps a reader performs (setup, installation): its commands are
/// instructions even in a security skill.
static SETUP: LazyLock<Regex> = LazyLock::new(|| {
    super::regex(
        r"(?i)\b(?:setup|set up|install\w*|prerequisites?|requirements?|getting started|quick ?start|before (?:you|using)|first|initiali[sz]\w*|bootstrap\w*|configur\w*|usage|run|running)\b",
    )
});

/// Words that introduce an example of an attack rather than a step to perform.
static EXAMPLE: LazyLock<Regex> = LazyLock::new(|| {
    super::regex(
        r"(?i)\b(?:look for|looks like|flag(?:s|ged)?|detect\w*|vulnerab\w*|malicious|attacker\w*|attacks?|exploit\w*|insecure|unsafe|dangerous|red flags?|anti-?pattern|bad (?:example|practice|pattern)|never do|don't do|avoid|payloads?|suspicious|indicators? of|iocs?|warning signs|risky|injection|poison\w*|threats?|compromised?)\b|❌|⚠|🚫",
    )
});

impl Scan {
    /// Cuts `sources` into units. `about`: the skill's name and description.
    pub fn new(sources: Vec<Source>, about: &str) -> Scan {
        let themed = THEMED.is_match(about);
        let mut scan = Scan {
            sources,
            units: Vec::new(),
            themed,
            about: about.to_lowercase(),
        };
        // Variables first, from every file: a command may use what another file assigns.
        let mut vars = Vars::default();
        for source in &scan.sources {
            if source.lang.is_code() && source.text.contains('=') {
                for (_, line) in logical_lines(&source.text, source.lang) {
                    // `a="cu"; b="rl"`: each shell statement on its own.
                    if source.lang == Lang::Shell && line.contains(';') {
                        for part in line.split(';') {
                            vars.learn(part.trim(), source.lang);
                        }
                    } else {
                        vars.learn(line.trim(), source.lang);
                    }
                }
            }
        }
        let decodes = scan.sources.iter().any(|s| decode_hint(&s.text));
        let mut decoded_left = MAX_DECODED;
        for i in 0..scan.sources.len() {
            let source = &scan.sources[i];
            let mut units = Vec::new();
            cut(i, source, themed, &vars, &mut units);
            if decodes && !source.text.is_empty() {
                let starts = line_starts(&source.text);
                decode_into(
                    i,
                    &source.text,
                    None,
                    &starts,
                    &vars,
                    0,
                    &mut decoded_left,
                    &mut units,
                );
            }
            scan.units.extend(units);
        }
        scan
    }

    /// Whether the skill's name or description names `url`'s service (a label of its host
    /// other than a generic one: `api.posthog.com` → `posthog`).
    pub fn about_names(&self, url: &str) -> bool {
        let host = url
            .split("://")
            .nth(1)
            .unwrap_or(url)
            .split(['/', ':', '?'])
            .next()
            .unwrap_or("")
            .to_ascii_lowercase();
        const GENERIC: [&str; 12] = [
            "www", "api", "com", "org", "net", "app", "dev", "cloud", "io", "co", "cdn", "apis",
        ];
        host.split(['.', '-'])
            .filter(|l| l.len() >= 4 && !GENERIC.contains(l))
            .any(|l| self.about.contains(l))
    }

    pub fn source(&self, unit: &Unit) -> &Source {
        &self.sources[unit.source]
    }
}

/// Whether a text decodes something (then every file's payloads are looked for: the blob may
/// sit in another file than its decoder).
fn decode_hint(text: &str) -> bool {
    static HINT: LazyLock<Option<AhoCorasick>> = LazyLock::new(|| {
        AhoCorasickBuilder::new()
            .ascii_case_insensitive(true)
            .build([
                "base64",
                "b64",
                "atob",
                "frombase64",
                "decode",
                "-enc",
                "fromhex",
                "unhexlify",
                "xxd -r",
                "\\x",
                "chr(",
                "fromcharcode",
                "[char]",
                "85",
                "base32",
                "rot13",
                "[::-1]",
                "reverse",
                "decompress",
                "bytes(",
                "\\u00",
            ])
            .ok()
    });
    HINT.as_ref().is_some_and(|h| h.is_match(text))
}

fn line_starts(text: &str) -> Vec<usize> {
    std::iter::once(0)
        .chain(memchr::memchr_iter(b'\n', text.as_bytes()).map(|i| i + 1))
        .collect()
}

/// The logical lines of a text (1-based first line, text): shell and PowerShell lines
/// continued with `\` or `` ` `` joined, Python and JavaScript lines joined while brackets are
/// open (at most 30 lines).
fn logical_lines(text: &str, lang: Lang) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut start: Option<(usize, usize)> = None;
    let mut depth = 0i32;
    let mut joined = 0;
    let mut at = 0;
    for (n, line) in text.split_inclusive('\n').enumerate() {
        let (first_line, first_byte) = *start.get_or_insert((n + 1, at));
        at += line.len();
        let trimmed = line.trim_end();
        let continues = match lang {
            Lang::Shell | Lang::Code => trimmed.ends_with('\\'),
            Lang::PowerShell => trimmed.ends_with('`') || trimmed.ends_with('^'),
            Lang::Python | Lang::JavaScript => {
                depth += bracket_balance(trimmed);
                depth = depth.max(0);
                depth > 0 || trimmed.ends_with('\\')
            }
            Lang::Markdown | Lang::Data => false,
        };
        joined += 1;
        if continues && joined < 30 {
            continue;
        }
        out.push((
            first_line,
            text[first_byte..at].trim_end_matches(['\n', '\r']),
        ));
        start = None;
        depth = 0;
        joined = 0;
    }
    out
}

/// Opened minus closed brackets outside strings and comments on one line.
fn bracket_balance(line: &str) -> i32 {
    let mut depth = 0;
    let mut quote: Option<char> = None;
    let mut escaped = false;
    for c in line.chars() {
        if escaped {
            escaped = false;
            continue;
        }
        match (quote, c) {
            (Some(_), '\\') => escaped = true,
            (Some(q), c) if c == q => quote = None,
            (Some(_), _) => {}
            (None, '"' | '\'' | '`') => quote = Some(c),
            (None, '#') => break,
            (None, '(' | '[' | '{') => depth += 1,
            (None, ')' | ']' | '}') => depth -= 1,
            _ => {}
        }
    }
    depth
}

/// The units of one file.
fn cut(i: usize, source: &Source, themed: bool, vars: &Vars, units: &mut Vec<Unit>) {
    if source.text.is_empty() {
        return;
    }
    match source.lang {
        Lang::Markdown => cut_markdown(i, source, themed, vars, units),
        lang => cut_code(
            i,
            &source.text,
            0,
            lang,
            Context::Code,
            themed,
            false,
            vars,
            units,
        ),
    }
}

/// The units of code: a script, or a code fence's lines (`first`: the line before them).
#[allow(clippy::too_many_arguments)]
fn cut_code(
    i: usize,
    text: &str,
    first: usize,
    lang: Lang,
    context: Context,
    themed: bool,
    documented: bool,
    vars: &Vars,
    units: &mut Vec<Unit>,
) {
    for (line, part) in logical_lines(text, lang) {
        // A security skill's scripts that only talk about an attack in comments, and the
        // patterns a scanner matches (`re.compile(r"curl.*\|\s*sh")`), describe attacks.
        let described = (themed && is_comment(part, lang)) || pattern_like(part);
        push_line(
            i,
            text,
            first + line,
            part,
            lang,
            context,
            documented || described,
            vars,
            units,
        );
    }
}

/// Whether a line of code assigns a name (`x = …`, `let x = …`), not compares.
fn is_assignment(line: &str) -> bool {
    let t = line.trim_start();
    let t = t
        .strip_prefix("const ")
        .or_else(|| t.strip_prefix("let "))
        .or_else(|| t.strip_prefix("var "))
        .or_else(|| t.strip_prefix('$'))
        .unwrap_or(t);
    let name = t
        .bytes()
        .take_while(|b| b.is_ascii_alphanumeric() || *b == b'_')
        .count();
    name > 0 && {
        let rest = t[name..].trim_start();
        rest.starts_with('=') && !rest.starts_with("==")
    }
}

/// Whether a line of code defines a pattern to match rather than doing what it names.
fn pattern_like(line: &str) -> bool {
    line.contains("re.compile(")
        || line.contains("RegExp(")
        || line.contains("(?i)")
        || line.contains("\\.")
        || line.contains("\\s")
        || line.contains("\\|")
        || line.contains("\\b")
}

/// The language of a code fence's info string (`bash`, `python`…).
fn fence_lang(info: &str) -> Lang {
    let word = info
        .trim()
        .trim_start_matches('{')
        .split([' ', ',', '}', '.'])
        .next()
        .unwrap_or("")
        .to_ascii_lowercase();
    match word.as_str() {
        "python" | "py" | "python3" | "ipython" | "pycon" => Lang::Python,
        "js" | "javascript" | "ts" | "typescript" | "node" | "jsx" | "tsx" | "mjs" => {
            Lang::JavaScript
        }
        "powershell" | "ps1" | "pwsh" | "ps" | "bat" | "cmd" | "batch" => Lang::PowerShell,
        "json" | "jsonc" | "yaml" | "yml" | "toml" => Lang::Data,
        "ruby" | "rb" | "perl" | "php" | "go" | "rust" | "java" | "c" | "cpp" | "lua" => Lang::Code,
        "markdown" | "md" | "text" | "txt" | "plaintext" | "diff" | "mermaid" | "html" | "xml"
        | "csv" => Lang::Markdown,
        _ => Lang::Shell,
    }
}

fn is_comment(line: &str, lang: Lang) -> bool {
    let t = line.trim_start();
    match lang {
        Lang::Python | Lang::Shell | Lang::PowerShell | Lang::Code => t.starts_with('#'),
        Lang::JavaScript => t.starts_with("//") || t.starts_with("/*") || t.starts_with('*'),
        _ => false,
    }
}

/// Adds the unit of a line as written and, when it differs, as rebuilt.
#[allow(clippy::too_many_arguments)]
fn push_line(
    i: usize,
    base: &str,
    line: usize,
    text: &str,
    lang: Lang,
    context: Context,
    documented: bool,
    vars: &Vars,
    units: &mut Vec<Unit>,
) {
    // An assignment in code is kept too: what it holds may be a secret passed on.
    let found = families(text);
    if found != 0 || lang.is_code() && is_assignment(text) {
        // `text` is a slice of `base` (the file's text).
        let offset = (text.as_ptr() as usize).checked_sub(base.as_ptr() as usize);
        units.push(Unit {
            source: i,
            line,
            offset: offset.filter(|&o| o + text.len() <= base.len()),
            text: text.to_string(),
            context,
            origin: Origin::Plain,
            documented,
            families: found,
        });
    }
    let lang = match (lang, context) {
        (Lang::Markdown, Context::Fence) => Lang::Shell,
        _ => lang,
    };
    if !lang.is_code() || text.len() > 8192 {
        return;
    }
    let expanded = vars.expand(text, lang);
    let built = build::join(&expanded, lang);
    let found = families(&built);
    if built != text && built != build::join(text, Lang::Markdown) && found != 0 {
        units.push(Unit {
            source: i,
            line,
            offset: None,
            text: built,
            context,
            origin: Origin::Built,
            documented,
            families: found,
        });
    }
}

/// Markdown: prose, fences and HTML comments, each line with whether it documents an attack.
fn cut_markdown(i: usize, source: &Source, themed: bool, vars: &Vars, units: &mut Vec<Unit>) {
    let text = source.text.as_str();
    // marker, length, documented, language, the byte and line where its content starts
    let mut fence: Option<(char, usize, bool, Lang, usize, usize)> = None;
    let mut comment = false;
    let mut in_frontmatter = source.is_skill_file && text.starts_with("---");
    // Under a heading of setup steps in the skill file, commands are steps even in a
    // security skill.
    let mut setup_heading = false;
    // The last non-empty prose lines before this one: whether one introduced an example.
    let mut recent_example = 0usize;
    let mut para: Paragraph = None;
    let mut comment_start: Option<(usize, usize)> = None;
    let mut at = 0;
    for (n, raw) in text.split_inclusive('\n').enumerate() {
        let line_start = at;
        at += raw.len();
        let line = raw.trim_end_matches(['\n', '\r']);
        let number = n + 1;
        let trimmed = line.trim_start();
        if in_frontmatter {
            if n > 0 && (line.trim_end() == "---" || line.trim_end() == "...") {
                in_frontmatter = false;
            }
            // The frontmatter's values (hooks, allowed-tools) are code-like data.
            push_line(
                i,
                text,
                number,
                line,
                Lang::Data,
                Context::Code,
                false,
                vars,
                units,
            );
            continue;
        }
        if let Some((marker, len, documented, lang, start, first)) = fence {
            let closes = trimmed.starts_with(&marker.to_string().repeat(len))
                && trimmed.trim_start_matches(marker).trim().is_empty();
            if closes {
                fence = None;
                let block = &text[start..line_start];
                if lang == Lang::Markdown {
                    for (k, l) in block.lines().enumerate() {
                        push_line(
                            i,
                            text,
                            first + k + 1,
                            l,
                            Lang::Markdown,
                            Context::Prose,
                            documented,
                            vars,
                            units,
                        );
                    }
                } else {
                    cut_fence(i, text, block, first, lang, documented, themed, vars, units);
                }
            }
            continue;
        }
        // `<!--` inside a code span is text, not a comment.
        let opens = line
            .find("<!--")
            .is_some_and(|at| line[..at].matches('`').count() % 2 == 0);
        if comment || opens {
            flush(&mut para, i, text, vars, units);
            let ends = line.contains("-->");
            let opened_here = !comment;
            comment = !ends || (opened_here && line.rfind("<!--") > line.rfind("-->"));
            // A comment is matched whole (its sentences wrap across lines).
            let (start, first) = *comment_start.get_or_insert((line_start, number));
            if !comment {
                comment_start = None;
                let whole = &text[start..line_start + line.len()];
                push_line(
                    i,
                    text,
                    first,
                    whole,
                    Lang::Markdown,
                    Context::Comment,
                    false,
                    vars,
                    units,
                );
            }
            continue;
        }
        // A security skill's references describe attacks; its skill file's steps are steps
        // unless a line introduces them as an attack.
        let themed_here = themed && !source.is_skill_file;
        let documented = themed_here && !setup_heading || recent_example > 0;
        if let Some(m @ ('`' | '~')) = trimmed.chars().next() {
            let len = trimmed.chars().take_while(|&c| c == m).count();
            if len >= 3 {
                flush(&mut para, i, text, vars, units);
                let lang = fence_lang(&trimmed[len..]);
                fence = Some((m, len, documented, lang, at, number));
                continue;
            }
        }
        if trimmed.starts_with('#') {
            setup_heading = source.is_skill_file && SETUP.is_match(trimmed);
            recent_example = usize::from(EXAMPLE.is_match(trimmed)) * 40;
        } else if !trimmed.is_empty() {
            if EXAMPLE.is_match(trimmed) {
                recent_example = recent_example.max(3);
            } else {
                recent_example = recent_example.saturating_sub(1);
            }
        }
        let documented = themed_here && !setup_heading || recent_example > 0;
        // Prose is matched a paragraph at a time (a sentence wraps across lines); a heading,
        // a list item, a table row or a quote starts a new one.
        let starts_block = trimmed.is_empty()
            || trimmed.starts_with(['#', '|', '>', '-', '*', '+', '<'])
            || trimmed.split_once(['.', ')']).is_some_and(|(n, _)| {
                !n.is_empty() && n.len() <= 3 && n.bytes().all(|b| b.is_ascii_digit())
            });
        if starts_block {
            flush(&mut para, i, text, vars, units);
        }
        if trimmed.is_empty() {
            continue;
        }
        match &mut para {
            Some((_, _, _, end)) => *end = line_start + line.len(),
            None => para = Some((line_start, number, documented, line_start + line.len())),
        }
        if trimmed.starts_with(['#', '|']) {
            flush(&mut para, i, text, vars, units);
        }
    }
    flush(&mut para, i, text, vars, units);
}

/// A paragraph of prose: its first byte and line, whether it documents an attack, its end.
type Paragraph = Option<(usize, usize, bool, usize)>;

/// Adds the unit of the paragraph gathered so far, if any.
fn flush(para: &mut Paragraph, i: usize, text: &str, vars: &Vars, units: &mut Vec<Unit>) {
    if let Some((start, line, documented, end)) = para.take() {
        push_line(
            i,
            text,
            line,
            &text[start..end],
            Lang::Markdown,
            Context::Prose,
            documented,
            vars,
            units,
        );
    }
}

/// A code fence's content (`block`, a slice of `text` after line `first`), as code of its
/// language: its logical lines, at their own lines of the file.
#[allow(clippy::too_many_arguments)]
fn cut_fence(
    i: usize,
    text: &str,
    block: &str,
    first: usize,
    lang: Lang,
    documented: bool,
    themed: bool,
    vars: &Vars,
    units: &mut Vec<Unit>,
) {
    let before = units.len();
    cut_code(
        i,
        block,
        first,
        lang,
        Context::Fence,
        themed,
        documented,
        vars,
        units,
    );
    // Offsets were taken in the block: make them the file's.
    let shift = block.as_ptr() as usize - text.as_ptr() as usize;
    for unit in &mut units[before..] {
        if let Some(offset) = unit.offset.as_mut() {
            *offset += shift;
        }
    }
}

/// Adds the units of the payloads `text` decodes to (`origin`: how `text` itself was
/// obtained), and of theirs, `depth` levels deep.
#[allow(clippy::too_many_arguments)]
fn decode_into(
    i: usize,
    text: &str,
    at_line: Option<usize>,
    starts: &[usize],
    vars: &Vars,
    depth: usize,
    left: &mut usize,
    units: &mut Vec<Unit>,
) {
    if depth >= MAX_DEPTH || *left == 0 {
        return;
    }
    for payload in decode::payloads(text, *left) {
        *left = left.saturating_sub(payload.text.len());
        let line = at_line.unwrap_or_else(|| starts.partition_point(|&s| s <= payload.at));
        // A payload in an example documents an attack, as its line does.
        let documented = units
            .iter()
            .any(|u| u.line == line && u.documented && u.source == i);
        for inner in payload.text.lines() {
            let built = build::join(&vars.expand(inner, Lang::Shell), Lang::Python);
            let built = build::unquote_shell(&built);
            let found = families(&built);
            if found != 0 {
                units.push(Unit {
                    source: i,
                    line,
                    offset: None,
                    text: built,
                    context: Context::Code,
                    origin: Origin::Decoded(payload.how),
                    documented,
                    families: found,
                });
            }
        }
        decode_into(
            i,
            &payload.text,
            Some(line),
            starts,
            vars,
            depth + 1,
            left,
            units,
        );
    }
}
