//! haiku.skills' skill-directory digest (package.md, "Skill directories signed the haiku.skills
//! way"), compared with haiku's own code: trees covering each rule of its walk (order,
//! exclusions, `.gitignore` files and their patterns, links) are hashed by
//! `skillc::sign::haiku::digest` and by haiku's `hash_skill_directory`
//! (tests/interop/haiku_digest.py), and must agree byte for byte.
//!
//! `SKILLC_HAIKU_PYTHON` names a Python with `haiku.skills` (--no-deps) and `pathspec`
//! installed (.ci/run sets it up). Without it the comparison is skipped with a notice, or fails
//! when `SKILLC_REQUIRE_HAIKU=1`; the expectations written here are checked either way.

#![cfg(unix)]

use std::fs;
use std::os::unix::fs::symlink;
use std::path::{Path, PathBuf};
use std::process::Command;

use skillc::sign::haiku::{self, DirDigest};

fn write(path: &Path, content: impl AsRef<[u8]>) {
    fs::create_dir_all(path.parent().unwrap()).unwrap();
    fs::write(path, content).unwrap();
}

/// Writes `files` (relative path, content) under `dir`.
fn files(dir: &Path, files: &[&str]) {
    for rel in files {
        // Each file holds its own path: a wrong pairing of names and contents shows.
        write(&dir.join(rel), format!("content of {rel}\n"));
    }
}

/// A tree to hash: its skill directory and, when written down, the files it must hash.
struct Tree {
    name: &'static str,
    skill: PathBuf,
    want: Option<Vec<&'static str>>,
}

/// `base/NAME/` gets a `.git` directory (the `.gitignore` walk stops there) and an empty
/// `skill/` inside, which is returned.
fn repo(base: &Path, name: &str) -> PathBuf {
    let root = base.join(name);
    fs::create_dir_all(root.join(".git")).unwrap();
    let skill = root.join("skill");
    fs::create_dir_all(&skill).unwrap();
    skill
}

