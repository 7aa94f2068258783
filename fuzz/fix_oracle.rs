//! The `fix` fuzz target's judge: `skillc::fuzz::fix_checked` fixes a skill file as
//! `validate --fix --unsafe-fixes` does (and fails when the fixes make it worse or a second fix
//! changes it again); this reads the frontmatter before and after with a reader independent of
//! skillc's: saphyr's loader, which builds its own values and resolves aliases and scalars
//! itself, read two ways:
//! - YAML 1.2, as saphyr reads it;
//! - YAML 1.1 as PyYAML reads it: NEL, LS and PS break lines, and plain scalars resolve by
//!   PyYAML's patterns (`yes`, `0b1`, `1_000`, `1:20`, `2024-01-02` are not text).
//!
//! In each reading, a frontmatter that parsed still parses, and every value keeps its value but
//! for what an applied fix is for: the name (SK101, SK103), the tool list (SK304: the same
//! tools, space-separated), a scalar quoted as text or written as an integer (SK010, SK014,
//! SK303), a key moved under `metadata:` (SK013). And no value a fix changed reads one way in
//! YAML 1.2 and another in YAML 1.1, unless it did before.
//!
//! Shared by `fuzz/fuzz_targets/fix.rs` and `tests/fuzz_seeds.rs` (which runs the seeds on
//! stable); the reader is a dependency of those two only, not of skillc.

use std::sync::LazyLock;

use regex::Regex;
use saphyr::{Scalar, ScalarStyle, Yaml, YamlLoader};

/// A value as a reader sees it.
#[derive(Debug, Clone, PartialEq)]
enum V {
    Str(String),
    /// A number, as written (YAML 1.1) or as saphyr resolved it (YAML 1.2).
    Num(String),
    Bool(bool),
    Null,
    /// A date, a merge key, a tagged value: something other than text.
    Other(String),
    Seq(Vec<V>),
    Map(Vec<(String, V)>),
}

/// Checks one input of the `fix` target; panics when a fix changed what it should not.
pub fn check(data: &[u8]) {
    let run = skillc::fuzz::fix_checked(data);
    if run.fixed == run.original {
        return;
    }
    let (Some(before), Some(after)) = (frontmatter(&run.original), frontmatter(&run.fixed)) else {
        return;
    };
    let applied = |code: &str| run.applied.contains(&code);
    let shown = || {
        format!(
            "\n--- before\n{}\n--- after ({:?})\n{}",
            String::from_utf8_lossy(&run.original),
            run.applied,
            String::from_utf8_lossy(&run.fixed)
        )
    };
    let mut readings = Vec::new();
    for yaml11 in [false, true] {
        let reading = if yaml11 { "YAML 1.1" } else { "YAML 1.2" };
        let (old, new) = (load(&before, yaml11), load(&after, yaml11));
        if old.is_some() && new.is_none() {
            panic!(
                "the fixed frontmatter no longer parses ({reading}){}",
                shown()
            );
        }
        if let (Some(old), Some(new)) = (&old, &new)
            && let Err(why) = same_but_fixed(old, new, &applied)
        {
            panic!("{why} ({reading}){}", shown());
        }
        readings.push((old, new));
    }
    let (old12, new12) = &readings[0];
    let (old11, new11) = &readings[1];
    if old12.is_none() && old11.is_none() {
        return;
    }
    let (Some(V::Map(new12)), Some(V::Map(new11))) = (new12, new11) else {
        return;
    };
    for (key, v12) in new12 {
        let Some(v11) = get(new11, key) else { continue };
        if reads_alike(v12, v11) {
            continue;
        }
        let was = |old: &Option<V>, now: &V| match old {
            Some(V::Map(entries)) => get(entries, key) == Some(now),
            Some(_) => false,
            None => true,
        };
        // An entry SK013 moved under `metadata:` reads as it did at the top (a key such as
        // `on` is `true` to YAML 1.1 wherever it is).
        let moved = |old: &Option<V>, entry: &(String, V)| match old {
            Some(V::Map(top)) => {
                let metadata = match get(top, "metadata") {
                    Some(V::Map(m)) => m.as_slice(),
                    _ => &[],
                };
                [top.as_slice(), metadata]
                    .iter()
                    .any(|m| get(m, &entry.0) == Some(&entry.1))
            }
            Some(_) => false,
            None => true,
        };
        let entries_moved = match (v12, v11) {
            (V::Map(a), V::Map(b)) if key == "metadata" && a.len() == b.len() => {
                a.iter().zip(b).all(|(a, b)| {
                    reads_alike(&V::Map(vec![a.clone()]), &V::Map(vec![b.clone()]))
                        || (moved(old12, a) && moved(old11, b))
                })
            }
            _ => false,
        };
        if !(entries_moved || (was(old12, v12) && was(old11, v11))) {
            panic!(
                "`{key}` reads {v12:?} in YAML 1.2 and {v11:?} in YAML 1.1 after the fixes{}",
                shown()
            );
        }
    }
}

