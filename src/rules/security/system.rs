//! What a skill changes on the machine: persistence, privilege escalation, tampering with
//! safety settings and evidence: SK705, SK706, SK715.

use std::sync::LazyLock;

use regex::Regex;

use super::{Findings, shorten};
use crate::security::family::SYSTEM;
use crate::security::{Context, Scan, Unit};

crate::rule::declare! {
    SK705 "persistence" Error Both off security(high cwe-912)
        "Makes itself run again later: shell profiles with commands, cron, launch agents, services, Run keys, git hooks, `authorized_keys`, the agent's own settings."
    ;
    SK706 "privilege-escalation" Error Both off security(high cwe-269)
        "Gains privileges it should not need: setuid bits, sudoers, the docker socket, privileged containers, world-writable system paths."
    ;
    SK715 "tampering" Error Both off security(high cwe-693)
        "Disables safety settings or destroys evidence and data: skipped permission prompts or confirmations, certificate checks turned off, disabled firewalls or antivirus, cleared history, `rm -rf ~`."
    ;
}

use crate::security::regex as re;

/// Writing to a path named on the line.
static WRITES: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r#"(?i)(?:^|[^-=>])>>?\s*["']?[~/$%\w.]|\btee\b|\bcp\b|\bmv\b|\bln\s+-s|\binstall\s+-|add-content|set-content|out-file|open\s*\([^)]*,\s*["'](?:a|w|a\+|w\+|ab|wb)["']|write_text|\.write\s*\(|appendfile|writefile|new-item|copy-item|fs\.(?:write|append)|sed\s+-i|\bchmod\b|\bdump\b"#,
    )
});
/// What a crontab listing is piped back into to add a line: `(crontab -l; echo …) | crontab -`.
static PIPED_TO_CRONTAB: LazyLock<Regex> = LazyLock::new(|| re(r"\|\s*crontab\b"));
static PROFILE: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?i)(?:~|\$HOME|\$\{HOME\}|%USERPROFILE%|/home/\w+|/root|expanduser\s*\(\s*.~|homedir\(\)|Path\.home\(\))[^\s;|&]*?/\.(?:bashrc|bash_profile|bash_login|zshrc|zprofile|zshenv|zlogin|profile|config/fish/config\.fish)\b|/etc/(?:profile|bash\.bashrc|zsh/zshrc|environment)\b|\$PROFILE\b",
    )
});
/// What a profile line written by an attacker runs: a download, a decoder, a shell for
/// another host, a hijacked command. PowerShell's `… | Invoke-Expression` of a local tool's
/// output (`fnm env | Out-String | Invoke-Expression`, as installers document) is `eval
/// "$(tool init)"` and not one; what it downloads or decodes is.
static PROFILE_PAYLOAD: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?i)\b(?:curl|wget|nc|ncat|socat|base64|python[0-9.]*\s+-c|perl\s+-e|nohup|iwr|irm|invoke-webrequest|invoke-restmethod|downloadstring|frombase64string)\b|\bnet\.webclient\b|/dev/tcp|alias\s+(?:sudo|ls|cd|git|ssh|cat|rm|cp|ll|python|npm|pip)=|LD_PRELOAD|PROMPT_COMMAND|\btrap\b",
    )
});
static PLACES: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r#"(?i)(?P<cron>\(\s*crontab\s+-l|\|\s*crontab\s+-?\s*(?:$|[;)&|])|/etc/cron\.|/var/spool/cron|@reboot\b|crontab\s+[\w./~-]+\.(?:txt|cron|tmp))|(?P<launch>Library/Launch(?:Agents|Daemons)/[^\s"']*|launchctl\s+(?:load|bootstrap|submit)\b)|(?P<systemd>(?:\.config/systemd/user|/etc/systemd/system|/lib/systemd/system)/[^\s"']+\.(?:service|timer))|(?P<windows>CurrentVersion\\+Run(?:Once)?\b|schtasks(?:\.exe)?\s+/create|Register-ScheduledTask|New-ScheduledTaskTrigger|\\Start Menu\\Programs\\Startup|shell:startup)|(?P<hooks>\.git/hooks/[\w.-]+)|(?P<keys>authorized_keys\b)|(?P<agent>(?:~|\$HOME|\$\{HOME\}|expanduser\s*\(\s*.~|homedir\(\)|Path\.home\(\)|USERPROFILE)[^\s;|&]*?/?\.(?:claude|codex|cursor|gemini|config/opencode|continue|windsurf)/(?:settings(?:\.local)?\.json|CLAUDE\.md|AGENTS\.md|GEMINI\.md|hooks|memory))"#,
    )
});

