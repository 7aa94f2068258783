//! End-to-end tests of the `skillc` binary: exit codes, output shapes, configuration,
//! discovery and hostile input.

mod common;

use common::{skillc, skillc_env, write};
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

fn skill(root: &Path, name: &str, description: &str) -> PathBuf {
    let dir = root.join(name);
    write(
        &dir.join("SKILL.md"),
        format!(
            "---\nname: {name}\ndescription: {description}\n---\n\n# {name}\n\nDo the thing.\n"
        ),
    );
    dir
}

fn fixture(case: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures/err")
        .join(case)
}

#[test]
fn path_not_found_exits_2() {
    let tmp = tempfile::tempdir().unwrap();
    let run = skillc(tmp.path(), &["validate", "nope"]);
    assert_eq!(run.code, Some(2));
    assert_eq!(run.stderr, "error: path not found: nope\n");
    assert_eq!(run.stdout, "");
}

#[test]
fn json_output_shape() {
    let run = skillc(
        &fixture("sk111-description-too-long"),
        &["validate", "--format", "json"],
    );
    assert_eq!(run.code, Some(1));
    assert_eq!(run.stderr, "", "json prints no summary line");
    let doc: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(doc["version"], 1);
    assert_eq!(doc["tool"]["name"], "skillc");
    assert_eq!(doc["tool"]["version"], env!("CARGO_PKG_VERSION"));
    assert_eq!(
        doc["summary"],
        serde_json::json!({"skills": 1, "errors": 1, "warnings": 0, "infos": 0})
    );
    assert_eq!(
        doc["skills"],
        serde_json::json!([{"path": "pdf", "file": "pdf/SKILL.md", "dialect": "agentskills",
            "key": "pdf", "tier": "project", "targets": ["spec"], "valid": false, "l1_tokens": null}])
    );
    let d = &doc["diagnostics"][0];
    assert_eq!(d["code"], "SK111");
    assert_eq!(d["name"], "description-too-long");
    assert_eq!(d["severity"], "error");
    assert_eq!(
        d["message"],
        "description is 1,100 characters long; the limit is 1,024"
    );
    assert_eq!(d["path"], "pdf/SKILL.md");
    assert_eq!(d["skill"], "pdf");
    assert_eq!(
        (d["line"].as_u64(), d["column"].as_u64()),
        (Some(3), Some(14))
    );
    assert_eq!(
        (d["end_line"].as_u64(), d["end_column"].as_u64()),
        (Some(3), Some(1114))
    );
    assert_eq!(
        (d["offset"].as_u64(), d["length"].as_u64()),
        (Some(27), Some(1100))
    );
    assert!(
        d["help"]
            .as_str()
            .unwrap()
            .starts_with("shorten the description")
    );
    assert_eq!(
        d["url"],
        "https://github.com/skillc/skillc/blob/main/src/rules/docs/SK111.md"
    );
    // Keys in the documented order.
    let keys: Vec<&str> = doc
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(
        keys,
        ["version", "tool", "summary", "skills", "diagnostics"]
    );
}

