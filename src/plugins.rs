//! Claude Code plugins: which plugin a skill belongs to, read from the manifests the runtime
//! reads — `.claude-plugin/marketplace.json` (each entry's `source` folder, and its `skills`
//! paths when it lists them) and `.claude-plugin/plugin.json` (its `skills` paths). A plugin is
//! installed whole and namespaces its skills (`plugin:skill`), so it is both a namespace (SK501)
//! and an install (SK503/SK504), and `${CLAUDE_PLUGIN_ROOT}` is its folder.

use foldhash::{HashMap, HashMapExt};
use std::path::{Component, Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};

use crate::input::Listed;

/// A manifest larger than this is not read.
pub const MANIFEST_MAX_BYTES: u64 = 1024 * 1024;
/// How many ancestors are searched for a manifest.
const MAX_DEPTH: usize = 64;
/// At most this many marketplace entries are read.
const MAX_ENTRIES: usize = 10_000;
/// At most this many folders' nearest manifests are remembered (then forgotten at once):
/// memory stays bounded on a registry of any size.
const NEAREST_CACHED: usize = 4096;

/// The plugin a skill belongs to.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Plugin {
    /// Its folder (`${CLAUDE_PLUGIN_ROOT}`), shared by every skill of the plugin.
    pub root: Arc<Path>,
    /// Its name, when a manifest gives one (two marketplace entries may share a folder).
    pub name: Option<Arc<str>>,
}

/// What a search of a skill's ancestors found.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Found {
    /// A plugin or marketplace manifest lies above the skill: Claude Code is its runtime.
    pub in_plugin_tree: bool,
    /// The plugin that claims the skill, if one does.
    pub plugin: Option<Plugin>,
}

/// One plugin a manifest declares: its folder and the paths it loads skills from (its folder
/// when the manifest lists none).
#[derive(Debug, Clone)]
struct Declared {
    root: Arc<Path>,
    name: Option<Arc<str>>,
    claims: Vec<Claim>,
}

impl Declared {
    fn new(root: PathBuf, name: Option<String>, skills: Option<Vec<PathBuf>>) -> Self {
        let claims = match skills {
            None => vec![Claim::new(&root)],
            Some(paths) => paths.iter().map(|p| Claim::new(p)).collect(),
        };
        Declared {
            root: root.into(),
            name: name.map(Into::into),
            claims,
        }
    }

    /// How specifically it claims `dir` (made by [`Claim::bytes`]): the length of the longest
    /// claiming path.
    fn claim(&self, dir: &[u8]) -> Option<usize> {
        self.claims
            .iter()
            .filter(|c| c.holds(dir))
            .map(|c| c.depth)
            .max()
    }
}

/// A path that claims what lies at or below it, kept as its components joined by `/` so that
/// a skill's directory is compared with it as bytes, with the same answer as
/// [`Path::starts_with`]: every skill of a marketplace is compared with every plugin in it,
/// and walking both paths' components each time cost more than the rest of the search.
#[derive(Debug, Clone)]
struct Claim {
    path: PathBuf,
    /// Its number of components.
    depth: usize,
}

impl Claim {
    fn new(path: &Path) -> Self {
        let path = Claim::bytes(path);
        let depth = path.components().count();
        Claim { path, depth }
    }

    /// `path` in the form [`Claim::holds`] compares: its components joined by `/`.
    fn bytes(path: &Path) -> PathBuf {
        path.components().collect()
    }

    /// Whether `dir` (from [`Claim::bytes`]) is this path or below it: its components start
    /// with this path's, so its bytes do, up to a separator.
    fn holds(&self, dir: &[u8]) -> bool {
        let own = self.path.as_os_str().as_encoded_bytes();
        dir.starts_with(own)
            && (own.is_empty()
                || own.ends_with(b"/")
                || dir.len() == own.len()
                || dir.get(own.len()) == Some(&b'/'))
    }
}

