//! [`TokenCache`]: the tokens of one key, read from the store once and kept in memory, and
//! written through to the store.

use std::fmt;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use crate::{TokenKey, TokenLease, TokenSet, TokenStore, TokenStoreError};

/// The tokens of one [`TokenKey`]: loaded from the store on first use, then served from
/// memory; every change goes to the store first.
pub(crate) struct TokenCache {
    key: TokenKey,
    store: Arc<dyn TokenStore>,
    /// `None` until loaded; then the tokens, if any.
    loaded: Mutex<Option<Option<TokenSet>>>,
}

impl TokenCache {
    /// The tokens of `key` in `store`, not loaded yet.
    pub(crate) fn new(key: TokenKey, store: Arc<dyn TokenStore>) -> Self {
        Self {
            key,
            store,
            loaded: Mutex::new(None),
        }
    }

    /// The key.
    pub(crate) fn key(&self) -> &TokenKey {
        &self.key
    }

    /// The current tokens: from memory, or from the store the first time.
    pub(crate) async fn current(&self) -> Result<Option<TokenSet>, TokenStoreError> {
        if let Some(tokens) = self.lock().as_ref() {
            return Ok(tokens.clone());
        }
        self.reload().await
    }

    /// The tokens as the store has them now (another authorizer sharing the store may have
    /// renewed them), kept in memory.
    pub(crate) async fn reload(&self) -> Result<Option<TokenSet>, TokenStoreError> {
        let tokens = self.store.load(&self.key).await?;
        *self.lock() = Some(tokens.clone());
        Ok(tokens)
    }

    /// Saves `tokens` to the store, then keeps them in memory.
    pub(crate) async fn save(&self, tokens: &TokenSet) -> Result<(), TokenStoreError> {
        self.store.save(&self.key, tokens).await?;
        *self.lock() = Some(Some(tokens.clone()));
        Ok(())
    }

    /// Waits for the key's refresh lease, held for at most `hold`.
    pub(crate) async fn lease(&self, hold: Duration) -> Result<TokenLease, TokenStoreError> {
        self.store.lease(&self.key, hold).await
    }

    /// Forgets the tokens, in the store and in memory.
    pub(crate) async fn remove(&self) -> Result<(), TokenStoreError> {
        self.store.remove(&self.key).await?;
        *self.lock() = Some(None);
        Ok(())
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Option<Option<TokenSet>>> {
        self.loaded.lock().unwrap_or_else(|e| e.into_inner())
    }
}

impl fmt::Debug for TokenCache {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("TokenCache")
            .field("key", &self.key)
            .field("store", &self.store)
            .finish_non_exhaustive()
    }
}
