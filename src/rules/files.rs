//! File rules: SK408–SK411 — what the skill directory holds.

use std::io::Read;

use crate::discover::SkillDir;
use crate::files::{Entry, Kind, LinkTarget, SkillTree};
use crate::skill::Reporter;

crate::rule::declare! {
    SK408 "symlink-escape" Error Both
        tags(files)
        "A symlink inside the skill dangles (error), or points to an existing file outside it (warning).";
    SK409 "script-not-runnable" Warning Both
        tags(files)
        "A file directly in `scripts/` that is neither a known script nor data, not executable and without `#!`.";
    SK410 "skill-too-large" Warning Both
        "The skill directory holds more than 8 MiB or more than 1000 files.";
    SK411 "sensitive-file" Warning Both
        tags(files)
        "The skill holds a file that looks like a secret or version-control data.";
}

/// Upload limits (SK410).
pub const MAX_SKILL_BYTES: u64 = 8 * 1024 * 1024;
pub const MAX_SKILL_FILES: usize = 1000;

/// Script extensions that name a runner (SK409), lowercase, without the dot.
const SCRIPT_EXTENSIONS: &[&str] = &[
    "py", "pyw", "sh", "bash", "zsh", "fish", "ksh", "js", "mjs", "cjs", "ts", "mts", "cts", "jsx",
    "tsx", "ps1", "psm1", "bat", "cmd", "rb", "pl", "pm", "php", "lua", "r", "jl", "go", "swift",
    "kts", "groovy", "tcl", "awk", "exs", "jar",
];

/// Extensions of data and document files, which a script reads and nobody runs (SK409).
#[rustfmt::skip]
const DATA_EXTENSIONS: &[&str] = &[
    // structured data and schemas
    "json", "jsonc", "json5", "jsonl", "ndjson", "yaml", "yml", "toml", "xml", "xsd", "xsl",
    "xslt", "dtd", "csv", "tsv", "sql", "graphql", "gql", "proto", "ipynb",
    // configuration and lock files
    "lock", "cfg", "ini", "conf", "properties", "example", "sample", "dist", "typed", "mod",
    "sum", "pyi", "map",
    // documents and web pages
    "txt", "text", "md", "markdown", "mdx", "rst", "adoc", "html", "htm", "xhtml", "css", "scss",
    "less", "pdf", "docx", "xlsx", "pptx", "patch", "diff", "log",
    // templates
    "tmpl", "tpl", "template", "j2", "jinja", "jinja2", "hbs", "mustache", "ejs",
    // images, fonts, archives
    "svg", "png", "jpg", "jpeg", "gif", "webp", "ico", "bmp", "ttf", "otf", "woff", "woff2",
    "zip", "tar", "gz", "tgz", "bz2", "xz", "zst", "whl", "wasm",
];

/// Extensionless names of build, package and document files (SK409), lowercase.
#[rustfmt::skip]
const DATA_NAMES: &[&str] = &[
    "makefile", "gnumakefile", "dockerfile", "containerfile", "justfile", "procfile", "gemfile",
    "pipfile", "license", "licence", "copying", "readme", "notice", "authors", "changelog",
    "codeowners",
];

/// The last part of a `.env` file name that makes it a template, not a secret (SK411).
const ENV_TEMPLATES: [&str; 4] = ["example", "sample", "template", "dist"];