/// What a write into the agent's own settings changes that matters: hooks, permissions,
/// standing instructions.
static AGENT_PAYLOAD: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?i)\bhooks?\b|permissions|bypass|\ballow\b|defaultMode|\bcurl\b|\bwget\b|always|never|ignore|CLAUDE\.md|AGENTS\.md|memory",
    )
});
static PRIVILEGE: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r#"(?i)\bchmod\s+(?:-\w+\s+)*(?:[ugoa]*\+[rwxt]*s[rwxt]*|[2467][0-7]{3})\s|\bchmod\s+(?:-R\s+)?(?:0?777|a\+rwx|o\+w)\s+["']?(?:/(?:\s|$|etc|usr|bin|sbin|var|lib|opt|boot|root)|~/?(?:\s|$)|\$HOME/?(?:\s|$))|/etc/sudoers|\bNOPASSWD\s*:\s*(?:ALL\b|[^\n,]*?/(?:(?:ba|z|da|k|c|tc)?sh|python[0-9.]*|perl|ruby|node|env|vi|vim|less|find|tee|cp|mv|chmod|chown|dd)\b)|\busermod\s+-a?G\s+(?:\S+,)?(?:sudo|wheel|root|admin)\b|\bgpasswd\s+-a\s+\S+\s+(?:sudo|docker|wheel)|(?:-v\s+|--volume[=\s]+|source=|\bchmod\s+\S+\s+|\bchown\s+\S+\s+|\bsetfacl\s+[^\n]*?|--unix-socket\s+|unix://)["']?/(?:var/)?run/docker\.sock|/(?:var/)?run/docker\.sock["']?\s*:\s*/|--privileged\b[^\n]*(?:-v\s+["']?/:|--pid[= ]host)|\bsetcap\s|\bpkexec\b|\bsudo\s+su\b|\bsudo\s+-s\s*$|\|\s*sudo\s+-S\b|-v\s+["']?/:/|\bnsenter\s[^\n]*-t\s+1\b|\bchown\s+root\b[^\n]*\bchmod\s+[ugoa]*\+s"#,
    )
});

