//! Discovery against hostile trees (cli.md, Discovery): symbolic-link ladders and loops end
//! quickly, links never lead the search out of its root unless asked, ignore files are read
//! capped and never through links or FIFOs, skillc's own unpack temp directories are not
//! skills; and the usual ignore semantics (nested files, `!`, `.ignore` over `.gitignore`,
//! parent directories, `.git/info/exclude`) still hold. Every run is killed after 20 s.

use std::fs;
use std::os::unix::fs::symlink;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const TIMEOUT: Duration = Duration::from_secs(20);

struct Run {
    code: Option<i32>,
    /// The `path` of each skill in `validate --format json`'s report.
    paths: Vec<String>,
    /// Each diagnostic as `path: CODE`.
    diagnostics: Vec<String>,
    stderr: String,
}

/// Runs `skillc validate --format json ARGS` in `dir`, with no user git config, and fails the
/// test if it has not ended after [`TIMEOUT`].
fn validate(dir: &Path, args: &[&str]) -> Run {
    let home = dir.join("no-home");
    let mut child = Command::new(env!("CARGO_BIN_EXE_skillc"))
        .current_dir(dir)
        .env("HOME", &home)
        .env("XDG_CONFIG_HOME", home.join("config"))
        .env("GIT_CONFIG_GLOBAL", home.join("gitconfig"))
        .env("GIT_CONFIG_SYSTEM", home.join("gitconfig-system"))
        .env_remove("SKILLC_FORMAT")
        .env_remove("SKILLC_OUTPUT_FORMAT")
        .args(["validate", "--no-config", "--format", "json"])
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let start = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if start.elapsed() > TIMEOUT {
            child.kill().unwrap();
            child.wait().unwrap();
            panic!(
                "skillc validate {args:?} in {} ran over {TIMEOUT:?}",
                dir.display()
            );
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let out = child.wait_with_output().unwrap();
    let stdout = String::from_utf8(out.stdout).unwrap();
    let doc: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    let paths = doc["skills"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["path"].as_str().unwrap().to_string())
        .collect();
    let diagnostics = doc["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            format!(
                "{}: {}",
                d["path"].as_str().unwrap(),
                d["code"].as_str().unwrap()
            )
        })
        .collect();
    Run {
        code: out.status.code(),
        paths,
        diagnostics,
        stderr: String::from_utf8(out.stderr).unwrap(),
    }
}

/// A valid skill in `dir`, named after it.
fn skill(dir: &Path) -> PathBuf {
    let name = dir.file_name().unwrap().to_str().unwrap();
    fs::create_dir_all(dir).unwrap();
    fs::write(
        dir.join("SKILL.md"),
        format!("---\nname: {name}\ndescription: Use when testing {name}.\n---\n\nBody.\n"),
    )
    .unwrap();
    dir.to_path_buf()
}

fn write(path: &Path, text: &str) {
    fs::create_dir_all(path.parent().unwrap()).unwrap();
    fs::write(path, text).unwrap();
}

fn mkfifo(path: &Path) {
    let c = std::ffi::CString::new(path.to_str().unwrap()).unwrap();
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o644) }, 0);
}

/// A temporary directory with a `repo` inside, returned canonical (links are compared with
/// canonical paths).
fn sandbox() -> (tempfile::TempDir, PathBuf) {
    let tmp = tempfile::tempdir().unwrap();
    let repo = tmp.path().canonicalize().unwrap().join("repo");
    fs::create_dir(&repo).unwrap();
    (tmp, repo)
}

#[test]
fn a_ladder_of_double_links_ends_quickly_and_finds_the_skill_once() {
    // L0/x and L0/y both lead to L1, and so on: 2^41 paths through 41 real directories.
    let (_tmp, repo) = sandbox();
    for i in 0..41 {
        let dir = repo.join(format!("L{i}"));
        fs::create_dir(&dir).unwrap();
        symlink(format!("../L{}", i + 1), dir.join("x")).unwrap();
        symlink(format!("../L{}", i + 1), dir.join("y")).unwrap();
    }
    skill(&repo.join("L41/deep"));
    let start = Instant::now();
    let run = validate(&repo, &[]);
    assert!(
        start.elapsed() < Duration::from_secs(10),
        "{:?}",
        start.elapsed()
    );
    assert_eq!(run.paths, ["L41/deep"]);
    assert_eq!(run.stderr, "");
    assert_eq!(run.code, Some(0));

    // A ladder reachable only through links (its real directories are in `node_modules`,
    // which is not searched): the skill is reported once, at the first path in sorted order.
    // 30 rungs: Linux resolves at most 40 links in one path.
    let (_tmp, repo) = sandbox();
    fs::create_dir(repo.join("top")).unwrap();
    let hidden = repo.join("top/node_modules");
    for i in 0..30 {
        let dir = hidden.join(format!("L{i}"));
        fs::create_dir_all(&dir).unwrap();
        symlink(format!("../L{}", i + 1), dir.join("x")).unwrap();
        symlink(format!("../L{}", i + 1), dir.join("y")).unwrap();
    }
    skill(&hidden.join("L30/deep"));
    symlink("node_modules/L0", repo.join("top/in")).unwrap();
    let run = validate(&repo, &[]);
    let first = format!("top/in{}/deep", "/x".repeat(30));
    assert_eq!(run.paths, [first]);
    assert_eq!(run.stderr, "");
}

