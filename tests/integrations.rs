//! CI and editor integration: SARIF against the official schema, GitHub annotations, the
//! problem matcher, shell completions, the pre-commit hooks and the GitHub Action.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn skillc(dir: &Path, args: &[&str]) -> (Option<i32>, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_skillc"))
        .current_dir(dir)
        .env("HOME", dir.join("home"))
        .env_remove("SKILLC_FORMAT")
        .env_remove("SKILLC_OUTPUT_FORMAT")
        .args(args)
        .output()
        .unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// A tool the tests need: found on PATH or in `env`; under CI its absence fails the test,
/// elsewhere the test is skipped with a note.
fn tool(name: &str, env: &str) -> Option<PathBuf> {
    let found = std::env::var_os(env).map(PathBuf::from).or_else(|| {
        std::env::var_os("PATH").and_then(|paths| {
            std::env::split_paths(&paths)
                .map(|p| p.join(name))
                .find(|p| p.is_file())
        })
    });
    if found.is_none() {
        assert!(
            std::env::var_os("CI").is_none(),
            "{name} is required under CI (set {env})"
        );
        eprintln!("skipping: {name} not found (set {env})");
    }
    found
}

#[test]
fn sarif_is_valid_against_the_sarif_2_1_0_schema() {
    let schema: serde_json::Value = serde_json::from_str(
        &fs::read_to_string(repo().join("tests/data/sarif-2.1.0-rtm.5.json")).unwrap(),
    )
    .unwrap();
    let validator = jsonschema::draft4::new(&schema).unwrap();
    for case in [
        "sk111-description-too-long",
        "sk011-file-too-large",
        "sk602-across-skills",
        "sk008-duplicate-key",
        // Fixes: safe ones, an unsafe multi-edit move, an unsafe name.
        "fix-keeps-bom-crlf-comments",
        "sk013-unknown-agentskills",
        "sk103-mismatch",
    ] {
        let (code, stdout, stderr) = skillc(
            &repo().join("fixtures/err").join(case),
            &["validate", "--format", "sarif"],
        );
        assert_eq!(code, Some(1), "{case}");
        assert_eq!(stderr, "", "sarif prints no summary line");
        let doc: serde_json::Value = serde_json::from_str(&stdout).unwrap();
        let errors: Vec<String> = validator
            .iter_errors(&doc)
            .map(|e| format!("{} at {}", e, e.instance_path()))
            .collect();
        assert!(errors.is_empty(), "{case}: {errors:#?}");
        let run = &doc["runs"][0];
        let fixes: Vec<&serde_json::Value> = run["results"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|r| r.get("fixes"))
            .collect();
        let expected_fixes = match case {
            "fix-keeps-bom-crlf-comments" => 2,
            "sk013-unknown-agentskills" | "sk103-mismatch" => 1,
            _ => 0,
        };
        assert_eq!(fixes.len(), expected_fixes, "{case}: {fixes:?}");
        assert_eq!(run["columnKind"], "unicodeCodePoints");
        assert_eq!(run["tool"]["driver"]["name"], "skillc");
        let rules = run["tool"]["driver"]["rules"].as_array().unwrap();
        let (_, table, _) = skillc(&repo(), &["rule"]);
        assert_eq!(
            rules.len(),
            table.lines().count() - 1,
            "every rule is described"
        );
        for rule in rules {
            assert!(rule["fullDescription"]["text"].as_str().unwrap().len() > 20);
            assert!(rule["help"]["text"].as_str().unwrap().contains("## Fix"));
        }
    }
    let (_, stdout, _) = skillc(
        &repo().join("fixtures/err/sk111-description-too-long"),
        &["validate", "--format", "sarif"],
    );
    let doc: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    let result = &doc["runs"][0]["results"][0];
    assert_eq!(result["ruleId"], "SK111");
    assert_eq!(result["level"], "error");
    let location = &result["locations"][0]["physicalLocation"];
    assert_eq!(location["artifactLocation"]["uri"], "pdf/SKILL.md");
    assert_eq!(
        location["region"],
        serde_json::json!({"startLine": 3, "startColumn": 14, "endLine": 3, "endColumn": 1114})
    );
}

