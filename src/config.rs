//! `skillc.toml`: lookup, parsing with positions, and the settings a run uses.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::fmt;
use std::path::{Path, PathBuf};

use globset::{Glob, GlobBuilder, GlobSet, GlobSetBuilder};
use serde::Deserialize;
use toml::Spanned;

use crate::diagnostic::Severity;
use crate::dialect::Dialect;
use crate::rule::{self, Rule};
use crate::targets::{self, Targets};

/// The context window character budgets are based on, when `context-window` is not set.
pub const DEFAULT_CONTEXT_WINDOW: u64 = 200_000;

/// The token budget of `par` and of `--budget` when no number is given (PAR's
/// `skill_token_budget`).
pub const DEFAULT_BUDGET: u64 = 2048;

/// A config file larger than this is refused.
const CONFIG_MAX_BYTES: u64 = 1024 * 1024;

/// The names a config file may have, in lookup order.
pub const FILE_NAMES: [&str; 2] = ["skillc.toml", ".skillc.toml"];

/// A configuration error: exit 2, naming the file and position.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConfigError {
    pub path: Option<PathBuf>,
    pub line: Option<usize>,
    pub column: Option<usize>,
    pub message: String,
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (&self.path, self.line, self.column) {
            (Some(path), Some(line), Some(column)) => {
                write!(f, "{}:{line}:{column}: {}", path.display(), self.message)
            }
            (Some(path), _, _) => write!(f, "{}: {}", path.display(), self.message),
            _ => write!(f, "{}", self.message),
        }
    }
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct FileConfig {
    dialect: Option<DialectSetting>,
    strict: Option<bool>,
    budget: Option<u64>,
    encoding: Option<Encoding>,
    extra_fields: Option<Vec<Spanned<String>>>,
    targets: Option<Vec<Spanned<String>>>,
    context_window: Option<u64>,
    tools: Option<Vec<String>>,
    exclude: Option<Vec<Spanned<String>>>,
    max_file_size: Option<u64>,
    rules: Option<RulesTable>,
    per_file_ignores: Option<BTreeMap<Spanned<String>, Vec<Spanned<String>>>>,
    runtime: Option<BTreeMap<Spanned<String>, RuntimeTable>>,
    security: Option<SecurityTable>,
}

/// `[security]`: what the security rules trust.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct SecurityTable {
    /// The installer hosts whose scripts may be piped to a shell (replaces the built-in list).
    allowed_hosts: Option<Vec<String>>,
    /// Hosts added to the list.
    extend_allowed_hosts: Option<Vec<String>>,
}

/// The hosts whose documented installers first-party skills pipe to a shell (`curl -LsSf
/// https://astral.sh/uv/install.sh | sh`): the security rules do not report downloading and
/// running code from them. A host matches itself and its subdomains. `[security]
/// allowed-hosts` replaces the list, `extend-allowed-hosts` adds to it.
pub const DEFAULT_ALLOWED_HOSTS: &[&str] = &[
    "astral.sh",
    "sh.rustup.rs",
    "static.rust-lang.org",
    "raw.githubusercontent.com/homebrew",
    "brew.sh",
    "raw.githubusercontent.com/nvm-sh",
    "bun.sh",
    "deno.land",
    "get.pnpm.io",
    "install.python-poetry.org",
    "pyenv.run",
    "get.docker.com",
    "get.helm.sh",
    "raw.githubusercontent.com/helm",
    "ollama.com",
    "claude.ai",
    "opencode.ai",
    "starship.rs",
    "get.volta.sh",
    "foundry.paradigm.xyz",
    "get.nextflow.io",
    "apt.llvm.org",
    "community.chocolatey.org",
    "fnm.vercel.app",
    "install.julialang.org",
    "get.rvm.io",
    "sh.brew.sh",
    "get.sdkman.io",
    "cli.github.com",
    "deb.nodesource.com",
    "rpm.nodesource.com",
    "fly.io",
    "tailscale.com",
    "supabase.com",
    "vercel.com",
    "cli.doppler.com",
    "sdk.cloud.google.com",
    "aka.ms/install-azd.sh",
    "awscli.amazonaws.com",
    "get.k3s.io",
    "get.scoop.sh",
    "raw.githubusercontent.com/rbenv",
    "mise.run",
    "mise.jdx.dev",
    "install.determinate.systems",
    "nixos.org",
    "sh.vector.dev",
    "dotnet.microsoft.com",
    "dot.net",
    "cursor.com",
    "gemini.google.com",
    "openai.com",
    "chromium.org",
    "playwright.dev",
];

