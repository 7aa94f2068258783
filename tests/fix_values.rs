//! `validate --fix` keeps every value but the one a fix is for (issue 35, findings 8 and 9): a
//! fix either writes YAML that reads as meant — to YAML 1.2 and YAML 1.1 loaders alike — or is
//! not offered, and then the help says why. Never an internal error.

use std::path::Path;

mod common;
use common::{Run, skillc, write};

/// Writes `text` as the skill file of `dir`, runs `validate ARGS dir` (concise), and returns
/// the run and the file after it.
fn run(root: &Path, dir: &str, text: &[u8], args: &[&str]) -> (Run, Vec<u8>) {
    let file = root.join(dir).join("SKILL.md");
    write(&file, text);
    let mut all = vec!["validate", "--format", "concise"];
    all.extend_from_slice(args);
    all.push(dir);
    let run = skillc(root, &all);
    (run, std::fs::read(&file).unwrap())
}

/// `--fix --unsafe-fixes` on `text` in `dir`: what was written, the exit code, and standard
/// error (which never says "internal error").
fn fix_all(dir: &str, text: &[u8]) -> (String, Option<i32>, String) {
    let tmp = tempfile::tempdir().unwrap();
    let (run, after) = run(tmp.path(), dir, text, &["--fix", "--unsafe-fixes"]);
    assert!(!run.stderr.contains("internal error"), "{}", run.stderr);
    (String::from_utf8(after).unwrap(), run.code, run.stderr)
}

/// The help line of the diagnostic of `code` in the full format.
fn help_of(dir: &str, text: &[u8], code: &str) -> String {
    let tmp = tempfile::tempdir().unwrap();
    let file = tmp.path().join(dir).join("SKILL.md");
    write(&file, text);
    let run = skillc(tmp.path(), &["validate", "--format", "full", dir]);
    let at = run
        .stdout
        .find(&format!("[{code}]"))
        .unwrap_or_else(|| panic!("no {code} in {}", run.stdout));
    let help = run.stdout[at..]
        .lines()
        .find_map(|l| l.trim_start().strip_prefix("= help: "))
        .unwrap();
    help.to_string()
}

const FIXED_ALL: &str =
    "Fixed 1 problem (0 remaining).\nChecked 1 skill: 0 errors, 0 warnings, 0 infos.\n";

#[test]
fn a_block_scalar_name_is_replaced_with_its_header_and_keeps_its_line_break() {
    let (after, code, stderr) = fix_all(
        "team-skill",
        b"---\nname: |\n  My Skill\n# owner: team-x (do not remove)\ndescription: Does x. Use when y.\n---\n\nBody.\n",
    );
    assert_eq!(
        after,
        "---\nname: team-skill\n# owner: team-x (do not remove)\ndescription: Does x. Use when y.\n---\n\nBody.\n"
    );
    assert_eq!((code, stderr.as_str()), (Some(0), FIXED_ALL));
    // Folded, stripped, with a blank line after it.
    let (after, code, _) = fix_all(
        "team-skill",
        b"---\nname: >-\n  My\n  Skill\n\n# kept\ndescription: Does x. Use when y.\n---\n\nBody.\n",
    );
    assert_eq!(
        after,
        "---\nname: team-skill\n\n# kept\ndescription: Does x. Use when y.\n---\n\nBody.\n"
    );
    assert_eq!(code, Some(0));
}

#[test]
fn a_name_with_a_comment_in_its_header_or_an_anchor_is_not_rewritten() {
    for text in [
        "---\nname: | # the display name\n  My Skill\ndescription: Does x. Use when y.\n---\n\nBody.\n",
        "---\nname: &n My Skill\ndescription: Does x. Use when y.\nmetadata:\n  title: *n\n---\n\nBody.\n",
    ] {
        let (after, code, stderr) = fix_all("team-skill", text.as_bytes());
        assert_eq!(after, text);
        assert_eq!(code, Some(1), "{stderr}");
        assert!(stderr.starts_with("Nothing fixed"), "{stderr}");
    }
}

/// A name YAML 1.1 reads as a date or a number is quoted.
#[test]
fn a_name_yaml_1_1_reads_otherwise_is_quoted() {
    for (dir, written) in [("2024-01-02", "'2024-01-02'"), ("0b101", "'0b101'")] {
        let (after, code, stderr) = fix_all(
            dir,
            b"---\nname: My Skill\ndescription: Does x. Use when y.\n---\n\nBody.\n",
        );
        assert_eq!(
            after,
            format!("---\nname: {written}\ndescription: Does x. Use when y.\n---\n\nBody.\n")
        );
        assert_eq!((code, stderr.as_str()), (Some(0), FIXED_ALL));
    }
}

