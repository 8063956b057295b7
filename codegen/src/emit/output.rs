//! Generated files and how they reach the disk: all or nothing.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// Generated files by path relative to the output directory, in a stable order.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct GeneratedFiles {
    files: BTreeMap<PathBuf, String>,
}

/// Why the output could not be written, naming the path.
#[derive(Debug, thiserror::Error)]
#[error("{path}: cannot write: {source}")]
pub struct WriteError {
    /// The file or directory.
    pub path: PathBuf,
    /// The OS error.
    pub source: std::io::Error,
}

impl GeneratedFiles {
    /// Adds (or replaces) a file.
    pub fn insert(&mut self, path: PathBuf, contents: String) {
        self.files.insert(path, contents);
    }

    /// The files, by relative path.
    pub fn files(&self) -> &BTreeMap<PathBuf, String> {
        &self.files
    }

    /// The contents of `path`.
    pub fn get(&self, path: &Path) -> Option<&str> {
        self.files.get(path).map(String::as_str)
    }

    /// Writes every file under `dir`, all or nothing: into a temporary sibling directory,
    /// which then replaces `dir`. Anything else in `dir` is removed.
    pub fn write_dir(&self, dir: &Path) -> Result<(), WriteError> {
        let err = |path: &Path| {
            let path = path.to_owned();
            move |source| WriteError { path, source }
        };
        let parent = match dir.parent() {
            Some(p) if !p.as_os_str().is_empty() => p.to_owned(),
            _ => PathBuf::from("."),
        };
        std::fs::create_dir_all(&parent).map_err(err(&parent))?;
        let name = dir
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_else(|| "out".to_owned());
        let staging = parent.join(format!(".{name}.informer-gen-{}", std::process::id()));
        let old = parent.join(format!(".{name}.informer-gen-old-{}", std::process::id()));
        let result = self.write_into(&staging).and_then(|()| {
            if dir.exists() {
                std::fs::rename(dir, &old).map_err(err(dir))?;
            }
            std::fs::rename(&staging, dir).map_err(err(dir))
        });
        // Best-effort cleanup: the outcome is already decided.
        let _ = std::fs::remove_dir_all(&staging);
        let _ = std::fs::remove_dir_all(&old);
        result
    }

    fn write_into(&self, dir: &Path) -> Result<(), WriteError> {
        for (rel, contents) in &self.files {
            let path = dir.join(rel);
            if let Some(parent) = path.parent() {
                std::fs::create_dir_all(parent).map_err(|source| WriteError {
                    path: parent.to_owned(),
                    source,
                })?;
            }
            std::fs::write(&path, contents).map_err(|source| WriteError { path, source })?;
        }
        Ok(())
    }

    /// Writes every file into `dir` (which may hold other files), each one atomically
    /// (temporary file, then rename), and only rewrites files whose contents changed.
    pub fn write_files_into(&self, dir: &Path) -> Result<(), WriteError> {
        for (rel, contents) in &self.files {
            let path = dir.join(rel);
            if std::fs::read_to_string(&path).is_ok_and(|old| &old == contents) {
                continue;
            }
            if let Some(parent) = path.parent() {
                std::fs::create_dir_all(parent).map_err(|source| WriteError {
                    path: parent.to_owned(),
                    source,
                })?;
            }
            let tmp = path.with_extension("rs.tmp");
            std::fs::write(&tmp, contents).map_err(|source| WriteError {
                path: tmp.clone(),
                source,
            })?;
            std::fs::rename(&tmp, &path).map_err(|source| WriteError { path, source })?;
        }
        Ok(())
    }
}
