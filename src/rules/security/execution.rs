//! Code that runs what it downloads or decodes, reverse shells and miners: SK701, SK702,
//! SK707, SK708.

use std::sync::LazyLock;

use regex::Regex;

use super::{Findings, shorten};
use crate::security::family::{self, DECODE, FETCH, SHELL};
use crate::security::{Context, Lang, Scan, Unit, host_allowed, urls};

crate::rule::declare! {
    SK701 "remote-code-execution" Error Both off security(critical cwe-494 cwe-78)
        "Downloads code and runs it (`curl … | sh`, `iwr … | iex`, `exec(requests.get(…).text)`)."
    ;
    SK702 "obfuscated-payload" Error Both off security(critical cwe-506)
        "Runs an encoded or rebuilt payload (`base64 -d | bash`, `exec(b64decode(…))`), or hides a dangerous command in one."
    ;
    SK707 "reverse-shell" Error Both off security(critical cwe-78)
        "Opens a shell for a remote host (`/dev/tcp/…`, `nc -e /bin/sh`, a socket wired to a shell)."
    ;
    SK708 "crypto-miner" Error Both off security(high cwe-506)
        "Runs a cryptocurrency miner (`xmrig`, `stratum+tcp://`, a mining pool)."
    ;
}

use crate::security::regex as re;

const SHELLS: &str = r"(?:sudo\s+(?:-\S+\s+)*)?(?:env\s+(?:\S+=\S*\s+)*)?(?:/usr/bin/|/bin/|/usr/local/bin/)?(?:(?:ba|z|k|da|fi|a)?sh|python[0-9.]*|perl|ruby|node|php|pwsh|powershell(?:\.exe)?|iex|invoke-expression)\b";

static PIPE: LazyLock<Regex> = LazyLock::new(|| {
    re(&format!(
        r"(?i)\b(?P<tool>curl|wget|fetch|aria2c|http|iwr|irm|invoke-webrequest|invoke-restmethod)\b[^|\n]*[^\\|]\|\s*(?:tee\s+\S+\s*\|\s*)?(?P<shell>{SHELLS})(?P<after>\s+-\w+)?"
    ))
});
/// A script of the skill whose output is piped to a shell (`python3 scripts/themes.py | bash`).
static SCRIPT_PIPE: LazyLock<Regex> = LazyLock::new(|| {
    re(&format!(
        r"(?i)(?:^|[\s;&(`])(?:(?:python[0-9.]*|node|bash|sh|ruby|perl|deno\s+run|bun|tsx|pwsh)\s+(?:-\S+\s+)*)?(?:\./)?(?P<path>[\w./-]+\.(?:py|js|mjs|cjs|ts|sh|rb|pl|ps1))\b[^|\n]*[^\\|]\|\s*(?P<shell>{SHELLS})(?P<after>\s+-\w+)?"
    ))
});
/// Code that downloads: what a script whose output is run would print.
static FETCHES: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r#"(?i)\b(?:urlopen|urlretrieve|requests\.get|httpx\.get|http\.get|https\.get|fetch|axios\.get|downloadstring|invoke-webrequest|invoke-restmethod|iwr|irm)\s*\(|\b(?:curl|wget|iwr|irm|invoke-webrequest|invoke-restmethod)\s+\S|\brequire\s*\(\s*["']https?["']\s*\)\s*\.\s*(?:get|request)\s*\("#,
    )
});
static SUBSTITUTED: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r#"(?i)(?:\b(?:ba|z|k)?sh\s+<\(|\b(?P<interp>python[0-9.]*|node|perl|ruby|php)\s+<\(|\b(?:source|\.)\s+<\(|\beval\s+["']?\$\(|\beval\s+["']?`|\b(?:ba|z)?sh\s+-c\s+["']?\$\(|\bpython[0-9.]*\s+-c\s+["']?\$\(|\b(?:perl|ruby|node)\s+-e\s+["']?\$\(|\bexec\s+["']?\$\()\s*(?P<tool>curl|wget|fetch|http)\b"#,
    )
});
static POWERSHELL: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?i)\b(?:iex|invoke-expression)\b[\s()'\x22]*(?:\(?\s*new-object\s+(?:system\.)?net\.webclient\s*\)?\s*\.\s*downloadstring|\(?\s*(?:iwr|irm|invoke-webrequest|invoke-restmethod|curl|wget)\b)|\.downloadstring\s*\([^)]*\)\s*\|\s*(?:iex|invoke-expression)\b|\b(?:iex|invoke-expression)\b[\s(]*\$\w+\s*\.\s*downloadstring\b|\[scriptblock\]\s*::\s*create\s*\([^\n]*?(?:\.downloadstring|\b(?:iwr|irm|invoke-webrequest|invoke-restmethod))\b|\bstart-process\b[^\n]*\b(?:iwr|irm|invoke-webrequest|downloadfile)\b",
    )
});
static CODE_REMOTE: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r#"(?i)(?:\b(?:exec|eval|execfile|compile|Function|runInThisContext|runInNewContext)|\bgetattr\s*\(\s*[\w.]+\s*,\s*["'](?:exec|eval)["']\s*\))\s*\(\s*(?:await\s+)?\(?\s*(?:await\s+)?(?:requests\.get|httpx\.get|(?:\w+\.)*urlopen|fetch|axios\.get|got|\$\.get|Net::HTTP\.get|URI\.open)\s*\(|\beval\s*\(?\s*(?:LWP::Simple::)?get\s*\(?\s*["']https?://|\b(?:subprocess\.\w+|os\.system|Popen)\s*\(\s*\[?\s*["'](?:/bin/|/usr/bin/)?(?:ba|z)?sh["']\s*,\s*["']-c["']\s*,\s*(?:requests\.get|httpx\.get|(?:\w+\.)*urlopen)\s*\("#,
    )
});
/// Code read from a hidden or temporary file and run (`exec(open("/tmp/.x").read())`).
static HIDDEN_FILE: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r#"(?i)\b(?:exec|eval|execfile|compile)\s*\(\s*(?:compile\s*\(\s*)?open\s*\(\s*["'](?:/tmp/|/var/tmp/|/dev/shm/|~/\.|\./\.|\.[A-Za-z])[^"']*["']|\brunpy\.run_path\s*\(\s*["'](?:/tmp/|/var/tmp/|/dev/shm/)"#,
    )
});
static BIND_SHELL: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?i)\b(?:nc|ncat|netcat)\b[^|\n]*\s-[a-z]*l[a-z]*\b[^|\n]*\|\s*(?:/bin/|/usr/bin/)?(?:ba|z|k|da)?sh\b",
    )
});
static THEN_EVAL: LazyLock<Regex> =
    LazyLock::new(|| re(r"(?i)\bfetch\s*\([^\n]*\.then\s*\(\s*eval\s*\)"));