/// JSON is rendered in blocks of reports on several threads and stitched together: the text is
/// exactly what serde_json's pretty printer makes of the whole document, when the first
/// diagnostics come from a skill far past the first block and the skills with diagnostics
/// straddle block boundaries (blocks are 512 reports).
#[test]
fn json_rendered_in_blocks_is_one_pretty_document() {
    let tmp = tempfile::tempdir().unwrap();
    for i in 0..1300 {
        let name = format!("s{i:04}");
        // Skills 700..=720 and 1020..=1030 have a name that is not their folder's (SK103).
        let bad = (700..=720).contains(&i) || (1020..=1030).contains(&i);
        let field = if bad {
            format!("other{i}")
        } else {
            name.clone()
        };
        write(
            &tmp.path().join(&name).join("SKILL.md"),
            format!(
                "---\nname: {field}\ndescription: Use when testing JSON blocks.\n---\n\nSteps.\n"
            ),
        );
    }
    let run = skillc(tmp.path(), &["validate", "--format", "json"]);
    assert_eq!(run.code, Some(1));
    let doc: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(doc["skills"].as_array().map(Vec::len), Some(1300));
    let found: Vec<(&str, &str)> = doc["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| (d["code"].as_str().unwrap(), d["skill"].as_str().unwrap()))
        .collect();
    assert_eq!(found.len(), 32);
    assert!(found.iter().all(|(code, _)| *code == "SK103"), "{found:?}");
    assert_eq!((found[0].1, found[31].1), ("s0700", "s1030"));
    assert_eq!(
        run.stdout,
        serde_json::to_string_pretty(&doc).unwrap() + "\n"
    );
    // No diagnostics: an empty array, as the pretty printer writes it.
    let clean = tempfile::tempdir().unwrap();
    skill(clean.path(), "alone", "Use when testing JSON blocks.");
    let run = skillc(clean.path(), &["validate", "--format", "json"]);
    assert_eq!(run.code, Some(0));
    assert!(
        run.stdout.ends_with("\n  ],\n  \"diagnostics\": []\n}\n"),
        "{}",
        run.stdout
    );
    let doc: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(
        run.stdout,
        serde_json::to_string_pretty(&doc).unwrap() + "\n"
    );
}

#[test]
fn json_null_positions_for_file_level_diagnostics() {
    let run = skillc(
        &fixture("sk011-file-too-large"),
        &["validate", "--format", "json"],
    );
    let doc: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    let d = &doc["diagnostics"][0];
    assert_eq!(d["code"], "SK011");
    for key in [
        "line",
        "column",
        "end_line",
        "end_column",
        "offset",
        "length",
    ] {
        assert!(d[key].is_null(), "{key}");
    }
}

#[test]
fn summary_line_and_exit_codes() {
    let tmp = tempfile::tempdir().unwrap();
    skill(tmp.path(), "markup", "Use when the user pastes <x> tags.");
    let run = skillc(tmp.path(), &["validate", "--format", "concise"]);
    assert_eq!(
        run.stdout,
        "markup/SKILL.md:3:39: warning[SK112] the description contains `<` (help: reword without `<` and `>`: Claude.ai rejects XML tags in descriptions and some prompt formats break)\n"
    );
    assert_eq!(
        run.stderr,
        "Checked 1 skill: 0 errors, 1 warning, 0 infos.\n"
    );
    assert_eq!(run.code, Some(0), "a warning alone passes");
    assert_eq!(
        skillc(tmp.path(), &["validate", "--strict", "-q"]).code,
        Some(1)
    );
    let run = skillc(tmp.path(), &["validate", "--strict", "--exit-zero", "-q"]);
    assert_eq!((run.code, run.stderr.as_str()), (Some(0), ""));
    // Severity override from the config turns it into an error.
    write(
        &tmp.path().join("skillc.toml"),
        "[rules]\nseverity = { description-markup = \"error\" }\n",
    );
    let run = skillc(tmp.path(), &["validate", "--format", "concise"]);
    assert_eq!(
        run.stdout,
        "markup/SKILL.md:3:39: error[SK112] the description contains `<` (help: reword without `<` and `>`: Claude.ai rejects XML tags in descriptions and some prompt formats break)\n"
    );
    assert_eq!(run.code, Some(1));
    // --no-config ignores it; --ignore drops the rule.
    assert_eq!(
        skillc(tmp.path(), &["validate", "--no-config", "-q"]).code,
        Some(0)
    );
    let run = skillc(
        tmp.path(),
        &["validate", "--ignore", "SK1", "--format", "concise"],
    );
    assert_eq!((run.code, run.stdout.as_str()), (Some(0), ""));
    let run = skillc(
        tmp.path(),
        &["validate", "--select", "SK0,SK110", "--format", "concise"],
    );
    assert_eq!((run.code, run.stdout.as_str()), (Some(0), ""));
}

#[test]
fn config_errors_exit_2_with_position() {
    let tmp = tempfile::tempdir().unwrap();
    skill(tmp.path(), "ok-skill", "Use when testing.");
    write(
        &tmp.path().join("skillc.toml"),
        "strict = true\nbogus = 1\n",
    );
    let run = skillc(tmp.path(), &["validate"]);
    assert_eq!(run.code, Some(2));
    assert!(run.stderr.starts_with("error: "), "{}", run.stderr);
    assert!(
        run.stderr
            .contains("skillc.toml:2:1: unknown field `bogus`"),
        "{}",
        run.stderr
    );

    write(
        &tmp.path().join("skillc.toml"),
        "[rules]\nselect = [\"SK1\", \"SK999\"]\n",
    );
    let run = skillc(tmp.path(), &["validate"]);
    assert_eq!(run.code, Some(2));
    assert!(
        run.stderr
            .contains("skillc.toml:2:18: unknown rule `SK999` in `rules.select`"),
        "{}",
        run.stderr
    );

    write(&tmp.path().join("skillc.toml"), "dialect = \"klingon\"\n");
    let run = skillc(tmp.path(), &["validate"]);
    assert_eq!(run.code, Some(2));
    assert!(
        run.stderr
            .contains("skillc.toml:1:11: unknown variant `klingon`"),
        "{}",
        run.stderr
    );

    let run = skillc(tmp.path(), &["validate", "--no-config", "--select", "nope"]);
    assert_eq!(run.code, Some(2));
    assert_eq!(
        run.stderr,
        "error: unknown rule `nope` in --select; see `skillc rule` for the list\n"
    );

    let run = skillc(tmp.path(), &["validate", "--config", "missing.toml"]);
    assert_eq!(run.code, Some(2));
    assert!(
        run.stderr
            .contains("missing.toml: cannot read the config file"),
        "{}",
        run.stderr
    );
}

#[test]
fn config_found_in_ancestor_and_per_file_ignores() {
    let tmp = tempfile::tempdir().unwrap();
    fs::create_dir(tmp.path().join(".git")).unwrap();
    skill(&tmp.path().join("legacy"), "old", "Formats things.");
    skill(&tmp.path().join("new"), "fresh", "Formats things.");
    write(
        &tmp.path().join(".skillc.toml"),
        "[per-file-ignores]\n\"legacy/**\" = [\"description-no-trigger\"]\n",
    );
    let run = skillc(
        &tmp.path().join("new"),
        &["validate", "--format", "concise", ".."],
    );
    assert_eq!(
        run.stdout,
        "../new/fresh/SKILL.md:3:14: info[SK113] the description says what the skill does, not when to use it (help: add when to load it, e.g. \"Use when the user asks to ...\")\n"
    );
}

#[test]
fn exclude_and_gitignore_and_skipped_directories() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path();
    skill(&root.join("vendor"), "vendored", "broken <x>");
    skill(&root.join("ignored"), "hidden-by-gitignore", "broken <x>");
    skill(&root.join("node_modules"), "dep", "broken <x>");
    skill(&root.join(".claude/skills"), "found", "Use when found.");
    write(&root.join(".gitignore"), "ignored/\n");
    write(&root.join("skillc.toml"), "exclude = [\"vendor\"]\n");
    let run = skillc(root, &["validate", "--format", "json"]);
    let doc: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    let paths: Vec<&str> = doc["skills"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["path"].as_str().unwrap())
        .collect();
    assert_eq!(paths, [".claude/skills/found"]);
    let run = skillc(root, &["validate", "--format", "json", "--no-ignore"]);
    let doc: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    let paths: Vec<&str> = doc["skills"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["path"].as_str().unwrap())
        .collect();
    assert_eq!(
        paths,
        [".claude/skills/found", "ignored/hidden-by-gitignore"]
    );
    // An excluded folder named on the command line is searched: it was asked for.
    let run = skillc(root, &["validate", "--format", "json", "vendor"]);
    let doc: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    let paths: Vec<&str> = doc["skills"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["path"].as_str().unwrap())
        .collect();
    assert_eq!(paths, ["vendor/vendored"]);
}

/// Dogfood: the repository's own skillc.toml leaves out the fixtures (broken on purpose) and
/// the templates, and what is left is clean; the quick start's `validate fixtures/ok` still
/// checks the examples it names.
#[test]
fn the_repository_itself_validates_clean() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let run = skillc(root, &["validate", "--strict", "--format", "concise"]);
    assert_eq!(run.stdout, "", "{}", run.stderr);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let run = skillc(root, &["validate", "--strict", "fixtures/ok"]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert!(
        run.stderr.contains("Checked 13 skills: 0 errors"),
        "{}",
        run.stderr
    );
}

#[test]
fn files_map_to_their_skill_once() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = skill(tmp.path(), "tool", "Use when tooling <x>.");
    write(&dir.join("scripts/run.py"), "print(1)\n");
    write(&tmp.path().join("README.md"), "not a skill\n");
    let run = skillc(
        tmp.path(),
        &[
            "validate",
            "--format",
            "concise",
            "tool/scripts/run.py",
            "tool/SKILL.md",
            "README.md",
        ],
    );
    assert_eq!(
        run.stdout,
        "tool/SKILL.md:3:31: warning[SK112] the description contains `<` (help: reword without `<` and `>`: Claude.ai rejects XML tags in descriptions and some prompt formats break)\n\
         tool/scripts/run.py: info[SK412] `scripts/run.py` is mentioned neither in the body nor in any file it leads to (help: link it where the agent needs it, e.g. `[run.py](scripts/run.py)`, or remove it: the model cannot discover it otherwise)\n"
    );
    assert_eq!(
        run.stderr,
        "Checked 1 skill: 0 errors, 1 warning, 1 info.\n"
    );
}

