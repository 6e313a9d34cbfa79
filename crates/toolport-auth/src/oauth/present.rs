//! Presenting the current access token on a request, refreshing it first when it is about to
//! expire: a Bearer token alone, a DPoP-bound one with a fresh proof of the request.

use std::time::{Duration, SystemTime};

use http::header::AUTHORIZATION;
use http::{HeaderMap, HeaderValue};
use toolport_core::BoxError;
use toolport_http_client::RequestTarget;

use super::Inner;
use crate::dpop::DPOP;
use crate::{TokenSet, TokenType};

/// How long before its expiry a token is refreshed.
const REFRESH_MARGIN: Duration = Duration::from_secs(60);

impl Inner {
    /// Adds `Authorization` (marked sensitive) for the current tokens, and for a DPoP-bound
    /// token a `DPoP` proof of `request`, refreshing the tokens first when they expire within
    /// a minute and can be refreshed. Adds nothing when there are no tokens yet. A failed
    /// refresh is not an error: the token is sent as it is, and the server's refusal leads to
    /// a renewal.
    pub(super) async fn present(
        &self,
        request: RequestTarget<'_>,
        headers: &mut HeaderMap,
    ) -> Result<(), BoxError> {
        let Some(mut tokens) = self.tokens.current().await? else {
            return Ok(());
        };
        if needs_refresh(&tokens)
            // A renewal in progress will replace the tokens; do not wait for it.
            && let Ok(mut session) = self.session.try_lock()
        {
            tokens = match self.tokens.current().await? {
                Some(latest) => latest,
                None => return Ok(()),
            };
            if needs_refresh(&tokens) {
                match self.refresh(&mut session, &tokens).await {
                    Ok(Some(refreshed)) => tokens = refreshed,
                    Ok(None) => {}
                    Err(error) => {
                        tracing::debug!(%error, "refresh failed; sending the current token");
                    }
                }
            }
        }
        headers.insert(AUTHORIZATION, authorization(&tokens)?);
        if tokens.token_type() == TokenType::DPoP {
            let proof =
                self.dpop
                    .proof(request.method, request.uri, Some(tokens.access_token()))?;
            headers.insert(DPOP, proof);
        } else {
            headers.remove(DPOP);
        }
        Ok(())
    }
}

/// Whether `tokens` expire soon and can be refreshed.
fn needs_refresh(tokens: &TokenSet) -> bool {
    tokens.refresh_token().is_some() && tokens.needs_refresh(SystemTime::now(), REFRESH_MARGIN)
}

/// The `Authorization` header that presents `tokens` (`Bearer <token>` or `DPoP <token>`),
/// marked sensitive.
///
/// # Errors
///
/// For a token that cannot be a header value.
pub(super) fn authorization(tokens: &TokenSet) -> Result<HeaderValue, BoxError> {
    let scheme = tokens.token_type().as_str();
    let mut value = HeaderValue::try_from(format!("{scheme} {}", tokens.access_token().expose()))
        .map_err(|_| "the access token has characters a header cannot carry")?;
    value.set_sensitive(true);
    Ok(value)
}
