//! Token counts equal OpenAI's tiktoken (vectors from the independent js-tiktoken, counts
//! pinned from Python tiktoken on adversarial and long texts and on every text file of the
//! shared corpus), and the token commands report them.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use skillc::config::Encoding;

mod common;

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn counts_equal_js_tiktoken_in_both_encodings() {
    let data: serde_json::Value = serde_json::from_str(
        &fs::read_to_string(repo().join("tests/data/token-vectors.json")).unwrap(),
    )
    .unwrap();
    let vectors = data["vectors"].as_array().unwrap();
    assert!(vectors.len() >= 30);
    for (encoding, name) in [
        (Encoding::O200kBase, "o200k_base"),
        (Encoding::Cl100kBase, "cl100k_base"),
    ] {
        let tokenizer = skillc::tokens::tokenizer(encoding).unwrap();
        for v in vectors {
            let text = v["text"].as_str().unwrap();
            assert_eq!(
                tokenizer.count(text) as u64,
                v[name].as_u64().unwrap(),
                "{name}: {text:?}"
            );
        }
    }
}

#[test]
fn counts_equal_python_tiktoken_on_pinned_vectors() {
    let data: serde_json::Value = serde_json::from_str(
        &fs::read_to_string(repo().join("tests/data/token-tiktoken.json")).unwrap(),
    )
    .unwrap();
    let vectors = data["vectors"].as_array().unwrap();
    assert!(vectors.len() >= 90);
    for (encoding, name) in [
        (Encoding::O200kBase, "o200k_base"),
        (Encoding::Cl100kBase, "cl100k_base"),
    ] {
        let tokenizer = skillc::tokens::tokenizer(encoding).unwrap();
        for v in vectors {
            let times = v["times"].as_u64().unwrap_or(1) as usize;
            let text = format!(
                "{}{}{}",
                v["prefix"].as_str().unwrap_or(""),
                v["text"].as_str().unwrap().repeat(times),
                v["suffix"].as_str().unwrap_or("")
            );
            let expected = v[name].as_u64().unwrap() as usize;
            assert_eq!(
                tokenizer.count(&text),
                expected,
                "{name}: {:?} x {times}",
                v["text"]
            );
            if text.len() > expected {
                assert!(skillc::tokens::exceeds(tokenizer, &text, expected - 1));
                assert!(!skillc::tokens::exceeds(tokenizer, &text, expected));
            }
        }
    }
}

/// Every text file of `../shared/corpus/` (2,289 files, 17 MB) counts as Python tiktoken
/// counted it (`tests/data/corpus-tokens.txt`, from `tests/data/token-tiktoken.py`).
#[test]
fn counts_equal_python_tiktoken_on_every_corpus_text_file() {
    let Some(tmp) = common::extract_corpus() else {
        return;
    };
    let pinned = fs::read_to_string(repo().join("tests/data/corpus-tokens.txt")).unwrap();
    let o200k = skillc::tokens::tokenizer(Encoding::O200kBase).unwrap();
    let cl100k = skillc::tokens::tokenizer(Encoding::Cl100kBase).unwrap();
    let mut files = 0;
    for line in pinned.lines() {
        let mut fields = line.splitn(3, ' ');
        let (Some(a), Some(b), Some(path)) = (fields.next(), fields.next(), fields.next()) else {
            panic!("bad line {line:?}");
        };
        let text = fs::read_to_string(tmp.path().join(path)).unwrap();
        assert_eq!(o200k.count(&text).to_string(), a, "o200k_base: {path}");
        assert_eq!(cl100k.count(&text).to_string(), b, "cl100k_base: {path}");
        files += 1;
    }
    assert!(files >= 2000, "{files} files");
}

/// The embedded ranks are tiktoken's own files (the `expected_hash` values of tiktoken's
/// `openai_public.py`).
#[test]
fn rank_files_are_tiktokens() {
    use sha2::Digest;
    for (name, sha256) in [
        (
            "o200k_base",
            "446a9538cb6c348e3516120d7c08b09f57c36495e2acfffe59a5bf8b0cfb1a2d",
        ),
        (
            "cl100k_base",
            "223921b76ee99bde995b7ff738513eef100fb51d18c93597a113bcffe865b2a7",
        ),
    ] {
        let data = fs::read(repo().join(format!("data/{name}.tiktoken"))).unwrap();
        let digest: String = sha2::Sha256::digest(&data)
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect();
        assert_eq!(digest, sha256, "{name}");
    }
}