fn trees(base: &Path) -> Vec<Tree> {
    let mut out = Vec::new();
    let mut add = |name: &'static str, skill: PathBuf, want: Option<&[&'static str]>| {
        out.push(Tree {
            name,
            skill,
            want: want.map(<[_]>::to_vec),
        });
    };

    let s = repo(base, "basic");
    files(&s, &["SKILL.md", "scripts/run.py", "references/guide.md"]);
    add(
        "basic",
        s,
        Some(&["SKILL.md", "references/guide.md", "scripts/run.py"]),
    );

    let s = repo(base, "empty");
    add("empty", s, Some(&[]));

    // Component-wise order: `a/x` before `a-b/x` and `a.b`, though `-` and `.` sort before `/`.
    let s = repo(base, "component-order");
    files(
        &s,
        &["a/x", "a/y/z", "a-b/x", "a.b", "a0", "ab", "a b/c", "a!/d"],
    );
    add(
        "component-order",
        s,
        Some(&["a/x", "a/y/z", "a b/c", "a!/d", "a-b/x", "a.b", "a0", "ab"]),
    );

    // Code-point order (UTF-8 bytes), not case-folded, not UTF-16.
    let s = repo(base, "unicode-order");
    files(
        &s,
        &[
            "B",
            "a",
            "_",
            "~",
            "Z/z",
            "é",
            "e\u{301}",
            "日本/語.md",
            "😀",
            "\u{ff5e}",
            "\u{e000}",
            "\u{7f}",
        ],
    );
    add(
        "unicode-order",
        s,
        Some(&[
            "B",
            "Z/z",
            "_",
            "a",
            "e\u{301}",
            "~",
            "\u{7f}",
            "é",
            "日本/語.md",
            "\u{e000}",
            "\u{ff5e}",
            "😀",
        ]),
    );

    let s = repo(base, "many-names");
    let names: Vec<String> = (0..150)
        .map(|i| format!("{}{}", ["x", "X", "x-", "x.", "x/"][i % 5], i * 7919 % 1000))
        .collect();
    for name in &names {
        write(&s.join(name), name.as_bytes());
    }
    add("many-names", s, None);

    let s = repo(base, "hidden");
    files(
        &s,
        &[
            "ok",
            ".env",
            ".hidden/x",
            "sub/.git/config",
            "sub/.x",
            "sub/ok",
            "sub/a.b/.c/d",
        ],
    );
    add("hidden", s, Some(&["ok", "sub/ok"]));

    let s = repo(base, "caches");
    files(
        &s,
        &[
            "__pycache__/a",
            "x/__pycache__/b.txt",
            "x/y/node_modules/p/i.js",
            "node_modules/top.js",
            "node_modules2/k",
            "x/__pycache__x/ok",
            "x/node_modules.txt",
        ],
    );
    add(
        "caches",
        s,
        Some(&["node_modules2/k", "x/__pycache__x/ok", "x/node_modules.txt"]),
    );

    let s = repo(base, "bundle-files");
    files(
        &s,
        &[
            "SKILL.md",
            "SKILL.sigstore",
            "sub/SKILL.sigstore",
            "sub/SKILL.sigstore.bak",
            "SKILL.SIGSTORE",
            "sub/deeper/SKILL.sigstore",
        ],
    );
    add(
        "bundle-files",
        s,
        Some(&["SKILL.SIGSTORE", "SKILL.md", "sub/SKILL.sigstore.bak"]),
    );

    let s = repo(base, "suffixes");
    files(
        &s,
        &[
            "a.pyc",
            "b.PYC",
            "c.pyo",
            "d.pyc.txt",
            "e.",
            "f..pyc",
            "pyc",
            "g.py",
            "h.Pyo",
            "sub/i.pyc",
        ],
    );
    add(
        "suffixes",
        s,
        Some(&["b.PYC", "d.pyc.txt", "e.", "g.py", "h.Pyo", "pyc"]),
    );

    let s = repo(base, "gitignore-in-skill");
    write(&s.join(".gitignore"), "*.log\nbuild/\n");
    files(
        &s,
        &[
            "SKILL.md",
            "debug.log",
            "sub/x.log",
            "build/out.js",
            "x/build/y",
            "build.md",
        ],
    );
    add("gitignore-in-skill", s, Some(&["SKILL.md", "build.md"]));

    // A parent's .gitignore applies, relative to the skill directory.
    let root = base.join("parent-gitignore");
    fs::create_dir_all(root.join(".git")).unwrap();
    write(&root.join(".gitignore"), "secret*\n/top.md\nskills/\n");
    let s = root.join("skills/my-skill");
    files(
        &s,
        &[
            "SKILL.md",
            "secret.txt",
            "sub/secrets.md",
            "top.md",
            "sub/top.md",
        ],
    );
    add("parent-gitignore", s, Some(&["SKILL.md", "sub/top.md"]));

    // Above the directory with `.git` nothing applies.
    let outer = base.join("above-git");
    write(&outer.join(".gitignore"), "*.txt\n");
    fs::create_dir_all(outer.join("repo/.git")).unwrap();
    let s = outer.join("repo/skill");
    files(&s, &["SKILL.md", "a.txt"]);
    add("above-git", s, Some(&["SKILL.md", "a.txt"]));

    // A `.git` file (a worktree's, a submodule's) does not stop the walk.
    let outer = base.join("git-file");
    fs::create_dir_all(outer.join(".git")).unwrap();
    write(&outer.join(".gitignore"), "*.txt\n");
    write(&outer.join("mid/.git"), "gitdir: ../.git/worktrees/mid\n");
    write(&outer.join("mid/.gitignore"), "*.log\n");
    let s = outer.join("mid/skill");
    files(&s, &["SKILL.md", "a.txt", "b.log", "c.md"]);
    add("git-file", s, Some(&["SKILL.md", "c.md"]));

    // The skill directory itself holds the `.git` directory: its parents do not count.
    let outer = base.join("skill-is-repo");
    write(&outer.join(".gitignore"), "*.md\n");
    let s = outer.join("skill");
    fs::create_dir_all(s.join(".git")).unwrap();
    write(&s.join(".gitignore"), "*.log\n");
    files(&s, &["SKILL.md", "a.log"]);
    add("skill-is-repo", s, Some(&["SKILL.md"]));

    // Last match decides; a negation re-includes inside an excluded directory (PathSpec, not
    // git); the parent's patterns come last, so they win over the skill's.
    let root = base.join("negation");
    fs::create_dir_all(root.join(".git")).unwrap();
    write(&root.join(".gitignore"), "*.log\n!parent-keep.tmp\n");
    let s = root.join("skill");
    write(
        &s.join(".gitignore"),
        "build/\n!build/keep.txt\n!keep.log\n*.tmp\n*.md\n!README.md\n",
    );
    files(
        &s,
        &[
            "build/keep.txt",
            "build/drop.txt",
            "build/sub/keep.txt",
            "keep.log",
            "parent-keep.tmp",
            "x.tmp",
            "README.md",
            "SKILL.md",
            "docs/README.md",
        ],
    );
    add(
        "negation",
        s,
        Some(&[
            "README.md",
            "build/keep.txt",
            "docs/README.md",
            "parent-keep.tmp",
        ]),
    );

    let s = repo(base, "anchored");
    write(
        &s.join(".gitignore"),
        "/top.txt\nsub/x.txt\na/*/c\n/d*/e/\n",
    );
    files(
        &s,
        &[
            "top.txt",
            "a/top.txt",
            "sub/x.txt",
            "a/sub/x.txt",
            "a/b/c",
            "a/b/b/c",
            "a/e/c/d",
            "dir/e/f",
            "q/dir/e/f",
            "dx/e",
        ],
    );
    add(
        "anchored",
        s,
        Some(&["a/b/b/c", "a/sub/x.txt", "a/top.txt", "dx/e", "q/dir/e/f"]),
    );

    let s = repo(base, "double-star");
    write(
        &s.join(".gitignore"),
        "a/**/z\n**/m.txt\nd/**\nx**y\n**/k/\n",
    );
    files(
        &s,
        &[
            "a/z",
            "a/b/z",
            "a/b/c/z",
            "b/a/z",
            "m.txt",
            "p/q/m.txt",
            "d/1",
            "d/e/2",
            "dd",
            "xy",
            "xaby",
            "x/y",
            "k/1",
            "r/k/2",
            "k2/3",
        ],
    );
    add("double-star", s, None);

    let s = repo(base, "star-slash");
    write(&s.join(".gitignore"), "*/\n!keep/**\n");
    files(&s, &["top", "d/x", "keep/y", "keep/z/w"]);
    add("star-slash", s, Some(&["keep/y", "keep/z/w", "top"]));

    let s = repo(base, "everything-but");
    write(&s.join(".gitignore"), "*\n!*.md\n!*/\n");
    files(&s, &["a.md", "b.txt", "d/c.md", "d/e.txt"]);
    add("everything-but", s, None);

    let s = repo(base, "classes");
    write(
        &s.join(".gitignore"),
        "[ab]*.c\n[!x]?.d\n[^y]-.e\n[a-c]z\n[]]q\n[!]]r\n[[:alpha:]]\n[a-]s\n[\\]t\n[é-ë]u\n",
    );
    files(
        &s,
        &[
            "a1.c", "c1.c", "b.c", "yz.d", "xz.d", "x-.e", "y-.e", "bz", "dz", "]q", "aq", "]r",
            "ar", "a]", ":]", "a", "-s", "as", "bs", "\\t", "]t", "êu", "eu",
        ],
    );
    add("classes", s, None);

    // A `[` that is never closed drops its pattern (pathspec 1.x, as git).
    let s = repo(base, "unclosed-class");
    write(&s.join(".gitignore"), "[abc\nx.txt\n*.[ch\n");
    files(&s, &["[abc", "a", "x.txt", "y.[ch", "y.c"]);
    add("unclosed-class", s, Some(&["[abc", "a", "y.[ch", "y.c"]));

    let s = repo(base, "escapes");
    write(
        &s.join(".gitignore"),
        "\\#hash\n\\!bang\nstar\\*\nsp\\ \nq\\?\nback\\\\slash\n\\[x]\n",
    );
    files(
        &s,
        &[
            "#hash",
            "!bang",
            "star*",
            "starx",
            "sp ",
            "sp",
            "q?",
            "qa",
            "back\\slash",
            "[x]",
            "x",
        ],
    );
    add("escapes", s, Some(&["qa", "sp", "starx", "x"]));

    let s = repo(base, "whitespace");
    write(
        &s.join(".gitignore"),
        "trail   \n  lead\ntab\t\nnbsp\u{a0}\nus\x1f\nkept\\ \n",
    );
    files(
        &s,
        &[
            "trail", "trail   ", "lead", "  lead", "tab", "nbsp", "us", "kept ", "kept",
        ],
    );
    add("whitespace", s, Some(&["kept", "lead", "trail   "]));

    let s = repo(base, "comments");
    write(
        &s.join(".gitignore"),
        "# a comment\n\n   \n#x.txt\n  #y.txt\n",
    );
    files(&s, &["#x.txt", "  #y.txt", "z.txt"]);
    add("comments", s, Some(&["#x.txt", "z.txt"]));

    let s = repo(base, "crlf");
    write(&s.join(".gitignore"), "a.log\r\nb.log\r\r\nc.log\rd.log");
    files(&s, &["a.log", "b.log", "c.log", "d.log", "e.log"]);
    add("crlf", s, Some(&["e.log"]));

    // Every line break of Python's `str.splitlines`; `\x1f` is none (but is whitespace).
    let s = repo(base, "splitlines");
    write(
        &s.join(".gitignore"),
        "a\x0bb\x0cc\x1cd\x1de\x1ef\u{85}g\u{2028}h\u{2029}i\x1fj\n",
    );
    files(
        &s,
        &[
            "a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "i\x1fj", "k",
        ],
    );
    add("splitlines", s, Some(&["i", "j", "k"]));

    // A BOM is part of the first pattern (Python's read_text keeps it).
    let s = repo(base, "bom");
    write(&s.join(".gitignore"), "\u{feff}a.txt\nb.txt\n");
    files(&s, &["a.txt", "b.txt", "\u{feff}a.txt"]);
    add("bom", s, Some(&["a.txt"]));

    let s = repo(base, "unicode-patterns");
    write(&s.join(".gitignore"), "é*\n日本/\n?.md\n");
    files(
        &s,
        &["éa", "e\u{301}a", "日本/x", "日本語/x", "ü.md", "üü.md"],
    );
    add(
        "unicode-patterns",
        s,
        Some(&["e\u{301}a", "üü.md", "日本語/x"]),
    );

    // Python's `.` does not match a newline and its `$` matches before a final one.
    let s = repo(base, "newlines");
    write(&s.join(".gitignore"), "foo\n*\n!a*\n!b/\n!**/c\n");
    files(&s, &["foo\n", "\n", "a\nb", "b\n/x", "x\ny/c", "c", "d"]);
    add("newlines", s, None);

    let s = repo(base, "links");
    files(&s, &["real.txt", "sub/x.txt"]);
    symlink("real.txt", s.join("link.txt")).unwrap();
    symlink("../real.txt", s.join("sub/up.txt")).unwrap();
    symlink("nowhere", s.join("dangling")).unwrap();
    symlink("sub", s.join("dirlink")).unwrap();
    symlink("loop", s.join("loop")).unwrap();
    symlink("/etc/hostname", s.join(".outside-hidden")).unwrap();
    symlink("/etc/hostname", s.join("outside.log")).unwrap();
    write(&s.join(".gitignore"), "*.log\n");
    add(
        "links",
        s,
        Some(&["link.txt", "real.txt", "sub/up.txt", "sub/x.txt"]),
    );

    let s = repo(base, "special-files");
    files(&s, &["SKILL.md"]);
    let fifo =
        std::ffi::CString::new(s.join("fifo").into_os_string().into_encoded_bytes()).unwrap();
    // SAFETY: a valid NUL-terminated path.
    assert_eq!(unsafe { libc::mkfifo(fifo.as_ptr(), 0o644) }, 0);
    symlink("fifo", s.join("fifo-link")).unwrap();
    add("special-files", s, Some(&["SKILL.md"]));

    // The skill directory reached through a symbolic link: the .gitignore walk starts from
    // where it really is.
    let root = base.join("linked-skill");
    fs::create_dir_all(root.join("real/.git")).unwrap();
    write(&root.join("real/.gitignore"), "*.log\n");
    files(&root.join("real/skill"), &["SKILL.md", "x.log"]);
    symlink("real/skill", root.join("alias")).unwrap();
    add("linked-skill", root.join("alias"), Some(&["SKILL.md"]));

    // No `.git` anywhere: the walk goes up to `/`.
    let s = base.join("no-repo/skill");
    write(&s.join(".gitignore"), "*.log\n");
    files(&s, &["SKILL.md", "x.log"]);
    add("no-repo", s, Some(&["SKILL.md"]));

    // The format has no separators: these two trees hash the same bytes.
    let s = repo(base, "ambiguous-1");
    write(&s.join("a"), "bc");
    add("ambiguous-1", s, Some(&["a"]));
    let s = repo(base, "ambiguous-2");
    write(&s.join("ab"), "c");
    add("ambiguous-2", s, Some(&["ab"]));

    out
}