#[test]
fn symlinked_skills_are_reported_once_and_loops_end() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path();
    skill(&root.join("a"), "one", "Use when linking <x>.");
    std::os::unix::fs::symlink(root.join("a"), root.join("b")).unwrap();
    std::os::unix::fs::symlink(root, root.join("a/loop")).unwrap();
    let run = skillc(root, &["validate", "--format", "concise"]);
    assert_eq!(
        run.stdout,
        "a/one/SKILL.md:3:31: warning[SK112] the description contains `<` (help: reword without `<` and `>`: Claude.ai rejects XML tags in descriptions and some prompt formats break)\n"
    );
    assert_eq!(run.code, Some(0));
}

#[test]
fn user_tier_and_shadowing() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path();
    let par = |dir: &Path, id: &str| {
        write(
            &dir.join(id).join("skill.md"),
            format!(
                "---\nschema_version: 1\nid: {id}\nname: Deploy\ndescription: Use when deploying.\n---\nBody.\n"
            ),
        );
    };
    par(&root.join("home/.par/skills"), "deploy");
    par(&root.join("project/.par/skills"), "deploy");
    let run = skillc(
        root,
        &[
            "validate",
            "--format",
            "concise",
            "project",
            "home/.par/skills",
        ],
    );
    assert_eq!(
        run.stdout,
        "project/.par/skills/deploy/skill.md:3:5: info[SK502] `deploy` shadows the user skill `home/.par/skills/deploy/skill.md` (help: this skill replaces the other one; rename it if that is not intended)\n"
    );
    let run = skillc(root, &["validate", "--format", "json", "home/.par/skills"]);
    let doc: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(doc["skills"][0]["tier"], "user");
}

#[test]
fn hostile_inputs_never_panic() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path();
    // 2 MiB file: SK011, not parsed.
    let big = root.join("big/SKILL.md");
    write(
        &big,
        format!(
            "---\nname: big\ndescription: {}\n---\n",
            "x".repeat(2 << 20)
        ),
    );
    // 10,000 nested levels, flow and block.
    write(
        &root.join("deep/SKILL.md"),
        format!(
            "---\nname: deep\ndescription: {}{}\n---\n",
            "[".repeat(10_000),
            "]".repeat(10_000)
        ),
    );
    let mut block = String::from("---\nname: deeper\nmetadata:\n");
    for depth in 1..2000 {
        block += &format!("{}k{depth}:\n", " ".repeat(depth));
    }
    block += "---\n";
    write(&root.join("deeper/SKILL.md"), &block);
    // Alias bomb.
    let mut bomb = String::from(
        "---\nname: bomb\ndescription: Use when testing.\nmetadata:\n  a: &a [x, x, x, x, x, x, x, x, x]\n",
    );
    for i in 1..20u8 {
        let (prev, cur) = ((b'a' + i - 1) as char, (b'a' + i) as char);
        bomb += &format!(
            "  {cur}: &{cur} [*{prev}, *{prev}, *{prev}, *{prev}, *{prev}, *{prev}, *{prev}, *{prev}]\n"
        );
    }
    bomb += "---\nBody.\n";
    write(&root.join("bomb/SKILL.md"), &bomb);
    // Binary garbage, a lone BOM, NULs and CR-only line ends.
    fs::create_dir_all(root.join("garbage")).unwrap();
    fs::write(
        root.join("garbage/SKILL.md"),
        [0xef, 0xbb, 0xbf, 0, 0xff, b'\r', b'-', 0xc3],
    )
    .unwrap();
    write(
        &root.join("cr/SKILL.md"),
        "---\rname: cr\rdescription: x\r---\r",
    );
    write(
        &root.join("nul/SKILL.md"),
        "---\nname: \"a\0b\"\ndescription: \0\n---\n",
    );
    let run = skillc(root, &["validate", "--format", "concise"]);
    assert_eq!(run.code, Some(1), "{}", run.stderr);
    assert!(!run.stderr.contains("panicked"), "{}", run.stderr);
    let codes: Vec<&str> = run
        .stdout
        .lines()
        .map(|l| {
            l.split('[')
                .nth(1)
                .unwrap_or("")
                .split(']')
                .next()
                .unwrap_or("")
        })
        .collect();
    for expected in ["SK011", "SK006", "SK009", "SK002", "SK003"] {
        assert!(
            codes.contains(&expected),
            "{expected} missing from\n{}",
            run.stdout
        );
    }
    assert!(
        run.stdout
            .contains("big/SKILL.md: error[SK011] the skill file is 2,097,184 bytes"),
        "{}",
        run.stdout
    );
}

#[test]
fn unreadable_skill_file_is_named_and_exits_3() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path();
    skill(root, "good", "Use when fine.");
    fs::create_dir_all(root.join("bad")).unwrap();
    // Opening succeeds, reading fails: EIO from /proc/self/mem at offset 0, even for root. The
    // link leads out of the skill, so the command line reports it (SK408) without reading it;
    // the library reads it when the skill's real directory is `/`, and names the failure.
    std::os::unix::fs::symlink("/proc/self/mem", root.join("bad/SKILL.md")).unwrap();
    let run = skillc(root, &["validate", "--format", "concise"]);
    assert_eq!(run.code, Some(0));
    assert_eq!(
        run.stdout,
        "bad/SKILL.md: warning[SK408] symlink `SKILL.md` points outside the skill, to `/proc/self/mem` (not read: the target is not a skill file) (help: runtimes follow the link where it is, but `skillc pack`, an install that copies the skill directory or a move to another machine loses or breaks it: copy the target into the skill, or link the whole skill directory instead)\n"
    );
    let dir = root.join("bad");
    let skill = skillc::discover::SkillDir {
        file: Some(dir.join("SKILL.md").into()),
        real: skillc::discover::Real::At(std::path::Path::new("/").into()),
        dir: dir.into(),
        tier: skillc::discover::Tier::Project,
        rare: None,
        listed: Default::default(),
    };
    let settings = skillc::config::Settings::default();
    let reports =
        skillc::lint::lint_all(vec![skill], &settings, root, skillc::skill::Keep::default());
    let error = reports[0].io_error().unwrap_or_default();
    assert!(
        error.starts_with(&format!(
            "reading `{}`: ",
            root.join("bad/SKILL.md").display()
        )),
        "{error}"
    );
}

