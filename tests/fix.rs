//! `validate --fix`, `--unsafe-fixes`, `--diff` and `--stdin-filename` end to end: what is
//! written, what is never written, exit codes and messages.

use std::io::Write;
use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::process::{Command, Stdio};

mod common;
use common::{Run, skillc, write};

/// A skill whose description holds `: ` (SK006, a safe fix) and whose link names a near match
/// (SK404, an unsafe fix).
const BROKEN: &str = "---\nname: pdf\ndescription: Use when: the user asks for forms.\n---\n\n# PDF\n\nRead [the guide](reference/guide.md).\n";
const QUOTED: &str = "---\nname: pdf\ndescription: 'Use when: the user asks for forms.'\n---\n\n# PDF\n\nRead [the guide](reference/guide.md).\n";
const LINKED: &str = "---\nname: pdf\ndescription: 'Use when: the user asks for forms.'\n---\n\n# PDF\n\nRead [the guide](references/guide.md).\n";

fn pdf_skill(root: &Path, text: &str) -> std::path::PathBuf {
    let dir = root.join("pdf");
    write(&dir.join("SKILL.md"), text);
    write(&dir.join("references/guide.md"), "# Guide\n");
    dir
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap()
}

fn mtime(path: &Path) -> std::time::SystemTime {
    std::fs::metadata(path).unwrap().modified().unwrap()
}

/// Runs `skillc ARGS` in `dir` with `input` on standard input.
fn skillc_stdin(dir: &Path, args: &[&str], input: &str) -> Run {
    let mut child = Command::new(env!("CARGO_BIN_EXE_skillc"))
        .current_dir(dir)
        .env("HOME", dir.join("home"))
        .env_remove("SKILLC_FORMAT")
        .env_remove("SKILLC_OUTPUT_FORMAT")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // A run that refuses its arguments exits without reading: a broken pipe is no failure.
    let _ = child.stdin.take().unwrap().write_all(input.as_bytes());
    let out = child.wait_with_output().unwrap();
    Run {
        code: out.status.code(),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        max_rss_kib: 0,
    }
}

#[test]
fn fix_applies_the_safe_fixes_and_unsafe_fixes_the_rest() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = pdf_skill(tmp.path(), BROKEN);
    let file = dir.join("SKILL.md");
    std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o640)).unwrap();

    let run = skillc(tmp.path(), &["validate", "--format", "concise", "pdf"]);
    assert_eq!(
        run.stdout,
        "pdf/SKILL.md:3:22: error[SK006] [*] invalid YAML: mapping values are not allowed in this context (help: quote the value: `description: 'Use when: the user asks for forms.'`)\n\
         pdf/SKILL.md:8:18: error[SK404] link `reference/guide.md` names a file that does not exist in the skill (help: did you mean `references/guide.md`?)\n"
    );
    assert_eq!(
        run.stderr,
        "[*] 1 fixable with `--fix` (1 more with `--fix --unsafe-fixes`).\n\
         Checked 1 skill: 2 errors, 0 warnings, 0 infos.\n"
    );

    let run = skillc(
        tmp.path(),
        &["validate", "--fix", "--format", "concise", "pdf"],
    );
    assert_eq!(read(&file), QUOTED);
    assert_eq!(
        run.stdout,
        "pdf/SKILL.md:8:18: error[SK404] link `reference/guide.md` names a file that does not exist in the skill (help: did you mean `references/guide.md`?)\n"
    );
    assert_eq!(
        run.stderr,
        "Fixed 1 problem (1 remaining).\nNo fixes available with `--fix` (1 with `--fix --unsafe-fixes`).\nChecked 1 skill: 1 error, 0 warnings, 0 infos.\n"
    );
    assert_eq!(run.code, Some(1));
    // The rewritten file keeps its permissions.
    let mode = std::fs::metadata(&file).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o640);

    let run = skillc(
        tmp.path(),
        &["validate", "--fix", "--unsafe-fixes", "--show-fixes", "pdf"],
    );
    assert_eq!(read(&file), LINKED);
    assert_eq!(run.stdout, "");
    assert_eq!(
        run.stderr,
        "Fixed 1 problem:\n- pdf/SKILL.md:\n    1 × SK404 (broken-link)\nFixed 1 problem (0 remaining).\nChecked 1 skill: 0 errors, 0 warnings, 0 infos.\n"
    );
    assert_eq!(run.code, Some(0));
}

