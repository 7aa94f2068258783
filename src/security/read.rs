//! Reads a skill's files once, under caps, and tells what language each is written in.

use std::io::Read as _;
use std::path::Path;

use super::{MAX_FILES, MAX_READ, MAX_SKILL_BYTES};
use crate::files::{Kind, LinkTarget, SkillTree};
use crate::input::Links;

/// The language a file is matched as.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lang {
    /// Markdown and plain text: prose, code fences, HTML comments.
    Markdown,
    Shell,
    Python,
    /// JavaScript and TypeScript.
    JavaScript,
    /// PowerShell and Windows batch files.
    PowerShell,
    /// JSON (tool schemas, hooks, manifests), YAML, TOML, INI and service definitions: their
    /// strings and values are commands or prose.
    Data,
    /// Another script language (Ruby, Perl, PHP, Lua…): matched as code.
    Code,
}

impl Lang {
    /// Whether it is code (every line may run), not prose.
    pub fn is_code(self) -> bool {
        !matches!(self, Lang::Markdown | Lang::Data)
    }
}

/// What a file that is not text is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Binary {
    /// Compiled Python without its source beside it.
    Bytecode,
    /// An executable or a shared library (ELF, Mach-O, PE).
    Executable,
    /// Java bytecode or an archive of it.
    Java,
}

/// One file of the skill, as read.
#[derive(Debug)]
pub struct Source {
    /// From the skill's root, `/`-separated.
    pub rel: String,
    pub lang: Lang,
    /// Its text (invalid UTF-8 replaced); empty for a binary file.
    pub text: String,
    /// What it is when it is not text.
    pub binary: Option<Binary>,
    /// The skill file itself.
    pub is_skill_file: bool,
}

/// Extensions of files that are never text worth matching (images, fonts, archives, media).
#[rustfmt::skip]
const SKIPPED: &[&str] = &[
    "png", "jpg", "jpeg", "gif", "webp", "ico", "bmp", "tiff", "svgz", "ttf", "otf", "woff",
    "woff2", "eot", "zip", "tar", "gz", "tgz", "bz2", "xz", "zst", "7z", "rar", "whl", "pdf",
    "docx", "xlsx", "pptx", "odt", "mp3", "mp4", "wav", "ogg", "mov", "webm", "avi", "flac",
    "sqlite", "db", "parquet", "npy", "npz", "pkl", "pt", "onnx", "safetensors", "bin", "dat",
    "lock", "map", "wasm",
];

fn lang_of(rel: &str, head: &[u8]) -> Option<Lang> {
    let name = rel.rsplit('/').next().unwrap_or(rel).to_ascii_lowercase();
    let ext = name.rsplit_once('.').map_or("", |(_, e)| e);
    Some(match ext {
        "md" | "markdown" | "mdx" | "txt" | "rst" | "adoc" | "html" | "htm" => Lang::Markdown,
        "sh" | "bash" | "zsh" | "ksh" | "fish" | "command" | "bashrc" | "zshrc" | "profile" => {
            Lang::Shell
        }
        "py" | "pyw" | "ipynb" => Lang::Python,
        "js" | "mjs" | "cjs" | "ts" | "mts" | "cts" | "jsx" | "tsx" => Lang::JavaScript,
        "ps1" | "psm1" | "psd1" | "bat" | "cmd" => Lang::PowerShell,
        "json" | "jsonc" | "json5" | "yaml" | "yml" | "toml" | "conf" | "ini" | "cfg" | "npmrc"
        | "yarnrc" | "pypirc" => Lang::Data,
        // Service definitions run what they name: systemd units, XDG autostart entries,
        // launchd property lists.
        "service" | "timer" | "socket" | "desktop" | "plist" => Lang::Data,
        "rb" | "pl" | "pm" | "php" | "lua" | "go" | "rs" | "java" | "kt" | "swift" | "r" | "cs"
        | "c" | "cpp" | "h" | "applescript" | "scpt" | "vbs" | "tcl" | "awk" | "makefile"
        | "dockerfile" => Lang::Code,
        _ if SKIPPED.contains(&ext) => return None,
        _ => match head {
            [b'#', b'!', rest @ ..] => {
                let line = rest.split(|&b| b == b'\n').next().unwrap_or(rest);
                let line = String::from_utf8_lossy(line);
                if line.contains("python") {
                    Lang::Python
                } else if line.contains("node") || line.contains("deno") || line.contains("bun") {
                    Lang::JavaScript
                } else if line.contains("pwsh") || line.contains("powershell") {
                    Lang::PowerShell
                } else if line.contains("sh") {
                    Lang::Shell
                } else {
                    Lang::Code
                }
            }
            _ if name == "makefile" || name == "dockerfile" || name == "justfile" => Lang::Code,
            _ => Lang::Markdown,
        },
    })
}