#[test]
fn unknown_fields_of_a_flow_mapping_are_not_moved_and_the_help_says_why() {
    let text = b"---\n{name: team-skill,\ndescription: Does x. Use when y.,\nauthor: bob\n}\n---\n\nBody.\n";
    let (after, code, stderr) = fix_all("team-skill", text);
    assert_eq!(after.as_bytes(), text);
    assert_eq!(code, Some(1));
    assert_eq!(
        stderr,
        "Nothing fixed (1 remaining).\nChecked 1 skill: 1 error, 0 warnings, 0 infos.\n"
    );
    assert_eq!(
        help_of("team-skill", text, "SK013"),
        "move it under `metadata:` as a string (`metadata:` / `  author: \"...\"`), or allow it with `extra-fields = [\"author\"]` in skillc.toml (not fixed automatically: the frontmatter is a `{…}` flow mapping)"
    );
}

#[test]
fn metadata_is_created_before_a_document_end_marker() {
    let (after, code, stderr) = fix_all(
        "team-skill",
        b"---\nname: team-skill\ndescription: Does x. Use when y.\nauthor: bob\n...\n---\n\nBody.\n",
    );
    assert_eq!(
        after,
        "---\nname: team-skill\ndescription: Does x. Use when y.\nmetadata:\n  author: bob\n...\n---\n\nBody.\n"
    );
    assert_eq!((code, stderr.as_str()), (Some(0), FIXED_ALL));
}

/// A `---` line holding a value (`--- text`) starts a second document, which ends the first:
/// `metadata:` goes before it (after it, the fix was refused as an internal error, SK006), and
/// after the lines between (a comment).
#[test]
fn metadata_is_created_before_a_document_start_holding_a_value() {
    let (after, code, stderr) = fix_all(
        "team-skill",
        b"---\nname: team-skill\ndescription: Does x. Use when y.\nauthor: bob\n# kept\n--- text\n---\n\nBody.\n",
    );
    assert_eq!(
        after,
        "---\nname: team-skill\ndescription: Does x. Use when y.\n# kept\nmetadata:\n  author: bob\n--- text\n---\n\nBody.\n"
    );
    assert_eq!(code, Some(0));
    // What remains is SK009's warning about the second document.
    assert_eq!(
        stderr,
        "Fixed 1 problem (1 remaining).\nChecked 1 skill: 0 errors, 1 warning, 0 infos.\n"
    );
}

/// A moved text that YAML 1.1 reads as a date is quoted under `metadata:`.
#[test]
fn a_moved_value_stays_text_to_yaml_1_1() {
    let (after, _, _) = fix_all(
        "team-skill",
        b"---\nname: team-skill\ndescription: Does x. Use when y.\nreleased: 2024-01-02\n---\n\nBody.\n",
    );
    assert_eq!(
        after,
        "---\nname: team-skill\ndescription: Does x. Use when y.\nmetadata:\n  released: '2024-01-02'\n---\n\nBody.\n"
    );
}

#[test]
fn a_tool_list_holding_an_anchor_is_not_rewritten_and_the_help_says_why() {
    let text = b"---\nname: team-skill\ndescription: Does x. Use when y.\nallowed-tools: [&t Read, Grep]\nmetadata:\n  x: *t\n---\n\nBody.\n";
    let (after, code, stderr) = fix_all("team-skill", text);
    assert_eq!(after.as_bytes(), text);
    assert_eq!(code, Some(0));
    assert_eq!(
        stderr,
        "Nothing fixed (3 remaining).\nChecked 1 skill: 0 errors, 3 warnings, 0 infos.\n"
    );
    assert_eq!(
        help_of("team-skill", text, "SK304"),
        "write `allowed-tools: Read Grep` (not fixed automatically: the value holds a YAML anchor, alias or tag, which rewriting it would drop)"
    );
    // Without the anchor, the list is rewritten.
    let (after, _, _) = fix_all(
        "team-skill",
        b"---\nname: team-skill\ndescription: Does x. Use when y.\nallowed-tools: [Read, Grep]\n---\n\nBody.\n",
    );
    assert_eq!(
        after,
        "---\nname: team-skill\ndescription: Does x. Use when y.\nallowed-tools: Read Grep\n---\n\nBody.\n"
    );
}

#[test]
fn a_double_quoted_value_whose_backslashes_escape_nothing_is_single_quoted() {
    let tmp = tempfile::tempdir().unwrap();
    let (run, after) = run(
        tmp.path(),
        "team-skill",
        b"---\nname: team-skill\ndescription: \"Reads C:\\data files. Use when asked.\"\n---\n\nBody.\n",
        &["--fix"],
    );
    assert_eq!(
        String::from_utf8(after).unwrap(),
        "---\nname: team-skill\ndescription: 'Reads C:\\data files. Use when asked.'\n---\n\nBody.\n"
    );
    assert_eq!((run.code, run.stderr.as_str()), (Some(0), FIXED_ALL));
}

/// `\n` is an escape, `\d` is not: which the author meant is a guess.
#[test]
fn a_double_quoted_value_with_escapes_and_non_escapes_is_not_fixed() {
    let text = b"---\nname: team-skill\ndescription: \"Reads C:\\new\\data. Use when asked.\"\n---\n\nBody.\n";
    let (after, code, _) = fix_all("team-skill", text);
    assert_eq!(after.as_bytes(), text);
    assert_eq!(code, Some(1));
    assert_eq!(
        help_of("team-skill", text, "SK006"),
        "`\\d` is no escape in double quotes: write the value in single quotes, where `\\` is itself (`description: 'Reads C:\\new\\data. Use when asked.'`), or write `\\\\` for each `\\`"
    );
}