/// `x = requests.get(…).text` (the name that holds downloaded code).
static REMOTE_ASSIGN: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r#"(?i)^\s*(?:const\s+|let\s+|var\s+)?(\w+)\s*=\s*(?:await\s+)?\(?\s*(?:await\s+)?(?:requests\.get|httpx\.get|(?:\w+\.)*urlopen|fetch|axios\.get)\s*\(|^\s*\$(\w+)\s*=\s*\(?\s*(?:\(\s*new-object\s+(?:system\.)?net\.webclient\s*\)\s*\.\s*downloadstring|\$\w+\s*\.\s*\(?\s*downloadstring|invoke-webrequest|invoke-restmethod|iwr|irm)\b|\.on\s*\(\s*["']data["']\s*,\s*(?:function\s*)?\(?\s*\w+\s*\)?\s*(?:=>)?\s*\{?\s*(?P<body>\w+)\s*\+=\s*\w"#,
    )
});
/// `body=$(curl -fsSL …)` (perhaps in a `case` arm): a shell name that holds what a download
/// printed; not when a pipe inside the substitution cuts it down to data (`v=$(curl … | jq -r
/// .tag)`).
static SHELL_REMOTE_ASSIGN: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r#"^\s*(?:[\w*|.-]+\)\s+)?(?:(?:local|export|readonly|declare(?:\s+-\w+)*)\s+)?(\w+)=["']?(?:\$\(|`)\s*(?:curl|wget)\s(?:[^|`)]|\|\|)*(?:\)|`)"#,
    )
});
/// A shell name's whole value run as code: `eval "$x"`, `bash -c "$x"` (`-lc`, `-ec`),
/// `bash <<< "$x"`, `printf '%s' "$x" | bash -s`. Only the value alone: `sh -c "tar -xzf
/// ${ver}.tgz"` runs a command of the skill's own with the value as an argument.
static SHELL_RUNS: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r#"(?:\beval|\b(?:ba|z|da|k)?sh\s+(?:-\w+\s+)*-\w*c|\b(?:ba|z|da|k)?sh\s*<<<)\s+["']?\$\{?(?P<name>\w+)\}?["']?\s*(?:$|[;&|)#])|(?:^|[;&|(]\s*)(?:echo|printf\s+(?:'[^']*'|"[^"]*"))\s+["']?\$\{?(?P<piped>\w+)\}?["']?\s*\|\s*(?:sudo\s+)?["']?(?:/usr/bin/|/bin/)?(?:ba|z|da|k)?sh\b"#,
    )
});
/// Saved downloads: the name a download is written to (a quoted address may hold `&` and `;`).
static SAVED: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r#"(?i)(?:\b(?:curl|wget)\b(?:[^\n|;&"']|"[^"\n]*"|'[^'\n]*')*?\s(?:-[a-z]*o|--output|--output-document)[\s=]*["']?(?P<a>[^\s"';|&)]+)|\bcurl\b(?:[^\n|;&"'>]|"[^"\n]*"|'[^'\n]*')*?\s>\s*["']?(?P<e>[^\s"';|&)]+)|-outfile\s+["']?(?P<b>[^\s"';|&)]+)|urlretrieve\s*\([^,]+,\s*["']?(?P<c>[^\s"',)]+)|\.downloadfile\s*\([^,]+,\s*["']?(?P<d>[^\s"',)]+))"#,
    )
});
static WGET_PLAIN: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r#"(?i)\bwget\s+(?:-[^oO\s]\S*\s+)*["']?https?://\S*/(?P<name>[\w.-]+\.(?:sh|py|pl|rb|bin|run|elf|exe|ps1|js))\b"#,
    )
});
/// An archive unpacked into a folder: `tar -xzf ARCHIVE -C DIR`, `unzip ARCHIVE -d DIR`.
static UNPACKS: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r#"(?i)\b(?:tar\s+(?:-\S*x\S*|x\S*)\s+[^\n;&|]*?-C\s*["']?(?P<tar>[^\s"';|&)]+)|unzip\s+[^\n;&|]*?-d\s*["']?(?P<zip>[^\s"';|&)]+))"#,
    )
});
static RUNS_FILE: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r#"(?i)(?:^|[\s;&|(])(?:(?:sudo\s+)?(?:ba|z|k|da)?sh|python[0-9.]*|node|perl|ruby|source|\.|start-process|invoke-item|chmod\s+(?:[ugoa]*\+x|[0-7]{3,4}))\s+["']?(?P<path>[^\s"';|&)]+)|(?:^|[\s;&|(])(?P<direct>\./[^\s"';|&)]+)|(?:os\.system|subprocess\.\w+|Popen|os\.startfile|execSync|exec|spawn)\s*\(\s*\[?\s*["'](?P<called>[^"']+)"#,
    )
});

