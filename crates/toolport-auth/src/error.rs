//! [`TokenStoreError`]: a token store could not load, save or remove tokens.

use std::fmt;
use std::io;
use std::path::{Path, PathBuf};
use std::time::Duration;

use toolport_core::BoxError;

use crate::TokenKey;

/// A [`TokenStore`](crate::TokenStore) failed. Messages name the file (or the key) and what was
/// being done with it, never a token: a malformed token file is described by where it breaks, not by
/// quoting it.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum TokenStoreError {
    /// The file system refused (permissions, a full disk, a directory where the file should
    /// be).
    #[error("could not {action} the token file {}: {source}", .path.display())]
    File {
        /// What was being done.
        action: FileAction,
        /// The token file.
        path: PathBuf,
        /// The operating system's error.
        #[source]
        source: io::Error,
    },
    /// The token file is not the JSON this crate writes. It is left as it is: fix it, or delete
    /// it and authorize again.
    #[error(
        "the token file {} is corrupt ({problem} at line {line}, column {column}); fix it, or \
         delete it and authorize again",
        .path.display()
    )]
    Corrupt {
        /// The token file.
        path: PathBuf,
        /// What is wrong, in words (never the file's text).
        problem: &'static str,
        /// The 1-based line where reading stopped.
        line: usize,
        /// The 1-based column where reading stopped.
        column: usize,
    },
    /// The token file was written in a format version this build does not read, by a newer
    /// Toolport. It is left as it is.
    #[error(
        "the token file {} has format version {found}, but this version of Toolport reads only \
         version {supported}",
        .path.display()
    )]
    UnsupportedVersion {
        /// The token file.
        path: PathBuf,
        /// The version in the file.
        found: u64,
        /// The version this build reads and writes.
        supported: u64,
    },
    /// The refresh lease of a key stayed taken for as long as
    /// [`TokenStore::lease`](crate::TokenStore::lease) waits.
    #[error("waited {waited:?} for the refresh lease of {key}, in vain")]
    LeaseTimeout {
        /// Whose lease.
        key: TokenKey,
        /// How long the wait was.
        waited: Duration,
    },
    /// A store of your own failed; see [`TokenStoreError::backend`].
    #[error("the token store failed: {source}")]
    Backend {
        /// What went wrong. Keep tokens out of it.
        #[source]
        source: BoxError,
    },
}

impl TokenStoreError {
    /// A failure of a store implemented outside this crate.
    pub fn backend(source: impl Into<BoxError>) -> Self {
        Self::Backend {
            source: source.into(),
        }
    }

    /// The token file, when the error is about one.
    pub fn path(&self) -> Option<&Path> {
        match self {
            Self::File { path, .. }
            | Self::Corrupt { path, .. }
            | Self::UnsupportedVersion { path, .. } => Some(path),
            Self::LeaseTimeout { .. } | Self::Backend { .. } => None,
        }
    }
}

/// What a file store was doing when the file system refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum FileAction {
    /// Reading the file.
    Read,
    /// Creating the directory that holds it.
    CreateDirectory,
    /// Writing the new contents to a temporary file beside it.
    Write,
    /// Renaming the temporary file over it.
    Replace,
}

impl fmt::Display for FileAction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::Read => "read",
            Self::CreateDirectory => "create the directory of",
            Self::Write => "write",
            Self::Replace => "replace",
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_error_names_the_action_the_path_and_the_cause() {
        let error = TokenStoreError::File {
            action: FileAction::CreateDirectory,
            path: PathBuf::from("/srv/tokens.json"),
            source: io::Error::from(io::ErrorKind::PermissionDenied),
        };
        assert_eq!(
            error.to_string(),
            "could not create the directory of the token file /srv/tokens.json: permission denied"
        );
        assert_eq!(error.path(), Some(Path::new("/srv/tokens.json")));
    }

    #[test]
    fn a_backend_error_keeps_its_cause_and_has_no_path() {
        let error = TokenStoreError::backend("redis is down");
        assert_eq!(error.to_string(), "the token store failed: redis is down");
        assert!(std::error::Error::source(&error).is_some());
        assert_eq!(error.path(), None);
    }
}
