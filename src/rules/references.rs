//! The files a skill's body leads to: SK406 (reference chains) and SK412 (files nothing the
//! model reads mentions).
//!
//! Files are read only inside the skill's real directory and outside the skills nested in it,
//! each at most once per rule and under a cap (the first [`MAX_READ`] bytes of each,
//! [`MAX_SCANNED_BYTES`] and [`MAX_SCANNED_FILES`] per skill); links are resolved lexically and
//! never followed out of the skill. All work is linear in the skill's files and texts.

use foldhash::{HashMap, HashMapExt, HashSet, HashSetExt};
use std::collections::VecDeque;
use std::io::Read as _;
use std::path::Path;

use super::body::{Resolver, Target};
use crate::config::Settings;
use crate::diagnostic::Span;
use crate::discover::SkillDir;
use crate::files::{Kind, LinkTarget, SkillTree};
use crate::input::Links;
use crate::markdown;
use crate::skill::Reporter;
use crate::source::SkillFile;

crate::rule::declare! {
    SK406 "reference-chain" Warning Both
        needs(frontmatter)
        tags(follows_links)
        "A file the body links links on to a file of the skill the body does not link.";
    SK412 "unreferenced-file" Info Both
        needs(frontmatter)
        tags(files)
        "A file under `references/`, `resources/` or `scripts/` that nothing the model reads mentions.";
}

/// At most this much of each file is read to follow its links and mentions (the first bytes
/// of a larger file: as much as a model reads of it).
pub const MAX_READ: u64 = 1 << 20;
/// At most this many bytes are read per skill to follow mentions.
pub const MAX_SCANNED_BYTES: u64 = 32 << 20;
/// At most this many files are read per skill to follow mentions.
pub const MAX_SCANNED_FILES: usize = 4096;
/// At most this many trailing components of a path are indexed: a longer module path or folder
/// is looked up by its last ones and checked against the whole path, so the index stays
/// proportional to the tree however deep it is.
const MAX_TAIL: usize = 4;
/// At most this many indexed paths are checked against longer keys per skill; past it, what
/// the skill reaches cannot be told and SK412 is not reported.
const MAX_LOOKUP_WORK: usize = 1 << 22;

/// Folders whose files the model should be told about (SK412).
const DISCOVERABLE: [&str; 3] = ["references", "resources", "scripts"];

/// Folders and files that are never anyone's reference: caches, dependencies, metadata.
const IGNORED_DIRS: [&str; 4] = ["__pycache__", "node_modules", "__MACOSX", "venv"];
const IGNORED_EXTENSIONS: [&str; 3] = ["pyc", "pyo", "class"];
/// Files that serve the scripts or the people who maintain them, not the model: package
/// manifests and lock files, documentation of the folder.
const TOOLING_FILES: [&str; 30] = [
    "pyproject.toml",
    "uv.lock",
    "poetry.lock",
    "pipfile",
    "pipfile.lock",
    "setup.py",
    "setup.cfg",
    "requirements.txt",
    "requirements-dev.txt",
    "package.json",
    "package-lock.json",
    "npm-shrinkwrap.json",
    "yarn.lock",
    "pnpm-lock.yaml",
    "bun.lockb",
    "tsconfig.json",
    "jsconfig.json",
    "deno.json",
    "deno.lock",
    "gemfile",
    "gemfile.lock",
    "go.mod",
    "go.sum",
    "cargo.toml",
    "cargo.lock",
    "composer.json",
    "composer.lock",
    "readme.md",
    "license",
    "conftest.py",
];
/// Folders of tests.
const TEST_DIRS: [&str; 3] = ["tests", "test", "__tests__"];
/// Package markers: imported with their package, never named.
const PACKAGE_FILES: [&str; 5] = [
    "__init__.py",
    "index.js",
    "index.mjs",
    "index.cjs",
    "index.ts",
];

const MARKDOWN: [&str; 3] = ["md", "markdown", "mdx"];
const PROSE: [&str; 3] = ["txt", "rst", "adoc"];
/// Source files: their imports, runs and string literals count as mentions.
const CODE: [&str; 26] = [
    "py", "sh", "bash", "zsh", "fish", "js", "mjs", "cjs", "ts", "mts", "cts", "jsx", "tsx", "rb",
    "pl", "php", "ps1", "psm1", "lua", "r", "go", "rs", "java", "kt", "swift", "bat",
];
/// Data and markup files: their string literals count as mentions (`schemaLocation="x.xsd"`,
/// `<script src="helper.js">`).
const DATA: [&str; 16] = [
    "json", "jsonl", "yaml", "yml", "toml", "xml", "xsd", "xsl", "html", "htm", "css", "ini",
    "cfg", "conf", "j2", "tmpl",
];
const IMAGES: [&str; 9] = [
    "png", "jpg", "jpeg", "gif", "svg", "webp", "ico", "bmp", "avif",
];

/// What the skill file says, as the body rules saw it.
pub struct Body<'a> {
    /// The whole skill file (the frontmatter's hooks and allowed tools name scripts too).
    pub file: &'a str,
    /// The body.
    pub text: &'a str,
    /// The skill file's name (`SKILL.md`).
    pub skill_file: &'a str,
    /// The files and folders of the skill the body links, in order.
    pub linked: &'a [String],
}

/// Runs SK406 and SK412; returns the files SK406 reports into.
pub fn check(
    dir: &SkillDir,
    resolver: &Resolver,
    tree: &SkillTree,
    body: &Body,
    settings: &Settings,
    out: &mut Reporter,
) -> Vec<SkillFile> {
    // Most skills hold nothing either rule looks at: no Markdown file beside the skill file
    // (no chain can start), no file under references/, resources/ or scripts/ that SK412 could
    // report (nothing can be unmentioned). Their bodies are not scanned at all.
    let other_markdown = tree
        .entries
        .iter()
        .any(|e| e.is_file() && has_extension(&e.rel, &MARKDOWN) && e.rel != body.skill_file);
    let discoverable = tree
        .entries
        .iter()
        .any(|e| e.is_file() && is_candidate(&e.rel));
    let sk406 = settings.enabled(&SK406) && other_markdown;
    let sk412 = settings.enabled(&SK412) && discoverable;
    if !sk406 && !sk412 {
        return Vec::new();
    }
    let index = Index::new(tree);
    // Its candidates may all be files of skills nested in it: then SK412 can report nothing.
    let sk412 = sk412 && index.candidates > 0;
    if !sk406 && !sk412 {
        return Vec::new();
    }
    // What the skill file mentions, scanned only when a rule needs more than its links.
    let mentions = std::cell::OnceCell::new();
    let mentions =
        || mentions.get_or_init(|| Mentions::of(&index, resolver, body.file, "", TextKind::Prose));
    let mut files = Vec::new();
    // SK406's reader keeps what it read for SK412's, when SK412 runs.
    let mut reader = Reader::new(resolver.skill, &index, sk412);
    if sk406 {
        // What the skill file itself links or mentions: one level, nothing followed further;
        // a path names the files it can be the end of, not every file of that name. Needed
        // only once a linked file links on to a file the body does not link.
        let direct = std::cell::OnceCell::new();
        let direct = || {
            direct.get_or_init(|| {
                let mut direct = Reach::new(&index, Names::ByPath);
                direct.follow_skill_file(body, mentions());
                direct
            })
        };
        files = chains(dir, resolver, body, &index, direct, &mut reader, out);
    }
    if sk412 {
        let mut reach = Reach::new(&index, Names::Loose);
        for rel in body.linked {
            reach.follow(Key::Path(rel.clone()));
        }
        // Every file SK412 could report is linked: the body's words cannot change that.
        if reach.pending > 0 {
            reach.take(mentions(), "", TextKind::Prose);
        }
        // Its own caps, and the texts SK406 read already.
        let mut reader = reader.pass_on();
        unreferenced(dir, resolver, reach, &mut reader, out);
    }
    files
}

/// Reads the skill's own files (those of the [`Index`]) under the caps.
struct Reader<'a, 't> {
    root: &'a Path,
    index: &'a Index<'t>,
    files: usize,
    bytes: u64,
    /// A read was refused because the caps were reached.
    capped: bool,
    /// Whether texts read are kept for the next rule's reader ([`Reader::keep`]).
    hands_on: bool,
    /// Texts another rule read already, by index, with their length as read: taken, not read
    /// again (SK412 follows the files SK406 read). At most [`MAX_KEPT`] bytes of text.
    kept: HashMap<usize, (u64, String)>,
    kept_bytes: u64,
}

/// At most this many bytes of texts read are kept for the next rule (a skill whose linked
/// files are larger has the rest read again, rather than held).
const MAX_KEPT: u64 = MAX_READ;

impl<'a, 't> Reader<'a, 't> {
    fn new(root: &'a Path, index: &'a Index<'t>, hands_on: bool) -> Self {
        Reader {
            root,
            index,
            files: 0,
            bytes: 0,
            capped: false,
            hands_on,
            kept: HashMap::new(),
            kept_bytes: 0,
        }
    }

    /// A reader for the next rule, with its own caps, that takes the texts kept by this one
    /// (and keeps none).
    fn pass_on(self) -> Self {
        Reader {
            kept: self.kept,
            kept_bytes: self.kept_bytes,
            ..Reader::new(self.root, self.index, false)
        }
    }