fn skillc(dir: &Path, args: &[&str]) -> (Option<i32>, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_skillc"))
        .current_dir(dir)
        .env("HOME", dir.join("home"))
        .args(args)
        .output()
        .unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn skill(root: &Path, dir: &str, fm: &str) {
    let path = root.join(dir);
    fs::create_dir_all(&path).unwrap();
    let name = if fm.contains("schema_version") {
        "skill.md"
    } else {
        "SKILL.md"
    };
    fs::write(path.join(name), format!("---\n{fm}---\n\nBody text.\n")).unwrap();
}

fn par(root: &Path, dir: &str, id: &str, description: &str, extra: &str) {
    skill(
        root,
        &format!("{dir}/{id}"),
        &format!("schema_version: 1\nid: {id}\nname: N\ndescription: {description}\n{extra}"),
    );
}

#[test]
fn tokens_reports_l1_l2_l3_and_the_budget() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path();
    skill(
        root,
        "skills/pdf",
        "name: pdf\ndescription: Extracts text and tables from PDF files. Use when the user shares a PDF.\n",
    );
    fs::create_dir_all(root.join("skills/pdf/references")).unwrap();
    fs::write(root.join("skills/pdf/references/a.md"), "hello").unwrap();
    fs::write(root.join("skills/pdf/references/b.bin"), [0u8, 1, 2]).unwrap();
    let (code, stdout, _) = skillc(root, &["tokens", "--format", "json"]);
    assert_eq!(code, Some(0));
    let doc: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(doc["version"], 1);
    assert_eq!(doc["encoding"], "o200k_base");
    assert_eq!(doc["budget"], 2048);
    // The L1 line's count is one of the js-tiktoken vectors (19 tokens in o200k_base).
    assert_eq!(doc["l1_total"], 20);
    let s = &doc["skills"][0];
    assert_eq!(
        (s["key"].as_str(), s["l1"].as_u64(), s["l2"].as_u64()),
        (Some("pdf"), Some(20), Some(4))
    );
    assert_eq!(
        s["l3"],
        serde_json::json!([
            {"path": "references/a.md", "bytes": 5, "tokens": 1},
            {"path": "references/b.bin", "bytes": 3, "tokens": null}
        ])
    );
    assert_eq!(doc["dropped"], serde_json::json!([]));
    let (_, stdout, _) = skillc(
        root,
        &["tokens", "--encoding", "cl100k_base", "--format", "json"],
    );
    let doc: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(
        (doc["encoding"].as_str(), doc["l1_total"].as_u64()),
        (Some("cl100k_base"), Some(20))
    );
    let (code, stdout, _) = skillc(root, &["tokens"]);
    assert_eq!(code, Some(0));
    assert!(
        stdout.contains(
            "\nL1 total 20 tokens, o200k_base\nNo catalog budget applies to these skills' targets; `--budget N` sets one\n"
        ),
        "{stdout}"
    );
}

#[test]
fn drop_order_across_tiers_and_ties() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path();
    // Same-length descriptions tie on cost; the user tier goes first.
    par(
        root,
        "home/.par/skills",
        "u-alpha",
        "Use when alpha things happen here.",
        "",
    );
    par(
        root,
        "home/.par/skills",
        "u-beta",
        "Use when beta things happen here.",
        "",
    );
    par(
        root,
        "proj/.par/skills",
        "p-long",
        "Use when a long description costs many more tokens than the others do here.",
        "",
    );
    par(root, "proj/.par/skills", "p-short", "Use when short.", "");
    let (code, stdout, _) = skillc(
        root,
        &[
            "tokens",
            "--format",
            "json",
            "--budget",
            "20",
            "proj",
            "home/.par/skills",
        ],
    );
    assert_eq!(code, Some(1), "over budget exits 1");
    let doc: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    let costs: Vec<(String, u64)> = doc["skills"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            (
                s["key"].as_str().unwrap().to_string(),
                s["l1"].as_u64().unwrap(),
            )
        })
        .collect();
    let cost = |k: &str| costs.iter().find(|(key, _)| key == k).unwrap().1;
    assert_eq!(cost("u-alpha"), cost("u-beta"), "{costs:?}");
    // user tier first; tie broken by reverse key (u-beta before u-alpha); then the largest project entry.
    assert_eq!(
        doc["dropped"],
        serde_json::json!(["u-beta", "u-alpha", "p-long"])
    );
    let (code, stdout, _) = skillc(
        root,
        &[
            "validate",
            "--format",
            "concise",
            "--budget",
            "20",
            "proj",
            "home/.par/skills",
        ],
    );
    assert_eq!(code, Some(1));
    assert!(
        stdout.contains("error[SK503] the PAR catalog of `proj/.par/skills` is"),
        "{stdout}"
    );
    assert!(
        stdout.contains("the runtime drops `u-beta`, `u-alpha`, `p-long` (in this order)"),
        "{stdout}"
    );
}

