//! The rough edges a new user meets in the first hour (issue "The first hour"), each reproduced
//! as it was reported.

use std::path::Path;

mod common;
use common::skillc;

fn skill(root: &Path, dir: &str, name: &str) {
    common::write(
        &root.join(dir).join("SKILL.md"),
        format!(
            "---\nname: {name}\ndescription: Does {name} things. Use when asked.\n---\n\n# {name}\n\nSteps.\n"
        ),
    );
}

#[test]
fn a_subcommand_prints_the_version_as_skillc_does() {
    let tmp = tempfile::tempdir().unwrap();
    let run = skillc(tmp.path(), &["validate", "--version"]);
    assert_eq!(run.code, Some(0));
    assert!(run.stdout.starts_with("skillc 0.1.0"), "{}", run.stdout);
    // The same line as `skillc --version` (with the commit when built from a checkout).
    assert_eq!(skillc(tmp.path(), &["--version"]).stdout, run.stdout);
}

#[test]
fn pack_takes_the_skill_file_for_its_skill() {
    let tmp = tempfile::tempdir().unwrap();
    skill(tmp.path(), "skills/x", "x");
    let run = skillc(tmp.path(), &["pack", "skills/x/SKILL.md", "--list"]);
    assert_eq!(
        (run.code, run.stdout.as_str()),
        (Some(0), "SKILL.md\n"),
        "{}",
        run.stderr
    );
    common::write(&tmp.path().join("notes.txt"), "hi\n");
    let run = skillc(tmp.path(), &["pack", "notes.txt"]);
    assert_eq!(
        (run.code, run.stderr.as_str()),
        (
            Some(2),
            "error: `notes.txt` is a file; pack takes a skill directory (or its SKILL.md)\n"
        )
    );
}

#[test]
fn an_empty_directory_is_no_skill_checked() {
    let tmp = tempfile::tempdir().unwrap();
    let run = skillc(tmp.path(), &["validate", ".", "--format", "concise"]);
    assert_eq!(run.code, Some(1));
    assert_eq!(
        run.stdout,
        ".: error[SK001] no skill file (SKILL.md or skill.md) in `.` or below it (help: a skill is a directory holding a SKILL.md with YAML frontmatter (`name`, `description`) and instructions)\n"
    );
    assert_eq!(
        run.stderr,
        "Checked 0 skills: 1 error, 0 warnings, 0 infos.\n"
    );
}

#[test]
fn statistics_as_json_are_json() {
    let tmp = tempfile::tempdir().unwrap();
    skill(tmp.path(), "skills/x", "x");
    skill(tmp.path(), "skills/y", "y");
    skill(tmp.path(), "skills/z", "Z");
    let run = skillc(
        tmp.path(),
        &["validate", "--statistics", "--format", "json"],
    );
    assert_eq!((run.code, run.stderr.as_str()), (Some(1), ""));
    let value: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(
        value,
        serde_json::json!({
            "version": 1,
            "tool": {"name": "skillc", "version": "0.1.0"},
            "summary": {"skills": 3, "errors": 1, "warnings": 1, "infos": 0},
            "statistics": [
                {"count": 1, "code": "SK010", "name": "yaml-1-1-ambiguity", "severity": "warning"},
                {"count": 1, "code": "SK101", "name": "invalid-name", "severity": "error"},
            ]
        })
    );
    // The text form is unchanged: count, code, name, then the summary on stderr.
    let run = skillc(tmp.path(), &["validate", "--statistics"]);
    assert_eq!(
        run.stdout,
        "1\tSK010\tyaml-1-1-ambiguity\n1\tSK101\tinvalid-name\n"
    );
    assert_eq!(
        run.stderr,
        "Checked 3 skills: 1 error, 1 warning, 0 infos.\n"
    );
}