#[test]
fn links_out_of_the_root_are_not_followed() {
    let (tmp, repo) = sandbox();
    let outside = tmp.path().canonicalize().unwrap().join("outside");
    skill(&outside.join("elsewhere"));
    skill(&repo.join("mine"));
    symlink("/", repo.join("rootlink")).unwrap();
    symlink("../outside/elsewhere", repo.join("ext")).unwrap();
    symlink("../outside", repo.join("up")).unwrap();
    // A hostile name cannot forge a line of its own or send a terminal escape.
    symlink("/", repo.join("evil\n\u{1b}[2Jwarning: forged")).unwrap();
    let run = validate(&repo, &[]);
    assert_eq!(run.paths, ["mine"]);
    let out = outside.display();
    assert_eq!(
        run.stderr,
        format!(
            "warning: skipping `evil\\u{{a}}\\u{{1b}}[2Jwarning: forged`: a symbolic link to `/`, outside `.` (pass it as a PATH, or use --follow-links)\n\
             warning: skipping `ext`: a symbolic link to `{out}/elsewhere`, outside `.` (pass it as a PATH, or use --follow-links)\n\
             warning: skipping `rootlink`: a symbolic link to `/`, outside `.` (pass it as a PATH, or use --follow-links)\n\
             warning: skipping `up`: a symbolic link to `{out}`, outside `.` (pass it as a PATH, or use --follow-links)\n"
        )
    );
    assert_eq!(run.code, Some(0));

    // Named as a PATH, a link is followed: the user asked for it.
    let run = validate(&repo, &["up"]);
    assert_eq!(run.paths, ["up/elsewhere"]);
    assert_eq!(run.stderr, "");
    let run = validate(&repo, &["ext"]);
    assert_eq!(run.paths, ["ext"]);
    assert_eq!(run.stderr, "");

    // --follow-links leaves the root, still visiting each real directory once.
    fs::remove_file(repo.join("rootlink")).unwrap();
    fs::remove_file(repo.join("evil\n\u{1b}[2Jwarning: forged")).unwrap();
    symlink("..", outside.join("elsewhere/loop")).unwrap();
    let run = validate(&repo, &["--follow-links"]);
    assert_eq!(run.paths, ["ext", "mine"]);
    assert_eq!(run.stderr, "");
}

#[test]
fn links_inside_the_root_report_each_skill_once_at_its_real_path() {
    let (_tmp, repo) = sandbox();
    skill(&repo.join("z/real"));
    symlink("z/real", repo.join("a-link")).unwrap();
    symlink("z", repo.join("b-dir")).unwrap();
    symlink(".", repo.join("self")).unwrap();
    symlink("..", repo.join("z/parent")).unwrap();
    symlink("gone", repo.join("dangling")).unwrap();
    symlink("loop2", repo.join("loop1")).unwrap();
    symlink("loop1", repo.join("loop2")).unwrap();
    let run = validate(&repo, &[]);
    assert_eq!(run.paths, ["z/real"]);
    assert_eq!(
        run.stderr,
        "warning: skipping `loop1`: Too many levels of symbolic links (os error 40)\n\
         warning: skipping `loop2`: Too many levels of symbolic links (os error 40)\n"
    );
}