#[test]
fn a_file_with_nothing_to_fix_is_never_written() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = pdf_skill(tmp.path(), LINKED);
    let file = dir.join("SKILL.md");
    let before = mtime(&file);
    std::thread::sleep(std::time::Duration::from_millis(20));
    let run = skillc(tmp.path(), &["validate", "--fix", "--unsafe-fixes", "pdf"]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert_eq!(read(&file), LINKED);
    assert_eq!(mtime(&file), before);
    assert!(
        run.stderr.starts_with("Nothing to fix.\n"),
        "{}",
        run.stderr
    );
}

#[test]
fn diff_prints_what_fix_would_change_and_writes_nothing() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = pdf_skill(tmp.path(), BROKEN);
    let file = dir.join("SKILL.md");
    let before = mtime(&file);
    let run = skillc(tmp.path(), &["validate", "--diff", "pdf"]);
    assert_eq!(
        run.stdout,
        "--- a/pdf/SKILL.md\n+++ b/pdf/SKILL.md\n@@ -1,6 +1,6 @@\n ---\n name: pdf\n-description: Use when: the user asks for forms.\n+description: 'Use when: the user asks for forms.'\n ---\n \n # PDF\n"
    );
    assert_eq!(run.stderr, "Would fix 1 problem.\n");
    assert_eq!(run.code, Some(1));
    assert_eq!(read(&file), BROKEN);
    assert_eq!(mtime(&file), before);

    // Once fixed, there is nothing to show.
    skillc(tmp.path(), &["validate", "--fix", "--unsafe-fixes", "pdf"]);
    let run = skillc(tmp.path(), &["validate", "--diff", "--unsafe-fixes", "pdf"]);
    assert_eq!(run.stdout, "");
    assert_eq!(run.stderr, "Would fix 0 problems.\n");
    assert_eq!(run.code, Some(0));
}

/// An absolute path keeps one slash after `a/` and `b/`, as `git diff` writes it.
#[test]
fn diff_of_an_absolute_path_has_no_double_slash() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = pdf_skill(tmp.path(), BROKEN);
    let shown = dir.join("SKILL.md").to_string_lossy().replace('\\', "/");
    let shown = shown.trim_start_matches('/');
    // Run from elsewhere, so that the path is not shown relative to the working directory.
    let elsewhere = tempfile::tempdir().unwrap();
    let run = skillc(
        elsewhere.path(),
        &["validate", "--diff", dir.to_str().unwrap()],
    );
    assert_eq!(
        run.stdout,
        format!(
            "--- a/{shown}\n+++ b/{shown}\n@@ -1,6 +1,6 @@\n ---\n name: pdf\n-description: Use when: the user asks for forms.\n+description: 'Use when: the user asks for forms.'\n ---\n \n # PDF\n"
        )
    );
    assert_eq!(run.code, Some(1));
}

#[test]
fn a_skill_file_linked_from_outside_the_skill_is_not_written_through() {
    let tmp = tempfile::tempdir().unwrap();
    let outside = tmp.path().join("shared/SKILL.md");
    write(&outside, BROKEN);
    let dir = tmp.path().join("repo/pdf");
    std::fs::create_dir_all(&dir).unwrap();
    std::os::unix::fs::symlink(&outside, dir.join("SKILL.md")).unwrap();
    // The linter reads through it (a skill file, SK408) but offers no fix: nothing is written
    // through the link.
    let run = skillc(
        &tmp.path().join("repo"),
        &[
            "validate",
            "--fix",
            "--unsafe-fixes",
            "--format",
            "concise",
            "pdf",
        ],
    );
    assert_eq!(read(&outside), BROKEN);
    assert!(run.stdout.contains("warning[SK408]"), "{}", run.stdout);
    assert!(
        run.stdout.contains("error[SK006] invalid YAML"),
        "{}",
        run.stdout
    );
    assert!(
        run.stderr.starts_with("Nothing fixed (3 remaining).\n"),
        "{}",
        run.stderr
    );
}

#[test]
fn a_skill_file_linked_inside_the_skill_is_fixed_in_its_target() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = pdf_skill(tmp.path(), BROKEN);
    std::fs::rename(dir.join("SKILL.md"), dir.join("real.md")).unwrap();
    std::os::unix::fs::symlink("real.md", dir.join("SKILL.md")).unwrap();
    let run = skillc(tmp.path(), &["validate", "--fix", "pdf"]);
    assert_eq!(read(&dir.join("real.md")), QUOTED, "{}", run.stderr);
    let link = std::fs::symlink_metadata(dir.join("SKILL.md")).unwrap();
    assert!(link.file_type().is_symlink(), "the link stays a link");
}