/// The frontmatter: the text between a first `---` line and the next.
fn frontmatter(file: &[u8]) -> Option<String> {
    let text = std::str::from_utf8(file).ok()?;
    let rest = text
        .strip_prefix("---\n")
        .or_else(|| text.strip_prefix("---\r\n"))?;
    let mut at = 0;
    for line in rest.split_inclusive('\n') {
        if line.trim_end_matches(['\r', '\n']) == "---" {
            return Some(rest[..at].to_string());
        }
        at += line.len();
    }
    None
}

/// The first document of `text`, or `None` when it does not parse.
fn load(text: &str, yaml11: bool) -> Option<V> {
    let text = if yaml11 {
        text.replace(['\u{85}', '\u{2028}', '\u{2029}'], "\n")
    } else {
        text.to_string()
    };
    let mut loader: YamlLoader<Yaml> = YamlLoader::default();
    loader.early_parse(!yaml11);
    loader.allow_duplicate_keys(true);
    let mut parser = saphyr_parser::Parser::new_from_str(&text);
    parser.load(&mut loader, true).ok()?;
    if loader.error().is_some() {
        return None;
    }
    Some(
        loader
            .into_documents()
            .first()
            .map_or(V::Null, |doc| value(doc, 0)),
    )
}

fn value(node: &Yaml, depth: usize) -> V {
    if depth > 64 {
        return V::Other("deep".into());
    }
    match node {
        Yaml::Value(scalar) => scalar_value(scalar),
        Yaml::Representation(text, style, tag) => match tag {
            Some(tag) if tag.suffix == "str" => V::Str(text.to_string()),
            Some(tag) => V::Other(format!("{}{} {text}", tag.handle, tag.suffix)),
            None if *style == ScalarStyle::Plain => yaml11_plain(text),
            None => V::Str(text.to_string()),
        },
        Yaml::Tagged(tag, inner) => match value(inner, depth + 1) {
            V::Str(s) | V::Num(s) if tag.suffix == "str" => V::Str(s),
            other => V::Other(format!("{}{} {other:?}", tag.handle, tag.suffix)),
        },
        Yaml::Sequence(items) => V::Seq(items.iter().map(|i| value(i, depth + 1)).collect()),
        Yaml::Mapping(entries) => V::Map(
            entries
                .iter()
                .map(|(k, v)| (key_text(&value(k, depth + 1)), value(v, depth + 1)))
                .collect(),
        ),
        Yaml::Alias(_) => V::Other("alias".into()),
        Yaml::BadValue => V::Other("bad".into()),
    }
}

fn scalar_value(scalar: &Scalar) -> V {
    match scalar {
        Scalar::Null => V::Null,
        Scalar::Boolean(b) => V::Bool(*b),
        Scalar::Integer(i) => V::Num(i.to_string()),
        Scalar::FloatingPoint(f) => V::Num(f.to_string()),
        Scalar::String(s) => V::Str(s.to_string()),
    }
}

fn key_text(key: &V) -> String {
    match key {
        V::Str(s) | V::Num(s) => s.clone(),
        V::Bool(b) => b.to_string(),
        V::Null => "null".into(),
        other => format!("{other:?}"),
    }
}

/// PyYAML's implicit resolvers (`yaml/resolver.py`) on a plain scalar.
fn yaml11_plain(text: &str) -> V {
    static PATTERNS: LazyLock<[Regex; 4]> = LazyLock::new(|| {
        [
            r"^(?:yes|Yes|YES|no|No|NO|true|True|TRUE|false|False|FALSE|on|On|ON|off|Off|OFF)$",
            r"^(?:[-+]?0b[0-1_]+|[-+]?0[0-7_]+|[-+]?(?:0|[1-9][0-9_]*)|[-+]?0x[0-9a-fA-F_]+|[-+]?[1-9][0-9_]*(?::[0-5]?[0-9])+|[-+]?(?:[0-9][0-9_]*)\.[0-9_]*(?:[eE][-+][0-9]+)?|\.[0-9_]+(?:[eE][-+][0-9]+)?|[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+\.[0-9_]*|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$",
            r"^(?:[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]|[0-9][0-9][0-9][0-9]-[0-9][0-9]?-[0-9][0-9]?(?:[Tt]|[ \t]+)[0-9][0-9]?:[0-9][0-9]:[0-9][0-9](?:\.[0-9]*)?(?:[ \t]*(?:Z|[-+][0-9][0-9]?(?::[0-9][0-9])?))?)$",
            r"^(?:~|null|Null|NULL|)$",
        ]
        .map(|p| Regex::new(p).expect("a valid pattern"))
    });
    let [boolean, number, date, null] = &*PATTERNS;
    if boolean.is_match(text) {
        V::Bool(matches!(
            text.to_ascii_lowercase().as_str(),
            "yes" | "true" | "on"
        ))
    } else if number.is_match(text) {
        V::Num(text.to_string())
    } else if date.is_match(text) {
        V::Other(format!("timestamp {text}"))
    } else if null.is_match(text) {
        V::Null
    } else if text == "<<" || text == "=" {
        V::Other(text.to_string())
    } else {
        V::Str(text.to_string())
    }
}

