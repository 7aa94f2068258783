//! Rules as data: each rule's code, name, default severity, dialects and documentation, in
//! one registry (`RULES`). Everything that names a rule — the rules, the diagnostics, the
//! config, suppressions and renderers — looks it up here; this module depends on nothing.

/// How serious a diagnostic is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Severity {
    Info,
    Warning,
    Error,
}

impl Severity {
    /// The lower-case name used in every output format and the config.
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Info => "info",
        }
    }

    /// Parses a severity as written in the config.
    pub fn parse(text: &str) -> Option<Severity> {
        match text {
            "error" => Some(Severity::Error),
            "warning" => Some(Severity::Warning),
            "info" => Some(Severity::Info),
            _ => None,
        }
    }
}

/// Which dialects a rule applies to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dialects {
    Both,
    Par,
    AgentSkills,
}

impl Dialects {
    /// As printed in `skillc rule`.
    pub fn as_str(self) -> &'static str {
        match self {
            Dialects::Both => "par, agentskills",
            Dialects::Par => "par",
            Dialects::AgentSkills => "agentskills",
        }
    }
}

/// What a rule needs to have been read before it can judge a skill.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Needs {
    /// The skill directory and the skill file's bytes.
    File,
    /// A frontmatter delimited by `---` lines (and so the body).
    Frontmatter,
    /// The frontmatter parsed to a mapping: its fields.
    Fields,
    /// Every skill of the run.
    Collection,
}

/// What a rule is about, beyond its code: groups a selection, a fixer or an editor asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tag {
    /// Compares a skill with the other skills of a run.
    Collection,
    /// About a file in the skill's tree (a skill nested inside reports its own).
    Files,
    /// About a value's form (its syntax and YAML type): a fix that changed a value's type may
    /// never leave one on its lines.
    Form,
    /// What it reports is never read by a runtime (an editor fades it).
    Unnecessary,
    /// Follows links from file to file (a fixed link leads it somewhere new).
    FollowsLinks,
    /// A security rule (SK7xx).
    Security,
    /// Counts tokens (commands that show no diagnostics skip it).
    Tokens,
}

impl Tag {
    /// As declared (`tags(follows_links)`) and printed by `skillc rule`.
    pub fn as_str(self) -> &'static str {
        match self {
            Tag::Collection => "collection",
            Tag::Files => "files",
            Tag::Form => "form",
            Tag::Unnecessary => "unnecessary",
            Tag::FollowsLinks => "follows_links",
            Tag::Security => "security",
            Tag::Tokens => "tokens",
        }
    }
}

/// How dangerous what a security rule finds is (security.md): critical and high are reported
/// as errors, medium as warnings, low as infos.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SecuritySeverity {
    Critical,
    High,
    Medium,
    Low,
}

impl SecuritySeverity {
    pub fn as_str(self) -> &'static str {
        match self {
            SecuritySeverity::Critical => "critical",
            SecuritySeverity::High => "high",
            SecuritySeverity::Medium => "medium",
            SecuritySeverity::Low => "low",
        }
    }

    /// The score GitHub code scanning ranks by (`properties.security-severity` in SARIF).
    pub fn score(self) -> &'static str {
        match self {
            SecuritySeverity::Critical => "9.0",
            SecuritySeverity::High => "7.0",
            SecuritySeverity::Medium => "5.0",
            SecuritySeverity::Low => "3.0",
        }
    }
}

/// What a security rule declares beyond the others: its severity and weaknesses (CWE numbers).
#[derive(Debug)]
pub struct SecurityInfo {
    pub severity: SecuritySeverity,
    pub cwe: &'static [u32],
}

/// What a fix of a rule changes beyond its own text, for the fixer's checks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FixEffect {
    /// A value's YAML type (a number, a boolean or a list becomes text).
    Retypes,
    /// Where a link leads.
    Relinks,
    /// The skill's key (its name).
    SetsKey,
}

/// One kind of fix a rule offers.
#[derive(Debug)]
pub struct RuleFix {
    pub applicability: crate::fix::Applicability,
    pub effect: Option<FixEffect>,
    /// What it does and when it is withheld (the README's fix table).
    pub what: &'static str,
}

/// A lint rule: its identity, documentation and the facts the fixer, the server, the CLI and
/// the renderers need, all declared in one place — the `rule::declare!` block of the file that
/// checks it. `build/registry.rs` builds the registry (`RULES` and one static per code) of them.
#[derive(Debug)]
pub struct Rule {
    pub code: &'static str,
    pub name: &'static str,
    pub severity: Severity,
    pub dialects: Dialects,
    /// One line: what the rule checks.
    pub summary: &'static str,
    /// Markdown: What it checks / Why it matters / Example / Fix (`src/rules/docs/CODE.md`).
    pub doc: &'static str,
    /// Whether a suppression comment may hide it. A file that cannot be parsed is never
    /// silent (as in ruff): the rules that say so are declared `unsuppressible`.
    pub suppressible: bool,
    /// What must have been read for it to run.
    pub needs: Needs,
    /// When it reports, what could not be read: no rule that needs it ran.
    pub stops: Option<Needs>,
    pub tags: &'static [Tag],
    /// The fixes it offers (none: it has no fix).
    pub fixes: &'static [RuleFix],
    /// Whether it runs when no selection names it (`off` in its declaration: it does not).
    pub default: bool,
    /// A security rule's severity and CWE numbers.
    pub security: Option<&'static SecurityInfo>,
    /// The file that declares and checks it.
    pub declared_in: &'static str,
}