#[test]
fn hostile_ignore_files_are_skipped_with_a_warning_and_the_rest_is_checked() {
    let (_tmp, repo) = sandbox();
    skill(&repo.join("kept"));
    skill(&repo.join("sub/also"));
    skill(&repo.join("big/inner"));
    symlink("/dev/zero", repo.join(".gitignore")).unwrap();
    mkfifo(&repo.join(".ignore"));
    mkfifo(&repo.join("sub/.gitignore"));
    symlink("../kept/SKILL.md", repo.join("sub/.ignore")).unwrap();
    // 2 MiB of rules that would ignore everything.
    let big = "*\n".repeat(1 << 20);
    write(&repo.join("big/.gitignore"), &big);
    let run = validate(&repo, &[]);
    assert_eq!(run.paths, ["big/inner", "kept", "sub/also"]);
    assert_eq!(
        run.stderr,
        "warning: skipping ignore file `.ignore`: not a regular file\n\
         warning: skipping ignore file `.gitignore`: a symbolic link (not followed)\n\
         warning: skipping ignore file `big/.gitignore`: the file is 2097152 bytes; the limit is 1048576\n\
         warning: skipping ignore file `sub/.ignore`: a symbolic link (not followed)\n\
         warning: skipping ignore file `sub/.gitignore`: not a regular file\n"
    );
    assert_eq!(run.code, Some(0));

    // An ignore file in a parent directory is read the same way.
    let run = validate(&repo.join("sub"), &[]);
    assert_eq!(run.paths, ["also"]);
    assert_eq!(
        run.stderr,
        format!(
            "warning: skipping ignore file `{r}/.ignore`: not a regular file\n\
             warning: skipping ignore file `{r}/.gitignore`: a symbolic link (not followed)\n\
             warning: skipping ignore file `.ignore`: a symbolic link (not followed)\n\
             warning: skipping ignore file `.gitignore`: not a regular file\n",
            r = repo.display()
        )
    );

    // --no-ignore reads none of them.
    let run = validate(&repo, &["--no-ignore"]);
    assert_eq!(run.paths, ["big/inner", "kept", "sub/also"]);
    assert_eq!(run.stderr, "");
}

/// `count` patterns `PREFIX{i}/**/*.md`, then `lines`.
fn patterns(prefix: &str, count: usize, lines: &str) -> String {
    let mut text: String = (0..count)
        .map(|i| format!("{prefix}{i}/**/*.md\n"))
        .collect();
    text.push_str(lines);
    text
}

#[test]
fn ignore_files_compile_at_most_2000_patterns_a_run() {
    // 70,000 one-line globs are under the size cap but cost seconds and a gigabyte compiled:
    // the file is skipped whole, named, and what it would hide is searched.
    let (_tmp, repo) = sandbox();
    skill(&repo.join("big/hidden"));
    write(
        &repo.join("big/.gitignore"),
        &patterns("d", 70_000, "hidden/\n"),
    );
    // 1,500 patterns fit; the next file's 600 do not fit in the 500 left, and the one after,
    // of 3 patterns, does.
    skill(&repo.join("a/hidden"));
    write(
        &repo.join("a/.gitignore"),
        &patterns("d", 1_499, "hidden/\n"),
    );
    skill(&repo.join("b/hidden"));
    write(
        &repo.join("b/.gitignore"),
        &patterns("d", 599, "# a comment\n\nhidden/\n"),
    );
    skill(&repo.join("c/hidden"));
    write(&repo.join("c/.gitignore"), &patterns("d", 2, "hidden/\n"));
    // One long glob costs as much as many short ones: bytes are counted too.
    skill(&repo.join("long/hidden"));
    write(
        &repo.join("long/.gitignore"),
        &format!("hidden/\n{}x\n", "*a".repeat(20_000)),
    );
    let run = validate(&repo, &[]);
    assert_eq!(run.paths, ["b/hidden", "big/hidden", "long/hidden"]);
    assert_eq!(
        run.stderr,
        "warning: skipping ignore file `b/.gitignore`: it holds 600 patterns, more than the 500 \
         left of the 2000 a run compiles over all its ignore files\n\
         warning: skipping ignore file `big/.gitignore`: it holds 70001 patterns; a run compiles \
         at most 2000, over all its ignore files\n\
         warning: skipping ignore file `long/.gitignore`: it holds 40008 bytes of patterns; a run \
         compiles at most 32768, over all its ignore files\n"
    );

    // A directory two PATHs reach is compiled (and charged) once: `a`'s 1,500 patterns twice
    // would leave no room for `c`'s (`a` and `c` hold no skill that is not ignored: SK001).
    let run = validate(&repo, &["a", "c", "."]);
    assert_eq!(
        run.paths,
        ["a", "b/hidden", "big/hidden", "c", "long/hidden"]
    );
    assert_eq!(run.stderr.lines().count(), 3, "{}", run.stderr);
}

