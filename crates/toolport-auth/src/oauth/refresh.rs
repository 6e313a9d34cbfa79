//! The refresh-token grant: new tokens from the authorization server that issued the current
//! ones, with the rotated refresh token replacing the old.

use std::time::{Duration, SystemTime};

use super::token_endpoint::Client;
use super::{AuthorizationError, Bound, Inner, Session, present};
use crate::{TokenSet, TokenType};

/// How long a refresher holds the refresh lease, for an authorizer whose HTTP requests each
/// end within `timeout`: the token request, a second one when the server asks for a DPoP
/// nonce, and as long again for the store.
pub(super) fn lease_hold(timeout: Duration) -> Duration {
    timeout.saturating_mul(3)
}

impl Inner {
    /// Refreshes `tokens` at the authorization server that issued them, with the client they
    /// were issued to and for the same `resource`, and saves the result. Those come from the
    /// tokens' [`RefreshBinding`], which becomes the session's binding, so tokens loaded from a
    /// store (another authorizer's, or this one's before a restart) can be refreshed; else
    /// from the last authorization in this process. `None` when there is nothing to refresh
    /// with: no refresh token, or neither a binding nor an authorization here.
    ///
    /// [`RefreshBinding`]: crate::RefreshBinding
    ///
    /// The refresh runs under the key's refresh lease, on the tokens the store has then: when
    /// another authorizer sharing the store replaced `tokens` meanwhile (it refreshed them, or
    /// authorized again), those are adopted and nothing is refreshed.
    ///
    /// A refresh token the server refuses (an OAuth error at the token endpoint) is dropped
    /// from the saved tokens, so it is not tried again.
    ///
    /// # Errors
    ///
    /// When the lease, the token request or the store fails, or the binding's issuer is not
    /// the pinned one (or, unpinned, it would send the pre-registered client's secret).
    pub(super) async fn refresh(
        &self,
        session: &mut Session,
        tokens: &TokenSet,
    ) -> Result<Option<TokenSet>, AuthorizationError> {
        if tokens.refresh_token().is_none()
            || (session.bound.is_none() && Bound::stored(tokens).is_none())
        {
            return Ok(None);
        }
        let _lease = self.tokens.lease(self.refresh_hold).await?;
        let Some(latest) = self.tokens.reload().await? else {
            return Ok(None);
        };
        if latest.access_token().expose() != tokens.access_token().expose() {
            tracing::debug!("the tokens were replaced meanwhile; adopting them");
            session.refreshed = present::authorization(&latest).ok();
            return Ok(Some(latest));
        }
        self.refresh_under_lease(session, &latest).await
    }

    /// The token request of [`refresh`](Self::refresh), made while holding the lease, and the
    /// saving of its answer.
    async fn refresh_under_lease(
        &self,
        session: &mut Session,
        tokens: &TokenSet,
    ) -> Result<Option<TokenSet>, AuthorizationError> {
        if let Some(stored) = Bound::stored(tokens) {
            session.bound = Some(stored);
        }
        let (Some(bound), Some(refresh_token)) = (&session.bound, tokens.refresh_token()) else {
            return Ok(None);
        };
        // A binding from a store is as trusted as the store: its client's secret still goes
        // only where the authorizer's pin says.
        self.check_binding(&bound.issuer, &bound.identity)?;
        let mut client = Client::new(
            &self.http,
            &bound.endpoints,
            &bound.identity,
            self.handler.redirect_uri(),
        );
        // A DPoP-bound token's refresh token is bound to the same key (RFC 9449 §5).
        if tokens.token_type() == TokenType::DPoP {
            client = client.with_dpop(&self.dpop);
        }
        let received_at = SystemTime::now();
        let response = match client.refresh(refresh_token, &bound.resource).await {
            Ok(response) => response,
            Err(error) => {
                if matches!(error, AuthorizationError::TokenRefused { .. }) {
                    self.tokens.save(&without_refresh_token(tokens)).await?;
                }
                return Err(error);
            }
        };
        let refreshed = client.token_set(
            &response,
            received_at,
            tokens.scopes(),
            &bound.issuer,
            Some(refresh_token),
        )?;
        let refreshed = bound.keep_in(refreshed);
        self.tokens.save(&refreshed).await?;
        session.refreshed = present::authorization(&refreshed).ok();
        tracing::debug!(issuer = %bound.issuer, "tokens refreshed");
        Ok(Some(refreshed))
    }
}

/// `tokens` less their refresh token.
fn without_refresh_token(tokens: &TokenSet) -> TokenSet {
    let mut kept = TokenSet::new(tokens.access_token().clone(), tokens.token_type())
        .with_scopes(tokens.scopes().iter().cloned());
    if let Some(expires_at) = tokens.expires_at() {
        kept = kept.with_expires_at(expires_at);
    }
    if let Some(issuer) = tokens.issuer() {
        kept = kept.with_issuer(issuer);
    }
    kept
}
