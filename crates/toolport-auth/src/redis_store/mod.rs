//! [`RedisTokenStore`]: tokens in Redis, shared by the replicas of an agent, with the refresh
//! lease kept there too.

mod failure;
mod lease;

use std::fmt;
use std::time::Duration;

use redis::AsyncCommands;
use redis::aio::{ConnectionManager, ConnectionManagerConfig};

use self::failure::{Action, RedisFailure};
use crate::wire::WireTokens;
use crate::{TokenKey, TokenLease, TokenSet, TokenStore, TokenStoreError};

/// How many times a connection is tried again (after 0.1 s, then 0.2 s) before a command
/// fails: a store that cannot be reached fails fast, and the next command tries again.
const CONNECT_RETRIES: usize = 2;

/// Keeps tokens in Redis, so the replicas of an agent (and every toolset in each) share them,
/// and takes the refresh lease there, so a token is refreshed by one replica and adopted by the
/// others (see [`TokenStore`]'s "Refreshing across replicas"). With the `redis` feature.
///
/// - **Keys.** The tokens of a [`TokenKey`] are one string value at
///   `<prefix><storage_key>` ([`DEFAULT_PREFIX`](Self::DEFAULT_PREFIX) unless set with
///   [`with_prefix`](Self::with_prefix)), JSON in the same form the file store writes. They
///   have no expiry in Redis: remove them with [`remove`](TokenStore::remove).
/// - **The lease.** `SET <prefix><storage_key>:lease <random> NX PX <hold>`, tried again every
///   few milliseconds until it is taken or the wait is over; dropping the [`TokenLease`]
///   deletes it with a script that deletes only the holder's own value (in a task, so on a
///   Tokio runtime; else, and when Redis cannot be reached, the lease lapses after `hold`).
/// - **The connection** is one multiplexed connection, made again when it breaks (tried three
///   times), each command bounded by the client's response timeout (half a second). Clones
///   share it.
/// - **No secrets shown.** `Debug` and errors show the URL without its user info, password and
///   query, and never a token; a value that is not the JSON this store writes is described
///   by where it breaks, not quoted.
///
/// Use a Redis only your agent's replicas can reach: anyone who can read the keys can use the
/// tokens.
///
/// # Examples
///
/// ```no_run
/// use std::sync::Arc;
/// use toolport_auth::{HeadlessAuthorization, OAuthAuthorizer, RedisTokenStore};
/// use url::Url;
///
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
/// let store = RedisTokenStore::connect("redis://:s3cret@redis.internal:6379/0")
///     .await?
///     .with_prefix("my-agent:tokens:");
/// assert!(!format!("{store:?}").contains("s3cret"));
///
/// let handler = HeadlessAuthorization::new(Url::parse("http://localhost:3000/callback")?);
/// let authorizer = OAuthAuthorizer::builder("https://mcp.example.com/mcp")
///     .handler(handler)
///     .store(Arc::new(store))
///     .build()?;
/// # let _ = authorizer;
/// # Ok(())
/// # }
/// ```
#[derive(Clone)]
pub struct RedisTokenStore {
    connection: ConnectionManager,
    prefix: String,
    /// The server's URL as it may be shown.
    server: String,
}

impl RedisTokenStore {
    /// The prefix of every key this store writes, unless set: `toolport:tokens:`.
    pub const DEFAULT_PREFIX: &'static str = "toolport:tokens:";

    /// A store on the Redis server at `url` (`redis://[[user]:password@]host[:port][/db]`, or
    /// `redis+unix:///path`), connected before it returns.
    ///
    /// # Errors
    ///
    /// When the URL is not a Redis URL or the server cannot be reached or refuses the
    /// credentials ([`TokenStoreError::Backend`], showing the URL without its secrets).
    pub async fn connect(url: &str) -> Result<Self, TokenStoreError> {
        let server = toolport_http_client::toolkit::redacted_url_text(url);
        let failure = |source| RedisFailure::new(Action::Connect, &server, source);
        let client = redis::Client::open(url).map_err(failure)?;
        let settings = ConnectionManagerConfig::new().set_number_of_retries(CONNECT_RETRIES);
        let connection = client
            .get_connection_manager_with_config(settings)
            .await
            .map_err(failure)?;
        Ok(Self {
            connection,
            prefix: Self::DEFAULT_PREFIX.to_owned(),
            server,
        })
    }

    /// Writes the keys under `prefix` instead of [`DEFAULT_PREFIX`](Self::DEFAULT_PREFIX):
    /// stores with different prefixes on one server do not see each other's tokens.
    #[must_use]
    pub fn with_prefix(mut self, prefix: impl Into<String>) -> Self {
        self.prefix = prefix.into();
        self
    }

    /// The Redis key of `key`'s tokens.
    fn tokens_key(&self, key: &TokenKey) -> String {
        format!("{}{}", self.prefix, key.storage_key())
    }

    /// The Redis key of `key`'s refresh lease. A storage key has no `:`, so it is never the
    /// key of other tokens.
    fn lease_key(&self, key: &TokenKey) -> String {
        format!("{}{}:lease", self.prefix, key.storage_key())
    }

    fn failure(&self, action: Action) -> impl FnOnce(redis::RedisError) -> TokenStoreError {
        move |source| RedisFailure::new(action, &self.server, source).into()
    }
}

impl fmt::Debug for RedisTokenStore {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RedisTokenStore")
            .field("server", &self.server)
            .field("prefix", &self.prefix)
            .finish_non_exhaustive()
    }
}

#[async_trait::async_trait]
impl TokenStore for RedisTokenStore {
    async fn load(&self, key: &TokenKey) -> Result<Option<TokenSet>, TokenStoreError> {
        let mut connection = self.connection.clone();
        let value: Option<String> = connection
            .get(self.tokens_key(key))
            .await
            .map_err(self.failure(Action::Load))?;
        let Some(value) = value else {
            return Ok(None);
        };
        let wire: WireTokens = serde_json::from_str(&value)
            .map_err(|error| failure::corrupt(&self.server, key, &error))?;
        Ok(Some(wire.into()))
    }

    async fn save(&self, key: &TokenKey, tokens: &TokenSet) -> Result<(), TokenStoreError> {
        let value = serde_json::to_string(&WireTokens::from(tokens))
            .map_err(|_| TokenStoreError::backend("the tokens could not be written as JSON"))?;
        let mut connection = self.connection.clone();
        connection
            .set::<_, _, ()>(self.tokens_key(key), value)
            .await
            .map_err(self.failure(Action::Save))
    }

    async fn remove(&self, key: &TokenKey) -> Result<(), TokenStoreError> {
        let mut connection = self.connection.clone();
        connection
            .del::<_, ()>(self.tokens_key(key))
            .await
            .map_err(self.failure(Action::Remove))
    }

    async fn lease(&self, key: &TokenKey, hold: Duration) -> Result<TokenLease, TokenStoreError> {
        lease::take(self, key, hold).await
    }
}