/// `target`, `node_modules`, `.venv` and `__pycache__` are never searched, except a skill
/// directory of that name in a `skills` folder (a runtime's, or a plugin's), which a runtime
/// loads; elsewhere a skill directory of that name is skipped with a warning, not silently.
#[test]
fn skill_directories_named_like_skipped_ones_are_checked_in_a_skills_folder() {
    let (_tmp, repo) = sandbox();
    for dir in [
        ".claude/skills/target",
        ".claude/skills/node_modules",
        ".agents/skills/.venv",
        "plugin/skills/__pycache__",
        "other/target",
        "node_modules/pkg",
        ".claude/skills/.git",
        "target/deep",
    ] {
        skill(&repo.join(dir));
    }
    write(&repo.join(".claude/skills/target/docs/x.md"), "x\n");
    let run = validate(&repo, &[]);
    assert_eq!(
        run.paths,
        [
            ".agents/skills/.venv",
            ".claude/skills/node_modules",
            ".claude/skills/target",
            "plugin/skills/__pycache__"
        ]
    );
    assert_eq!(
        run.stderr,
        "warning: skipping `other/target`: it holds a skill file, but a search never enters \
         `target` directories outside a `skills` folder (pass it as a PATH to check it)\n"
    );
    // Named as a PATH, it is checked.
    let run = validate(&repo, &["other/target"]);
    assert_eq!(run.paths, ["other/target"]);
    assert_eq!(run.stderr, "");
}

#[test]
fn unpack_temp_directories_are_not_skills() {
    let (_tmp, repo) = sandbox();
    skill(&repo.join("real"));
    skill(&repo.join(".skillc-unpack-x1y2"));
    skill(&repo.join("dest/.skillc-unpack-AbC/inner"));
    let run = validate(&repo, &[]);
    assert_eq!(run.paths, ["real"]);
    assert_eq!(run.stderr, "");
}

#[test]
fn the_walk_stops_at_a_depth_of_64() {
    let (_tmp, repo) = sandbox();
    let shallow = ["d"; 63].join("/");
    let deep = ["d"; 65].join("/");
    skill(&repo.join(&shallow).join("ok"));
    skill(&repo.join(&deep).join("lost"));
    let run = validate(&repo, &[]);
    assert_eq!(run.paths, [format!("{shallow}/ok")]);
    assert_eq!(
        run.stderr,
        format!(
            "warning: skipping `{deep}` and anything else more than 64 directories below `.`\n"
        )
    );
}

#[test]
fn ignore_semantics_are_kept() {
    let (tmp, repo) = sandbox();
    // Above the search root (the `parents` behaviour; no git repository needed).
    write(&tmp.path().join(".gitignore"), "from-parent/\n");
    write(
        &repo.join(".gitignore"),
        "build/\nvendor/*\n!vendor/ours/\ngen/\nextra/\n!tmp/\n",
    );
    write(&repo.join(".ignore"), "tmp/\n!extra/\n");
    write(&repo.join("sub/.gitignore"), "local/\n!gen/\n");
    write(&repo.join(".git/info/exclude"), "excluded/\n");
    for dir in [
        "build/s1",
        "vendor/theirs",
        "vendor/ours",
        "gen/s2",
        "sub/gen/s3",
        "sub/local/s4",
        "local/s5",
        "sub/keep",
        "tmp/s6",
        "extra/s7",
        "from-parent/s8",
        "excluded/s9",
    ] {
        skill(&repo.join(dir));
    }
    // `.gitignore` keeps `tmp/` and drops `extra/`; `.ignore`, which wins, says the opposite.
    let run = validate(&repo, &[]);
    assert_eq!(
        run.paths,
        [
            "extra/s7",
            "local/s5",
            "sub/gen/s3",
            "sub/keep",
            "vendor/ours"
        ]
    );
    assert_eq!(run.stderr, "");

    let run = validate(&repo, &["--no-ignore"]);
    assert_eq!(
        run.paths,
        [
            "build/s1",
            "excluded/s9",
            "extra/s7",
            "from-parent/s8",
            "gen/s2",
            "local/s5",
            "sub/gen/s3",
            "sub/keep",
            "sub/local/s4",
            "tmp/s6",
            "vendor/ours",
            "vendor/theirs",
        ]
    );

    // Searching below the root: the root's own ignore files are now parents' and still count.
    let run = validate(&repo, &["sub", "vendor"]);
    assert_eq!(run.paths, ["sub/gen/s3", "sub/keep", "vendor/ours"]);
    assert_eq!(run.stderr, "");
}

#[test]
fn the_global_excludes_file_is_honoured() {
    let (_tmp, repo) = sandbox();
    skill(&repo.join("global-a/s1"));
    skill(&repo.join("global-b/s2"));
    // The default place: $XDG_CONFIG_HOME/git/ignore.
    write(&repo.join("no-home/config/git/ignore"), "global-a/\n");
    let run = validate(&repo, &[]);
    assert_eq!(run.paths, ["global-b/s2"]);
    assert_eq!(run.stderr, "");
    // core.excludesFile replaces it; `~` is the home directory.
    write(
        &repo.join("no-home/gitconfig"),
        "[core]\n\texcludesFile = ~/my-excludes\n",
    );
    write(&repo.join("no-home/my-excludes"), "global-b/\n");
    let run = validate(&repo, &[]);
    assert_eq!(run.paths, ["global-a/s1"]);
    assert_eq!(run.stderr, "");
    // The user's own file may be a link (dotfile managers make them), but it is still capped.
    fs::remove_file(repo.join("no-home/my-excludes")).unwrap();
    write(&repo.join("no-home/big"), &"global-a/\n".repeat(200_000));
    symlink("big", repo.join("no-home/my-excludes")).unwrap();
    let run = validate(&repo, &[]);
    assert_eq!(run.paths, ["global-a/s1", "global-b/s2"]);
    assert_eq!(
        run.stderr,
        format!(
            "warning: skipping ignore file `{}/no-home/my-excludes`: the file is 2000000 bytes; the limit is 1048576\n",
            repo.display()
        )
    );
}