    /// The text of the file at `rel` (its first [`MAX_READ`] bytes, invalid UTF-8 replaced)
    /// and how many bytes were read, when it is one of the skill's own files and the caps allow.
    fn read(&mut self, rel: &str) -> Option<(String, u64)> {
        let &i = self.index.by_rel.get(rel)?;
        if self.files >= MAX_SCANNED_FILES || self.bytes >= MAX_SCANNED_BYTES {
            self.capped = true;
            return None;
        }
        self.files += 1;
        if let Some((len, text)) = self.kept.remove(&i) {
            self.kept_bytes -= text.len() as u64;
            self.bytes += len;
            return Some((text, len));
        }
        let plain = self.index.plain.get(i).copied().unwrap_or(false);
        let bytes = self.load(rel, plain)?;
        let len = bytes.len() as u64;
        self.bytes += len;
        let text = String::from_utf8(bytes)
            .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned());
        Some((text, len))
    }

    /// Keeps the text of `rel` (read by [`Reader::read`], `len` bytes as read) for the reader
    /// [`Reader::pass_on`] makes, when this one hands texts on, within [`MAX_KEPT`] bytes of
    /// text (invalid UTF-8 replaced can make a text longer than the bytes read).
    fn keep(&mut self, rel: &str, len: u64, text: String) {
        let size = text.len() as u64;
        if self.hands_on
            && let Some(&i) = self.index.by_rel.get(rel)
            && self.kept_bytes + size <= MAX_KEPT
            && !self.kept.contains_key(&i)
        {
            self.kept_bytes += size;
            self.kept.insert(i, (len, text));
        }
    }

    /// The first [`MAX_READ`] bytes of a file of the skill. A plain file was listed by the walk
    /// below real directories only, so it is opened as it is, refusing a symbolic link in its
    /// place; a symbolic link is read only when its real path is inside the skill.
    fn load(&self, rel: &str, plain: bool) -> Option<Vec<u8>> {
        let (path, links) = if plain {
            (self.root.join(rel), Links::Refuse)
        } else {
            let real = std::fs::canonicalize(self.root.join(rel)).ok()?;
            if !real.starts_with(self.root) {
                return None;
            }
            (real, Links::Follow)
        };
        let file = crate::input::open(&path, links).ok()?;
        let meta = file.metadata().ok()?;
        if !meta.is_file() {
            return None;
        }
        let mut bytes = Vec::with_capacity(meta.len().min(MAX_READ) as usize);
        file.take(MAX_READ).read_to_end(&mut bytes).ok()?;
        Some(bytes)
    }
}

/// The directory of a relative path (empty at the root).
fn parent(rel: &str) -> &str {
    rel.rfind('/').map_or("", |i| &rel[..i])
}

/// The lower-cased extension of a path's last component, if any.
fn extension(rel: &str) -> Option<String> {
    let name = rel.rsplit('/').next().unwrap_or(rel);
    let (stem, ext) = name.rsplit_once('.')?;
    (!stem.is_empty()).then(|| ext.to_ascii_lowercase())
}

fn has_extension(rel: &str, list: &[&str]) -> bool {
    extension(rel).is_some_and(|e| list.contains(&e.as_str()))
}

// ---------------------------------------------------------------------------------------------
// SK406

/// SK406: a Markdown file the body links that links on to a file of the skill the body neither
/// links nor mentions (`direct`: by the rules of SK412, a folder or a glob included), reported at
/// that second link, once per file reached that way. Nothing when what the body mentions cannot
/// be told ([`Reach::incomplete`]).
fn chains<'i, 't: 'i>(
    dir: &SkillDir,
    resolver: &Resolver,
    body: &Body,
    index: &'i Index<'t>,
    direct: impl Fn() -> &'i Reach<'i, 't>,
    reader: &mut Reader,
    out: &mut Reporter,
) -> Vec<SkillFile> {
    let linked: HashSet<&str> = body.linked.iter().map(String::as_str).collect();
    let mut files = Vec::new();
    // Each file of the skill is judged once: reported as a second hop, or not one.
    let mut judged: HashSet<String> = HashSet::new();
    let mut seen: HashSet<&str> = HashSet::new();
    for first in body.linked {
        if !seen.insert(first) || !has_extension(first, &MARKDOWN) || !index.has(first) {
            continue;
        }
        let Some((text, len)) = reader.read(first) else {
            continue;
        };
        let mut hops = Vec::new();
        for link in markdown::links(&text) {
            let Target::Inside(second) = resolver.resolve(&link.dest, parent(first)) else {
                continue;
            };
            if second == *first || !index.has(&second) || judged.contains(&second) {
                continue;
            }
            judged.insert(second.clone());
            if second.eq_ignore_ascii_case(body.skill_file)
                || linked.contains(second.as_str())
                || body.text.contains(second.as_str())
                || has_extension(&second, &IMAGES)
            {
                continue;
            }
            if direct().incomplete() {
                return Vec::new();
            }
            if direct().has(&second) {
                continue;
            }
            hops.push((Span::new(link.span.start, link.span.end), second));
        }
        let Some(last) = hops.iter().map(|(span, _)| span.end).max() else {
            reader.keep(first, len, text);
            continue;
        };
        // The snippets need the text up to the end of the last hop's line, no more.
        let end = text
            .get(last..)
            .and_then(|rest| rest.find('\n'))
            .map_or(text.len(), |i| last + i);
        let file = SkillFile::new(
            dir.path_of(first),
            text.get(..end).unwrap_or(&text).to_string(),
        );
        reader.keep(first, len, text);
        let mut here = Reporter::new(Some(&file), file.path.clone(), dir.dir.clone());
        for (span, second) in hops {
            let skill = body.skill_file;
            here.emit(&SK406, Some(span), format!("`{second}` is two links away from the skill file: {skill} → {first} → {second}"))
                .label("second hop")
                .help(format!("link `{second}` from {skill} where the agent needs it, or merge it into `{first}`: keep references one level deep"));
        }
        out.diagnostics.extend(here.diagnostics);
        files.push(file);
    }
    files
}

// ---------------------------------------------------------------------------------------------
// SK412

/// What a file's text can be searched for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum TextKind {
    /// Markdown: its links and the names it mentions.
    Markdown,
    /// Other prose: the names it mentions.
    Prose,
    /// A script or data file: names, string literals naming folders, and (Python) imports.
    Code,
}

impl TextKind {
    /// How a file is searched, or `None` for files that are not text (images, archives…).
    fn of(rel: &str) -> Option<TextKind> {
        match extension(rel) {
            None => Some(TextKind::Code),
            Some(e) if MARKDOWN.contains(&e.as_str()) => Some(TextKind::Markdown),
            Some(e) if PROSE.contains(&e.as_str()) => Some(TextKind::Prose),
            Some(e) if CODE.contains(&e.as_str()) || DATA.contains(&e.as_str()) => {
                Some(TextKind::Code)
            }
            Some(_) => None,
        }
    }
}

/// Whether a path is a cache, a dependency folder, metadata or a package marker: never
/// reported, never searched (package markers are searched when their package is imported).
fn ignored(rel: &str) -> bool {
    let mut parts = rel.split('/');
    let name = rel.rsplit('/').next().unwrap_or(rel);
    parts.any(|p| p.starts_with('.') || IGNORED_DIRS.contains(&p))
        || PACKAGE_FILES.contains(&name)
        || has_extension(rel, &IGNORED_EXTENSIONS)
}

/// Whether a file serves the scripts rather than the model: a manifest, a lock file, a README
/// or license, a test (`test_x.py`, `x_test.go`, `x.test.js`, `x.spec.ts`, anything in
/// `tests/`). Such files are searched when reached but never reported.
fn tooling(rel: &str) -> bool {
    let name = rel.rsplit('/').next().unwrap_or(rel).to_ascii_lowercase();
    let stem = name.split('.').next().unwrap_or(&name);
    TOOLING_FILES.contains(&name.as_str())
        || ["readme", "license", "licence", "changelog", "requirements"].contains(&stem)
        || rel.split('/').any(|p| TEST_DIRS.contains(&p))
        || (stem.starts_with("test_") || stem.ends_with("_test"))
        || name.contains(".test.")
        || name.contains(".spec.")
}

/// Whether SK412 reports the file at `rel` when nothing mentions it.
fn is_candidate(rel: &str) -> bool {
    DISCOVERABLE
        .iter()
        .any(|d| rel.strip_prefix(d).is_some_and(|r| r.starts_with('/')))
        && !ignored(rel)
        && !tooling(rel)
}