#[test]
fn github_annotations() {
    let (code, stdout, _) = skillc(
        &repo().join("fixtures/err/sk111-description-too-long"),
        &["validate", "--format", "github"],
    );
    assert_eq!(code, Some(1));
    assert_eq!(
        stdout,
        "::error file=pdf/SKILL.md,line=3,col=14,endLine=3,endColumn=1114,title=skillc (SK111)::description is 1,100 characters long; the limit is 1,024%0Ahelp: shorten the description to what the skill does and when to use it; move details into the body\n"
    );
    let (_, stdout, _) = skillc(
        &repo().join("fixtures/err/sk011-file-too-large"),
        &["validate", "--format", "github"],
    );
    assert_eq!(
        stdout,
        "::error file=big-file/SKILL.md,title=skillc (SK011)::the skill file is 551 bytes; `max-file-size` is 200 bytes%0Ahelp: move long material into files under references/ that the body links, or raise `max-file-size` in skillc.toml\n"
    );
    let (code, stdout, _) = skillc(
        &repo().join("fixtures/err/sk113-no-trigger"),
        &["validate", "--format", "github"],
    );
    assert_eq!(code, Some(0));
    assert!(
        stdout.starts_with("::notice file=sql-format/SKILL.md,line=3,col=14,"),
        "{stdout}"
    );
    // --statistics, -o and --exit-zero work with every format.
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("out.txt");
    let (code, stdout, _) = skillc(
        &repo().join("fixtures/err/sk111-description-too-long"),
        &[
            "validate",
            "--format",
            "github",
            "--exit-zero",
            "-o",
            out.to_str().unwrap(),
        ],
    );
    assert_eq!((code, stdout.as_str()), (Some(0), ""));
    assert!(
        fs::read_to_string(&out)
            .unwrap()
            .starts_with("::error file=pdf/SKILL.md")
    );
}

#[test]
fn problem_matcher_matches_concise_output() {
    let matcher: serde_json::Value = serde_json::from_str(
        &fs::read_to_string(repo().join(".github/skillc-matcher.json")).unwrap(),
    )
    .unwrap();
    let pattern = &matcher["problemMatcher"][0]["pattern"][0];
    let regex = regex::Regex::new(pattern["regexp"].as_str().unwrap()).unwrap();
    let group = |name: &str| pattern[name].as_u64().unwrap() as usize;
    let (_, stdout, _) = skillc(
        &repo().join("fixtures/err"),
        &["validate", "--format", "concise", "--quiet"],
    );
    let mut matched = 0;
    for line in stdout.lines() {
        let caps = regex.captures(line);
        if line.contains(": info[") {
            assert!(caps.is_none(), "info lines are not annotations: {line}");
            continue;
        }
        let caps = caps.unwrap_or_else(|| panic!("not matched: {line}"));
        let code = &caps[group("code")];
        assert!(
            line.contains(&format!("[{code}] {}", &caps[group("message")])),
            "{line}"
        );
        assert!(line.starts_with(&caps[group("file")]), "{line}");
        matched += 1;
    }
    assert!(matched > 50, "only {matched} lines");
    let line = "skills/pdf/SKILL.md:3:14: error[SK111] description is 1,100 characters long; the limit is 1,024";
    let caps = regex.captures(line).unwrap();
    assert_eq!(
        (
            &caps[group("file")],
            &caps[group("line")],
            &caps[group("column")],
            &caps[group("severity")],
            &caps[group("code")]
        ),
        ("skills/pdf/SKILL.md", "3", "14", "error", "SK111")
    );
    let caps = regex
        .captures("big/SKILL.md: error[SK011] too big")
        .unwrap();
    assert_eq!(
        (&caps[group("file")], caps.get(group("line"))),
        ("big/SKILL.md", None)
    );
}

#[test]
fn completions_for_every_shell() {
    for (shell, marker) in [
        ("bash", "complete -F"),
        ("zsh", "#compdef skillc"),
        ("fish", "complete -c skillc"),
        ("powershell", "Register-ArgumentCompleter"),
        ("elvish", "edit:completion:arg-completer[skillc]"),
    ] {
        let (code, stdout, _) = skillc(&repo(), &["completions", shell]);
        assert_eq!(code, Some(0), "{shell}");
        assert!(stdout.contains(marker), "{shell}: {marker}");
        assert!(stdout.contains("validate"), "{shell}");
    }
    let (code, _, stderr) = skillc(&repo(), &["completions", "tcsh"]);
    assert_eq!(code, Some(2));
    assert!(stderr.contains("invalid value 'tcsh'"), "{stderr}");
}