/// Finds the plugin of the skill in `dir` (canonical, its listing showed `listed`): the most
/// specific claim of the nearest `plugin.json` and of the nearest `marketplace.json`'s entries;
/// the search stops after a directory holding `.git`.
pub fn find(dir: &Path, listed: Listed) -> Found {
    let mut found = Found::default();
    let Nearest(plugin_json, marketplace, _) = nearest_manifests(dir, listed).below(ceiling(dir));
    found.in_plugin_tree = plugin_json.is_some() || marketplace.is_some();
    let mut declared: Vec<Arc<Vec<Declared>>> = Vec::new();
    if let Some(root) = &plugin_json {
        declared.push(manifest(root, Kind::Plugin));
    }
    if let Some(root) = &marketplace {
        declared.push(manifest(root, Kind::Marketplace));
    }
    // Most skills lie under no manifest: nothing to compare, and no copy of their path.
    if declared.iter().all(|list| list.is_empty()) {
        return found;
    }
    let at = Claim::bytes(dir);
    let at = at.as_os_str().as_encoded_bytes();
    found.plugin = declared
        .iter()
        .flat_map(|list| list.iter())
        .filter_map(|d| Some((d.claim(at)?, d)))
        .max_by_key(|(claim, _)| *claim)
        .map(|(_, d)| Plugin {
            root: d.root.clone(),
            name: d.name.clone(),
        });
    found
}

/// The nearest folders at or above `dir` holding `.claude-plugin/plugin.json` and
/// `.claude-plugin/marketplace.json`, up to the folder holding `.git`. Skills share their
/// ancestors, so a folder is looked at once while the skills near it are checked (up to
/// [`NEAREST_CACHED`] folders are remembered); `dir` itself, which no other skill shares, is
/// not remembered, and what its listing settles is not looked at again.
fn nearest_manifests(dir: &Path, listed: Listed) -> Nearest {
    let cache = nearest_cache();
    // The folders not looked at yet, nearest first, whether each is a repository's root, and
    // what lies above them.
    let mut pending: Vec<(&Path, bool)> = Vec::new();
    let mut above = Nearest::default();
    for ancestor in dir.ancestors().take(MAX_DEPTH) {
        if let Some(hit) = cache.lock().ok().and_then(|c| c.get(ancestor).cloned()) {
            above = hit;
            break;
        }
        let settled = if ancestor == dir { listed.git } else { None };
        let root = settled.unwrap_or_else(|| ancestor.join(".git").exists());
        pending.push((ancestor, root));
        if root {
            break;
        }
    }
    for (folder, root) in pending.into_iter().rev() {
        let manifests = folder.join(".claude-plugin");
        let mut here = above.clone();
        // Most folders have no `.claude-plugin`: one look says so (or the listing did).
        let settled = if folder == dir {
            listed.claude_plugin
        } else {
            None
        };
        if settled.unwrap_or_else(|| manifests.is_dir()) {
            if manifests.join("plugin.json").is_file() {
                here.0 = Some(folder.to_path_buf());
            }
            if manifests.join("marketplace.json").is_file() {
                here.1 = Some(folder.to_path_buf());
            }
        }
        // Nothing above a repository's root counts for what lies below it.
        if root {
            here = Nearest(
                here.0.filter(|p| p == folder),
                here.1.filter(|p| p == folder),
                true,
            );
        }
        if folder != dir
            && let Ok(mut c) = cache.lock()
        {
            // The search and the workers move through the tree in path order: the folders
            // above the skills being checked now are the ones looked up again.
            if c.len() >= NEAREST_CACHED {
                c.clear();
            }
            c.insert(folder.to_path_buf(), here.clone());
        }
        above = here;
    }
    above
}

/// What [`nearest_manifests`] remembers: the folders above skills, each with what lies above it.
fn nearest_cache() -> &'static Mutex<HashMap<PathBuf, Nearest>> {
    static CACHE: OnceLock<Mutex<HashMap<PathBuf, Nearest>>> = OnceLock::new();
    CACHE.get_or_init(|| Mutex::new(HashMap::new()))
}

/// The nearest `plugin.json` and `marketplace.json` folders, and whether a repository's root
/// (a folder holding `.git`) bounded the search.
#[derive(Debug, Clone, Default)]
struct Nearest(Option<PathBuf>, Option<PathBuf>, bool);

impl Nearest {
    /// Outside any repository, a manifest counts only at or below `ceiling`: a stranger's
    /// `/tmp/.claude-plugin` says nothing about the skills below it.
    fn below(self, ceiling: &Path) -> Nearest {
        if self.2 {
            return self;
        }
        Nearest(
            self.0.filter(|p| p.starts_with(ceiling)),
            self.1.filter(|p| p.starts_with(ceiling)),
            false,
        )
    }
}