#[test]
fn output_is_deterministic_whatever_the_creation_order() {
    let make = |names: &[&str]| {
        let tmp = tempfile::tempdir().unwrap();
        for name in names {
            skill(&tmp.path().join("s"), name, "bad <x>");
        }
        tmp
    };
    let a = make(&["zeta", "alpha", "mid", "beta"]);
    let b = make(&["beta", "mid", "alpha", "zeta"]);
    let ra = skillc(a.path(), &["validate", "--format", "json"]);
    let rb = skillc(b.path(), &["validate", "--format", "json"]);
    assert_eq!(ra.stdout, rb.stdout);
    let doc: serde_json::Value = serde_json::from_str(&ra.stdout).unwrap();
    let paths: Vec<&str> = doc["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["path"].as_str().unwrap())
        .collect();
    let mut sorted = paths.clone();
    sorted.sort();
    assert_eq!(paths, sorted);
}

#[test]
fn output_file_and_statistics() {
    let tmp = tempfile::tempdir().unwrap();
    skill(tmp.path(), "one", "bad <x>");
    skill(tmp.path(), "two", "bad <y>");
    let run = skillc(
        tmp.path(),
        &["validate", "--format", "concise", "-o", "out.txt"],
    );
    assert_eq!(run.stdout, "");
    assert_eq!(
        fs::read_to_string(tmp.path().join("out.txt")).unwrap(),
        "one/SKILL.md:3:14: info[SK113] the description says what the skill does, not when to use it (help: add when to load it, e.g. \"Use when the user asks to ...\")\n\
         one/SKILL.md:3:18: warning[SK112] the description contains `<` (help: reword without `<` and `>`: Claude.ai rejects XML tags in descriptions and some prompt formats break)\n\
         two/SKILL.md:3:14: info[SK113] the description says what the skill does, not when to use it (help: add when to load it, e.g. \"Use when the user asks to ...\")\n\
         two/SKILL.md:3:18: warning[SK112] the description contains `<` (help: reword without `<` and `>`: Claude.ai rejects XML tags in descriptions and some prompt formats break)\n"
    );
    let run = skillc(tmp.path(), &["validate", "--statistics"]);
    assert_eq!(
        run.stdout,
        "2\tSK112\tdescription-markup\n2\tSK113\tdescription-no-trigger\n"
    );
    assert_eq!(
        run.stderr,
        "Checked 2 skills: 0 errors, 2 warnings, 2 infos.\n"
    );
}

#[test]
fn full_format_colour() {
    let dir = fixture("sk112-markup");
    let plain = skillc(&dir, &["validate", "-q"]);
    assert!(!plain.stdout.contains('\u{1b}'));
    assert!(
        plain.stdout.starts_with(
            "warning[SK112]: the description contains `<`\n --> markup-desc/SKILL.md:3:39\n"
        ),
        "{}",
        plain.stdout
    );
    let coloured = skillc(&dir, &["validate", "-q", "--color", "always"]);
    assert!(coloured.stdout.contains("\u{1b}["));
}

/// `concise` keeps the help on the diagnostic's line, and is coloured like `full` under
/// `--color` (path bold, severity and code in the severity's colour, `help:` in cyan).
#[test]
fn concise_format_help_and_colour() {
    let dir = fixture("sk112-markup");
    let help = "reword without `<` and `>`: Claude.ai rejects XML tags in descriptions and some prompt formats break";
    let plain = skillc(&dir, &["validate", "-q", "--format", "concise"]);
    assert_eq!(
        plain.stdout,
        format!(
            "markup-desc/SKILL.md:3:39: warning[SK112] the description contains `<` (help: {help})\n"
        )
    );
    let coloured = skillc(
        &dir,
        &["validate", "-q", "--format", "concise", "--color", "always"],
    );
    assert_eq!(
        coloured.stdout,
        format!(
            "\u{1b}[1mmarkup-desc/SKILL.md:3:39:\u{1b}[0m \u{1b}[1m\u{1b}[33mwarning[SK112]\u{1b}[0m \
             the description contains `<` (\u{1b}[1m\u{1b}[36mhelp:\u{1b}[0m {help})\n"
        )
    );
}

/// The output format from the environment: `SKILLC_OUTPUT_FORMAT`, else its older name
/// `SKILLC_FORMAT`; a flag wins over both.
#[test]
fn output_format_from_the_environment() {
    let dir = fixture("sk112-markup");
    let concise = "markup-desc/SKILL.md:3:39: warning[SK112] the description contains `<` (help: reword without `<` and `>`: Claude.ai rejects XML tags in descriptions and some prompt formats break)\n";
    let run = skillc_env(
        &dir,
        &["validate", "-q"],
        &[("SKILLC_OUTPUT_FORMAT", "concise")],
    );
    assert_eq!(run.stdout, concise);
    let run = skillc_env(&dir, &["validate", "-q"], &[("SKILLC_FORMAT", "concise")]);
    assert_eq!(run.stdout, concise);
    let run = skillc_env(
        &dir,
        &["validate", "-q"],
        &[
            ("SKILLC_FORMAT", "json"),
            ("SKILLC_OUTPUT_FORMAT", "concise"),
        ],
    );
    assert_eq!(run.stdout, concise);
    let run = skillc_env(
        &dir,
        &["validate", "-q", "--output-format", "concise"],
        &[("SKILLC_OUTPUT_FORMAT", "json")],
    );
    assert_eq!(run.stdout, concise);
}

#[test]
fn explicit_directory_without_skill_and_empty_default() {
    let tmp = tempfile::tempdir().unwrap();
    fs::create_dir(tmp.path().join("empty")).unwrap();
    let run = skillc(tmp.path(), &["validate", "--format", "concise", "empty"]);
    assert_eq!(
        run.stdout,
        "empty: error[SK001] no skill file (SKILL.md or skill.md) in `empty` or below it (help: a skill is a directory holding a SKILL.md with YAML frontmatter (`name`, `description`) and instructions)\n"
    );
    assert_eq!(run.code, Some(1));
    let run = skillc(&tmp.path().join("empty"), &["validate"]);
    assert_eq!(run.code, Some(0));
    assert!(
        run.stderr
            .starts_with("warning: no skill found under the current directory"),
        "{}",
        run.stderr
    );
}

#[test]
fn rule_command() {
    let tmp = tempfile::tempdir().unwrap();
    let run = skillc(tmp.path(), &["rule", "description-too-long"]);
    assert_eq!(run.code, Some(0));
    assert!(run.stdout.starts_with(
        "SK111 description-too-long\nSeverity: error · Dialects: par, agentskills · Fix: none\n"
    ));
    for section in [
        "## What it checks",
        "## Why it matters",
        "## Example",
        "## Fix",
    ] {
        assert!(run.stdout.contains(section));
    }
    let run = skillc(tmp.path(), &["rule"]);
    assert!(run.stdout.lines().any(|l| l.starts_with("SK202")
        && l.contains("invalid-tool-filter")
        && l.ends_with("par")));
    let run = skillc(tmp.path(), &["rule", "SK999"]);
    assert_eq!(
        (run.code, run.stderr.as_str()),
        (
            Some(2),
            "error: unknown rule `SK999`; run `skillc rule` for the list\n"
        )
    );
}

/// A name that is one typo away from a known one gets a suggestion, wherever it is written.
#[test]
fn did_you_mean_rules_keys_and_settings() {
    let tmp = tempfile::tempdir().unwrap();
    skill(
        tmp.path(),
        "pdf",
        "Fills PDF forms. Use when the user has a PDF form to fill.",
    );
    let cases: [(&[&str], &str); 5] = [
        (
            &["rule", "brokenlink"],
            "error: unknown rule `brokenlink`: did you mean `SK404` (broken-link)?\n",
        ),
        (
            &["validate", "--select", "broken-links"],
            "error: unknown rule `broken-links` in --select: did you mean `SK404` (broken-link)?\n",
        ),
        (
            &["show", "pfd"],
            "error: no skill with key `pfd` found: did you mean `pdf`?\n",
        ),
        (
            &["show", "spreadsheet"],
            "error: no skill with key `spreadsheet` found; `skillc list` shows the keys\n",
        ),
        (
            &["rule", "zzz"],
            "error: unknown rule `zzz`; run `skillc rule` for the list\n",
        ),
    ];
    for (args, stderr) in cases {
        let run = skillc(tmp.path(), args);
        assert_eq!(
            (run.code, run.stderr.as_str()),
            (Some(2), stderr),
            "{args:?}"
        );
    }
    write(&tmp.path().join("skillc.toml"), "strcit = true\n");
    let run = skillc(tmp.path(), &["validate"]);
    let config = tmp.path().join("skillc.toml");
    assert_eq!(
        (run.code, run.stderr),
        (
            Some(2),
            format!(
                "error: {}:1:1: unknown field `strcit`: did you mean `strict`?\n",
                config.display()
            )
        )
    );
}

#[test]
fn schema_command_prints_the_embedded_schema() {
    let tmp = tempfile::tempdir().unwrap();
    let run = skillc(tmp.path(), &["schema", "--dialect", "par"]);
    let file = fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("schema/par-skill.v1.schema.json"),
    )
    .unwrap();
    assert_eq!(run.stdout, file);
    let doc: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(
        doc["$schema"],
        "https://json-schema.org/draft/2020-12/schema"
    );
}

