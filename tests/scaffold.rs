//! `skillc new` and `skillc init`: every template validates clean, nothing is overwritten,
//! output is deterministic.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

fn skillc(dir: &Path, args: &[&str]) -> (Option<i32>, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_skillc"))
        .current_dir(dir)
        .env("HOME", dir.join("home"))
        .env("SOURCE_DATE_EPOCH", "1795000000")
        .args(args)
        .output()
        .unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Every file under `dir` with its contents and mode, sorted.
fn snapshot(dir: &Path) -> Vec<(PathBuf, Vec<u8>, u32)> {
    use std::os::unix::fs::PermissionsExt;
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in fs::read_dir(&d).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else {
                let mode = fs::metadata(&path).unwrap().permissions().mode() & 0o777;
                out.push((
                    path.strip_prefix(dir).unwrap().to_path_buf(),
                    fs::read(&path).unwrap(),
                    mode,
                ));
            }
        }
    }
    out.sort();
    out
}

#[test]
fn every_template_in_every_dialect_validates_clean() {
    let tmp = tempfile::tempdir().unwrap();
    for dialect in ["agentskills", "par"] {
        for template in ["minimal", "standard", "scripts"] {
            for description in [
                None,
                Some("Fills \"forms\": PDFs & more # not a comment. Use when asked."),
            ] {
                let name = format!(
                    "{dialect}-{template}-{}",
                    description.map_or("default", |_| "custom")
                );
                let mut args = vec![
                    "new",
                    &name,
                    "--dialect",
                    dialect,
                    "--template",
                    template,
                    "--path",
                    "out",
                    "--yes",
                ];
                if let Some(d) = description {
                    args.extend(["--description", d]);
                }
                let (code, stdout, stderr) = skillc(tmp.path(), &args);
                assert_eq!(code, Some(0), "{name}: {stderr}");
                assert_eq!(stdout, "");
                assert!(
                    stderr.starts_with(&format!(
                        "Created skill `{name}` ({dialect}, {template} template):\n"
                    )),
                    "{stderr}"
                );
                assert!(
                    stderr.contains(&format!("Next: edit out/{name}/")),
                    "{stderr}"
                );
                let dir = format!("out/{name}");
                let (code, stdout, stderr) = skillc(
                    tmp.path(),
                    &["validate", "--strict", "--format", "concise", &dir],
                );
                if description.is_some() {
                    assert_eq!((code, stdout.as_str()), (Some(0), ""), "{name}: {stderr}");
                    assert_eq!(stderr, "Checked 1 skill: 0 errors, 0 warnings, 0 infos.\n");
                } else {
                    // The placeholder is reported, so that it is not shipped (SK115), and
                    // nothing else is.
                    assert_eq!(code, Some(1), "{name}: {stderr}");
                    assert_eq!(
                        stdout,
                        format!(
                            "{dir}/{}: warning[SK115] the description is unfinished: it ends with an ellipsis (help: write what the skill does and when to use it: the model decides from this text alone whether to load the skill)\n",
                            if dialect == "par" {
                                "skill.md:5:14"
                            } else {
                                "SKILL.md:3:14"
                            }
                        ),
                        "{name}"
                    );
                }
            }
        }
    }
}

#[test]
fn scripts_are_executable_and_answer_help() {
    use std::os::unix::fs::PermissionsExt;
    let tmp = tempfile::tempdir().unwrap();
    let (code, _, stderr) = skillc(
        tmp.path(),
        &["new", "word-count", "--template", "scripts", "--yes"],
    );
    assert_eq!(code, Some(0), "{stderr}");
    let script = tmp.path().join("word-count/scripts/run.py");
    assert_eq!(
        fs::metadata(&script).unwrap().permissions().mode() & 0o777,
        0o755
    );
    assert_eq!(
        fs::metadata(tmp.path().join("word-count/SKILL.md"))
            .unwrap()
            .permissions()
            .mode()
            & 0o777,
        0o644
    );
    let out = Command::new(&script).arg("--help").output().unwrap();
    assert!(out.status.success());
    assert!(String::from_utf8_lossy(&out.stdout).contains("usage:"));
    for dir in ["references", "assets"] {
        assert!(tmp.path().join("word-count").join(dir).is_dir(), "{dir}");
    }
}

