// Templates are embedded with include_dir; rebuild when any of them (or a new one) changes.
// The BPE rank files in data/ become the tables src/tokens/bpe.rs embeds (data/README.md).
// The rule registry is generated from the rules' declarations (build/registry.rs).

use std::path::Path;

#[path = "build/registry.rs"]
mod registry;

#[allow(dead_code)]
mod hash {
    include!("src/tokens/hash.rs");
}

fn main() {
    println!("cargo:rerun-if-changed=templates");
    println!("cargo:rerun-if-changed=data");
    println!("cargo:rerun-if-changed=src/tokens/hash.rs");
    println!("cargo:rerun-if-changed=build");
    version();
    let out = std::env::var_os("OUT_DIR").unwrap_or_default();
    if let Err(e) = registry::generate(Path::new("src"), Path::new(&out)) {
        panic!("the rule registry: {e}");
    }
    for name in ["o200k_base", "cl100k_base"] {
        if fresh(name, Path::new(&out)) {
            continue;
        }
        if let Err(e) = tables(name, Path::new(&out)) {
            // A build script reports a broken input by failing the build.
            panic!("data/{name}.tiktoken: {e}");
        }
    }
}

/// Whether the tables of `name` were written after its rank file and the hash last changed
/// (the build script also runs when a rule changes).
fn fresh(name: &str, out: &Path) -> bool {
    let modified = |path: &Path| std::fs::metadata(path).and_then(|m| m.modified()).ok();
    let inputs = [
        modified(Path::new(&format!("data/{name}.tiktoken"))),
        modified(Path::new("src/tokens/hash.rs")),
    ];
    let written = [
        modified(&out.join(format!("{name}.bytes"))),
        modified(&out.join(format!("{name}.slots"))),
    ];
    let (Some(newest_input), Some(oldest_output)) = (
        inputs.iter().copied().max().flatten(),
        written.iter().copied().min().flatten(),
    ) else {
        return false;
    };
    inputs.iter().all(Option::is_some) && oldest_output > newest_input
}

/// Writes `{name}.bytes` (token bytes in rank order) and `{name}.slots` (the hash table).
fn tables(name: &str, out: &Path) -> Result<(), String> {
    let text =
        std::fs::read_to_string(format!("data/{name}.tiktoken")).map_err(|e| e.to_string())?;
    let mut tokens: Vec<(u64, Vec<u8>)> = Vec::new();
    for line in text.lines().filter(|l| !l.is_empty()) {
        let (b64, rank) = line.split_once(' ').ok_or("a line without a rank")?;
        let rank: u64 = rank.parse().map_err(|_| "a rank that is not a number")?;
        tokens.push((rank, base64(b64).ok_or("bad base64")?));
    }
    tokens.sort();
    let mut bytes = Vec::new();
    let size = (tokens.len() * 2).next_power_of_two();
    let mut slots = vec![0u64; size];
    for (i, (rank, token)) in tokens.iter().enumerate() {
        if *rank != i as u64 {
            return Err(format!("ranks are not 0..n: {rank} at {i}"));
        }
        let offset = bytes.len() as u64;
        if rank + 1 >= 1 << hash::RANK_BITS
            || offset >= 1 << hash::OFFSET_BITS
            || token.is_empty()
            || token.len() >= 1 << (hash::FINGERPRINT_SHIFT - hash::LEN_SHIFT)
        {
            return Err("a table field overflows its bits".into());
        }
        bytes.extend_from_slice(token);
        let h = hash::hash(token);
        let mut at = h as usize & (size - 1);
        while slots[at] != 0 {
            at = (at + 1) & (size - 1);
        }
        slots[at] = (rank + 1)
            | (offset << hash::RANK_BITS)
            | ((token.len() as u64) << hash::LEN_SHIFT)
            | ((h >> hash::FINGERPRINT_SHIFT) << hash::FINGERPRINT_SHIFT);
    }
    let slot_bytes: Vec<u8> = slots.iter().flat_map(|s| s.to_le_bytes()).collect();
    std::fs::write(out.join(format!("{name}.bytes")), bytes).map_err(|e| e.to_string())?;
    std::fs::write(out.join(format!("{name}.slots")), slot_bytes).map_err(|e| e.to_string())?;
    Ok(())
}

/// Standard base64 with padding.
fn base64(text: &str) -> Option<Vec<u8>> {
    let value = |c: u8| -> Option<u32> {
        Some(match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'+' => 62,
            b'/' => 63,
            _ => return None,
        } as u32)
    };
    let body = text.trim_end_matches('=');
    let mut out = Vec::with_capacity(body.len() * 3 / 4);
    for chunk in body.as_bytes().chunks(4) {
        let mut acc = 0u32;
        for &c in chunk {
            acc = (acc << 6) | value(c)?;
        }
        acc <<= 6 * (4 - chunk.len() as u32);
        let n = match chunk.len() {
            4 => 3,
            3 => 2,
            2 => 1,
            _ => return None,
        };
        out.extend_from_slice(&acc.to_be_bytes()[1..1 + n]);
    }
    Some(out)
}

/// `SKILLC_VERSION`, what `--version` prints: the package's version, followed by the commit it
/// was built from and that commit's date when built from a git checkout (`0.1.0 (abc1234
/// 2026-11-26)`, as ruff prints), else the version alone (a crate downloaded from a registry).
fn version() {
    let package = std::env::var("CARGO_PKG_VERSION").unwrap_or_default();
    // The branch HEAD names moves with each commit. Only files that exist are watched: cargo
    // takes a missing one for a change, and would rebuild the crate on every build.
    let branch = std::fs::read_to_string(".git/HEAD").ok().and_then(|head| {
        head.strip_prefix("ref: ")
            .map(|r| format!(".git/{}", r.trim()))
    });
    let watched = [
        Some(".git/HEAD".to_string()),
        Some(".git/packed-refs".into()),
        branch,
    ];
    for path in watched.into_iter().flatten() {
        if Path::new(&path).exists() {
            println!("cargo:rerun-if-changed={path}");
        }
    }
    let commit = std::process::Command::new("git")
        .args(["log", "-1", "--format=%h %cs", "--abbrev=7"])
        .output()
        .ok()
        .filter(|out| out.status.success())
        .and_then(|out| String::from_utf8(out.stdout).ok())
        .map(|line| line.trim().to_string())
        .filter(|line| !line.is_empty());
    let version = match commit {
        Some(commit) if Path::new(".git").exists() => format!("{package} ({commit})"),
        _ => package,
    };
    println!("cargo:rustc-env=SKILLC_VERSION={version}");
}