/// Editors that validate frontmatter with `skillc schema` catch the two most common errors: a
/// name SK101 rejects and a description longer than SK111 allows.
#[test]
fn schemas_reject_what_the_name_and_length_rules_reject() {
    let tmp = tempfile::tempdir().unwrap();
    let long = "x".repeat(1025);
    for (dialect, base) in [
        (
            "agentskills",
            serde_json::json!({"name": "pdf", "description": "Fills forms."}),
        ),
        (
            "par",
            serde_json::json!({"schema_version": 1, "id": "pdf", "name": "PDF", "description": "Fills forms."}),
        ),
    ] {
        let schema: serde_json::Value =
            serde_json::from_str(&skillc(tmp.path(), &["schema", "--dialect", dialect]).stdout)
                .unwrap();
        let validator = jsonschema::validator_for(&schema).unwrap();
        assert!(validator.is_valid(&base), "{dialect}");
        let key = if dialect == "par" { "id" } else { "name" };
        for (field, value, valid) in [
            (key, "Bad_Name", false),
            (key, "-pdf", false),
            (key, "pdf--forms", false),
            (key, "pdf-forms2", true),
            (key, "", false),
            ("description", long.as_str(), false),
            ("description", "   ", false),
        ] {
            let mut doc = base.clone();
            doc[field] = serde_json::Value::from(value);
            assert_eq!(
                validator.is_valid(&doc),
                valid,
                "{dialect} {field}={value:.20}"
            );
        }
    }
    // Agent Skills names may be any lowercase letters (`café`), PAR ids only ASCII ones.
    let schema: serde_json::Value =
        serde_json::from_str(&skillc(tmp.path(), &["schema", "--dialect", "agentskills"]).stdout)
            .unwrap();
    let validator = jsonschema::validator_for(&schema).unwrap();
    let doc = serde_json::json!({"name": "café", "description": "Fills forms."});
    assert!(validator.is_valid(&doc));
}

#[test]
fn readme_rule_table_matches_the_registry() {
    let path = common::doc_holding("<!-- rules:start -->");
    let readme = fs::read_to_string(&path).unwrap();
    let tmp = tempfile::tempdir().unwrap();
    let table = skillc(tmp.path(), &["rule"]).stdout;
    let mut expected = String::from(
        "<!-- rules:start -->\n| code | name | severity | dialects |\n|---|---|---|---|\n",
    );
    for line in table.lines().skip(1) {
        let cols: Vec<&str> = line.split_whitespace().collect();
        expected += &format!(
            "| {} | {} | {} | {} |\n",
            cols[0],
            cols[1],
            cols[2],
            cols[3..].join(" ")
        );
    }
    expected += "<!-- rules:end -->";
    let start = readme.find("<!-- rules:start -->").unwrap();
    let end = readme.find("<!-- rules:end -->").unwrap() + "<!-- rules:end -->".len();
    if std::env::var_os("SKILLC_BLESS").is_some() {
        fs::write(
            &path,
            format!("{}{expected}{}", &readme[..start], &readme[end..]),
        )
        .unwrap();
        return;
    }
    assert_eq!(
        &readme[start..end],
        expected,
        "the rule table is out of date (SKILLC_BLESS=1 rewrites it)"
    );
}

#[test]
fn skill_size_limits() {
    let tmp = tempfile::tempdir().unwrap();
    let many = skill(tmp.path(), "many", "Use when testing limits.");
    for i in 0..1001 {
        write(&many.join(format!("assets/f{i}.txt")), "x");
    }
    let big = skill(tmp.path(), "big", "Use when testing limits.");
    fs::create_dir_all(big.join("assets")).unwrap();
    fs::write(big.join("assets/blob.bin"), vec![0u8; 9 << 20]).unwrap();
    let run = skillc(tmp.path(), &["validate", "--format", "concise"]);
    assert_eq!(
        run.stdout,
        "big: warning[SK410] the skill holds 9.0 MiB; upload limits allow 8 MiB (help: move large data out of the skill or fetch it at run time)\n\
         many: warning[SK410] the skill holds 1,002 files; upload limits allow 1,000 (help: remove generated or vendored files, or list them in .skillignore)\n"
    );
}

