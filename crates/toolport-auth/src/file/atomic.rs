//! The token file on disk: read whole, and replaced atomically (a private temporary file beside
//! it, synced, then renamed over it). Blocking; the store calls these on tokio's blocking pool.

use std::ffi::OsString;
use std::fs::{self, File, OpenOptions};
use std::io::{self, Read as _, Write as _};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use crate::{FileAction, TokenStoreError};

/// A token file as read.
pub(super) struct Contents {
    /// Its text.
    pub(super) bytes: Vec<u8>,
    /// Its permission bits, when they let anyone but the owner in (Unix only).
    pub(super) wide_mode: Option<u32>,
}

/// The file at `path`, or `None` when there is none.
pub(super) fn read(path: &Path) -> Result<Option<Contents>, TokenStoreError> {
    let failed = |source| file_error(FileAction::Read, path, source);
    let mut file = match File::open(path) {
        Ok(file) => file,
        Err(error) if error.kind() == io::ErrorKind::NotFound => return Ok(None),
        Err(error) => return Err(failed(error)),
    };
    let wide_mode = wide_mode(&file).map_err(failed)?;
    let mut bytes = Vec::new();
    file.read_to_end(&mut bytes).map_err(failed)?;
    Ok(Some(Contents { bytes, wide_mode }))
}

/// Replaces the file at `path` with `bytes`, creating its directory (0700 on Unix) if missing.
///
/// The new text goes to a temporary file in the same directory, created with mode 0600 on Unix
/// and synced to disk, which is then renamed over `path`; the directory is synced after, where
/// the platform allows. A reader sees the old file or the new one, never a part. On failure the
/// temporary file is removed.
pub(super) fn write(path: &Path, bytes: &[u8]) -> Result<(), TokenStoreError> {
    let Some(name) = path.file_name() else {
        let source = io::Error::new(io::ErrorKind::InvalidInput, "the path names no file");
        return Err(file_error(FileAction::Write, path, source));
    };
    let dir = match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir,
        _ => Path::new("."),
    };
    create_dir(dir).map_err(|source| file_error(FileAction::CreateDirectory, path, source))?;

    let (temp_path, mut temp) =
        create_temp(dir, name).map_err(|source| file_error(FileAction::Write, path, source))?;
    let written = temp.write_all(bytes).and_then(|()| temp.sync_all());
    drop(temp);
    if let Err(source) = written {
        let _ = fs::remove_file(&temp_path);
        return Err(file_error(FileAction::Write, path, source));
    }
    if let Err(source) = fs::rename(&temp_path, path) {
        let _ = fs::remove_file(&temp_path);
        return Err(file_error(FileAction::Replace, path, source));
    }
    if let Err(error) = sync_dir(dir) {
        // The file is in place; only whether the rename survives a power cut is unknown.
        tracing::debug!(dir = %dir.display(), %error, "could not sync the token file's directory");
    }
    Ok(())
}

fn file_error(action: FileAction, path: &Path, source: io::Error) -> TokenStoreError {
    TokenStoreError::File {
        action,
        path: path.to_owned(),
        source,
    }
}

/// Creates `dir` and its parents where missing, each 0700 on Unix.
fn create_dir(dir: &Path) -> io::Result<()> {
    let mut builder = fs::DirBuilder::new();
    builder.recursive(true);
    #[cfg(unix)]
    std::os::unix::fs::DirBuilderExt::mode(&mut builder, 0o700);
    builder.create(dir)
}

/// A new file `.<name>.<pid>-<n>.tmp` in `dir`, created exclusively (0600 on Unix), and its
/// path. `n` counts within the process, so two writes never pick the same name.
fn create_temp(dir: &Path, name: &std::ffi::OsStr) -> io::Result<(PathBuf, File)> {
    static NEXT: AtomicU64 = AtomicU64::new(0);
    let mut options = OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    let mut attempts = 0;
    loop {
        let n = NEXT.fetch_add(1, Ordering::Relaxed);
        let mut temp_name = OsString::from(".");
        temp_name.push(name);
        temp_name.push(format!(".{}-{n}.tmp", std::process::id()));
        let temp_path = dir.join(temp_name);
        match options.open(&temp_path) {
            Ok(file) => return Ok((temp_path, file)),
            // Left by a crashed process that had the same id: pick the next name.
            Err(error) if error.kind() == io::ErrorKind::AlreadyExists && attempts < 16 => {
                attempts += 1;
            }
            Err(error) => return Err(error),
        }
    }
}

/// The permission bits of `file` when group or others have any (Unix); `None` elsewhere.
fn wide_mode(file: &File) -> io::Result<Option<u32>> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt as _;
        let mode = file.metadata()?.permissions().mode() & 0o777;
        Ok((mode & 0o077 != 0).then_some(mode))
    }
    #[cfg(not(unix))]
    {
        let _ = file;
        Ok(None)
    }
}

/// Syncs `dir` itself, so a rename in it is on disk (Unix; elsewhere nothing to do).
fn sync_dir(dir: &Path) -> io::Result<()> {
    #[cfg(unix)]
    {
        File::open(dir)?.sync_all()
    }
    #[cfg(not(unix))]
    {
        let _ = dir;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_path_without_a_file_name_is_an_error() {
        let error = write(Path::new("/"), b"{}").err().unwrap();
        assert!(
            matches!(
                error,
                TokenStoreError::File {
                    action: FileAction::Write,
                    ..
                }
            ),
            "{error:?}"
        );
    }

    #[test]
    fn a_temporary_name_already_taken_is_skipped() {
        let dir = tempfile::tempdir().unwrap();
        let (first, _file) = create_temp(dir.path(), "t.json".as_ref()).unwrap();
        let (second, _file) = create_temp(dir.path(), "t.json".as_ref()).unwrap();
        assert_ne!(first, second);
        let name = first.file_name().unwrap().to_str().unwrap();
        assert!(
            name.starts_with(".t.json.") && name.ends_with(".tmp"),
            "{name}"
        );
    }

    #[test]
    fn a_failed_rename_leaves_no_temporary_file() {
        let dir = tempfile::tempdir().unwrap();
        // A non-empty directory where the file should be: the rename over it fails.
        let path = dir.path().join("tokens.json");
        fs::create_dir(&path).unwrap();
        fs::write(path.join("inside"), b"x").unwrap();
        let error = write(&path, b"{}").err().unwrap();
        assert!(
            matches!(
                error,
                TokenStoreError::File {
                    action: FileAction::Replace,
                    ..
                }
            ),
            "{error:?}"
        );
        let names: Vec<_> = fs::read_dir(dir.path())
            .unwrap()
            .map(|entry| entry.unwrap().file_name())
            .collect();
        assert_eq!(names, ["tokens.json"]);
    }
}
