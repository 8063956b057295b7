//! Where results go: `target/bench/` (or `$CARGO_TARGET_DIR/bench`, or `--out`).

use std::path::{Path, PathBuf};

use crate::error::BenchError;

/// The default output directory.
pub fn default_dir() -> PathBuf {
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("..")
                .join("target")
        });
    target.join("bench")
}

/// Writes `bytes` to `path`, creating its directory.
pub fn write_file(path: &Path, bytes: &[u8]) -> Result<(), BenchError> {
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).map_err(|e| BenchError::Io {
            action: "create directory",
            path: dir.display().to_string(),
            source: e,
        })?;
    }
    std::fs::write(path, bytes).map_err(|e| BenchError::Io {
        action: "write",
        path: path.display().to_string(),
        source: e,
    })
}
