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
    ("server", server),
    ("fix", fix),
    ("security", security),
];

/// The security rules: the bytes as a skill file (the whole pipeline, every renderer), then as a
/// file of each language the rules read (scripts, Markdown, JSON) beside a skill file that
/// decodes things, so that every decoder and rebuilder runs on them.
pub fn security(data: &[u8]) {
    let overrides = Overrides {
        select: vec!["security".into()],
        ..Overrides::default()
    };
    let Ok(settings) = Settings::from_text(None, None, Path::new("/"), &overrides) else {
        return;
    };
    let keep = crate::skill::Keep {
        details: true,
        lines: true,
        costs: false,
        fields: false,
    };
    let report = crate::lint::lint_buffer(
        phantom_skill(),
        data.to_vec(),
        &settings,
        Path::new("/"),
        keep,
    );
    render_all(std::slice::from_ref(&report));
    let text = String::from_utf8_lossy(data).into_owned();
    for (rel, lang) in [
        ("scripts/x.sh", crate::security::Lang::Shell),
        ("scripts/x.py", crate::security::Lang::Python),
        ("scripts/x.js", crate::security::Lang::JavaScript),
        ("scripts/x.ps1", crate::security::Lang::PowerShell),
        ("hooks/hooks.json", crate::security::Lang::Data),
        ("references/x.md", crate::security::Lang::Markdown),
    ] {
        let sources = vec![
            crate::security::Source {
                rel: "SKILL.md".into(),
                lang: crate::security::Lang::Markdown,
                text: "---\nname: fuzz\ndescription: base64 decode [::-1] b85decode rot13\n---\n"
                    .into(),
                binary: None,
                is_skill_file: true,
            },
            crate::security::Source {
                rel: rel.into(),
                lang,
                text: text.clone(),
                binary: None,
                is_skill_file: false,
            },
        ];
        let _ = crate::rules::security::judge_sources(sources, "fuzz");
    }
}

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
    let _ = render::concise::render(reports, false);
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
    keyless(data);
    let _ = crate::package::manifest::Manifest::parse(data);
    let text = String::from_utf8_lossy(data);
    // No password: a hostile key's key-derivation cost is not what is fuzzed here.
    let _ = crate::sign::signing_key(&text, None);
    let _ = crate::sign::verifying_key(&text);
}

/// A keyless bundle against the embedded public-good root, for a digest and for bytes, with
/// no identity policy (so that every check past the bundle's own is reached): a hostile
/// bundle fails with a named check, never a panic, in bounded time.
fn keyless(data: &[u8]) {
    use crate::sign::keyless::{self, Policy, Subject, Trust};
    static ROOT: std::sync::OnceLock<Option<sigstore_verify::trust_root::TrustedRoot>> =
        std::sync::OnceLock::new();
    let Some(root) = ROOT.get_or_init(|| Trust::Production.load().ok()) else {
        return;
    };
    let _ = keyless::verify(Subject::Sha256([0; 32]), data, &Policy::AnyIdentity, root);
    let _ = keyless::verify(Subject::Bytes(b"a"), data, &Policy::AnyIdentity, root);
    let _ = keyless::has_tlog_entries(data);
}

/// What `file:///fuzz/` stands for in the server target's input: the URI of its workspace.
const SERVER_ROOT_URI: &str = "file:///fuzz/";

/// The language server's message loop over an in-memory connection, in a workspace of its own
/// (two skills sharing a key, and a skillc.toml capping files at 16 KB, so both a parsed and an
/// oversized buffer are within reach). The input is a session: framed as on stdin when it
/// starts with `Content-Length`, else one JSON-RPC message per line (which mutations keep valid
/// more often); `file:///fuzz/` in it names the workspace. A session that does not start with
/// `initialize` gets one first, so that every input reaches the handlers. The server must
/// answer every request and return once the input ends.
pub fn server(data: &[u8]) {
    // Every message the server sent is one a client can read.
    for message in server_session(data) {
        let _ = serde_json::to_vec(&message);
    }
}