/// The skill's files and folders, by every way a text can name them. The files and folders of
/// skills nested in the skill are not in it: they are the nested skill's (SK016), which follows
/// and reports them.
struct Index<'t> {
    /// Every file, sorted.
    files: Vec<&'t str>,
    /// Whether each file is a plain file (not a symbolic link).
    plain: Vec<bool>,
    /// Whether each file is one SK412 reports when nothing mentions it: under references/,
    /// resources/ or scripts/, neither ignored nor tooling.
    candidate: Vec<bool>,
    /// How many files are candidates.
    candidates: usize,
    by_rel: HashMap<&'t str, usize>,
    /// By file name, lower-cased (`pack.py`; `FORMS.md` names `forms.md`).
    by_name: HashMap<String, Vec<usize>>,
    /// Source files by module path without extension (`scripts/office/pack`, `office/pack`,
    /// `pack`), and packages by folder path (to their `__init__.py` or `index.js`).
    by_module: Tails<'t, usize>,
    /// Folders by path and by their tails of two or more components (`office/schemas`).
    dirs: Tails<'t, &'t str>,
    /// Folders by name, for string literals in scripts (`Path(__file__).parent / "schemas"`).
    dir_names: HashMap<&'t str, Vec<&'t str>>,
    /// The byte lengths of the file and folder names that have no dot or path separator (bit
    /// `n`, 63 for 63 and more): a plain word of another length names none of them. Most
    /// names have an extension, and then no plain word is looked up at all.
    name_lengths: u64,
    /// The first bytes of those names, lower-cased (bit `b`; all bits once a name begins with
    /// a non-ASCII character): a plain ASCII word that begins with another names none of them.
    name_firsts: u128,
}

/// The bits of [`Index::name_firsts`] for a name.
fn first_bit(name: &str) -> u128 {
    match name.as_bytes().first() {
        Some(&b) if b < 0x80 => 1 << b.to_ascii_lowercase(),
        _ => u128::MAX,
    }
}

/// The bit of [`Index::name_lengths`] for a name of `len` bytes.
fn length_bit(len: usize) -> u64 {
    1 << len.min(63)
}

impl<'t> Index<'t> {
    fn new(tree: &'t SkillTree) -> Self {
        let mut index = Index {
            files: Vec::new(),
            plain: Vec::new(),
            candidate: Vec::new(),
            candidates: 0,
            by_rel: HashMap::new(),
            by_name: HashMap::new(),
            by_module: Tails::default(),
            dirs: Tails::default(),
            dir_names: HashMap::new(),
            name_lengths: 0,
            name_firsts: 0,
        };
        let nested = Nested::new(tree);
        for entry in &tree.entries {
            let rel = entry.rel.as_str();
            if nested.holds(rel) {
                continue;
            }
            if entry.is_file() {
                index.add_file(rel, matches!(entry.kind, Kind::File { .. }));
            } else if matches!(entry.kind, Kind::Dir | Kind::Symlink(LinkTarget::InsideDir))
                && !DISCOVERABLE.contains(&rel)
            {
                index.add_dir(rel);
            }
        }
        index
    }

    fn add_file(&mut self, rel: &'t str, plain: bool) {
        let i = self.files.len();
        self.files.push(rel);
        self.plain.push(plain);
        let candidate = is_candidate(rel);
        self.candidate.push(candidate);
        self.candidates += usize::from(candidate);
        self.by_rel.insert(rel, i);
        let name = rel.rsplit('/').next().unwrap_or(rel);
        let lower = name.to_lowercase();
        self.plain_name(&lower);
        self.by_name.entry(lower).or_default().push(i);
        if PACKAGE_FILES.contains(&name) {
            self.by_module.insert(parent(rel), 1, i);
        } else if has_extension(rel, &CODE) {
            let stem = rel.rsplit_once('.').map_or(rel, |(stem, _)| stem);
            self.by_module.insert(stem, 1, i);
        }
    }

    fn add_dir(&mut self, rel: &'t str) {
        self.dirs.insert(rel, 2, rel);
        let name = rel.rsplit('/').next().unwrap_or(rel);
        self.plain_name(name);
        self.dir_names.entry(name).or_default().push(rel);
    }

    /// Notes a file or folder name in [`Index::name_lengths`] and [`Index::name_firsts`] when
    /// a plain word can be it: only a word without a dot or a path separator is looked up
    /// by its name ([`Index::may_name`]), so `guide.md` never needs to be.
    fn plain_name(&mut self, name: &str) {
        if !name.contains(['.', '/', '\\']) {
            self.name_lengths |= length_bit(name.len());
            self.name_firsts |= first_bit(name);
        }
    }

    /// Whether a token can name anything: one with a path separator or a dot may; a plain word
    /// (most of a text's tokens) only when it is a file's name, or, as [`Reach::token`] reads
    /// it, a folder's name in a code literal or a top folder in a code span. Deciding this
    /// without building the token's keys keeps scanning prose cheap.
    fn may_name(&self, token: &Token, kind: TextKind) -> bool {
        // [`Reach::token`] drops the dots that end a token first: the word that ends a
        // sentence (`instead.`) is a word, and decided as one.
        let text = token.text.trim_end_matches('.');
        if (token.dotted && memchr::memchr3(b'.', b'/', b'\\', text.as_bytes()).is_some())
            || (kind != TextKind::Code && token.code_span && DISCOVERABLE.contains(&text))
        {
            return true;
        }
        // Here `text` has no dot or separator: only a name without one can be it. Lower-casing
        // an ASCII word keeps its length and its first byte's place in the alphabet; a word
        // with other characters is looked up.
        if token.ascii
            && (self.name_lengths & length_bit(text.len()) == 0
                || self.name_firsts & first_bit(text) == 0)
        {
            return false;
        }
        self.by_name.contains_key(lowered(text).as_ref())
            || (kind == TextKind::Code && token.quoted && self.dir_names.contains_key(text))
    }

    /// Whether `rel` is one of the skill's own files.
    fn has(&self, rel: &str) -> bool {
        self.by_rel.contains_key(rel)
    }

    /// The files at or below `rel` (a file or a folder).
    fn at_or_below(&self, rel: &str) -> Vec<usize> {
        let prefix = format!("{rel}/");
        let start = self.files.partition_point(|f| *f < prefix.as_str());
        let below = (start..self.files.len()).take_while(|&i| self.files[i].starts_with(&prefix));
        self.by_rel
            .get(rel)
            .copied()
            .into_iter()
            .chain(below)
            .collect()
    }

    /// What a link to or a mention of the folder `rel` reaches: the files directly inside a top
    /// folder (`scripts/`: the model lists it and sees its files, while each sub-folder is a
    /// unit of its own that needs its own mention), every file below any other folder.
    fn folder(&self, rel: &str) -> Vec<usize> {
        if !DISCOVERABLE.contains(&rel) {
            return self.at_or_below(rel);
        }
        self.at_or_below(rel)
            .into_iter()
            .filter(|&i| parent(self.files[i]) == rel)
            .collect()
    }

    /// The files named like the end of `path` (lower-cased) whose path and `path` end alike;
    /// each file of that name checked counts in `work` (none once it is over
    /// [`MAX_LOOKUP_WORK`]).
    fn tail(&self, path: &str, work: &mut usize) -> Vec<usize> {
        let name = path.rsplit('/').next().unwrap_or(path);
        let Some(named) = self.by_name.get(name) else {
            return Vec::new();
        };
        *work += named.len();
        if *work > MAX_LOOKUP_WORK {
            return Vec::new();
        }
        let compatible = |rel: &str| {
            let rel = rel.to_lowercase();
            rel == path
                || rel
                    .strip_suffix(path)
                    .is_some_and(|head| head.ends_with('/'))
                || path
                    .strip_suffix(rel.as_str())
                    .is_some_and(|head| head.ends_with('/'))
        };
        named
            .iter()
            .copied()
            .filter(|&i| compatible(self.files[i]))
            .collect()
    }

    /// The files a glob key matches (see [`glob`]).
    fn glob(&self, key: &str) -> Vec<usize> {
        let (anchored, pattern) = match key.strip_prefix('/') {
            Some(rest) => (true, rest),
            None => (false, key),
        };
        let pattern: Vec<&str> = pattern.split('/').collect();
        (0..self.files.len())
            .filter(|&i| {
                let parts: Vec<&str> = self.files[i].split('/').collect();
                if anchored {
                    segments_match(&pattern, &parts)
                } else {
                    (0..parts.len()).any(|k| segments_match(&pattern, &parts[k..]))
                }
            })
            .collect()
    }
}

/// The directories of the skills nested in a skill (sorted, none inside another).
struct Nested(Vec<String>);

impl Nested {
    fn new(tree: &SkillTree) -> Self {
        let mut roots = tree.nested_roots();
        roots.sort_unstable();
        let mut kept: Vec<String> = Vec::new();
        for root in roots {
            if !kept.last().is_some_and(|k| root.starts_with(k.as_str())) {
                kept.push(root);
            }
        }
        Nested(kept)
    }

    /// Whether `rel` lies in a nested skill's directory: the paths with a given prefix are
    /// contiguous in sorted order, so only the greatest directory not after `rel` can hold it.
    fn holds(&self, rel: &str) -> bool {
        let at = self.0.partition_point(|root| root.as_str() <= rel);
        at > 0 && rel.starts_with(self.0[at - 1].as_str())
    }
}

/// Paths looked up by their ends: each path under its tails of `min` to [`MAX_TAIL`]
/// components, as slices of itself (a path of fewer than `min` components under itself).
struct Tails<'t, T> {
    map: HashMap<&'t str, Vec<(&'t str, T)>>,
}

impl<T> Default for Tails<'_, T> {
    fn default() -> Self {
        Tails {
            map: HashMap::new(),
        }
    }
}

impl<'t, T: Copy> Tails<'t, T> {
    fn insert(&mut self, path: &'t str, min: usize, value: T) {
        for tail in tails(path, min) {
            self.map.entry(tail).or_default().push((path, value));
        }
    }