/// bash completes rule codes and names (`skillc rule`, `--select`) and the keys of the skills
/// under the current directory (`skillc show`); zsh and fish get the same values.
#[test]
fn completions_complete_rules_and_skill_keys() {
    let (_, script, _) = skillc(&repo(), &["completions", "bash"]);
    let tmp = tempfile::tempdir().unwrap();
    let file = tmp.path().join("skillc.bash");
    fs::write(&file, &script).unwrap();
    let path = path_with_skillc();
    let complete = |words: &str| -> String {
        let program = format!(
            "source '{}'; COMP_WORDS=({words}); COMP_CWORD=$((${{#COMP_WORDS[@]}} - 1)); COMP_LINE=\"{words}\"; COMP_POINT=${{#COMP_LINE}}; _skillc_with_keys skillc \"${{COMP_WORDS[COMP_CWORD]}}\" \"${{COMP_WORDS[COMP_CWORD-1]}}\"; printf '%s\\n' \"${{COMPREPLY[@]}}\" | sort",
            file.display()
        );
        let out = Command::new("bash")
            .current_dir(repo().join("fixtures/ok"))
            .env("PATH", &path)
            .args(["--norc", "-c", &program])
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).unwrap()
    };
    assert_eq!(complete("skillc show pd"), "pdf-forms\n");
    assert_eq!(
        complete("skillc rule SK40"),
        "SK401\nSK402\nSK403\nSK404\nSK405\nSK406\nSK407\nSK408\nSK409\n"
    );
    assert_eq!(complete("skillc rule broken-"), "broken-link\n");
    assert_eq!(complete("skillc validate --select secu"), "security\n");
    let (_, zsh, _) = skillc(&repo(), &["completions", "zsh"]);
    assert!(zsh.contains(":_skillc_keys' \\"), "{zsh}");
    assert!(
        zsh.contains("SK404\\:\"broken-link\""),
        "zsh: rule codes with their names"
    );
    let (_, fish, _) = skillc(&repo(), &["completions", "fish"]);
    assert!(
        fish.contains("__fish_skillc_using_subcommand show\" -f -a \"(skillc list"),
        "{fish}"
    );
    assert!(
        fish.contains("SK404\\t'broken-link'"),
        "fish: rule codes with their names"
    );
}

/// `PATH` with the directory of the skillc under test first (hooks and completion scripts
/// run `skillc` by name).
fn path_with_skillc() -> std::ffi::OsString {
    let bin_dir = PathBuf::from(env!("CARGO_BIN_EXE_skillc"))
        .parent()
        .unwrap()
        .to_path_buf();
    std::env::join_paths(std::iter::once(bin_dir).chain(std::env::split_paths(
        &std::env::var_os("PATH").unwrap_or_default(),
    )))
    .unwrap()
}

fn git(dir: &Path, args: &[&str]) {
    let status = Command::new("git")
        .current_dir(dir)
        .args([
            "-c",
            "user.name=t",
            "-c",
            "user.email=t@t",
            "-c",
            "commit.gpgsign=false",
        ])
        .args(args)
        .status()
        .unwrap();
    assert!(status.success(), "git {args:?}");
}

fn write(path: &Path, text: &str) {
    fs::create_dir_all(path.parent().unwrap()).unwrap();
    fs::write(path, text).unwrap();
}

/// pre-commit, and a fresh git repository `work` in a scratch directory (`None`: no pre-commit
/// on this machine, outside CI).
fn pre_commit_repository() -> Option<(PathBuf, tempfile::TempDir, PathBuf)> {
    let pre_commit = tool("pre-commit", "SKILLC_PRE_COMMIT")?;
    let tmp = tempfile::tempdir().unwrap();
    let work = tmp.path().join("work");
    fs::create_dir(&work).unwrap();
    git(&work, &["init", "-q"]);
    Some((pre_commit, tmp, work))
}

