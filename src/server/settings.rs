//! The workspace's settings, read once per version of its config file: a request (a lint, a
//! hover, a code action on every cursor move) only looks up which file is in force and stats
//! it. The file is read and its globs compiled again when another file is in force (one
//! created or deleted) or when its identity, size or times change.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::config::{Overrides, Settings, Source};

/// What the settings were loaded from: the config file in force (`None`: none), and its
/// metadata when it could be read.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Stamp {
    file: Option<PathBuf>,
    meta: Option<Meta>,
}

/// A file's identity (device, inode), size and modification and change times: any edit changes
/// one of them.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Meta {
    identity: (u64, u64),
    size: u64,
    modified: Option<std::time::SystemTime>,
    changed: (i64, i64),
}

impl Meta {
    fn of(path: &Path) -> Option<Meta> {
        let meta = std::fs::metadata(path).ok()?;
        #[cfg(unix)]
        let (identity, changed) = {
            use std::os::unix::fs::MetadataExt;
            ((meta.dev(), meta.ino()), (meta.ctime(), meta.ctime_nsec()))
        };
        #[cfg(not(unix))]
        let (identity, changed) = ((0, 0), (0, 0));
        Some(Meta {
            identity,
            size: meta.len(),
            modified: meta.modified().ok(),
            changed,
        })
    }
}

/// The settings last loaded, or the error (a message for the user) that loading gave.
pub type Loaded = Result<Arc<Settings>, String>;

/// The settings of a workspace rooted at `root`, kept while its config file is unchanged.
pub struct SettingsCache {
    root: PathBuf,
    last: Option<(Stamp, Loaded)>,
    /// How many times the config was loaded (read and compiled).
    pub loads: u64,
}

impl SettingsCache {
    pub fn new(root: &Path) -> SettingsCache {
        SettingsCache {
            root: root.to_path_buf(),
            last: None,
            loads: 0,
        }
    }

    /// The settings in force, loaded again only when the config file changed.
    pub fn get(&mut self) -> Loaded {
        let file = crate::config::find_config(&self.root);
        let stamp = Stamp {
            meta: file.as_deref().and_then(Meta::of),
            file,
        };
        if let Some((known, loaded)) = &self.last
            && *known == stamp
        {
            return loaded.clone();
        }
        // Read from the file found above (what `Source::Discover` finds), so that the stamp
        // and the settings are of the same file.
        let source = match &stamp.file {
            Some(file) => Source::File(file.clone()),
            None => Source::None,
        };
        let loaded = Settings::load(&source, &self.root, &Overrides::default())
            .map(Arc::new)
            .map_err(|e| format!("skillc: {e}"));
        self.loads += 1;
        self.last = Some((stamp, loaded.clone()));
        loaded
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_config_is_read_once_while_it_is_unchanged() {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path().canonicalize().unwrap();
        std::fs::create_dir(root.join(".git")).unwrap();
        let config = root.join("skillc.toml");
        let mut cache = SettingsCache::new(&root);
        // No config file: the defaults, loaded once.
        for _ in 0..100 {
            assert_eq!(cache.get().unwrap().file, None);
        }
        assert_eq!(cache.loads, 1);
        // A config file appears: read, then kept.
        std::fs::write(&config, "max-file-size = 1000\n").unwrap();
        for _ in 0..100 {
            assert_eq!(cache.get().unwrap().max_file_size, 1000);
        }
        assert_eq!(cache.loads, 2);
        // Edited (another size): read again.
        std::fs::write(&config, "max-file-size = 20000\n").unwrap();
        assert_eq!(cache.get().unwrap().max_file_size, 20000);
        assert_eq!(cache.get().unwrap().max_file_size, 20000);
        assert_eq!(cache.loads, 3);
        // Replaced by another file of the same size (another inode): read again.
        let other = root.join("other.toml");
        std::fs::write(&other, "max-file-size = 30000\n").unwrap();
        std::fs::rename(&other, &config).unwrap();
        assert_eq!(cache.get().unwrap().max_file_size, 30000);
        assert_eq!(cache.loads, 4);
        // A config that does not load is an error, kept too, until it is fixed.
        std::fs::write(&config, "max-file-size = 'x'\n").unwrap();
        assert!(cache.get().is_err());
        assert!(cache.get().is_err());
        assert_eq!(cache.loads, 5);
        // Deleted: the defaults again.
        std::fs::remove_file(&config).unwrap();
        assert_eq!(cache.get().unwrap().max_file_size, 1024 * 1024);
        assert_eq!(cache.loads, 6);
    }
}
