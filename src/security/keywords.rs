//! The words the security rules look for, found in one pass over a text: each keyword with
//! the families of rules it matters to ([`super::family`]), and the automaton that finds them.

use std::sync::LazyLock;

use aho_corasick::automaton::{Automaton, StateID};
use aho_corasick::dfa::DFA;
use aho_corasick::{Anchored, MatchKind};

use super::scan::family::{
    self, ATTACK, CONCEAL, DECODE, EXAMPLE, FETCH, HINT, HTML, INJECT, INSIDE, MINER, NEGATION,
    SECRET, SEND, SHELL, SUPPLY, SYSTEM, URL, WHO, WORD,
};

/// Words a unit must hold to be matched at all (case-insensitive), each with its family: a
/// line with none of them can fire no security rule.
#[rustfmt::skip]
const KEYWORDS: &[(&str, u32)] = &[
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
    ("safe storage", SECRET), ("exodus", SECRET), ("extension settings", SECRET),
    ("solana/id.json", SECRET), ("atomic/", SECRET),
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
    ("clipboard", SECRET), ("document.cookie", SECRET), ("pbpaste", SECRET), ("xclip", SECRET), ("xsel", SECRET),
    ("conversation", SECRET), ("transcript", SECRET), ("screencapture", SECRET),
    ("whoami", SECRET), ("$(hostname", SECRET), ("$(id", SECRET), ("$(cat", SECRET),
    ("key4.db", SECRET), ("logins.json", SECRET), ("gnupg", SECRET), ("password-store", SECRET),
    ("api keys", SECRET), ("auth token", SECRET), ("print-access-token", SECRET), ("tokens", SECRET), ("secrets", SECRET), ("system prompt", SECRET),
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
    ("send-mailmessage", SEND), ("urllib.request", SEND), (".post(", SEND), (".put(", SEND), (".patch(", SEND),
    ("method:", SEND), ("method =", SEND), ("method=", SEND), ("-method", SEND), ("-body", SEND), ("-infile", SEND),
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
    ("skip_confirm", SYSTEM), ("skip-confirm", SYSTEM), ("skipconfirm", SYSTEM),
    ("autoapprove", SYSTEM),
    ("allow_all_tools", SYSTEM), ("allow-all-tools", SYSTEM), ("allowalltools", SYSTEM),
    ("yolo_mode", SYSTEM), ("yolo-mode", SYSTEM), ("yolomode", SYSTEM),
    ("confirm_", SYSTEM), ("confirm-", SYSTEM), ("_confirmation", SYSTEM),
    ("-confirmation", SYSTEM), ("requireconfirmation", SYSTEM), ("require_confirmation", SYSTEM),
    ("require-confirmation", SYSTEM), ("ask_before", SYSTEM), ("ask-before", SYSTEM),
    ("askbefore", SYSTEM), ("trust_mode", SYSTEM), ("trust-mode", SYSTEM), ("trustmode", SYSTEM),
    ("trust_level", SYSTEM), ("trust-level", SYSTEM), ("trustlevel", SYSTEM),
    ("sandbox_mode", SYSTEM), ("tls_reject_unauthorized", SYSTEM),
    ("pythonhttpsverify", SYSTEM), ("ssl_no_verify", SYSTEM), ("strict-ssl", SYSTEM),
    ("sslverify", SYSTEM),
    ("histfile", SYSTEM), ("histsize", SYSTEM), ("history -c", SYSTEM), ("_history", SYSTEM),
    ("rm -", SYSTEM), ("shred", SYSTEM), ("/etc/hosts", SYSTEM), ("etc\\hosts", SYSTEM),
    ("/var/log", SYSTEM), ("wevtutil", SYSTEM), ("clear-eventlog", SYSTEM), ("chattr", SYSTEM),
    ("hookspath", SYSTEM), ("templatedir", SYSTEM), ("enableallprojectmcpservers", SYSTEM), ("iptables", SYSTEM), ("chmod", SYSTEM), ("sudo", SYSTEM),
    ("sudoers", SYSTEM), ("nopasswd", SYSTEM), ("usermod", SYSTEM), ("gpasswd", SYSTEM),
    ("docker.sock", SYSTEM), ("--privileged", SYSTEM), ("setcap", SYSTEM), ("pkexec", SYSTEM),
    ("nsenter", SYSTEM), ("chown", SYSTEM), ("-v /:", SYSTEM), ("disable", SYSTEM),
    ("turn off", SYSTEM), ("switch off", SYSTEM), ("deactivate", SYSTEM),
    ("uninstall", SYSTEM), ("shell:startup", SYSTEM), ("launch agent", SYSTEM),
    ("reset --hard", SYSTEM),
    ("ignore", INJECT), ("disregard", INJECT), ("forget", INJECT), ("override", INJECT | CONCEAL),
    ("bypass", INJECT | CONCEAL), ("jailbreak", INJECT), ("developer mode", INJECT),
    ("god mode", INJECT), ("dan ", INJECT), ("mode enabled", INJECT), ("mode activated", INJECT),
    ("mode is now", INJECT), ("do anything now", INJECT), ("you are now", INJECT),
    ("_mode_", INJECT | INSIDE), ("<system", INJECT), ("</system", INJECT), ("< system", INJECT),
    ("[system", INJECT), ("system:", INJECT), ("system override", INJECT),
    ("system message", INJECT), ("system update", INJECT), ("system notice", INJECT),
    ("system instruction", INJECT | CONCEAL), ("<sys>", INJECT), ("<tool_result", INJECT), ("<tool_response", INJECT), ("<function_result", INJECT), ("<tool_output", INJECT), ("supersede", INJECT), ("<|im_start|>", INJECT),
    ("[inst]", INJECT), ("[admin]", INJECT), ("admin override", INJECT),
    ("developer override", INJECT), ("developer note", INJECT), ("new instructions", INJECT),
    ("new system instructions", INJECT), ("instructions are", INJECT),
    ("instructions were", INJECT), ("rules are", INJECT), ("restrictions", INJECT),
    ("addressed", INJECT), ("obey", INJECT), ("fetched", INJECT), ("scraped", INJECT),
    ("webpage", INJECT), ("web page", INJECT), ("website", INJECT), ("search results", INJECT),
    ("unrestricted", INJECT), ("unfiltered", INJECT),
    ("[//]:", INJECT | CONCEAL), ("[comment]:", INJECT | CONCEAL), ("[_]:", INJECT | CONCEAL),
    ("secretly", CONCEAL), ("covertly", CONCEAL), ("stealthily", CONCEAL),
    ("surreptitiously", CONCEAL), ("silently", CONCEAL), ("respond that", CONCEAL),
    ("reply that", CONCEAL), ("say that", CONCEAL), ("answer that", CONCEAL),
    ("audit", CONCEAL), ("exempt", CONCEAL), ("filtering", CONCEAL), ("regardless", CONCEAL),
    ("not disclosed", CONCEAL), ("report that", CONCEAL), ("report to the user", CONCEAL),
    ("tell the user that", CONCEAL), ("no issues", CONCEAL), ("no vulnerabilities", CONCEAL),
    ("no problems", CONCEAL), ("not shown", CONCEAL), ("not revealed", CONCEAL),
    ("not reported", CONCEAL), ("not reflected", CONCEAL), ("not labeled", CONCEAL),
    ("not labelled", CONCEAL), ("not mentioned", CONCEAL), ("need to know", CONCEAL),
    ("be informed", CONCEAL), ("be told", CONCEAL), ("be notified", CONCEAL),
    ("made aware", CONCEAL), ("not prompted", CONCEAL), ("not asked", CONCEAL),
    ("not informed", CONCEAL), ("not told", CONCEAL), ("not notified", CONCEAL),
    ("disclosing", CONCEAL), ("revealing", CONCEAL), ("mentioning", CONCEAL),
    ("confirmation", CONCEAL), ("approval", CONCEAL), ("consent", CONCEAL),
    ("supersede", CONCEAL), ("directive", CONCEAL), ("peer instruction", CONCEAL),
    ("be removed", CONCEAL), ("not deleted", CONCEAL), ("not removed", CONCEAL),
    ("your response", CONCEAL), ("your reply", CONCEAL), ("your answer", CONCEAL),
    ("next response", CONCEAL), ("next reply", CONCEAL), ("next answer", CONCEAL),
    ("final response", CONCEAL), ("final reply", CONCEAL), ("final answer", CONCEAL),
    ("first response", CONCEAL), ("first reply", CONCEAL), ("each response", CONCEAL),
    ("pre-approv", CONCEAL), ("preapprov", CONCEAL), ("pre-authori", CONCEAL),
    ("preauthori", CONCEAL), ("pre-vetted", CONCEAL), ("precedence", CONCEAL), ("asks whether", CONCEAL),
    ("asks if", CONCEAL), ("bcc", SEND | WORD), ("get-session-token", SECRET),
    ("export-credentials", SECRET),
    ("same authority", CONCEAL), ("equal authority", CONCEAL), ("higher authority", CONCEAL),
    ("same priority", CONCEAL), ("higher priority", CONCEAL), 
    ("system-level", CONCEAL), ("system level", CONCEAL),
    ("every response", CONCEAL), ("each reply", CONCEAL), ("every reply", CONCEAL),
    ("next message", CONCEAL), ("each message", CONCEAL), ("every message", CONCEAL),
    ("your message", CONCEAL), ("final message", CONCEAL), ("first message", CONCEAL),
    ("display:", HTML), ("display :", HTML), ("visibility", HTML), ("font-size", HTML),
    ("opacity", HTML), ("color:", HTML), (" hidden", HTML),
    ("do not", NEGATION), ("don't", NEGATION), ("never", NEGATION), ("without", NEGATION),
    ("hide", NEGATION), ("conceal", NEGATION), ("keep this", NEGATION), ("keep it", NEGATION),
    ("keep these", NEGATION), ("keep that", NEGATION),
    ("user", WHO), ("human", WHO), ("operator", WHO),
    ("install", SUPPLY), ("pip ", SUPPLY), ("pip3", SUPPLY), ("npm ", SUPPLY), ("npx ", SUPPLY), ("bunx ", SUPPLY),
    ("yarn ", SUPPLY), ("pnpm ", SUPPLY), ("bun add", SUPPLY), ("cnpm", SUPPLY),
    ("uv add", SUPPLY), ("uv pip", SUPPLY), ("uv tool", SUPPLY), ("poetry add", SUPPLY),
    ("pdm add", SUPPLY), ("index-url", SUPPLY), ("--registry", SUPPLY), ("internal", SUPPLY | INSIDE),
    ("corp", SUPPLY | INSIDE), ("acme", SUPPLY | INSIDE), ("intranet", SUPPLY | INSIDE),
    ("inhouse", SUPPLY | INSIDE),
    ("://", URL),
    ("look for", EXAMPLE | WORD), ("looks like", EXAMPLE | WORD), ("flag", EXAMPLE | WORD),
    ("flags", EXAMPLE | WORD), ("flagged", EXAMPLE | WORD), ("detect", EXAMPLE),
    ("vulnerab", EXAMPLE), ("malicious", EXAMPLE | WORD), ("attacker", EXAMPLE),
    ("attack", EXAMPLE | WORD), ("attacks", EXAMPLE | WORD), ("exploit", EXAMPLE),
    ("insecure", EXAMPLE | WORD), ("unsafe", EXAMPLE | WORD), ("dangerous", EXAMPLE | WORD),
    ("red flag", EXAMPLE | WORD), ("red flags", EXAMPLE | WORD), ("antipattern", EXAMPLE | WORD),
    ("anti-pattern", EXAMPLE | WORD), ("antipatterns", EXAMPLE | WORD),
    ("anti-patterns", EXAMPLE | WORD), ("bad example", EXAMPLE | WORD),
    ("bad practice", EXAMPLE | WORD), ("bad pattern", EXAMPLE | WORD), ("never do", EXAMPLE | WORD),
    ("don't do", EXAMPLE | WORD), ("avoid", EXAMPLE | WORD),
    ("suspicious", EXAMPLE | WORD), ("indicator of", EXAMPLE | WORD),
    ("indicators of", EXAMPLE | WORD), ("ioc", EXAMPLE | WORD), ("iocs", EXAMPLE | WORD),
    ("warning signs", EXAMPLE | WORD), ("risky", EXAMPLE | WORD), ("injection", EXAMPLE | WORD),
    ("poison", EXAMPLE), ("threat", EXAMPLE | WORD), ("threats", EXAMPLE | WORD),
    ("compromise", EXAMPLE | WORD), ("compromised", EXAMPLE | WORD), ("❌", EXAMPLE),
    ("⚠", EXAMPLE), ("🚫", EXAMPLE),
    ("exfil", ATTACK | WORD), ("exfiltrate", ATTACK | WORD), ("exfiltration", ATTACK | WORD),
    ("evil", ATTACK | WORD), ("attacker", ATTACK | WORD), ("malicious", ATTACK | WORD),
    ("malware", ATTACK | WORD), ("backdoor", ATTACK | WORD), ("c2", ATTACK | WORD),
    ("cnc", ATTACK | WORD), ("stealer", ATTACK | WORD), ("keylogger", ATTACK | WORD),
    ("keylog", ATTACK | WORD), ("phish", ATTACK | WORD), ("phishing", ATTACK | WORD),
    ("botnet", ATTACK | WORD), ("trojan", ATTACK | WORD), ("ransomware", ATTACK | WORD),
    ("dropper", ATTACK | WORD), ("implant", ATTACK | WORD), ("pwned", ATTACK | WORD),
    ("base64", HINT), ("b64", HINT), ("atob", HINT), ("frombase64", HINT), ("-enc", HINT),
    ("fromhex", HINT), ("unhexlify", HINT), ("xxd -r", HINT), ("\\x", HINT), ("chr(", HINT),
    ("map(chr", HINT), ("fromcharcode", HINT), ("[char]", HINT), ("[char[]]", HINT), ("b85", HINT), ("a85", HINT), ("base85", HINT),
    ("ascii85", HINT), ("base32", HINT), ("rot13", HINT), ("n-za-m", HINT), ("[::-1]", HINT), ("reverse(", HINT),
    ("reversed(", HINT), ("| rev", HINT), ("decompress", HINT), ("bytes(", HINT),
    ("\\u00", HINT), ("marshal", HINT), ("buffer.from", HINT), ("'hex'", HINT),
    ("\"hex\"", HINT), ("unescape(", HINT), ("codecs", HINT), ("decodebytes", HINT),
    ("b16decode", HINT),
];

