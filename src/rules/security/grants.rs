//! What a skill is allowed to do without asking, and what runs on the agent's events:
//! SK711, SK712.

use std::sync::LazyLock;

use regex::Regex;

use super::{Findings, shorten};
use crate::security::{Lang, Scan};

crate::rule::declare! {
    SK711 "unscoped-shell-grant" Warning Both off security(medium cwe-250)
        "Grants the agent any shell command without asking (`allowed-tools: Bash`), or bundles a tool that runs arbitrary commands."
    ;
    SK712 "network-hook" Error Both off security(high cwe-829)
        "A hook (frontmatter `hooks:` or a `hooks.json`) runs a command that reaches the network on the agent's events."
    ;
}

use crate::security::regex as re;

/// A grant of every shell command: `Bash`, `Bash(*)`, `Bash(*:*)`, `Bash(:*)`.
static UNSCOPED: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r#"(?:^|[\s,\["'-])(?:Bash|Shell|PowerShell)(?:\(\s*\*?\s*(?::\s*\*)?\s*\))?(?:$|[\s,\]"'])"#,
    )
});
static SHELL_TOOL: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r#"(?i)"name"\s*:\s*"(?P<name>(?:run_?|exec(?:ute)?_?)?(?:shell|bash|terminal|command|cmd|powershell|system)(?:_?(?:command|exec|run))?|exec(?:ute)?|run)""#,
    )
});
static COMMAND: LazyLock<Regex> =
    LazyLock::new(|| re(r#"(?i)"?command"?\s*:\s*(?:"((?:[^"\\]|\\.)*)"|'([^']*)'|([^\n#]+))"#));
static NETWORK: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?i)\b(?:curl|wget|nc|ncat|socat|iwr|irm|invoke-webrequest|invoke-restmethod|scp|rsync|ftp|telnet|urllib|requests\.|http\.client|fetch\(|axios)\b|https?://|/dev/tcp/",
    )
});
static LOCAL: LazyLock<Regex> =
    LazyLock::new(|| re(r"(?i)https?://(?:localhost|127\.0\.0\.1|0\.0\.0\.0|\[::1\])"));

pub fn check(scan: &Scan, out: &mut Findings) {
    for (i, source) in scan.sources.iter().enumerate() {
        if source.is_skill_file {
            frontmatter(scan, i, out);
        }
        let name = source.rel.rsplit('/').next().unwrap_or(&source.rel);
        if source.lang == Lang::Data
            && (name.eq_ignore_ascii_case("tools.json") || name.eq_ignore_ascii_case("schema.json"))
            && let Some((n, c)) = source
                .text
                .lines()
                .enumerate()
                .find_map(|(n, l)| SHELL_TOOL.captures(l).map(|c| (n, c)))
        {
            let tool = c.name("name").map_or("", |m| m.as_str());
            out.add_line(
                &SK711,
                i,
                n + 1,
                format!("bundles the tool `{tool}`, which runs whatever command the model writes"),
            );
        }
        let hooks_file = source.lang == Lang::Data
            && source.text.contains("\"hooks\"")
            && source.text.contains("\"command\"");
        if hooks_file {
            hooks(i, &source.text, 1, out);
        }
    }
}

/// SK711 and SK712 in the skill file's frontmatter.
fn frontmatter(scan: &Scan, i: usize, out: &mut Findings) {
    let text = &scan.sources[i].text;
    if !text.starts_with("---") {
        return;
    }
    let end = text[3..].find("\n---").map_or(text.len(), |e| e + 3);
    let front = &text[..end];
    let mut in_tools = false;
    let mut in_hooks = false;
    for (n, line) in front.lines().enumerate() {
        let top = !line.starts_with([' ', '\t', '-']);
        if top {
            in_tools = line.starts_with("allowed-tools:") || line.starts_with("allowed_tools:");
            in_hooks = line.starts_with("hooks:");
        }
        let value = if top {
            line.split_once(':').map_or("", |(_, v)| v)
        } else {
            line
        };
        if in_tools
            && !value.trim_start().starts_with('#')
            && let Some(m) = UNSCOPED.find(value)
        {
            out.add_line(
                &SK711,
                i,
                n + 1,
                format!(
                    "`allowed-tools` grants `{}`: every shell command runs without asking the user",
                    m.as_str().trim_matches(|c: char| !c.is_alphanumeric()
                        && c != '('
                        && c != ')'
                        && c != '*'
                        && c != ':')
                ),
            );
            in_tools = false;
        }
        if in_hooks {
            hook_command(i, n + 1, line, out);
        }
    }
}

/// SK712 on every `command` of a hooks file.
fn hooks(i: usize, text: &str, first: usize, out: &mut Findings) {
    for (n, line) in text.lines().enumerate() {
        hook_command(i, first + n, line, out);
    }
}

fn hook_command(i: usize, line: usize, text: &str, out: &mut Findings) {
    let Some(c) = COMMAND.captures(text) else {
        return;
    };
    let Some(command) = c.get(1).or(c.get(2)).or(c.get(3)) else {
        return;
    };
    let command = command.as_str();
    if NETWORK.is_match(command) && !LOCAL.is_match(command) {
        out.add_line(
            &SK712,
            i,
            line,
            format!(
                "a hook runs `{}` on the agent's events: it reaches the network every time, unseen",
                shorten(command)
            ),
        );
    }
}