#[test]
fn no_skill_found_says_what_ignore_files_hid() {
    let tmp = tempfile::tempdir().unwrap();
    skill(tmp.path(), ".claude/skills/a", "a");
    common::write(&tmp.path().join(".gitignore"), ".claude/\n");
    let run = skillc(tmp.path(), &["validate"]);
    assert_eq!(run.code, Some(0));
    assert_eq!(
        run.stderr,
        "warning: no skill found under the current directory (looked for SKILL.md and skill.md); \
         .gitignore or .ignore hides 1 skill (`.claude/skills/a`): `--no-ignore` checks it\n\
         Checked 0 skills: 0 errors, 0 warnings, 0 infos.\n"
    );
    skill(tmp.path(), ".claude/skills/b", "b");
    let run = skillc(tmp.path(), &["validate"]);
    assert!(
        run.stderr
            .contains("hides 2 skills (`.claude/skills/a`, …): `--no-ignore` checks them\n"),
        "{}",
        run.stderr
    );
    let run = skillc(tmp.path(), &["validate", "--no-ignore"]);
    assert_eq!(
        run.stderr,
        "Checked 2 skills: 0 errors, 0 warnings, 0 infos.\n"
    );
    // Nothing hidden: the warning as before.
    std::fs::remove_file(tmp.path().join(".gitignore")).unwrap();
    std::fs::remove_dir_all(tmp.path().join(".claude")).unwrap();
    let run = skillc(tmp.path(), &["validate"]);
    assert_eq!(
        run.stderr,
        "warning: no skill found under the current directory (looked for SKILL.md and skill.md)\n\
         Checked 0 skills: 0 errors, 0 warnings, 0 infos.\n"
    );
}

#[test]
fn new_refuses_reserved_names_and_suggests_the_whole_command() {
    let tmp = tempfile::tempdir().unwrap();
    let run = skillc(tmp.path(), &["new", "claude-helper", "--yes"]);
    assert_eq!(run.code, Some(2));
    assert_eq!(
        run.stderr,
        "error: invalid skill name: `claude-helper` contains the reserved word `claude`, which \
         Anthropic's skill upload rejects (SK104)\n  help: try: skillc new helper --yes\n"
    );
    let run = skillc(
        tmp.path(),
        &[
            "new",
            "My Skill",
            "--dialect",
            "par",
            "--template",
            "scripts",
        ],
    );
    assert_eq!(run.code, Some(2));
    assert!(
        run.stderr
            .ends_with("  help: try: skillc new my-skill --dialect par --template scripts\n"),
        "{}",
        run.stderr
    );
    assert!(!tmp.path().join("claude-helper").exists());
}

