//! [`FileTokenStore`]: every key's tokens in one JSON file, replaced atomically on each change.

mod atomic;
mod document;

use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use tokio::sync::Mutex;

use self::document::Entries;
use crate::wire::WireTokens;
use crate::{FileAction, TokenKey, TokenSet, TokenStore, TokenStoreError};

/// Keeps every key's tokens in one JSON file at a path you choose: for a command-line tool, or
/// an agent that runs as one process.
///
/// - **Private.** On Unix the file is created with mode 0600 (and a missing directory with
///   0700) from the start, never narrowed after. A file found with a wider mode is still read,
///   with one warning in the log per store; the next save replaces it with a 0600 file.
/// - **Atomic.** Each change writes the whole file to a temporary file in the same directory,
///   syncs it, and renames it over the old one, so a crash leaves the old file or the new one.
/// - **Serialized.** Saves and removes through one store and its clones take turns, so none is
///   lost. Make one store per file and clone it; two stores on one file, or two processes,
///   can still overwrite each other's changes (a store shared between processes is the Redis
///   backend's job).
/// - **Loud when broken.** A file that is not the JSON this store writes is an error naming
///   the file ([`TokenStoreError::Corrupt`]), for loads and saves alike; it is never
///   overwritten.
///
/// Nothing is created until the first save; loading from a missing file finds no tokens. The
/// file's format is described in the crate's source (`src/file/document.rs`); it carries a
/// version number, and a file of another version is refused
/// ([`TokenStoreError::UnsupportedVersion`]).
#[derive(Clone)]
pub struct FileTokenStore {
    inner: Arc<Inner>,
}

struct Inner {
    path: PathBuf,
    /// Held from before the file is read until it is replaced, by the blocking task itself, so
    /// a save whose caller gave up still finishes before the next one starts.
    lock: Arc<Mutex<()>>,
    /// Whether the wide-mode warning was given.
    warned: AtomicBool,
}

impl FileTokenStore {
    /// A store in the file at `path`. Nothing is read or created until it is used.
    pub fn new(path: impl Into<PathBuf>) -> Self {
        Self {
            inner: Arc::new(Inner {
                path: path.into(),
                lock: Arc::new(Mutex::new(())),
                warned: AtomicBool::new(false),
            }),
        }
    }

    /// The file's path.
    pub fn path(&self) -> &Path {
        &self.inner.path
    }

    /// Reads and applies `change` to the file's entries, then writes the file if `change` says
    /// it changed something, all under the store's lock.
    async fn update(
        &self,
        change: impl FnOnce(&mut Entries) -> bool + Send + 'static,
    ) -> Result<(), TokenStoreError> {
        let guard = self.inner.lock.clone().lock_owned().await;
        let inner = Arc::clone(&self.inner);
        self.blocking(FileAction::Write, move || {
            let _guard = guard;
            let mut entries = inner.read()?;
            if change(&mut entries) {
                atomic::write(&inner.path, &document::render(&inner.path, &entries)?)?;
            }
            Ok(())
        })
        .await
    }

    /// Runs `work` on tokio's blocking pool; a task that could not finish becomes an error
    /// about `action`.
    async fn blocking<T: Send + 'static>(
        &self,
        action: FileAction,
        work: impl FnOnce() -> Result<T, TokenStoreError> + Send + 'static,
    ) -> Result<T, TokenStoreError> {
        match tokio::task::spawn_blocking(work).await {
            Ok(result) => result,
            Err(error) => Err(TokenStoreError::File {
                action,
                path: self.inner.path.clone(),
                source: std::io::Error::other(error.to_string()),
            }),
        }
    }
}

impl Inner {
    /// The file's entries; none when there is no file. Blocking.
    fn read(&self) -> Result<Entries, TokenStoreError> {
        let Some(contents) = atomic::read(&self.path)? else {
            return Ok(Entries::new());
        };
        if let Some(mode) = contents.wide_mode
            && !self.warned.swap(true, Ordering::Relaxed)
        {
            tracing::warn!(
                path = %self.path.display(),
                mode = format_args!("{mode:o}"),
                "the token file can be read by other users; the next save rewrites it with mode 600"
            );
        }
        document::parse(&self.path, &contents.bytes)
    }
}

impl fmt::Debug for FileTokenStore {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("FileTokenStore")
            .field("path", &self.inner.path)
            .finish()
    }
}

#[async_trait::async_trait]
impl TokenStore for FileTokenStore {
    async fn load(&self, key: &TokenKey) -> Result<Option<TokenSet>, TokenStoreError> {
        // No lock: the file is only ever replaced whole, so a read sees one version of it.
        let inner = Arc::clone(&self.inner);
        let storage_key = key.storage_key();
        self.blocking(FileAction::Read, move || {
            let mut entries = inner.read()?;
            Ok(entries.remove(&storage_key).map(TokenSet::from))
        })
        .await
    }

    async fn save(&self, key: &TokenKey, tokens: &TokenSet) -> Result<(), TokenStoreError> {
        let storage_key = key.storage_key();
        let wire = WireTokens::from(tokens);
        self.update(move |entries| {
            entries.insert(storage_key, wire);
            true
        })
        .await?;
        tracing::debug!(path = %self.inner.path.display(), %key, "saved tokens");
        Ok(())
    }

    async fn remove(&self, key: &TokenKey) -> Result<(), TokenStoreError> {
        let storage_key = key.storage_key();
        self.update(move |entries| entries.remove(&storage_key).is_some())
            .await?;
        tracing::debug!(path = %self.inner.path.display(), %key, "removed tokens");
        Ok(())
    }
}