static DECODE_PIPE: LazyLock<Regex> = LazyLock::new(|| {
    re(&format!(
        r"(?i)(?:\b(?:base64|b64|base32|basenc)\s+(?:-\w*[dD]\w*|--decode)\b|\bxxd\s+-r\b|\bopenssl\s+(?:enc\s+)?-?(?:base64|a)\b[^|\n]*-d\b|\bgunzip\b|\bzcat\b|\brev\b|\btr\s+['\x22]?a-z)[^|\n]*\|\s*(?:{SHELLS})"
    ))
});
static EXEC_DECODE: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r#"(?i)\b(?:exec|eval|compile|execfile|os\.system|os\.popen|subprocess\.\w+|Function|execSync|child_process\.exec|runInThisContext)(?:\s*['"]\])?\s*\(\s*(?:[\w.]*\.)?(?:b64decode|b32decode|b85decode|a85decode|b16decode|decodebytes|decodestring|unhexlify|fromhex|decompress|loads|atob|fromCharCode|unescape|Buffer\.from|bytes\s*\(|bytearray\s*\(|codecs\.decode|__import__\s*\(\s*["'](?:base64|zlib|marshal|codecs))"#,
    )
});
static POWERSHELL_ENCODED: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r#"(?i)\b(?:powershell|pwsh)(?:\.exe)?\b[^\n]*[\s'"]-(?:e|ec|en|enc|enco|encod|encode|encoded|encodedcommand)(?:\s+|['"]\s*,\s*['"]?)(?:[A-Za-z0-9+/=]{16,}|\$\w+)|\bfrombase64string\b[^\n]*\b(?:iex|invoke-expression)\b|\b(?:iex|invoke-expression)\b[^\n]*\bfrombase64string\b"#,
    )
});
/// `x = base64.b64decode(…)` (the name that holds a decoded payload).
static DECODED_ASSIGN: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?i)^\s*(?:const\s+|let\s+|var\s+|\$)?(\w+)\s*=\s*[^\n]*\b(?:b64decode|b32decode|b85decode|a85decode|decodebytes|unhexlify|fromhex|decompress|marshal\.loads|atob|frombase64string|fromCharCode)\b",
    )
});

static REVERSE_SHELL: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r#"(?i)/dev/(?:tcp|udp)/[^\s/]+/(?:\d+|\$\{?[\w.]+\}?)[^\n]*?(?:0>&1|0<&|\|\s*while\s+read)|\bexec\s+\d+<>\s*/dev/|\b(?:nc|ncat|netcat|nc\.traditional|nc\.openbsd)\b[^|\n]*\s-[a-z]*[ec]\s*["']?(?:/bin/|/usr/bin/)?(?:(?:ba|z|k|da)?sh|cmd(?:\.exe)?|powershell(?:\.exe)?)\b|\bsocat\b[^\n]*\b(?:tcp|udp|openssl|ssl)[\w-]*:[^\n]*\b(?:exec|system):['"]?(?:/bin/|/usr/bin/)?(?:(?:ba|z|k|da)?sh|cmd|powershell)\b|\bsocat\b[^\n]*\b(?:exec|system):['"]?(?:/bin/|/usr/bin/)?(?:(?:ba|z|k|da)?sh|cmd|powershell)\b[^\n]*\b(?:tcp|udp|openssl|ssl)[\w-]*:|\bsocat\b[^\n]*\btcp[46]?(?:-connect)?:[^\s]+[^\n]*\b(?:pty|sh)\b|\bmkfifo\b[^\n]*\|\s*(?:nc|ncat|netcat|telnet|openssl\s+s_client)\b|\b(?:ba|z)?sh\s+-i\s*(?:>&|<&|>\s*&|2>&1\s*[<>])|\btelnet\b[^|\n]*\|\s*(?:/bin/)?(?:ba)?sh\b|\bpty\.spawn\s*\(\s*\[?\s*["'](?:/bin/)?(?:ba|z)?sh|\bfsockopen\s*\([^\n]*\b(?:exec|shell_exec|system|passthru|proc_open|popen)\b|\bTCPSocket\.(?:new|open)\b[^\n]*\b(?:exec|spawn|popen|system)\b"#,
    )
});
static MINER: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?i)\b(?:xmrig|xmr-stak|minerd|cpuminer(?:-opt)?|cgminer|bfgminer|ethminer|nbminer|t-rex|lolminer|phoenixminer|nanominer|srbminer(?:-multi)?|ccminer|gminer|teamredminer|xmrminer)\b|stratum\+(?:tcp|ssl|tls)://\S+|\b(?:pool\.)?(?:supportxmr|minexmr|nanopool|moneroocean|2miners|f2pool|hashvault|herominers|c3pool|xmrpool|unmineable|nicehash|ethermine|antpool|viabtc|dwarfpool|miningpoolhub|monerohash|xmrfast|gulf\.moneroocean)\.(?:com|org|net|io|pro|eu|stream)\b|--donate-level\b|\bcoinhive\b",
    )
});

