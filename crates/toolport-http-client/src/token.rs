//! [`TokenSource`]: where a bearer token or API key comes from, each time one is needed.

use std::sync::{Arc, RwLock};

use toolport_core::{BoxError, Secret};

/// Gives the current credential each time a request is made, so a token can rotate without
/// rebuilding the toolset.
///
/// A [`Secret`] is a fixed token. A [`RotatingToken`] is one that other code replaces.
/// Implement the trait to fetch or refresh tokens yourself.
#[async_trait::async_trait]
pub trait TokenSource: Send + Sync + std::fmt::Debug {
    /// The credential to send now.
    async fn token(&self) -> Result<Secret, BoxError>;
}

#[async_trait::async_trait]
impl TokenSource for Secret {
    async fn token(&self) -> Result<Secret, BoxError> {
        Ok(self.clone())
    }
}

/// A token that can be replaced while requests are being made; clones share it.
///
/// # Examples
///
/// ```
/// use toolport_core::Secret;
/// use toolport_http_client::RotatingToken;
///
/// let token = RotatingToken::new(Secret::new("first"));
/// let for_the_transport = token.clone();
/// token.set(Secret::new("second"));
/// assert_eq!(for_the_transport.current().expose(), "second");
/// ```
#[derive(Debug, Clone)]
pub struct RotatingToken {
    current: Arc<RwLock<Secret>>,
}

impl RotatingToken {
    /// A token that starts as `initial`.
    pub fn new(initial: Secret) -> Self {
        Self {
            current: Arc::new(RwLock::new(initial)),
        }
    }

    /// Replaces the token; the next request uses the new one.
    pub fn set(&self, token: Secret) {
        *self.current.write().unwrap_or_else(|e| e.into_inner()) = token;
    }

    /// The token as it is now.
    pub fn current(&self) -> Secret {
        self.current
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }
}

#[async_trait::async_trait]
impl TokenSource for RotatingToken {
    async fn token(&self) -> Result<Secret, BoxError> {
        Ok(self.current())
    }
}