#[test]
fn a_skill_reached_by_several_paths_is_reported_at_its_path_without_links() {
    let (_tmp, repo) = sandbox();
    skill(&repo.join("z/real"));
    symlink("z/real", repo.join("a-link")).unwrap();
    symlink("z/real", repo.join("b-link")).unwrap();
    symlink("z", repo.join("c-dir")).unwrap();
    // Searched: the walk reaches it without links too.
    assert_eq!(validate(&repo, &[]).paths, ["z/real"]);
    // Named by several PATHs: the one without links wins, in whatever order they come.
    assert_eq!(validate(&repo, &["a-link", "z/real"]).paths, ["z/real"]);
    assert_eq!(validate(&repo, &["z", "c-dir", "b-link"]).paths, ["z/real"]);
    assert_eq!(
        validate(&repo, &["c-dir/real/SKILL.md", "z/real/SKILL.md"]).paths,
        ["z/real"]
    );
    // Only through links: the first path in sorted order.
    assert_eq!(
        validate(&repo, &["b-link", "c-dir", "a-link"]).paths,
        ["a-link"]
    );
    assert_eq!(validate(&repo, &["c-dir"]).paths, ["c-dir/real"]);
}

#[test]
fn a_nested_skill_reached_through_a_link_first_is_nested_at_its_path_without_links() {
    let (_tmp, repo) = sandbox();
    let outer = skill(&repo.join("z/outer"));
    skill(&outer.join("inner"));
    symlink("z", repo.join("a")).unwrap();
    // `a/…` sorts first, but the paths without links win, and so does their nesting (SK016).
    assert_eq!(
        validate(&repo, &["a", "z"]).paths,
        ["z/outer", "z/outer/inner"]
    );
    let out = Command::new(env!("CARGO_BIN_EXE_skillc"))
        .current_dir(&repo)
        .env("HOME", repo.join("no-home"))
        .args(["validate", "--no-config", "--format", "concise", "a", "z"])
        .output()
        .unwrap();
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        "z/outer/inner/SKILL.md: info[SK016] this skill file lies inside the skill `z/outer`: \
         runtimes do not load it as a skill (help: if it is meant to be a skill, move `z/outer/inner` out of \
         `z/outer`, beside the other skills; a template or an example needs nothing)\n"
    );
}

#[test]
fn skill_files_nested_in_a_skill_are_skills_of_their_own() {
    let (_tmp, repo) = sandbox();
    let outer = skill(&repo.join("skills/outer"));
    skill(&outer.join("examples/inner"));
    skill(&outer.join("examples/inner/deeper"));
    // Never searched, like everywhere: dependency and tool directories, ignored directories.
    skill(&outer.join("node_modules/pkg"));
    skill(&outer.join("build/copy"));
    write(&outer.join(".gitignore"), "build/\n");
    fs::create_dir(repo.join(".git")).unwrap();
    // A link out of the root inside a skill is the skill's SK408, not a warning of the search.
    symlink("/", outer.join("root")).unwrap();
    let nested = [
        "skills/outer/examples/inner/SKILL.md: SK016",
        "skills/outer/examples/inner/deeper/SKILL.md: SK016",
    ];
    let expected = [
        "skills/outer",
        "skills/outer/examples/inner",
        "skills/outer/examples/inner/deeper",
    ];
    for args in [&[][..], &["skills/outer"], &["skills"]] {
        let run = validate(&repo, args);
        assert_eq!(run.paths, expected, "{args:?}");
        assert_eq!(run.stderr, "", "{args:?}");
        let sk016: Vec<&String> = run
            .diagnostics
            .iter()
            .filter(|d| d.ends_with("SK016"))
            .collect();
        assert_eq!(sk016, nested, "{args:?}");
    }
    // Named on its own, or through one of its files, a nested skill is still below another.
    let run = validate(&repo, &["skills/outer/examples/inner"]);
    assert_eq!(run.paths, &expected[1..]);
    assert_eq!(run.diagnostics, nested);
    let run = validate(&repo, &["skills/outer/examples/inner/SKILL.md"]);
    assert_eq!(run.paths, &expected[1..2]);
    assert_eq!(run.diagnostics, &nested[..1]);
    // A skill that is a repository of its own (SK411 on its `.git`): the repository root ends
    // the search upwards, whatever holds the repository.
    let (_tmp, repo) = sandbox();
    skill(&repo.join("outer"));
    fs::create_dir(repo.join("outer/.git")).unwrap();
    skill(&repo.join("outer/inner"));
    skill(&repo);
    let run = validate(&repo.join("outer"), &["inner"]);
    assert_eq!(run.diagnostics, ["inner/SKILL.md: SK016"]);
    let run = validate(&repo.join("outer"), &[]);
    assert_eq!(run.paths, [".", "inner"]);
    assert_eq!(run.diagnostics, [".git: SK411", "inner/SKILL.md: SK016"]);
}