#[test]
fn adversarial_shapes_stay_fast_and_exact() {
    // Shapes that once made a pass quadratic or misplaced a position (see the commit log).
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path();
    let big_flow = format!(
        "---\nname: flow\ndescription: Use when x.\nmetadata: {{k: [{}x]}}\n---\nbody\n",
        "x,".repeat(100_000)
    );
    write(&root.join("flow/SKILL.md"), &big_flow);
    let many = format!(
        "---\nname: many\ndescription: Use when x.\nk:\n{}---\nbody\n",
        "- y\n".repeat(50_000)
    );
    write(&root.join("many/SKILL.md"), &many);
    let keys: String = (0..30_000).map(|i| format!("k{i}: 1\n")).collect();
    write(
        &root.join("keys/SKILL.md"),
        format!("---\nname: keys\ndescription: Use when x.\n{keys}---\nbody\n"),
    );
    let tools: Vec<String> = (0..50_000).map(|i| format!("t{}", i % 25_000)).collect();
    write(
        &root.join("tools/skill.md"),
        format!(
            "---\nschema_version: 1\nid: tools\nname: T\ndescription: Use when x.\ntool_filter: Only [{}]\n---\nbody\n",
            tools.join(",")
        ),
    );
    write(
        &root.join("links/SKILL.md"),
        format!(
            "---\nname: links\ndescription: Use when x.\n---\n{}\n",
            "[x](a/b/c.md)".repeat(20_000)
        ),
    );
    // Each shape took 10-50 s before the fix (quadratic); `bench/validate.sh` measures speed,
    // this checks they are handled at all.
    let run = skillc(root, &["validate", "--format", "full"]);
    assert_eq!(run.code, Some(1), "{}", run.stderr);
    assert!(run.stdout.contains("error[SK404]"), "{}", run.stderr);
    // A lone CR is not a line end (formats.md): positions stay on the `\n` line.
    write(
        &root.join("cr/a/SKILL.md"),
        "---\nname: a\rfoo: 1\n---\nbody\n",
    );
    let run = skillc(
        &root.join("cr"),
        &["validate", "--format", "concise", "--select", "SK013"],
    );
    assert_eq!(
        run.stdout,
        "a/SKILL.md:2:9: error[SK013] unknown field `foo` for the agentskills dialect (help: move it under `metadata:` as a string (`metadata:` / `  foo: \"...\"`), or allow it with `extra-fields = [\"foo\"]` in skillc.toml)\n"
    );
    // A BOM at the start of the frontmatter does not shift columns.
    write(
        &root.join("bom/a/SKILL.md"),
        "---\n\u{feff}foo: 1\nname: a\ndescription: Use when x.\n---\nbody\n",
    );
    let run = skillc(
        &root.join("bom"),
        &["validate", "--format", "concise", "--select", "SK013"],
    );
    assert_eq!(
        run.stdout,
        "a/SKILL.md:2:2: error[SK013] unknown field `foo` for the agentskills dialect (help: move it under `metadata:` as a string (`metadata:` / `  foo: \"...\"`), or allow it with `extra-fields = [\"foo\"]` in skillc.toml)\n"
    );
    // Large frontmatter: no false type errors after 10,000 nodes.
    let entries: String = (0..12_000).map(|i| format!("  k{i}: v\n")).collect();
    write(
        &root.join("wide/wide/SKILL.md"),
        format!("---\nname: wide\nmetadata:\n{entries}description: Use when x.\n---\nbody\n"),
    );
    let run = skillc(&root.join("wide"), &["validate", "--format", "concise"]);
    assert_eq!((run.code, run.stdout.as_str()), (Some(0), ""));
}

#[test]
fn fifos_never_block_and_stdout_failures_are_errors() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path();
    let dir = skill(root, "piped", "Use when piping.");
    let fifo = dir.join("pipe");
    assert!(
        Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap()
            .success()
    );
    std::os::unix::fs::symlink("pipe", dir.join("tools.json")).unwrap();
    let run = skillc(root, &["validate", "--format", "concise"]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let run = skillc(root, &["validate", "--config", "piped/pipe"]);
    assert_eq!(run.code, Some(2));
    assert!(
        run.stderr
            .contains("cannot read the config file: not a regular file"),
        "{}",
        run.stderr
    );
    // Writing to a full device is an I/O failure (exit 3), not a panic.
    let out = Command::new(env!("CARGO_BIN_EXE_skillc"))
        .current_dir(root)
        .args(["rule"])
        .stdout(fs::File::create("/dev/full").unwrap())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(3));
    assert!(String::from_utf8_lossy(&out.stderr).starts_with("error: writing to stdout: "));
}

/// A file name or a value holding a line end or a terminal escape cannot forge a diagnostic
/// line or drive the terminal: text formats show control pictures, one for one.
#[test]
fn untrusted_text_cannot_forge_lines_or_escapes() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("evil\nx.md:1:1: error[SK999] forged");
    write(
        &dir.join("SKILL.md"),
        "---\nname: \"bad\\e[2J\"\ndescription: Use when testing hostile names.\n---\nBody.\n",
    );
    let run = skillc(tmp.path(), &["validate", "--format", "concise", "."]);
    assert_eq!(run.code, Some(1));
    assert!(!run.stdout.contains('\u{1b}'), "{}", run.stdout);
    let forged = "evil␊x.md:1:1: error[SK999] forged/SKILL.md";
    for line in run.stdout.lines() {
        assert!(line.starts_with(forged), "{line}");
    }
    assert!(
        run.stdout.contains("the name `bad␛[2J` must be lowercase"),
        "{}",
        run.stdout
    );
    let run = skillc(tmp.path(), &["validate", "--format", "full", "."]);
    assert!(
        !run.stdout.contains('\u{1b}') && !run.stdout.contains("\nx.md"),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout.contains(&format!("--> {forged}:2:7")),
        "{}",
        run.stdout
    );
}

