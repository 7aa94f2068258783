//! What the integration tests share: running the binary and writing files.

#![allow(dead_code)]

use std::path::Path;
use std::process::Command;

/// One run of the `skillc` binary.
pub struct Run {
    pub code: Option<i32>,
    pub stdout: String,
    pub stderr: String,
}

/// Runs `skillc ARGS` in `dir` with `HOME=dir/home`, no inherited skillc settings, and `env`.
pub fn skillc_env(dir: &Path, args: &[&str], env: &[(&str, &str)]) -> Run {
    let out = Command::new(env!("CARGO_BIN_EXE_skillc"))
        .current_dir(dir)
        .env("HOME", dir.join("home"))
        .env_remove("SKILLC_FORMAT")
        .env_remove("NO_COLOR")
        .env_remove("SOURCE_DATE_EPOCH")
        .env_remove("SKILLC_KEY_PASSWORD")
        .envs(env.iter().copied())
        .args(args)
        .output()
        .unwrap();
    Run {
        code: out.status.code(),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// Runs `skillc ARGS` in `dir`.
pub fn skillc(dir: &Path, args: &[&str]) -> Run {
    skillc_env(dir, args, &[])
}

/// Writes a file, creating its directories.
pub fn write(path: &Path, contents: impl AsRef<[u8]>) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, contents).unwrap();
}

/// A minimal valid skill `name` under `root`; returns its directory.
pub fn skill(root: &Path, name: &str) -> std::path::PathBuf {
    let dir = root.join(name);
    write(
        &dir.join("SKILL.md"),
        format!(
            "---\nname: {name}\ndescription: Use when testing {name}.\n---\n\n# {name}\n\nDo the thing.\n"
        ),
    );
    dir
}