#[test]
fn a_repository_met_by_the_search_ends_nesting_below_it() {
    // The search carries what lies above each directory down from the directories it lists:
    // a repository (a `.git` of any kind, a link to one included) that it meets below a skill
    // holds skills of its own, not nested in the skill; a plain folder does not.
    let (_tmp, repo) = sandbox();
    let outer = skill(&repo.join("skills/outer"));
    fs::create_dir_all(outer.join("vendor/lib/.git")).unwrap();
    skill(&outer.join("vendor/lib/tool"));
    write(
        &outer.join("vendor/sub/.git"),
        "gitdir: ../../.git/modules/sub\n",
    );
    skill(&outer.join("vendor/sub/mod"));
    fs::create_dir_all(repo.join("elsewhere")).unwrap();
    fs::create_dir_all(outer.join("vendor/linked")).unwrap();
    symlink(repo.join("elsewhere"), outer.join("vendor/linked/.git")).unwrap();
    skill(&outer.join("vendor/linked/one"));
    // A repository's root that is a skill itself still holds skills nested in it.
    let inner = skill(&outer.join("vendor/own"));
    fs::create_dir(inner.join(".git")).unwrap();
    skill(&inner.join("deep/er"));
    skill(&outer.join("plain/x"));
    fs::create_dir(repo.join(".git")).unwrap();
    let expected = [
        "skills/outer/plain/x/SKILL.md: SK016",
        "skills/outer/vendor/own/deep/er/SKILL.md: SK016",
    ];
    for args in [&[][..], &["skills"], &["skills/outer/vendor"]] {
        let run = validate(&repo, args);
        let sk016: Vec<&String> = run
            .diagnostics
            .iter()
            .filter(|d| d.ends_with("SK016"))
            .collect();
        let expected = expected
            .iter()
            .filter(|d| args.iter().all(|a| d.starts_with(a)))
            .collect::<Vec<_>>();
        assert_eq!(sk016, expected, "{args:?}");
    }
    // After a `..`, a PATH's ancestors are its lexical ones, not the directories listed:
    // `l/..` is the parent of the link's target, but nesting looks at `w`, which holds no skill.
    let (_tmp, repo) = sandbox();
    skill(&repo.join("x"));
    skill(&repo.join("x/a/b"));
    skill(&repo.join("x/a"));
    fs::create_dir_all(repo.join("x/y")).unwrap();
    fs::create_dir_all(repo.join("w")).unwrap();
    symlink("../x/y", repo.join("w/l")).unwrap();
    let run = validate(&repo.join("w"), &["l/.."]);
    assert_eq!(run.paths, ["l/..", "l/../a", "l/../a/b"]);
    assert_eq!(run.diagnostics, Vec::<String>::new());
}

#[test]
fn skill_files_in_another_case_are_found_while_searching() {
    let (_tmp, repo) = sandbox();
    write(
        &repo.join("skills/odd/SKILL.MD"),
        "---\nname: odd\ndescription: Use when testing case.\n---\n\nBody.\n",
    );
    // Beside an exact `SKILL.md`, another case is an ordinary file.
    skill(&repo.join("skills/both"));
    write(&repo.join("skills/both/Skill.md"), "Notes.\n");
    symlink("odd", repo.join("skills/linked")).unwrap();
    let run = validate(&repo, &[]);
    assert_eq!(run.paths, ["skills/both", "skills/odd"]);
    assert_eq!(run.diagnostics, ["skills/odd/SKILL.MD: SK017"]);
    assert_eq!(run.code, Some(0));
    // Named, it is SK001's near miss, whether the directory or the file is named.
    for path in ["skills/odd", "skills/odd/SKILL.MD"] {
        let run = validate(&repo, &[path]);
        assert_eq!(run.diagnostics, ["skills/odd: SK001"], "{path}");
        assert_eq!(run.code, Some(1));
    }
}

