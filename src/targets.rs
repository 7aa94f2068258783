//! Targets: the runtimes expected to load a skill (spec/runtimes.md). Everything skillc knows
//! about a runtime — where it keeps skills, which fields it reads, which path placeholders it
//! substitutes, how it namespaces keys, its per-skill limits and its catalog budget — is one
//! entry of [`RUNTIMES`]. Adding a runtime is adding an entry.

use std::fmt;
use std::path::{Component, Path, PathBuf};
use std::sync::Arc;

use crate::input::Listed;
use crate::plugins::Plugin;

/// The unit a catalog budget is measured in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unit {
    Tokens,
    Chars,
}

impl Unit {
    pub fn as_str(self) -> &'static str {
        match self {
            Unit::Tokens => "tokens",
            Unit::Chars => "characters",
        }
    }
}

/// A runtime's catalog budget.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Budget {
    /// A fixed number of tokens (`budget` in skillc.toml overrides it).
    Tokens(u64),
    /// `percent` % of the context window, at `chars_per_token` characters per token, or at
    /// least `floor` characters.
    Chars {
        percent: u64,
        chars_per_token: u64,
        floor: u64,
    },
}

impl Budget {
    /// The budget in its unit for a context window of `context_window` tokens.
    pub fn amount(self, context_window: u64) -> (u64, Unit) {
        match self {
            Budget::Tokens(n) => (n, Unit::Tokens),
            Budget::Chars {
                percent,
                chars_per_token,
                floor,
            } => (
                (context_window.saturating_mul(percent) / 100)
                    .saturating_mul(chars_per_token)
                    .max(floor),
                Unit::Chars,
            ),
        }
    }
}

/// How a runtime keeps two skills with the same key apart.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Namespace {
    /// One namespace for every skill of the run.
    Run,
    /// `plugin:name`: each plugin is its own namespace.
    Plugin,
    /// The tier (PAR): project, user, builtin.
    Tier,
}

/// What a path placeholder stands for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Root {
    /// The skill's directory.
    Skill,
    /// The plugin's directory (the skill's directory when it is in no plugin).
    Plugin,
}

/// One runtime that loads skills.
#[derive(Debug)]
pub struct Runtime {
    /// The target's name in flags, config and output.
    pub name: &'static str,
    /// As people write it.
    pub title: &'static str,
    /// The folders (below a project or the home directory) it loads skills from.
    pub folders: &'static [&'static str],
    /// Frontmatter fields it reads beyond the open specification's six.
    pub fields: &'static [&'static str],
    /// It reads only these fields (and ignores the rest of the spec's), when not empty.
    pub reads_only: &'static [&'static str],
    /// Placeholders it substitutes in the body for a directory.
    pub placeholders: &'static [(&'static str, Root)],
    pub namespace: Namespace,
    /// A skill without `name` is loaded under its directory's name.
    pub name_optional: bool,
    /// `allowed-tools` may separate tools with commas or be a YAML list (SK304 stays silent):
    /// Claude Code documents `allowed-tools: Read, Grep, Glob`, and Anthropic's own plugins
    /// write the list form, which it reads.
    pub tools_with_commas: bool,
    /// The listing cuts description (+ `when_to_use`) beyond this many characters (SK306).
    pub listing_cap: Option<usize>,
    /// The catalog budget (SK503 in tokens, SK504 in characters).
    pub budget: Option<Budget>,
    /// It refuses a skill whose frontmatter holds a key it does not define (SK013 is then an
    /// error; a runtime that loads the skill and ignores the key makes it a warning).
    pub rejects_unknown: bool,
    /// Where the facts come from: `false` when only from a third-party reading (runtimes.md's
    /// †), so that rules built on them never make errors.
    pub documented: bool,
}

/// Fields Claude Code documents beyond the open format (the `@claude-code` set).
pub const CLAUDE_CODE_FIELDS: &[&str] = &[
    "when_to_use",
    "argument-hint",
    "arguments",
    "disable-model-invocation",
    "user-invocable",
    "model",
    "effort",
    "context",
    "agent",
    "hooks",
    "paths",
    "shell",
];

const BASE_DIR: (&str, Root) = ("{baseDir}", Root::Skill);

/// What a runtime is unless its entry says otherwise: it reads only the specification's
/// fields, substitutes `{baseDir}`, has one namespace, no listing cap and no known budget, and
/// its facts come from a third-party reading (†).
const DEFAULTS: Runtime = Runtime {
    name: "",
    title: "",
    folders: &[],
    fields: &[],
    reads_only: &[],
    placeholders: &[BASE_DIR],
    namespace: Namespace::Run,
    name_optional: false,
    tools_with_commas: false,
    listing_cap: None,
    budget: None,
    rejects_unknown: false,
    documented: false,
};

