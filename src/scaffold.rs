//! Scaffolding: templates embedded from `templates/` (or a user's `--template-dir`), rendered
//! with minijinja, written to a new directory atomically.

use std::fmt;
use std::path::{Path, PathBuf};

use include_dir::{Dir, include_dir};

use crate::dialect::Dialect;

static TEMPLATES: Dir<'static> = include_dir!("$CARGO_MANIFEST_DIR/templates");

/// The templates every dialect has.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Template {
    /// The skill file with the required fields and a short body.
    Minimal,
    /// Every field with defaults, and a body that teaches the structure of a good skill.
    Standard,
    /// Standard plus `scripts/`, `references/` and `assets/`, all linked from the body.
    Scripts,
}

impl Template {
    pub fn as_str(self) -> &'static str {
        match self {
            Template::Minimal => "minimal",
            Template::Standard => "standard",
            Template::Scripts => "scripts",
        }
    }

    /// The built-in template of a name.
    pub fn named(name: &str) -> Option<Template> {
        [Template::Minimal, Template::Standard, Template::Scripts]
            .into_iter()
            .find(|t| t.as_str() == name)
    }
}

/// Whether `name` can name a template directory: one path component of letters, digits, `-`
/// and `_`.
pub fn is_template_name(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= 64
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
}

/// The values a template is rendered with.
#[derive(Debug, Clone)]
pub struct Values {
    pub key: String,
    pub display_name: String,
    pub description: String,
    pub date: String,
}

/// The description used when none is given; it passes every description rule.
pub const DEFAULT_DESCRIPTION: &str =
    "Describe what this skill does and when to use it. Use when the user asks for ...";

/// A rendered file, relative to the new skill's directory.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RenderedFile {
    pub path: PathBuf,
    pub contents: String,
    pub executable: bool,
}

/// Why scaffolding failed.
#[derive(Debug)]
pub enum Error {
    /// The template (or its skill file) is missing: a usage error.
    Template(String),
    /// Rendering failed.
    Render(String),
    /// Writing failed.
    Io(String),
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Template(m) | Error::Render(m) | Error::Io(m) => f.write_str(m),
        }
    }
}

/// Renders a template's files: embedded, or from `template_dir` (same layout as `templates/`).
pub fn render(
    dialect: Dialect,
    template: &str,
    template_dir: Option<&Path>,
    values: &Values,
) -> Result<Vec<RenderedFile>, Error> {
    if !is_template_name(template) {
        return Err(Error::Template(format!(
            "`{template}` cannot name a template: use letters, digits, `-` and `_`"
        )));
    }
    let sources = match template_dir {
        // Templates come from the directory given, whatever their name.
        Some(dir) => from_disk(dir, dialect, template)?,
        None => match Template::named(template) {
            Some(builtin) => embedded(dialect, builtin)?,
            None => {
                return Err(Error::Template(format!(
                    "no template `{template}`: the built-in ones are `minimal`, `standard` and `scripts`; `--template-dir DIR` adds DIR/{}/{template}/",
                    dialect.as_str()
                )));
            }
        },
    };
    if !sources
        .iter()
        .any(|(p, _)| p == Path::new(dialect.file_name()))
    {
        return Err(Error::Template(format!(
            "template `{}/{}` has no {}",
            dialect.as_str(),
            template,
            dialect.file_name()
        )));
    }
    let mut env = minijinja::Environment::new();
    if let Ok(syntax) = minijinja::syntax::SyntaxConfig::builder()
        .keep_trailing_newline(true)
        .build()
    {
        env.set_syntax(syntax);
    }
    env.add_filter("yaml", |text: String| {
        serde_json::to_string(&text).unwrap_or_else(|_| "\"\"".to_string())
    });
    let context = minijinja::Value::from(std::collections::BTreeMap::from([
        ("key", values.key.clone()),
        ("display_name", values.display_name.clone()),
        ("description", values.description.clone()),
        ("date", values.date.clone()),
    ]));
    let mut out = Vec::new();
    for (path, text) in sources {
        let contents = env
            .render_str(&text, context.clone())
            .map_err(|e| Error::Render(format!("rendering `{}`: {e}", path.display())))?;
        let executable = path.starts_with("scripts");
        out.push(RenderedFile {
            path,
            contents,
            executable,
        });
    }
    out.sort_by(|a, b| a.path.cmp(&b.path));
    Ok(out)
}

fn embedded(dialect: Dialect, template: Template) -> Result<Vec<(PathBuf, String)>, Error> {
    let root = format!("{}/{}", dialect.as_str(), template.as_str());
    let dir = TEMPLATES
        .get_dir(&root)
        .ok_or_else(|| Error::Template(format!("no built-in template `{root}`")))?;
    let mut out = Vec::new();
    collect_embedded(dir, Path::new(&root), &mut out);
    Ok(out)
}

