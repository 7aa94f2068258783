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

/// The `.rs` files of `src/`, with their text.
fn sources() -> Vec<(String, String)> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut out: Vec<(String, String)> = files_of(&src, "")
        .into_iter()
        .map(|path| {
            let shown = path
                .strip_prefix(Path::new(env!("CARGO_MANIFEST_DIR")))
                .unwrap()
                .to_string_lossy()
                .replace('\\', "/");
            (shown, std::fs::read_to_string(&path).unwrap())
        })
        .collect();
    out.sort();
    out
}

/// The code of a file, without its comments and its unit tests.
fn code_of(text: &str) -> String {
    let code = text.split("#[cfg(test)]\nmod tests").next().unwrap_or("");
    code.lines()
        .filter(|line| !line.trim_start().starts_with("//"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The rule codes a `rule::declare!` block of `text` declares.
fn declared(text: &str) -> Vec<String> {
    let code = regex::Regex::new(r"(?m)^\s+(SK\d{3}) ").unwrap();
    text.split("rule::declare! {")
        .skip(1)
        .flat_map(|block| {
            let block = &block[..block.find("\n}").unwrap_or(block.len())];
            code.captures_iter(block)
                .map(|c| c[1].to_string())
                .collect::<Vec<_>>()
        })
        .collect()
}

/// `text` without its `rule::declare!` blocks.
fn outside_declarations(text: &str) -> String {
    text.split("rule::declare! {")
        .enumerate()
        .map(|(i, part)| {
            if i == 0 {
                part
            } else {
                part.split_once("\n}").map_or("", |(_, after)| after)
            }
        })
        .collect()
}

#[test]
fn a_rules_facts_are_declared_once_in_the_file_that_checks_it() {
    let sources = sources();
    let mut declared_in = std::collections::BTreeMap::new();
    for (file, text) in &sources {
        for code in declared(text) {
            assert!(
                declared_in.insert(code.clone(), file.clone()).is_none(),
                "{code} is declared twice"
            );
        }
    }
    let registry: Vec<String> = skillc::rule::RULES
        .iter()
        .map(|r| r.code.to_string())
        .collect();
    assert_eq!(
        declared_in.keys().cloned().collect::<Vec<_>>(),
        registry,
        "the registry is not built of the declarations (a declaring file outside src/rules \
         that changed without a rebuild?)"
    );
    for rule in skillc::rule::RULES {
        assert_eq!(declared_in[rule.code], rule.declared_in, "{}", rule.code);
        let text = &sources
            .iter()
            .find(|(f, _)| *f == rule.declared_in)
            .unwrap()
            .1;
        let outside = outside_declarations(text);
        let used = regex::Regex::new(&format!(r"\b{}\b", rule.code)).unwrap();
        assert!(
            used.is_match(&code_of(&outside)),
            "{} is declared in {} but not checked there",
            rule.code,
            rule.declared_in
        );
    }
}

/// A string literal that spells a rule code.
fn code_literal() -> regex::Regex {
    regex::Regex::new(r#""(?:[^"\\\n]|\\.)*\bSK\d{3}\b(?:[^"\\\n]|\\.)*""#).unwrap()
}

#[test]
fn the_rule_checks_see_what_they_look_for() {
    let text = "use x;\ncrate::rule::declare! {\n    SK101 \"invalid-name\" Error AgentSkills\n        \"The `name` (SK101).\";\n}\nfn check() { emit(&SK101); help(\"see SK404\"); }\n";
    assert_eq!(declared(text), vec!["SK101".to_string()]);
    let outside = outside_declarations(text);
    assert!(!outside.contains("invalid-name") && outside.contains("emit(&SK101)"));
    let found: Vec<&str> = code_literal()
        .find_iter(&outside)
        .map(|m| m.as_str())
        .collect();
    assert_eq!(found, vec!["\"see SK404\""]);
}

#[test]
fn no_rule_code_is_spelt_as_a_string_outside_the_declarations() {
    let literal = code_literal();
    let mut found = Vec::new();
    for (file, text) in sources() {
        let code = code_of(&text);
        // The declarations themselves are the registry.
        let outside = outside_declarations(&code);
        for m in literal.find_iter(&outside) {
            found.push(format!("{file}: {}", m.as_str()));
        }
    }
    assert!(
        found.is_empty(),
        "rule codes spelt as strings (name the rule's static, e.g. `SK404.code`, or ask the \
         registry for a fact):\n{}",
        found.join("\n")
    );
}

#[test]
fn no_source_file_is_over_1000_lines() {
    let long: Vec<String> = sources()
        .into_iter()
        .filter(|(_, text)| text.lines().count() > 1000)
        .map(|(file, text)| format!("{file}: {} lines", text.lines().count()))
        .collect();
    assert!(long.is_empty(), "split these files:\n{}", long.join("\n"));
}

#[test]
fn readme_fix_table_matches_the_registry() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/commands.md");
    let readme = std::fs::read_to_string(&path).unwrap();
    let (open, close) = ("<!-- fixes:start -->", "<!-- fixes:end -->");
    let mut expected = format!("{open}\n| rule | fix | applicability |\n|---|---|---|\n");
    for rule in skillc::rule::RULES {
        for fix in rule.fixes {
            expected += &format!(
                "| {} {} | {} | {} |\n",
                rule.code,
                rule.name,
                fix.what.replace('|', "\\|"),
                fix.applicability.as_str()
            );
        }
    }
    expected += close;
    let start = readme
        .find(open)
        .expect("docs/commands.md has the fix table's start marker");
    let end = readme
        .find(close)
        .expect("docs/commands.md has the fix table's end marker")
        + close.len();
    if std::env::var_os("SKILLC_BLESS").is_some() {
        let text = format!("{}{expected}{}", &readme[..start], &readme[end..]);
        std::fs::write(&path, text).unwrap();
        return;
    }
    assert_eq!(
        &readme[start..end],
        expected,
        "docs/commands.md's fix table is out of date (SKILLC_BLESS=1 rewrites it)"
    );
}