/// Every runtime skillc knows, `spec` first. A new runtime is one more entry.
pub static RUNTIMES: &[Runtime] = &[
    Runtime {
        name: "spec",
        title: "Agent Skills",
        folders: &[".agents/skills"],
        // `skills-ref validate` refuses any key beyond the six.
        rejects_unknown: true,
        documented: true,
        ..DEFAULTS
    },
    Runtime {
        name: "claude-code",
        title: "Claude Code",
        folders: &[".claude/skills"],
        fields: CLAUDE_CODE_FIELDS,
        placeholders: &[
            ("${CLAUDE_SKILL_DIR}", Root::Skill),
            BASE_DIR,
            ("${CLAUDE_PLUGIN_ROOT}", Root::Plugin),
        ],
        namespace: Namespace::Plugin,
        name_optional: true,
        tools_with_commas: true,
        listing_cap: Some(1536),
        budget: Some(Budget::Chars {
            percent: 1,
            chars_per_token: 4,
            floor: 0,
        }),
        ..DEFAULTS
    },
    Runtime {
        name: "codex",
        title: "Codex",
        folders: &[".codex/skills"],
        fields: &["metadata.short-description"],
        budget: Some(Budget::Chars {
            percent: 2,
            chars_per_token: 4,
            floor: 8000,
        }),
        ..DEFAULTS
    },
    Runtime {
        name: "copilot",
        title: "GitHub Copilot",
        folders: &[".github/skills"],
        // VS Code's skill reference documents these for SKILL.md.
        fields: &[
            "argument-hint",
            "user-invocable",
            "disable-model-invocation",
        ],
        documented: true,
        ..DEFAULTS
    },
    Runtime {
        name: "gemini",
        title: "Gemini CLI",
        folders: &[".gemini/skills"],
        reads_only: &["name", "description"],
        ..DEFAULTS
    },
    Runtime {
        name: "cursor",
        title: "Cursor",
        folders: &[".cursor/skills"],
        fields: &["disable-model-invocation"],
        ..DEFAULTS
    },
    Runtime {
        name: "opencode",
        title: "OpenCode",
        folders: &[".opencode/skills"],
        ..DEFAULTS
    },
    Runtime {
        name: "par",
        title: "PAR",
        folders: &[".par/skills"],
        placeholders: &[],
        namespace: Namespace::Tier,
        budget: Some(Budget::Tokens(2048)),
        rejects_unknown: true,
        documented: true,
        ..DEFAULTS
    },
];

/// The index of `spec` in [`RUNTIMES`].
const SPEC: usize = 0;

/// Finds a runtime by name.
pub fn find(name: &str) -> Option<&'static Runtime> {
    RUNTIMES.iter().find(|r| r.name == name)
}

/// A set of targets (a bit per entry of [`RUNTIMES`]).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Targets(u32);

impl Targets {
    /// The set holding only the runtime named `name`.
    pub fn named(name: &str) -> Option<Targets> {
        let i = RUNTIMES.iter().position(|r| r.name == name)?;
        Some(Targets(1 << i))
    }

    /// Every runtime.
    pub fn all() -> Targets {
        Targets((1u32 << RUNTIMES.len()) - 1)
    }

    pub fn spec() -> Targets {
        Targets(1 << SPEC)
    }

    /// Parses `NAME[,NAME…]` (`all` for every runtime).
    pub fn parse(text: &str) -> Result<Targets, String> {
        let mut set = Targets::default();
        for name in text.split(',').map(str::trim).filter(|n| !n.is_empty()) {
            set = set.union(if name == "all" {
                Targets::all()
            } else {
                Targets::named(name).ok_or_else(|| {
                    format!(
                        "unknown target `{name}`; the targets are {}, or `all`",
                        names(Targets::all())
                    )
                })?
            });
        }
        if set.is_empty() {
            return Err("no target named".into());
        }
        Ok(set)
    }

    pub fn union(self, other: Targets) -> Targets {
        Targets(self.0 | other.0)
    }

    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    pub fn intersection(self, other: Targets) -> Targets {
        Targets(self.0 & other.0)
    }

    pub fn difference(self, other: Targets) -> Targets {
        Targets(self.0 & !other.0)
    }

    /// The runtimes of the set that satisfy `keep`.
    pub fn filter(self, keep: impl Fn(&Runtime) -> bool) -> Targets {
        let mut set = Targets::default();
        for (i, runtime) in RUNTIMES.iter().enumerate() {
            if self.0 & (1 << i) != 0 && keep(runtime) {
                set = set.union(Targets(1 << i));
            }
        }
        set
    }

    pub fn contains(self, name: &str) -> bool {
        Targets::named(name).is_some_and(|t| self.0 & t.0 != 0)
    }