    /// What is indexed under the paths that end with `key` (whole components). A key of more
    /// than [`MAX_TAIL`] components is looked up by its last ones, and each path found there is
    /// checked against it, counted in `work`; `None` once `work` is over [`MAX_LOOKUP_WORK`].
    fn get(&self, key: &str, work: &mut usize) -> Option<Vec<T>> {
        let values = |found: &[(&'t str, T)]| found.iter().map(|(_, v)| *v).collect();
        let Some(last) = tails(key, MAX_TAIL)
            .next()
            .filter(|last| last.len() < key.len())
        else {
            return Some(
                self.map
                    .get(key)
                    .map_or_else(Vec::new, |found| values(found)),
            );
        };
        let found = self.map.get(last).map_or(&[][..], Vec::as_slice);
        *work += found.len();
        if *work > MAX_LOOKUP_WORK {
            return None;
        }
        let ends_with_key = |path: &str| {
            path.strip_suffix(key)
                .is_some_and(|head| head.is_empty() || head.ends_with('/'))
        };
        Some(
            found
                .iter()
                .filter(|(path, _)| ends_with_key(path))
                .map(|(_, v)| *v)
                .collect(),
        )
    }
}

/// The tails of a `/`-separated path, as slices of it: those of `min` (or, for a shorter path,
/// all its) to [`MAX_TAIL`] components, longest first.
fn tails(path: &str, min: usize) -> impl Iterator<Item = &str> {
    let path = path.trim_matches('/');
    // Byte by byte: these paths are short, and `/` is one byte of UTF-8 that no other
    // character's bytes contain.
    let slashes = || {
        path.bytes()
            .enumerate()
            .filter(|&(_, b)| b == b'/')
            .map(|(i, _)| i)
    };
    let count = if path.is_empty() {
        0
    } else {
        slashes().count() + 1
    };
    let starts = std::iter::once(0).chain(slashes().map(|i| i + 1));
    let first = count.saturating_sub(MAX_TAIL);
    let last = count.saturating_sub(min.min(count).max(1));
    starts
        .enumerate()
        .filter(move |&(k, _)| count > 0 && k >= first && k <= last)
        .map(move |(_, start)| &path[start..])
}

/// A way of naming files, once looked up (each is followed at most once per skill, so a text
/// that repeats a name costs one hash lookup per repetition).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
enum Key {
    Name(String),
    Module(String),
    Dir(String),
    DirName(String),
    Path(String),
    /// A glob (see [`glob`]): `/` first when anchored at the skill's root.
    Glob(String),
    /// A path of two or more components, lower-cased: the files it can be the end of, or
    /// that can be the end of it (`coded/x.md` names `references/coded/x.md`;
    /// `skills/pdf/references/x.md` names `references/x.md`).
    Tail(String),
}

/// How a path's file name counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Names {
    /// `a/b/x.md` also names every file called `x.md` (SK412: a wrong guess costs an info).
    Loose,
    /// `a/b/x.md` names only the files it is compatible with ([`Key::Tail`]; SK406: a name
    /// shared by another file must not hide a chain).
    ByPath,
}

/// What one text mentions that may name the skill's files, found in one pass over it: what
/// every [`Reach`] over the text follows (SK406's and SK412's read the skill file's body alike).
struct Mentions<'a> {
    /// The files its Markdown links lead to, inside the skill.
    links: Vec<String>,
    /// Its distinct tokens that may name a file or folder ([`Index::may_name`]).
    tokens: Vec<Token<'a>>,
    /// The globs it writes (see [`glob`]).
    globs: Vec<String>,
    /// The modules it imports (Python).
    modules: Vec<String>,
}

impl<'a> Mentions<'a> {
    /// What `text` (the file at `from`'s folder, of `kind`) mentions.
    fn of(
        index: &Index,
        resolver: &Resolver,
        text: &'a str,
        from: &str,
        kind: TextKind,
    ) -> Mentions<'a> {
        let mut links = Vec::new();
        if kind == TextKind::Markdown {
            for link in markdown::links(text) {
                if let Target::Inside(rel) = resolver.resolve(&link.dest, from)
                    && !rel.is_empty()
                {
                    links.push(rel);
                }
            }
        }
        // A token names the same files each time: each is kept once per text.
        let mut seen: HashSet<(&str, bool, bool)> = HashSet::new();
        let mut tokens = Vec::new();
        let mut globs = Vec::new();
        scan(
            text,
            |t| {
                if index.may_name(&t, kind) && seen.insert((t.text, t.quoted, t.code_span)) {
                    tokens.push(t);
                }
            },
            |run| globs.extend(glob(run, from)),
        );
        Mentions {
            links,
            tokens,
            globs,
            modules: python_imports(text),
        }
    }
}

/// Which files something the model reads mentions, followed from the skill file.
struct Reach<'i, 't> {
    index: &'i Index<'t>,
    names: Names,
    reached: Vec<bool>,
    /// How many of the index's candidates (see [`Index::candidate`]) are not reached yet.
    pending: usize,
    queue: VecDeque<usize>,
    /// Keys that named something and were followed.
    done: HashSet<Key>,
    /// Globs tried, matching or not (at most [`MAX_GLOBS`]).
    globs: HashSet<String>,
    /// Paths checked against long keys and names (see [`MAX_LOOKUP_WORK`]).
    work: usize,
}

impl<'i, 't> Reach<'i, 't> {
    fn new(index: &'i Index<'t>, names: Names) -> Self {
        Reach {
            reached: vec![false; index.files.len()],
            pending: index.candidates,
            index,
            names,
            queue: VecDeque::new(),
            done: HashSet::new(),
            globs: HashSet::new(),
            work: 0,
        }
    }

    /// Whether a lookup was given up (over [`MAX_LOOKUP_WORK`]): what the skill reaches cannot
    /// be told.
    fn incomplete(&self) -> bool {
        self.work > MAX_LOOKUP_WORK
    }

    /// Follows what the skill file links and mentions (its frontmatter included: hooks and
    /// allowed tools name scripts); the files reached are queued, not yet read.
    fn follow_skill_file(&mut self, body: &Body, mentions: &Mentions) {
        for rel in body.linked {
            self.follow(Key::Path(rel.clone()));
        }
        self.take(mentions, "", TextKind::Prose);
    }

    /// Whether the file at `rel` has been reached.
    fn has(&self, rel: &str) -> bool {
        self.index
            .by_rel
            .get(rel)
            .is_some_and(|&i| self.reached.get(i).copied().unwrap_or(false))
    }

    fn file(&mut self, i: usize) {
        if let Some(seen) = self.reached.get_mut(i)
            && !*seen
        {
            *seen = true;
            if self.index.candidate.get(i).copied().unwrap_or(false) {
                self.pending = self.pending.saturating_sub(1);
            }
            self.queue.push_back(i);
        }
    }

    /// Reaches what `key` names, the first time it names something.
    fn follow(&mut self, key: Key) {
        if self.done.contains(&key) {
            return;
        }
        let index = self.index;
        let work = &mut self.work;
        let (files, dirs): (Vec<usize>, Vec<&'t str>) = match &key {
            Key::Name(name) => (index.by_name.get(name).cloned().unwrap_or_default(), vec![]),
            Key::Module(module) => (
                index.by_module.get(module, work).unwrap_or_default(),
                vec![],
            ),
            Key::Path(rel) => (index.folder(rel), vec![]),
            Key::Glob(pattern) => (index.glob(pattern), vec![]),
            Key::Tail(path) => (index.tail(path, work), vec![]),
            Key::Dir(key) => (vec![], index.dirs.get(key, work).unwrap_or_default()),
            Key::DirName(name) => (
                vec![],
                index
                    .dir_names
                    .get(name.as_str())
                    .cloned()
                    .unwrap_or_default(),
            ),
        };
        if files.is_empty() && dirs.is_empty() {
            return;
        }
        self.done.insert(key);
        for i in files {
            self.file(i);
        }
        for dir in dirs {
            self.follow(Key::Path(dir.to_string()));
        }
    }

    /// Everything `text` (the file at `from`'s folder, of `kind`) mentions.
    fn scan(&mut self, resolver: &Resolver, text: &str, from: &str, kind: TextKind) {
        let mentions = Mentions::of(self.index, resolver, text, from, kind);
        self.take(&mentions, from, kind);
    }

    /// [`Reach::follow`] of the file name `name` (lower-cased first): most words name no
    /// file, and those are told by a look-up of the name as it is, without making a key.
    fn follow_name(&mut self, name: &str) {
        let lower = lowered(name);
        let index = self.index;
        let Some(files) = index.by_name.get(lower.as_ref()).filter(|f| !f.is_empty()) else {
            return;
        };
        if self.done.insert(Key::Name(lower.into_owned())) {
            for &i in files {
                self.file(i);
            }
        }
    }

    /// Whether following more can no longer change what this reach is for: SK412's (loose
    /// names) has reached every file it could report, so it reports none, whatever else is
    /// mentioned (and a lookup given up on later would only make it report none as well).
    /// SK406's reach needs every file the skill file names, and is never settled.
    fn settled(&self) -> bool {
        self.names == Names::Loose && self.pending == 0
    }

