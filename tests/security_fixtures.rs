//! The security fixtures' scoreboard: each skill of `fixtures/err/security-*` is labelled in
//! `fixtures/err/security-labels.tsv` (malicious or benign, and its behaviour); a skill is
//! flagged when `--select security` reports an error in it. The README's table of recall and
//! false alarms per behaviour is this test's output (`SKILLC_BLESS=1` rewrites it), and every
//! benign look-alike must stay unflagged.

mod common;

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use common::skillc;

const START: &str = "<!-- security-fixtures:start -->";
const END: &str = "<!-- security-fixtures:end -->";

#[test]
fn security_fixtures_scoreboard_matches_the_readme() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/err");
    let labels = std::fs::read_to_string(root.join("security-labels.tsv")).unwrap();
    let mut flagged: BTreeSet<String> = BTreeSet::new();
    let cases: BTreeSet<&str> = labels
        .lines()
        .filter_map(|l| l.split('/').next())
        .filter(|c| !c.is_empty())
        .collect();
    for case in &cases {
        let run = skillc(
            &root.join(case),
            &["validate", "--select", "security", "--format", "json", "."],
        );
        let doc: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
        for d in doc["diagnostics"].as_array().unwrap() {
            if d["severity"] == "error" {
                let skill = d["skill"].as_str().unwrap();
                flagged.insert(format!("{case}/{skill}"));
            }
        }
    }
    // Per behaviour: malicious flagged, malicious, benign flagged, benign.
    let mut table: BTreeMap<&str, [usize; 4]> = BTreeMap::new();
    let mut false_alarms = Vec::new();
    for line in labels.lines().filter(|l| !l.trim().is_empty()) {
        let cols: Vec<&str> = line.split('\t').collect();
        let (path, label) = (cols[0], cols[1]);
        let behaviour = cols[0]
            .split('/')
            .next()
            .unwrap()
            .trim_start_matches("security-");
        let row = table.entry(behaviour).or_default();
        let hit = flagged.contains(path);
        if label == "malicious" {
            row[0] += usize::from(hit);
            row[1] += 1;
        } else {
            row[2] += usize::from(hit);
            row[3] += 1;
            if hit {
                false_alarms.push(path.to_string());
            }
        }
    }
    assert!(
        false_alarms.is_empty(),
        "benign look-alikes flagged: {false_alarms:?}"
    );
    let mut expected =
        format!("{START}\n| behaviour | malicious flagged | benign flagged |\n|---|---|---|\n");
    let mut total = [0; 4];
    for (behaviour, row) in &table {
        expected += &format!(
            "| {behaviour} | {} of {} | {} of {} |\n",
            row[0], row[1], row[2], row[3]
        );
        for (t, r) in total.iter_mut().zip(row) {
            *t += r;
        }
    }
    expected += &format!(
        "| **all** | **{} of {}** | **{} of {}** |\n{END}",
        total[0], total[1], total[2], total[3]
    );
    let path = common::doc_holding(START);
    let readme = std::fs::read_to_string(&path).unwrap();
    let start = readme.find(START).unwrap();
    let end = readme.find(END).unwrap() + END.len();
    if std::env::var_os("SKILLC_BLESS").is_some() {
        let text = format!("{}{expected}{}", &readme[..start], &readme[end..]);
        std::fs::write(&path, text).unwrap();
        return;
    }
    assert_eq!(
        &readme[start..end],
        expected,
        "the security fixtures table is out of date (SKILLC_BLESS=1 rewrites it)"
    );
}

const RULES_START: &str = "<!-- security-rules:start -->";
const RULES_END: &str = "<!-- security-rules:end -->";

