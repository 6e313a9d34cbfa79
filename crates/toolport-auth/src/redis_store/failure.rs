//! What went wrong with Redis, told without the URL's secrets or a token.

use std::fmt;

use serde_json::error::Category;

use crate::{TokenKey, TokenStoreError};

/// What the store was doing.
#[derive(Debug, Clone, Copy)]
pub(super) enum Action {
    Connect,
    Load,
    Save,
    Remove,
    TakeLease,
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::Connect => "connect to",
            Self::Load => "load tokens from",
            Self::Save => "save tokens to",
            Self::Remove => "remove tokens from",
            Self::TakeLease => "take a refresh lease in",
        })
    }
}

/// A Redis command failed: what was being done, on which server (shown without secrets), and
/// the client's error (which names no password: the URL is never given to it to show).
#[derive(Debug, thiserror::Error)]
#[error("could not {action} Redis at {server}: {source}")]
pub(super) struct RedisFailure {
    action: Action,
    server: String,
    #[source]
    source: redis::RedisError,
}

impl RedisFailure {
    /// The failure of `action` on `server` (already redacted).
    pub(super) fn new(action: Action, server: &str, source: redis::RedisError) -> Self {
        Self {
            action,
            server: server.to_owned(),
            source,
        }
    }
}

impl From<RedisFailure> for TokenStoreError {
    fn from(failure: RedisFailure) -> Self {
        TokenStoreError::backend(failure)
    }
}

/// The stored value of `key` is not the JSON this store writes: described by where it breaks,
/// since serde's message may quote it, and it holds tokens.
pub(super) fn corrupt(server: &str, key: &TokenKey, error: &serde_json::Error) -> TokenStoreError {
    let problem = match error.classify() {
        Category::Syntax => "not valid JSON",
        Category::Eof => "the JSON ends too early",
        Category::Data => "valid JSON, but not the tokens' form",
        Category::Io => "unreadable",
    };
    TokenStoreError::backend(format!(
        "the tokens of {key} in Redis at {server} are corrupt ({problem} at line {}, column {}); \
         remove them and authorize again",
        error.line(),
        error.column()
    ))
}