static TAMPERING: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r#"(?i)\bdangerouslySkipPermissions\b\s*["']?\s*[:=]\s*true|["']?defaultMode["']?\]?\s*[:=]\s*["']?bypassPermissions|--permission-mode(?:\s+|=|["']\s*,\s*["'])bypassPermissions|["']?enableAllProjectMcpServers["']?\s*[:=]\s*true\b|\bsetenforce\s+0|\bufw\s+disable|\bsystemctl\s+(?:stop|disable|mask)\s+(?:firewalld|apparmor|auditd|ufw|iptables|falcon-sensor|clamav\w*|wazuh\w*|osqueryd)|\biptables\s+-F\b|\bset-mppreference\s+-disable\w+|\badd-mppreference\s+-exclusion\w+|\bspctl\s+--master-disable|\bcsrutil\s+disable|\bhistory\s+-c\b|\bunset\s+HISTFILE|\bHISTFILE=/dev/null|\bHISTSIZE=0\b|\brm\s+(?:-\w+\s+)*[^\n|;&]*\.(?:bash|zsh)_history|\brm\s+-(?:rf|fr|Rf|r\s+-f|f\s+-r)\s+(?:--no-preserve-root\s+)?["']?(?:/|/\*|~|~/|~/\*|\$HOME|\$\{HOME\}|\$HOME/\*|/home|/etc|/usr|/var|/Users)["']?(?:\s|$|;|&|\|)|\brm\s+-\w*[rR]\w*\s+[^\n;|&]*(?:\.\./\*|~/\*|\$HOME/\*)|\bshred\s+(?:-\w+\s+)*[^\n;|&]*(?:~|\$HOME|\$\{HOME\}|/var/|/etc/|/home/|/Users/|/root\b|/dev/(?:sd|nvme|hd|disk|mmcblk|xvd)|_history|\.log\b|\*)|-exec\s+shred\b|>\s*/var/log/(?:\*|["'\s]|$|(?:auth|secure|syslog|messages|kern|daemon|wtmp|btmp|lastlog|faillog|utmp|audit|journal|sudo)\b)|\brm\s+[^\n]*/var/log/(?:\*|["'\s]|$|(?:auth|secure|syslog|messages|kern|daemon|wtmp|btmp|lastlog|faillog|utmp|audit|journal|sudo)\b)|\bwevtutil\s+cl\b|\bclear-eventlog\b|\bchattr\s+\+i\b|\bgit\s+config\s+--global\s+(?:core\.hooksPath|init\.templateDir)"#,
    )
});
/// A setting that switches off the agent's confirmations (`skip_confirmation: true`,
/// `confirm-writes=false`, `"autoApprove": true`, `trust-level=full`, Codex's `sandbox_mode =
/// "danger-full-access"`). Not a parameter of one call (`confirm=False`), another tool's
/// approvals (`terraform apply -auto-approve`, `auto_approve: true` in a CI workflow, the AWS
/// CDK's `"requireApproval": "never"`), or Codex's
/// `approval_policy = "never"` (its documented mode for CI, inside its sandbox).
static SAFEGUARD_OFF: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r#"(?i)["']?(?:\b|_)(?:skip[_-]?confirm(?:ations?)?|allow[_-]?all[_-]?tools|yolo[_-]?mode)["']?\s*[:=]\s*["']?(?:true|1|yes|on|enabled)\b|"autoApprove"\s*:\s*true\b|["']?\b(?:confirm(?:ation)?[_-](?:writes?|shell|commands?|edits?|tools?|exec(?:ution)?|network)|(?:file|shell|command|tool|exec|network)[_-](?:write[_-])?confirmation|require[_-]?confirmation|ask[_-]?before[_-]?\w+)["']?\s*[:=]\s*["']?(?:false|0|no|off|disabled|never|none)\b|\btrust[_-]?(?:mode|level)["']?\s*[:=]\s*["']?(?:permissive|full|unrestricted|all)\b|\bsandbox_mode["']?\s*[:=]\s*["']danger-full-access"#,
    )
});
/// The same for certificate checks, in code only: prose names these settings to warn against
/// them ("the fix is the corporate CA bundle, **not** `NODE_TLS_REJECT_UNAUTHORIZED=0`").
static TLS_OFF: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r#"(?i)\bNODE_TLS_REJECT_UNAUTHORIZED["']?\s*[:=]\s*["']?0\b|\bPYTHONHTTPSVERIFY["']?\s*[:=]\s*["']?0\b|\bGIT_SSL_NO_VERIFY["']?\s*[:=]\s*["']?(?:1|true)\b|\bnpm\s+config\s+set\s+strict-ssl\s+false\b|\bgit\s+config\s+--global\s+http\.sslVerify\s+false\b"#,
    )
});
/// Prose that tells the agent to switch a safeguard off.
static DISABLE: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?im)(?:^\s*|[.!?:;]\s+|\d[.)]\s+|[-*]\s+|\b(?:then|and|first|also|please|now|next|must|should)\s+)(?:disable|turn\s+off|switch\s+off|deactivate|kill|uninstall)\s+(?:the\s+|all\s+|any\s+|your\s+)?(?:antivirus|anti-virus|security(?:\s+(?:controls?|software|tools|checks|features|settings|monitoring))?|firewall|windows\s+defender|defender|edr|endpoint\s+protection|gatekeeper|selinux|apparmor|audit(?:ing|d)?\s+logging|safety\s+(?:checks|filters|settings|features))\b",
    )
});
/// A `git push` command, up to where its command ends.
static PUSH: LazyLock<Regex> = LazyLock::new(|| re(r"(?i)\bgit\s+push\b[^\n`;&|]*"));
/// Commits dropped from the branch: `git reset --hard HEAD~50`, `HEAD^`.
static DROPS_COMMITS: LazyLock<Regex> =
    LazyLock::new(|| re(r"(?i)\bgit\s+reset\s+--hard\s+(?:HEAD|@)(?:~\d*|\^+)"));