    /// Follows what a text mentions, until the reach is [settled](Reach::settled).
    fn take(&mut self, mentions: &Mentions, from: &str, kind: TextKind) {
        for rel in &mentions.links {
            if self.settled() {
                return;
            }
            self.follow(Key::Path(rel.clone()));
        }
        for token in &mentions.tokens {
            if self.settled() {
                return;
            }
            self.token(token, from, kind);
        }
        for pattern in &mentions.globs {
            if self.settled() {
                return;
            }
            if self.globs.len() < MAX_GLOBS && self.globs.insert(pattern.clone()) {
                self.follow(Key::Glob(pattern.clone()));
            }
        }
        for module in &mentions.modules {
            for key in prefixes(module, 1) {
                if self.settled() {
                    return;
                }
                self.follow(Key::Module(key));
            }
        }
    }

    fn token(&mut self, token: &Token, from: &str, kind: TextKind) {
        let text: std::borrow::Cow<str> = if token.text.contains('\\') {
            token.text.replace('\\', "/").into()
        } else {
            token.text.into()
        };
        let text = text.trim_end_matches('.');
        let path = text.trim_end_matches('/');
        // `references/`, `helpers/`: said to be a folder.
        let folder = path.len() < text.len();
        let kept = |p: &&str| !p.is_empty() && *p != "." && *p != "..";
        let (mut count, mut all, mut last) = (0, 0, None);
        for part in path.split('/') {
            all += 1;
            if kept(&part) {
                count += 1;
                last = Some(part);
            }
        }
        let Some(name) = last else {
            return;
        };
        // Most paths are already their kept parts joined.
        let joined: std::borrow::Cow<str> = if count == all {
            path.into()
        } else {
            path.split('/')
                .filter(kept)
                .collect::<Vec<_>>()
                .join("/")
                .into()
        };
        if self.names == Names::ByPath && count > 1 {
            self.follow(Key::Tail(joined.to_lowercase()));
        } else {
            self.follow_name(name);
        }
        if path.contains('/') || folder {
            if let Some(here) = resolve_lexically(from, path) {
                self.top_folder(&here);
                self.follow(Key::Dir(here));
            }
            if !name.contains('.') && path.contains('/') {
                self.follow(Key::Module(joined.to_string()));
            }
            self.top_folder(&joined);
            self.follow(Key::Dir(joined.into_owned()));
        } else if kind == TextKind::Code && token.quoted {
            self.follow(Key::DirName(name.to_string()));
        } else if kind != TextKind::Code && token.code_span {
            // "the `scripts` folder"; not `"scripts": {…}` (a package.json key).
            self.top_folder(&joined);
        }
        if !path.contains('/') && is_dotted_module(path) {
            for key in prefixes(path, 2) {
                self.follow(Key::Module(key));
            }
        }
    }
}

impl Reach<'_, '_> {
    /// A mention of `references/`, `resources/` or `scripts/` (the top folders, kept out of the
    /// folder index) reaches the files directly inside it.
    fn top_folder(&mut self, rel: &str) {
        if DISCOVERABLE.contains(&rel) {
            self.follow(Key::Path(rel.to_string()));
        }
    }
}

/// `text` lower-cased, copied only when that changes it: most words are ASCII without an
/// upper-case letter.
fn lowered(text: &str) -> std::borrow::Cow<'_, str> {
    if text
        .bytes()
        .any(|b| b.is_ascii_uppercase() || !b.is_ascii())
    {
        text.to_lowercase().into()
    } else {
        text.into()
    }
}

/// `from` joined with `path` lexically, when it stays inside the skill.
fn resolve_lexically(from: &str, path: &str) -> Option<String> {
    let mut parts: Vec<&str> = from.split('/').filter(|p| !p.is_empty()).collect();
    for part in path.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                parts.pop()?;
            }
            other => parts.push(other),
        }
    }
    Some(parts.join("/"))
}

/// `a.b.c` made of identifiers: a module path (`scripts.run_eval`, `office.pack`).
fn is_dotted_module(text: &str) -> bool {
    text.contains('.')
        && text.split('.').all(|p| {
            !p.is_empty()
                && !p.starts_with(|c: char| c.is_ascii_digit())
                && p.chars().all(|c| c.is_alphanumeric() || c == '_')
        })
}

/// The prefixes of a dotted module path with at least `min` components, as paths
/// (`a.b.c` → `a/b`, `a/b/c` for 2).
fn prefixes(module: &str, min: usize) -> Vec<String> {
    let parts: Vec<&str> = module.split('.').filter(|p| !p.is_empty()).collect();
    (min.max(1)..=parts.len())
        .map(|n| parts[..n].join("/"))
        .collect()
}

/// A run of path characters in a text, and whether it is a whole string literal.
struct Token<'a> {
    text: &'a str,
    quoted: bool,
    /// A whole code span (`` `scripts` ``).
    code_span: bool,
    /// Holds `/`, `\\` or `.`: may be a path or a file name.
    dotted: bool,
    /// Made of ASCII only.
    ascii: bool,
}

/// Byte classes of ASCII for [`scan`].
const PATH: u8 = 1;
/// `*`, `<`, `>`, `{`, `}`: glob characters that are not path characters.
const GLOB: u8 = 2;
/// `/`, `\\`, `.`.
const DOT: u8 = 4;
/// `N`, `X`: a run may hold a placeholder piece.
const NX: u8 = 8;
/// `*`, `<`, `{`: a run may be a glob.
const WILD: u8 = 16;
/// A letter or digit outside ASCII (never in the table).
const WIDE: u8 = 32;

/// A byte outside ASCII, in [`BYTES`] only: [`class_at`] classes its character.
const MULTI: u8 = 64;

/// The class of every byte: that of its character for ASCII, [`MULTI`] otherwise, so that
/// one look tells a byte the scan takes as it is from one [`class_at`] must decode.
const BYTES: [u8; 256] = {
    let mut table = [MULTI; 256];
    let mut b = 0;
    while b < 128 {
        table[b] = CLASSES[b];
        b += 1;
    }
    table
};

const CLASSES: [u8; 128] = {
    let mut table = [0u8; 128];
    let mut b = 0;
    while b < 128 {
        let c = b as u8;
        let mut class = 0;
        if c.is_ascii_alphanumeric() || matches!(c, b'_' | b'-' | b'.' | b'/' | b'\\') {
            class |= PATH;
        }
        if matches!(c, b'*' | b'<' | b'>' | b'{' | b'}') {
            class |= GLOB;
        }
        if matches!(c, b'.' | b'/' | b'\\') {
            class |= DOT;
        }
        if matches!(c, b'N' | b'X') {
            class |= NX;
        }
        if matches!(c, b'*' | b'<' | b'{') {
            class |= WILD;
        }
        table[b] = class;
        b += 1;
    }
    table
};

/// The class of the character at `i` (letters and digits of any script are path characters)
/// and its length in bytes.
#[inline]
fn class_at(text: &str, i: usize) -> (u8, usize) {
    match text.as_bytes().get(i) {
        Some(&b) if b < 0x80 => (CLASSES[usize::from(b)], 1),
        _ => match text.get(i..).and_then(|rest| rest.chars().next()) {
            Some(c) => (
                if c.is_alphanumeric() { PATH | WIDE } else { 0 },
                c.len_utf8(),
            ),
            None => (0, 1),
        },
    }
}

/// One pass over `text`: its tokens (the runs of path characters: letters and digits of any
/// script, `_`, `-`, `.`, `/`, `\\`) and the runs that may be globs (path characters with
/// `*`, `<`, `>`, `{`, `}` that hold `*`, `<`, `{` or a placeholder piece
/// such as `N`: most runs are not globs), in order.
fn scan<'a>(text: &'a str, mut token: impl FnMut(Token<'a>), mut glob_run: impl FnMut(&'a str)) {
    let bytes = text.as_bytes();
    let mut emit = |start: usize, end: usize, class: u8| {
        // Quotes are ASCII: the bytes on either side tell.
        let before = start.checked_sub(1).and_then(|i| bytes.get(i)).copied();
        let quoted =
            matches!(before, Some(b'"' | b'\'' | b'`')) && bytes.get(end).copied() == before;
        token(Token {
            text: &text[start..end],
            quoted,
            code_span: quoted && before == Some(b'`'),
            dotted: class & DOT != 0,
            ascii: class & WIDE == 0,
        });
    };
    let mut i = 0;
    while i < bytes.len() {
        // Most bytes between runs are ASCII of no class (spaces, punctuation).
        let Some(skipped) = bytes
            .get(i..)
            .and_then(|rest| rest.iter().position(|&b| BYTES[usize::from(b)] != 0))
        else {
            break;
        };
        i += skipped;
        let (class, len) = class_at(text, i);
        if class == 0 {
            i += len;
            continue;
        }
        // A run of glob characters, made of runs of path characters.
        let start = i;
        let mut classes = 0;
        let mut piece = (i, 0);
        loop {
            // Most bytes of a run are ASCII path characters: taken without `class_at`.
            let mut taken = 0;
            for &b in bytes.get(i..).unwrap_or_default() {
                let class = BYTES[usize::from(b)];
                if class & PATH == 0 {
                    break;
                }
                taken |= class;
                i += 1;
            }
            piece.1 |= taken;
            classes |= taken;
            let (class, len) = if i < bytes.len() {
                class_at(text, i)
            } else {
                (0, 0)
            };
            if class & PATH == 0 {
                if piece.0 < i {
                    emit(piece.0, i, piece.1);
                }
                if class == 0 {
                    break;
                }
                piece = (i + len, 0);
            } else {
                piece.1 |= class;
            }
            classes |= class;
            i += len;
        }
        let run = &text[start..i];
        if run.len() <= MAX_GLOB_LEN
            && (classes & WILD != 0
                || (classes & NX != 0
                    && run
                        .split(['-', '_', '.', '/', '\\'])
                        .any(is_placeholder_piece)))
        {
            glob_run(run);
        }
    }
}