/// Runs `pre-commit try-repo` with one of this repository's hooks in a fresh git repository:
/// a good skill passes, then a bad one fails with skillc's diagnostics.
fn pre_commit_hook(hook: &str) {
    let Some((pre_commit, tmp, work)) = pre_commit_repository() else {
        return;
    };
    write(
        &work.join("skills/good/SKILL.md"),
        "---\nname: good\ndescription: Use when testing hooks.\n---\n\nRun [the script](scripts/run.py).\n",
    );
    write(&work.join("skills/good/scripts/run.py"), "print('ok')\n");
    git(&work, &["add", "-A"]);
    let path = path_with_skillc();
    let run = |files: &[&str]| {
        let out = Command::new(&pre_commit)
            .current_dir(&work)
            .env("PATH", &path)
            .env("PRE_COMMIT_HOME", tmp.path().join("cache"))
            // pre-commit's `cargo install` and the Action's share one release build.
            .envs(install_env())
            .args(["try-repo", repo().to_str().unwrap(), hook, "--files"])
            .args(files)
            .output()
            .unwrap();
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stdout).into_owned()
                + &String::from_utf8_lossy(&out.stderr),
        )
    };
    let (code, output) = run(&["skills/good/SKILL.md", "skills/good/scripts/run.py"]);
    assert_eq!(code, Some(0), "{output}");
    assert!(output.contains("Passed"), "{output}");
    write(
        &work.join("skills/bad/SKILL.md"),
        "---\nname: Bad_Name\ndescription: x\n---\nBody.\n",
    );
    git(&work, &["add", "-A"]);
    let (code, output) = run(&["skills/bad/SKILL.md", "skills/good/scripts/run.py"]);
    assert_eq!(code, Some(1), "{output}");
    assert!(output.contains("Failed"), "{output}");
    assert!(output.contains("error[SK101]"), "{output}");
    assert!(output.contains("skills/bad/SKILL.md:2:7"), "{output}");
    // Any file of a skill runs the hook: a file beside SKILL.md renamed away from its link.
    write(
        &work.join("skills/pdf/SKILL.md"),
        "---\nname: pdf\ndescription: Fills PDF forms. Use when the user has a PDF form to fill.\n---\n\nRead [the forms guide](forms.md).\n",
    );
    write(&work.join("skills/pdf/forms.md"), "# Forms\n");
    write(&work.join("README.md"), "# Skills\n");
    git(&work, &["add", "-A"]);
    git(&work, &["mv", "skills/pdf/forms.md", "skills/pdf/FORMS.md"]);
    let (code, output) = run(&["skills/pdf/FORMS.md"]);
    assert_eq!(code, Some(1), "{output}");
    assert!(output.contains("error[SK404]"), "{output}");
    assert!(output.contains("skills/pdf/SKILL.md:6:"), "{output}");
    // A file in no skill is passed over.
    let (code, output) = run(&["README.md"]);
    assert_eq!(code, Some(0), "{output}");
    assert!(output.contains("Passed"), "{output}");
}

#[test]
fn pre_commit_system_hook() {
    pre_commit_hook("skillc-system");
}

#[test]
fn pre_commit_rust_hook_builds_skillc() {
    // Builds skillc from this repository's committed HEAD, as pre-commit users get it.
    if std::env::var_os("CI").is_none() && std::env::var_os("SKILLC_SLOW_TESTS").is_none() {
        eprintln!("skipping: set SKILLC_SLOW_TESTS=1 (CI runs it)");
        return;
    }
    pre_commit_hook("skillc");
}