/// The value of `key` in a mapping's entries (the last, as PyYAML keeps it).
fn get<'a>(entries: &'a [(String, V)], key: &str) -> Option<&'a V> {
    entries.iter().rev().find(|(k, _)| k == key).map(|(_, v)| v)
}

/// Whether the YAML 1.2 and YAML 1.1 readings of a value agree: the same text, or the same
/// kind of non-text (numbers are written alike in both but resolved differently).
fn reads_alike(a: &V, b: &V) -> bool {
    match (a, b) {
        (V::Num(_), V::Num(_)) => true,
        (V::Seq(a), V::Seq(b)) => {
            a.len() == b.len() && a.iter().zip(b).all(|(a, b)| reads_alike(a, b))
        }
        (V::Map(a), V::Map(b)) => {
            a.len() == b.len()
                && a.iter()
                    .zip(b)
                    .all(|((ka, a), (kb, b))| ka == kb && reads_alike(a, b))
        }
        (a, b) => a == b,
    }
}

/// `Ok` when `new` is `old` but for what the applied fixes are for.
fn same_but_fixed(old: &V, new: &V, applied: &dyn Fn(&str) -> bool) -> Result<(), String> {
    let (V::Map(old), V::Map(new)) = (old, new) else {
        return if alike(old, new, applied) {
            Ok(())
        } else {
            Err(format!("the frontmatter changed from {old:?} to {new:?}"))
        };
    };
    let metadata = match get(new, "metadata") {
        Some(V::Map(entries)) => entries.as_slice(),
        _ => &[],
    };
    for (key, was) in old {
        // A repeated key: the last value is the one read.
        let was = get(old, key).unwrap_or(was);
        let Some(now) = get(new, key) else {
            let moved = applied("SK013")
                && !matches!(was, V::Seq(_) | V::Map(_))
                && matches!(get(metadata, key), Some(V::Str(_)));
            if moved {
                continue;
            }
            return Err(format!("`{key}` is gone"));
        };
        let ok = match key.as_str() {
            "name" if applied("SK101") || applied("SK103") => true,
            "allowed-tools" if applied("SK304") => same_tools(was, now) || alike(was, now, applied),
            "metadata" if applied("SK013") => match (was, now) {
                (V::Map(was), V::Map(now)) => was
                    .iter()
                    .all(|(k, v)| get(now, k).is_some_and(|n| alike(v, n, applied))),
                (V::Null, V::Map(_)) => true,
                _ => alike(was, now, applied),
            },
            _ => alike(was, now, applied),
        };
        if !ok {
            return Err(format!("`{key}` changed from {was:?} to {now:?}"));
        }
    }
    if let Some((key, _)) = new
        .iter()
        .find(|(k, _)| get(old, k).is_none() && !(k == "metadata" && applied("SK013")))
    {
        return Err(format!("`{key}` appeared"));
    }
    Ok(())
}

/// SK304: the same tools, one space-separated string.
fn same_tools(was: &V, now: &V) -> bool {
    let tools: Vec<String> = match was {
        V::Seq(items) => items
            .iter()
            .filter_map(|i| match i {
                V::Str(s) | V::Num(s) => Some(s.trim().to_string()),
                _ => None,
            })
            .collect(),
        V::Str(s) => s.split(',').map(|t| t.trim().to_string()).collect(),
        _ => return false,
    };
    let V::Str(now) = now else { return false };
    let tools: Vec<&str> = tools
        .iter()
        .map(String::as_str)
        .filter(|t| !t.is_empty())
        .collect();
    now.split(' ').collect::<Vec<_>>() == tools
}

/// Equal, but for scalars quoted as text (SK010, SK014, SK303: `1.10` becomes `"1.10"`) or
/// text written as an integer (SK014: `"42"` becomes `42`), with `metadata` gaining keys
/// (SK013).
fn alike(was: &V, now: &V, applied: &dyn Fn(&str) -> bool) -> bool {
    let quoting = ["SK010", "SK014", "SK303"].iter().any(|c| applied(c));
    match (was, now) {
        (V::Num(_) | V::Bool(_) | V::Null | V::Other(_), V::Str(_)) if quoting => true,
        (V::Str(_), V::Num(_)) if applied("SK014") => true,
        (V::Seq(a), V::Seq(b)) => {
            a.len() == b.len() && a.iter().zip(b).all(|(a, b)| alike(a, b, applied))
        }
        (V::Map(a), V::Map(b)) => {
            a.iter()
                .all(|(k, v)| get(b, k).is_some_and(|n| alike(v, n, applied)))
                && (b.len() == a.len() || applied("SK013"))
        }
        (a, b) => a == b,
    }
}
