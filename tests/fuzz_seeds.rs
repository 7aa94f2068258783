//! The fuzz targets (`skillc::fuzz`) over their seed corpora, on stable: every file under
//! `fuzz/seeds/<target>/` and every fixture, plus deterministic truncations and byte flips of
//! the seeds. A crash that fuzzing finds is fixed and its input added to `fuzz/seeds/<target>/`,
//! where this test keeps it fixed.

use std::path::{Path, PathBuf};

#[path = "../fuzz/fix_oracle.rs"]
mod fix_oracle;

fn files_under(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries {
        let path = entry.unwrap().path();
        let meta = std::fs::symlink_metadata(&path).unwrap();
        if meta.is_dir() {
            files_under(&path, out);
        } else if meta.is_file() {
            out.push(path);
        }
    }
}

/// A seed, some of its prefixes, and copies with one byte flipped.
fn variants(seed: &[u8]) -> Vec<Vec<u8>> {
    let mut out = vec![seed.to_vec()];
    let n = seed.len();
    for i in 1..16 {
        out.push(seed[..n * i / 16].to_vec());
        if n > 0 {
            let mut flipped = seed.to_vec();
            let at = (n * i / 16).min(n - 1);
            flipped[at] ^= 0x5a;
            out.push(flipped);
        }
    }
    out
}

#[test]
fn every_target_survives_its_seeds() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let mut fixtures = Vec::new();
    files_under(&root.join("fixtures"), &mut fixtures);
    assert!(
        fixtures.len() > 100,
        "only {} fixture files",
        fixtures.len()
    );
    for (name, target) in skillc::fuzz::TARGETS {
        // With its independent reader below.
        if *name == "fix" {
            continue;
        }
        let mut seeds = Vec::new();
        files_under(&root.join("fuzz/seeds").join(name), &mut seeds);
        assert!(!seeds.is_empty(), "no seeds for fuzz target {name}");
        let mut runs = 0;
        for seed in &seeds {
            for input in variants(&std::fs::read(seed).unwrap()) {
                target(&input);
                runs += 1;
            }
        }
        for fixture in &fixtures {
            target(&std::fs::read(fixture).unwrap());
            runs += 1;
        }
        assert!(runs > fixtures.len(), "{name}: {runs} runs");
    }
}

/// The `fix` target over its seeds (the reproductions of what the fixes got wrong), their
/// variants and the fixtures, judged by its independent reader.
#[test]
fn the_fix_target_keeps_values() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let mut seeds = Vec::new();
    files_under(&root.join("fuzz/seeds/fix"), &mut seeds);
    assert!(seeds.len() >= 8, "{} seeds", seeds.len());
    for seed in &seeds {
        for input in variants(&std::fs::read(seed).unwrap()) {
            fix_oracle::check(&input);
        }
    }
    let mut fixtures = Vec::new();
    files_under(&root.join("fixtures"), &mut fixtures);
    for fixture in &fixtures {
        fix_oracle::check(&std::fs::read(fixture).unwrap());
    }
}

/// The `fix` target's seeds are fixed: each reproduction has something the fixer now does
/// right, not an input it leaves alone for want of parsing it.
#[test]
fn the_fix_target_fixes_its_seeds() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let seed = |name: &str| std::fs::read(root.join("fuzz/seeds/fix").join(name)).unwrap();
    let fixed = |name: &str| {
        let run = skillc::fuzz::fix_checked(&seed(name));
        (String::from_utf8(run.fixed).unwrap(), run.applied)
    };
    assert_eq!(
        fixed("block-scalar-name.md"),
        (
            "---\nname: fuzz-skill\n# owner: team-x (do not remove)\ndescription: Does x. Use when y.\n---\n\nBody.\n".to_string(),
            vec!["SK101"]
        )
    );
    assert_eq!(
        fixed("invalid-escape.md").0,
        "---\nname: fuzz-skill\ndescription: 'Reads C:\\data files. Use when asked.'\n---\n\nBody.\n"
    );
    // Withheld: a NEL that YAML 1.1 reads as a line break; an anchor an alias uses; a flow
    // mapping.
    for name in ["nel.md", "anchored-tools.md", "flow-mapping.md"] {
        let (text, applied) = fixed(name);
        assert_eq!(text.as_bytes(), seed(name), "{name}: {applied:?}");
    }
}

