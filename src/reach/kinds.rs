//! What a skill's files are to the reach: which ones SK412 may report, which are never anyone's
//! reference, and how each one's text is searched.

use super::path::{extension, has_extension};

/// Folders whose files the model should be told about (SK412).
pub(super) const DISCOVERABLE: [&str; 3] = ["references", "resources", "scripts"];

/// Folders and files that are never anyone's reference: caches, dependencies, metadata.
pub(super) const IGNORED_DIRS: [&str; 4] = ["__pycache__", "node_modules", "__MACOSX", "venv"];
pub(super) const IGNORED_EXTENSIONS: [&str; 3] = ["pyc", "pyo", "class"];
/// Files that serve the scripts or the people who maintain them, not the model: package
/// manifests and lock files, documentation of the folder.
pub(super) const TOOLING_FILES: [&str; 30] = [
    "pyproject.toml",
    "uv.lock",
    "poetry.lock",
    "pipfile",
    "pipfile.lock",
    "setup.py",
    "setup.cfg",
    "requirements.txt",
    "requirements-dev.txt",
    "package.json",
    "package-lock.json",
    "npm-shrinkwrap.json",
    "yarn.lock",
    "pnpm-lock.yaml",
    "bun.lockb",
    "tsconfig.json",
    "jsconfig.json",
    "deno.json",
    "deno.lock",
    "gemfile",
    "gemfile.lock",
    "go.mod",
    "go.sum",
    "cargo.toml",
    "cargo.lock",
    "composer.json",
    "composer.lock",
    "readme.md",
    "license",
    "conftest.py",
];
/// Folders of tests.
pub(super) const TEST_DIRS: [&str; 3] = ["tests", "test", "__tests__"];
/// Package markers: imported with their package, never named.
pub(super) const PACKAGE_FILES: [&str; 5] = [
    "__init__.py",
    "index.js",
    "index.mjs",
    "index.cjs",
    "index.ts",
];

pub(super) const MARKDOWN: [&str; 3] = ["md", "markdown", "mdx"];
pub(super) const PROSE: [&str; 3] = ["txt", "rst", "adoc"];
/// Source files: their imports, runs and string literals count as mentions.
pub(super) const CODE: [&str; 26] = [
    "py", "sh", "bash", "zsh", "fish", "js", "mjs", "cjs", "ts", "mts", "cts", "jsx", "tsx", "rb",
    "pl", "php", "ps1", "psm1", "lua", "r", "go", "rs", "java", "kt", "swift", "bat",
];
/// Data and markup files: their string literals count as mentions (`schemaLocation="x.xsd"`,
/// `<script src="helper.js">`).
pub(super) const DATA: [&str; 16] = [
    "json", "jsonl", "yaml", "yml", "toml", "xml", "xsd", "xsl", "html", "htm", "css", "ini",
    "cfg", "conf", "j2", "tmpl",
];
pub(super) const IMAGES: [&str; 9] = [
    "png", "jpg", "jpeg", "gif", "svg", "webp", "ico", "bmp", "avif",
];

/// What a file's text can be searched for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum TextKind {
    /// Markdown: its links and the names it mentions.
    Markdown,
    /// Other prose: the names it mentions.
    Prose,
    /// A script or data file: names, string literals naming folders, and (Python) imports.
    Code,
}

impl TextKind {
    /// How a file is searched, or `None` for files that are not text (images, archives…).
    pub(super) fn of(rel: &str) -> Option<TextKind> {
        match extension(rel) {
            None => Some(TextKind::Code),
            Some(e) if MARKDOWN.contains(&e.as_str()) => Some(TextKind::Markdown),
            Some(e) if PROSE.contains(&e.as_str()) => Some(TextKind::Prose),
            Some(e) if CODE.contains(&e.as_str()) || DATA.contains(&e.as_str()) => {
                Some(TextKind::Code)
            }
            Some(_) => None,
        }
    }
}

/// Whether a path is a cache, a dependency folder, metadata or a package marker: never
/// reported, never searched (package markers are searched when their package is imported).
pub(super) fn ignored(rel: &str) -> bool {
    let mut parts = rel.split('/');
    let name = rel.rsplit('/').next().unwrap_or(rel);
    parts.any(|p| p.starts_with('.') || IGNORED_DIRS.contains(&p))
        || PACKAGE_FILES.contains(&name)
        || has_extension(rel, &IGNORED_EXTENSIONS)
}

/// Whether a file serves the scripts rather than the model: a manifest, a lock file, a README
/// or license, a test (`test_x.py`, `x_test.go`, `x.test.js`, `x.spec.ts`, anything in
/// `tests/`). Such files are searched when reached but never reported.
pub(super) fn tooling(rel: &str) -> bool {
    let name = rel.rsplit('/').next().unwrap_or(rel).to_ascii_lowercase();
    let stem = name.split('.').next().unwrap_or(&name);
    TOOLING_FILES.contains(&name.as_str())
        || ["readme", "license", "licence", "changelog", "requirements"].contains(&stem)
        || rel.split('/').any(|p| TEST_DIRS.contains(&p))
        || (stem.starts_with("test_") || stem.ends_with("_test"))
        || name.contains(".test.")
        || name.contains(".spec.")
}

/// Whether SK412 reports the file at `rel` when nothing mentions it.
pub(super) fn is_candidate(rel: &str) -> bool {
    DISCOVERABLE
        .iter()
        .any(|d| rel.strip_prefix(d).is_some_and(|r| r.starts_with('/')))
        && !ignored(rel)
        && !tooling(rel)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ignores_caches_and_markers() {
        assert!(ignored("scripts/__pycache__/x.pyc"));
        assert!(ignored("scripts/__init__.py"));
        assert!(ignored("scripts/node_modules/a/b.js"));
        assert!(ignored("references/.DS_Store"));
        assert!(!ignored("scripts/run.py"));
        for rel in [
            "scripts/uv.lock",
            "scripts/test_x.py",
            "scripts/x_test.go",
            "scripts/a.spec.ts",
            "scripts/tests/data.json",
            "scripts/README.md",
            "scripts/requirements-dev.txt",
        ] {
            assert!(tooling(rel), "{rel}");
        }
        assert!(!tooling("scripts/testing.py"));
    }
}