#[test]
fn a_dangling_skill_file_is_sk408() {
    let (_tmp, repo) = sandbox();
    fs::create_dir_all(repo.join("skills/gone")).unwrap();
    symlink("../moved/SKILL.md", repo.join("skills/gone/SKILL.md")).unwrap();
    fs::create_dir_all(repo.join("skills/loop")).unwrap();
    symlink("SKILL.md", repo.join("skills/loop/SKILL.md")).unwrap();
    for args in [
        &[][..],
        &["skills/gone", "skills/loop"],
        &["skills/gone/SKILL.md", "skills/loop/SKILL.md"],
    ] {
        let run = validate(&repo, args);
        assert_eq!(run.paths, ["skills/gone", "skills/loop"], "{args:?}");
        assert_eq!(
            run.diagnostics,
            ["skills/gone/SKILL.md: SK408", "skills/loop/SKILL.md: SK408"],
            "{args:?}"
        );
        assert_eq!(run.stderr, "", "{args:?}");
        assert_eq!(run.code, Some(1));
    }
}

#[test]
fn a_directory_that_only_looks_like_a_nested_skill_hides_nothing() {
    // A FIFO named SKILL.md is no skill file: the files beside it stay the outer skill's, and
    // their SK408 and SK411 are reported (they once vanished as "a nested skill's files").
    let (_tmp, root) = sandbox();
    let outer = skill(&root.join("s"));
    fs::create_dir(outer.join("hide")).unwrap();
    mkfifo(&outer.join("hide/SKILL.md"));
    symlink("/etc/passwd", outer.join("hide/pw")).unwrap();
    write(&outer.join("hide/.env"), "K=1\n");
    // A real nested skill reports its own files, once.
    let inner = skill(&outer.join("inner"));
    write(&inner.join(".env"), "K=2\n");
    let run = validate(&root, &[]);
    assert_eq!(
        run.diagnostics,
        [
            "s/hide/.env: SK411",
            "s/hide/pw: SK408",
            "s/inner/.env: SK411",
            "s/inner/SKILL.md: SK016",
        ],
        "{}",
        run.stderr
    );
}

#[test]
fn a_skill_file_name_is_a_skill_file_only_when_a_look_says_it_is_a_file() {
    // The search looks at a name listed as a regular file through the listing's own handle,
    // and follows a link by its path: a directory named `SKILL.md` is searched as any other
    // folder (the skill inside it is found), and `skill.md` counts when `SKILL.md` is not a
    // file.
    let (_tmp, root) = sandbox();
    let inner = skill(&root.join("a/SKILL.md"));
    write(&inner.join(".env"), "K=1\n");
    fs::create_dir_all(root.join("b/SKILL.md")).unwrap();
    write(
        &root.join("b/skill.md"),
        "---\nname: b\ndescription: Use when testing b.\n---\n\nBody.\n",
    );
    fs::create_dir_all(root.join("c")).unwrap();
    write(
        &root.join("c/real.md"),
        "---\nname: c\ndescription: Use when testing c.\n---\n\nBody.\n",
    );
    symlink("real.md", root.join("c/SKILL.md")).unwrap();
    let run = validate(&root, &[]);
    assert_eq!(run.paths, ["a/SKILL.md", "b", "c"], "{}", run.stderr);
    assert!(
        run.diagnostics
            .contains(&"a/SKILL.md/.env: SK411".to_string()),
        "{:?}",
        run.diagnostics
    );
}

#[test]
fn a_skill_file_whose_path_is_too_long_to_open_is_no_skill_file() {
    // A folder 4,090 bytes deep (as displayed) can be listed, but `…/SKILL.md` is longer than
    // the system opens (PATH_MAX, 4,096 on Linux): it is no skill file, as the file could never
    // be read; a shorter folder beside it is a skill.
    let (_tmp, root) = sandbox();
    // Made from a folder part of the way down: the whole path is too long to name.
    let x = "x".repeat(200);
    let z = "z".repeat(4090 - 1 - 20 * 201 - 1);
    let script = format!(
        "mkdir d && cd d && for i in $(seq 19); do mkdir {x} && cd {x} || exit 1; done \
         && mkdir -p {x}/{z} \
         && printf -- '---\\nname: deep\\ndescription: Use when testing deep.\\n---\\n\\nBody.\\n' > {x}/{z}/SKILL.md"
    );
    let made = Command::new("sh")
        .arg("-c")
        .arg(&script)
        .current_dir(&root)
        .status()
        .unwrap();
    assert!(made.success());
    skill(&root.join("near"));
    let run = validate(&root, &[]);
    assert_eq!(run.paths, ["near"], "{}", run.stderr);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
}

