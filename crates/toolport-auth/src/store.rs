//! [`TokenStore`]: where the tokens of each server and identity are kept between uses.

use std::fmt::Debug;

use crate::{TokenKey, TokenSet, TokenStoreError};

/// Keeps the [`TokenSet`] of each [`TokenKey`], so an agent does not authorize again on every
/// start, and so several toolsets (or replicas) can use the same tokens.
///
/// The backends here are [`MemoryTokenStore`](crate::MemoryTokenStore) (the default: tokens
/// live as long as the process) and [`FileTokenStore`](crate::FileTokenStore) (one JSON file,
/// for a command-line tool or a single agent process). Implement the trait to keep tokens
/// elsewhere; report failures with [`TokenStoreError::backend`], and keep tokens out of them.
///
/// Each method acts on one key alone: a store must never let one key's tokens be read under
/// another key, and a save or remove must not lose the tokens of other keys.
///
/// # Refreshing across replicas
///
/// A refresh token may be rotated: the authorization server answers a refresh with a new one
/// and refuses the old from then on. When several processes share a store, two of them
/// refreshing the same token at once means one of them fails. A later increment adds a shared
/// Redis backend, and with it a refresh *lease*: a lock on one key, held for a bounded time,
/// that the refreshing side takes before it refreshes. The holder loads the tokens again (the
/// others may have refreshed them already), refreshes only if they still need it, saves, and
/// lets the lease go; the others wait for the lease and adopt what was saved.
///
/// The lease will be a provided method on this trait (or a companion trait) whose default is a
/// lock within the process, which is all the memory and file backends need, so a store written
/// against today's three methods keeps compiling and keeps working in one process.
///
/// # Examples
///
/// ```
/// use toolport_auth::{MemoryTokenStore, TokenKey, TokenSet, TokenStore, TokenType};
/// use toolport_core::Secret;
///
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> Result<(), toolport_auth::TokenStoreError> {
/// let store = MemoryTokenStore::new();
/// let key = TokenKey::new("https://mcp.example.com/mcp", "alice");
/// assert!(store.load(&key).await?.is_none());
///
/// let tokens = TokenSet::new(Secret::new("at-123"), TokenType::Bearer);
/// store.save(&key, &tokens).await?;
/// assert_eq!(store.load(&key).await?, Some(tokens));
///
/// store.remove(&key).await?;
/// assert!(store.load(&key).await?.is_none());
/// # Ok(())
/// # }
/// ```
#[async_trait::async_trait]
pub trait TokenStore: Send + Sync + Debug {
    /// The tokens saved for `key`, or `None` when there are none.
    async fn load(&self, key: &TokenKey) -> Result<Option<TokenSet>, TokenStoreError>;

    /// Saves `tokens` for `key`, replacing what was there. When it returns `Ok`, the next
    /// [`load`](Self::load) of `key` from this store sees them.
    async fn save(&self, key: &TokenKey, tokens: &TokenSet) -> Result<(), TokenStoreError>;

    /// Forgets the tokens of `key` (after a refresh token is refused, or on sign-out). Removing
    /// a key that has no tokens is not an error.
    async fn remove(&self, key: &TokenKey) -> Result<(), TokenStoreError>;
}
