//! Presenting the current token on a request, after getting a new one when it is about to
//! expire.

use std::time::{Duration, SystemTime};

use http::header::AUTHORIZATION;
use http::{HeaderMap, HeaderValue};
use toolport_core::BoxError;

use super::Inner;
use crate::TokenSet;

/// How long before its expiry a token is replaced, at most: half its lifetime when that is
/// shorter, so a short-lived token is still used.
pub(super) const RENEWAL_MARGIN: Duration = Duration::from_secs(60);

impl Inner {
    /// Adds `Authorization: Bearer <token>` (marked sensitive) for the current token, getting
    /// a new one first when it expires within a minute. Adds nothing when there is no token
    /// yet. A failed renewal is not an error: the token is sent as it is, and the server's
    /// refusal leads to another try.
    pub(super) async fn present(&self, headers: &mut HeaderMap) -> Result<(), BoxError> {
        let Some(mut tokens) = self.tokens.current().await? else {
            return Ok(());
        };
        if self.expiring(&tokens)
            // A token request in progress will replace the token; do not wait for it.
            && let Ok(mut session) = self.session.try_lock()
        {
            match self.tokens.current().await? {
                Some(latest) if !self.expiring(&latest) => tokens = latest,
                _ => match self.obtain(&mut session, None).await {
                    Ok(renewed) => tokens = renewed,
                    Err(error) => {
                        tracing::debug!(%error, "renewal failed; sending the current token");
                    }
                },
            }
        }
        headers.insert(AUTHORIZATION, bearer(&tokens)?);
        Ok(())
    }

    /// Whether `tokens` expire within the renewal margin.
    fn expiring(&self, tokens: &TokenSet) -> bool {
        let margin = *self
            .renewal_margin
            .lock()
            .unwrap_or_else(|e| e.into_inner());
        tokens.needs_refresh(SystemTime::now(), margin)
    }
}

/// The `Authorization` header that presents `tokens`, marked sensitive.
///
/// # Errors
///
/// For a token that cannot be a header value.
pub(super) fn bearer(tokens: &TokenSet) -> Result<HeaderValue, BoxError> {
    let mut value = HeaderValue::try_from(format!("Bearer {}", tokens.access_token().expose()))
        .map_err(|_| "the access token has characters a header cannot carry")?;
    value.set_sensitive(true);
    Ok(value)
}