/// Where `text` force-pushes the default branch (`main`, `master`) after dropping commits from
/// it (`git reset --hard HEAD~50` … `git push --force origin main`): the shared history is
/// rewritten for everyone who works on the repository. `--force-with-lease`, a push of another
/// branch (a feature branch after a rebase) and a history rewrite that removes a leaked secret
/// (`git filter-repo`) are not this.
fn rewrites_shared_history(text: &str) -> Option<(regex::Match<'_>, regex::Match<'_>)> {
    let drop = DROPS_COMMITS.find(text)?;
    PUSH.find_iter(text)
        .find(|m| {
            let words: Vec<&str> = m.as_str().split_whitespace().collect();
            let forced = words.iter().any(|w| *w == "--force" || *w == "-f");
            let default = words.iter().skip(2).any(|w| {
                let branch = w.trim_matches(['"', '\'']).trim_start_matches('+');
                let branch = branch.rsplit(':').next().unwrap_or(branch);
                matches!(branch, "main" | "master")
            });
            forced && default
        })
        .map(|push| (push, drop))
}

static HOSTS_FILE: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?i)(?:>>?|\btee\b|sed\s+-i|add-content|set-content|open\s*\()[^\n]*(?:/etc/hosts\b|drivers\\+etc\\+hosts)",
    )
});

pub fn check(scan: &Scan, out: &mut Findings) {
    for unit in scan.units.iter().filter(|u| !u.documented && u.has(SYSTEM)) {
        if matches!(unit.context, Context::Prose | Context::Comment)
            && let Some(m) = DISABLE.find(&unit.text)
        {
            out.add(
                &SK715,
                unit,
                Some(m.range()),
                format!(
                    "tells the agent to {}: the safeguard is there to stop what comes next",
                    shorten(m.as_str()).to_lowercase()
                ),
            );
        }
        // A setting that switches the agent's confirmations off, in any context; one that
        // switches certificate checks off, in code (prose warns against them).
        let switched_off = SAFEGUARD_OFF
            .find(&unit.text)
            .or_else(|| unit.is_code().then(|| TLS_OFF.find(&unit.text)).flatten())
            .filter(|m| {
                !super::prohibited(&unit.text, m.start())
                    && !super::described(&unit.text, m.start())
            });
        if let Some(m) = &switched_off {
            out.add(
                &SK715,
                unit,
                Some(m.range()),
                format!(
                    "`{}` switches off a safeguard: what the agent or a program does next is not checked",
                    shorten(m.as_str())
                ),
            );
        }
        // Prose describes; commands (code, fences, inline code) act.
        let acts = unit.is_code() || unit.text.contains('`') || unit.context == Context::Comment;
        if !acts {
            continue;
        }
        persistence(scan, unit, out);
        // A skill whose name or description says it sets up sudo (a server-hardening skill's
        // scoped rule for a deploy user) edits `/etc/sudoers` as its job; `NOPASSWD: ALL` and
        // the other grants are still reported.
        let sudo_job = std::cell::OnceCell::new();
        // Reading the sudoers files (`sudo cat /etc/sudoers.d/*`, an audit rule watching them)
        // gains nothing: a write (`tee`, `>>`, `cp`, `sed -i`, `visudo`) does.
        // Prose that says what a command could do ("… can run `docker run -v /:/host`") runs
        // nothing.
        let described = |m: &regex::Match| {
            unit.context == Context::Prose && super::described(&unit.text, m.start())
        };
        if let Some(m) = PRIVILEGE.find_iter(&unit.text).find(|m| {
            !described(m)
                && (!m.as_str().eq_ignore_ascii_case("/etc/sudoers")
                    || (writes_to(&unit.text, "/etc/sudoers") || visudo(&unit.text))
                        && !*sudo_job.get_or_init(|| scan.announces(&["sudo"])))
        }) {
            // The Docker socket is named alone, not the mount or `chmod` that reaches it.
            let range = m
                .as_str()
                .find("/var/run/docker.sock")
                .or_else(|| m.as_str().find("/run/docker.sock"))
                .map_or(m.range(), |at| {
                    let start = m.start() + at;
                    let end = unit.text[start..]
                        .find("docker.sock")
                        .map_or(m.end(), |i| start + i + "docker.sock".len());
                    start..end
                });
            out.add(
                &SK706,
                unit,
                Some(range.clone()),
                format!(
                    "`{}` gains privileges a skill should not need",
                    shorten(&unit.text[range])
                ),
            );
        }
        // `>> /var/log/x.log` appends to a log; `> /var/log/…` empties it.
        let appends =
            |m: &regex::Match| m.as_str().starts_with('>') && unit.text[..m.start()].ends_with('>');
        // Permission prompts skipped inside a container the skill says it sets up is how Claude
        // Code documents running in a devcontainer: the sandbox is the safeguard.
        let sandboxed = |m: &regex::Match| {
            let said = m.as_str().to_ascii_lowercase();
            (said.contains("bypasspermissions") || said.contains("dangerouslyskippermissions"))
                && scan.announces(&[
                    "devcontainer",
                    "dev container",
                    "sandbox",
                    "container",
                    "codespace",
                ])
        };
        if switched_off.is_none()
            && let Some(m) = TAMPERING
                .find_iter(&unit.text)
                .find(|m| !appends(m) && !sandboxed(m))
                .or_else(|| HOSTS_FILE.find(&unit.text))
        {
            out.add(
                &SK715,
                unit,
                Some(m.range()),
                format!(
                    "`{}` disables a safeguard or destroys data or evidence",
                    shorten(m.as_str())
                ),
            );
        }
        if let Some((push, drop)) = rewrites_shared_history(&unit.text)
            && !super::prohibited(&unit.text, drop.start().min(push.start()))
        {
            out.add(
                &SK715,
                unit,
                Some(push.range()),
                format!(
                    "`{}` after `{}` force-pushes the default branch with commits dropped: the history everyone shares is rewritten",
                    shorten(push.as_str().trim_end()),
                    shorten(drop.as_str())
                ),
            );
        }
    }
}