/// The runs of path characters of `text`.
#[cfg(test)]
fn tokens(text: &str) -> Vec<Token<'_>> {
    let mut out = Vec::new();
    scan(text, |t| out.push(t), |_| {});
    out
}

// ---------------------------------------------------------------------------------------------
// Globs: `references/module-*.md`, `references/module-N-*.md`, `references/<topic>.md`,
// `scripts/{name}.py`, `coded/capabilities/*`.

/// At most this many distinct globs are matched per skill (each is matched against every file).
const MAX_GLOBS: usize = 64;
/// Longer runs are not globs.
const MAX_GLOB_LEN: usize = 256;
/// At most this many segments, and this many `**` among them, in one glob.
const MAX_GLOB_SEGMENTS: usize = 16;
const MAX_GLOB_STARS: usize = 2;

/// The runs of `text` that may be globs.
#[cfg(test)]
fn glob_runs(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    scan(text, |_| {}, |run| out.push(run));
    out
}

/// The glob a run of text stands for, as a key: segments joined with `/`, each with `*` for
/// any characters but `/` (or `**` alone for any segments), `/` first when anchored at the
/// skill's root. A wildcard is `*`, a placeholder in brackets (`<topic>`, `{name}`), or a
/// placeholder piece between `-`, `_` and `.` made of `N` or `X` only (`module-N.md`,
/// `step-XX.md`). `None` for a run without one, or one that would name too much: a glob must
/// begin with a literal character once leading placeholder segments (`{baseDir}/`, `<skill>/`)
/// are dropped, so `*.md` and `**/*.py` name nothing. Unanchored globs match any tail of a path
/// (`scripts/*.py` matches `scripts/a.py` and `tools/scripts/a.py`), like the names they are;
/// a glob with `..` is resolved from the folder of the text (`from`) and anchored.
fn glob(run: &str, from: &str) -> Option<String> {
    let run = strip_emphasis(run);
    // Most runs here are emphasis (`**Note**`): stripped of it, nothing in them becomes a
    // wildcard, told before anything is copied.
    if !run.contains(['*', '<', '{'])
        && !run
            .split(['-', '_', '.', '/', '\\'])
            .any(is_placeholder_piece)
    {
        return None;
    }
    let run = run.replace('\\', "/");
    let run = run.trim_end_matches('.');
    let mut segments: Vec<String> = Vec::new();
    let mut up = false;
    for segment in run.split('/') {
        match segment {
            "" | "." => {}
            ".." => {
                up = true;
                segments.push("..".to_string());
            }
            s => segments.push(segment_pattern(s)?),
        }
    }
    if !segments.iter().any(|s| s.contains('*'))
        || segments.len() > MAX_GLOB_SEGMENTS
        || segments.iter().filter(|s| *s == "**").count() > MAX_GLOB_STARS
    {
        return None;
    }
    let segments = if up {
        let mut parts: Vec<String> = from
            .split('/')
            .filter(|p| !p.is_empty())
            .map(str::to_string)
            .collect();
        for segment in segments {
            if segment == ".." {
                parts.pop()?;
            } else {
                parts.push(segment);
            }
        }
        parts
    } else {
        let literal = segments.iter().position(|s| s.chars().any(|c| c != '*'))?;
        segments[literal..].to_vec()
    };
    let first = segments.first()?;
    // A bare name must look like a file's: `skeleton-*.md`, not `top-N` or `GPT-X`.
    let bare_word = segments.len() == 1 && !has_literal_extension(first);
    if first.starts_with('*') || bare_word || !segments.iter().any(|s| s.contains('*')) {
        return None;
    }
    let joined = segments.join("/");
    Some(if up { format!("/{joined}") } else { joined })
}

const PIECE_SEPARATORS: [char; 3] = ['-', '_', '.'];

/// `N`, `NN`, `X`, `XXX`: a placeholder for a number or a name.
fn is_placeholder_piece(word: &str) -> bool {
    (1..=4).contains(&word.len())
        && (word.chars().all(|c| c == 'N') || word.chars().all(|c| c == 'X'))
}

/// `x.md`, `*.md`: ends with a literal extension.
fn has_literal_extension(name: &str) -> bool {
    name.rsplit_once('.')
        .is_some_and(|(_, ext)| !ext.is_empty() && ext.chars().all(|c| c.is_ascii_alphanumeric()))
}

/// `**x**`, `*x*` (Markdown emphasis around a run) without the stars; `**/x` and `x/*` keep them.
fn strip_emphasis(run: &str) -> &str {
    let lead = run.len() - run.trim_start_matches('*').len();
    let trail = run.len() - run.trim_end_matches('*').len();
    // `**x/*` + `**`: the closing emphasis may follow a glob's own star.
    if lead == 0 || trail < lead || run.len() <= 2 * lead {
        return run;
    }
    let inner = &run[lead..run.len() - lead];
    if inner.starts_with('/') {
        return run;
    }
    inner
}

/// One segment of a glob: `<x>` and `{x}` become `*`, and so do `N`/`X` pieces; `None` when a
/// bracket is unbalanced (`<br`, `a>`: markup, not a path).
fn segment_pattern(segment: &str) -> Option<String> {
    if segment == "**" {
        return Some(segment.to_string());
    }
    let mut out = String::new();
    let mut rest = segment;
    while let Some(c) = rest.chars().next() {
        match c {
            '<' | '{' => {
                let close = if c == '<' { '>' } else { '}' };
                let end = rest[1..].find(close)? + 1;
                let inner = &rest[1..end];
                if inner.is_empty() || inner.contains(['<', '>', '{', '}']) {
                    return None;
                }
                out.push('*');
                rest = &rest[end + 1..];
            }
            '>' | '}' => return None,
            c => {
                out.push(c);
                rest = &rest[c.len_utf8()..];
            }
        }
    }
    let mut pieces = String::new();
    for piece in out.split_inclusive(PIECE_SEPARATORS) {
        let (word, sep) = match piece.char_indices().last() {
            Some((at, c)) if PIECE_SEPARATORS.contains(&c) => (&piece[..at], &piece[at..]),
            _ => (piece, ""),
        };
        pieces.push_str(if is_placeholder_piece(word) {
            "*"
        } else {
            word
        });
        pieces.push_str(sep);
    }
    // One `*` for a run of them inside a segment.
    let mut collapsed = String::with_capacity(pieces.len());
    for c in pieces.chars() {
        if !(c == '*' && collapsed.ends_with('*')) {
            collapsed.push(c);
        }
    }
    Some(collapsed)
}

/// Whether the glob's segments match a path's, `**` matching any number of segments.
fn segments_match(pattern: &[&str], path: &[&str]) -> bool {
    match pattern.split_first() {
        None => path.is_empty(),
        Some((&"**", rest)) => (0..=path.len()).any(|k| segments_match(rest, &path[k..])),
        Some((first, rest)) => path
            .split_first()
            .is_some_and(|(name, tail)| wildcard(first, name) && segments_match(rest, tail)),
    }
}

/// Whether `name` matches `pattern` (`*` for any characters), ASCII case aside. Linear with one
/// backtracking point: no blow-up on any input.
fn wildcard(pattern: &str, name: &str) -> bool {
    let (p, n) = (pattern.as_bytes(), name.as_bytes());
    let (mut i, mut j) = (0, 0);
    let mut star: Option<(usize, usize)> = None;
    while j < n.len() {
        if i < p.len() && p[i] == b'*' {
            star = Some((i, j));
            i += 1;
        } else if i < p.len() && p[i].eq_ignore_ascii_case(&n[j]) {
            i += 1;
            j += 1;
        } else if let Some((si, sj)) = star {
            i = si + 1;
            j = sj + 1;
            star = Some((si, sj + 1));
        } else {
            return false;
        }
    }
    p[i..].iter().all(|&c| c == b'*')
}

/// The modules a Python text imports: `import a.b`, `from a.b import c, d` (`a.b`, `a.b.c`,
/// `a.b.d`), relative imports without their dots.
fn python_imports(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for line in import_lines(text) {
        let line = line.trim_start();
        if let Some(rest) = line.strip_prefix("import ") {
            for part in rest.split(',') {
                if let Some(module) = part.split_whitespace().next() {
                    out.push(module.trim_start_matches('.').to_string());
                }
            }
        } else if let Some(rest) = line.strip_prefix("from ")
            && let Some((module, names)) = rest.split_once(" import ")
        {
            let module = module.trim().trim_start_matches('.');
            if !module.is_empty() {
                out.push(module.to_string());
            }
            let names = names.trim().trim_start_matches('(');
            for name in names.split(',') {
                let Some(name) = name.split_whitespace().next() else {
                    continue;
                };
                let name = name.trim_end_matches(')');
                if name.is_empty() || name == "*" {
                    continue;
                }
                out.push(if module.is_empty() {
                    name.to_string()
                } else {
                    format!("{module}.{name}")
                });
            }
        }
    }
    out
}