/// What the server sent in the session [`server`] runs for `data` (nothing when `data` holds no
/// message: there is nothing to serve).
pub fn server_session(data: &[u8]) -> Vec<lsp_server::Message> {
    let (to_client, from_server) = crossbeam_channel::unbounded();
    let mut messages: Vec<lsp_server::Message> = Vec::new();
    if data.starts_with(b"Content-Length") {
        let (framed, read) = crossbeam_channel::unbounded();
        crate::server::read_framed(&mut &data[..], &framed, &to_client);
        drop(framed);
        messages.extend(read.try_iter());
    } else {
        messages.extend(
            data.split(|&b| b == b'\n')
                .filter_map(|line| serde_json::from_slice(line).ok()),
        );
    }
    if messages.is_empty() {
        return from_server.try_iter().collect();
    }
    let Ok(workspace) = tempfile::tempdir() else {
        return Vec::new();
    };
    let Some(root) = server_workspace(workspace.path()) else {
        return Vec::new();
    };
    // The workspace's URI put in place (in the messages, so that framed lengths still hold).
    let root_uri = format!("file://{}/", root.display());
    let messages = messages.into_iter().filter_map(|message| {
        let text = serde_json::to_string(&message).ok()?;
        serde_json::from_str::<lsp_server::Message>(&text.replace(SERVER_ROOT_URI, &root_uri)).ok()
    });
    let (to_server, from_client) = crossbeam_channel::unbounded();
    let mut messages = messages.peekable();
    let initializes = matches!(messages.peek(),
        Some(lsp_server::Message::Request(r)) if r.method == "initialize");
    if !initializes {
        let capabilities = serde_json::json!({"capabilities": {
            "workspace": {"didChangeWatchedFiles": {"dynamicRegistration": true}},
            "general": {"positionEncodings": ["utf-8", "utf-16"]},
        }});
        let initialize = lsp_server::Request::new(0.into(), "initialize".into(), capabilities);
        let initialized =
            lsp_server::Notification::new("initialized".into(), serde_json::json!({}));
        let _ = to_server.send(initialize.into());
        let _ = to_server.send(initialized.into());
    }
    for message in messages {
        let _ = to_server.send(message);
    }
    drop(to_server);
    let connection = lsp_server::Connection {
        sender: to_client,
        receiver: from_client,
    };
    crate::server::serve_in(&connection, &root);
    drop(connection);
    from_server.try_iter().collect()
}

/// The server target's workspace, written in `dir`: its root (canonical).
fn server_workspace(dir: &Path) -> Option<PathBuf> {
    let root = dir.canonicalize().ok()?;
    let skill = "---\nname: pdf\ndescription: Fills PDF forms. Use when asked to fill a form.\n---\n\nSee [the guide](references/guide.md).\n";
    for (path, text) in [
        ("pdf/SKILL.md", skill),
        ("other/SKILL.md", skill),
        ("pdf/references/guide.md", "# Guide\n"),
        ("skillc.toml", "max-file-size = 16384\n"),
    ] {
        let path = root.join(path);
        std::fs::create_dir_all(path.parent()?).ok()?;
        std::fs::write(&path, text).ok()?;
    }
    Some(root)
}

/// What `validate --fix --unsafe-fixes` did to one skill file: the `fix` target's run, which
/// an independent YAML reader then judges (`fuzz/fix_oracle.rs`).
#[derive(Debug)]
pub struct FixRun {
    /// The skill file as built from the fuzzer's bytes.
    pub original: Vec<u8>,
    /// The file fixed.
    pub fixed: Vec<u8>,
    /// The rules whose fixes were applied.
    pub applied: Vec<&'static str>,
}

/// The directory names the generated skills live in: valid names that YAML 1.1 reads as a
/// date, a number or a boolean when written plain, and an ordinary one.
const DIR_NAMES: [&str; 5] = ["fuzz-skill", "2024-01-02", "0b101", "yes", "1-0"];

/// Top-level keys: fields of both dialects and unknown ones (SK013 moves those).
const KEYS: [&str; 10] = [
    "name",
    "description",
    "author",
    "allowed-tools",
    "metadata",
    "license",
    "compatibility",
    "version",
    "note",
    "tags",
];

/// Values as written after `key:`, each the start of its lines: the forms the fixes rewrite
/// (quoting, names, tool lists, moves) and what they must keep (anchors and aliases, comments,
/// block scalars, YAML 1.1 look-alikes, NEL/LS/PS, escapes).
const VALUES: [&str; 41] = [
    " My Skill",
    " Does x. Use when y.",
    " Use when: asked",
    " yes",
    " 1.10",
    " 010",
    " 42",
    " true",
    " ~",
    " 0b101",
    " 2024-01-02",
    " \"Reads C:\\data files. Use when asked.\"",
    " \"C:\\new\\data\"",
    " \"a\\tb\"",
    " 'it''s'",
    " |\n  My Skill\n",
    " >-\n  folded\n  text\n\n",
    " | # kept\n  x\n",
    " [Read, Grep]",
    " [&t Read, Grep]",
    " &t Read, Grep",
    " *t",
    " &t fuzz-skill",
    "\n  - Read\n  - &u Grep\n",
    "\n  - Read\n  - *t\n",
    " {a: 1, b: yes}",
    "\n  a: 1.10\n  b: x\n  c: *t\n",
    " Use when\u{85}author: bob",
    " Use\u{2028}x: y",
    " Bash(a && b), Read",
    " Read, Bash(git log, git diff)",
    " value # comment",
    " !!str 1",
    " @at",
    " `cmd` here",
    " *bold* text",
    " [Read,\n  Grep]",
    " Read,\n  Grep",
    "",
    " {x: [a, b]}",
    " |\n",
];

