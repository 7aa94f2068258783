//! `skillc pack [DIR]`: a reproducible archive of one skill, optionally signed.

use std::path::PathBuf;

use serde_json::json;

use super::{Outcome, current_dir, fail};
use crate::config::{Overrides, Settings, Source};
use crate::diagnostic::Severity;
use crate::diagnostic::thousands;
use crate::discover;
use crate::lint;
use crate::package::archive::{self, Format};
use crate::package::manifest::Manifest;
use crate::package::{self, Limits, hex};
use crate::render;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The skill directory (default `.`).
    dir: Option<PathBuf>,
    /// The archive to write (default `{key}.skill.tar.gz` or `{key}.zip` here).
    #[arg(short, long, value_name = "PATH")]
    output: Option<PathBuf>,
    /// Archive format (`--format` is the same flag).
    #[arg(
        long = "archive-format",
        visible_alias = "format",
        value_name = "FORMAT",
        value_enum,
        default_value = "tar.gz"
    )]
    format: Format,
    /// Write nothing; print what would be packed.
    #[arg(long)]
    dry_run: bool,
    /// Print only the file list, one path per line, and write nothing.
    #[arg(long)]
    list: bool,
    /// Output format of the result (`--json` is `--output-format json`).
    #[arg(
        long = "output-format",
        value_enum,
        value_name = "FORMAT",
        default_value = "text"
    )]
    output_format: super::OutputFormat,
    /// Print the result as JSON on stdout (`--output-format json`).
    #[arg(long)]
    json: bool,
    /// Sign the archive right after packing (writes ARCHIVE.sigstore.json).
    #[arg(long, value_name = "KEY")]
    key: Option<PathBuf>,
    /// Sign keylessly instead (an OIDC identity; writes ARCHIVE.sigstore.json).
    #[command(flatten)]
    keyless: super::sign::KeylessArgs,
    /// Replace an existing archive (and bundle).
    #[arg(long)]
    force: bool,
    /// Pack files that look like private keys or secrets (SK411) instead of refusing.
    #[arg(long)]
    allow_secrets: bool,
    /// Pack even if the skill has validation errors.
    #[arg(long)]
    no_validate: bool,
    /// Refuse skills whose files add up to more than this many bytes.
    #[arg(long, value_name = "BYTES", default_value_t = 64 * 1024 * 1024)]
    max_size: u64,
}