#[test]
fn unfixable_rules_are_neither_marked_nor_fixed() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = pdf_skill(tmp.path(), BROKEN);
    write(
        &tmp.path().join("skillc.toml"),
        "[rules]\nunfixable = [\"yaml-syntax\"]\n",
    );
    let run = skillc(
        tmp.path(),
        &["validate", "--fix", "--format", "concise", "pdf"],
    );
    assert_eq!(read(&dir.join("SKILL.md")), BROKEN);
    assert!(
        run.stdout.contains("error[SK006] invalid YAML"),
        "{}",
        run.stdout
    );
    assert!(run.stderr.starts_with("Nothing fixed (2 remaining).\n"));
    // An unknown rule in the list is a configuration error with its place.
    write(
        &tmp.path().join("skillc.toml"),
        "[rules]\nfixable = [\"SK999\"]\n",
    );
    let run = skillc(tmp.path(), &["validate", "pdf"]);
    assert_eq!(run.code, Some(2));
    assert!(
        run.stderr
            .contains("unknown rule `SK999` in `rules.fixable`"),
        "{}",
        run.stderr
    );
}

#[test]
fn a_rename_never_replaces_an_existing_file() {
    let tmp = tempfile::tempdir().unwrap();
    // A PAR skill in `SKILL.md` (SK012: PAR loads `skill.md`), beside an unrelated `skill.md`.
    let par = "---\nschema_version: 1\nid: notes\nname: Notes\ndescription: Use when taking notes.\n---\n\n# Notes\n\nTake notes.\n";
    write(&tmp.path().join("notes/SKILL.md"), par);
    let run = skillc(
        tmp.path(),
        &[
            "validate",
            "--fix",
            "--unsafe-fixes",
            "--format",
            "concise",
            "notes",
        ],
    );
    assert!(tmp.path().join("notes/skill.md").exists(), "{}", run.stderr);
    assert!(!tmp.path().join("notes/SKILL.md").exists());
    assert!(
        run.stderr.starts_with("Fixed 1 problem (0 remaining).\n"),
        "{}",
        run.stderr
    );

    write(
        &tmp.path().join("other/SKILL.md"),
        par.replace("notes", "other"),
    );
    write(&tmp.path().join("other/skill.md"), "kept\n");
    let run = skillc(
        tmp.path(),
        &[
            "validate",
            "--fix",
            "--unsafe-fixes",
            "--format",
            "concise",
            "other",
        ],
    );
    assert_eq!(read(&tmp.path().join("other/skill.md")), "kept\n");
    assert!(tmp.path().join("other/SKILL.md").exists());
    // No fix is offered for it: no `[*]`, nothing renamed.
    assert_eq!(
        run.stdout,
        "other/SKILL.md: warning[SK012] PAR loads `skill.md`, but this par skill is in `SKILL.md` (help: rename the file to `skill.md`)\n"
    );
    assert!(
        run.stderr.starts_with("Nothing fixed (1 remaining).\n"),
        "{}",
        run.stderr
    );

    // No rename is offered when a link in the skill leads to the file (it would dangle); the
    // text fixes are made all the same.
    write(
        &tmp.path().join("third/SKILL.md"),
        par.replace("Use when taking notes.", "Use when: jotting.")
            .replace("notes", "third"),
    );
    std::os::unix::fs::symlink("SKILL.md", tmp.path().join("third/alias.md")).unwrap();
    let run = skillc(
        tmp.path(),
        &[
            "validate",
            "--fix",
            "--unsafe-fixes",
            "--format",
            "concise",
            "third",
        ],
    );
    assert!(tmp.path().join("third/SKILL.md").exists());
    assert!(read(&tmp.path().join("third/SKILL.md")).contains("description: 'Use when: jotting.'"));
    assert_eq!(
        run.stderr,
        "Fixed 1 problem (1 remaining).\nChecked 1 skill: 0 errors, 1 warning, 0 infos.\n"
    );
}