/// The `language: python` hook of the pre-commit mirror (integrations/pre-commit-mirror, a
/// repository of its own once published) installs the `skillc` wheel — here the one `.ci/run`
/// built (SKILLC_WHEELS) — and runs it: nothing is compiled.
#[test]
fn pre_commit_python_hook_runs_the_wheel() {
    let Some(wheels) = std::env::var_os("SKILLC_WHEELS") else {
        eprintln!(
            "skipping: set SKILLC_WHEELS to a directory holding the skillc wheel (.ci/run does)"
        );
        return;
    };
    let Some((pre_commit, tmp, work)) = pre_commit_repository() else {
        return;
    };
    let mirror = tmp.path().join("mirror");
    for file in ["pyproject.toml", ".pre-commit-hooks.yaml", "README.md"] {
        let from = repo().join("integrations/pre-commit-mirror").join(file);
        write(&mirror.join(file), &fs::read_to_string(from).unwrap());
    }
    git(&mirror, &["init", "-q"]);
    git(&mirror, &["add", "-A"]);
    git(&mirror, &["commit", "-q", "-m", "mirror"]);
    write(
        &work.join("skills/good/SKILL.md"),
        "---\nname: good\ndescription: Use when testing hooks.\n---\n\nSteps.\n",
    );
    write(
        &work.join("skills/bad/SKILL.md"),
        "---\nname: wrong\ndescription: Use when testing hooks.\n---\n\nSteps.\n",
    );
    git(&work, &["add", "-A"]);
    let run = |file: &str| {
        let out = Command::new(&pre_commit)
            .current_dir(&work)
            // No skillc on PATH but the wheel's, and the wheel from the local directory.
            .env("PATH", "/usr/local/bin:/usr/bin:/bin")
            .env("PIP_FIND_LINKS", &wheels)
            .env("PRE_COMMIT_HOME", tmp.path().join("cache"))
            .args([
                "try-repo",
                mirror.to_str().unwrap(),
                "skillc",
                "--files",
                file,
            ])
            .output()
            .unwrap();
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stdout).into_owned()
                + &String::from_utf8_lossy(&out.stderr),
        )
    };
    let (code, output) = run("skills/good/SKILL.md");
    assert_eq!(code, Some(0), "{output}");
    assert!(output.contains("Passed"), "{output}");
    let (code, output) = run("skills/bad/SKILL.md");
    assert_eq!(code, Some(1), "{output}");
    assert!(
        output.contains("error[SK103]: the name `wrong` does not match the directory name `bad`"),
        "{output}"
    );
}

#[test]
fn pre_commit_fix_hook_fixes_the_changed_skills() {
    // Builds skillc from this repository's committed HEAD, as pre-commit users get it.
    if std::env::var_os("CI").is_none() && std::env::var_os("SKILLC_SLOW_TESTS").is_none() {
        eprintln!("skipping: set SKILLC_SLOW_TESTS=1 (CI runs it)");
        return;
    }
    let Some((pre_commit, tmp, work)) = pre_commit_repository() else {
        return;
    };
    let file = work.join("skills/forms/SKILL.md");
    write(
        &file,
        "---\nname: forms\ndescription: Use when: the user fills forms.\n---\n\nBody.\n",
    );
    git(&work, &["add", "-A"]);
    let out = Command::new(&pre_commit)
        .current_dir(&work)
        .env("PRE_COMMIT_HOME", tmp.path().join("cache"))
        .envs(install_env())
        .args([
            "try-repo",
            repo().to_str().unwrap(),
            "skillc-fix",
            "--files",
        ])
        .arg("skills/forms/SKILL.md")
        .output()
        .unwrap();
    let output =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    // pre-commit fails a hook that changed files, so that they are reviewed and staged.
    assert_eq!(out.status.code(), Some(1), "{output}");
    assert!(
        output.contains("files were modified by this hook"),
        "{output}"
    );
    assert_eq!(
        fs::read_to_string(&file).unwrap(),
        "---\nname: forms\ndescription: 'Use when: the user fills forms.'\n---\n\nBody.\n"
    );
}

/// Where the slow tests' `cargo install`s build: one directory, so the release build of the
/// dependencies is made once.
fn install_target() -> PathBuf {
    repo().join("target/install")
}