/// `color`: `--color`, for the validation errors printed on stderr.
pub fn run(args: &Args, color: super::ColorChoice) -> Outcome {
    let color = color.enabled(std::io::IsTerminal::is_terminal(&std::io::stderr()));
    let cwd = match current_dir() {
        Ok(cwd) => cwd,
        Err(outcome) => return outcome,
    };
    let mut dir = discover::clean(&args.dir.clone().unwrap_or_else(|| PathBuf::from(".")));
    // A skill file names its skill (`skillc pack skills/x/SKILL.md`).
    let names_skill_file = dir
        .file_name()
        .is_some_and(|name| discover::SKILL_FILE_NAMES.iter().any(|n| name == *n));
    if dir.is_file() && names_skill_file {
        dir = discover::clean(
            &dir.parent()
                .map_or_else(|| PathBuf::from("."), |p| p.join(".")),
        );
    }
    let shown = render::escaped(&dir.display().to_string());
    if dir.is_file() {
        return fail(
            Outcome::Usage,
            format!("`{shown}` is a file; pack takes a skill directory (or its SKILL.md)"),
        );
    }
    if !dir.is_dir() {
        return fail(Outcome::Usage, format!("path not found: {}", shown));
    }
    if discover::skill_file_in(&dir).is_none() {
        return fail(
            Outcome::Usage,
            format!(
                "`{}` holds no SKILL.md or skill.md; pack takes a skill directory",
                shown
            ),
        );
    }
    // The key is read before anything is written: a wrong key or password leaves no archive.
    let signing_key = match &args.key {
        Some(path) if !args.dry_run && !args.list => match super::sign::read_key(path) {
            Ok(key) => Some(key),
            Err(outcome) => return outcome,
        },
        _ => None,
    };
    // So is the identity token: none, or a malformed one, leaves no archive.
    let keyless = if args.keyless.keyless && !args.dry_run && !args.list {
        match super::sign::Keyless::begin(&args.keyless) {
            Ok(keyless) => Some(keyless),
            Err(outcome) => return outcome,
        }
    } else {
        None
    };
    let settings = match Settings::load(&Source::Discover, &cwd, &Overrides::default()) {
        Ok(settings) => settings,
        Err(e) => return fail(Outcome::Usage, e),
    };
    let discovery = match discover::discover(
        std::slice::from_ref(&dir),
        &settings,
        &cwd,
        discover::Options::default(),
    ) {
        Ok(d) => d,
        Err(discover::NotFound(p)) => {
            return fail(Outcome::Usage, format!("path not found: {}", p.display()));
        }
    };
    let Some(skill) = discovery.skills.into_iter().next() else {
        return fail(Outcome::Usage, format!("no skill in `{}`", shown));
    };
    let mut files = match package::file_set(
        &dir,
        Limits {
            max_size: args.max_size,
        },
    ) {
        Ok(files) => files,
        Err(e) => {
            return fail(
                Outcome::Problems,
                format!("cannot pack `{shown}`: {}", render::escaped(&e.0)),
            );
        }
    };
    // Validation reads the skill file's bytes from the file set: what is checked is what is
    // packed.
    let Some(skill_file) = skill
        .file
        .as_ref()
        .and_then(|f| f.file_name())
        .and_then(|name| name.to_str())
        .and_then(|name| files.iter().find(|f| f.path == name))
    else {
        return fail(
            Outcome::Usage,
            format!(
                "`{}` holds no SKILL.md or skill.md; pack takes a skill directory",
                shown
            ),
        );
    };
    let report = lint::lint_buffer(
        skill,
        skill_file.bytes.clone(),
        &settings,
        &cwd,
        crate::skill::Keep::default(),
    );
    if let Some(error) = report.io_error() {
        return fail(Outcome::Failure, error);
    }
    // The spec's `--no-validate` still packs it; no suppression or configuration does.
    if let Some(why) = unparsed(&skill_file.bytes).filter(|_| !args.no_validate) {
        eprint!(
            "{}",
            render::concise::render(std::slice::from_ref(&report), color)
        );
        return fail(
            Outcome::Problems,
            format!(
                "cannot pack `{shown}`: {why}; no suppression or configuration packs a skill file that cannot be parsed (--no-validate does)"
            ),
        );
    }
    let errors = report
        .diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .map(|d| d.count)
        .sum::<usize>();
    if errors > 0 && !args.no_validate {
        eprint!(
            "{}",
            render::concise::render(std::slice::from_ref(&report), color)
        );
        return fail(
            Outcome::Problems,
            format!(
                "`{}` has {}; fix them or pass --no-validate",
                shown,
                crate::diagnostic::counted(errors, "validation error")
            ),
        );
    }
    for d in report
        .diagnostics
        .iter()
        .filter(|d| *d.rule == crate::rule::SK410)
    {
        eprintln!("warning: {}", render::escaped(&d.message));
    }
    let key = report.key.clone().unwrap_or_else(|| report.dir.name());
    let dialect = report.dialect.map_or("agentskills", |d| d.as_str());
    let output = args
        .output
        .clone()
        .unwrap_or_else(|| PathBuf::from(args.format.file_name(&key)));
    let bundle_path = super::sign::default_bundle(&output);
    // skillc's own output (this archive, an earlier one in either format, their bundles) and
    // the signing key never go into the archive.
    let mut artifacts = vec![output.clone(), bundle_path.clone()];
    for format in [Format::TarGz, Format::Zip] {
        // The default names, here and in the skill directory (packed from inside it earlier).
        for default in [
            PathBuf::from(format.file_name(&key)),
            dir.join(format.file_name(&key)),
        ] {
            artifacts.push(super::sign::default_bundle(&default));
            artifacts.push(default);
        }
    }
    artifacts.extend(args.key.clone());
    package::exclude(&mut files, &dir, &artifacts);
    // Earlier archives of this skill and signature bundles under other names are skillc's own
    // artifacts too: recognised by their contents, left out, and named.
    files.retain(|f| match package::artifact(f, &key) {
        Some(what) => {
            eprintln!("note: not packing `{}`: {what}", render::escaped(&f.path));
            false
        }
        None => true,
    });
    if !args.allow_secrets
        && let Some((path, why)) = files
            .iter()
            .find_map(|f| package::secret(f).map(|why| (&f.path, why)))
    {
        return fail(
            Outcome::Problems,
            format!(
                "refusing to pack `{}`: {why}; remove it, list it in .skillignore, or pass --allow-secrets",
                render::escaped(path)
            ),
        );
    }
    if args.list {
        let text: String = files
            .iter()
            .map(|f| format!("{}\n", render::escaped(&f.path)))
            .collect();
        return super::emit(&text).unwrap_or(Outcome::Success);
    }
    let manifest = Manifest::new(&key, dialect, &files);
    let manifest_bytes = manifest.to_bytes();
    let bytes = match archive::build(args.format, &key, &manifest_bytes, &files) {
        Ok(bytes) => bytes,
        Err(e) => return fail(Outcome::Failure, format!("building the archive: {e}")),
    };
    // What pack writes, verify must accept: the archive is read back with verify's own reader
    // (every cap, name and layout rule) before anything is written.
    let checked = package::verify::check_archive(&bytes).and_then(|(archive, _)| {
        if args.no_validate {
            eprintln!(
                "warning: not validated (--no-validate); `skillc verify` also requires the skill inside to validate"
            );
            return Ok(());
        }
        // verify lints the archive's own files with default settings (an archive carries no
        // skillc.toml), so a link to a file that is not packed, or a field only this
        // repository's config allows, would fail there: find it here.
        package::verify::validate_skill(&archive).map_err(|e| {
            format!("{e} (verify lints with default settings: no skillc.toml, only packed files)")
        })
    });
    if let Err(e) = checked {
        return fail(
            Outcome::Problems,
            format!(
                "cannot pack `{}`: `skillc verify` would refuse the archive: {e}",
                shown
            ),
        );
    }
    let sha256: [u8; 32] = <sha2::Sha256 as sha2::Digest>::digest(&bytes).into();
    let digest = hex(&sha256);
    let unpacked: u64 = files.iter().map(|f| f.bytes.len() as u64).sum();
    if !args.dry_run {
        let signed = signing_key.is_some() || keyless.is_some();
        if signed && !args.force && (bundle_path.exists() || bundle_path.is_symlink()) {
            return fail(
                Outcome::Usage,
                format!(
                    "`{}` already exists; pass --force to replace it",
                    bundle_path.display()
                ),
            );
        }
        // Keyless signing asks the network before anything is written: a failure leaves
        // nothing behind.
        let bundle = match (signing_key, &keyless) {
            (Some(k), _) => Some(crate::sign::sign(&k, &bytes).to_bytes()),
            (None, Some(keyless)) => match keyless.sign(sha256) {
                Ok(bundle) => Some(bundle),
                Err(outcome) => return outcome,
            },
            (None, None) => None,
        };
        let written =
            archive::write_atomic(&output, &bytes, args.force, 0o644).and_then(
                |()| match &bundle {
                    Some(b) => archive::write_atomic(&bundle_path, b, args.force, 0o644),
                    None => Ok(()),
                },
            );
        if let Err(e) = written {
            let outcome = if e.contains("already exists") {
                Outcome::Usage
            } else {
                Outcome::Failure
            };
            return fail(outcome, e);
        }
        // What was written must verify as the token's identity; if it does not, the bundle is
        // removed, and so is the archive: no archive is left unsigned when signing was asked.
        if let Some(keyless) = &keyless
            && let Err(outcome) = keyless.check_written(sha256, &bundle_path)
        {
            if let Err(e) = std::fs::remove_file(&output) {
                eprintln!("error: removing `{}`: {e}", output.display());
            }
            return outcome;
        }
    }
    if json_out(args) {
        let doc = json!({
            "path": render::slash_path(&output),
            "key": key,
            "dialect": dialect,
            "files": manifest.files.iter().map(|f| json!({"path": f.path, "size": f.size, "sha256": f.sha256})).collect::<Vec<_>>(),
            "file_count": files.len(),
            "unpacked_size": unpacked,
            "size": bytes.len(),
            "sha256": digest,
        });
        let text = crate::render::json_text(&doc) + "\n";
        if let Some(outcome) = super::emit(&text) {
            return outcome;
        }
    }
    let verb = if args.dry_run { "Would pack" } else { "Packed" };
    eprintln!("{verb} `{key}` ({dialect}):");
    let width = files
        .iter()
        .map(|f| thousands(f.bytes.len()).len())
        .max()
        .unwrap_or(1);
    for f in &files {
        eprintln!(
            "  {:>width$}  {}",
            thousands(f.bytes.len()),
            render::escaped(&f.path)
        );
    }
    eprintln!("name:          {}", output.display());
    eprintln!("files:         {}", files.len());
    eprintln!("unpacked size: {} bytes", thousands(unpacked as usize));
    eprintln!("archive size:  {} bytes", thousands(bytes.len()));
    eprintln!("sha256:{digest}");
    if args.key.is_some() && !args.dry_run {
        eprintln!("signed:        {}", bundle_path.display());
    }
    if let Some(keyless) = &keyless {
        eprintln!(
            "signed:        {} as {}",
            bundle_path.display(),
            keyless.signer()
        );
    }
    // The archive's path on stdout, as `npm pack` prints it: `ARCHIVE=$(skillc pack)`.
    if !json_out(args) && !args.dry_run {
        return super::emit(&format!("{}\n", output.display())).unwrap_or(Outcome::Success);
    }
    Outcome::Success
}