#[test]
fn stdin_is_linted_as_the_file_it_stands_for() {
    let tmp = tempfile::tempdir().unwrap();
    pdf_skill(tmp.path(), LINKED);
    let args = [
        "validate",
        "--format",
        "concise",
        "--stdin-filename",
        "pdf/SKILL.md",
        "-",
    ];
    // The buffer, not the file on disk, is linted; the files beside it are read from disk.
    let run = skillc_stdin(tmp.path(), &args, BROKEN);
    assert_eq!(
        run.stdout,
        "pdf/SKILL.md:3:22: error[SK006] [*] invalid YAML: mapping values are not allowed in this context (help: quote the value: `description: 'Use when: the user asks for forms.'`)\n\
         pdf/SKILL.md:8:18: error[SK404] link `reference/guide.md` names a file that does not exist in the skill (help: did you mean `references/guide.md`?)\n"
    );
    assert_eq!(run.code, Some(1));

    // With --fix, stdout is the fixed text and the diagnostics go to stderr.
    let mut fix = args.to_vec();
    fix.insert(1, "--fix");
    let run = skillc_stdin(tmp.path(), &fix, BROKEN);
    assert_eq!(run.stdout, QUOTED);
    assert_eq!(
        run.stderr,
        "pdf/SKILL.md:8:18: error[SK404] link `reference/guide.md` names a file that does not exist in the skill (help: did you mean `references/guide.md`?)\nFixed 1 problem (1 remaining).\nNo fixes available with `--fix` (1 with `--fix --unsafe-fixes`).\nChecked 1 skill: 1 error, 0 warnings, 0 infos.\n"
    );
    assert_eq!(run.code, Some(1));
    // The file on disk is untouched.
    assert_eq!(read(&tmp.path().join("pdf/SKILL.md")), LINKED);

    // A skill file that does not exist yet is linted in its directory's context.
    std::fs::create_dir(tmp.path().join("new-skill")).unwrap();
    let run = skillc_stdin(
        tmp.path(),
        &[
            "validate",
            "--stdin-filename",
            "new-skill/SKILL.md",
            "-",
            "--format",
            "concise",
        ],
        "---\nname: other\ndescription: Use when testing.\n---\n\nBody.\n",
    );
    assert_eq!(
        run.stdout,
        "new-skill/SKILL.md:2:7: error[SK103] the name `other` does not match the directory name `new-skill` (help: rename the directory to `other`, or set `name: new-skill`)\n",
        "{}",
        run.stderr
    );
}

#[test]
fn stdin_is_read_only_with_its_file_name_and_no_other_path() {
    let tmp = tempfile::tempdir().unwrap();
    // Without --stdin-filename, `-` is a path (a directory may be named so).
    let run = skillc_stdin(tmp.path(), &["validate", "-"], BROKEN);
    assert_eq!(run.code, Some(2));
    assert_eq!(run.stderr, "error: path not found: -\n");
    write(
        &tmp.path().join("-/SKILL.md"),
        LINKED.replace("name: pdf", "name: x"),
    );
    let run = skillc_stdin(
        tmp.path(),
        &["validate", "--format", "concise", "-"],
        BROKEN,
    );
    assert!(
        run.stdout.starts_with("-/SKILL.md:2:7: error[SK103]"),
        "{}",
        run.stdout
    );
    let run = skillc_stdin(
        tmp.path(),
        &["validate", "--stdin-filename", "x/SKILL.md", "-", "other"],
        BROKEN,
    );
    assert_eq!(run.code, Some(2));
    assert_eq!(
        run.stderr,
        "error: --stdin-filename lints standard input: pass `-` as the only PATH\n"
    );
}

#[test]
fn a_name_fix_that_would_collide_with_another_skill_is_not_offered() {
    let tmp = tempfile::tempdir().unwrap();
    write(
        &tmp.path().join("a/pdf/SKILL.md"),
        "---\nname: pdf\ndescription: Use when reading PDFs.\n---\n\nBody.\n",
    );
    let other = "---\nname: pdf-tools\ndescription: Use when writing PDFs.\n---\n\nBody.\n";
    write(&tmp.path().join("b/pdf/SKILL.md"), other);
    // SK103's fix would name b/pdf `pdf`, which a/pdf is already (SK501).
    let run = skillc(
        tmp.path(),
        &[
            "validate",
            "--fix",
            "--unsafe-fixes",
            "--format",
            "concise",
            ".",
        ],
    );
    assert_eq!(read(&tmp.path().join("b/pdf/SKILL.md")), other);
    assert_eq!(
        run.stdout,
        "b/pdf/SKILL.md:2:7: error[SK103] the name `pdf-tools` does not match the directory name `pdf` (help: rename the directory to `pdf-tools`, or set `name: pdf`)\n"
    );
    assert_eq!(
        run.stderr,
        "Nothing fixed (1 remaining).\nChecked 2 skills: 1 error, 0 warnings, 0 infos.\n"
    );
    assert_eq!(run.code, Some(1));
}