    /// The runtimes of the set, in table order.
    pub fn iter(self) -> impl Iterator<Item = &'static Runtime> {
        RUNTIMES
            .iter()
            .enumerate()
            .filter(move |(i, _)| self.0 & (1 << i) != 0)
            .map(|(_, r)| r)
    }

    /// The names, in table order.
    pub fn names(self) -> Vec<&'static str> {
        self.iter().map(|r| r.name).collect()
    }
}

impl fmt::Debug for Targets {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.names().join(","))
    }
}

impl fmt::Display for Targets {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.names().join(","))
    }
}

/// Names for a message: `a`, `a and b`, `a, b and c`, each in backticks.
pub fn names(targets: Targets) -> String {
    let names: Vec<String> = targets.names().iter().map(|n| format!("`{n}`")).collect();
    match names.as_slice() {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

/// Where a skill sits, as far as runtimes are concerned.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Placement {
    /// The targets its location implies (`None`: no runtime folder, no plugin).
    pub targets: Option<Targets>,
    /// The Claude Code plugin that claims it (its manifests say so).
    pub plugin: Option<Plugin>,
    /// It lies below a plugin or marketplace manifest, but no plugin claims it: Claude Code
    /// does not load it.
    pub unclaimed: bool,
    /// The installs it belongs to (`.claude/skills`, a plugin, `.par/skills`, …), each with
    /// the runtimes that load it: the skills one runtime would list together, for the catalog
    /// budgets.
    pub installs: Vec<(Targets, Install)>,
}

impl Placement {
    /// No runtime folder and no plugin: where most skills sit.
    pub const NOWHERE: Placement = Placement {
        targets: None,
        plugin: None,
        unclaimed: false,
        installs: Vec::new(),
    };
}

/// The skills one runtime lists together: a runtime folder, or one plugin.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Install {
    pub dir: Arc<Path>,
    /// The plugin's name, when the install is a named plugin.
    pub plugin: Option<Arc<str>>,
}

impl Placement {
    /// Reads a skill's placement from its directory: `real` without links, then the paths the
    /// run reached it by (`shown`, as given, and any aliases). Every runtime folder among them
    /// adds its runtime: a skill linked into `.claude/skills` and `.codex/skills` is loaded by
    /// both. `listed` is what the search's listing of the directory showed.
    pub fn of<'a>(
        real: &'a Path,
        shown: impl IntoIterator<Item = &'a Path>,
        listed: Listed,
    ) -> Placement {
        let mut placement = Placement::default();
        for path in std::iter::once(real).chain(shown) {
            let Some((runtime, root)) = runtime_folder(path) else {
                continue;
            };
            let targets = placement.targets.unwrap_or_default();
            if targets.union(runtime) == targets {
                continue;
            }
            placement.targets = Some(targets.union(runtime));
            placement.installs.push((
                runtime,
                Install {
                    dir: root.into(),
                    plugin: None,
                },
            ));
        }
        let found = crate::plugins::find(real, listed);
        if found.in_plugin_tree && placement.targets.is_none() {
            let claude = Targets::named("claude-code").unwrap_or_default();
            placement.targets = Some(claude);
            placement.unclaimed = found.plugin.is_none();
            if let Some(p) = &found.plugin {
                placement.installs.push((
                    claude,
                    Install {
                        dir: p.root.clone(),
                        plugin: p.name.clone(),
                    },
                ));
            }
        }
        placement.plugin = found.plugin;
        placement
    }

    /// The install through which `runtime` loads the skill.
    pub fn install_for(&self, runtime: &Runtime) -> Option<&Install> {
        self.installs
            .iter()
            .find(|(targets, _)| targets.contains(runtime.name))
            .map(|(_, install)| install)
    }

    /// The plugin's folder, for `${CLAUDE_PLUGIN_ROOT}`.
    pub fn plugin_root(&self) -> Option<&Path> {
        self.plugin.as_ref().map(|p| &*p.root)
    }
}

/// The runtime whose folder (`.claude/skills`, …) `path` lies in, and that folder.
fn runtime_folder(path: &Path) -> Option<(Targets, PathBuf)> {
    if !may_hold_folder(path) {
        return None;
    }
    let parts: Vec<Component> = path.components().collect();
    // The innermost folder wins: `.claude/skills/x/.par/skills/y` is PAR's.
    for end in (2..parts.len()).rev() {
        let (Component::Normal(a), Component::Normal(b)) = (parts[end - 2], parts[end - 1]) else {
            continue;
        };
        for (i, runtime) in RUNTIMES.iter().enumerate() {
            for folder in runtime.folders {
                // The second name first: most folders of a path are not `skills`.
                if folder
                    .split_once('/')
                    .is_some_and(|(first, second)| b == second && a == first)
                {
                    let root: PathBuf = parts[..end].iter().collect();
                    return Some((Targets(1 << i), root));
                }
            }
        }
    }
    None
}

