//! [`MemoryTokenStore`]: tokens kept in the process, the default store.

use std::collections::HashMap;
use std::fmt;
use std::sync::{Arc, RwLock};

use crate::{TokenKey, TokenSet, TokenStore, TokenStoreError};

/// Keeps tokens in memory for as long as the process runs: the default store. Clones share
/// the same tokens, so one store can serve every toolset of an agent.
///
/// Its `Debug` output shows only how many keys it holds.
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
/// let for_another_toolset = store.clone();
///
/// let key = TokenKey::new("https://mcp.example.com/mcp", "default");
/// let tokens = TokenSet::new(Secret::new("at-123"), TokenType::Bearer);
/// store.save(&key, &tokens).await?;
///
/// let loaded = for_another_toolset.load(&key).await?.unwrap();
/// assert_eq!(loaded.access_token().expose(), "at-123");
/// assert_eq!(format!("{store:?}"), "MemoryTokenStore { keys: 1 }");
/// # Ok(())
/// # }
/// ```
#[derive(Clone, Default)]
pub struct MemoryTokenStore {
    tokens: Arc<RwLock<HashMap<TokenKey, TokenSet>>>,
}

impl MemoryTokenStore {
    /// An empty store.
    pub fn new() -> Self {
        Self::default()
    }

    /// How many keys have tokens.
    fn len(&self) -> usize {
        self.tokens.read().unwrap_or_else(|e| e.into_inner()).len()
    }
}

impl fmt::Debug for MemoryTokenStore {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("MemoryTokenStore")
            .field("keys", &self.len())
            .finish()
    }
}

#[async_trait::async_trait]
impl TokenStore for MemoryTokenStore {
    async fn load(&self, key: &TokenKey) -> Result<Option<TokenSet>, TokenStoreError> {
        let tokens = self.tokens.read().unwrap_or_else(|e| e.into_inner());
        Ok(tokens.get(key).cloned())
    }

    async fn save(&self, key: &TokenKey, tokens: &TokenSet) -> Result<(), TokenStoreError> {
        let mut all = self.tokens.write().unwrap_or_else(|e| e.into_inner());
        all.insert(key.clone(), tokens.clone());
        Ok(())
    }

    async fn remove(&self, key: &TokenKey) -> Result<(), TokenStoreError> {
        let mut all = self.tokens.write().unwrap_or_else(|e| e.into_inner());
        all.remove(key);
        Ok(())
    }
}
