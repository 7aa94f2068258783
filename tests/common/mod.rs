//! What the integration tests share: running the binary and writing files.

#![allow(dead_code)]

use std::os::unix::process::ExitStatusExt;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// One run of the `skillc` binary.
pub struct Run {
    pub code: Option<i32>,
    pub stdout: String,
    pub stderr: String,
    /// Peak resident memory in KiB (measured by [`skillc_watched`] only; 0 otherwise).
    pub max_rss_kib: i64,
}

/// Runs `skillc ARGS` in `dir` with `HOME=dir/home`, no inherited skillc settings, and `env`.
pub fn skillc_env(dir: &Path, args: &[&str], env: &[(&str, &str)]) -> Run {
    let out = Command::new(env!("CARGO_BIN_EXE_skillc"))
        .current_dir(dir)
        .env("HOME", dir.join("home"))
        .env_remove("SKILLC_FORMAT")
        .env_remove("SKILLC_OUTPUT_FORMAT")
        .env_remove("NO_COLOR")
        .env_remove("FORCE_COLOR")
        .env_remove("CLICOLOR_FORCE")
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
        max_rss_kib: 0,
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

/// Runs skillc in `dir` as [`skillc`] does, with no standard input, failing the test if it
/// runs for over 60 s, and measuring its peak memory.
#[allow(
    clippy::zombie_processes,
    reason = "the child is reaped by wait4, which std cannot see"
)]
pub fn skillc_watched(dir: &Path, args: &[&str]) -> Run {
    let stdout = tempfile::tempfile().unwrap();
    let stderr = tempfile::tempfile().unwrap();
    let child = Command::new(env!("CARGO_BIN_EXE_skillc"))
        .current_dir(dir)
        .env("HOME", dir.join("home"))
        .env_remove("SKILLC_KEY_PASSWORD")
        .env_remove("SKILLC_FORMAT")
        .env_remove("SKILLC_OUTPUT_FORMAT")
        .args(args)
        .stdin(Stdio::null())
        .stdout(stdout.try_clone().unwrap())
        .stderr(stderr.try_clone().unwrap())
        .spawn()
        .unwrap();
    let pid = child.id() as libc::pid_t;
    let started = Instant::now();
    let mut status = 0;
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    loop {
        // wait4 reaps this child alone and reports its own peak memory.
        let done = unsafe { libc::wait4(pid, &mut status, libc::WNOHANG, &mut usage) };
        assert!(done >= 0, "wait4 failed");
        if done == pid {
            break;
        }
        if started.elapsed() > Duration::from_secs(60) {
            unsafe { libc::kill(pid, libc::SIGKILL) };
            panic!("skillc {args:?} hung");
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    let read = |mut file: std::fs::File| {
        use std::io::{Read, Seek};
        let mut text = String::new();
        file.seek(std::io::SeekFrom::Start(0)).unwrap();
        file.read_to_string(&mut text).unwrap();
        text
    };
    Run {
        code: std::process::ExitStatus::from_raw(status).code(),
        stdout: read(stdout),
        stderr: read(stderr),
        max_rss_kib: usage.ru_maxrss,
    }
}

/// `../shared/corpus/public-skills.tar.gz` (four real skill repositories) extracted into a new
/// temporary directory; `None`, with a note, on a machine without it. In CI (`CI` set to
/// `true` or `1`) a missing corpus fails the test instead: a skip there would pass unseen,
/// unless `SKILLC_CORPUS=absent` says it is absent on purpose (GitHub's runners, which have no
/// `../shared`).
pub fn extract_corpus() -> Option<tempfile::TempDir> {
    let archive =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus/public-skills.tar.gz");
    if !archive.exists() {
        let ci = std::env::var("CI").is_ok_and(|v| v == "true" || v == "1")
            && !std::env::var("SKILLC_CORPUS").is_ok_and(|v| v == "absent");
        assert!(
            !ci,
            "CI is set but {} is missing: the corpus tests cannot run",
            archive.display()
        );
        eprintln!("skipped: {} is not on this machine", archive.display());
        return None;
    }
    let tmp = tempfile::tempdir().unwrap();
    let status = Command::new("tar")
        .arg("-xzf")
        .arg(&archive)
        .arg("-C")
        .arg(tmp.path())
        .status()
        .unwrap();
    assert!(
        status.success(),
        "tar failed to extract {}",
        archive.display()
    );
    Some(tmp)
}

/// The page of the documentation (README.md or a file of docs/) that holds `marker`, the start
/// of a table a test keeps in sync.
pub fn doc_holding(marker: &str) -> std::path::PathBuf {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut pages = vec![root.join("README.md")];
    let mut docs: Vec<_> = std::fs::read_dir(root.join("docs"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    docs.sort();
    pages.extend(docs);
    pages
        .into_iter()
        .find(|p| std::fs::read_to_string(p).is_ok_and(|t| t.contains(marker)))
        .unwrap_or_else(|| panic!("no page of the documentation holds {marker}"))
}