#[test]
fn invalid_names_are_refused_with_a_suggestion() {
    let tmp = tempfile::tempdir().unwrap();
    let (code, _, stderr) = skillc(tmp.path(), &["new", "My Skill", "--yes"]);
    assert_eq!(code, Some(2));
    assert!(
        stderr.starts_with("error: invalid skill name: the name `My Skill` must be lowercase"),
        "{stderr}"
    );
    assert!(
        stderr.contains("help: try: skillc new my-skill"),
        "{stderr}"
    );
    let (code, _, stderr) = skillc(
        tmp.path(),
        &["new", "Log_Triage", "--dialect", "par", "--yes"],
    );
    assert_eq!(code, Some(2));
    assert!(
        stderr.contains("help: try: skillc new log-triage"),
        "{stderr}"
    );
    assert_eq!(
        fs::read_dir(tmp.path()).unwrap().count(),
        0,
        "nothing written"
    );
}

#[test]
fn nothing_is_overwritten() {
    let tmp = tempfile::tempdir().unwrap();
    fs::create_dir_all(tmp.path().join("taken")).unwrap();
    fs::write(tmp.path().join("taken/notes.txt"), "mine").unwrap();
    for force in [false, true] {
        let mut args = vec!["new", "taken", "--yes"];
        if force {
            args.push("--force");
        }
        let (code, _, stderr) = skillc(tmp.path(), &args);
        assert_eq!(code, Some(2), "{stderr}");
        assert!(
            stderr.contains("`taken` already exists; choose another name or --path"),
            "{stderr}"
        );
    }
    assert_eq!(
        fs::read_to_string(tmp.path().join("taken/notes.txt")).unwrap(),
        "mine"
    );
    assert!(!tmp.path().join("taken/SKILL.md").exists());
    fs::create_dir(tmp.path().join("empty")).unwrap();
    let (code, _, stderr) = skillc(tmp.path(), &["new", "empty", "--yes"]);
    assert_eq!(code, Some(2));
    assert!(
        stderr.contains("already exists (empty); pass --force"),
        "{stderr}"
    );
    let (code, _, stderr) = skillc(tmp.path(), &["new", "empty", "--yes", "--force"]);
    assert_eq!(code, Some(0), "{stderr}");
    assert!(tmp.path().join("empty/SKILL.md").is_file());
    let leftovers: Vec<_> = fs::read_dir(tmp.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with(".skillc-new-"))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
}

#[test]
fn generation_is_deterministic_and_par_goes_to_par_skills() {
    let a = tempfile::tempdir().unwrap();
    let b = tempfile::tempdir().unwrap();
    for dir in [a.path(), b.path()] {
        let (code, _, stderr) = skillc(
            dir,
            &[
                "new",
                "deploy-notes",
                "--dialect",
                "par",
                "--template",
                "scripts",
                "--yes",
            ],
        );
        assert_eq!(code, Some(0), "{stderr}");
    }
    let skill = a.path().join(".par/skills/deploy-notes/skill.md");
    assert!(skill.is_file());
    assert_eq!(snapshot(a.path()), snapshot(b.path()));
    let (_, stdout, _) = skillc(
        a.path(),
        &["new", "dated", "--template", "scripts", "--yes"],
    );
    assert_eq!(stdout, "");
    let text = fs::read_to_string(a.path().join("dated/SKILL.md")).unwrap();
    assert!(
        text.contains("2026-11-18"),
        "SOURCE_DATE_EPOCH sets the date:\n{text}"
    );
}