/// Whether a component of `path` may begin a runtime's folder: one begins with the first byte
/// of a folder's name, and a component begins the path or follows a `/`. Most skills lie in no
/// runtime's folder, and this look at the bytes tells so without taking the path apart.
#[cfg(unix)]
fn may_hold_folder(path: &Path) -> bool {
    use std::os::unix::ffi::OsStrExt;
    let bytes = path.as_os_str().as_bytes();
    let begins_folder = |b: &u8| {
        RUNTIMES
            .iter()
            .flat_map(|runtime| runtime.folders)
            .any(|folder| folder.as_bytes().first() == Some(b))
    };
    bytes.first().is_some_and(begins_folder)
        || memchr::memchr_iter(b'/', bytes).any(|i| bytes.get(i + 1).is_some_and(begins_folder))
}

#[cfg(not(unix))]
fn may_hold_folder(_path: &Path) -> bool {
    true
}

/// The placeholders of `targets` with the directories they stand for.
pub fn placeholders(
    targets: Targets,
    skill: &Path,
    plugin: Option<&Path>,
) -> Vec<(&'static str, PathBuf)> {
    let mut out: Vec<(&'static str, PathBuf)> = Vec::new();
    for runtime in targets.iter() {
        for &(text, root) in runtime.placeholders {
            if out.iter().any(|(t, _)| *t == text) {
                continue;
            }
            let dir = match root {
                Root::Skill => skill.to_path_buf(),
                Root::Plugin => plugin.unwrap_or(skill).to_path_buf(),
            };
            out.push((text, dir));
        }
    }
    out
}

/// The runtimes that define `field` as one of their own.
pub fn defining(field: &str) -> Targets {
    let mut set = Targets::default();
    for (i, runtime) in RUNTIMES.iter().enumerate() {
        if runtime.fields.contains(&field) {
            set = set.union(Targets(1 << i));
        }
    }
    set
}

/// The fields of the open specification, which every Agent Skills runtime reads (unless it
/// reads only some of them).
pub const SPEC_FIELDS: [&str; 6] = [
    "name",
    "description",
    "license",
    "compatibility",
    "metadata",
    "allowed-tools",
];

impl Runtime {
    /// Whether the runtime reads the top-level frontmatter field `field` of an Agent Skills
    /// skill.
    pub fn reads(&self, field: &str) -> bool {
        if !self.reads_only.is_empty() {
            return self.reads_only.contains(&field);
        }
        SPEC_FIELDS.contains(&field) || self.fields.contains(&field)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn folders_give_targets_and_install_roots() {
        let (t, root) = runtime_folder(Path::new("repo/.claude/skills/pdf")).unwrap();
        assert_eq!(t.names(), ["claude-code"]);
        assert_eq!(root, Path::new("repo/.claude/skills"));
        let (t, _) = runtime_folder(Path::new("/h/.claude/skills/x/.par/skills/y")).unwrap();
        assert_eq!(t.names(), ["par"]);
        assert!(runtime_folder(Path::new("skills/pdf")).is_none());
        assert!(runtime_folder(Path::new(".claude/agents/x")).is_none());
        let (t, root) = runtime_folder(Path::new("./.codex//skills/x")).unwrap();
        assert_eq!(t.names(), ["codex"]);
        assert_eq!(root, Path::new("./.codex/skills"));
        let (t, _) = runtime_folder(Path::new("/a.b/c/.gemini/skills/x")).unwrap();
        assert_eq!(t.names(), ["gemini"]);
        assert!(runtime_folder(Path::new("/a/b.claude/skills/x")).is_none());
    }

    #[test]
    fn parse_lists_and_all() {
        assert_eq!(
            Targets::parse("codex, par").unwrap().names(),
            ["codex", "par"]
        );
        assert_eq!(Targets::parse("all").unwrap(), Targets::all());
        assert_eq!(
            Targets::parse("claude").unwrap_err(),
            "unknown target `claude`; the targets are `spec`, `claude-code`, `codex`, `copilot`, `gemini`, `cursor`, `opencode` and `par`, or `all`"
        );
    }

    #[test]
    fn budgets_in_their_units() {
        let cc = find("claude-code").unwrap().budget.unwrap();
        assert_eq!(cc.amount(200_000), (8000, Unit::Chars));
        let codex = find("codex").unwrap().budget.unwrap();
        assert_eq!(codex.amount(200_000), (16_000, Unit::Chars));
        assert_eq!(codex.amount(50_000), (8000, Unit::Chars));
    }
}