/// The inputs are really exercised: a seed skill yields its diagnostics through the same path
/// the fuzz target takes (a target that silently did nothing would pass the test above).
#[test]
fn the_skill_file_target_lints() {
    let settings = skillc::config::Settings::default();
    let dir = PathBuf::from("/nonexistent/x");
    let skill = skillc::discover::SkillDir {
        file: Some(dir.join("SKILL.md").into()),
        real: skillc::discover::Real::At(dir.clone().into()),
        dir: dir.into(),
        tier: skillc::discover::Tier::Project,
        rare: None,
        listed: Default::default(),
    };
    let report = skillc::lint::lint_buffer(
        skill,
        b"---\nname: Bad_Name\ndescription: Use when testing.\n---\nBody.\n".to_vec(),
        &settings,
        Path::new("/"),
        skillc::skill::Keep::default(),
    );
    let codes: Vec<&str> = report.diagnostics.iter().map(|d| d.rule.code).collect();
    // SK103 stays silent when SK101 fired on the name.
    assert_eq!(codes, ["SK101"]);
}

/// The archive target reaches the tar parser with a raw tar: the seed tar reads back as the
/// skill it was packed from.
#[test]
fn the_archive_target_reads_a_raw_tar() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let tar = std::fs::read(root.join("fuzz/seeds/archive/skill.tar")).unwrap();
    let bytes = skillc::fuzz::archive_bytes(&tar).unwrap();
    let (archive, manifest) = skillc::package::verify::check_archive(&bytes).unwrap();
    assert_eq!(archive.key, "seed-skill");
    assert_eq!(manifest.files.len() + 1, archive.files.len());
}

/// The server target serves its seed session: the hover on `name`, the diagnostics of the
/// opened buffer come back, and nothing after shutdown; the oversized buffer gets SK011 alone.
#[test]
fn the_server_target_serves() {
    use lsp_server::Message;
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let session = std::fs::read(root.join("fuzz/seeds/server/session.jsonl")).unwrap();
    let sent = skillc::fuzz::server_session(&session);
    let answer = |id: i32| {
        sent.iter()
            .find_map(|m| match m {
                Message::Response(r) if r.id == id.into() => Some(r.response_result.clone()),
                _ => None,
            })
            .unwrap_or_else(|| panic!("no answer to {id}: {sent:?}"))
    };
    let hover = answer(2).unwrap();
    assert!(
        hover["contents"]["value"]
            .as_str()
            .is_some_and(|v| v.starts_with("**`name`**")),
        "{hover}"
    );
    // After shutdown only `exit` is awaited (`lsp-server`'s `handle_shutdown`): a request ends
    // the session, unanswered.
    assert!(
        !sent
            .iter()
            .any(|m| matches!(m, Message::Response(r) if r.id == 11.into())),
        "{sent:?}"
    );
    let published = |sent: &[Message]| -> Vec<Vec<String>> {
        sent.iter()
            .filter_map(|m| match m {
                Message::Notification(n) if n.method == "textDocument/publishDiagnostics" => Some(
                    n.params["diagnostics"]
                        .as_array()?
                        .iter()
                        .map(|d| d["code"].as_str().unwrap_or("").to_string())
                        .collect(),
                ),
                _ => None,
            })
            .collect()
    };
    // SK501 too once the workspace's scan is in (it may not be at the first lint). `model` is
    // Claude Code's, and no runtime is detected for `/fuzz/pdf`: SK305, an info.
    let first = &published(&sent)[0];
    assert!(
        first.starts_with(&["SK305".to_string(), "SK404".to_string()]),
        "{first:?}"
    );
    let oversized = std::fs::read(root.join("fuzz/seeds/server/oversized.jsonl")).unwrap();
    let sent = skillc::fuzz::server_session(&oversized);
    assert_eq!(published(&sent), [["SK011"]]);
}
