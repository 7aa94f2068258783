//! File rules: SK408–SK411 — what the skill directory holds.

use std::io::Read;

use super::{SK408, SK409, SK410, SK411};
use crate::discover::SkillDir;
use crate::files::{Kind, LinkTarget, SkillTree};
use crate::lint::Reporter;

/// Upload limits (SK410).
pub const MAX_SKILL_BYTES: u64 = 8 * 1024 * 1024;
pub const MAX_SKILL_FILES: usize = 1000;

/// Script extensions that have a known runner (SK409).
const RUNNERS: [&str; 5] = [".py", ".sh", ".bash", ".js", ".ts"];

pub fn check(dir: &SkillDir, tree: &SkillTree, out: &mut Reporter) {
    for entry in &tree.entries {
        let path = dir.dir.join(&entry.rel);
        match &entry.kind {
            Kind::Symlink(LinkTarget::Outside(target)) => {
                link_outside(&entry.rel, target, path, out)
            }
            Kind::Symlink(LinkTarget::Dangling) => {
                out.emit_file(&SK408, path, format!("symlink `{}` is dangling", entry.rel))
                    .help("remove the symlink or point it at a file inside the skill");
            }
            _ => {}
        }
        if sensitive(entry.name(), &entry.kind) {
            out.emit_file(&SK411, dir.dir.join(&entry.rel), format!("`{}` looks like a secret or version-control data", entry.rel))
                .help("remove it from the skill (and rotate it if it is a real secret): skills are shared and uploaded whole");
        }
        if entry.rel.starts_with("scripts/")
            && let Kind::File {
                executable: false, ..
            } = entry.kind
            && !RUNNERS.iter().any(|ext| entry.rel.ends_with(ext))
            && !starts_with_shebang(&dir.real.join(&entry.rel))
        {
            out.emit_file(&SK409, dir.dir.join(&entry.rel), format!("`{}` has no known runner: no .py/.sh/.bash/.js/.ts extension, no executable bit, no `#!` line", entry.rel))
                .help(format!("add a `#!` line and `chmod +x {}`, or give it its runner's extension", entry.rel));
        }
    }
    let (count, size) = tree.totals();
    if count > MAX_SKILL_FILES || tree.truncated {
        let shown = if tree.truncated {
            format!("more than {count}")
        } else {
            count.to_string()
        };
        out.emit_file(
            &SK410,
            dir.dir.clone(),
            format!("the skill holds {shown} files; upload limits allow {MAX_SKILL_FILES}"),
        )
        .help("remove generated or vendored files, or list them in .skillignore");
    } else if size > MAX_SKILL_BYTES {
        out.emit_file(
            &SK410,
            dir.dir.clone(),
            format!(
                "the skill holds {:.1} MiB; upload limits allow 8 MiB",
                size as f64 / (1024.0 * 1024.0)
            ),
        )
        .help("move large data out of the skill or fetch it at run time");
    }
}

/// SK411's patterns: `.env*`, `*.pem`, `*.key`, `id_rsa*`, `id_ed25519*`, `.git/`, `.npmrc`,
/// `.pypirc`.
/// SK408: a symbolic link in the skill leads outside it (`rel` from the skill directory).
pub fn link_outside(
    rel: &str,
    target: &std::path::Path,
    path: std::path::PathBuf,
    out: &mut Reporter,
) {
    out.emit_file(
        &SK408,
        path,
        format!(
            "symlink `{rel}` points outside the skill, to `{}`",
            target.display()
        ),
    )
    .help("copy the target into the skill: only the skill directory is packaged and installed");
}

/// Whether a file or directory name looks like a secret or version-control data (SK411).
pub fn sensitive(name: &str, kind: &Kind) -> bool {
    if name == ".git" {
        return true;
    }
    if *kind == Kind::Dir {
        return false;
    }
    name.starts_with(".env")
        || name.ends_with(".pem")
        || name.ends_with(".key")
        || name.starts_with("id_rsa")
        || name.starts_with("id_ed25519")
        || name == ".npmrc"
        || name == ".pypirc"
}

fn starts_with_shebang(path: &std::path::Path) -> bool {
    let mut head = [0u8; 2];
    std::fs::File::open(path)
        .and_then(|mut f| f.read_exact(&mut head))
        .is_ok_and(|_| &head == b"#!")
}