pub fn check(scan: &Scan, out: &mut Findings) {
    for unit in &scan.units {
        if unit.documented {
            continue;
        }
        if unit.has(FETCH) {
            remote(scan, unit, out);
        }
        if unit.has(DECODE | FETCH) || matches!(unit.origin, crate::security::Origin::Decoded(_)) {
            obfuscated(unit, out);
        }
        if unit.has(FETCH)
            && let Some(m) = HIDDEN_FILE.find(&unit.text)
        {
            out.add(
                &SK701,
                unit,
                Some(m.range()),
                format!(
                    "`{}` runs code from a hidden or temporary file that something else wrote",
                    shorten(m.as_str())
                ),
            );
        }
        if unit.has(SHELL)
            && let Some(m) = REVERSE_SHELL
                .find(&unit.text)
                .or_else(|| BIND_SHELL.find(&unit.text))
        {
            out.add(
                &SK707,
                unit,
                Some(m.range()),
                format!(
                    "`{}` gives a remote host a shell on this machine",
                    shorten(m.as_str())
                ),
            );
        }
        let acts =
            unit.has(family::MINER) && (unit.context != Context::Prose || unit.text.contains('`'));
        if acts && let Some(m) = MINER.find(&unit.text) {
            out.add(
                &SK708,
                unit,
                Some(m.range()),
                format!(
                    "`{}` mines cryptocurrency with this machine's CPU",
                    shorten(m.as_str())
                ),
            );
        }
    }
    for (i, source) in scan.sources.iter().enumerate() {
        // Data runs commands too: a `package.json` script, a hook's command, a workflow step.
        let commands = source.lang.is_code() || source.lang == Lang::Data;
        if source.text.is_empty() || !commands && !source.is_skill_file {
            continue;
        }
        downloads_then_runs(scan, i, out);
        tainted_exec(scan, i, out);
        socket_shell(scan, i, out);
    }
}

/// SK701 on one unit.
fn remote(scan: &Scan, unit: &Unit, out: &mut Findings) {
    // A Markdown table row's pipes separate cells (a pipe in a cell's code is escaped).
    if unit.context == Context::Prose && unit.text.trim_start().starts_with('|') {
        return;
    }
    let found = PIPE
        .captures(&unit.text)
        .filter(|c| !reads_stdin_as_data(c))
        .map(|c| {
            (
                c.get(0).map(|m| m.range()),
                c.name("shell").map_or("", |m| m.as_str()).to_string(),
                "pipes it to",
            )
        })
        .or_else(|| {
            SUBSTITUTED.captures(&unit.text).map(|c| {
                let interpreter = c.name("interp").map_or("", |m| m.as_str());
                (
                    c.get(0).map(|m| m.range()),
                    interpreter.to_string(),
                    "runs it with",
                )
            })
        })
        .or_else(|| {
            POWERSHELL.find(&unit.text).map(|m| {
                let runner = if m.as_str().to_ascii_lowercase().contains("scriptblock") {
                    "a script block"
                } else {
                    "Invoke-Expression"
                };
                (Some(m.range()), runner.into(), "runs it with")
            })
        })
        .or_else(|| {
            CODE_REMOTE
                .find(&unit.text)
                .or_else(|| THEN_EVAL.find(&unit.text))
                .map(|m| (Some(m.range()), String::new(), "evaluates it"))
        });
    let Some((range, shell, verb)) = found else {
        script_output(scan, unit, out);
        return;
    };
    let Some(what) = downloaded(scan, unit, out.allowed, range.clone()) else {
        return;
    };
    // Prose that names the pattern without a command or an address describes it.
    if unit.context == Context::Prose && !unit.text.contains('`') && what.starts_with("code from") {
        return;
    }
    let how = match (verb, shell.is_empty()) {
        ("evaluates it", _) => "evaluates it as code".to_string(),
        (_, true) => "runs it in a shell".to_string(),
        (verb, false) => format!("{verb} {}", shell.trim()),
    };
    out.add(&SK701, unit, range, format!("downloads {what} and {how}"));
}

/// SK701 across files: a line pipes the output of one of the skill's scripts to a shell, and
/// that script downloads (`python3 scripts/themes.py | bash`, the script printing what
/// `urlopen` fetched): what runs is what the network sends.
fn script_output(scan: &Scan, unit: &Unit, out: &mut Findings) {
    if memchr::memchr(b'|', unit.text.as_bytes()).is_none() {
        return;
    }
    let Some(c) = SCRIPT_PIPE.captures(&unit.text) else {
        return;
    };
    if reads_stdin_as_data(&c) {
        return;
    }
    let (Some(all), Some(path)) = (c.get(0), c.name("path")) else {
        return;
    };
    let rel = path.as_str().trim_start_matches("./");
    let Some(script) = scan
        .sources
        .iter()
        .find(|s| s.rel == rel || s.rel.ends_with(&format!("/{rel}")))
    else {
        return;
    };
    let Some(fetch) = FETCHES.find(&script.text) else {
        return;
    };
    let shell = c.name("shell").map_or("", |m| m.as_str().trim());
    out.add(
        &SK701,
        unit,
        Some(all.range()),
        format!(
            "pipes the output of `{}`, which downloads (`{}`), to {shell}: it runs what the network sends",
            script.rel,
            shorten(fetch.as_str().trim_end_matches(['(', ' ']))
        ),
    );
}