#[test]
fn readme_security_rule_table_matches_the_registry() {
    let mut expected = format!(
        "{RULES_START}\n| code | name | security severity | CWE | finds |\n|---|---|---|---|---|\n"
    );
    for rule in skillc::rule::RULES {
        let Some(security) = rule.security else {
            continue;
        };
        let cwes: Vec<String> = security.cwe.iter().map(|n| format!("CWE-{n}")).collect();
        expected += &format!(
            "| {} | {} | {} | {} | {} |\n",
            rule.code,
            rule.name,
            security.severity.as_str(),
            cwes.join(", "),
            rule.summary.replace('|', "\\|")
        );
    }
    expected += RULES_END;
    let path = common::doc_holding(RULES_START);
    let readme = std::fs::read_to_string(&path).unwrap();
    let start = readme.find(RULES_START).unwrap();
    let end = readme.find(RULES_END).unwrap() + RULES_END.len();
    if std::env::var_os("SKILLC_BLESS").is_some() {
        let text = format!("{}{expected}{}", &readme[..start], &readme[end..]);
        std::fs::write(&path, text).unwrap();
        return;
    }
    assert_eq!(
        &readme[start..end],
        expected,
        "the security rule table is out of date (SKILLC_BLESS=1 rewrites it)"
    );
}

/// Each security rule's documented attack fires it, and its benign example does not: the
/// first `Fails:` and `Passes:` code blocks of `skillc rule CODE`'s page, written into a skill
/// (Markdown as the skill file's body, a frontmatter block as its frontmatter, code as the
/// script its first comment names or `scripts/example.<ext>`). SK716's examples are directory
/// trees; SK710's attack is characters a page cannot show, so only its comment example is used.
#[test]
fn each_security_rule_fires_on_its_documented_attack_and_not_its_benign_example() {
    let tmp = tempfile::tempdir().unwrap();
    for rule in skillc::rule::RULES.iter().filter(|r| r.security.is_some()) {
        if rule.code == "SK716" {
            continue;
        }
        let example = rule.doc.split("## Example").nth(1).unwrap();
        let example = example.split("## Fix").next().unwrap();
        let (fails, passes) = example.split_once("Passes:").unwrap();
        for (part, should_fire) in [(fails, true), (passes, false)] {
            let dir = tmp
                .path()
                .join(format!("{}-{should_fire}", rule.code.to_lowercase()));
            write_example(&dir, part);
            let run = skillc(
                &dir,
                &[
                    "validate", "--select", rule.code, "--format", "concise", ".",
                ],
            );
            let fired = run.stdout.contains(&format!("[{}]", rule.code));
            assert_eq!(
                fired,
                should_fire,
                "{} on its {} example:\n{}",
                rule.code,
                if should_fire { "attack" } else { "benign" },
                run.stdout
            );
        }
    }
}

/// Writes a page's code blocks as a skill in `dir`.
fn write_example(dir: &Path, part: &str) {
    let mut body = String::from(
        "---\nname: example\ndescription: Converts files. Use when asked.\n---\n# Example\n",
    );
    let blocks = part.split("```").skip(1).step_by(2);
    let mut n = 0;
    for block in blocks {
        let (lang, code) = block.split_once('\n').unwrap_or((block, ""));
        let first = code.lines().next().unwrap_or("");
        let named = first
            .strip_prefix("# ")
            .or_else(|| first.strip_prefix("// "))
            .filter(|n| n.contains('.') && !n.contains(' '));
        match (lang.trim(), named) {
            ("text", _) => {}
            ("markdown" | "md" | "", _) if code.starts_with("---") => body = code.to_string(),
            ("markdown" | "md" | "", _) => body += code,
            ("yaml", _) if code.starts_with("---") => {
                body = format!("{code}# Example\n");
            }
            ("yaml", _) if code.starts_with("hooks:") || code.starts_with("allowed-tools:") => {
                body = format!(
                    "---\nname: example\ndescription: Converts files. Use when asked.\n{code}---\n# Example\n"
                );
            }
            (_, Some(name)) => common::write(&dir.join(name), code),
            ("json", None) => {
                let name = if code.contains("\"hooks\"") {
                    "hooks/hooks.json"
                } else {
                    "tools.json"
                };
                common::write(&dir.join(name), code);
            }
            (lang, None) => {
                n += 1;
                let ext = match lang {
                    "python" | "py" => "py",
                    "javascript" | "js" => "js",
                    "typescript" | "ts" => "ts",
                    "powershell" | "ps1" => "ps1",
                    "yaml" | "yml" => "yml",
                    "toml" => "toml",
                    _ => "sh",
                };
                common::write(&dir.join(format!("scripts/example{n}.{ext}")), code);
            }
        }
    }
    common::write(&dir.join("SKILL.md"), body);
}
