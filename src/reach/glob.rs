//! The globs texts write (`references/module-*.md`, `references/module-N-*.md`,
//! `references/<topic>.md`, `scripts/{name}.py`, `coded/capabilities/*`), as keys, and the
//! files a key matches, by `globset`.

use globset::{GlobBuilder, GlobSet, GlobSetBuilder};

use super::path::resolve_lexically;

/// At most this many distinct globs are matched per skill (each is matched against every file).
pub(super) const MAX_GLOBS: usize = 64;
/// Longer runs are not globs.
pub(super) const MAX_GLOB_LEN: usize = 256;
/// At most this many segments, and this many `**` among them, in one glob.
const MAX_GLOB_SEGMENTS: usize = 16;
const MAX_GLOB_STARS: usize = 2;

/// The runs of `text` that may be globs.
#[cfg(test)]
fn glob_runs(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    super::mention::scan(text, |_| {}, |run| out.push(run));
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
pub(super) fn glob(run: &str, from: &str) -> Option<String> {
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
        resolve_lexically(from, &segments.join("/"))?
            .split('/')
            .filter(|p| !p.is_empty())
            .map(str::to_string)
            .collect()
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
pub(super) fn is_placeholder_piece(word: &str) -> bool {
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

/// Glob keys (see [`glob`]) made one matcher of the skill's relative paths: each segment's `*`
/// matches any characters but `/` (ASCII case aside), a `**` segment any number of segments,
/// none included; an unanchored key matches any tail of a path that starts a segment. The keys
/// of a text are compiled together: one `globset` set, not one regex per key.
///
/// The `globset` patterns are written so that nothing else in them is syntax: a `**` that is a
/// whole segment is `globset`'s own (zero or more segments; a run of them is one); in another
/// segment a run of stars is one `*`, matched with `literal_separator`; `?`, `[`, `]`, `{`, `}`
/// and the backslash (which a folder's name may hold) are written as classes of themselves,
/// and backslashes escape nothing. Case is folded for ASCII only: `globset` matches bytes, its
/// non-ASCII characters written as bytes. A trailing `/**` matches its folder's path too (as
/// zero segments), which `globset`'s does not: the pattern without it is matched as well.
pub(super) struct Globs {
    /// Sets of patterns, each pattern with the key it is of: one set, or (when `globset`
    /// refuses one key's pattern, which then matches nothing) one set per key.
    sets: Vec<(GlobSet, Vec<usize>)>,
    keys: usize,
}

impl Globs {
    pub(super) fn new(keys: &[&str]) -> Globs {
        let patterns: Vec<(usize, String)> = keys
            .iter()
            .enumerate()
            .flat_map(|(k, key)| patterns(key).into_iter().map(move |p| (k, p)))
            .collect();
        let sets = match set(&patterns) {
            Some(set) => vec![set],
            None => (0..keys.len())
                .filter_map(|k| {
                    let of_key: Vec<(usize, String)> =
                        patterns.iter().filter(|(j, _)| *j == k).cloned().collect();
                    set(&of_key)
                })
                .collect(),
        };
        Globs {
            sets,
            keys: keys.len(),
        }
    }

    /// For each key, in order, the indices of the `paths` it matches, ascending.
    pub(super) fn matches(&self, paths: &[&str]) -> Vec<Vec<usize>> {
        let mut out = vec![Vec::new(); self.keys];
        let mut hits = Vec::new();
        for (i, rel) in paths.iter().enumerate() {
            for (set, key_of) in &self.sets {
                set.matches_into(rel, &mut hits);
                for &pattern in &hits {
                    if let Some(files) = key_of.get(pattern).and_then(|&k| out.get_mut(k))
                        && files.last() != Some(&i)
                    {
                        files.push(i);
                    }
                }
            }
        }
        out
    }
}

/// One set of `patterns`, each with its key; `None` when `globset` refuses one.
fn set(patterns: &[(usize, String)]) -> Option<(GlobSet, Vec<usize>)> {
    let mut builder = GlobSetBuilder::new();
    for (_, pattern) in patterns {
        let glob = GlobBuilder::new(pattern)
            .literal_separator(true)
            .case_insensitive(true)
            .backslash_escape(false)
            .build()
            .ok()?;
        builder.add(glob);
    }
    let set = builder.build().ok()?;
    Some((set, patterns.iter().map(|(k, _)| *k).collect()))
}

/// The `globset` patterns of a key: one, or two for a key that ends with `**`.
fn patterns(key: &str) -> Vec<String> {
    let (anchored, pattern) = match key.strip_prefix('/') {
        Some(rest) => (true, rest),
        None => (false, key),
    };
    let mut segments: Vec<String> = Vec::new();
    for segment in pattern.split('/') {
        if segment == "**" {
            if segments.last().is_some_and(|s| s == "**") {
                continue;
            }
            segments.push(segment.to_string());
        } else {
            segments.push(literal(segment));
        }
    }
    if !anchored && segments.first().is_none_or(|s| s != "**") {
        segments.insert(0, "**".to_string());
    }
    let mut patterns = vec![segments.join("/")];
    if segments.len() > 1 && segments.last().is_some_and(|s| s == "**") {
        patterns.push(segments[..segments.len() - 1].join("/"));
    }
    patterns
}

/// A segment other than `**` as `globset` reads it: one `*` for a run of them, every other
/// character literal.
fn literal(segment: &str) -> String {
    let mut out = String::with_capacity(segment.len());
    for c in segment.chars() {
        match c {
            '*' if out.ends_with('*') => {}
            '?' | '[' | ']' | '{' | '}' | '\\' => {
                out.push('[');
                out.push(c);
                out.push(']');
            }
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

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

    /// The hand matcher `globset` replaced, as it was: the oracle the matcher is checked against.
    fn segments_match(pattern: &[&str], path: &[&str]) -> bool {
        match pattern.split_first() {
            None => path.is_empty(),
            Some((&"**", rest)) => (0..=path.len()).any(|k| segments_match(rest, &path[k..])),
            Some((first, rest)) => path
                .split_first()
                .is_some_and(|(name, tail)| wildcard(first, name) && segments_match(rest, tail)),
        }
    }

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

    fn oracle(key: &str, rel: &str) -> bool {
        let (anchored, pattern) = match key.strip_prefix('/') {
            Some(rest) => (true, rest),
            None => (false, key),
        };
        let pattern: Vec<&str> = pattern.split('/').collect();
        let parts: Vec<&str> = rel.split('/').collect();
        if anchored {
            segments_match(&pattern, &parts)
        } else {
            (0..parts.len()).any(|k| segments_match(&pattern, &parts[k..]))
        }
    }

    fn matches(key: &str, rel: &str) -> bool {
        Globs::new(&[key]).matches(&[rel]) == [[0]]
    }

    #[test]
    fn glob_matching() {
        assert!(matches("module-*-*.md", "module-1-slash-commands.md"));
        assert!(matches("Module-*.MD", "module-2.md"));
        assert!(!matches("module-*-*.md", "module-1.md"));
        assert!(!matches("a*b", "acbd"));
        assert!(matches("references/**/*.md", "references/a.md"));
        assert!(matches("references/**/*.md", "references/x/y/a.md"));
        assert!(!matches("references/**/*.md", "scripts/a.md"));
        // Unanchored: any tail that starts a segment; anchored: the whole path.
        assert!(matches("scripts/*.py", "tools/scripts/a.py"));
        assert!(!matches("scripts/*.py", "myscripts/a.py"));
        assert!(!matches("/scripts/*.py", "tools/scripts/a.py"));
        // `*` stays in its segment.
        assert!(!matches("scripts/*.py", "scripts/a/b.py"));
        // A trailing `**` matches its folder's path itself, as no segments.
        assert!(matches("coded/capabilities/**", "x/coded/capabilities"));
        assert!(matches("coded/capabilities/**", "coded/capabilities/a/b"));
        // ASCII case only: `É` is not `é`.
        assert!(matches("résumé-*.MD", "RéSUMé-1.md"));
        assert!(!matches("É-*.md", "é-1.md"));
        // Characters `globset` would read as syntax are literal (a folder's name may hold them).
        assert!(matches("/a[1]/b?{c}\\/*.md", "a[1]/b?{c}\\/x.md"));
        assert!(!matches("/a[1]/*.md", "a1/x.md"));
        assert!(!matches("/b?/*.md", "bx/x.md"));
        // No blow-up on a long run of stars against a long name.
        let long = "a".repeat(200);
        assert!(!matches(&format!("{}b", "*a".repeat(50)), &long));
    }

    /// Every key against every path: `globset` agrees with the hand matcher it replaced.
    #[test]
    fn globset_agrees_with_the_hand_matcher() {
        let keys = [
            "module-*-*.md",
            "references/module-*-*.md",
            "references/*.md",
            "scripts/*.py",
            "coded/capabilities/*",
            "coded/capabilities/**",
            "references/**/*.md",
            "references/**/x/**/*.md",
            "references/**/**/*.md",
            "a/**",
            "skeleton-*.md",
            "Step-*.MD",
            "/scripts/*.py",
            "/references/**",
            "/**/a.md",
            "/a/***/b*.md",
            "/a**b/*.md",
            "/é*/x.md",
            "/[x]/*.md",
            "/{y}/*",
            "/a?/*",
            "/a\\b/*",
            "x.*.md",
            "*a*a*b",
        ];
        let paths = [
            "references/module-1-a.md",
            "references/module-1.md",
            "module-2-b.md",
            "x/references/a.md",
            "references/a.md",
            "references/b/a.md",
            "references/b/x/c/a.md",
            "references/x/a.md",
            "references/x/x/a.md",
            "references",
            "scripts/a.py",
            "scripts/a/b.py",
            "tools/scripts/a.py",
            "coded/capabilities",
            "coded/capabilities/x",
            "coded/capabilities/x/y",
            "a",
            "a/b",
            "b/a/c",
            "skeleton-1.md",
            "STEP-2.md",
            "a.md",
            "z/a.md",
            "a/b/bb.md",
            "a/x/y/b.md",
            "axb/q.md",
            "a**b/q.md",
            "é1/x.md",
            "É1/x.md",
            "[x]/a.md",
            "x/a.md",
            "{y}/z",
            "a?/z",
            "ab/z",
            "a\\b/z",
            "x.y.md",
            "x..md",
            "aab",
            "a/aab",
        ];
        for key in keys {
            for rel in paths {
                assert_eq!(matches(key, rel), oracle(key, rel), "{key} against {rel}");
            }
        }
        // Compiled together, each key matches what it matches alone.
        let together = Globs::new(&keys).matches(&paths);
        for (k, key) in keys.iter().enumerate() {
            let alone: Vec<usize> = (0..paths.len())
                .filter(|&i| oracle(key, paths[i]))
                .collect();
            assert_eq!(together[k], alone, "{key}");
        }
    }
}