/// Where a search for manifests outside a repository stops: the current directory when the
/// skill lies below it, else the skill's own folder.
fn ceiling(dir: &Path) -> &Path {
    static CWD: OnceLock<Option<PathBuf>> = OnceLock::new();
    match CWD.get_or_init(|| {
        std::env::current_dir()
            .ok()
            .and_then(|d| d.canonicalize().ok())
    }) {
        Some(cwd) if dir.starts_with(cwd) => cwd,
        _ => dir,
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum Kind {
    Plugin,
    Marketplace,
}

/// The manifests read so far, by folder and kind.
type Manifests = HashMap<(PathBuf, Kind), Arc<Vec<Declared>>>;

/// The plugins a manifest declares, read once per process.
fn manifest(root: &Path, kind: Kind) -> Arc<Vec<Declared>> {
    static CACHE: OnceLock<Mutex<Manifests>> = OnceLock::new();
    let cache = CACHE.get_or_init(|| Mutex::new(HashMap::new()));
    let key = (root.to_path_buf(), kind);
    if let Some(hit) = cache.lock().ok().and_then(|c| c.get(&key).cloned()) {
        return hit;
    }
    let parsed = Arc::new(read(root, kind));
    if let Ok(mut c) = cache.lock() {
        c.insert(key, parsed.clone());
    }
    parsed
}

fn read(root: &Path, kind: Kind) -> Vec<Declared> {
    let file = root.join(".claude-plugin").join(match kind {
        Kind::Plugin => "plugin.json",
        Kind::Marketplace => "marketplace.json",
    });
    let json =
        match crate::input::read_capped(&file, MANIFEST_MAX_BYTES, crate::input::Links::Follow) {
            Ok(crate::input::Read::Bytes(bytes)) => {
                serde_json::from_slice::<serde_json::Value>(&bytes).ok()
            }
            _ => None,
        };
    match (kind, json) {
        // An unreadable plugin.json still marks a plugin: the whole folder.
        (Kind::Plugin, None) => vec![Declared::new(root.to_path_buf(), None, None)],
        (Kind::Plugin, Some(json)) => vec![Declared::new(
            root.to_path_buf(),
            json.get("name")
                .and_then(|n| n.as_str())
                .map(str::to_string),
            skill_paths(root, json.get("skills")),
        )],
        (Kind::Marketplace, None) => Vec::new(),
        (Kind::Marketplace, Some(json)) => marketplace(root, &json),
    }
}

/// The entries of a marketplace whose `source` is a local folder.
fn marketplace(root: &Path, json: &serde_json::Value) -> Vec<Declared> {
    local_entries(root, json)
        .map(|(entry, _, plugin_root)| {
            let skills = skill_paths(&plugin_root, entry.get("skills"));
            let name = entry
                .get("name")
                .and_then(|n| n.as_str())
                .map(str::to_string);
            Declared::new(plugin_root, name, skills)
        })
        .collect()
}

/// The `source` of each entry of a marketplace (its `.claude-plugin` folder in `root`) that is
/// a local path, as written and as the folder Claude Code installs: a `./` or `../` path from
/// `root`, another from `metadata.pluginRoot` (remote sources, objects, are not local).
pub fn local_sources(root: &Path, json: &serde_json::Value) -> Vec<(String, PathBuf)> {
    local_entries(root, json)
        .map(|(_, written, folder)| (written.to_string(), folder))
        .collect()
}

/// [`local_sources`] with each entry.
fn local_entries<'j>(
    root: &Path,
    json: &'j serde_json::Value,
) -> impl Iterator<Item = (&'j serde_json::Value, &'j str, PathBuf)> {
    let base = match json
        .pointer("/metadata/pluginRoot")
        .and_then(|v| v.as_str())
    {
        Some(prefix) => join(root, prefix),
        None => root.to_path_buf(),
    };
    let entries = json
        .get("plugins")
        .and_then(|p| p.as_array())
        .map_or(&[][..], Vec::as_slice);
    let root = root.to_path_buf();
    entries.iter().take(MAX_ENTRIES).filter_map(move |entry| {
        let source = entry.get("source")?.as_str()?;
        let folder = if source.starts_with("./") || source.starts_with("../") || source == "." {
            join(&root, source)
        } else {
            join(&base, source)
        };
        Some((entry, source, folder))
    })
}

/// A manifest's `skills`: a path or a list of paths, relative to the plugin's folder.
fn skill_paths(root: &Path, value: Option<&serde_json::Value>) -> Option<Vec<PathBuf>> {
    let paths: Vec<PathBuf> = match value? {
        serde_json::Value::String(s) => vec![join(root, s)],
        serde_json::Value::Array(items) => items
            .iter()
            .take(MAX_ENTRIES)
            .filter_map(|v| v.as_str())
            .map(|s| join(root, s))
            .collect(),
        _ => return None,
    };
    Some(paths)
}

/// `base` joined with a manifest's relative path, `.` and `..` applied lexically; a path that
/// is absolute or climbs above `base`'s root stays at `base` (a manifest does not reach out).
fn join(base: &Path, rel: &str) -> PathBuf {
    let mut path = base.to_path_buf();
    for part in Path::new(rel).components() {
        match part {
            Component::Normal(name) => path.push(name),
            Component::ParentDir => {
                path.pop();
            }
            Component::CurDir | Component::RootDir | Component::Prefix(_) => {}
        }
    }
    path.canonicalize().unwrap_or(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn claims_compare_as_path_prefixes_do() {
        let paths = [
            "", "/", "/a", "/a/", "/a/b", "/a/bc", "/a//b", "/a/./b", "/a/b/c", "/ab", "a", "a/b",
            "./a", ".", "./", "/a/..", "/a/../b", "a/../b",
        ];
        for base in paths {
            let claim = Claim::new(Path::new(base));
            assert_eq!(claim.depth, Path::new(base).components().count(), "{base}");
            for dir in paths {
                let at = Claim::bytes(Path::new(dir));
                assert_eq!(
                    claim.holds(at.as_os_str().as_encoded_bytes()),
                    Path::new(dir).starts_with(base),
                    "{dir} below {base}"
                );
            }
        }
    }

    fn write(path: &Path, text: &str) {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }

    #[test]
    fn marketplace_entries_claim_their_sources_and_skill_lists() {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path().canonicalize().unwrap();
        std::fs::create_dir(root.join(".git")).unwrap();
        write(
            &root.join(".claude-plugin/marketplace.json"),
            r#"{"plugins": [
                {"name": "docs", "source": "./", "skills": ["./skills/pdf"]},
                {"name": "extra", "source": "./", "skills": ["./skills/art"]},
                {"name": "tool", "source": "./plugins/tool"},
                {"name": "remote", "source": {"source": "github", "repo": "a/b"}}
            ]}"#,
        );
        for dir in [
            "skills/pdf",
            "skills/art",
            "plugins/tool/skills/x",
            "other/y",
        ] {
            std::fs::create_dir_all(root.join(dir)).unwrap();
        }
        let name = |dir: &str| {
            find(&root.join(dir), Listed::default())
                .plugin
                .and_then(|p| p.name)
        };
        assert_eq!(name("skills/pdf").as_deref(), Some("docs"));
        assert_eq!(name("skills/art").as_deref(), Some("extra"));
        assert_eq!(name("plugins/tool/skills/x").as_deref(), Some("tool"));
        let other = find(&root.join("other/y"), Listed::default());
        assert!(other.in_plugin_tree && other.plugin.is_none(), "{other:?}");
    }

    #[test]
    fn the_folders_remembered_stay_within_the_bound() {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path().canonicalize().unwrap();
        std::fs::create_dir(root.join(".git")).unwrap();
        // Each skill's parent folder is a folder above a skill no other skill shares.
        for i in 0..NEAREST_CACHED + 100 {
            let dir = root.join(format!("p{i}/s"));
            std::fs::create_dir_all(&dir).unwrap();
            assert_eq!(find(&dir, Listed::default()), Found::default());
        }
        let remembered = nearest_cache().lock().unwrap().len();
        assert!(
            remembered <= NEAREST_CACHED,
            "{remembered} folders remembered"
        );
    }

    #[test]
    fn plugin_json_skills_paths_limit_what_it_claims() {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path().canonicalize().unwrap();
        std::fs::create_dir(root.join(".git")).unwrap();
        write(
            &root.join(".claude-plugin/plugin.json"),
            r#"{"name": "p", "skills": "./skills/"}"#,
        );
        for dir in ["skills/a", "preview/a"] {
            std::fs::create_dir_all(root.join(dir)).unwrap();
        }
        assert_eq!(
            find(&root.join("skills/a"), Listed::default()).plugin,
            Some(Plugin {
                root: root.clone().into(),
                name: Some("p".into())
            })
        );
        assert_eq!(
            find(&root.join("preview/a"), Listed::default()).plugin,
            None
        );
    }
}