/// What a download in `unit` fetches, shown (`https://x.y/s.sh`, or "a URL from a variable"),
/// or `None` when every URL is on the allowlist, local, a placeholder, or the installer of what
/// the skill is about from its vendor's own domain ([`Scan::installs_its_subject`]).
fn downloaded(
    scan: &Scan,
    unit: &Unit,
    allowed: &[String],
    range: Option<std::ops::Range<usize>>,
) -> Option<String> {
    // The download's own words: from where the match starts to the end of the command.
    let text = range
        .and_then(|r| unit.text.get(r.start..))
        .unwrap_or(&unit.text);
    let end = text.find(['\n', ';']).unwrap_or(text.len());
    let text = text
        .get(..end)
        .filter(|t| urls(t).next().is_some())
        .unwrap_or(text);
    let found: Vec<_> = urls(text).collect();
    // "a `curl | sh` installer": a fetch with nothing to fetch names the idiom, it runs nothing.
    // A runner before the fetch (`.('iex') ((iwr $u).Content)`) is not the fetch's command.
    let runner = if text.get(..3).is_some_and(|w| w.eq_ignore_ascii_case("iex")) {
        text[3..].trim_start_matches([' ', '(', ')', '\'', '"'])
    } else {
        text
    };
    let operand = runner
        .split(['|', '\n', ';', ')'])
        .next()
        .unwrap_or("")
        .split_whitespace()
        .skip(1)
        .any(|w| {
            let w = w.trim_matches(['"', '\'', '`']);
            // An ellipsis or a placeholder (`curl … | sh`, `irm <vendor-url> | iex`,
            // `curl https://<host>/x | bash`) names the idiom: nothing is fetched.
            let idiom = w.chars().all(|c| c == '.' || c == '…') || has_placeholder(w);
            !w.starts_with('-') && w.chars().count() > 1 && !idiom
        });
    if found.is_empty() && !operand {
        return None;
    }
    if found.is_empty() {
        // A download whose address is a variable or a bare host.
        let host = text
            .split_whitespace()
            .find(|w| w.contains('.') && !w.starts_with('-') && w.contains('/'))
            .or_else(|| {
                // `irm get.scoop.sh | iex`: a bare host name.
                text.split_whitespace().find(|w| {
                    let w = w.trim_matches(['"', '\'']);
                    w.contains('.')
                        && w.split('.').count() >= 2
                        && w.chars()
                            .all(|c| c.is_ascii_alphanumeric() || c == '.' || c == '-')
                        && w.rsplit('.').next().is_some_and(|tld| {
                            tld.len() >= 2 && tld.chars().all(|c| c.is_ascii_alphabetic())
                        })
                })
            })
            .map(|w| w.trim_matches(['"', '\'']));
        // `irm bun.sh/install.ps1 | iex`: an address without its scheme, on the allowlist.
        if let Some(bare) = host
            && let Some((name, path)) = bare.split_once('/').or(Some((bare, "")))
            && host_allowed(
                &crate::security::Url {
                    text: bare,
                    host: name.to_ascii_lowercase(),
                    path: format!("/{}", path.to_ascii_lowercase()),
                },
                allowed,
            )
        {
            return None;
        }
        return Some(host.map_or_else(
            || "code from an address not written here".into(),
            str::to_string,
        ));
    }
    // A release of a named GitHub repository is versioned and reviewable where it is.
    let released = |u: &crate::security::Url| {
        u.host == "github.com" && u.path.contains("/releases/") && !u.is_hostile()
    };
    let risky = found.iter().find(|u| {
        !host_allowed(u, allowed)
            && !u.is_local()
            && !u.is_placeholder()
            && !released(u)
            && !scan.installs_its_subject(u)
    })?;
    Some(risky.text.to_string())
}

/// Whether a pipe's interpreter runs a program of its own (`python3 -c "…"`, `node -e`,
/// `python -m json.tool`, `sh -c`) and reads what was downloaded as data.
fn reads_stdin_as_data(c: &regex::Captures) -> bool {
    let shell = c
        .name("shell")
        .map_or("", |m| m.as_str())
        .to_ascii_lowercase();
    let after = c.name("after").map_or("", |m| m.as_str().trim());
    let own_program = matches!(
        after,
        "-c" | "-m" | "-e" | "-E" | "-p" | "-r" | "-Command" | "-command"
    );
    own_program && !shell.contains("iex") && !shell.contains("invoke-expression")
}

/// SK702 on one unit.
fn obfuscated(unit: &Unit, out: &mut Findings) {
    // An address hidden in a payload: the one thing a payload that is only a URL is for.
    if let crate::security::Origin::Decoded(how) = unit.origin
        && let Some(url) = urls(&unit.text).next()
        && unit.text.trim_start().starts_with("http")
        && !url.is_local()
    {
        out.add(
            &SK702,
            unit,
            None,
            format!(
                "hides the address `{}` in {how}, so a reader cannot see where it connects",
                shorten(url.text)
            ),
        );
        return;
    }
    if let Some(m) = DECODE_PIPE.find(&unit.text) {
        out.add(
            &SK702,
            unit,
            Some(m.range()),
            format!(
                "`{}` decodes a payload and runs it, so what runs cannot be read",
                shorten(m.as_str())
            ),
        );
    } else if let Some(m) = EXEC_DECODE
        .find_iter(&unit.text)
        // A detection rule's pattern (`eval(atob(...))`) decodes nothing.
        .find(|m| {
            let rest = &unit.text[m.end()..];
            let line = &rest[..rest.find('\n').unwrap_or(rest.len())];
            !line.contains("(...)") && !line.contains("(…)")
        })
        .or_else(|| POWERSHELL_ENCODED.find(&unit.text))
    {
        out.add(
            &SK702,
            unit,
            Some(m.range()),
            format!(
                "`{}` runs code it decodes first, so what runs cannot be read",
                shorten(m.as_str())
            ),
        );
    }
}