/// What the first bytes say a file is, when it is not text.
fn binary_of(rel: &str, head: &[u8]) -> Option<Binary> {
    let lower = rel.to_ascii_lowercase();
    if lower.ends_with(".pyc") || lower.ends_with(".pyo") {
        return Some(Binary::Bytecode);
    }
    if lower.ends_with(".class") || lower.ends_with(".jar") {
        return Some(Binary::Java);
    }
    const MAGICS: [&[u8]; 6] = [
        b"\x7fELF",
        b"\xcf\xfa\xed\xfe",
        b"\xce\xfa\xed\xfe",
        b"\xca\xfe\xba\xbe",
        b"\xfe\xed\xfa\xcf",
        b"MZ",
    ];
    let executable = MAGICS.iter().any(|m| head.starts_with(m))
        && (!head.starts_with(b"MZ") || head.len() >= 64 && head.get(2..4) != Some(b"  "));
    executable.then_some(Binary::Executable)
}

/// Reads the skill at `root` (its real directory) whose files are `tree`: the skill file
/// (`skill_rel`, already read: `skill_text`) and every other file outside the skills nested in
/// it, each at most once and within the caps. `read_before`: files other rules read already
/// (by path from the root, with their text), taken rather than read again. Links are read only
/// when they stay inside.
pub fn read(
    root: &Path,
    tree: &SkillTree,
    skill_rel: &str,
    skill_text: &str,
    read_before: &[(&str, &str)],
) -> Vec<Source> {
    let mut sources = vec![Source {
        rel: skill_rel.to_string(),
        lang: Lang::Markdown,
        text: skill_text.to_string(),
        binary: None,
        is_skill_file: true,
    }];
    let nested: Vec<String> = tree
        .nested_roots()
        .into_iter()
        .map(|r| format!("{r}/"))
        .collect();
    let mut budget = MAX_SKILL_BYTES;
    for entry in &tree.entries {
        if sources.len() >= MAX_FILES || budget == 0 {
            break;
        }
        let size = match entry.kind {
            Kind::File { size, .. } | Kind::Symlink(LinkTarget::InsideFile(size)) => size,
            _ => continue,
        };
        let rel = entry.rel.as_str();
        if rel == skill_rel
            || nested.iter().any(|n| rel.starts_with(n.as_str()))
            || rel.split('/').any(|part| {
                matches!(
                    part,
                    "node_modules" | ".git" | ".venv" | "venv" | "__pycache__"
                )
            }) && !rel.ends_with(".pyc")
        {
            continue;
        }
        let lower = rel.to_ascii_lowercase();
        let ext = lower.rsplit_once('.').map_or("", |(_, e)| e);
        if SKIPPED.contains(&ext) && size > 0 {
            continue;
        }
        // A text another rule kept only in part (up to a line it reports) is read again.
        // What is not text (by its name or first bytes) is read here, to be told what it is.
        if let Some((_, text)) = read_before.iter().find(|(r, t)| {
            *r == rel
                && t.len() as u64 >= size.min(MAX_READ)
                && binary_of(rel, &t.as_bytes()[..t.len().min(64)]).is_none()
        }) {
            let text: String = text.chars().take(MAX_READ as usize).collect();
            budget = budget.saturating_sub(text.len() as u64);
            if let Some(lang) = lang_of(rel, text.as_bytes()) {
                sources.push(Source {
                    rel: rel.to_string(),
                    lang,
                    text,
                    binary: None,
                    is_skill_file: false,
                });
            }
            continue;
        }
        let want = size.min(MAX_READ).min(budget);
        // Without blocking, and only a regular file: a name swapped for a FIFO or a link since
        // the listing is not read (a link that stays inside is followed, as listed).
        let links = match entry.kind {
            Kind::File { .. } => Links::Refuse,
            _ => Links::Follow,
        };
        let Ok((file, _)) = crate::input::open_regular(&root.join(rel), links) else {
            continue;
        };
        let mut bytes = Vec::with_capacity(want as usize);
        if file.take(want).read_to_end(&mut bytes).is_err() {
            continue;
        }
        budget = budget.saturating_sub(bytes.len() as u64);
        if let Some(binary) = binary_of(rel, &bytes[..bytes.len().min(64)]) {
            sources.push(Source {
                rel: rel.to_string(),
                lang: Lang::Code,
                text: String::new(),
                binary: Some(binary),
                is_skill_file: false,
            });
            continue;
        }
        // Other binary data (a NUL in its first KiB) is not text to match.
        if bytes[..bytes.len().min(1024)].contains(&0) {
            continue;
        }
        let Some(lang) = lang_of(rel, &bytes[..bytes.len().min(256)]) else {
            continue;
        };
        let text = crate::input::text_lossy(bytes);
        sources.push(Source {
            rel: rel.to_string(),
            lang,
            text,
            binary: None,
            is_skill_file: false,
        });
    }
    sources
}