/// The environment of the slow tests' `cargo install`s: one target directory
/// ([`install_target`]), and the release profile without what only makes the binary faster
/// (cross-crate LTO in one codegen unit, any optimisation): these tests check that the hooks
/// and the Action build and run skillc on a few small skills, and the release profile's speed
/// took most of CI's time (a fat-LTO build of skillc and its dependencies on 2 cores, 7 to 20
/// minutes; at opt-level 1 this test binary still took 594 s of a 1,850 s `.ci/run`). The
/// release workflow builds with the profile as it is.
fn install_env() -> [(&'static str, std::ffi::OsString); 5] {
    [
        ("CARGO_TARGET_DIR", install_target().into_os_string()),
        ("CARGO_PROFILE_RELEASE_LTO", "false".into()),
        ("CARGO_PROFILE_RELEASE_CODEGEN_UNITS", "16".into()),
        ("CARGO_PROFILE_RELEASE_OPT_LEVEL", "0".into()),
        ("CARGO_PROFILE_RELEASE_DEBUG", "false".into()),
    ]
}

/// The `run` scripts of action.yml's steps, by step name, with their `env` keys.
fn action_steps() -> Vec<(String, String)> {
    let text = fs::read_to_string(repo().join("action.yml")).unwrap();
    let doc = skillc::yaml::parse(&text, 0).unwrap();
    let root = doc.root.unwrap();
    let (_, runs) = root.get("runs").unwrap();
    assert_eq!(runs.get("using").unwrap().1.as_str(), Some("composite"));
    let skillc::yaml::Value::Seq(steps) = &runs.get("steps").unwrap().1.value else {
        panic!("steps")
    };
    // The steps that run a script (the cache step is GitHub's own action).
    steps
        .iter()
        .filter(|step| step.get("uses").is_none())
        .map(|step| {
            let name = step.get("name").unwrap().1.as_str().unwrap().to_string();
            let run = step.get("run").unwrap().1.as_str().unwrap().to_string();
            assert_eq!(step.get("shell").unwrap().1.as_str(), Some("bash"));
            (name, run)
        })
        .collect()
}

#[test]
fn github_action_steps_run_locally() {
    let steps = action_steps();
    let names: Vec<&str> = steps.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(names, ["Install skillc", "Validate"]);
    let tmp = tempfile::tempdir().unwrap();
    let path = path_with_skillc();
    let step = |name: &str, env: &[(&str, &str)], dir: &Path| {
        let script = &steps.iter().find(|(n, _)| n == name).unwrap().1;
        let output = tmp.path().join("github_output");
        let _ = fs::remove_file(&output);
        let out = Command::new("bash")
            .arg("-c")
            .arg(script)
            .current_dir(dir)
            .env("PATH", &path)
            .env("RUNNER_TEMP", tmp.path())
            .env("GITHUB_OUTPUT", &output)
            .env("GITHUB_PATH", tmp.path().join("github_path"))
            .env("GITHUB_ACTION_PATH", repo())
            .envs(install_env())
            .envs(env.iter().copied())
            .output()
            .unwrap();
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stdout).into_owned(),
            fs::read_to_string(&output).unwrap_or_default(),
        )
    };
    let (code, _, _) = step("Install skillc", &[("INPUT_INSTALL", "false")], tmp.path());
    assert_eq!(code, Some(0));
    let sarif = tmp.path().join("skillc.sarif");
    let fixtures = repo().join("fixtures");
    let (code, stdout, outputs) = step(
        "Validate",
        &[
            ("INPUT_PATHS", "err/sk111-description-too-long ok"),
            ("INPUT_ARGS", "--strict"),
            ("INPUT_SARIF", sarif.to_str().unwrap()),
        ],
        &fixtures,
    );
    assert_eq!(code, Some(1));
    assert_eq!(outputs, "exit-code=1\n");
    assert!(
        stdout
            .starts_with("::error file=err/sk111-description-too-long/pdf/SKILL.md,line=3,col=14,"),
        "{stdout}"
    );
    let doc: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(&sarif).unwrap()).unwrap();
    assert_eq!(doc["runs"][0]["results"][0]["ruleId"], "SK111");
    let (code, stdout, outputs) = step(
        "Validate",
        &[
            ("INPUT_PATHS", "ok"),
            ("INPUT_ARGS", ""),
            ("INPUT_SARIF", ""),
        ],
        &fixtures,
    );
    assert_eq!(
        (code, stdout.as_str(), outputs.as_str()),
        (Some(0), "", "exit-code=0\n")
    );
    if std::env::var_os("CI").is_some() || std::env::var_os("SKILLC_SLOW_TESTS").is_some() {
        let (code, _, _) = step("Install skillc", &[("INPUT_INSTALL", "true")], tmp.path());
        assert_eq!(code, Some(0));
        assert!(tmp.path().join("skillc/bin/skillc").is_file());
        assert_eq!(
            fs::read_to_string(tmp.path().join("github_path")).unwrap(),
            format!("{}\n", tmp.path().join("skillc/bin").display())
        );
    }
}