/// An SSH public key written out (`ssh-ed25519 AAAAC3Nz…`), not a placeholder or an ellipsis.
static PUBLIC_KEY: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"\b(?:ssh-(?:rsa|ed25519|dss)|ecdsa-sha2-nistp\d+|sk-ssh-ed25519@openssh\.com)\s+AAAA[0-9A-Za-z+/]{12,}={0,2}(?:\s|$|[\x22'])",
    )
});

/// Whether `text` edits a file with `visudo` (not `visudo -c`, which checks the syntax).
fn visudo(text: &str) -> bool {
    text.match_indices("visudo")
        .any(|(at, _)| !text[at + "visudo".len()..].trim_start().starts_with("-c"))
}

/// Whether `text` writes `place` (a path found in it): any write that is not a redirection
/// counts (`cp`, `tee`, `sed -i`…); a redirection counts when its target is that path or under
/// it (`>> ~/.ssh/authorized_keys`), not another file (`ls /var/spool/cron > spool.txt`,
/// `> authorized_keys.txt`).
fn writes_to(text: &str, place: &str) -> bool {
    WRITES.find_iter(text).any(|w| {
        let Some(arrow) = w.as_str().rfind('>') else {
            return true;
        };
        let after = text[w.start() + arrow + 1..].trim_start();
        let target = &after[..after.find(char::is_whitespace).unwrap_or(after.len())];
        target.match_indices(place).any(|(at, _)| {
            !target[at + place.len()..]
                .trim_start_matches(['"', '\''])
                .starts_with(|c: char| c == '.' || c.is_alphanumeric() || c == '_')
        })
    })
}