/// One skill with 250 broken links: 100 are shown, then one diagnostic counts the rest.
#[test]
fn diagnostics_are_capped_per_rule_and_skill() {
    let tmp = tempfile::tempdir().unwrap();
    let links: String = (0..250).map(|i| format!("[x](missing{i}.md)\n")).collect();
    write(
        &tmp.path().join("many/SKILL.md"),
        format!("---\nname: many\ndescription: Use when testing many links.\n---\n{links}"),
    );
    let run = skillc(tmp.path(), &["validate", "--format", "concise", "many"]);
    assert_eq!(run.code, Some(1));
    let lines: Vec<&str> = run.stdout.lines().collect();
    assert_eq!(lines.len(), 101);
    assert_eq!(
        lines[99],
        "many/SKILL.md:104:5: error[SK404] link `missing99.md` names a file that does not exist in the skill (help: create `missing99.md` or fix the link)"
    );
    assert_eq!(
        lines[100],
        "many/SKILL.md:105:5: error[SK404] 150 more `broken-link` diagnostics in this skill are not shown (at most 100 per rule and skill) (help: fix the ones shown and run skillc again to see the rest)"
    );
    // The summary and the statistics count every problem, shown or not.
    assert_eq!(
        run.stderr,
        "Checked 1 skill: 250 errors, 0 warnings, 0 infos.\n"
    );
    let run = skillc(tmp.path(), &["validate", "--statistics", "many"]);
    assert_eq!(run.stdout, "250\tSK404\tbroken-link\n");
    // `show` counts them the same way, as text and as JSON.
    let run = skillc(tmp.path(), &["show", "many", "many"]);
    assert!(
        run.stdout
            .contains("  diagnostics: 250 errors, 0 warnings, 0 infos (skillc validate many)\n"),
        "{}",
        run.stdout
    );
    let run = skillc(
        tmp.path(),
        &["show", "many", "many", "--output-format", "json"],
    );
    let doc: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(doc["diagnostics"]["errors"], 250, "{}", run.stdout);
}

/// A committed `SKILL.md` that links out of its skill to a file that is not a skill file (to a
/// CI runner's secrets, say) is SK408 and never read: nothing of the target reaches the output.
#[test]
fn skill_file_linked_out_of_the_skill_is_not_read() {
    let tmp = tempfile::tempdir().unwrap();
    write(&tmp.path().join("secret.txt"), "TOPSECRET=hunter2\n");
    let repo = tmp.path().join("repo");
    fs::create_dir_all(repo.join("skills/leak")).unwrap();
    std::os::unix::fs::symlink(
        tmp.path().join("secret.txt"),
        repo.join("skills/leak/SKILL.md"),
    )
    .unwrap();
    // A link to a file inside the skill is read as usual.
    write(
        &repo.join("skills/inside/docs/skill.txt"),
        "---\nname: inside\ndescription: Use when testing links.\n---\nBody.\n",
    );
    std::os::unix::fs::symlink("docs/skill.txt", repo.join("skills/inside/SKILL.md")).unwrap();
    for format in ["full", "concise", "json"] {
        let run = skillc(&repo, &["validate", "--format", format, "."]);
        assert_eq!(run.code, Some(0));
        assert!(!run.stdout.contains("TOPSECRET"), "{}", run.stdout);
    }
    let run = skillc(&repo, &["validate", "--format", "concise", "."]);
    assert_eq!(
        run.stdout,
        format!(
            "skills/leak/SKILL.md: warning[SK408] symlink `SKILL.md` points outside the skill, to `{}` (not read: the target is not a skill file) (help: runtimes follow the link where it is, but `skillc pack`, an install that copies the skill directory or a move to another machine loses or breaks it: copy the target into the skill, or link the whole skill directory instead)\n",
            tmp.path().join("secret.txt").display()
        )
    );
}

/// The catalog commands show a hostile key, path or value with control pictures: no escape
/// reaches the terminal and no value makes a line of its own.
#[test]
fn catalog_commands_show_control_characters_as_pictures() {
    let tmp = tempfile::tempdir().unwrap();
    write(
        &tmp.path().join("evil\nOK: x/SKILL.md"),
        "---\nname: \"k\\e[2J\\nOK: y\"\ndescription: \"Use when\\e]0;t\\a testing.\"\n---\nBody.\n",
    );
    for args in [
        &["list", "."][..],
        &["tokens", "."],
        &["show", "k\u{1b}[2J\nOK: y", "."],
    ] {
        let run = skillc(tmp.path(), args);
        assert_eq!(run.code, Some(0), "{args:?}: {}", run.stderr);
        assert!(
            !run.stdout.contains('\u{1b}') && !run.stdout.contains('\u{7}'),
            "{}",
            run.stdout
        );
        assert!(
            !run.stdout.lines().any(|l| l.starts_with("OK")),
            "{args:?}: {}",
            run.stdout
        );
        assert!(
            run.stdout.contains("k␛[2J␊OK: y"),
            "{args:?}: {}",
            run.stdout
        );
    }
    let run = skillc(tmp.path(), &["validate", "--format", "github", "."]);
    assert!(!run.stdout.contains('\u{1b}'), "{}", run.stdout);
}

/// JSON and SARIF escape what serde_json would leave raw but a terminal may act on (C1
/// controls, DEL, bidirectional overrides): the same JSON values, safe to print.
#[test]
fn json_outputs_escape_c1_controls_and_bidi() {
    let tmp = tempfile::tempdir().unwrap();
    write(
        &tmp.path().join("c1/SKILL.md"),
        "---\nname: c1\ndescription: Use when testing.\n---\nSee [x](gone\u{9b}\u{202e}.md).\n",
    );
    for format in ["json", "sarif"] {
        let run = skillc(tmp.path(), &["validate", "--format", format, "c1"]);
        assert_eq!(run.code, Some(1));
        assert!(!run.stdout.contains('\u{9b}') && !run.stdout.contains('\u{202e}'));
        assert!(
            run.stdout.contains("gone\\u009b\\u202e.md"),
            "{}",
            run.stdout
        );
        let _: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    }
}