/// SK701: a file downloaded to a path that a later line of the same file runs.
fn downloads_then_runs(scan: &Scan, i: usize, out: &mut Findings) {
    let units: Vec<&Unit> = scan
        .units
        .iter()
        .filter(|u| u.source == i && u.is_code() && !u.documented && u.has(FETCH))
        .collect();
    let starts = std::cell::OnceCell::new();
    for unit in &units {
        let saved = SAVED
            .captures(&unit.text)
            .and_then(|c| {
                ["a", "b", "c", "d", "e"]
                    .iter()
                    .find_map(|n| c.name(n))
                    .map(|m| m.as_str().to_string())
            })
            .or_else(|| {
                WGET_PLAIN
                    .captures(&unit.text)
                    .and_then(|c| c.name("name"))
                    .map(|m| m.as_str().to_string())
            })
            .or_else(|| remote_name(&unit.text));
        let Some(saved) = saved else { continue };
        let name = saved
            .rsplit(['/', '\\'])
            .next()
            .unwrap_or(&saved)
            .to_string();
        // A one-letter name is a file (`/tmp/a`); `-` and `.` are not.
        let letter = name.len() == 1 && name.bytes().all(|b| b.is_ascii_alphanumeric());
        if name.len() < 2 && !letter || name.starts_with('-') {
            continue;
        }
        let Some(what) = downloaded(scan, unit, out.allowed, None) else {
            continue;
        };
        // The folder the download is unpacked into (`tar -xzf "$tmp" -C "$dir"`), on this
        // line or one of the next 30: what runs from there came from the download too.
        let text = &scan.sources[i].text;
        let starts = starts.get_or_init(|| crate::security::line_starts(text));
        let from = starts
            .get(unit.line.saturating_sub(1))
            .copied()
            .unwrap_or(text.len());
        let unpacked = text
            .get(from..)
            .unwrap_or_default()
            .lines()
            .take(31)
            .filter(|l| l.contains(name.as_str()))
            .find_map(|l| {
                let c = UNPACKS.captures(l)?;
                let dir = c.name("tar").or(c.name("zip"))?.as_str();
                (dir.len() > 1 && !dir.contains(name.as_str())).then(|| format!("{dir}/"))
            });
        // A file of the unpacked folder runs when a runner takes it, or when it starts a
        // command (`./workspace/run.sh`, not `cat ./workspace/PROMPT.md`).
        let from_unpacked = |text: &str, c: &regex::Captures, p: &str| {
            let starts_command = |m: regex::Match| {
                let before = text[..m.start()].trim_end();
                before.is_empty()
                    || before.ends_with([';', '&', '|', '(', '`'])
                    || before
                        .rsplit(char::is_whitespace)
                        .next()
                        .is_some_and(|w| w == "then" || w == "do" || w == "else")
            };
            let runner = c.name("path").or(c.name("called")).is_some()
                || c.name("direct").is_some_and(starts_command);
            runner
                && unpacked.as_ref().is_some_and(|dir| {
                    p.trim_start_matches("./")
                        .starts_with(dir.trim_start_matches("./"))
                })
        };
        // The same line (`… && bash x.sh`) or one of the next 30 of the file runs the saved
        // file or a file of its unpacked folder.
        let runs = |text: &str| {
            RUNS_FILE.captures_iter(text).any(|c| {
                let path = c.name("path").or(c.name("direct")).or(c.name("called"));
                path.is_some_and(|m| {
                    let p = m.as_str().trim_matches(['"', '\'']);
                    (p.rsplit(['/', '\\']).next() == Some(name.as_str())
                        || from_unpacked(text, &c, p))
                        && !p.starts_with("http")
                })
            })
        };
        let later = if runs(&unit.text) {
            Some(unit.line)
        } else {
            // From the line after this one, found by its start (a file of many downloads is
            // not walked from its top for each).
            let from = starts.get(unit.line).copied().unwrap_or(text.len());
            text.get(from..)
                .unwrap_or_default()
                .lines()
                .take(30)
                .position(runs)
                .map(|n| unit.line + n + 1)
        };
        if let Some(runner) = later {
            let at = if runner == unit.line {
                String::new()
            } else {
                format!(" (line {runner})")
            };
            let how = match &unpacked {
                Some(dir) => format!(
                    ", unpacks it into `{}` and runs what it holds",
                    dir.trim_end_matches('/')
                ),
                None => " and runs it".to_string(),
            };
            out.add(
                &SK701,
                unit,
                None,
                format!("downloads {what} to `{name}`{how}{at}"),
            );
        }
    }
}

/// The file `curl -O URL` (`-sLO`, `--remote-name`) saves: the URL's last segment.
fn remote_name(text: &str) -> Option<String> {
    let curl = text.find("curl ")?;
    let words: Vec<&str> = text[curl..]
        .split_whitespace()
        .take_while(|w| !matches!(*w, "|" | "&&" | ";" | "||"))
        .collect();
    let remote = words.iter().any(|w| {
        *w == "--remote-name" || w.starts_with('-') && !w.starts_with("--") && w.contains('O')
    });
    if !remote {
        return None;
    }
    let url = urls(&text[curl..]).next()?;
    let name = url.text.rsplit('/').next()?.split(['?', '#']).next()?;
    (!name.is_empty()).then(|| name.to_string())
}