fn collect_embedded(dir: &Dir<'static>, root: &Path, out: &mut Vec<(PathBuf, String)>) {
    for file in dir.files() {
        if let (Ok(rel), Some(text)) = (file.path().strip_prefix(root), file.contents_utf8()) {
            out.push((rel.to_path_buf(), text.to_string()));
        }
    }
    for sub in dir.dirs() {
        collect_embedded(sub, root, out);
    }
}

fn from_disk(
    base: &Path,
    dialect: Dialect,
    template: &str,
) -> Result<Vec<(PathBuf, String)>, Error> {
    let root = base.join(dialect.as_str()).join(template);
    if !root.is_dir() {
        return Err(Error::Template(format!(
            "`{}` has no template `{}/{}` (expected the directory `{}`)",
            base.display(),
            dialect.as_str(),
            template,
            root.display()
        )));
    }
    let mut out = Vec::new();
    let mut stack = vec![root.clone()];
    while let Some(dir) = stack.pop() {
        let entries = std::fs::read_dir(&dir)
            .map_err(|e| Error::Template(format!("reading `{}`: {e}", dir.display())))?;
        for entry in entries.flatten() {
            let path = entry.path();
            let Ok(meta) = std::fs::symlink_metadata(&path) else {
                continue;
            };
            if meta.is_dir() {
                stack.push(path);
            } else if meta.is_file() {
                let text = std::fs::read_to_string(&path)
                    .map_err(|e| Error::Template(format!("reading `{}`: {e}", path.display())))?;
                let rel = path
                    .strip_prefix(&root)
                    .map(Path::to_path_buf)
                    .unwrap_or_default();
                out.push((rel, text));
            }
        }
        if out.len() > 1000 {
            return Err(Error::Template(format!(
                "`{}` holds more than 1000 files",
                root.display()
            )));
        }
    }
    Ok(out)
}

/// Writes `files` into `target`, which must not exist (or, with `force`, be an empty
/// directory). Everything is written into a temporary directory beside it first and renamed
/// into place, so a failure leaves nothing behind and nothing is overwritten.
pub fn write(target: &Path, files: &[RenderedFile], force: bool) -> Result<(), Error> {
    let parent = target
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    std::fs::create_dir_all(parent)
        .map_err(|e| Error::Io(format!("creating `{}`: {e}", parent.display())))?;
    let staging = tempfile::Builder::new()
        .prefix(".skillc-new-")
        .tempdir_in(parent)
        .map_err(|e| {
            Error::Io(format!(
                "creating a temporary directory in `{}`: {e}",
                parent.display()
            ))
        })?;
    for file in files {
        if file
            .path
            .components()
            .any(|c| !matches!(c, std::path::Component::Normal(_)))
        {
            return Err(Error::Template(format!(
                "template path `{}` leaves the skill",
                file.path.display()
            )));
        }
        let path = staging.path().join(&file.path);
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir)
                .map_err(|e| Error::Io(format!("creating `{}`: {e}", dir.display())))?;
        }
        std::fs::write(&path, &file.contents)
            .map_err(|e| Error::Io(format!("writing `{}`: {e}", path.display())))?;
        set_mode(&path, if file.executable { 0o755 } else { 0o644 })?;
    }
    set_mode(staging.path(), 0o755)?;
    if force && target.is_dir() {
        // rename(2) replaces an empty directory and fails on a non-empty one: never a loss.
        let empty = std::fs::read_dir(target)
            .map(|mut d| d.next().is_none())
            .unwrap_or(false);
        if !empty {
            return Err(Error::Io(format!("`{}` is not empty", target.display())));
        }
    } else if target.exists() || target.is_symlink() {
        return Err(Error::Io(format!("`{}` already exists", target.display())));
    }
    let staged = staging.keep();
    std::fs::rename(&staged, target).map_err(|e| {
        let _ = std::fs::remove_dir_all(&staged);
        Error::Io(format!(
            "moving the new skill into `{}`: {e}",
            target.display()
        ))
    })
}

fn set_mode(path: &Path, mode: u32) -> Result<(), Error> {
    crate::package::archive::set_mode(path, mode).map_err(Error::Io)
}

/// `SOURCE_DATE_EPOCH` when set (reproducible output), else now.
pub fn today() -> String {
    let epoch = crate::time::source_date_epoch().unwrap_or_else(|| {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_secs() as i64)
    });
    crate::time::date(epoch)
}

/// `pdf-tools` → `Pdf Tools`.
pub fn display_name(key: &str) -> String {
    key.split('-')
        .filter(|w| !w.is_empty())
        .map(|w| {
            let mut chars = w.chars();
            chars
                .next()
                .map(|c| c.to_uppercase().chain(chars).collect::<String>())
                .unwrap_or_default()
        })
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn display_names() {
        assert_eq!(display_name("pdf-tools"), "Pdf Tools");
        assert_eq!(display_name("技能"), "技能");
    }
}