/// The lines of `text` (as `str::lines` gives them, in order) that hold `import `: the only
/// ones [`python_imports`] can take a module from (`import a` and `from a import b` both hold
/// it). Found with a SIMD search rather than by walking every line: most texts have none.
fn import_lines(text: &str) -> impl Iterator<Item = &str> {
    let bytes = text.as_bytes();
    let mut next = 0;
    memchr::memmem::find_iter(bytes, b"import ").filter_map(move |at| {
        if at < next {
            // On a line already given.
            return None;
        }
        let start = memchr::memrchr(b'\n', &bytes[..at]).map_or(0, |i| i + 1);
        let end = memchr::memchr(b'\n', &bytes[at..]).map_or(bytes.len(), |i| at + i + 1);
        next = end;
        let line = &text[start..end];
        Some(match line.strip_suffix('\n') {
            Some(line) => line.strip_suffix('\r').unwrap_or(line),
            None => line,
        })
    })
}

/// SK412: files under references/, resources/ or scripts/ that nothing the model reads
/// mentions. Followed from the skill file: every file it links or names is read in turn
/// (Markdown for its links and names, scripts for their names, imports and folder literals),
/// each once, until every file that could be reported is reached. A folder none of whose files
/// is mentioned is one diagnostic.
fn unreferenced(
    dir: &SkillDir,
    resolver: &Resolver,
    mut reach: Reach,
    reader: &mut Reader,
    out: &mut Reporter,
) {
    // Once every file SK412 could report is reached, reading on cannot change the result.
    while reach.pending > 0
        && let Some(i) = reach.queue.pop_front()
    {
        let rel = reach.index.files[i];
        let Some(kind) = TextKind::of(rel) else {
            continue;
        };
        if ignored(rel) && !PACKAGE_FILES.iter().any(|p| rel.ends_with(p)) {
            continue;
        }
        let Some((text, _)) = reader.read(rel) else {
            continue;
        };
        reach.scan(resolver, &text, parent(rel), kind);
    }
    // Past the caps, a file may be mentioned only in what was not read: nothing is judged.
    if reader.capped || reach.incomplete() {
        return;
    }
    report(dir, &reach, out);
}

/// One diagnostic per unmentioned file, or per folder (below references/, resources/ or
/// scripts/) none of whose files is mentioned.
fn report(dir: &SkillDir, reach: &Reach, out: &mut Reporter) {
    let candidates: Vec<(usize, &str)> = reach
        .index
        .files
        .iter()
        .enumerate()
        .filter(|&(i, _)| reach.index.candidate.get(i).copied().unwrap_or(false))
        .map(|(i, rel)| (i, *rel))
        .collect();
    // Folders that hold a mentioned file.
    let mut used: HashSet<&str> = HashSet::new();
    for &(i, rel) in &candidates {
        if reach.reached[i] {
            let mut at = rel;
            while let Some(slash) = at.rfind('/') {
                at = &at[..slash];
                used.insert(at);
            }
        }
    }
    let mut folders: Vec<(&str, usize)> = Vec::new();
    let mut files: Vec<&str> = Vec::new();
    for &(i, rel) in &candidates {
        if reach.reached[i] {
            continue;
        }
        // The outermost folder below the top one that holds no mentioned file.
        let folder = rel
            .match_indices('/')
            .skip(1)
            .map(|(at, _)| &rel[..at])
            .find(|f| !used.contains(f));
        match folder {
            Some(f) => match folders.iter_mut().find(|(g, _)| *g == f) {
                Some((_, n)) => *n += 1,
                None => folders.push((f, 1)),
            },
            None => files.push(rel),
        }
    }
    // What is unmentioned, as units (a folder with its file count, or a file), grouped by the
    // folder that holds them: several units in one folder below the top one make one diagnostic.
    let mut units: Vec<(&str, Option<usize>)> =
        folders.into_iter().map(|(f, n)| (f, Some(n))).collect();
    units.extend(files.into_iter().map(|f| (f, None)));
    units.sort_unstable();
    let mut groups: Vec<(&str, Vec<Unit>)> = Vec::new();
    for unit in units {
        let holder = parent(unit.0);
        match groups.last_mut() {
            Some((h, members)) if *h == holder => members.push(unit),
            _ => groups.push((holder, vec![unit])),
        }
    }
    for (holder, members) in groups {
        if members.len() > 1 && holder.contains('/') {
            let names: Vec<String> = members
                .iter()
                .map(|(rel, n)| {
                    let name = rel.rsplit('/').next().unwrap_or(rel);
                    match n {
                        Some(1) => format!("`{name}/` (1 file)"),
                        Some(n) => format!("`{name}/` ({n} files)"),
                        None => format!("`{name}`"),
                    }
                })
                .collect();
            let shown = names
                .iter()
                .take(MAX_NAMED)
                .cloned()
                .collect::<Vec<_>>()
                .join(", ");
            let more = names.len().saturating_sub(MAX_NAMED);
            let more = if more > 0 {
                format!(" and {more} more")
            } else {
                String::new()
            };
            out.emit_file(&SK412, dir.path_of(holder), format!("in `{holder}/`, {shown}{more} are mentioned neither in the body nor in any file it leads to"))
                .help(format!("say in the body when the agent needs them, or remove them: the model cannot discover them otherwise (other files of `{holder}/` are used)"));
            continue;
        }
        for (rel, n) in members {
            match n {
                Some(n) => {
                    let files = if n == 1 { "file" } else { "files" };
                    out.emit_file(&SK412, dir.path_of(rel), format!("`{rel}/` ({n} {files}) is mentioned neither in the body nor in any file it leads to"))
                        .help(format!("say in the body when the agent needs `{rel}/`, or remove it: the model cannot discover it otherwise"));
                }
                None => {
                    let name = rel.rsplit('/').next().unwrap_or(rel);
                    out.emit_file(&SK412, dir.path_of(rel), format!("`{rel}` is mentioned neither in the body nor in any file it leads to"))
                        .help(format!("link it where the agent needs it, e.g. `[{name}]({rel})`, or remove it: the model cannot discover it otherwise"));
                }
            }
        }
    }
}

/// An unmentioned file (`None`) or folder (its file count), by its relative path.
type Unit<'a> = (&'a str, Option<usize>);

