//! Getting a new token: the target (and whether the grant may go there), the scopes, the
//! grant's request, and the answer kept.

use super::present::RENEWAL_MARGIN;
use super::target::{self, GrantTarget};
use super::{Inner, Session};
use crate::key::shown_resource;
use crate::oauth::scopes;
use crate::oauth::target::same_issuer;
use crate::{AuthorizationError, BearerChallenge, TokenSet};

impl Inner {
    /// Asks for a token with the grant and saves it. The target is found again when
    /// `challenge` is given (a refusal: the server may have moved), else the last one is used.
    /// The scopes are the user's, else the challenge's, else the resource's
    /// `scopes_supported`, together with every scope asked for before.
    pub(super) async fn obtain(
        &self,
        session: &mut Session,
        challenge: Option<&BearerChallenge>,
    ) -> Result<TokenSet, AuthorizationError> {
        let target = match (&session.target, challenge) {
            (Some(target), None) => target.clone(),
            _ => {
                target::find(
                    &self.http,
                    &self.server_url,
                    self.token_url.as_ref(),
                    self.pinned_issuer.as_deref(),
                    challenge,
                )
                .await?
            }
        };
        self.check_target(&target).await?;
        let asked = scopes::select(
            self.scopes.as_ref(),
            challenge,
            target.resource_scopes.as_deref(),
            &session.asked,
        );
        let received_at = (self.wall_clock)();
        let answer = self.grant.request(&self.http, &target, &asked).await?;
        let url = target.token_url.as_str();
        let tokens = answer.tokens(received_at, &asked, target.issuer.as_deref(), url)?;
        self.tokens.save(&tokens).await?;
        if let Some(lifetime) = tokens
            .expires_at()
            .and_then(|expires_at| expires_at.duration_since(received_at).ok())
        {
            *self
                .renewal_margin
                .lock()
                .unwrap_or_else(|e| e.into_inner()) = RENEWAL_MARGIN.min(lifetime / 2);
        }
        tracing::debug!(
            scopes = %scopes::joined(tokens.scopes()),
            expires_at = ?tokens.expires_at(),
            "token obtained"
        );
        session.asked = asked;
        session.target = Some(target);
        Ok(tokens)
    }

    /// Whether the grant may go to `target`: a grant that carries a credential goes only to a
    /// token endpoint or issuer the user pinned, never to one only the MCP server named; and a
    /// token kept from another issuer is, pinned, an error and not replaced, or, unpinned (a
    /// public client), dropped unsent with a warning, as the authorization-code flow does.
    async fn check_target(&self, target: &GrantTarget) -> Result<(), AuthorizationError> {
        let pinned = self.token_url.is_some() || self.pinned_issuer.is_some();
        let stored = self
            .tokens
            .current()
            .await?
            .and_then(|tokens| tokens.issuer().map(str::to_owned));
        if let (Some(stored), Some(current)) = (stored, &target.issuer)
            && !same_issuer(&stored, current)
        {
            let (stored, current) = (shown_resource(&stored), shown_resource(current));
            if pinned || self.grant.carries_credential() {
                return Err(AuthorizationError::IssuerChanged { stored, current });
            }
            tracing::warn!(
                previous = %stored,
                %current,
                "the MCP server names another authorization server: its token is dropped, unsent"
            );
            self.tokens.remove().await?;
        }
        if !pinned && self.grant.carries_credential() {
            return Err(AuthorizationError::CredentialNotPinned {
                client_id: self.grant.client_id().to_owned(),
                named: shown_resource(target.audience()),
            });
        }
        Ok(())
    }
}