#[test]
fn user_template_directories() {
    let tmp = tempfile::tempdir().unwrap();
    let custom = tmp.path().join("my-templates/agentskills/standard");
    fs::create_dir_all(custom.join("references")).unwrap();
    fs::write(
        custom.join("SKILL.md"),
        "---\nname: {{ key }}\ndescription: {{ description | yaml }}\n---\n\n# {{ display_name }}\n\nSee [notes](references/notes.md).\n",
    )
    .unwrap();
    fs::write(custom.join("references/notes.md"), "Notes for {{ key }}.\n").unwrap();
    let (code, _, stderr) = skillc(
        tmp.path(),
        &[
            "new",
            "custom-one",
            "--template-dir",
            "my-templates",
            "--yes",
            "--description",
            "Use when testing.",
        ],
    );
    assert_eq!(code, Some(0), "{stderr}");
    assert_eq!(
        fs::read_to_string(tmp.path().join("custom-one/references/notes.md")).unwrap(),
        "Notes for custom-one.\n"
    );
    let (code, stdout, _) = skillc(
        tmp.path(),
        &["validate", "--strict", "--format", "concise", "custom-one"],
    );
    assert_eq!((code, stdout.as_str()), (Some(0), ""));
    // A template without its skill file, or a missing template, is a clear usage error.
    fs::remove_file(custom.join("SKILL.md")).unwrap();
    let (code, _, stderr) = skillc(
        tmp.path(),
        &[
            "new",
            "custom-two",
            "--template-dir",
            "my-templates",
            "--yes",
        ],
    );
    assert_eq!(
        (code, stderr.as_str()),
        (
            Some(2),
            "error: template `agentskills/standard` has no SKILL.md\n"
        )
    );
    let (code, _, stderr) = skillc(
        tmp.path(),
        &[
            "new",
            "custom-three",
            "--template-dir",
            "my-templates",
            "--template",
            "minimal",
            "--yes",
        ],
    );
    assert_eq!(code, Some(2));
    assert!(
        stderr.contains("has no template `agentskills/minimal`"),
        "{stderr}"
    );
    assert!(!tmp.path().join("custom-two").exists() && !tmp.path().join("custom-three").exists());
}

#[test]
fn init_adds_a_skill_file_named_after_the_directory() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("release-notes");
    fs::create_dir(&dir).unwrap();
    let (code, _, stderr) = skillc(tmp.path(), &["init", "release-notes", "--yes"]);
    assert_eq!(code, Some(0), "{stderr}");
    assert_eq!(
        stderr.lines().next(),
        Some("Created release-notes/SKILL.md")
    );
    // The placeholder description is reported (SK115), and nothing else.
    let (code, stdout, _) = skillc(
        tmp.path(),
        &[
            "validate",
            "--strict",
            "--format",
            "concise",
            "release-notes",
        ],
    );
    assert_eq!(
        (code, stdout.as_str()),
        (
            Some(1),
            "release-notes/SKILL.md:3:14: warning[SK115] the description is unfinished: it ends with an ellipsis (help: write what the skill does and when to use it: the model decides from this text alone whether to load the skill)\n"
        )
    );
    let before = fs::read(dir.join("SKILL.md")).unwrap();
    let (code, _, stderr) = skillc(&dir, &["init", "--yes"]);
    assert_eq!(
        (code, stderr.as_str()),
        (
            Some(2),
            "error: `./SKILL.md` already exists; nothing was written\n"
        )
    );
    assert_eq!(fs::read(dir.join("SKILL.md")).unwrap(), before);
    fs::create_dir(tmp.path().join("Bad Name")).unwrap();
    let (code, _, stderr) = skillc(tmp.path(), &["init", "Bad Name", "--yes"]);
    assert_eq!(code, Some(2));
    assert!(
        stderr.contains("help: rename the directory to `bad-name` first"),
        "{stderr}"
    );
    let par = tmp.path().join("triage");
    fs::create_dir(&par).unwrap();
    let (code, _, _) = skillc(tmp.path(), &["init", "triage", "--dialect", "par", "--yes"]);
    assert_eq!(code, Some(0));
    assert!(par.join("skill.md").is_file());
}

/// A write that fails half-way (here: a file-size limit of 0 kills the process at its first
/// write) leaves no skill file behind, so the next `init` works.
#[test]
fn init_interrupted_leaves_no_skill_file() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("my-tool");
    std::fs::create_dir(&dir).unwrap();
    let status = Command::new("sh")
        .current_dir(tmp.path())
        .arg("-c")
        .arg(format!(
            "ulimit -f 0; exec '{}' init my-tool --yes --description 'Use when testing init.'",
            env!("CARGO_BIN_EXE_skillc")
        ))
        .status()
        .unwrap();
    assert!(!status.success());
    assert!(!dir.join("SKILL.md").exists());
    let out = Command::new(env!("CARGO_BIN_EXE_skillc"))
        .current_dir(tmp.path())
        .args([
            "init",
            "my-tool",
            "--yes",
            "--description",
            "Use when testing init.",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert!(
        std::fs::read_to_string(dir.join("SKILL.md"))
            .unwrap()
            .starts_with("---\nname: my-tool\n")
    );
}