/// To PyYAML, NEL (and LS, PS) break the line: `note` and `author` are two keys. Quoting the
/// line would make them one value.
#[test]
fn a_value_holding_a_yaml_1_1_line_break_is_not_quoted() {
    for (text, code) in [
        (
            "---\nname: team-skill\ndescription: Does x. Use when y.\nnote: Use when\u{85}author: bob\n---\n\nBody.\n",
            "U+0085",
        ),
        (
            "---\nname: team-skill\ndescription: Does x. Use when y.\nnote: Use\u{2028}x: y\n---\n\nBody.\n",
            "U+2028",
        ),
    ] {
        let (after, exit, _) = fix_all("team-skill", text.as_bytes());
        assert_eq!(after, text);
        assert_eq!(exit, Some(1));
        assert_eq!(
            help_of("team-skill", text.as_bytes(), "SK006"),
            format!(
                "remove the {code} in the value of `note`, or replace it with a space: YAML 1.1 loaders (PyYAML) read it as a line break, YAML 1.2 loaders as text"
            )
        );
    }
}

/// Without its line, an indented comment below a moved entry would join the block scalar
/// above it: the entry stays.
#[test]
fn an_entry_followed_by_an_indented_line_is_not_moved() {
    let text = "---\nname: team-skill\ndescription: >-\n  Does x.\n  Use when y.\n\nauthor: bob\n  # indented comment\n---\n\nBody.\n";
    let (after, code, _) = fix_all("team-skill", text.as_bytes());
    assert_eq!(after, text);
    assert_eq!(code, Some(1));
}

/// A plain value written where a tab separated the old one from its key (`name:<tab>'x y'`)
/// gets a space instead: saphyr rejects `name:<tab>team-skill`, PyYAML any tab there.
#[test]
fn a_plain_value_written_after_a_tab_gets_a_space() {
    let (after, code, stderr) = fix_all(
        "team-skill",
        b"---\nname:\t\t'Team skill'\ndescription: Does x. Use when y.\n---\n\nBody.\n",
    );
    assert_eq!(
        after,
        "---\nname: team-skill\ndescription: Does x. Use when y.\n---\n\nBody.\n"
    );
    assert_eq!((code, stderr.as_str()), (Some(0), FIXED_ALL));
}

/// A fix that removes what a directive suppressed (the first of two `author:` keys moved under
/// `metadata:`, so no key is duplicated) leaves the directive unused: SK019 says so, and the
/// fix is not refused as an internal error.
#[test]
fn a_fix_that_makes_a_suppression_unused_is_applied_and_sk019_reports_it() {
    let tmp = tempfile::tempdir().unwrap();
    let (run, after) = run(
        tmp.path(),
        "team-skill",
        b"---\nname: team-skill\ndescription: Does x. Use when y.\nauthor: bob\n# skillc: ignore[SK008]\nauthor: alice\n---\n\nBody.\n",
        &["--fix", "--unsafe-fixes"],
    );
    assert_eq!(
        String::from_utf8(after).unwrap(),
        "---\nname: team-skill\ndescription: Does x. Use when y.\n# skillc: ignore[SK008]\nauthor: alice\nmetadata:\n  author: bob\n---\n\nBody.\n"
    );
    assert_eq!(
        run.stdout,
        "team-skill/SKILL.md:4:18: warning[SK019] unused suppression: no `SK008` diagnostic here (help: remove it: a stale suppression would hide the next problem of this rule)\nteam-skill/SKILL.md:5:1: error[SK013] unknown field `author` for the agentskills dialect (help: move it under `metadata:` as a string (`metadata:` / `  author: \"...\"`), or allow it with `extra-fields = [\"author\"]` in skillc.toml)\n"
    );
    assert_eq!(
        run.stderr,
        "Fixed 1 problem (2 remaining).\nChecked 1 skill: 1 error, 1 warning, 0 infos.\n"
    );
    assert_eq!(run.code, Some(1));
}

/// `yes` and `on` are one key to YAML 1.1 loaders (both the boolean true): moving either
/// under `metadata:` would change what they read for the other, so neither moves.
#[test]
fn keys_that_yaml_1_1_reads_as_one_boolean_are_not_moved() {
    let text =
        b"---\nname: team-skill\ndescription: Does x. Use when y.\nyes: a\non: b\n---\n\nBody.\n";
    let (after, code, stderr) = fix_all("team-skill", text);
    assert_eq!(after.as_bytes(), text);
    assert_eq!(code, Some(1));
    assert_eq!(
        stderr,
        "Nothing fixed (4 remaining).\nChecked 1 skill: 2 errors, 2 warnings, 0 infos.\n"
    );
}
