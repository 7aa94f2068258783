//! The one-way architecture (README, Development): `src/lib.rs` declares the modules in groups,
//! in the order data flows through them (foundation → parse → settings → discover → the skill
//! model → the rules and the pipeline → what reads the reports), and no module's code names a
//! module of a later group. A module may use the others of its own group.

use std::path::Path;

/// The groups of `src/lib.rs`: each starts at a `// ` comment line and lists `pub mod` lines.
fn groups(lib: &str) -> Vec<Vec<String>> {
    let mut groups: Vec<Vec<String>> = Vec::new();
    for line in lib.lines() {
        if line.starts_with("// ") {
            groups.push(Vec::new());
        } else if let Some(name) = line
            .strip_prefix("pub mod ")
            .and_then(|rest| rest.strip_suffix(';'))
            && let Some(group) = groups.last_mut()
        {
            group.push(name.to_string());
        }
    }
    groups
}

/// The `.rs` files of module `name`: `src/name.rs` and everything below `src/name/`.
fn files_of(src: &Path, name: &str) -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    let single = src.join(format!("{name}.rs"));
    if single.is_file() {
        out.push(single);
    }
    let mut stack = vec![src.join(name)];
    while let Some(dir) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                out.push(path);
            }
        }
    }
    out
}

/// The modules `text` names as `crate::module`, outside comments and its unit tests.
fn named_modules(text: &str) -> Vec<String> {
    let code = text.split("#[cfg(test)]\nmod tests").next().unwrap_or("");
    let mut out = Vec::new();
    for line in code.lines() {
        if line.trim_start().starts_with("//") {
            continue;
        }
        for (at, _) in line.match_indices("crate::") {
            let name: String = line[at + "crate::".len()..]
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            if !name.is_empty() {
                out.push(name);
            }
        }
    }
    out
}

#[test]
fn every_module_imports_only_from_its_group_or_the_groups_above() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let lib = std::fs::read_to_string(src.join("lib.rs")).unwrap();
    let groups = groups(&lib);
    assert!(groups.len() >= 7, "the groups of src/lib.rs: {groups:?}");
    let group_of = |name: &str| groups.iter().position(|g| g.iter().any(|m| m == name));
    let mut upward = Vec::new();
    for (rank, group) in groups.iter().enumerate() {
        for module in group {
            let files = files_of(&src, module);
            assert!(!files.is_empty(), "no source for module `{module}`");
            for file in files {
                let text = std::fs::read_to_string(&file).unwrap();
                for named in named_modules(&text) {
                    if group_of(&named).is_some_and(|g| g > rank) {
                        upward.push(format!("{} uses crate::{named}", file.display()));
                    }
                }
            }
        }
    }
    upward.sort();
    upward.dedup();
    assert!(
        upward.is_empty(),
        "imports that point up:\n{}",
        upward.join("\n")
    );
}

#[test]
fn the_check_sees_an_import_that_points_up() {
    let lib = "// Foundation.\npub mod a;\n// Later.\npub mod b;\n";
    assert_eq!(
        groups(lib),
        vec![vec!["a".to_string()], vec!["b".to_string()]]
    );
    let text = "// crate::b in a comment\nuse crate::b::Thing;\n#[cfg(test)]\nmod tests {\n    use crate::c;\n}\n";
    assert_eq!(named_modules(text), vec!["b".to_string()]);
}
