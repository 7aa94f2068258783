//! A skillc built without the `keyless-sign` feature (`cargo test --no-default-features`):
//! `--keyless` is refused with exit 2 before anything is read or written; `--key` still signs.

#![cfg(not(feature = "keyless-sign"))]

mod common;

use common::{skill, skillc, write};

const NO_SUPPORT: &str = "error: this skillc was built without signing support (the `keyless-sign` feature): --keyless cannot sign; sign with --key, or use a build with the feature (the default)\n";

#[test]
fn keyless_is_refused_without_the_feature() {
    let temp = tempfile::tempdir().unwrap();
    write(&temp.path().join("a.txt"), "artifact\n");
    let run = skillc(temp.path(), &["sign", "a.txt", "--keyless"]);
    assert_eq!((run.code, run.stderr.as_str()), (Some(2), NO_SUPPORT));
    skill(temp.path(), "demo");
    let run = skillc(temp.path(), &["pack", "demo", "--keyless"]);
    assert_eq!((run.code, run.stderr.as_str()), (Some(2), NO_SUPPORT));
    let mut names: Vec<String> = std::fs::read_dir(temp.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(names, ["a.txt", "demo"]);
}