/// The helps of the text rules (SK006, SK010, SK102, SK103, SK304) give the exact line to
/// write, and never one that is wrong: no invalid directory name, no rewritten `Tool(a, b)`
/// pattern, no string for a tool name with a space.
#[test]
fn text_rule_helps_give_the_exact_fix() {
    let expected: &[(&str, &str, &str, &str)] = &[
        (
            "sk006-indicator",
            "alias/SKILL.md",
            "SK006",
            "quote the value: `description: '*bold* text, use when testing'`",
        ),
        (
            "sk006-indicator",
            "at/SKILL.md",
            "SK006",
            "quote the value: `description: '@mention the user when testing'`",
        ),
        (
            "sk006-indicator",
            "flow/SKILL.md",
            "SK006",
            "quote the value: `description: '[draft] Use when testing'`",
        ),
        (
            "sk006-indicator",
            "folded/SKILL.md",
            "SK006",
            "quote the value: `description: '> Use when testing'` (or, for a block of text, write `description: >` and the text on the lines below it, indented)",
        ),
        (
            "sk006-indicator",
            "quoted/SKILL.md",
            "SK006",
            "quote the value: `description: '\"Draft\" skill, use when it''s tested'`",
        ),
        (
            "sk006-continued-value",
            "continued/SKILL.md",
            "SK006",
            "quote the value that begins on line 3: a plain value cannot hold `: `",
        ),
        (
            "sk006-mapping-values",
            "colon-value/SKILL.md",
            "SK006",
            "quote the value: `description: 'Use when: a: b'`",
        ),
        (
            "sk006-tab-indent",
            "tab-indent/SKILL.md",
            "SK006",
            "indent with spaces: YAML does not allow tabs for indentation",
        ),
        (
            "sk010-y-n",
            "yes-no/skill.md",
            "SK010",
            "quote it: \"y\"; write `true` if a boolean is meant",
        ),
        (
            "sk010-tilde",
            "tilde-null/skill.md",
            "SK010",
            "write `null` if no value is meant, or quote it: \"~\"",
        ),
        (
            "sk102-nfkc-ascii",
            "my-skill/SKILL.md",
            "SK102",
            "some uploaders and clients accept only `a-z`, `0-9` and `-`; use `name: my-skill`",
        ),
        (
            "sk102-non-ascii",
            "café/SKILL.md",
            "SK102",
            "some uploaders and clients accept only `a-z`, `0-9` and `-`; use `name: cafe` (and name the directory `cafe`)",
        ),
        (
            "sk102-cjk",
            "技能/SKILL.md",
            "SK102",
            "some uploaders and clients accept only `a-z`, `0-9` and `-`; consider an ASCII name",
        ),
        (
            "sk103-invalid-directory",
            "Meeting Notes/SKILL.md",
            "SK103",
            "rename the directory to `meeting-notes`",
        ),
        (
            "sk103-mismatch",
            "pdf/SKILL.md",
            "SK103",
            "rename the directory to `pdf-tools`, or set `name: pdf`",
        ),
        (
            "sk304-patterns",
            "comma-patterns/SKILL.md",
            "SK304",
            "write `allowed-tools: Read Bash(git log, git diff) Grep`",
        ),
        (
            "sk304-patterns",
            "list-patterns/SKILL.md",
            "SK304",
            "write `allowed-tools: Read Bash(ls *) Agent(a:scan, a:verify)`",
        ),
        (
            "targets-fields",
            "skills/plain/SKILL.md",
            "SK305",
            "no runtime was detected for this skill, so it is checked against the open specification; `effort` is read by Claude Code (`claude-code`): skills under `.claude/skills/`, or in a Claude Code plugin, target it; elsewhere set `targets = [\"claude-code\"]` in skillc.toml or pass `--target claude-code`. Passing `--target spec` makes this an error (SK013)",
        ),
        ("sk006-text-before-mapping", "notes/SKILL.md", "SK006", ""),
        (
            "sk304-patterns",
            "spaced-name/SKILL.md",
            "SK304",
            "`Web Search` contains a space, which a space-separated string cannot express; check the tool's name in the runtime you target",
        ),
    ];
    for (case, path, code, help) in expected {
        let run = skillc(&fixture(case), &["validate", "--format", "json"]);
        let doc: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
        let found = doc["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .find(|d| d["path"] == *path && d["code"] == *code)
            .unwrap_or_else(|| panic!("{case}: no {code} on {path}"));
        // An empty help in the table: the diagnostic has none (a hint would be wrong).
        let help = Some(*help).filter(|h| !h.is_empty());
        assert_eq!(found["help"].as_str(), help, "{case} {path}");
    }
}

#[test]
fn rule_says_how_it_fixes_and_its_tags_from_the_registry() {
    let tmp = tempfile::tempdir().unwrap();
    let run = skillc(tmp.path(), &["rule", "SK303"]);
    assert_eq!(run.code, Some(0));
    assert!(run.stdout.starts_with(
        "SK303 metadata-value-type\nSeverity: warning · Dialects: agentskills · Fix: safe or unsafe · Tags: form\n"
    ), "{}", run.stdout);
    let run = skillc(tmp.path(), &["rule", "SK503"]);
    assert!(run.stdout.starts_with(
        "SK503 budget-exceeded\nSeverity: error · Dialects: par, agentskills · Fix: none · Tags: collection, tokens\n"
    ), "{}", run.stdout);
}

/// `--version` names the commit built and its date, as ruff does (`skillc 0.1.0 (abc1234
/// 2026-11-26)`), when built from a git checkout.
#[test]
fn version_names_the_commit() {
    let run = skillc(Path::new(env!("CARGO_MANIFEST_DIR")), &["--version"]);
    assert_eq!(run.code, Some(0));
    let line = run.stdout.trim_end();
    let expected = format!("skillc {}", env!("CARGO_PKG_VERSION"));
    let head = Command::new("git")
        .args(["log", "-1", "--format=%h %cs", "--abbrev=7"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string());
    match head {
        Some(head) if Path::new(env!("CARGO_MANIFEST_DIR")).join(".git").exists() => {
            assert_eq!(line, format!("{expected} ({head})"))
        }
        _ => assert_eq!(line, expected),
    }
}

/// docs/commands.md lists every flag of every command as `--help` has it.
#[test]
fn docs_flag_tables_match_help() {
    let (open, close) = ("<!-- flags:start -->", "<!-- flags:end -->");
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/commands.md");
    let text = fs::read_to_string(&path).unwrap();
    let expected = format!("{open}\n{}{close}", skillc::cli::reference::flag_tables());
    let start = text
        .find(open)
        .expect("docs/commands.md has the flags' start marker");
    let end = text
        .find(close)
        .expect("docs/commands.md has the flags' end marker")
        + close.len();
    if std::env::var_os("SKILLC_BLESS").is_some() {
        fs::write(
            &path,
            format!("{}{expected}{}", &text[..start], &text[end..]),
        )
        .unwrap();
        return;
    }
    assert_eq!(
        &text[start..end],
        expected,
        "docs/commands.md's flag tables are out of date (SKILLC_BLESS=1 rewrites them)"
    );
    // And each is spelt as `skillc CMD --help` prints it.
    let tmp = tempfile::tempdir().unwrap();
    for section in expected.split("### `skillc ").skip(1) {
        let command = section.split('`').next().unwrap();
        let help = skillc(tmp.path(), &[command, "--help"]).stdout;
        for flag in section.lines().filter_map(|l| l.strip_prefix("| `")) {
            let flag = flag.split([' ', '`']).next().unwrap();
            if flag.starts_with('-') {
                assert!(
                    help.contains(flag),
                    "`skillc {command} --help` lacks {flag}"
                );
            }
        }
    }
}

/// The exit codes are in `--help`, not only in the documentation.
#[test]
fn help_lists_the_exit_codes() {
    let tmp = tempfile::tempdir().unwrap();
    for args in [&["--help"][..], &["validate", "--help"], &["check", "-h"]] {
        let run = skillc(tmp.path(), args);
        assert_eq!(run.code, Some(0));
        assert!(
            run.stdout.contains(
                "Exit codes:\n  0  no errors (and, with --strict, no warnings)\n  1  errors found"
            ) && run.stdout.contains("  3  a file could not be read"),
            "{args:?}: {}",
            run.stdout
        );
    }
}