/// SK705 on one unit.
fn persistence(scan: &Scan, unit: &Unit, out: &mut Findings) {
    let text = &unit.text;
    if let Some(m) = PROFILE.find(text)
        && WRITES.is_match(text)
        && PROFILE_PAYLOAD.is_match(text)
    {
        out.add(
            &SK705,
            unit,
            Some(m.range()),
            format!(
                "writes a command into the shell profile `{}`: it runs in every new shell",
                m.as_str()
            ),
        );
        return;
    }
    let Some(c) = PLACES.captures(text) else {
        return;
    };
    let Some((kind, m)) = [
        "cron", "launch", "systemd", "windows", "hooks", "keys", "agent",
    ]
    .iter()
    .find_map(|k| c.name(k).map(|m| (*k, m))) else {
        return;
    };
    let writes = writes_to(text, m.as_str());
    // A listing is no install: `$(crontab -l)` without a pipe back into `crontab`, a look at
    // `/var/spool/cron` that writes nothing, `authorized_keys.txt` (a report of them).
    let listed = match kind {
        "cron" if m.as_str().starts_with('(') => !PIPED_TO_CRONTAB.is_match(text),
        "cron" => m.as_str().starts_with('/') && !writes,
        "keys" => text[m.end()..].starts_with('.'),
        _ => false,
    };
    if listed {
        return;
    }
    // What the skill's name or description says it installs (a backup scheduler's cron job, a
    // hooks skill's pre-commit hook, a unit for the user's own service) is its job, not a
    // foothold, unless what it installs downloads, decodes or opens a shell.
    let job: &[&str] = match kind {
        "cron" => &["cron", "schedul", "nightly", "periodic"],
        "systemd" => &["systemd", "service unit", "daemon"],
        "launch" => &["launchd", "launch agent", "launchagent"],
        "hooks" => &[
            "git hook",
            "pre-commit",
            "commit hook",
            "pre-push",
            "husky",
            "lint-staged",
        ],
        "windows" => &["scheduled task", "task scheduler"],
        // "installing it in authorized_keys" on the user's own server.
        "keys" => &[
            "authorized_keys",
            "authorized keys",
            "ssh access",
            "key-based ssh",
        ],
        _ => &[],
    };
    // A public key written out in the skill, or shipped in it as a file (`assets/x.pub`), is
    // its author's, not the user's: whoever holds the private half logs in, whatever the skill
    // is for.
    // In prose the write is a verb before the shipped key's path, in its sentence: "append the
    // line from `assets/k.pub` to …" (not "remove the line matching `keys/old.pub`").
    let shipped = || {
        scan.sources
            .iter()
            .filter(|s| s.rel.ends_with(".pub"))
            .any(|s| {
                text.match_indices(s.rel.as_str()).any(|(at, _)| {
                    let clause = text[..at]
                        .rfind(['.', '!', '?', ';', ':'])
                        .map_or(&text[..at], |i| &text[i + 1..at])
                        .to_ascii_lowercase();
                    let verb = clause.trim_start();
                    ["append", "add ", "copy", "cat ", "install"]
                        .iter()
                        .any(|w| verb.starts_with(w))
                        || writes
                })
            })
    };
    let planted = kind == "keys" && (writes && PUBLIC_KEY.is_match(text) || shipped());
    if !planted && scan.announces(job) && !PROFILE_PAYLOAD.is_match(text) {
        return;
    }
    let why = match kind {
        "cron" => "adds a cron job: it runs again on a schedule",
        // `launchctl unload`, `bootout`, `remove` take an agent away.
        "launch"
            if (writes || text.contains("launchctl"))
                && !["unload", "bootout", "remove"]
                    .iter()
                    .any(|w| text.contains(&format!("launchctl {w}"))) =>
        {
            "installs a launch agent: it runs at every login"
        }
        "systemd" if writes => "installs a service unit: it runs at every boot or login",
        "windows" => "registers a program to run at logon or on a schedule",
        "hooks" if writes => "writes a git hook: it runs on every commit or checkout",
        "keys" if planted => {
            "adds a public key the skill brings to `authorized_keys`: whoever holds its private half can log in"
        }
        "keys" if writes => "adds a key to `authorized_keys`: whoever holds it can log in",
        "agent" if writes && AGENT_PAYLOAD.is_match(text) => {
            "changes the agent's own settings or memory: it outlives this task"
        }
        _ => return,
    };
    out.add(
        &SK705,
        unit,
        Some(m.range()),
        format!("`{}` {why}", shorten(m.as_str())),
    );
}
