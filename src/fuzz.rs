//! Fuzz targets: each takes any bytes and must return without panicking, hanging or
//! allocating without bound. `fuzz/` runs them under cargo-fuzz (libFuzzer); `tests/fuzz_seeds.rs`
//! runs them over their seed corpora on stable, so every seed is a regression test.

use std::path::{Path, PathBuf};

use crate::config::{Overrides, Settings};
use crate::discover::{SkillDir, Tier};
use crate::render;
use crate::skill::SkillReport;
use crate::source::SkillFile;

/// A fuzz target: any bytes in, nothing out.
pub type Target = fn(&[u8]);

/// The fuzz targets by name, as `fuzz/fuzz_targets/` and the seed corpora name them.
pub const TARGETS: &[(&str, Target)] = &[
    ("skill_file", skill_file),
    ("config", config),
    ("tool_schema", tool_schema),
    ("archive", archive),
    ("signing", signing),
];

/// A skill directory that does not exist on disk: the skill file's bytes are all there is.
fn phantom_skill() -> SkillDir {
    let dir = PathBuf::from("/nonexistent/skillc-fuzz/fuzz-skill");
    SkillDir {
        file: Some(dir.join("SKILL.md").into()),
        real: crate::discover::Real::At(dir.clone().into()),
        dir: dir.into(),
        tier: Tier::Project,
        rare: None,
        listed: Default::default(),
    }
}

/// Every renderer over the reports.
fn render_all(reports: &[SkillReport]) {
    let _ = render::full::render(reports, true);
    let _ = render::concise::render(reports);
    let _ = render::json::render(reports);
    let _ = render::sarif::render(reports);
    let _ = render::github::render(reports);
    let _ = render::statistics::render(reports);
}

/// The skill-file pipeline: frontmatter split, YAML, dialects, every rule (Markdown links,
/// suppressions, token counts), then every renderer.
pub fn skill_file(data: &[u8]) {
    let settings = Settings::default();
    let keep = crate::skill::Keep {
        details: true,
        lines: true,
        costs: true,
        fields: true,
    };
    let report = crate::lint::lint_buffer(
        phantom_skill(),
        data.to_vec(),
        &settings,
        Path::new("/"),
        keep,
    );
    render_all(std::slice::from_ref(&report));
}

/// `skillc.toml`: parsing, selection and its error positions.
pub fn config(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let result = Settings::from_text(
        Some(PathBuf::from("skillc.toml")),
        Some(text.to_string()),
        Path::new("/"),
        &Overrides::default(),
    );
    if let Err(e) = result {
        let _ = e.to_string();
    }
}

/// A bundled tool schema (`tools.json`): JSON positions, meta-schema checks, then every
/// renderer over its diagnostics.
pub fn tool_schema(data: &[u8]) {
    let skill = phantom_skill();
    let file = SkillFile::new(
        skill.dir.join("tools.json"),
        String::from_utf8_lossy(data).into_owned(),
    );
    let mut bundle = crate::rules::tools::Bundle::default();
    crate::rules::tools::check_source(file, &skill.dir, Some("fuzz-skill"), "", &mut bundle);
    let mut report = SkillReport::empty(skill);
    report.diagnostics = bundle.diagnostics;
    crate::lint::keep_lines(&mut report, None, &bundle.files);
    render_all(std::slice::from_ref(&report));
}

/// The archive reader and the manifest check `verify` and `unpack` run, over
/// [`archive_bytes`].
pub fn archive(data: &[u8]) {
    let Some(bytes) = archive_bytes(data) else {
        return;
    };
    let _ = crate::package::reader::read(&bytes);
    let _ = crate::package::verify::check_archive(&bytes);
}

/// Bytes that are a gzip or zip archive as they are; any other bytes taken as a raw tar and
/// wrapped in a stored (uncompressed) gzip member, so that mutations reach the tar parser's
/// structure directly instead of a compressed stream.
pub fn archive_bytes(data: &[u8]) -> Option<std::borrow::Cow<'_, [u8]>> {
    use std::io::Write;
    if crate::package::reader::sniff(data).is_some() {
        return Some(data.into());
    }
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::none());
    gz.write_all(data).ok()?;
    gz.finish().ok().map(Into::into)
}

/// The parsers of what `verify` and `sign` read: bundles, manifests, keys.
pub fn signing(data: &[u8]) {
    let _ = crate::sign::Bundle::parse(data);
    let _ = crate::package::manifest::Manifest::parse(data);
    let text = String::from_utf8_lossy(data);
    // No password: a hostile key's key-derivation cost is not what is fuzzed here.
    let _ = crate::sign::signing_key(&text, None);
    let _ = crate::sign::verifying_key(&text);
}