/// Why a skill file cannot be parsed (its frontmatter), if it cannot: judged on the bytes
/// themselves, so that no suppression, rule selection or severity lets `pack` archive a skill
/// that no runtime can load (only an explicit `--no-validate`).
fn unparsed(bytes: &[u8]) -> Option<String> {
    use crate::rule::{SK002, SK003, SK005, SK006, SK007};
    let Ok(text) = std::str::from_utf8(bytes) else {
        return Some(format!(
            "the skill file is not valid UTF-8 ({})",
            SK002.code
        ));
    };
    let file = crate::source::SkillFile::new(PathBuf::new(), text.to_string());
    let Ok(layout) = file.layout() else {
        return Some(format!(
            "the skill file has no closed `---` frontmatter ({}, {})",
            SK003.code, SK005.code
        ));
    };
    match crate::yaml::parse(file.slice(layout.frontmatter), layout.frontmatter.start) {
        Err(_) => Some(format!(
            "its frontmatter is not valid YAML ({})",
            SK006.code
        )),
        Ok(doc) => match doc.root.map(|root| root.value) {
            None | Some(crate::yaml::Value::Map(_)) => None,
            Some(_) => Some(format!("its frontmatter is not a mapping ({})", SK007.code)),
        },
    }
}

/// Whether the result is printed as JSON (`--output-format json` or `--json`).
fn json_out(args: &Args) -> bool {
    args.json || args.output_format == super::OutputFormat::Json
}