/// `new` does not write a skill whose description a rule rejects: it says which and why.
#[test]
fn new_refuses_a_description_the_rules_reject() {
    let tmp = tempfile::tempdir().unwrap();
    let long = "Does things. ".repeat(100);
    let accents = "é".repeat(600);
    let cases: [(&[&str], &str); 3] = [
        (
            &["new", "my-skill", "--description", &long],
            "error: the description is 1,300 characters long; the limit is 1,024 (SK111); nothing was written\n",
        ),
        (
            &["new", "my-skill", "--description", "  "],
            "error: the description is empty (SK110); nothing was written\n",
        ),
        (
            &[
                "new",
                "my-skill",
                "--dialect",
                "par",
                "--description",
                &accents,
            ],
            "error: the description is 1,200 bytes in UTF-8; PAR's loader rejects more than 1,024 (SK114); nothing was written\n",
        ),
    ];
    for (args, stderr) in cases {
        let run = skillc(tmp.path(), args);
        assert_eq!((run.code, run.stderr.as_str()), (Some(2), stderr));
        assert!(!tmp.path().join("my-skill").exists());
        assert!(!tmp.path().join(".par").exists());
    }
    // 600 accented letters are 600 characters: an Agent Skills description may hold them.
    let run = skillc(tmp.path(), &["new", "my-skill", "--description", &accents]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
}

#[test]
fn the_placeholder_description_of_new_fails_strict() {
    let tmp = tempfile::tempdir().unwrap();
    let run = skillc(tmp.path(), &["new", "pdf-forms", "--yes"]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let run = skillc(
        tmp.path(),
        &["validate", "pdf-forms", "--strict", "--format", "concise"],
    );
    assert_eq!(run.code, Some(1));
    assert_eq!(
        run.stdout,
        "pdf-forms/SKILL.md:3:14: warning[SK115] the description is unfinished: it ends with an ellipsis (help: write what the skill does and when to use it: the model decides from this text alone whether to load the skill)\n"
    );
    // With a description, it passes.
    let run = skillc(
        tmp.path(),
        &[
            "new",
            "csv-tools",
            "--yes",
            "--description",
            "Cleans CSV files. Use when the user asks to clean a CSV.",
        ],
    );
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let run = skillc(tmp.path(), &["validate", "csv-tools", "--strict"]);
    assert_eq!(
        (run.code, run.stdout.as_str()),
        (Some(0), ""),
        "{}",
        run.stderr
    );
}

#[test]
fn init_creates_a_directory_that_does_not_exist() {
    let tmp = tempfile::tempdir().unwrap();
    let run = skillc(tmp.path(), &["init", "skills/log-triage", "--yes"]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert_eq!(
        run.stderr.lines().next(),
        Some("Created skills/log-triage/SKILL.md")
    );
    let text = std::fs::read_to_string(tmp.path().join("skills/log-triage/SKILL.md")).unwrap();
    assert!(text.starts_with("---\nname: log-triage\n"), "{text}");
    // An invalid name creates nothing.
    let run = skillc(tmp.path(), &["init", "Bad_Name", "--yes"]);
    assert_eq!(run.code, Some(2));
    assert!(!tmp.path().join("Bad_Name").exists());
}

#[test]
fn force_color_and_clicolor_force_colour_a_pipe() {
    let tmp = tempfile::tempdir().unwrap();
    skill(tmp.path(), "skills/y", "y");
    let plain = skillc(tmp.path(), &["validate"]);
    assert!(!plain.stdout.contains('\u{1b}'), "{}", plain.stdout);
    for (name, value) in [("FORCE_COLOR", "1"), ("CLICOLOR_FORCE", "1")] {
        let run = common::skillc_env(tmp.path(), &["validate"], &[(name, value)]);
        assert!(
            run.stdout.contains("\u{1b}[1m\u{1b}[33mwarning[SK010]"),
            "{name}: {}",
            run.stdout
        );
        // `0` forces nothing; NO_COLOR without a force still wins; --color never always does.
        let run = common::skillc_env(tmp.path(), &["validate"], &[(name, "0")]);
        assert_eq!(run.stdout, plain.stdout);
        let run = common::skillc_env(
            tmp.path(),
            &["validate", "--color", "never"],
            &[(name, value)],
        );
        assert_eq!(run.stdout, plain.stdout);
    }
    let run = common::skillc_env(tmp.path(), &["validate"], &[("NO_COLOR", "1")]);
    assert_eq!(run.stdout, plain.stdout);
}

#[test]
fn keygen_warns_of_an_unencrypted_key_and_unpack_of_an_unchecked_signature() {
    let tmp = tempfile::tempdir().unwrap();
    let run = skillc(tmp.path(), &["keygen", "--out", "k"]);
    assert_eq!(run.code, Some(0));
    assert!(
        run.stderr.ends_with(
            "warning: the private key is not encrypted (set SKILLC_KEY_PASSWORD to encrypt it); keep it out of the repository\n"
        ),
        "{}",
        run.stderr
    );
    let help = skillc(tmp.path(), &["keygen", "--help"]);
    assert!(
        help.stdout
            .contains("SKILLC_KEY_PASSWORD  encrypts the private key"),
        "{}",
        help.stdout
    );
    let run = common::skillc_env(
        tmp.path(),
        &["keygen", "--out", "e"],
        &[("SKILLC_KEY_PASSWORD", "s3cret")],
    );
    assert!(!run.stderr.contains("warning"), "{}", run.stderr);

    skill(tmp.path(), "x", "x");
    let run = skillc(tmp.path(), &["pack", "x", "-o", "x.tgz"]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    std::fs::create_dir(tmp.path().join("out")).unwrap();
    let run = skillc(tmp.path(), &["unpack", "x.tgz", "-C", "out"]);
    assert_eq!(
        run.stderr,
        "Unpacked `x` (1 file and the manifest) into out/x\n\
         note: the signature was not checked (its digests were): pass --key PUB to verify who signed it first\n"
    );
}

#[test]
fn pack_prints_the_archive_on_stdout_and_list_json_is_versioned() {
    let tmp = tempfile::tempdir().unwrap();
    skill(tmp.path(), "x", "x");
    let run = skillc(tmp.path(), &["pack", "x"]);
    assert_eq!(
        (run.code, run.stdout.as_str()),
        (Some(0), "x.skill.tar.gz\n"),
        "{}",
        run.stderr
    );
    let run = skillc(tmp.path(), &["pack", "x", "--dry-run"]);
    assert_eq!((run.code, run.stdout.as_str()), (Some(0), ""));
    let run = skillc(tmp.path(), &["list", "--format", "json"]);
    let value: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(value["version"], 1);
    assert_eq!(value["tool"]["name"], "skillc");
    assert_eq!(value["skills"][0]["key"], "x");
    assert_eq!(value["skills"].as_array().map(Vec::len), Some(1));
}

#[test]
fn show_takes_a_skill_directory_or_file() {
    let tmp = tempfile::tempdir().unwrap();
    skill(tmp.path(), "skills/pdf", "pdf-tools");
    let by_key = skillc(tmp.path(), &["show", "pdf-tools"]);
    assert_eq!(by_key.code, Some(0), "{}", by_key.stderr);
    assert!(
        by_key
            .stdout
            .starts_with("pdf-tools (agentskills, project)\n  path:        skills/pdf/SKILL.md\n"),
        "{}",
        by_key.stdout
    );
    for path in ["skills/pdf", "skills/pdf/SKILL.md", "./skills/pdf/"] {
        let run = skillc(tmp.path(), &["show", path]);
        assert_eq!(
            (run.code, &run.stdout),
            (Some(0), &by_key.stdout),
            "{path}: {}",
            run.stderr
        );
    }
    // A directory that is no skill is not a key either.
    let run = skillc(tmp.path(), &["show", "skills"]);
    assert_eq!(run.code, Some(2));
    assert_eq!(
        run.stderr,
        "error: no skill with key `skills` found; `skillc list` shows the keys\n"
    );
}

#[test]
fn github_format_writes_a_step_summary_and_says_what_annotations_hide() {
    let tmp = tempfile::tempdir().unwrap();
    for i in 1..=11 {
        skill(
            tmp.path(),
            &format!("repo/skills/s{i:02}"),
            &format!("wrong{i:02}"),
        );
    }
    let summary = tmp.path().join("summary.md");
    std::fs::write(&summary, "earlier step\n").unwrap();
    let run = common::skillc_env(
        &tmp.path().join("repo/skills"),
        &["validate", "--format", "github"],
        &[
            ("GITHUB_STEP_SUMMARY", summary.to_str().unwrap()),
            ("GITHUB_SERVER_URL", "https://github.com"),
            ("GITHUB_REPOSITORY", "o/r"),
            ("GITHUB_SHA", "abc123"),
            (
                "GITHUB_WORKSPACE",
                tmp.path().join("repo").to_str().unwrap(),
            ),
        ],
    );
    assert_eq!(run.code, Some(1));
    assert_eq!(run.stdout.lines().count(), 11);
    let line = "Checked 11 skills: 11 errors, 0 warnings, 0 infos (GitHub annotates 10 of each kind per step: 1 error is in the log only).";
    assert!(run.stderr.ends_with(&format!("{line}\n")), "{}", run.stderr);
    let text = std::fs::read_to_string(&summary).unwrap();
    let doc = "https://github.com/skillc/skillc/blob/main/src/rules/docs/SK103.md";
    assert!(
        text.starts_with(&format!(
            "earlier step\n## skillc\n\n{line}\n\n| rule | name | severity | count |\n|---|---|---|---:|\n\
             | [SK103]({doc}) | name-directory-mismatch | error | 11 |\n\n### Diagnostics\n\n\
             - error [s01/SKILL.md:2](https://github.com/o/r/blob/abc123/skills/s01/SKILL.md#L2) \
             [SK103]({doc}): the name \\`wrong01\\` does not match the directory name \\`s01\\`\n"
        )),
        "{text}"
    );
    assert_eq!(
        text.lines().filter(|l| l.starts_with("- error")).count(),
        11
    );
    // Without the variable, nothing is written and only 10 of a kind: no note.
    std::fs::remove_dir_all(tmp.path().join("repo/skills/s11")).unwrap();
    let run = skillc(
        &tmp.path().join("repo/skills"),
        &["validate", "--format", "github"],
    );
    assert!(
        run.stderr
            .ends_with("Checked 10 skills: 10 errors, 0 warnings, 0 infos.\n"),
        "{}",
        run.stderr
    );
}

#[test]
fn show_files_and_show_settings_check_nothing_and_say_where_values_come_from() {
    let tmp = tempfile::tempdir().unwrap();
    skill(tmp.path(), "skills/a", "a");
    skill(tmp.path(), "vendor/b", "b");
    common::write(
        &tmp.path().join("skillc.toml"),
        "targets = [\"claude-code\"]\nexclude = [\"vendor/**\"]\n\n[rules]\nignore = [\"SK113\"]\nunfixable = [\"SK004\"]\n\n[rules.severity]\nSK412 = \"warning\"\n",
    );
    let run = skillc(tmp.path(), &["validate", "--show-files"]);
    assert_eq!(
        (run.code, run.stdout.as_str(), run.stderr.as_str()),
        (Some(0), "skills/a/SKILL.md\n", "")
    );
    let run = skillc(
        tmp.path(),
        &[
            "validate",
            "--show-settings",
            "--strict",
            "--ignore",
            "SK412",
        ],
    );
    assert_eq!((run.code, run.stderr.as_str()), (Some(0), ""));
    let config = tmp.path().join("skillc.toml").canonicalize().unwrap();
    let lines: Vec<String> = run
        .stdout
        .lines()
        .map(|l| l.split_whitespace().collect::<Vec<_>>().join(" "))
        .collect();
    let total = lines
        .iter()
        .find(|l| l.starts_with("rules "))
        .and_then(|l| {
            l.split(" of ")
                .nth(1)?
                .split(' ')
                .next()?
                .parse::<usize>()
                .ok()
        })
        .unwrap();
    // The security rules are off unless a selection names them.
    let dormant = skillc::rule::RULES.iter().filter(|r| !r.default).count();
    assert_eq!(
        lines,
        [
            format!("config file: {}", config.display()),
            "dialect auto (detected per skill) (default)".into(),
            "strict true (--strict)".into(),
            "targets claude-code (skillc.toml)".into(),
            "budget each target's own (default)".into(),
            "encoding o200k_base (default)".into(),
            "context-window 200000 tokens (default)".into(),
            "max-file-size 1048576 bytes (default)".into(),
            "extra-fields none (default)".into(),
            "tools any (SK207 is off) (default)".into(),
            "exclude vendor/** (skillc.toml)".into(),
            format!(
                "rules {} of {total} selected (not SK113, SK412) ({dormant} off unless selected: `--extend-select security`) (skillc.toml, --ignore)",
                total - 2 - dormant
            ),
            "severity SK412 = warning (skillc.toml)".into(),
            "fixable all but SK004 (skillc.toml)".into(),
            "per-file-ignores none (default)".into(),
            "runtime the runtime table's (default)".into(),
        ]
    );
}

#[test]
fn add_noqa_covers_every_diagnostic_with_comments_only_and_is_idempotent() {
    let tmp = tempfile::tempdir().unwrap();
    let skill_md = "---\nname: demo\ndescription: Converts <b> tags. Use when asked.\nmetadata:\n  version: 1.10\n---\n# Demo\n\nSee [the guide](references/gide.md).\n\n| a | b |\n|---|---|\n| [x](nope.md) | y |\n";
    common::write(&tmp.path().join("demo/SKILL.md"), skill_md);
    common::write(&tmp.path().join("demo/references/unused.md"), "# Unused\n");
    let before = skillc(tmp.path(), &["validate", "--format", "concise"]);
    assert_eq!(before.code, Some(1));
    let run = skillc(tmp.path(), &["validate", "--add-noqa"]);
    assert_eq!(
        (run.code, run.stdout.as_str(), run.stderr.as_str()),
        (Some(0), "", "Added 6 suppression comments in 1 file.\n")
    );
    assert_eq!(
        std::fs::read_to_string(tmp.path().join("demo/SKILL.md")).unwrap(),
        "---\n# skillc: ignore-file[SK404, SK412]\nname: demo\n# skillc: ignore[SK112]\ndescription: Converts <b> tags. Use when asked.\nmetadata:\n  # skillc: ignore[SK010, SK303]\n  version: 1.10\n---\n# Demo\n\nSee [the guide](references/gide.md). <!-- skillc: ignore[SK404] -->\n\n| a | b |\n|---|---|\n| [x](nope.md) | y |\n"
    );
    let after = skillc(tmp.path(), &["validate"]);
    assert_eq!(
        (after.code, after.stdout.as_str(), after.stderr.as_str()),
        (
            Some(0),
            "",
            "Checked 1 skill: 0 errors, 0 warnings, 0 infos.\n"
        )
    );
    let again = skillc(tmp.path(), &["validate", "--add-noqa"]);
    assert_eq!(again.stderr, "Added 0 suppression comments in 0 files.\n");
}

#[test]
fn progress_shows_on_a_terminal_only() {
    let tmp = tempfile::tempdir().unwrap();
    for i in 0..400 {
        skill(tmp.path(), &format!("skills/s{i:03}"), &format!("s{i:03}"));
    }
    let plain = common::skillc_env(tmp.path(), &["validate"], &[("SKILLC_PROGRESS_AFTER", "0")]);
    assert_eq!(
        plain.stderr,
        "Checked 400 skills: 0 errors, 0 warnings, 0 infos.\n"
    );
    // On a terminal (`script` gives the run one), the line is drawn and erased.
    let has_script = std::process::Command::new("script")
        .arg("--version")
        .output()
        .is_ok();
    if !has_script {
        return;
    }
    let command = format!(
        "SKILLC_PROGRESS_AFTER=0 {} validate",
        env!("CARGO_BIN_EXE_skillc")
    );
    let out = std::process::Command::new("script")
        .args(["-q", "-e", "-c", &command, "/dev/null"])
        .current_dir(tmp.path())
        .env("HOME", tmp.path())
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("\r\u{1b}[2KChecking skills: "), "{text}");
    // Erased before the summary line.
    assert!(
        text.ends_with("\r\u{1b}[2KChecked 400 skills: 0 errors, 0 warnings, 0 infos.\r\n"),
        "{text:?}"
    );
    // -q: no progress.
    let quiet = format!("{command} -q");
    let out = std::process::Command::new("script")
        .args(["-q", "-e", "-c", &quiet, "/dev/null"])
        .current_dir(tmp.path())
        .env("HOME", tmp.path())
        .output()
        .unwrap();
    assert!(!String::from_utf8_lossy(&out.stdout).contains("Checking skills"));
}

#[test]
fn a_template_dir_adds_templates_by_name() {
    let tmp = tempfile::tempdir().unwrap();
    common::write(
        &tmp.path().join("tpl/agentskills/team/SKILL.md"),
        "---\nname: {{ key }}\ndescription: {{ description | yaml }}\n---\n# {{ display_name }}\n\nTeam steps.\n",
    );
    let run = skillc(
        tmp.path(),
        &[
            "new",
            "team-notes",
            "--template",
            "team",
            "--template-dir",
            "tpl",
            "--yes",
            "--description",
            "Keeps notes. Use when asked.",
        ],
    );
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert!(
        run.stderr
            .starts_with("Created skill `team-notes` (agentskills, team template):\n")
    );
    assert_eq!(
        std::fs::read_to_string(tmp.path().join("team-notes/SKILL.md")).unwrap(),
        "---\nname: team-notes\ndescription: \"Keeps notes. Use when asked.\"\n---\n# Team Notes\n\nTeam steps.\n"
    );
    // Without the directory, an unknown name is refused up front.
    let run = skillc(tmp.path(), &["new", "other", "--template", "team", "--yes"]);
    assert_eq!(
        (run.code, run.stderr.as_str()),
        (
            Some(2),
            "error: no template `team`: the built-in ones are `minimal`, `standard` and `scripts`; `--template-dir DIR` adds DIR/agentskills/team/\n"
        )
    );
    assert!(!tmp.path().join("other").exists());
}

#[test]
fn a_skill_file_in_another_case_given_by_path_is_reported() {
    let tmp = tempfile::tempdir().unwrap();
    common::write(
        &tmp.path().join("skills/x/Skill.md"),
        "---\nname: x\ndescription: Does x. Use when asked.\n---\n# X\n",
    );
    let run = skillc(
        tmp.path(),
        &["validate", "skills/x/Skill.md", "--format", "concise"],
    );
    assert_eq!(
        (run.code, run.stdout.as_str(), run.stderr.as_str()),
        (
            Some(1),
            "skills/x: error[SK001] `skills/x` has no SKILL.md or skill.md, but holds `Skill.md` (help: skill files are named exactly `SKILL.md` (or `skill.md` for PAR); rename it: mv skills/x/Skill.md skills/x/SKILL.md)\n",
            "Checked 0 skills: 1 error, 0 warnings, 0 infos.\n"
        )
    );
}

#[test]
fn suppressions_are_judged_only_where_their_rule_ran_and_only_as_comments() {
    let tmp = tempfile::tempdir().unwrap();
    common::write(
        &tmp.path().join("my-skill/SKILL.md"),
        "---\nname: my-skill\n# skillc: ignore[SK013]\nx-a: 1\ndescription: |\n  Use when testing. Example:\n  # skillc: ignore[SK113]\nother: \"x # skillc: ignore[SK404]\"\n---\nBody [x](gone.md). <!-- skillc: ignore[SK404] -->\n\n```\n<!-- skillc: ignore[SK401] -->\n```\nSee `<!-- skillc: ignore[SK402] -->` here.\n",
    );
    common::write(
        &tmp.path().join("skillc.toml"),
        "[per-file-ignores]\n\"my-skill/**\" = [\"SK013\", \"SK404\"]\n",
    );
    common::write(
        &tmp.path().join("x/foo/SKILL.md"),
        "---\nname: foo\ndescription: Does foo. Use when asked.\n---\nBody.\n",
    );
    common::write(
        &tmp.path().join("y/foo/SKILL.md"),
        "---\nname: foo\ndescription: Does foo. Use when asked.\n# skillc: ignore-file[SK501]\n# skillc: ignore[SK105]\n---\nBody.\n",
    );
    // Per-file ignores, a rule of the other dialect, a collection rule checked on one skill,
    // and directives inside a value, a fence or a code span: no SK019.
    for args in [
        &["validate"][..],
        &["validate", "y/foo"],
        &["validate", "my-skill"],
    ] {
        let run = skillc(tmp.path(), args);
        assert_eq!(
            (run.code, run.stdout.as_str()),
            (Some(0), ""),
            "{args:?}: {}",
            run.stderr
        );
    }
}

#[test]
fn add_noqa_never_writes_into_a_code_span_or_a_tag() {
    let tmp = tempfile::tempdir().unwrap();
    let body = "See [x](gone.md) and run `some\ncommand` now.\nLine [w](gone5.md) then <span title=\"a\nb\">x</span>\n";
    common::write(
        &tmp.path().join("demo/SKILL.md"),
        format!("---\nname: demo\ndescription: Does demo. Use when asked.\n---\n{body}"),
    );
    let run = skillc(tmp.path(), &["validate", "--add-noqa"]);
    assert_eq!(run.stderr, "Added 1 suppression comment in 1 file.\n");
    assert_eq!(
        std::fs::read_to_string(tmp.path().join("demo/SKILL.md")).unwrap(),
        format!(
            "---\n# skillc: ignore-file[SK404]\nname: demo\ndescription: Does demo. Use when asked.\n---\n{body}"
        )
    );
}

/// The README's Action names `skills .claude/skills`: a repository with only one of them is
/// still checked, with a warning for the other, and the SARIF file is written.
#[test]
fn a_missing_path_beside_an_existing_one_is_a_warning() {
    let tmp = tempfile::tempdir().unwrap();
    skill(tmp.path(), "skills/notes", "notes");
    let run = skillc(
        tmp.path(),
        &[
            "validate",
            "skills",
            ".claude/skills",
            "--format",
            "sarif",
            "-o",
            "out.sarif",
        ],
    );
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert_eq!(run.stderr, "warning: path not found: .claude/skills\n");
    let sarif = std::fs::read_to_string(tmp.path().join("out.sarif")).unwrap();
    assert!(sarif.contains("\"version\": \"2.1.0\""), "{sarif}");
    // When no PATH exists at all, it is an error.
    let run = skillc(tmp.path(), &["validate", ".claude/skills", "gone"]);
    assert_eq!(run.code, Some(2));
    assert_eq!(run.stderr, "error: path not found: .claude/skills\n");
}

/// A file that belongs to no skill, and `--show-fixes` without `--fix`, were silent no-ops.
#[test]
fn silent_no_ops_are_warned_about() {
    let tmp = tempfile::tempdir().unwrap();
    common::write(&tmp.path().join("random.md"), "# Notes\n");
    let run = skillc(tmp.path(), &["validate", "random.md"]);
    assert_eq!(run.code, Some(0));
    assert_eq!(
        run.stderr,
        "warning: `random.md` is in no skill: no SKILL.md or skill.md beside it or in a folder above it\nChecked 0 skills: 0 errors, 0 warnings, 0 infos.\n"
    );
    skill(tmp.path(), "skills/notes", "notes");
    let run = skillc(tmp.path(), &["validate", "--show-fixes", "skills"]);
    assert_eq!(run.code, Some(0));
    assert!(
        run.stderr.starts_with(
            "warning: `--show-fixes` lists what `--fix` fixed: without `--fix` it shows nothing\n"
        ),
        "{}",
        run.stderr
    );
}

/// ruff's `--output-format` works on every command that prints data; `--format` stays an alias
/// where it was the flag (`pack`'s archive format is `--archive-format`, alias `--format`).
#[test]
fn every_command_that_prints_data_takes_output_format_json() {
    let tmp = tempfile::tempdir().unwrap();
    skill(tmp.path(), "skills/x", "x");
    let json = |args: &[&str]| {
        let run = skillc(tmp.path(), args);
        assert!(matches!(run.code, Some(0 | 1)), "{args:?}: {}", run.stderr);
        serde_json::from_str::<serde_json::Value>(&run.stdout)
            .unwrap_or_else(|e| panic!("{args:?}: {e}: {}", run.stdout))
    };
    let of = "--output-format";
    assert_eq!(json(&["validate", of, "json"])["summary"]["skills"], 1);
    assert_eq!(json(&["tokens", of, "json"])["skills"][0]["key"], "x");
    assert_eq!(json(&["list", of, "json"])["skills"][0]["key"], "x");
    let shown = json(&["show", "x", of, "json"]);
    assert_eq!(
        (&shown["key"], &shown["path"], &shown["fields"]["name"]),
        (&"x".into(), &"skills/x/SKILL.md".into(), &"x".into())
    );
    assert_eq!(
        json(&["rule", "SK111", of, "json"])["name"],
        "description-too-long"
    );
    assert!(
        json(&["rule", of, "json"])
            .as_array()
            .is_some_and(|a| a.len() > 50)
    );
    assert_eq!(json(&["schema", of, "json"])["type"], "object");
    let packed = json(&["pack", "skills/x", "--dry-run", of, "json"]);
    assert!(packed["files"].is_array(), "{packed}");
    // The old spellings still work.
    assert_eq!(json(&["list", "--format", "json"])["skills"][0]["key"], "x");
    let run = skillc(tmp.path(), &["validate", of, "concise"]);
    assert_eq!(
        (run.code, run.stdout.as_str()),
        (Some(0), ""),
        "{}",
        run.stderr
    );
    for flag in ["--archive-format", "--format"] {
        let out = format!("out{flag}.zip");
        let run = skillc(tmp.path(), &["pack", "skills/x", flag, "zip", "-o", &out]);
        assert_eq!(run.code, Some(0), "{}", run.stderr);
        assert_eq!(std::fs::read(tmp.path().join(&out)).unwrap()[..2], *b"PK");
    }
}
