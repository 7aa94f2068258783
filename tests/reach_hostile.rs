//! Links and reach (SK404, SK406, SK412) against hostile skills: every run finishes with the
//! work linear in the skill's files and texts (each of these took minutes, or gigabytes, before)
//! and prints the right diagnostics; what the caps leave unread never turns into SK412.

mod common;

use std::path::Path;

use common::{skillc, skillc_watched, write};

const FRONT: &str = "---\nname: s\ndescription: Use when testing reach.\n---\n";

/// The concise lines `validate` prints for the skill `s` in `dir`.
fn lines(dir: &Path) -> Vec<String> {
    let run = skillc(
        dir,
        &["validate", "--no-config", "--format", "concise", "s"],
    );
    assert!(run.code.is_some(), "{}", run.stderr);
    run.stdout.lines().map(str::to_string).collect()
}

/// The rule codes of concise lines, in order.
fn codes(lines: &[String]) -> Vec<&str> {
    lines
        .iter()
        .filter_map(|l| l.split_once('[')?.1.split_once(']').map(|(c, _)| c))
        .collect()
}

#[test]
fn a_link_text_full_of_brackets_is_pinned_in_linear_time() {
    // One link whose text is a code span holding `](` a hundred thousand times and whose
    // destination does not read back as written: every `](` used to be tried, each at the
    // cost of the whole link. The same in a linked file, which SK406 and SK412 read.
    let tmp = tempfile::tempdir().unwrap();
    let bomb = |n: usize| format!("[`{}`](x&amp;y)\n", "](a".repeat(n));
    write(
        &tmp.path().join("s/SKILL.md"),
        format!("{FRONT}{}Read [a](references/a.md).\n", bomb(100_000)),
    );
    write(&tmp.path().join("s/references/a.md"), bomb(300_000));
    let out = lines(tmp.path());
    assert_eq!(codes(&out), ["SK402", "SK404"], "{out:?}");
    assert!(
        out[1].starts_with("s/SKILL.md:5:1: error[SK404] link `x&y` names a file"),
        "{out:?}"
    );
}

#[test]
fn nested_skills_own_their_files() {
    // Forty skills nested in one another, each with 250 scripts that import the next: each
    // skill follows its own files only (before, every enclosing skill read those of all the
    // skills inside it, ran into the caps and reported thousands of scripts as unmentioned).
    let tmp = tempfile::tempdir().unwrap();
    let mut dir = tmp.path().join("s");
    for _ in 0..40 {
        write(
            &dir.join("SKILL.md"),
            format!("{FRONT}Run `python scripts/m0.py`.\n"),
        );
        for i in 0..250 {
            write(
                &dir.join(format!("scripts/m{i}.py")),
                format!("import m{}\n", i + 1),
            );
        }
        dir = dir.join("n");
    }
    let out = lines(tmp.path());
    assert!(!codes(&out).contains(&"SK412"), "{out:?}");
    assert_eq!(codes(&out).iter().filter(|c| **c == "SK016").count(), 39);
}

#[test]
fn what_the_caps_leave_unread_is_not_reported() {
    // 4,200 references, each linking a file of its own: the reach stops at 4,096 files read,
    // so the files linked from the others cannot be judged (before: reported as unmentioned).
    let tmp = tempfile::tempdir().unwrap();
    let s = tmp.path().join("s");
    write(
        &s.join("SKILL.md"),
        format!("{FRONT}Read what you need in `references/`.\n"),
    );
    for i in 0..4200 {
        write(
            &s.join(format!("references/r{i}.md")),
            format!("See [x](n/x{i}.md).\n"),
        );
        write(&s.join(format!("references/n/x{i}.md")), "x\n");
    }
    let out = lines(tmp.path());
    assert!(!codes(&out).contains(&"SK412"), "{out:?}");
}

#[test]
fn a_large_or_non_utf8_text_is_still_followed() {
    // A linked file over 1 MiB is read up to its first MiB, and one that is not UTF-8 is read
    // with its invalid bytes replaced: the files they link are reached (two links away: SK406),
    // not unmentioned (before: SK412).
    let tmp = tempfile::tempdir().unwrap();
    let s = tmp.path().join("s");
    write(
        &s.join("SKILL.md"),
        format!("{FRONT}Read [b](references/b.md) and [l](references/latin.md).\n"),
    );
    let filler = "filler text. ".repeat(8) + "\n";
    write(
        &s.join("references/b.md"),
        format!("[d](d.md)\n{}", filler.repeat(1_200_000 / filler.len())),
    );
    write(&s.join("references/d.md"), "d\n");
    write(&s.join("references/latin.md"), b"caf\xe9 see [c](c.md)\n");
    write(&s.join("references/c.md"), "c\n");
    let out = lines(tmp.path());
    assert_eq!(
        out,
        [
            "s/references/b.md:1:5: warning[SK406] `references/d.md` is two links away from the skill file: SKILL.md → references/b.md → references/d.md (help: link `references/d.md` from SKILL.md where the agent needs it, or merge it into `references/b.md`: keep references one level deep)",
            "s/references/latin.md:1:14: warning[SK406] `references/c.md` is two links away from the skill file: SKILL.md → references/latin.md → references/c.md (help: link `references/c.md` from SKILL.md where the agent needs it, or merge it into `references/latin.md`: keep references one level deep)",
        ]
    );
}

#[test]
fn a_deep_tree_is_indexed_in_memory_proportional_to_it() {
    // 29 nested folders of 124-character names and 5,000 scripts at the bottom: each script
    // used to be indexed under every tail of its path (a few KiB each, thirty times over).
    let tmp = tempfile::tempdir().unwrap();
    let s = tmp.path().join("s");
    write(
        &s.join("SKILL.md"),
        format!("{FRONT}Run the tools in `scripts/`.\n"),
    );
    let deep: Vec<String> = (0..29)
        .map(|i| format!("{i:02}{}", "d".repeat(122)))
        .collect();
    let bottom = s.join("scripts").join(deep.join("/"));
    std::fs::create_dir_all(&bottom).unwrap();
    for i in 0..5000 {
        std::fs::write(bottom.join(format!("f{i}.py")), "").unwrap();
    }
    let run = skillc_watched(
        tmp.path(),
        &["validate", "--no-config", "--format", "concise", "s"],
    );
    let out: Vec<&str> = run.stdout.lines().collect();
    assert_eq!(
        codes(&out.iter().map(|l| l.to_string()).collect::<Vec<_>>()),
        ["SK410", "SK412"]
    );
    assert!(
        out[1].contains(&format!("`scripts/{}/` (5000 files)", deep[0])),
        "{out:?}"
    );
    eprintln!("peak memory: {} KiB", run.max_rss_kib);
    assert!(run.max_rss_kib < 150 * 1024, "{} KiB", run.max_rss_kib);
}
