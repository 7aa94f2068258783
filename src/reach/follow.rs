//! Reachability: which of a skill's files something the model reads mentions, followed from
//! the skill file through every text it reaches.

use foldhash::{HashSet, HashSetExt};
use std::collections::VecDeque;

use super::glob::{MAX_GLOBS, glob};
use super::index::{Index, MAX_LOOKUP_WORK};
use super::kinds::{DISCOVERABLE, TextKind};
use super::mention::{Token, is_dotted_module, lowered, prefixes, python_imports, scan};
use super::path::resolve_lexically;
use super::{Body, Resolve};
use crate::markdown;

/// A way of naming files, once looked up (each is followed at most once per skill, so a text
/// that repeats a name costs one hash lookup per repetition).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(super) enum Key {
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
pub(super) enum Names {
    /// `a/b/x.md` also names every file called `x.md` (SK412: a wrong guess costs an info).
    Loose,
    /// `a/b/x.md` names only the files it is compatible with ([`Key::Tail`]; SK406: a name
    /// shared by another file must not hide a chain).
    ByPath,
}

/// What one text mentions that may name the skill's files, found in one pass over it: what
/// every [`Reach`] over the text follows (SK406's and SK412's read the skill file's body alike).
pub(super) struct Mentions<'a> {
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
    pub(super) fn of(
        index: &Index,
        resolve: &Resolve,
        text: &'a str,
        from: &str,
        kind: TextKind,
    ) -> Mentions<'a> {
        let mut links = Vec::new();
        if kind == TextKind::Markdown {
            for link in markdown::links(text) {
                if let Some(rel) = resolve(&link.dest, from)
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
pub(super) struct Reach<'i, 't> {
    pub(super) index: &'i Index<'t>,
    names: Names,
    pub(super) reached: Vec<bool>,
    /// How many of the index's candidates (see [`Index::candidate`]) are not reached yet.
    pub(super) pending: usize,
    pub(super) queue: VecDeque<usize>,
    /// Keys that named something and were followed.
    done: HashSet<Key>,
    /// Globs tried, matching or not (at most [`MAX_GLOBS`]).
    globs: HashSet<String>,
    /// Paths checked against long keys and names (see [`MAX_LOOKUP_WORK`]).
    work: usize,
}

impl<'i, 't> Reach<'i, 't> {
    pub(super) fn new(index: &'i Index<'t>, names: Names) -> Self {
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
    pub(super) fn incomplete(&self) -> bool {
        self.work > MAX_LOOKUP_WORK
    }

    /// Follows what the skill file links and mentions (its frontmatter included: hooks and
    /// allowed tools name scripts); the files reached are queued, not yet read.
    pub(super) fn follow_skill_file(&mut self, body: &Body, mentions: &Mentions) {
        for rel in body.linked {
            self.follow(Key::Path(rel.clone()));
        }
        self.take(mentions, "", TextKind::Prose);
    }

    /// Whether the file at `rel` has been reached.
    pub(super) fn has(&self, rel: &str) -> bool {
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
    pub(super) fn follow(&mut self, key: Key) {
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
            Key::Glob(pattern) => (index.globs(&[pattern]).pop().unwrap_or_default(), vec![]),
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

    /// [`Reach::follow`] of a key whose files are known: `files`.
    fn reach_all(&mut self, key: Key, files: &[usize]) {
        if files.is_empty() || self.done.contains(&key) {
            return;
        }
        self.done.insert(key);
        for &i in files {
            self.file(i);
        }
    }

    /// Everything `text` (the file at `from`'s folder, of `kind`) mentions.
    pub(super) fn scan(&mut self, resolve: &Resolve, text: &str, from: &str, kind: TextKind) {
        let mentions = Mentions::of(self.index, resolve, text, from, kind);
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
    pub(super) fn take(&mut self, mentions: &Mentions, from: &str, kind: TextKind) {
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
        if !mentions.globs.is_empty() && !self.settled() {
            // The globs the loop below can try, in its order, matched at once: one `globset`
            // compile per text, not one per glob.
            let mut fresh: Vec<&str> = Vec::new();
            for pattern in &mentions.globs {
                if self.globs.len() + fresh.len() >= MAX_GLOBS {
                    break;
                }
                if !self.globs.contains(pattern) && !fresh.contains(&pattern.as_str()) {
                    fresh.push(pattern);
                }
            }
            let matched = if fresh.is_empty() {
                Vec::new()
            } else {
                self.index.globs(&fresh)
            };
            for pattern in &mentions.globs {
                if self.settled() {
                    return;
                }
                if self.globs.len() < MAX_GLOBS && self.globs.insert(pattern.clone()) {
                    let files = fresh
                        .iter()
                        .position(|f| f == pattern)
                        .and_then(|k| matched.get(k))
                        .map_or(&[][..], Vec::as_slice);
                    self.reach_all(Key::Glob(pattern.clone()), files);
                }
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
