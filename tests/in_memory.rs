//! The library API that lints a skill file's text in memory (`lint::lint_text`) gives the same
//! diagnostics as linting the file on disk, on every skill of every fixture — what the
//! language server and `--stdin-filename` are built on.

use std::path::{Path, PathBuf};

use skillc::config::Settings;
use skillc::diagnostic::Diagnostic;
use skillc::skill::Keep;

/// A diagnostic as compared: everything but the collection rules' ones, which look across the
/// skills of a run and so differ for a skill linted alone.
fn shown(d: &Diagnostic) -> Option<String> {
    let across = matches!(d.rule.code, "SK501" | "SK502" | "SK503" | "SK504")
        || d.message.contains("is also bundled by skill");
    (!across).then(|| {
        format!(
            "{} {:?} {:?} {} {:?} {:?}",
            d.path.display(),
            d.region,
            d.severity,
            d.rule.code,
            d.message,
            d.help
        )
    })
}

#[test]
fn linting_text_in_memory_equals_linting_the_file() {
    // Paths as a run from the package root shows them (the tests' working directory).
    let cwd = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let root = PathBuf::from("fixtures");
    let settings = Settings::default();
    let keep = Keep {
        lines: true,
        ..Keep::default()
    };
    let mut compared = 0;
    for group in ["err", "ok"] {
        let mut cases: Vec<PathBuf> = std::fs::read_dir(root.join(group))
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.is_dir())
            .collect();
        cases.sort();
        for case in cases {
            let paths = [case.clone()];
            let found = skillc::discover::discover(&paths, &settings, &cwd, Default::default());
            let Ok(found) = found else { continue };
            let from_disk = skillc::lint::lint_all(found.skills.clone(), &settings, &cwd, keep);
            for (skill, disk) in found.skills.iter().zip(&from_disk) {
                let Some(file) = &skill.file else { continue };
                let path = file.clone();
                let Ok(bytes) = std::fs::read(&path) else {
                    continue;
                };
                if std::fs::symlink_metadata(&path).is_ok_and(|m| m.file_type().is_symlink()) {
                    continue;
                }
                let expected: Vec<String> = disk.diagnostics.iter().filter_map(shown).collect();
                // In the context discovery found (the paths the run reached the skill by)...
                let memory =
                    skillc::lint::lint_buffer(skill.clone(), bytes.clone(), &settings, &cwd, keep);
                let actual: Vec<String> = memory.diagnostics.iter().filter_map(shown).collect();
                assert_eq!(actual, expected, "{}", path.display());
                assert_eq!(memory.key, disk.key, "{}", path.display());
                // ... and from the file's path alone, for a skill reached by no other path.
                if skill.aliases().is_empty() {
                    let memory = skillc::lint::lint_text(&path, bytes, &settings, &cwd, keep)
                        .unwrap_or_else(|e| panic!("{}: {e:?}", path.display()));
                    let actual: Vec<String> = memory.diagnostics.iter().filter_map(shown).collect();
                    assert_eq!(actual, expected, "{}", path.display());
                }
                compared += 1;
            }
        }
    }
    assert!(compared > 150, "only {compared} skills compared");
}

/// A buffer for a skill file that does not exist yet is linted in its directory's context.
#[test]
fn a_new_buffer_is_linted_where_it_will_be() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("pdf-tools");
    std::fs::create_dir_all(dir.join("references")).unwrap();
    std::fs::write(dir.join("references/forms.md"), "# Forms\n").unwrap();
    let text = "---\nname: pdf-tool\ndescription: Fills PDF forms. Use when asked to fill a PDF form.\n---\nSee [forms](references/forms.md) and [missing](references/missing.md).\n";
    let report = skillc::lint::lint_text(
        &dir.join("SKILL.md"),
        text.as_bytes().to_vec(),
        &Settings::default(),
        Path::new(tmp.path()),
        Keep::default(),
    )
    .unwrap();
    let codes: Vec<(&str, usize)> = report
        .diagnostics
        .iter()
        .map(|d| (d.rule.code, d.region.map_or(0, |r| r.line)))
        .collect();
    assert_eq!(codes, [("SK103", 2), ("SK404", 5)]);
    let missing = skillc::lint::lint_text(
        &tmp.path().join("nowhere/SKILL.md"),
        text.as_bytes().to_vec(),
        &Settings::default(),
        tmp.path(),
        Keep::default(),
    );
    assert!(missing.is_err());
}