/// haiku's results for `dirs`, one JSON object each.
fn haiku_results(python: &str, dirs: &[&Path]) -> Vec<serde_json::Value> {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/interop/haiku_digest.py");
    let out = Command::new(python)
        .arg(&script)
        .args(dirs)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{python} {}: {}\n{}",
        script.display(),
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    let results: Vec<serde_json::Value> = text
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    assert_eq!(
        results.len(),
        dirs.len(),
        "haiku_digest.py printed:\n{text}"
    );
    results
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn ours(tree: &Tree) -> DirDigest {
    haiku::digest(&tree.skill).unwrap_or_else(|e| panic!("{}: {e}", tree.name))
}

/// The haiku Python named by `SKILLC_HAIKU_PYTHON`, or `None` (skipped, unless required).
fn python() -> Option<String> {
    match std::env::var("SKILLC_HAIKU_PYTHON") {
        Ok(python) if !python.is_empty() => Some(python),
        _ => {
            assert!(
                std::env::var_os("SKILLC_REQUIRE_HAIKU").is_none_or(|v| v != "1"),
                "SKILLC_HAIKU_PYTHON is not set and SKILLC_REQUIRE_HAIKU=1"
            );
            eprintln!(
                "SKIPPED: the comparison with haiku.skills' own digest (set SKILLC_HAIKU_PYTHON \
                 to a Python with haiku.skills and pathspec installed)"
            );
            None
        }
    }
}

#[test]
fn digests_equal_haikus() {
    let base = tempfile::tempdir().unwrap();
    let trees = trees(base.path());
    assert!(trees.len() >= 25);

    let mut failures = Vec::new();
    let digests: Vec<DirDigest> = trees.iter().map(ours).collect();
    for (tree, got) in trees.iter().zip(&digests) {
        if let Some(want) = &tree.want
            && got.files != *want
        {
            failures.push(format!(
                "{}: expected files {want:?}\n  got {:?}",
                tree.name, got.files
            ));
        }
    }
    let ambiguous: Vec<&DirDigest> = trees
        .iter()
        .zip(&digests)
        .filter(|(t, _)| t.name.starts_with("ambiguous-"))
        .map(|(_, d)| d)
        .collect();
    assert_eq!(ambiguous.len(), 2);
    assert_eq!(ambiguous[0].sha256, ambiguous[1].sha256);

    if let Some(python) = python() {
        let dirs: Vec<&Path> = trees.iter().map(|t| t.skill.as_path()).collect();
        let results = haiku_results(&python, &dirs);
        for ((tree, got), theirs) in trees.iter().zip(&digests).zip(&results) {
            let Some(digest) = theirs["digest"].as_str() else {
                failures.push(format!("{}: haiku failed: {theirs}", tree.name));
                continue;
            };
            let their_files: Vec<String> = theirs["files"]
                .as_array()
                .unwrap()
                .iter()
                .map(|f| f.as_str().unwrap().to_string())
                .collect();
            if digest != hex(&got.sha256) || their_files != got.files {
                let only_haiku: Vec<&String> = their_files
                    .iter()
                    .filter(|f| !got.files.contains(f))
                    .collect();
                let only_ours: Vec<&String> = got
                    .files
                    .iter()
                    .filter(|f| !their_files.contains(f))
                    .collect();
                failures.push(format!(
                    "{}: haiku {digest}, skillc {}\n  haiku's files: {their_files:?}\n  \
                     skillc's files: {:?}\n  only haiku hashes: {only_haiku:?}\n  only skillc \
                     hashes: {only_ours:?}",
                    tree.name,
                    hex(&got.sha256),
                    got.files
                ));
            }
        }
        eprintln!(
            "compared {} trees with haiku.skills: {} mismatched",
            trees.len(),
            failures.len()
        );
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

fn error_of(dir: &Path) -> String {
    match haiku::digest(dir) {
        Ok(d) => panic!("{}: expected an error, got {:?}", dir.display(), d.files),
        Err(e) => e,
    }
}

/// Where haiku raises (and so cannot have signed anything), skillc refuses too: patterns
/// pathspec cannot compile, a `.gitignore` that is not UTF-8.
#[test]
fn patterns_haiku_cannot_compile_are_errors() {
    let base = tempfile::tempdir().unwrap();
    let mut dirs = Vec::new();
    for (name, gitignore) in [
        ("trailing-backslash", &b"ok\nbad\\\n"[..]),
        ("lone-bang", b"!\n"),
        ("bang-space", b"! \n"),
        ("reversed-range", b"[z-a]\n"),
        ("not-utf8", b"a\xff\n"),
    ] {
        let s = repo(base.path(), name);
        files(&s, &["SKILL.md"]);
        write(&s.join(".gitignore"), gitignore);
        let err = error_of(&s);
        assert!(err.contains(".gitignore"), "{name}: {err}");
        dirs.push(s);
    }
    if let Some(python) = python() {
        let paths: Vec<&Path> = dirs.iter().map(PathBuf::as_path).collect();
        for (dir, theirs) in dirs.iter().zip(haiku_results(&python, &paths)) {
            assert!(
                theirs["error"].is_string(),
                "{}: haiku did not fail: {theirs}",
                dir.display()
            );
        }
    }
}

#[test]
fn decided_errors() {
    let base = tempfile::tempdir().unwrap();

    // A hashed link out of the skill directory.
    let s = repo(base.path(), "outside");
    write(&base.path().join("secret.txt"), "secret");
    files(&s, &["SKILL.md"]);
    symlink("../../secret.txt", s.join("leak.txt")).unwrap();
    let err = error_of(&s);
    assert!(
        err.contains(
            "leak.txt` links outside the skill directory; skillc does not read files outside it"
        ),
        "{err}"
    );
    // Also through a linked directory's path.
    let s = repo(base.path(), "outside-abs");
    symlink(base.path().join("secret.txt"), s.join("abs")).unwrap();
    assert!(error_of(&s).contains("links outside"));

    // A name that is not UTF-8.
    let s = repo(base.path(), "not-utf8-name");
    let name = <std::ffi::OsStr as std::os::unix::ffi::OsStrExt>::from_bytes(b"bad\xffname");
    write(&s.join(name), "x");
    assert!(error_of(&s).contains("not valid UTF-8"));
    // A hidden one is never read as a name.
    let s = repo(base.path(), "hidden-not-utf8");
    let name = <std::ffi::OsStr as std::os::unix::ffi::OsStrExt>::from_bytes(b".bad\xff");
    write(&s.join(name), "x");
    files(&s, &["SKILL.md"]);
    assert_eq!(haiku::digest(&s).unwrap().files, ["SKILL.md"]);

    // A .gitignore over 1 MiB, in the skill directory or above.
    let s = repo(base.path(), "big-gitignore");
    write(
        &s.parent().unwrap().join(".gitignore"),
        "#".repeat((1 << 20) + 1),
    );
    let err = error_of(&s);
    assert!(
        err.contains(".gitignore") && err.contains("1048576"),
        "{err}"
    );

    // Not a directory.
    write(&base.path().join("file"), "x");
    assert!(error_of(&base.path().join("file")).contains("not a directory"));
}

#[test]
fn caps() {
    let base = tempfile::tempdir().unwrap();
    let s = repo(base.path(), "files");
    for i in 0..=haiku::MAX_FILES {
        fs::write(s.join(format!("f{i}")), "").unwrap();
    }
    let err = error_of(&s);
    assert!(err.contains("more than 10000 files"), "{err}");
    // Exactly at the cap is fine.
    fs::remove_file(s.join("f0")).unwrap();
    assert_eq!(haiku::digest(&s).unwrap().files.len(), haiku::MAX_FILES);

    // Entries count even when excluded (but not those inside excluded directories).
    let s = repo(base.path(), "entries");
    fs::create_dir(s.join(".git")).unwrap();
    for i in 1..haiku::MAX_ENTRIES {
        fs::write(s.join(format!("x{i}.pyc")), "").unwrap();
    }
    for i in 0..100 {
        fs::write(s.join(format!(".git/{i}")), "").unwrap();
    }
    assert!(haiku::digest(&s).unwrap().files.is_empty());
    fs::write(s.join("one-more"), "").unwrap();
    let err = error_of(&s);
    assert!(err.contains("more than 20000 entries"), "{err}");

    let s = repo(base.path(), "patterns");
    let lines: String = (0..=haiku::MAX_PATTERNS)
        .map(|i| format!("p{i}\n"))
        .collect();
    write(&s.join(".gitignore"), lines);
    let err = error_of(&s);
    assert!(err.contains("more than 10000 patterns"), "{err}");
}
