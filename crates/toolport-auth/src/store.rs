//! [`TokenStore`]: where the tokens of each server and identity are kept between uses.

use std::fmt::Debug;
use std::time::Duration;

use crate::lease::local;
use crate::{TokenKey, TokenLease, TokenSet, TokenStoreError};

/// Keeps the [`TokenSet`] of each [`TokenKey`], so an agent does not authorize again on every
/// start, and so several toolsets (or replicas) can use the same tokens.
///
/// The backends here are [`MemoryTokenStore`](crate::MemoryTokenStore) (the default: tokens
/// live as long as the process), [`FileTokenStore`](crate::FileTokenStore) (one JSON file,
/// for a command-line tool or a single agent process) and, with the `redis` feature,
/// `RedisTokenStore` (for replicas sharing tokens). Implement the trait to keep tokens
/// elsewhere; report failures with [`TokenStoreError::backend`], and keep tokens out of them.
///
/// Each method acts on one key alone: a store must never let one key's tokens be read under
/// another key, and a save or remove must not lose the tokens of other keys.
///
/// # Refreshing across replicas
///
/// A refresh token may be rotated: the authorization server answers a refresh with a new one
/// and refuses the old from then on. When several authorizers share a store (toolsets in one
/// process, or replicas of an agent), two of them refreshing the same token at once means one of
/// them fails. So a refresher first takes the key's refresh *lease* with [`lease`](Self::lease):
/// a lock on one key, held for a bounded time. The holder loads the tokens again; when another
/// refresher replaced them meanwhile it adopts them, else it refreshes, saves, and lets the
/// lease go. The others wait for the lease, then find the new tokens and adopt them: each token
/// is refreshed once, and no rotated refresh token is used twice.
///
/// The provided [`lease`](Self::lease) is a lock within the process, which is all the memory
/// and file backends need (a file shared by several processes is not coordinated).
/// `RedisTokenStore` (the `redis` feature) overrides it with a lease
/// in Redis, so replicas on other machines take turns too. A store shared between processes
/// overrides it the same way.
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

    /// Waits until this caller holds the refresh lease of `key` (see [Refreshing across
    /// replicas](#refreshing-across-replicas)), for at most `hold`: the lease lapses then even
    /// if the [`TokenLease`] is not dropped, and it is never extended. It waits at most twice
    /// `hold`, then fails with [`TokenStoreError::LeaseTimeout`].
    ///
    /// The default is a lock per key within the process. Override it in a store shared
    /// between processes, with a lease the store itself keeps.
    async fn lease(&self, key: &TokenKey, hold: Duration) -> Result<TokenLease, TokenStoreError> {
        local::lease(key, hold).await
    }
}