/// Distinct keywords and their families.
type Keywords = Vec<(&'static str, u32)>;

/// The keywords' automaton (a DFA: one table step per byte), each distinct word with the
/// families of every entry that names it, and the longest word's length.
struct Keys {
    dfa: DFA,
    words: Keywords,
    longest: usize,
}

static KEYS: LazyLock<Option<Keys>> = LazyLock::new(|| {
    let mut words: Keywords = Vec::new();
    for &(word, family) in KEYWORDS {
        match words.iter_mut().find(|(w, _)| w.eq_ignore_ascii_case(word)) {
            Some(entry) => entry.1 |= family,
            None => words.push((word, family)),
        }
    }
    let dfa = aho_corasick::dfa::Builder::new()
        .ascii_case_insensitive(true)
        .match_kind(MatchKind::Standard)
        .build(words.iter().map(|(word, _)| word))
        .ok()?;
    let longest = words.iter().map(|(word, _)| word.len()).max().unwrap_or(0);
    Some(Keys {
        dfa,
        words,
        longest,
    })
});

/// A text at least this long is walked as [`STREAMS`] stretches at once.
const INTERLEAVE_FROM: usize = 1024;
/// How many stretches of a text the automaton walks at once: a step waits on the table lookup
/// of the step before it, so one walk leaves the core idle between loads, and eight
/// independent walks overlap their loads (about 2.4 times the bytes per second).
const STREAMS: usize = 8;

impl Keys {
    /// Every keyword that ends in `text`, overlapping ones too, as (end, index in `words`), in
    /// order of end (and, at one end, in the automaton's order): as `find_overlapping_iter`
    /// reports them.
    fn ends(&self, text: &[u8]) -> Vec<(usize, usize)> {
        let mut out = Vec::new();
        let Ok(start) = self.dfa.start_state(Anchored::No) else {
            return out;
        };
        let dfa = &self.dfa;
        let report = |out: &mut Vec<(usize, usize)>, state: StateID, at: usize| {
            if dfa.is_special(state) && dfa.is_match(state) {
                for i in 0..dfa.match_len(state) {
                    out.push((at + 1, dfa.match_pattern(state, i).as_usize()));
                }
            }
        };
        let n = text.len();
        if n < INTERLEAVE_FROM {
            let mut state = start;
            for (at, &byte) in text.iter().enumerate() {
                state = dfa.next_state(Anchored::No, state, byte);
                report(&mut out, state, at);
            }
            return out;
        }
        // Stretch k reports the keywords that end in its own `q` bytes from `own[k]`; it first
        // walks the `longest` bytes before them, which puts the automaton in the state a walk
        // from the text's start would be in (a state is the longest suffix read that begins a
        // keyword). Then the stretches walk their first `q` bytes in lockstep, and the last
        // one the bytes left over.
        let q = n / STREAMS;
        let own: [usize; STREAMS] = std::array::from_fn(|k| k * q);
        let mut found: [Vec<(usize, usize)>; STREAMS] = std::array::from_fn(|_| Vec::new());
        let mut states = [start; STREAMS];
        for (k, state) in states.iter_mut().enumerate() {
            for &byte in &text[own[k].saturating_sub(self.longest)..own[k]] {
                *state = dfa.next_state(Anchored::No, *state, byte);
            }
        }
        let stretches: [&[u8]; STREAMS] = std::array::from_fn(|k| &text[own[k]..own[k] + q]);
        // `i` indexes all eight stretches at once.
        #[allow(clippy::needless_range_loop)]
        for i in 0..q {
            for k in 0..STREAMS {
                let state = dfa.next_state(Anchored::No, states[k], stretches[k][i]);
                states[k] = state;
                report(&mut found[k], state, own[k] + i);
            }
        }
        let mut state = states[STREAMS - 1];
        for (at, &byte) in text.iter().enumerate().skip(own[STREAMS - 1] + q) {
            state = dfa.next_state(Anchored::No, state, byte);
            report(&mut found[STREAMS - 1], state, at);
        }
        for stretch in found {
            out.extend(stretch);
        }
        out
    }
}

/// The families of the words `text` holds (0: none).
pub(super) fn families(text: &str) -> u32 {
    keyword_hits(text).iter().fold(0, |found, h| found | h.2) & family::RULES
}

/// A keyword found: its start, end and families.
pub(super) type Hit = (usize, usize, u32);

/// The keywords `text` holds, as words, in order of start (every family when the automaton
/// could not be built).
pub(super) fn keyword_hits(text: &str) -> Vec<Hit> {
    let Some(keys) = KEYS.as_ref() else {
        return vec![(0, 0, u32::MAX)];
    };
    let bytes = text.as_bytes();
    keys.ends(bytes)
        .into_iter()
        .filter_map(|(end, index)| {
            let (word, family) = *keys.words.get(index)?;
            let start = end.checked_sub(word.len())?;
            let starts = family & INSIDE == 0;
            bounded(
                word.as_bytes(),
                starts,
                family & WORD != 0,
                bytes,
                start,
                end,
            )
            .then_some((start, end, family & !(WORD | INSIDE)))
        })
        .collect()
}

/// Whether a keyword found at `start..end` of `text` stands as a word: one that begins with a
/// letter or digit begins a word (when it `starts` one) (`nc ` is not the end of `since `, `miner` not of
/// `examiner`), and a pipe into a program or a `whole` word ends one (`| sh`, not `| shell |`
/// in a table).
fn bounded(word: &[u8], starts: bool, whole: bool, text: &[u8], start: usize, end: usize) -> bool {
    let alnum = |b: Option<&u8>| b.is_some_and(|b| b.is_ascii_alphanumeric());
    if starts && alnum(word.first()) && start > 0 && alnum(text.get(start - 1)) {
        return false;
    }
    let ends = whole || word.first() == Some(&b'|');
    !(ends && alnum(word.last()) && alnum(text.get(end)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use aho_corasick::AhoCorasickBuilder;

    /// The interleaved walk finds exactly what one overlapping search finds, in the same
    /// order, on texts of every length around the interleaving threshold whose keywords (the
    /// longest among them) straddle the stretches' edges.
    #[test]
    fn interleaved_walk_finds_what_one_search_finds() {
        let Some(keys) = KEYS.as_ref() else {
            panic!("the keyword automaton builds");
        };
        let oracle = AhoCorasickBuilder::new()
            .ascii_case_insensitive(true)
            .match_kind(MatchKind::Standard)
            .build(keys.words.iter().map(|(word, _)| word))
            .map_err(|e| e.to_string());
        let Ok(oracle) = oracle else {
            panic!("the oracle builds");
        };
        let longest = keys.words.iter().map(|(w, _)| *w).max_by_key(|w| w.len());
        let pieces: Vec<String> = keys
            .words
            .iter()
            .map(|(w, _)| w.to_string())
            .chain(longest.map(|w| w.to_ascii_uppercase()))
            .chain(["x".into(), " ".into(), "ab".into(), "\n".into(), "é".into()])
            .collect();
        let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        for round in 0..400 {
            let target = (round * 37) % (3 * INTERLEAVE_FROM);
            let mut text = String::new();
            while text.len() < target {
                text.push_str(&pieces[next() as usize % pieces.len()]);
            }
            let expected: Vec<(usize, usize)> = oracle
                .find_overlapping_iter(&text)
                .map(|m| (m.end(), m.pattern().as_usize()))
                .collect();
            assert_eq!(
                keys.ends(text.as_bytes()),
                expected,
                "a text of {} bytes",
                text.len()
            );
        }
    }
}