#[test]
fn stdin_over_the_size_limit_is_not_fixed_nor_echoed_in_part() {
    let tmp = tempfile::tempdir().unwrap();
    pdf_skill(tmp.path(), LINKED);
    let big = format!("{LINKED}{}", "word ".repeat(300_000));
    let run = skillc_stdin(
        tmp.path(),
        &["validate", "--fix", "--stdin-filename", "pdf/SKILL.md", "-"],
        &big,
    );
    assert_eq!(run.stdout, "");
    assert_eq!(
        run.stderr,
        "error: standard input is over the limit of 1048576 bytes (SK011): nothing fixed\n"
    );
    assert_eq!(run.code, Some(3));
}

#[test]
fn read_only_and_hard_linked_files_are_not_fixed() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = pdf_skill(tmp.path(), BROKEN);
    let file = dir.join("SKILL.md");
    std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o444)).unwrap();
    let run = skillc(
        tmp.path(),
        &["validate", "--fix", "--format", "concise", "pdf"],
    );
    assert_eq!(read(&file), BROKEN);
    assert!(
        run.stderr
            .starts_with("error: pdf/SKILL.md: not fixing `pdf/SKILL.md`: it is read-only\n"),
        "{}",
        run.stderr
    );
    assert_eq!(run.code, Some(3));

    // Writable by its group but not by its owner: still not the fix's to write.
    for mode in [0o464, 0o422, 0o466] {
        std::fs::set_permissions(&file, std::fs::Permissions::from_mode(mode)).unwrap();
        let run = skillc(
            tmp.path(),
            &["validate", "--fix", "--format", "concise", "pdf"],
        );
        assert_eq!(read(&file), BROKEN, "{mode:o}");
        assert!(
            run.stderr.starts_with(&format!(
                "error: pdf/SKILL.md: not fixing `pdf/SKILL.md`: it is read-only for its owner (mode {mode:04o})\n"
            )),
            "{}",
            run.stderr
        );
        assert_eq!(run.code, Some(3));
    }

    std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o644)).unwrap();
    std::fs::hard_link(&file, tmp.path().join("copy.md")).unwrap();
    let run = skillc(
        tmp.path(),
        &["validate", "--fix", "--format", "concise", "pdf"],
    );
    assert_eq!(read(&file), BROKEN);
    assert!(
        run.stderr.starts_with(
            "error: pdf/SKILL.md: not fixing `pdf/SKILL.md`: it has 2 hard links, which writing a fixed copy would split\n"
        ),
        "{}",
        run.stderr
    );
    assert_eq!(run.code, Some(3));
}

#[test]
fn a_fixed_file_keeps_its_owner() {
    use std::os::unix::fs::MetadataExt;
    let tmp = tempfile::tempdir().unwrap();
    let dir = pdf_skill(tmp.path(), BROKEN);
    let file = dir.join("SKILL.md");
    // Only root can give a file away; elsewhere there is nothing to check.
    if std::os::unix::fs::chown(&file, Some(65534), Some(65534)).is_err() {
        eprintln!("skipped: not root");
        return;
    }
    skillc(tmp.path(), &["validate", "--fix", "pdf"]);
    assert_eq!(read(&file), QUOTED);
    let meta = std::fs::metadata(&file).unwrap();
    assert_eq!((meta.uid(), meta.gid()), (65534, 65534));
}

#[test]
fn a_name_another_fix_frees_is_taken_in_the_same_run() {
    let tmp = tempfile::tempdir().unwrap();
    let text = |name: &str| {
        format!("---\nname: {name}\ndescription: Use when testing names.\n---\n\nBody.\n")
    };
    // bar is named baz, baz is named qux: once bar is `bar`, baz may be `baz`.
    write(&tmp.path().join("bar/SKILL.md"), text("baz"));
    write(&tmp.path().join("baz/SKILL.md"), text("qux"));
    let run = skillc(tmp.path(), &["validate", "--fix", "--unsafe-fixes", "."]);
    assert_eq!(read(&tmp.path().join("bar/SKILL.md")), text("bar"));
    assert_eq!(read(&tmp.path().join("baz/SKILL.md")), text("baz"));
    assert!(
        run.stderr.starts_with("Fixed 2 problems (0 remaining).\n"),
        "{}",
        run.stderr
    );
    let run = skillc(tmp.path(), &["validate", "--diff", "--unsafe-fixes", "."]);
    assert_eq!((run.stdout.as_str(), run.code), ("", Some(0)));
}