/// `[runtime.NAME]`: a runtime's numbers, where the defaults are only third-party readings.
#[derive(Debug, Default, Clone, Copy, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct RuntimeTable {
    /// Characters of description (+ `when_to_use`) the listing shows (SK306).
    pub listing_cap: Option<usize>,
    /// The catalog budget, in the runtime's unit (tokens or characters).
    pub budget: Option<u64>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
#[serde(rename_all = "kebab-case")]
struct RulesTable {
    select: Option<Vec<Spanned<String>>>,
    /// Added to `select` (or the defaults): `["security"]`.
    extend_select: Option<Vec<Spanned<String>>>,
    ignore: Option<Vec<Spanned<String>>>,
    severity: Option<BTreeMap<Spanned<String>, Spanned<String>>>,
    /// The rules whose fixes are applied (default: all).
    fixable: Option<Vec<Spanned<String>>>,
    /// The rules whose fixes are never applied.
    unfixable: Option<Vec<Spanned<String>>>,
}

/// `dialect` in the config and on the command line.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, clap::ValueEnum)]
#[serde(rename_all = "lowercase")]
pub enum DialectSetting {
    Auto,
    Par,
    #[value(name = "agentskills")]
    Agentskills,
}

impl DialectSetting {
    /// The forced dialect, or `None` for detection.
    pub fn forced(self) -> Option<Dialect> {
        match self {
            DialectSetting::Auto => None,
            DialectSetting::Par => Some(Dialect::Par),
            DialectSetting::Agentskills => Some(Dialect::AgentSkills),
        }
    }
}

/// The tokenizer encoding (used by token accounting).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, clap::ValueEnum)]
pub enum Encoding {
    #[serde(rename = "o200k_base")]
    #[value(name = "o200k_base")]
    O200kBase,
    #[serde(rename = "cl100k_base")]
    #[value(name = "cl100k_base")]
    Cl100kBase,
}

/// What the command line says that overrides or extends the config file.
#[derive(Debug, Default, Clone)]
pub struct Overrides {
    pub dialect: Option<DialectSetting>,
    pub strict: bool,
    pub select: Vec<String>,
    /// `--extend-select`: added to the selection.
    pub extend_select: Vec<String>,
    pub ignore: Vec<String>,
    pub extra_fields: Vec<String>,
    /// `--target NAME[,NAME…]`.
    pub targets: Option<Targets>,
    pub budget: Option<u64>,
    pub encoding: Option<Encoding>,
}

/// Where configuration comes from.
#[derive(Debug, Clone)]
pub enum Source {
    /// Search the current directory and its ancestors.
    Discover,
    /// `--config PATH`.
    File(PathBuf),
    /// `--no-config`.
    None,
}