#[test]
fn validate_counts_no_tokens_when_bytes_fit() {
    let tmp = tempfile::tempdir().unwrap();
    skill(
        tmp.path(),
        "s/small",
        "name: small\ndescription: Use when small.\n",
    );
    let (_, stdout, _) = skillc(tmp.path(), &["validate", "--format", "json"]);
    let doc: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert!(
        doc["skills"][0]["l1_tokens"].is_null(),
        "counted although bytes fit: {stdout}"
    );
    let (_, stdout, _) = skillc(
        tmp.path(),
        &["validate", "--format", "json", "--budget", "5"],
    );
    let doc: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(doc["skills"][0]["l1_tokens"], 7);
}

#[test]
fn prompt_list_and_show() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path();
    skill(
        root,
        "b-skill",
        "name: b-skill\ndescription: >-\n  Use when B\n  spans lines & has <tags>.\n",
    );
    par(
        root,
        ".par/skills",
        "a-triage",
        "Use when logs arrive.",
        "trigger: Keyword [log, stack trace] deterministic\ntool_filter: Only [read_file, grep]\n",
    );
    let (code, stdout, _) = skillc(root, &["prompt"]);
    assert_eq!(code, Some(0));
    assert_eq!(
        stdout,
        "- a-triage: Use when logs arrive.\n- b-skill: Use when B spans lines & has <tags>.\n"
    );
    let (_, stdout, _) = skillc(root, &["prompt", "--style", "xml"]);
    // <location> is the absolute path of the skill file, as discovered from the current directory.
    let location = root.join("b-skill/SKILL.md");
    assert!(
        stdout.starts_with("<available_skills>\n<skill>\n<name>a-triage</name>\n"),
        "{stdout}"
    );
    assert!(
        stdout.ends_with(&format!(
            "<skill>\n<name>b-skill</name>\n<description>Use when B spans lines &amp; has &lt;tags&gt;.</description>\n<location>{}</location>\n</skill>\n</available_skills>\n",
            location.display()
        )),
        "{stdout}"
    );
    let (_, stdout, _) = skillc(root, &["list"]);
    let lines: Vec<&str> = stdout.lines().collect();
    assert!(lines[0].starts_with("key "), "{stdout}");
    assert!(lines[1].starts_with("a-triage  par "), "{stdout}");
    assert!(
        lines[1].contains("Keyword [log, stack trace] deterministic"),
        "{stdout}"
    );
    assert!(lines[2].starts_with("b-skill   agentskills "), "{stdout}");
    let (code, stdout, _) = skillc(root, &["show", "a-triage"]);
    assert_eq!(code, Some(0));
    assert!(
        stdout.contains("→ activates when the message contains \"log\" or \"stack trace\" — immediately, no model confirmation"),
        "{stdout}"
    );
    assert!(
        stdout.contains("→ may use only read_file and grep"),
        "{stdout}"
    );
    assert!(stdout.contains("  tokens:      L1 "), "{stdout}");
    let (code, _, stderr) = skillc(root, &["show", "nope"]);
    assert_eq!(code, Some(2));
    assert_eq!(
        stderr,
        "error: no skill with key `nope` found; `skillc list` shows the keys\n"
    );
}

#[test]
fn one_budget_for_every_target_is_one_diagnostic_per_install() {
    let tmp = tempfile::tempdir().unwrap();
    skill(
        tmp.path(),
        "s/a",
        "name: a\ndescription: Use when the first thing happens.\n",
    );
    skill(
        tmp.path(),
        "s/b",
        "name: b\ndescription: Use when the second thing happens.\n",
    );
    let (code, stdout, _) = skillc(
        tmp.path(),
        &[
            "validate", "--format", "concise", "--target", "all", "--budget", "5",
        ],
    );
    assert_eq!(code, Some(1));
    let budget: Vec<&str> = stdout.lines().filter(|l| l.contains("SK503")).collect();
    assert_eq!(budget.len(), 1, "{stdout}");
    assert!(
        budget[0].contains("the Agent Skills catalog is"),
        "{stdout}"
    );
}