/// The Action installs the release binary of its version for the runner, checked against the
/// release's SHA256SUMS (a `file:` URL stands for the release here), and refuses a binary
/// that does not match them.
#[cfg(all(target_os = "linux", target_arch = "x86_64"))]
#[test]
fn github_action_installs_the_release_binary_it_can_check() {
    let steps = action_steps();
    let script = &steps.iter().find(|(n, _)| n == "Install skillc").unwrap().1;
    let tmp = tempfile::tempdir().unwrap();
    let release = tmp.path().join("releases/v0.1.0");
    let packed = tmp.path().join("skillc-x86_64-unknown-linux-gnu");
    fs::create_dir_all(&release).unwrap();
    fs::create_dir_all(&packed).unwrap();
    fs::copy(env!("CARGO_BIN_EXE_skillc"), packed.join("skillc")).unwrap();
    let archive = "skillc-x86_64-unknown-linux-gnu.tar.gz";
    let tar = Command::new("tar")
        .args(["czf", release.join(archive).to_str().unwrap(), "-C"])
        .arg(tmp.path())
        .arg("skillc-x86_64-unknown-linux-gnu")
        .status()
        .unwrap();
    assert!(tar.success());
    let digest = hex_sha256(&fs::read(release.join(archive)).unwrap());
    let run = |sums: &str, runner: &Path| {
        fs::write(release.join("SHA256SUMS"), sums).unwrap();
        let out = Command::new("bash")
            .arg("-c")
            .arg(script)
            .env("PATH", "/usr/bin:/bin")
            .env("INPUT_INSTALL", "true")
            .env("ACTION_REF", "v0.1.0")
            .env("RUNNER_OS", "Linux")
            .env("RUNNER_ARCH", "X64")
            .env("RUNNER_TEMP", runner)
            .env("GITHUB_PATH", runner.join("github_path"))
            .env("GITHUB_ACTION_PATH", repo())
            .env(
                "SKILLC_RELEASES",
                format!("file://{}", tmp.path().join("releases").display()),
            )
            .output()
            .unwrap();
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stdout).into_owned(),
        )
    };
    let good = tmp.path().join("good");
    fs::create_dir_all(&good).unwrap();
    let (code, stdout) = run(&format!("{digest}  {archive}\n"), &good);
    assert_eq!(code, Some(0), "{stdout}");
    // `--version` names the commit when built from a checkout: the line is the binary's own.
    let version = Command::new(env!("CARGO_BIN_EXE_skillc"))
        .arg("--version")
        .output()
        .unwrap();
    let version = String::from_utf8_lossy(&version.stdout).into_owned();
    assert!(version.starts_with("skillc 0.1.0"), "{version}");
    assert_eq!(stdout, format!("skillc (release binary): {version}"));
    assert!(good.join("skillc/bin/skillc").is_file());
    // A second run finds it (as the cache restores it).
    let (code, stdout) = run(&format!("{digest}  {archive}\n"), &good);
    assert_eq!(
        (code, stdout.as_str()),
        (Some(0), format!("skillc (cached): {version}").as_str())
    );
    // A digest that does not match: refused, and with no cargo on PATH the build fails too.
    let bad = tmp.path().join("bad");
    fs::create_dir_all(&bad).unwrap();
    let (code, stdout) = run(&format!("{}  {archive}\n", "0".repeat(64)), &bad);
    assert_ne!(code, Some(0));
    assert!(
        stdout.starts_with(
            "::warning::skillc v0.1.0: skillc-x86_64-unknown-linux-gnu.tar.gz does not match SHA256SUMS\nNo release binary of skillc v0.1.0 for Linux/X64: building it\n"
        ),
        "{stdout}"
    );
    assert!(!bad.join("skillc/bin/skillc").exists());
}

fn hex_sha256(bytes: &[u8]) -> String {
    use sha2::Digest;
    sha2::Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}