/// Everything a run needs to know, resolved from defaults, the file and the flags.
#[derive(Debug, Clone)]
pub struct Settings {
    /// The config file in force, if any.
    pub file: Option<PathBuf>,
    /// The directory config globs are relative to (absolute).
    pub base: PathBuf,
    pub dialect: Option<Dialect>,
    pub strict: bool,
    /// `budget`/`--budget`: a token budget for every target; `None`: each target's own.
    pub budget: Option<u64>,
    pub encoding: Encoding,
    pub extra_fields: HashSet<String>,
    /// `targets`/`--target`: the runtimes of every skill; `None`: detected per skill.
    pub targets: Option<Targets>,
    /// Tokens; the base of character budgets.
    pub context_window: u64,
    /// `[runtime.NAME]` tables, by runtime name.
    pub runtimes: HashMap<&'static str, RuntimeTable>,
    pub tools: Option<Vec<String>>,
    pub exclude: GlobSet,
    pub max_file_size: u64,
    enabled: HashSet<&'static str>,
    /// The rules whose fixes are applied (`fixable` minus `unfixable`).
    fixable: HashSet<&'static str>,
    severity: HashMap<&'static str, Severity>,
    per_file_ignores: Vec<(GlobSet, Vec<&'static Rule>)>,
    /// `[security]`: the hosts whose installers may be piped to a shell, lower-case, each a
    /// host (and its subdomains) with an optional path prefix.
    pub allowed_hosts: Vec<String>,
}

/// At most this many diagnostics of one rule are shown for one skill; the rest are counted.
pub const MAX_PER_RULE: usize = 100;

impl Default for Settings {
    fn default() -> Self {
        Settings {
            file: None,
            base: PathBuf::from("."),
            dialect: None,
            strict: false,
            budget: None,
            encoding: Encoding::O200kBase,
            extra_fields: HashSet::new(),
            targets: None,
            context_window: DEFAULT_CONTEXT_WINDOW,
            runtimes: HashMap::new(),
            tools: None,
            exclude: GlobSet::empty(),
            max_file_size: 1024 * 1024,
            enabled: rule::defaults().map(|r| r.code).collect(),
            fixable: rule::RULES.iter().map(|r| r.code).collect(),
            severity: HashMap::new(),
            per_file_ignores: Vec::new(),
            allowed_hosts: DEFAULT_ALLOWED_HOSTS
                .iter()
                .map(|h| h.to_string())
                .collect(),
        }
    }
}

impl Settings {
    /// Loads the configuration for a run started in `cwd` (absolute).
    pub fn load(
        source: &Source,
        cwd: &Path,
        overrides: &Overrides,
    ) -> Result<Settings, ConfigError> {
        let path = match source {
            Source::None => None,
            Source::File(path) => Some(cwd.join(path)),
            Source::Discover => find_config(cwd),
        };
        let text = match &path {
            None => None,
            Some(path) => {
                let unreadable = |message: String| ConfigError {
                    path: Some(path.clone()),
                    line: None,
                    column: None,
                    message: format!("cannot read the config file: {message}"),
                };
                Some(
                    match crate::input::read_capped(
                        path,
                        CONFIG_MAX_BYTES,
                        crate::input::Links::Follow,
                    ) {
                        Ok(crate::input::Read::Bytes(bytes)) => {
                            String::from_utf8(bytes).map_err(|_| unreadable("not UTF-8".into()))?
                        }
                        Ok(crate::input::Read::TooLarge(size)) => {
                            return Err(unreadable(format!(
                                "{size} bytes is too large for a config file"
                            )));
                        }
                        Err(e) => return Err(unreadable(e.to_string())),
                    },
                )
            }
        };
        Settings::from_text(path, text, cwd, overrides)
    }

    /// Settings from a config file's text (`None`: no config file), as [`Settings::load`]
    /// reads it.
    pub fn from_text(
        path: Option<PathBuf>,
        text: Option<String>,
        cwd: &Path,
        overrides: &Overrides,
    ) -> Result<Settings, ConfigError> {
        let (file_config, text) = match text {
            None => (FileConfig::default(), String::new()),
            Some(text) => {
                let parsed: FileConfig = toml::from_str(&text).map_err(|e| {
                    let (line, column) = e
                        .span()
                        .map(|s| line_column(&text, s.start))
                        .map_or((None, None), |(l, c)| (Some(l), Some(c)));
                    ConfigError {
                        path: path.clone(),
                        line,
                        column,
                        message: unknown_field_hint(e.message().trim_end()),
                    }
                })?;
                (parsed, text)
            }
        };
        let base = path
            .as_deref()
            .and_then(Path::parent)
            .map_or_else(|| cwd.to_path_buf(), Path::to_path_buf);
        let error = |span: std::ops::Range<usize>, message: String| {
            let (line, column) = line_column(&text, span.start);
            ConfigError {
                path: path.clone(),
                line: Some(line),
                column: Some(column),
                message,
            }
        };
        let resolve = |selectors: &[Spanned<String>],
                       what: &str|
         -> Result<Vec<&'static Rule>, ConfigError> {
            let mut out = Vec::new();
            for s in selectors {
                match rule::select(s.get_ref()) {
                    Some(found) => out.extend(found),
                    None => {
                        return Err(error(
                            s.span(),
                            format!(
                                "unknown rule `{}` in {what}{}",
                                s.get_ref(),
                                rule::suggestion(s.get_ref(), "see `skillc rule` for the list")
                            ),
                        ));
                    }
                }
            }
            Ok(out)
        };
        let flag_rules =
            |selectors: &[String], flag: &str| -> Result<Vec<&'static Rule>, ConfigError> {
                let mut out = Vec::new();
                for s in selectors
                    .iter()
                    .flat_map(|s| s.split(','))
                    .filter(|s| !s.trim().is_empty())
                {
                    out.extend(rule::select(s).ok_or_else(|| ConfigError {
                        path: None,
                        line: None,
                        column: None,
                        message: format!(
                            "unknown rule `{}` in {flag}{}",
                            s.trim(),
                            rule::suggestion(s, "see `skillc rule` for the list")
                        ),
                    })?);
                }
                Ok(out)
            };

