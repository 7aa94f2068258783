//! A synthetic corpus with the shapes real skill repositories hold — odd YAML, CRLF, BOMs,
//! invalid UTF-8, huge bodies, symlinked skill files, deep trees, mutated bytes — linted in
//! one run. Nothing may panic, every skill is reported, the JSON is well-formed, and every
//! position points inside its file.

use std::fs;
use std::path::Path;
use std::process::Command;

/// A small deterministic generator (xorshift), so failures reproduce.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

const TEMPLATES: &[&str] = &[
    "---\nname: {n}\ndescription: Use when the user asks for {n}.\n---\n\n# Title\n\nSteps.\n",
    "---\nschema_version: 1\nid: {n}\nname: Skill\ndescription: Use when needed.\ntool_filter: Only [read_file, grep]\ntrigger: Keyword [log, trace] confirm\nexpected_output: '{\"a\": 1}'\n---\nBody [link](references/x.md).\n",
    "---\nname: {n}\ndescription: >-\n  Use when folded\n  over lines.\nmetadata:\n  version: \"1.10\"\n  tags: [a, b]\nallowed-tools: [Read, Grep]\n---\nBody\n",
    "---\nname: {n}\ndescription: &d Use when aliasing.\nmetadata: {x: *d, <<: {y: 1}}\n? [complex, key]\n: value\n---\n",
    "---\nname: {n}\ndescription: \"unterminated\n---\nBody\n",
    "---\n- a\n- b\n---\n",
    "---\nname: {n}\n\tdescription: tab\n---\n",
    "---\nname: {n}\ndescription: Use when\n...\nmore: doc\n",
    "no frontmatter at all\n",
    "---\n%YAML 1.1\n---\nname: {n}\n---\n",
];

const NOISE: &[&[u8]] = &[
    b"---",
    b"...",
    b"\t",
    b"\r",
    b"\r\n",
    b"\0",
    b"\xff\xfe",
    b"\xef\xbb\xbf",
    b"\xe6\x8a",
    b": ",
    b"[",
    b"]",
    b"{",
    b"}",
    b"&a",
    b"*a",
    b"!!str ",
    b"\"",
    b"'",
    b"#",
    b"\n  - ",
    b"<x>",
    b"\\",
];

fn generate(root: &Path, count: usize) {
    let mut rng = Rng(0x5eed_1234_abcd_ef01);
    for i in 0..count {
        let name = format!("s{i:04}");
        let dir = root.join(format!("g{}", i % 17)).join(&name);
        fs::create_dir_all(&dir).unwrap();
        let template = TEMPLATES[rng.below(TEMPLATES.len())].replace("{n}", &name);
        let mut bytes = template.into_bytes();
        match rng.below(10) {
            0 => {
                bytes = String::from_utf8_lossy(&bytes)
                    .replace('\n', "\r\n")
                    .into_bytes()
            }
            1 => drop(bytes.splice(0..0, *b"\xef\xbb\xbf")),
            2 => bytes.extend(
                std::iter::repeat_n(b"All work and no play. ".as_slice(), 10_000).flatten(),
            ),
            3..=5 => {
                for _ in 0..1 + rng.below(4) {
                    let at = rng.below(bytes.len() + 1);
                    let noise = NOISE[rng.below(NOISE.len())];
                    drop(bytes.splice(at..at, noise.iter().copied()));
                }
            }
            6 => {
                let at = rng.below(bytes.len());
                bytes.truncate(at);
            }
            _ => {}
        }
        let file = if rng.below(2) == 0 {
            "SKILL.md"
        } else {
            "skill.md"
        };
        fs::write(dir.join(file), &bytes).unwrap();
        match rng.below(12) {
            0 => {
                fs::create_dir_all(dir.join("references")).unwrap();
                fs::write(dir.join("references/x.md"), "x").unwrap();
                std::os::unix::fs::symlink("/etc", dir.join("references/etc")).unwrap();
            }
            1 => {
                let mut deep = dir.join("scripts");
                for level in 0..40 {
                    deep = deep.join(format!("d{level}"));
                }
                fs::create_dir_all(&deep).unwrap();
                fs::write(deep.join("run"), "x").unwrap();
            }
            2 => std::os::unix::fs::symlink(&dir, dir.join("loop")).unwrap(),
            3 => fs::write(dir.join("tools.json"), &bytes[..bytes.len().min(40)]).unwrap(),
            _ => {}
        }
    }
    // A skill whose skill file is a symlink to another skill's file.
    let linked = root.join("linked");
    fs::create_dir_all(&linked).unwrap();
    let target = root.join("g0/s0000");
    let name = if target.join("SKILL.md").exists() {
        "SKILL.md"
    } else {
        "skill.md"
    };
    std::os::unix::fs::symlink(target.join(name), linked.join(name)).unwrap();
}

#[test]
fn synthetic_corpus_never_panics_and_positions_fit() {
    let tmp = tempfile::tempdir().unwrap();
    let count = 1500;
    generate(tmp.path(), count);
    let out = Command::new(env!("CARGO_BIN_EXE_skillc"))
        .current_dir(tmp.path())
        .env("HOME", tmp.path().join("home"))
        .args(["validate", "--no-config", "--format", "json"])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert!(
        matches!(out.status.code(), Some(0 | 1)),
        "exit {:?}: {stderr}",
        out.status.code()
    );
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(doc["summary"]["skills"], count + 1);
    let diagnostics = doc["diagnostics"].as_array().unwrap();
    assert!(
        diagnostics.len() > count / 2,
        "too few diagnostics: {}",
        diagnostics.len()
    );
    for d in diagnostics {
        let Some(line) = d["line"].as_u64() else {
            continue;
        };
        let path = tmp.path().join(d["path"].as_str().unwrap());
        let bytes = fs::read(&path).unwrap();
        let text = String::from_utf8_lossy(&bytes);
        let lines: Vec<&str> = text.split('\n').collect();
        let line = line as usize;
        assert!(line >= 1 && line <= lines.len(), "{d}");
        let width = lines[line - 1].trim_end_matches('\r').chars().count();
        let column = d["column"].as_u64().unwrap() as usize;
        assert!(
            column >= 1 && column <= width + 1,
            "{d}\nline: {:?}",
            lines[line - 1]
        );
        let end = d["offset"].as_u64().unwrap() + d["length"].as_u64().unwrap();
        assert!(end as usize <= bytes.len(), "{d}");
    }
}