/// A file PATH outside any skill reports the skill above it, however far up (pre-commit's file
/// lists); a fix, `--diff` or `--add-noqa` never writes above the current directory and the
/// PATHs given, and names the file it leaves.
#[test]
fn a_fix_never_writes_above_the_directory_and_paths_it_was_given() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = pdf_skill(tmp.path(), BROKEN);
    let file = dir.join("SKILL.md");
    let work = dir.join("work");
    write(&work.join("scripts/run.py"), "print(1)\n");
    let warning = "warning: not fixing `../SKILL.md`: it lies above the current directory and the PATHs given, which a fix never writes above (pass `..` to fix it)\n";
    for args in [
        &["validate", "--fix", "--format", "concise", "scripts/run.py"][..],
        &["validate", "--fix", "--unsafe-fixes", "scripts/run.py"],
        &["validate", "--add-noqa", "scripts/run.py"],
    ] {
        let run = skillc(&work, args);
        assert_eq!(read(&file), BROKEN, "{args:?}");
        assert!(run.stderr.starts_with(warning), "{args:?}: {}", run.stderr);
    }
    // --diff shows nothing it would not write.
    let run = skillc(&work, &["validate", "--diff", "scripts/run.py"]);
    assert_eq!(run.stdout, "");
    assert_eq!(run.stderr, format!("{warning}Would fix 0 problems.\n"));
    // Reporting still climbs.
    let run = skillc(
        &work,
        &["validate", "--format", "concise", "scripts/run.py"],
    );
    assert!(run.stdout.starts_with("../SKILL.md:3:"), "{}", run.stdout);
    // Named, as a directory or as its skill file, the skill is fixed.
    for path in ["..", "../SKILL.md"] {
        write(&file, BROKEN);
        let run = skillc(&work, &["validate", "--fix", path]);
        assert_eq!(read(&file), QUOTED, "{path}: {}", run.stderr);
    }
}

#[test]
fn a_fix_that_grows_the_file_past_max_file_size_is_refused_without_calling_it_a_bug() {
    let tmp = tempfile::tempdir().unwrap();
    write(&tmp.path().join("skillc.toml"), "max-file-size = 200\n");
    let head = "---\nname: s1\ndescription: Use when: fixing things in a test\n---\n";
    let text = format!("{head}{}", "x".repeat(200 - head.len()));
    let file = tmp.path().join("s1/SKILL.md");
    write(&file, &text);
    let run = skillc(
        tmp.path(),
        &["validate", "--fix", "s1", "--format", "concise"],
    );
    assert_eq!(run.code, Some(3));
    assert!(
        run.stderr.starts_with(
            "error: s1/SKILL.md: the fixes of SK006 would make the file larger than `max-file-size` (SK011); the file is left as it was\n"
        ),
        "{}",
        run.stderr
    );
    assert_eq!(read(&file), text);
}

#[test]
fn a_rename_is_offered_only_when_no_markdown_file_of_the_skill_names_the_file() {
    let tmp = tempfile::tempdir().unwrap();
    let skill = tmp.path().join("notes");
    write(
        &skill.join("skill.md"),
        "---\nname: notes\ndescription: Takes notes. Use when the user asks to take notes.\n---\n\n# Notes\n\nSee [the guide](references/guide.md).\n",
    );
    let lint = |extra: &[&str]| {
        let mut args = vec![
            "validate",
            "--no-config",
            "--unsafe-fixes",
            "--format",
            "concise",
        ];
        args.extend(extra);
        args.push("notes");
        skillc(tmp.path(), &args).stdout
    };
    let offered = "notes/skill.md: warning[SK012] [*] Agent Skills clients load `SKILL.md`, but this agentskills skill is in `skill.md` (help: rename the file to `SKILL.md`)\n";
    let withheld = offered.replace(" [*]", "");
    write(&skill.join("references/guide.md"), "A guide.\n");
    assert_eq!(lint(&[]), offered);
    // Named by the file the body links (read once, for the reference rules) or by another
    // Markdown file (read for this): renaming would break the mention.
    write(&skill.join("references/guide.md"), "Back to skill.md.\n");
    assert_eq!(lint(&[]), withheld);
    write(&skill.join("references/guide.md"), "A guide.\n");
    write(&skill.join("README.md"), "Open skill.md.\n");
    assert_eq!(lint(&[]), withheld);
    assert_eq!(lint(&["--extend-select", "security"]), withheld);
    std::fs::remove_file(skill.join("README.md")).unwrap();
    assert_eq!(lint(&["--extend-select", "security"]), offered);
}