        let mut settings = Settings {
            file: path.clone(),
            base: base.clone(),
            ..Settings::default()
        };
        let rules_table = file_config.rules.unwrap_or_default();
        let select = if !overrides.select.is_empty() {
            flag_rules(&overrides.select, "--select")?
        } else if let Some(select) = &rules_table.select {
            resolve(select, "`rules.select`")?
        } else {
            rule::defaults().collect()
        };
        let mut select = select;
        if let Some(extend) = &rules_table.extend_select {
            select.extend(resolve(extend, "`rules.extend-select`")?);
        }
        select.extend(flag_rules(&overrides.extend_select, "--extend-select")?);
        if let Some(security) = &file_config.security {
            if let Some(hosts) = &security.allowed_hosts {
                settings.allowed_hosts = hosts.iter().map(|h| h.to_ascii_lowercase()).collect();
            }
            settings.allowed_hosts.extend(
                security
                    .extend_allowed_hosts
                    .iter()
                    .flatten()
                    .map(|h| h.to_ascii_lowercase()),
            );
        }
        let mut ignore = match &rules_table.ignore {
            Some(ignore) => resolve(ignore, "`rules.ignore`")?,
            None => Vec::new(),
        };
        ignore.extend(flag_rules(&overrides.ignore, "--ignore")?);
        settings.enabled = select.iter().map(|r| r.code).collect();
        for rule in ignore {
            settings.enabled.remove(rule.code);
        }
        if let Some(fixable) = &rules_table.fixable {
            settings.fixable = resolve(fixable, "`rules.fixable`")?
                .iter()
                .map(|r| r.code)
                .collect();
        }
        for rule in resolve(
            rules_table.unfixable.as_deref().unwrap_or_default(),
            "`rules.unfixable`",
        )? {
            settings.fixable.remove(rule.code);
        }
        for (selector, severity) in rules_table.severity.iter().flatten() {
            let level = Severity::parse(severity.get_ref()).ok_or_else(|| {
                error(
                    severity.span(),
                    format!(
                        "unknown severity `{}`; expected `error`, `warning` or `info`",
                        severity.get_ref()
                    ),
                )
            })?;
            for rule in resolve(std::slice::from_ref(selector), "`rules.severity`")? {
                settings.severity.insert(rule.code, level);
            }
        }
        for (pattern, selectors) in file_config.per_file_ignores.iter().flatten() {
            let set =
                glob_set(std::slice::from_ref(pattern)).map_err(|(span, msg)| error(span, msg))?;
            settings
                .per_file_ignores
                .push((set, resolve(selectors, "`per-file-ignores`")?));
        }
        if let Some(exclude) = &file_config.exclude {
            settings.exclude = glob_set(exclude).map_err(|(span, msg)| error(span, msg))?;
        }
        for field in file_config
            .extra_fields
            .iter()
            .flatten()
            .map(|f| f.get_ref().clone())
            .chain(overrides.extra_fields.iter().cloned())
        {
            if let Some(set) = field.strip_prefix('@') {
                let runtime = targets::find(set).filter(|r| !r.fields.is_empty());
                let Some(runtime) = runtime else {
                    let known: Vec<String> = targets::RUNTIMES
                        .iter()
                        .filter(|r| !r.fields.is_empty())
                        .map(|r| format!("`@{}`", r.name))
                        .collect();
                    return Err(ConfigError {
                        path: path.clone(),
                        line: None,
                        column: None,
                        message: format!(
                            "unknown field set `@{set}` in extra-fields; the known sets are {}",
                            known.join(", ")
                        ),
                    });
                };
                settings
                    .extra_fields
                    .extend(runtime.fields.iter().map(|f| f.to_string()));
            } else {
                settings.extra_fields.insert(field);
            }
        }
        settings.dialect = overrides
            .dialect
            .or(file_config.dialect)
            .and_then(DialectSetting::forced);
        settings.strict = overrides.strict || file_config.strict.unwrap_or(false);
        settings.budget = overrides.budget.or(file_config.budget);
        settings.context_window = file_config.context_window.unwrap_or(DEFAULT_CONTEXT_WINDOW);
        if settings.context_window == 0 {
            return Err(ConfigError {
                path: path.clone(),
                line: None,
                column: None,
                message: "`context-window` must be a number of tokens above 0".into(),
            });
        }
        for (name, table) in file_config.runtime.iter().flatten() {
            let runtime = targets::find(name.get_ref()).ok_or_else(|| {
                error(
                    name.span(),
                    format!(
                        "unknown runtime `{}` in [runtime]; the runtimes are {}",
                        name.get_ref(),
                        targets::names(Targets::all())
                    ),
                )
            })?;
            settings.runtimes.insert(runtime.name, *table);
        }
        settings.targets = match (overrides.targets, &file_config.targets) {
            (Some(targets), _) => Some(targets),
            (None, Some(names)) => {
                let mut set = Targets::default();
                for name in names {
                    set = set
                        .union(Targets::parse(name.get_ref()).map_err(|e| error(name.span(), e))?);
                }
                (!set.is_empty()).then_some(set)
            }
            (None, None) => None,
        };
        settings.encoding = overrides
            .encoding
            .or(file_config.encoding)
            .unwrap_or(Encoding::O200kBase);
        settings.tools = file_config.tools;
        settings.max_file_size = file_config.max_file_size.unwrap_or(1024 * 1024);
        Ok(settings)
    }

    /// A runtime's listing cap (SK306): `[runtime.NAME] listing-cap`, else the table's.
    pub fn listing_cap(&self, runtime: &targets::Runtime) -> Option<usize> {
        self.runtimes
            .get(runtime.name)
            .and_then(|t| t.listing_cap)
            .or(runtime.listing_cap)
    }

    /// A runtime's catalog budget in its unit: `budget` (tokens, every target), else
    /// `[runtime.NAME] budget`, else the table's; `None`: no budget.
    pub fn catalog_budget(&self, runtime: &targets::Runtime) -> Option<(u64, targets::Unit)> {
        if let Some(n) = self.budget {
            return Some((n, targets::Unit::Tokens));
        }
        let own = runtime.budget.map(|b| b.amount(self.context_window));
        match (self.runtimes.get(runtime.name).and_then(|t| t.budget), own) {
            (Some(n), Some((_, unit))) => Some((n, unit)),
            // A runtime with no known budget gets the one configured for it, in tokens.
            (Some(n), None) => Some((n, targets::Unit::Tokens)),
            (None, own) => own,
        }
    }

    /// How many `per-file-ignores` patterns are in force.
    pub fn per_file_ignore_count(&self) -> usize {
        self.per_file_ignores.len()
    }

    /// Whether a rule is selected (before per-file ignores and suppressions).
    pub fn enabled(&self, rule: &Rule) -> bool {
        self.enabled.contains(rule.code)
    }

    /// These settings with every rule selected (what a fix may not make worse is judged by
    /// every rule, not only those a run selects).
    pub fn with_every_rule(&self) -> Settings {
        Settings {
            // The security rules judge the skill's other files, which a fix never changes.
            enabled: rule::RULES
                .iter()
                .filter(|r| !r.has(rule::Tag::Security))
                .map(|r| r.code)
                .collect(),
            ..self.clone()
        }
    }

    /// Whether the fixes of the rule with `code` may be applied (`fixable`, `unfixable`).
    pub fn fixable(&self, code: &str) -> bool {
        self.fixable.contains(code)
    }

    /// The severity configured for a rule (`severity` in skillc.toml), if any.
    pub fn configured_severity(&self, rule: &Rule) -> Option<Severity> {
        self.severity.get(rule.code).copied()
    }

    /// The severity a rule's diagnostics get.
    pub fn severity(&self, rule: &Rule) -> Severity {
        self.severity
            .get(rule.code)
            .copied()
            .unwrap_or(rule.severity)
    }

    /// Whether `per-file-ignores` switches `rule` off for the skill file at `path` (absolute) in
    /// skill directory `dir` (absolute).
    pub fn ignored_for(&self, rule: &Rule, path: &Path, dir: &Path) -> bool {
        if self.per_file_ignores.is_empty() {
            return false;
        }
        let relative = |p: &Path| p.strip_prefix(&self.base).map(Path::to_path_buf).ok();
        let (Some(file), Some(dir)) = (relative(path), relative(dir)) else {
            return false;
        };
        self.per_file_ignores.iter().any(|(set, rules)| {
            (set.is_match(&file) || set.is_match(&dir)) && rules.iter().any(|r| r.code == rule.code)
        })
    }

    /// Whether `per-file-ignores` names any file (most configurations do not).
    pub fn has_per_file_ignores(&self) -> bool {
        !self.per_file_ignores.is_empty()
    }
}