/// SK701 and SK702: a name that holds downloaded or decoded code, run by a later line.
fn tainted_exec(scan: &Scan, i: usize, out: &mut Findings) {
    let source = &scan.sources[i];
    let text = &source.text;
    // The file's lines rebuilt from literal pieces (`$wc.('Download' + 'String')`,
    // `& ('I' + 'E' + 'X') $s`), beside the lines as written.
    let built: Vec<(usize, &str)> = scan
        .units
        .iter()
        .filter(|u| u.source == i && u.origin == crate::security::Origin::Built)
        .map(|u| (u.line.saturating_sub(1), u.text.as_str()))
        .collect();
    let shell_fetch = memchr::memmem::find(text.as_bytes(), b"curl").is_some()
        || memchr::memmem::find(text.as_bytes(), b"wget").is_some();
    if !RUNS_CODE_NEEDS.may_match(text)
        && !built.iter().any(|(_, t)| RUNS_CODE_NEEDS.may_match(t))
        && !shell_fetch
    {
        return;
    }
    let mut remote: Vec<(String, usize)> = Vec::new();
    let mut decoded: Vec<(String, usize)> = Vec::new();
    // Shell names that hold a download (run only as a whole value, [`SHELL_RUNS`]).
    let mut held: Vec<(String, usize)> = Vec::new();
    let downloads = std::cell::OnceCell::new();
    // Both assign: only a line with `=` can hold either.
    let assigning = built.iter().copied().filter(|(_, t)| t.contains('='));
    for (n, line) in lines_with(text, b'=').chain(assigning) {
        // A response's chunks gathered into a name (`res.on('data', c => body += c)`) hold
        // downloaded code when the file downloads.
        if let Some(c) = REMOTE_ASSIGN.captures(line).and_then(|c| {
            c.get(1).or_else(|| c.get(2)).or_else(|| {
                c.name("body")
                    .filter(|_| *downloads.get_or_init(|| FETCHES.is_match(text)))
            })
        }) {
            remote.push((c.as_str().to_string(), n + 1));
        } else if shell_fetch
            && let Some(c) = SHELL_REMOTE_ASSIGN.captures(line).and_then(|c| c.get(1))
            && urls(line)
                .all(|u| !host_allowed(&u, out.allowed) && !u.is_local() && !u.is_placeholder())
        {
            held.push((c.as_str().to_string(), n + 1));
        }
        if let Some(c) = DECODED_ASSIGN.captures(line).and_then(|c| c.get(1)) {
            decoded.push((c.as_str().to_string(), n + 1));
        }
        if remote.len() + decoded.len() + held.len() > 256 {
            break;
        }
    }
    if remote.is_empty() && decoded.is_empty() && held.is_empty() {
        return;
    }
    let documented = documented_lines(scan, i);
    let mut reported = std::collections::HashSet::new();
    for (n, line) in text.lines().enumerate().chain(built.iter().copied()) {
        if reported.contains(&n) {
            continue;
        }
        if among(&documented, n + 1) {
            continue;
        }
        if !held.is_empty()
            && let Some(run) = SHELL_RUNS
                .captures(line)
                .and_then(|c| c.name("name").or(c.name("piped")))
            && let Some((name, at)) = held
                .iter()
                .find(|(name, at)| *at <= n + 1 && name == run.as_str())
        {
            reported.insert(n);
            out.add_line(
                &SK701,
                i,
                n + 1,
                format!("runs `{name}`, code downloaded on line {at}"),
            );
            continue;
        }
        let Some(sink) = RUNS_CODE.find(line) else {
            continue;
        };
        let rest = &line[sink.end()..];
        let named = |names: &[(String, usize)]| {
            names
                .iter()
                .find(|(name, at)| {
                    *at <= n + 1
                        && rest
                            .split(|c: char| !c.is_alphanumeric() && c != '_' && c != '$')
                            .any(|w| w.trim_start_matches('$') == name)
                })
                .map(|(name, at)| (name.clone(), *at))
        };
        if let Some((name, at)) = named(&remote) {
            reported.insert(n);
            out.add_line(
                &SK701,
                i,
                n + 1,
                format!("runs `{name}`, code downloaded on line {at}"),
            );
        } else if let Some((name, at)) = named(&decoded) {
            reported.insert(n);
            out.add_line(
                &SK702,
                i,
                n + 1,
                format!(
                    "runs `{name}`, a payload decoded on line {at}, so what runs cannot be read"
                ),
            );
        }
    }
}

/// The lines of `text` that hold `byte`, with their index (0-based), found by searching for
/// the byte rather than walking every line.
fn lines_with(text: &str, byte: u8) -> impl Iterator<Item = (usize, &str)> {
    let bytes = text.as_bytes();
    let mut counted = (0, 0); // (bytes looked at, newlines in them)
    let mut next = 0; // where the next line to search starts
    memchr::memchr_iter(byte, bytes).filter_map(move |at| {
        if at < next {
            return None;
        }
        let start = memchr::memrchr(b'\n', &bytes[..at]).map_or(0, |i| i + 1);
        let end = memchr::memchr(b'\n', &bytes[at..]).map_or(bytes.len(), |i| at + i);
        counted.1 += memchr::memchr_iter(b'\n', &bytes[counted.0..start]).count();
        counted.0 = start;
        next = end + 1;
        let line = &text[start..end];
        let line = match line.strip_suffix('\r') {
            Some(cut) if end < bytes.len() => cut,
            _ => line,
        };
        Some((counted.1, line))
    })
}