impl Rule {
    pub fn has(&self, tag: Tag) -> bool {
        self.tags.contains(&tag)
    }

    /// Whether one of its fixes has `effect`.
    pub fn fix_effect(&self, effect: FixEffect) -> bool {
        self.fixes.iter().any(|f| f.effect == Some(effect))
    }
}

impl PartialEq for Rule {
    fn eq(&self, other: &Rule) -> bool {
        self.code == other.code
    }
}

impl Eq for Rule {}

/// Declares rules where they are checked; `build/registry.rs` reads these blocks and builds
/// the registry, and in the declaring file the block names them (`SK101` is the rule). One
/// rule per entry:
///
/// ```text
/// CODE "name" Severity Dialects attribute* "summary";
/// ```
///
/// - `Severity`: `Error`, `Warning`, `Info`; `Dialects`: `Both`, `Par`, `AgentSkills`.
/// - `unsuppressible`: no suppression comment hides it.
/// - `needs(file|frontmatter|fields|collection)`: what it judges (default `file`).
/// - `stops(frontmatter|fields)`: when it reports, that could not be read.
/// - `tags(collection files form unnecessary follows_links security)`.
/// - `fix(safe|unsafe [retypes|relinks|sets_key] "what the fix does")`, once per kind of fix.
/// - `off`: runs only when a selection names it (`--select`, `--extend-select`).
/// - `security(critical|high|medium|low cwe-N…)`: a security rule (tagged `security`), its
///   security severity (which fixes its severity) and CWE numbers.
macro_rules! declare {
    ($($code:ident $name:literal $severity:ident $dialects:ident
        $($attribute:ident $(($($argument:tt)*))?)* $summary:literal;)*) => {
        $(pub use $crate::rule::$code;)*
    };
}
pub(crate) use declare;

include!(concat!(env!("OUT_DIR"), "/registry.rs"));

/// Where a rule's documentation (`skillc rule CODE`) is read online.
pub fn doc_url(code: &str) -> String {
    format!(
        "{}/blob/main/src/rules/docs/{code}.md",
        env!("CARGO_PKG_HOMEPAGE")
    )
}

/// Finds a rule by code (`SK101`, case-insensitive) or name (`invalid-name`).
pub fn find(code_or_name: &str) -> Option<&'static Rule> {
    RULES
        .iter()
        .copied()
        .find(|rule| rule.code.eq_ignore_ascii_case(code_or_name) || rule.name == code_or_name)
}

/// The rules on when no selection is given: all but those declared `off`.
pub fn defaults() -> impl Iterator<Item = &'static Rule> {
    RULES.iter().copied().filter(|rule| rule.default)
}

/// The rules a selector names: a code, a code prefix (`SK1`, `SK`), a name, or `security`
/// (every security rule). `None` when the selector names nothing.
/// The end of the message about `selector`, which no rule answers to: `: did you mean `SK404`
/// (broken-link)?` when a rule's name or code is close to it, else `; {otherwise}`.
pub fn suggestion(selector: &str, otherwise: &str) -> String {
    let names = RULES.iter().flat_map(|r| [r.name, r.code]);
    match crate::suggest::closest(selector.trim(), names)
        .and_then(|k| RULES.iter().find(|r| r.name == k || r.code == k))
    {
        Some(rule) => format!(": did you mean `{}` ({})?", rule.code, rule.name),
        None => format!("; {otherwise}"),
    }
}

pub fn select(selector: &str) -> Option<Vec<&'static Rule>> {
    let selector = selector.trim();
    if let Some(rule) = find(selector) {
        return Some(vec![rule]);
    }
    if selector.eq_ignore_ascii_case(Tag::Security.as_str()) {
        return Some(
            RULES
                .iter()
                .copied()
                .filter(|rule| rule.has(Tag::Security))
                .collect(),
        );
    }
    let upper = selector.to_ascii_uppercase();
    let is_prefix = upper.starts_with("SK") && upper[2..].bytes().all(|b| b.is_ascii_digit());
    if !is_prefix || upper.len() > 5 {
        return None;
    }
    let rules: Vec<_> = RULES
        .iter()
        .copied()
        .filter(|rule| rule.code.starts_with(&upper))
        .collect();
    (!rules.is_empty()).then_some(rules)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_sorted_unique_and_documented() {
        for pair in RULES.windows(2) {
            assert!(
                pair[0].code < pair[1].code,
                "{} before {}",
                pair[0].code,
                pair[1].code
            );
        }
        for rule in RULES {
            for section in [
                "## What it checks",
                "## Why it matters",
                "## Example",
                "## Fix",
            ] {
                assert!(rule.doc.contains(section), "{} lacks {section}", rule.code);
            }
        }
    }

    #[test]
    fn selectors() {
        assert_eq!(select("SK111").unwrap()[0].name, "description-too-long");
        assert_eq!(select("invalid-id").unwrap()[0].code, "SK105");
        assert!(
            select("SK1")
                .unwrap()
                .iter()
                .all(|r| r.code.starts_with("SK1"))
        );
        assert_eq!(select("SK").unwrap().len(), RULES.len());
        assert!(select("SK9").is_none());
        assert!(select("bogus").is_none());
    }
}