/// At most this many unmentioned names are listed in one diagnostic.
const MAX_NAMED: usize = 8;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_and_literals() {
        let found: Vec<(&str, bool)> = tokens("run `python scripts/x.py`; d = p / \"schemas\".")
            .iter()
            .map(|t| (t.text, t.quoted))
            .collect();
        assert_eq!(
            found,
            [
                ("run", false),
                ("python", false),
                ("scripts/x.py", false),
                ("d", false),
                ("p", false),
                ("/", false),
                ("schemas", true),
                (".", false)
            ]
        );
    }

    /// `import_lines` gives exactly the lines of `str::lines` that hold `import `, in order,
    /// with their line endings handled alike.
    #[test]
    fn import_lines_are_the_lines_that_hold_import() {
        let texts = [
            "",
            "import ",
            "import os",
            "x\nimport a\r\nfrom b import c\rimport d\n\nimport e import f\n",
            "import a\r",
            "\r\nimport a\r\n\r\n",
            "no imports here\nimporting\n  import   \n",
            "é import x\n日本 import y",
            "import import import \nimport",
        ];
        for text in texts {
            let by_lines: Vec<&str> = text.lines().filter(|l| l.contains("import ")).collect();
            assert_eq!(import_lines(text).collect::<Vec<_>>(), by_lines, "{text:?}");
        }
    }

    #[test]
    fn python_imports_and_modules() {
        let text = "import os, a.b as c\nfrom .base import X\nfrom office.helpers import (m, n)\nfrom . import sib\n";
        assert_eq!(
            python_imports(text),
            [
                "os",
                "a.b",
                "base",
                "base.X",
                "office.helpers",
                "office.helpers.m",
                "office.helpers.n",
                "sib"
            ]
        );
        assert!(is_dotted_module("scripts.run_eval"));
        assert!(!is_dotted_module("v1.2"));
        assert_eq!(prefixes("a.b.c", 2), ["a/b", "a/b/c"]);
        assert_eq!(
            tails("scripts/office/pack", 2).collect::<Vec<_>>(),
            ["scripts/office/pack", "office/pack"]
        );
        assert_eq!(
            tails("a/b/c/d/e/f", 1).collect::<Vec<_>>(),
            ["c/d/e/f", "d/e/f", "e/f", "f"]
        );
        assert_eq!(tails("a", 2).collect::<Vec<_>>(), ["a"]);
        assert_eq!(tails("", 1).count(), 0);
        assert_eq!(
            resolve_lexically("scripts/a", "../schemas/"),
            Some("scripts/schemas".into())
        );
        assert_eq!(resolve_lexically("", "../x"), None);
    }

    #[test]
    fn index_keeps_a_few_tails_and_leaves_nested_skills_out() {
        let dir = tempfile::tempdir().unwrap();
        let deep = "scripts/a/b/c/d/e";
        for rel in [
            format!("{deep}/pack.py"),
            "scripts/q/c/d/e/pack.py".to_string(),
            "sub/SKILL.md".to_string(),
            "sub/scripts/t.py".to_string(),
            "subway/x.py".to_string(),
        ] {
            let path = dir.path().join(&rel);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, "").unwrap();
        }
        let tree = SkillTree::walk(dir.path());
        let index = Index::new(&tree);
        assert_eq!(
            index.files,
            [
                "scripts/a/b/c/d/e/pack.py",
                "scripts/q/c/d/e/pack.py",
                "subway/x.py"
            ]
        );
        // At most MAX_TAIL keys a file, however deep.
        let keys: usize = index.by_module.map.values().map(Vec::len).sum();
        assert_eq!(keys, 4 + 4 + 2);
        let module = |key: &str| index.by_module.get(key, &mut 0).unwrap();
        assert_eq!(module("scripts/a/b/c/d/e/pack"), [0]);
        assert_eq!(module("a/b/c/d/e/pack"), [0]);
        assert_eq!(module("b/c/d/e/pack"), [0]);
        assert_eq!(module("c/d/e/pack"), [0, 1]);
        assert_eq!(module("pack"), [0, 1]);
        assert!(module("z/b/c/d/e/pack").is_empty());
        assert!(module("xb/c/d/e/pack").is_empty());
        let dirs = |key: &str| index.dirs.get(key, &mut 0).unwrap();
        assert_eq!(dirs(deep), [deep]);
        assert_eq!(dirs("b/c/d/e"), [deep]);
        assert_eq!(dirs("scripts/a"), ["scripts/a"]);
        assert!(dirs("a").is_empty());
        assert_eq!(dirs("subway"), ["subway"]);
        // Past the budget, long keys are given up.
        let mut work = MAX_LOOKUP_WORK;
        assert_eq!(index.by_module.get("a/b/c/d/e/pack", &mut work), None);
    }

    #[test]
    fn globs() {
        let cases = [
            ("`references/module-N-*.md`", "references/module-*-*.md"),
            ("references/<topic>.md", "references/*.md"),
            ("{baseDir}/scripts/{name}.py", "scripts/*.py"),
            ("**coded/capabilities/***", "coded/capabilities/*"),
            ("coded/capabilities/*", "coded/capabilities/*"),
            ("references/step-XX.md.", "references/step-*.md"),
            ("skeleton-*.md", "skeleton-*.md"),
            ("references/**/*.md", "references/**/*.md"),
            ("**references/step-N.md**", "references/step-*.md"),
            ("**scripts\\<name>.py**", "scripts/*.py"),
        ];
        for (run, want) in cases {
            let run = run.trim_matches('`');
            assert_eq!(glob(run, ""), Some(want.to_string()), "{run}");
        }
        assert_eq!(
            glob("../scripts/*.py", "references"),
            Some("/scripts/*.py".into())
        );
        for run in [
            "*.md",
            "**/*.py",
            "top-N",
            "GPT-X",
            "<br/>",
            "</a>",
            "{x}",
            "**",
            "a/b.md",
            "../x/*.md",
            "{{x}}/a-*.md",
            "**Note",
            "**Note**",
            "**references/a.md**",
            "__N__",
        ] {
            assert_eq!(glob(run, ""), None, "{run}");
        }
        let found: Vec<String> = glob_runs("Read `references/module-N-*.md` or <b>x</b>.")
            .into_iter()
            .filter_map(|run| glob(run, ""))
            .collect();
        assert_eq!(found, ["references/module-*-*.md"]);
    }

    #[test]
    fn glob_matching() {
        assert!(wildcard("module-*-*.md", "module-1-slash-commands.md"));
        assert!(wildcard("Module-*.MD", "module-2.md"));
        assert!(!wildcard("module-*-*.md", "module-1.md"));
        assert!(wildcard("*", "x"));
        assert!(!wildcard("a*b", "acbd"));
        let pattern = ["references", "**", "*.md"];
        assert!(segments_match(&pattern, &["references", "a.md"]));
        assert!(segments_match(&pattern, &["references", "x", "y", "a.md"]));
        assert!(!segments_match(&pattern, &["scripts", "a.md"]));
        // No blow-up on a long run of stars against a long name.
        let long = "a".repeat(200);
        assert!(!wildcard(&format!("{}b", "*a".repeat(50)), &long));
    }

    #[test]
    fn a_word_that_ends_a_sentence_is_decided_as_a_word() {
        let file = |rel: &str| crate::files::Entry {
            rel: rel.to_string(),
            kind: Kind::File {
                size: 1,
                executable: false,
            },
        };
        let tree = SkillTree {
            entries: vec![file("references/forms.md"), file("scripts/pack")],
            truncated: false,
        };
        let index = Index::new(&tree);
        // Only `pack` can be a plain word: `forms.md` is never looked up by one.
        assert_eq!(
            (index.name_lengths, index.name_firsts),
            (length_bit(4), first_bit("p"))
        );
        let text = "Run it instead. Then pack. See forms.md. Or a.b, x/y... and `scripts.`";
        let named: Vec<&str> = tokens(text)
            .into_iter()
            .filter(|t| index.may_name(t, TextKind::Prose))
            .map(|t| t.text)
            .collect();
        assert_eq!(named, ["pack.", "forms.md.", "a.b", "x/y...", "scripts."]);
    }

    #[test]
    fn ignores_caches_and_markers() {
        assert!(ignored("scripts/__pycache__/x.pyc"));
        assert!(ignored("scripts/__init__.py"));
        assert!(ignored("scripts/node_modules/a/b.js"));
        assert!(ignored("references/.DS_Store"));
        assert!(!ignored("scripts/run.py"));
        for rel in [
            "scripts/uv.lock",
            "scripts/test_x.py",
            "scripts/x_test.go",
            "scripts/a.spec.ts",
            "scripts/tests/data.json",
            "scripts/README.md",
            "scripts/requirements-dev.txt",
        ] {
            assert!(tooling(rel), "{rel}");
        }
        assert!(!tooling("scripts/testing.py"));
    }
}

#[cfg(test)]
mod reader_tests {
    use super::*;

    /// A skill whose `references/` holds `a.md` (`len` bytes) and `b.md`.
    fn skill(len: usize) -> (tempfile::TempDir, std::path::PathBuf) {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        std::fs::create_dir(root.join("references")).unwrap();
        std::fs::write(root.join("references/a.md"), "a".repeat(len)).unwrap();
        std::fs::write(root.join("references/b.md"), "b").unwrap();
        (dir, root)
    }

    #[test]
    fn the_next_rule_takes_a_kept_text_without_reading_it_again() {
        let (_dir, root) = skill(10);
        let tree = SkillTree::walk(&root);
        let index = Index::new(&tree);
        let mut first = Reader::new(&root, &index, true);
        let (text, len) = first.read("references/a.md").unwrap();
        assert_eq!((text.as_str(), len), ("aaaaaaaaaa", 10));
        first.keep("references/a.md", len, text);
        // Gone from the disk: only the kept text can answer.
        std::fs::remove_file(root.join("references/a.md")).unwrap();
        let mut next = first.pass_on();
        assert_eq!(next.read("references/a.md"), Some(("a".repeat(10), 10)));
        // Counted under the next reader's own caps, as a read.
        assert_eq!((next.files, next.bytes, next.kept_bytes), (1, 10, 0));
        // Taken once: a second read goes to the disk.
        assert_eq!(next.read("references/a.md"), None);
        assert_eq!(next.read("references/b.md"), Some(("b".to_string(), 1)));
    }

    #[test]
    fn texts_past_the_kept_bound_are_read_again() {
        let (_dir, root) = skill(MAX_KEPT as usize);
        let tree = SkillTree::walk(&root);
        let index = Index::new(&tree);
        let mut first = Reader::new(&root, &index, true);
        for rel in ["references/a.md", "references/b.md"] {
            let (text, len) = first.read(rel).unwrap();
            first.keep(rel, len, text);
        }
        // `a.md` fills the bound: `b.md` is not kept.
        assert_eq!(first.kept_bytes, MAX_KEPT);
        std::fs::remove_file(root.join("references/a.md")).unwrap();
        std::fs::remove_file(root.join("references/b.md")).unwrap();
        let mut next = first.pass_on();
        assert_eq!(next.read("references/b.md"), None);
        let (text, _) = next.read("references/a.md").unwrap();
        assert_eq!(text.len(), MAX_KEPT as usize);
    }

    #[test]
    fn the_bound_counts_text_as_kept_and_only_a_reader_that_hands_on_keeps() {
        let (_dir, root) = skill(1);
        // Invalid UTF-8: 10 bytes read, kept as 30 bytes of U+FFFD.
        std::fs::write(root.join("references/a.md"), [0xff; 10]).unwrap();
        let tree = SkillTree::walk(&root);
        let index = Index::new(&tree);
        let mut first = Reader::new(&root, &index, true);
        let (text, len) = first.read("references/a.md").unwrap();
        assert_eq!((text.len(), len), (30, 10));
        first.keep("references/a.md", len, text);
        assert_eq!(first.kept_bytes, 30);
        let mut next = first.pass_on();
        let (text, len) = next.read("references/a.md").unwrap();
        assert_eq!((next.bytes, next.kept_bytes), (10, 0));
        next.keep("references/a.md", len, text);
        assert!(next.kept.is_empty());
    }
}
