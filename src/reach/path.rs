//! Relative paths of a skill's files: `/`-separated, from the skill's root.

/// The directory of a relative path (empty at the root).
pub(super) fn parent(rel: &str) -> &str {
    rel.rfind('/').map_or("", |i| &rel[..i])
}

/// The lower-cased extension of a path's last component, if any.
pub(super) fn extension(rel: &str) -> Option<String> {
    let name = rel.rsplit('/').next().unwrap_or(rel);
    let (stem, ext) = name.rsplit_once('.')?;
    (!stem.is_empty()).then(|| ext.to_ascii_lowercase())
}

pub(super) fn has_extension(rel: &str, list: &[&str]) -> bool {
    extension(rel).is_some_and(|e| list.contains(&e.as_str()))
}

/// `from` joined with `path` lexically (`.` and empty parts dropped, `..` taking the part
/// before it), when it stays inside the skill: the one join of the reach, for the paths texts
/// mention and for the globs they write.
pub(super) fn resolve_lexically(from: &str, path: &str) -> Option<String> {
    let mut parts: Vec<&str> = from.split('/').filter(|p| !p.is_empty()).collect();
    for part in path.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                parts.pop()?;
            }
            other => parts.push(other),
        }
    }
    Some(parts.join("/"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths() {
        assert_eq!(parent("a/b/c.md"), "a/b");
        assert_eq!(parent("c.md"), "");
        assert_eq!(extension("a/B.MD").as_deref(), Some("md"));
        assert_eq!(extension("a/.hidden"), None);
        assert_eq!(
            resolve_lexically("scripts/a", "../schemas/"),
            Some("scripts/schemas".into())
        );
        assert_eq!(resolve_lexically("", "../x"), None);
        assert_eq!(resolve_lexically("a", "./b//c"), Some("a/b/c".into()));
    }
}