/// SK408–SK411 on the files of the skill at `dir`. A file read to tell whether it starts with
/// `#!` is read whole, once: it is returned with its text, by path from the skill's root, for
/// the rules that read the skill's files after this one.
pub fn check(dir: &SkillDir, tree: &SkillTree, out: &mut Reporter) -> Vec<(String, String)> {
    // A nested skill's files are checked here too: which nested skill files are skills only
    // discovery knows (`lint::lint_all` leaves their files to them).
    let mut read = Vec::new();
    for entry in &tree.entries {
        check_entry(dir, entry, &mut read, out);
    }
    let (count, size) = tree.totals();
    if count > MAX_SKILL_FILES || tree.truncated {
        let shown = if tree.truncated {
            format!("more than {}", crate::diagnostic::thousands(count))
        } else {
            crate::diagnostic::thousands(count)
        };
        out.emit_file(
            &SK410,
            dir.dir.clone(),
            format!(
                "the skill holds {shown} files; upload limits allow {}",
                crate::diagnostic::thousands(MAX_SKILL_FILES)
            ),
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
    read
}

/// SK408, SK409 and SK411 on one entry of the skill directory; what is read goes to `read`.
fn check_entry(
    dir: &SkillDir,
    entry: &Entry,
    read: &mut Vec<(String, String)>,
    out: &mut Reporter,
) {
    // The entry's path is made only for a diagnostic (most entries have none).
    let path = || dir.path_of(&entry.rel);
    match &entry.kind {
        Kind::Symlink(LinkTarget::Outside(target)) => {
            link_outside(&entry.rel, target, true, path(), out)
        }
        Kind::Symlink(LinkTarget::Dangling) => {
            out.emit_file(
                &SK408,
                path(),
                format!("symlink `{}` is dangling", entry.rel),
            )
            .help("remove the symlink or point it at a file inside the skill");
        }
        _ => {}
    }
    if sensitive(entry.name(), &entry.kind) {
        out.emit_file(&SK411, path(), format!("`{}` looks like a secret or version-control data", entry.rel))
            .help("remove it from the skill (and rotate it if it is a real secret): skills are shared and uploaded whole");
    }
    if not_runnable(entry)
        && !starts_with_shebang(&dir.real_path().join(&entry.rel), &entry.rel, read)
    {
        let known = SCRIPT_EXTENSIONS
            .iter()
            .map(|ext| format!(".{ext}"))
            .collect::<Vec<_>>()
            .join(" ");
        out.emit_file(&SK409, path(), format!("`{}` has no known runner: no script extension (.py, .sh, .js, .ts, .rb, .pl, .php, .ps1, …), no executable bit, no `#!` line", entry.rel))
            .help(format!("add a `#!` line and `chmod +x {}`, or give it its runner's extension ({known}); data files belong in `assets/`", entry.rel));
    }
}

/// SK409: a regular file directly in `scripts/`, not executable, whose name is neither a
/// script type nor a data or document file (the `#!` line is checked after).
fn not_runnable(entry: &Entry) -> bool {
    let Some(name) = entry.rel.strip_prefix("scripts/") else {
        return false;
    };
    let Kind::File {
        executable: false, ..
    } = entry.kind
    else {
        return false;
    };
    !name.contains('/') && !name.starts_with('.') && !known_type(name)
}

/// Whether a file name says what it is: a script with a runner, or data or a document.
fn known_type(name: &str) -> bool {
    let lower = name.to_ascii_lowercase();
    if DATA_NAMES.contains(&lower.as_str()) {
        return true;
    }
    lower.rsplit_once('.').is_some_and(|(stem, ext)| {
        !stem.is_empty() && (SCRIPT_EXTENSIONS.contains(&ext) || DATA_EXTENSIONS.contains(&ext))
    })
}

/// SK408: a symbolic link in the skill leads outside it (`rel` from the skill directory).
/// `read`: whether its target is read and checked (a skill file linked to anything but a skill
/// file is not).
pub fn link_outside(
    rel: &str,
    target: &std::path::Path,
    read: bool,
    path: std::path::PathBuf,
    out: &mut Reporter,
) {
    let unread = if read {
        ""
    } else {
        " (not read: the target is not a skill file)"
    };
    // The link works where it is: a warning (a dangling one is an error, the rule's severity).
    let d = out.emit_file(
        &SK408,
        path,
        format!(
            "symlink `{rel}` points outside the skill, to `{}`{unread}",
            target.display()
        ),
    );
    d.severity = crate::diagnostic::Severity::Warning;
    d.help("runtimes follow the link where it is, but `skillc pack`, an install that copies the skill directory or a move to another machine loses or breaks it: copy the target into the skill, or link the whole skill directory instead");
}

/// SK408: the skill file itself is a symbolic link that leads nowhere.
pub fn dangling_skill_file(name: &str, path: std::path::PathBuf, out: &mut Reporter) {
    out.emit_file(
        &SK408,
        path,
        format!("symlink `{name}` is dangling: the skill has no skill file"),
    )
    .help("point the link at the skill file inside the skill, or replace it with the file");
}

/// Whether a file or directory name looks like a secret or version-control data (SK411):
/// `.env*` (not a template such as `.env.example`), `*.pem`, `*.key`, `id_rsa*`,
/// `id_ed25519*`, `.git`, `.npmrc`, `.pypirc`.
pub fn sensitive(name: &str, kind: &Kind) -> bool {
    if name == ".git" {
        return true;
    }
    if *kind == Kind::Dir {
        return false;
    }
    (name.starts_with(".env") && !env_template(name))
        || name.ends_with(".pem")
        || name.ends_with(".key")
        || name.starts_with("id_rsa")
        || name.starts_with("id_ed25519")
        || name == ".npmrc"
        || name == ".pypirc"
}

/// `.env.example`, `.env.sample`, `.env.template`, `.env.dist` (also after another part:
/// `.env.local.example`): a template with placeholders, committed on purpose.
fn env_template(name: &str) -> bool {
    name.strip_prefix(".env.")
        .and_then(|rest| rest.rsplit('.').next())
        .is_some_and(|last| ENV_TEMPLATES.contains(&last))
}

/// Whether a regular file (not through a link) begins with `#!`. Its text (the first
/// [`crate::input::TEXT_READ`] bytes: other rules read it too, as a script the skill names or
/// runs) is kept in `read` under `rel` when it is text: UTF-8 without a NUL in its first KiB
/// (other bytes are for the rules that tell what they are).
fn starts_with_shebang(
    path: &std::path::Path,
    rel: &str,
    read: &mut Vec<(String, String)>,
) -> bool {
    let Ok((file, _)) = crate::input::open_regular(path, crate::input::Links::Refuse) else {
        return false;
    };
    let mut bytes = Vec::new();
    if file
        .take(crate::input::TEXT_READ)
        .read_to_end(&mut bytes)
        .is_err()
    {
        return false;
    }
    let shebang = bytes.starts_with(b"#!");
    if !bytes[..bytes.len().min(1024)].contains(&0)
        && let Ok(text) = String::from_utf8(bytes)
    {
        read.push((rel.to_string(), text));
    }
    shebang
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(rel: &str, executable: bool) -> Entry {
        Entry {
            rel: rel.to_string(),
            kind: Kind::File {
                size: 1,
                executable,
            },
        }
    }

    #[test]
    fn only_unknown_files_directly_in_scripts_are_not_runnable() {
        for rel in ["scripts/tool", "scripts/convert.run", "scripts/data.bin"] {
            assert!(not_runnable(&file(rel, false)), "{rel}");
        }
        for rel in [
            "scripts/tool.PY",
            "scripts/plot.R",
            "scripts/server.cjs",
            "scripts/pyproject.toml",
            "scripts/uv.lock",
            "scripts/README.md",
            "scripts/Makefile",
            "scripts/shadcn.tar.gz",
            "scripts/.gitignore",
            "scripts/office/schemas/dml.xsd",
            "scripts/vendor/tool",
            "tool",
            "assets/tool",
        ] {
            assert!(!not_runnable(&file(rel, false)), "{rel}");
        }
        assert!(!not_runnable(&file("scripts/tool", true)));
    }

    #[test]
    fn a_script_read_for_its_first_line_is_kept_when_it_is_text() {
        let dir = tempfile::tempdir().unwrap();
        let write = |name: &str, bytes: &[u8]| {
            let path = dir.path().join(name);
            std::fs::write(&path, bytes).unwrap();
            path
        };
        let mut read = Vec::new();
        assert!(starts_with_shebang(
            &write("run", b"#!/bin/sh\necho hi\n"),
            "scripts/run",
            &mut read
        ));
        assert!(!starts_with_shebang(
            &write("notes", b"echo hi\n"),
            "scripts/notes",
            &mut read
        ));
        // Not text: told apart by the rules that read it again.
        assert!(!starts_with_shebang(
            &write("blob", b"\x7fELF\0\0\x01"),
            "scripts/blob",
            &mut read
        ));
        assert!(!starts_with_shebang(
            &write("latin1", b"caf\xe9\n"),
            "scripts/latin1",
            &mut read
        ));
        assert!(!starts_with_shebang(
            &dir.path().join("missing"),
            "scripts/missing",
            &mut read
        ));
        let kept: Vec<(&str, &str)> = read.iter().map(|(r, t)| (r.as_str(), t.as_str())).collect();
        assert_eq!(
            kept,
            [
                ("scripts/run", "#!/bin/sh\necho hi\n"),
                ("scripts/notes", "echo hi\n")
            ]
        );
    }

    #[test]
    fn env_templates_are_not_secrets() {
        let kind = Kind::File {
            size: 1,
            executable: false,
        };
        for name in [
            ".env.example",
            ".env.sample",
            ".env.template",
            ".env.dist",
            ".env.local.example",
        ] {
            assert!(!sensitive(name, &kind), "{name}");
        }
        for name in [
            ".env",
            ".env.local",
            ".env.example.bak",
            ".envrc",
            "server.pem",
            "deploy.key",
            "id_rsa",
            "id_ed25519.pub",
            ".npmrc",
            ".pypirc",
        ] {
            assert!(sensitive(name, &kind), "{name}");
        }
        assert!(sensitive(".git", &Kind::Dir));
        assert!(!sensitive(".env", &Kind::Dir));
    }
}