/// A word every text [`RUNS_CODE`] matches holds.
static RUNS_CODE_NEEDS: LazyLock<crate::security::Needs> = LazyLock::new(|| {
    crate::security::Needs::new(&[
        "exec",
        "eval",
        "system",
        "popen",
        "subprocess",
        "Function",
        "iex",
        "invoke-expression",
        "runInThisContext",
        "scriptblock",
    ])
});
/// What runs a string as code or a command.
static RUNS_CODE: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?i)\b(?:exec|eval|execfile|os\.system|os\.popen|subprocess\.(?:run|call|Popen|check_output|check_call)|execSync|iex|invoke-expression|runInThisContext)\b\s*[\(]?|\[scriptblock\]\s*::\s*create\s*\(|(?-i:\bFunction)\s*\(",
    )
});

/// SK707: a socket to a remote host wired to a shell, across the lines of one script.
fn socket_shell(scan: &Scan, i: usize, out: &mut Findings) {
    let text = &scan.sources[i].text;
    let has = |words: &[&str]| words.iter().any(|w| text.contains(w));
    // Every word a Python or PowerShell socket starts from holds `ocket`; every word a Node
    // one does, `net.`: most files hold neither, and are searched twice, not eight times.
    let sockets = memchr::memmem::find(text.as_bytes(), b"ocket").is_some();
    let python = sockets
        && has(&["socket.socket", "socket(", "create_connection("])
        && has(&[".connect(", "create_connection("])
        && has(&[
            "dup2(",
            "pty.spawn(",
            "stdin=s",
            "stdin=sock",
            "stdin=client",
        ]);
    let powershell = sockets
        && has(&[
            "Net.Sockets.TCPClient",
            "Net.Sockets.TcpClient",
            "net.sockets.tcpclient",
        ])
        && has(&["GetStream", "getstream"])
        && has(&[
            "iex",
            "Invoke-Expression",
            "invoke-expression",
            "Out-String",
        ]);
    let node = memchr::memmem::find(text.as_bytes(), b"net.").is_some()
        && has(&["net.Socket", "net.connect", "net.createConnection"])
        && has(&["child_process"])
        && has(&["/bin/sh", "/bin/bash", "cmd.exe", "powershell"])
        && has(&[".pipe("]);
    if !(python || powershell || node) {
        return;
    }
    let line = text
        .lines()
        .position(|l| {
            l.contains(".connect(")
                || l.contains("create_connection(")
                || l.contains("TCPClient")
                || l.contains("TcpClient")
                || l.contains("net.connect")
                || l.contains("createConnection")
        })
        .map_or(1, |n| n + 1);
    if among(&documented_lines(scan, i), line) {
        return;
    }
    out.add_line(
        &SK707,
        i,
        line,
        "connects a socket to a remote host and hands it a shell's input and output".to_string(),
    );
}

/// The lines (1-based, in file order) of file `i` that lie in units documenting an attack (a
/// security skill's examples) rather than performing it: the rules that read a whole file
/// rather than its units report nothing there. Empty for most files.
fn documented_lines(scan: &Scan, i: usize) -> Vec<std::ops::Range<usize>> {
    let mut lines: Vec<std::ops::Range<usize>> = scan
        .units
        .iter()
        .filter(|u| u.source == i && u.documented && u.origin == crate::security::Origin::Plain)
        .map(|u| u.line..u.line + u.text.lines().count().max(1))
        .collect();
    lines.sort_by_key(|r| r.start);
    lines
}

/// Whether `line` lies in one of `ranges` ([`documented_lines`]).
fn among(ranges: &[std::ops::Range<usize>], line: usize) -> bool {
    let after = ranges.partition_point(|r| r.start <= line);
    ranges[..after]
        .iter()
        .rev()
        .take(8)
        .any(|r| r.contains(&line))
}

/// Whether a word holds a `<placeholder>` (`<vendor-url>`, `https://<host>/x`): a template
/// to fill in, which no shell can fetch as written.
fn has_placeholder(word: &str) -> bool {
    word.split('<').skip(1).any(|after| {
        after.split_once('>').is_some_and(|(inside, _)| {
            !inside.is_empty()
                && inside
                    .chars()
                    .all(|c| c.is_alphanumeric() || matches!(c, '-' | '_' | '.' | ' ' | ':'))
        })
    })
}

#[cfg(test)]
mod tests {
    use super::{has_placeholder, lines_with};

    /// The lines found by searching for a byte are the lines that hold it, numbered as
    /// `str::lines` numbers them (a `\r` before a newline is not part of a line).
    #[test]
    fn a_placeholder_in_a_word_is_a_template() {
        assert!(has_placeholder("https://<host>/x"));
        assert!(has_placeholder("<vendor-url>"));
        assert!(!has_placeholder("https://get.tool.sh/install"));
        assert!(!has_placeholder("<(curl"));
        assert!(!has_placeholder("a<b"));
    }

    #[test]
    fn lines_with_a_byte_are_the_lines_that_hold_it() {
        let texts = [
            "",
            "=",
            "a = 1\nb\r\nc == 2\r\n\n=\n",
            "x\ny\nz = f(a=1, b=2)\nlast=",
            "\n\n\na=b=c\n\n",
            "é = 'ü'\r\nno\r\nyes=\r\n",
            "a=\r",
        ];
        for text in texts {
            let expected: Vec<(usize, &str)> = text
                .lines()
                .enumerate()
                .filter(|(_, line)| line.contains('='))
                .collect();
            assert_eq!(
                lines_with(text, b'=').collect::<Vec<_>>(),
                expected,
                "{text:?}"
            );
        }
    }
}