/// Lines between the entries.
const EXTRA_LINES: [&str; 5] = [
    "# owner: team-x (do not remove)\n",
    "\n",
    "...\n",
    "  # indented comment\n",
    "<<: {m: 1}\n",
];

/// The skill file the `fix` target checks, and the name of its directory. Bytes that begin
/// with `---` are the file as they are (in `fuzz-skill/`); other bytes choose, byte by byte,
/// a directory name, then entries of [`KEYS`] and [`VALUES`] with [`EXTRA_LINES`] between
/// them, sometimes as one `{…}` flow mapping: the mutations then reach the YAML forms the
/// fixes rewrite instead of mostly breaking the syntax.
pub fn fix_input(data: &[u8]) -> (&'static str, Vec<u8>) {
    if data.starts_with(b"---") {
        return (DIR_NAMES[0], data.to_vec());
    }
    let mut bytes = data.iter().copied();
    let mut next = |n: usize| bytes.next().map(|b| usize::from(b) % n);
    let dir = DIR_NAMES[next(DIR_NAMES.len()).unwrap_or(0)];
    let flow = next(8) == Some(0);
    let mut entries = Vec::new();
    while entries.len() < 12 {
        let (Some(key), Some(value)) = (next(KEYS.len() + 2), next(VALUES.len())) else {
            break;
        };
        let mut entry = String::new();
        if key >= KEYS.len() {
            entry.push_str(EXTRA_LINES[value % EXTRA_LINES.len()]);
            entries.push(entry);
            continue;
        }
        entry.push_str(KEYS[key]);
        entry.push(':');
        entry.push_str(VALUES[value]);
        if !entry.ends_with('\n') {
            entry.push('\n');
        }
        entries.push(entry);
    }
    let mut text = String::from("---\n");
    if flow {
        text.push('{');
        let items: Vec<&str> = entries
            .iter()
            .map(|e| e.trim_end_matches('\n'))
            .filter(|e| !e.is_empty() && !e.starts_with(['#', '.', ' ']))
            .collect();
        text.push_str(&items.join(",\n"));
        text.push_str("\n}\n");
    } else {
        entries.iter().for_each(|e| text.push_str(e));
    }
    text.push_str("---\n\nBody.\n");
    (dir, text.into_bytes())
}

/// Fixes the skill file [`fix_input`] builds as `validate --fix --unsafe-fixes` does, and
/// panics where the fixer failed by its own measure: the fixes made the skill worse (the
/// "internal error" `validate` reports), or fixing the result again changes it. Returns the
/// run for the value checks of an independent reader.
pub fn fix_checked(data: &[u8]) -> FixRun {
    let (name, original) = fix_input(data);
    let root = PathBuf::from("/nonexistent/skillc-fuzz");
    let mut dir = phantom_skill();
    dir.dir = root.join(name).into();
    dir.file = Some(root.join(name).join("SKILL.md").into());
    dir.real = crate::discover::Real::At(root.join(name).into());
    let settings = Settings::default();
    let mode = crate::rewrite::Mode { unsafe_fixes: true };
    let taken = std::collections::HashSet::new();
    let fix = |text: Vec<u8>| {
        let shown = String::from_utf8_lossy(&text).into_owned();
        crate::rewrite::fix_text(&dir, text, &settings, Path::new("/"), mode, &taken)
            .unwrap_or_else(|failure| panic!("{failure}\n--- the file\n{shown}"))
    };
    let fixed = fix(original.clone());
    let again = fix(fixed.text.clone());
    // Each round applies a fix at least: fewer fixes than rounds means the run ended by itself,
    // not at the cap (past which another run goes on, as documented).
    let capped = fixed.count() >= crate::rewrite::MAX_ROUNDS;
    assert!(
        capped || (again.applied.is_empty() && again.text == fixed.text),
        "a second fix changed the file again ({:?}):\n{}",
        again.applied,
        String::from_utf8_lossy(&again.text)
    );
    FixRun {
        original,
        applied: fixed.applied.keys().copied().collect(),
        fixed: fixed.text,
    }
}

/// The `fix` target without its independent reader: the fixer's own invariants.
pub fn fix(data: &[u8]) {
    fix_checked(data);
}