fn glob_set(patterns: &[Spanned<String>]) -> Result<GlobSet, (std::ops::Range<usize>, String)> {
    let mut builder = GlobSetBuilder::new();
    for pattern in patterns {
        let text = pattern.get_ref().trim_end_matches('/');
        let glob = |p: &str| -> Result<Glob, (std::ops::Range<usize>, String)> {
            GlobBuilder::new(p)
                .literal_separator(true)
                .build()
                .map_err(|e| {
                    (
                        pattern.span(),
                        format!("invalid glob `{}`: {}", pattern.get_ref(), e.kind()),
                    )
                })
        };
        builder.add(glob(text)?);
        // `vendor` and `vendor/**` both mean the directory and everything below it.
        if !text.ends_with("/**") {
            builder.add(glob(&format!("{text}/**"))?);
        }
    }
    builder
        .build()
        .map_err(|e| (0..0, format!("invalid glob set: {e}")))
}

/// Looks for a config file in `dir` and its ancestors, stopping after the one holding `.git`.
pub(crate) fn find_config(dir: &Path) -> Option<PathBuf> {
    for ancestor in dir.ancestors() {
        for name in FILE_NAMES {
            let candidate = ancestor.join(name);
            if candidate.is_file() {
                return Some(candidate);
            }
        }
        if ancestor.join(".git").exists() {
            break;
        }
    }
    None
}

/// 1-based line and column (characters) of a byte offset.
fn line_column(text: &str, offset: usize) -> (usize, usize) {
    let offset = offset.min(text.len());
    let before = text.get(..offset).unwrap_or(text);
    let line = before.matches('\n').count() + 1;
    let column = before.rsplit('\n').next().unwrap_or("").chars().count() + 1;
    (line, column)
}

/// toml's "unknown field `strcit`, expected one of `dialect`, `strict`, …" as "unknown field
/// `strcit`: did you mean `strict`?" when one field is close; other messages as they are.
fn unknown_field_hint(message: &str) -> String {
    let Some(rest) = message.strip_prefix("unknown field `") else {
        return message.to_string();
    };
    let Some((field, expected)) = rest.split_once("`, expected one of ") else {
        return message.to_string();
    };
    let known = expected.split(", ").map(|k| k.trim_matches('`'));
    match crate::suggest::closest(field, known) {
        Some(k) => format!("unknown field `{field}`: did you mean `{k}`?"),
        None => message.to_string(),
    }
}