#[test]
fn outside_a_repository_nothing_above_the_current_directory_changes_the_skills() {
    // A stranger's `/tmp/.claude-plugin/plugin.json` or `/tmp/SKILL.md` must not turn the
    // skills below the current directory into Claude Code skills or nested ones.
    let (_tmp, root) = sandbox();
    write(
        &root.join(".claude-plugin/plugin.json"),
        "{\"name\": \"x\"}",
    );
    skill(&root);
    let work = root.join("work");
    let s = work.join("s");
    fs::create_dir_all(&s).unwrap();
    write(
        &s.join("SKILL.md"),
        "---\nname: s\ndescription: Use when testing s.\neffort: high\n---\n\nBody.\n",
    );
    let run = validate(&work, &[]);
    // `effort` is Claude Code's: with no runtime detected it is an info (SK305), not SK013.
    assert_eq!(run.diagnostics, ["s/SKILL.md: SK305"], "{}", run.stderr);
    // From the directory that holds them, they count.
    let run = validate(&root, &[]);
    assert_eq!(
        run.diagnostics,
        ["work/s/SKILL.md: SK016"],
        "{}",
        run.stderr
    );
}

/// Of two skill files in one directory, the one a PATH names is the skill when it comes first:
/// candidates at one path keep PATH order (a sort by name would pick `SKILL.md`).
#[test]
fn the_skill_file_a_path_names_first_wins() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path();
    fs::create_dir_all(root.join("both")).unwrap();
    fs::write(
        root.join("both/SKILL.md"),
        "---\nname: both\ndescription: Upper. Use when x.\n---\nBody.\n",
    )
    .unwrap();
    fs::write(
        root.join("both/skill.md"),
        "---\nname: both\ndescription: Lower. Use when x.\n---\nBody.\n",
    )
    .unwrap();
    if fs::read_dir(root.join("both")).unwrap().count() < 2 {
        eprintln!("skipped: the file system does not tell the two names apart");
        return;
    }
    let run = validate(root, &["both/skill.md", "both"]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert_eq!(run.diagnostics, ["both/skill.md: SK012"]);
}

#[test]
fn what_a_skill_directory_holds_counts_whether_its_listing_or_a_look_settles_it() {
    // The search reads a skill directory's `.git` and `.claude-plugin` from its listing; when
    // they are symbolic links, a look through them decides, as it does for any other folder.
    let (_tmp, repo) = sandbox();
    fs::create_dir(repo.join(".git")).unwrap();
    let claude = |dir: &Path| {
        let name = dir.file_name().unwrap().to_str().unwrap();
        write(
            &dir.join("SKILL.md"),
            &format!(
                "---\nname: {name}\ndescription: Use when testing {name}.\neffort: high\n---\n\nBody.\n"
            ),
        );
    };
    // A plugin whose root is the skill itself: a Claude Code skill (`effort` is known).
    claude(&repo.join("plugin"));
    write(
        &repo.join("plugin/.claude-plugin/plugin.json"),
        "{\"name\": \"plugin\"}",
    );
    // The same through a linked `.claude-plugin`.
    claude(&repo.join("linked"));
    write(
        &repo.join("manifests/plugin.json"),
        "{\"name\": \"linked\"}",
    );
    symlink("../manifests", repo.join("linked/.claude-plugin")).unwrap();
    // `.claude-plugin` as a file is no plugin: no runtime is detected, so `effort` is SK305.
    claude(&repo.join("plain"));
    write(&repo.join("plain/.claude-plugin"), "");
    // A repository's root inside another skill is not nested in it (SK016), whether its
    // `.git` is a folder or a link to one; a `.git` link to nothing makes no root.
    skill(&repo.join("outer"));
    skill(&repo.join("outer/own-repo"));
    fs::create_dir(repo.join("outer/own-repo/.git")).unwrap();
    skill(&repo.join("outer/linked-repo"));
    symlink("../own-repo/.git", repo.join("outer/linked-repo/.git")).unwrap();
    skill(&repo.join("outer/dangling-git"));
    symlink("gone", repo.join("outer/dangling-git/.git")).unwrap();
    let run = validate(&repo, &[]);
    // (The links and `.git` folders have diagnostics of their own: SK408, SK411.)
    let placement: Vec<&String> = run
        .diagnostics
        .iter()
        .filter(|d| d.ends_with("SK305") || d.ends_with("SK016"))
        .collect();
    assert_eq!(
        placement,
        [
            "outer/dangling-git/SKILL.md: SK016",
            "plain/SKILL.md: SK305",
        ],
        "{}",
        run.stderr
    );
    assert_eq!(run.stderr, "");
}
