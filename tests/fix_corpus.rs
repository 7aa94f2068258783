//! `--fix --unsafe-fixes` on a copy of every repository of `../shared/corpus/`: every file it
//! changes still parses, no fixable diagnostic remains, no rule reports more than before, a
//! second run changes no byte, and what it fixed per repository is pinned
//! (`tests/data/corpus-fixes.txt`; `SKILLC_BLESS=1` rewrites it).

use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;

mod common;

const REPOSITORIES: [&str; 4] = [
    "anthropics+claude-plugins-official",
    "anthropics+skills",
    "obra+superpowers",
    "trailofbits+skills",
];

fn skillc(root: &Path, repo: &str, args: &[&str]) -> (String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_skillc"))
        .args(["validate", "--no-config"])
        .args(args)
        .arg(".")
        .current_dir(root.join(repo))
        .env("HOME", root.join("home"))
        .env_remove("SKILLC_FORMAT")
        .env_remove("SKILLC_OUTPUT_FORMAT")
        .env("NO_COLOR", "1")
        .output()
        .unwrap();
    (
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

/// Every file of a tree and its bytes.
fn snapshot(root: &Path) -> BTreeMap<String, Vec<u8>> {
    let mut out = BTreeMap::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            let meta = std::fs::symlink_metadata(&path).unwrap();
            if meta.is_dir() {
                stack.push(path);
            } else if meta.is_file() {
                let rel = path.strip_prefix(root).unwrap().display().to_string();
                out.insert(rel, std::fs::read(&path).unwrap());
            }
        }
    }
    out
}

/// The diagnostics of a JSON run: (code, path, whether this run can fix it).
fn diagnostics(json: &str) -> Vec<(String, String, bool)> {
    let doc: serde_json::Value = serde_json::from_str(json).unwrap();
    doc["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            (
                d["code"].as_str().unwrap().to_string(),
                d["path"].as_str().unwrap().to_string(),
                d["fix"]["available"] == serde_json::Value::Bool(true),
            )
        })
        .collect()
}

fn per_code(diagnostics: &[(String, String, bool)]) -> BTreeMap<String, usize> {
    let mut counts = BTreeMap::new();
    for (code, _, _) in diagnostics {
        *counts.entry(code.clone()).or_default() += 1;
    }
    counts
}

#[test]
fn fixing_the_corpus_makes_nothing_worse_and_is_idempotent() {
    let Some(tmp) = common::extract_corpus() else {
        return;
    };
    let root = tmp.path();
    std::fs::create_dir_all(root.join("home")).unwrap();
    let unsafe_json = ["--unsafe-fixes", "--format", "json"];
    let mut pinned = String::new();
    for repo in REPOSITORIES {
        let before_files = snapshot(&root.join(repo));
        let before = diagnostics(&skillc(root, repo, &unsafe_json).0);
        let (_, stderr) = skillc(
            root,
            repo,
            &["--fix", "--unsafe-fixes", "--show-fixes", "-q"],
        );
        let after_files = snapshot(&root.join(repo));
        let after = diagnostics(&skillc(root, repo, &unsafe_json).0);
        assert!(
            !stderr.contains("internal error"),
            "{repo}: a fix made things worse:\n{stderr}"
        );
        // No fixable diagnostic remains; no rule reports more than before.
        let left: Vec<_> = after.iter().filter(|d| d.2).collect();
        assert!(
            left.is_empty(),
            "{repo}: fixable diagnostics remain: {left:?}"
        );
        let (was, now) = (per_code(&before), per_code(&after));
        for (code, n) in &now {
            assert!(
                *n <= was.get(code).copied().unwrap_or(0),
                "{repo}: {code} reports {n}, before {was:?}"
            );
        }
        // Every changed file still parses; nothing but skill files changed.
        let changed: Vec<&String> = after_files
            .iter()
            .filter(|(rel, bytes)| before_files.get(*rel) != Some(bytes))
            .map(|(rel, _)| rel)
            .collect();
        assert_eq!(
            before_files.len(),
            after_files.len(),
            "{repo}: files appeared"
        );
        for rel in &changed {
            assert!(
                rel.ends_with("SKILL.md") || rel.ends_with("skill.md"),
                "{repo}: {rel} changed"
            );
            assert!(
                !after
                    .iter()
                    .any(|(code, path, _)| code == "SK006" && path == *rel),
                "{repo}: {rel} no longer parses"
            );
        }
        // Fixing again changes no byte.
        skillc(root, repo, &["--fix", "--unsafe-fixes", "-q"]);
        assert!(
            snapshot(&root.join(repo)) == after_files,
            "{repo}: a second run changed files"
        );
        let fixed_line = stderr
            .lines()
            .filter(|l| !l.starts_with("Checked"))
            .collect::<Vec<_>>()
            .join("\n");
        pinned += &format!(
            "== {repo}\n{fixed_line}\nfiles changed: {}\n",
            changed.len()
        );
    }
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/corpus-fixes.txt");
    if std::env::var_os("SKILLC_BLESS").is_some() {
        std::fs::write(&path, &pinned).unwrap();
    }
    let expected = std::fs::read_to_string(&path).unwrap_or_default();
    assert_eq!(pinned, expected, "what --fix does on the corpus changed");
}

/// The text with every suppression comment `--add-noqa` writes taken out.
fn without_comments(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for line in text.split_inclusive('\n') {
        let trimmed = line.trim_start();
        if trimmed.starts_with("# skillc: ignore[") || trimmed.starts_with("# skillc: ignore-file[")
        {
            continue;
        }
        let mut line = line.to_string();
        while let Some(start) = line.find(" <!-- skillc: ignore[") {
            let Some(len) = line[start..].find(" -->") else {
                break;
            };
            line.replace_range(start..start + len + 4, "");
        }
        out.push_str(&line);
    }
    out
}

#[test]
fn add_noqa_on_the_corpus_leaves_no_diagnostic_and_adds_only_comments() {
    let Some(tmp) = common::extract_corpus() else {
        return;
    };
    let root = tmp.path();
    std::fs::create_dir_all(root.join("home")).unwrap();
    for repo in REPOSITORIES {
        let before_files = snapshot(&root.join(repo));
        let (_, stderr) = skillc(root, repo, &["--add-noqa"]);
        assert!(stderr.starts_with("Added "), "{repo}: {stderr}");
        assert!(!stderr.contains("no comment can cover"), "{repo}: {stderr}");
        let after_files = snapshot(&root.join(repo));
        assert_eq!(
            before_files.len(),
            after_files.len(),
            "{repo}: files appeared"
        );
        let mut changed = 0;
        for (rel, bytes) in &after_files {
            let before = &before_files[rel];
            if before == bytes {
                continue;
            }
            changed += 1;
            let text = String::from_utf8(bytes.clone()).unwrap();
            assert_eq!(
                without_comments(&text).as_bytes(),
                before.as_slice(),
                "{repo}: {rel} changed beyond its comments"
            );
        }
        assert!(changed > 0, "{repo}: nothing was added");
        let (stdout, stderr) = skillc(root, repo, &["--format", "concise"]);
        assert_eq!(stdout, "", "{repo}: diagnostics remain");
        assert!(
            stderr.ends_with(": 0 errors, 0 warnings, 0 infos.\n"),
            "{repo}: {stderr}"
        );
        let (_, again) = skillc(root, repo, &["--add-noqa"]);
        assert_eq!(
            again, "Added 0 suppression comments in 0 files.\n",
            "{repo}"
        );
        assert_eq!(
            snapshot(&root.join(repo)),
            after_files,
            "{repo}: a second run changed bytes"
        );
    }
}
