//! The whole authorization-code flow: discovery, the authorization-server binding (one issuer
//! for the kept tokens, the pinned one for the client's secret), the client identity, the
//! scopes, the interactive step, the response check and the code exchange.

use std::time::SystemTime;

use toolport_http_client::toolkit::redacted_url;

use super::identity::ClientIdentity;
use super::registration::register;
use super::scopes::{self, Scopes};
use super::target::{self, Target, same_issuer};
use super::token_endpoint::{Client, Endpoints};
use super::{AuthorizationError, Bound, Inner, Session};
use crate::key::shown_resource;
use crate::{BearerChallenge, PendingAuthorization, TokenSet};

/// The PKCE method MCP requires.
const S256: &str = "S256";

impl Inner {
    /// Authorizes from the start, given the challenge of the server's refusal, and saves the
    /// tokens. The scopes asked for are the selection strategy's together with every scope
    /// asked before (see [`scopes::select`]).
    pub(super) async fn authorize_fully(
        &self,
        session: &mut Session,
        challenge: Option<&BearerChallenge>,
    ) -> Result<(), AuthorizationError> {
        let pinned = self.pinned_issuer.as_deref();
        let target = target::find(&self.http, &self.server_url, challenge, pinned).await?;
        let issuer = target.server.issuer.clone();
        self.stay_with_one_server(session, &issuer).await?;
        check_pkce(&target)?;
        let endpoints = Endpoints::of(&target.server)?;
        // Before anything goes to the server: the browser (or a handler of your own) is sent to
        // the one, the code to the other.
        self.http.policy().check(endpoints.authorization())?;
        self.http.policy().check(endpoints.token())?;
        let identity = self.identity(session, &target).await?;

        let current = self.tokens.current().await?;
        let asked_before = asked_so_far(session, current.as_ref().map(TokenSet::scopes));
        let resource_scopes = target.resource_scopes.as_deref();
        let mut asked = scopes::select(
            self.scopes.as_ref(),
            challenge,
            resource_scopes,
            &asked_before,
        );
        if self.scopes.is_none() {
            asked = scopes::with_offline_access(asked, target.server.scopes_supported.as_deref());
        }

        let redirect_uri = self.handler.redirect_uri();
        let mut client = Client::new(&self.http, &endpoints, &identity, redirect_uri);
        if self.dpop.wanted(&target.server, target.dpop_required) {
            tracing::debug!(issuer = %issuer, "asking for DPoP-bound tokens");
            client = client.with_dpop(&self.dpop);
        }
        let request = client.authorization_request(&asked, &target.resource);
        let pending = PendingAuthorization::new(request.state.secret().as_str(), &target.server);
        tracing::debug!(
            url = %redacted_url(&request.url),
            client_id = %identity.client_id,
            scopes = %scopes::joined(&asked),
            "authorization URL sent to the handler"
        );
        let redirect = self
            .handler
            .authorize(&request.url)
            .await
            .map_err(AuthorizationError::Handler)?;
        let code = pending.accept(&redirect)?;
        let received_at = SystemTime::now();
        let response = client
            .exchange_code(code, request.verifier, &target.resource)
            .await?;
        let tokens = client.token_set(&response, received_at, &asked, &issuer, None)?;
        let bound = Bound {
            issuer,
            endpoints: endpoints.clone(),
            identity,
            resource: target.resource,
        };
        self.tokens.save(&bound.keep_in(tokens)).await?;

        session.asked = asked;
        session.refreshed = None;
        session.bound = Some(bound);
        Ok(())
    }

    /// MCP's authorization-server binding: tokens kept from another authorization server than
    /// `issuer` never go to it. With a pinned issuer they are an error, not a switch, and stay
    /// as they are. Unpinned (a public client: a client with a secret needs a pin), the server
    /// moved, and MCP (SEP-2352) has the client register with the new one: the kept tokens are
    /// dropped, with a warning naming both issuers. A registration or binding of another server
    /// is forgotten.
    async fn stay_with_one_server(
        &self,
        session: &mut Session,
        issuer: &str,
    ) -> Result<(), AuthorizationError> {
        let stored = self
            .tokens
            .current()
            .await?
            .and_then(|tokens| tokens.issuer().map(str::to_owned));
        if let Some(stored) = stored.filter(|stored| !same_issuer(stored, issuer)) {
            let (stored, current) = (shown_resource(&stored), shown_resource(issuer));
            if self.pinned_issuer.is_some() {
                return Err(AuthorizationError::IssuerChanged { stored, current });
            }
            tracing::warn!(
                previous = %stored,
                %current,
                "the MCP server names another authorization server: its tokens are dropped, \
                 unsent, and the client registers with the new one (pin the issuer to make \
                 this an error)"
            );
            self.tokens.remove().await?;
        }
        if session
            .bound
            .as_ref()
            .is_some_and(|bound| !same_issuer(&bound.issuer, issuer))
        {
            session.bound = None;
            session.refreshed = None;
        }
        if session
            .registration
            .as_ref()
            .is_some_and(|registration| registration.registered_at.as_deref() != Some(issuer))
        {
            session.registration = None;
        }
        Ok(())
    }

    /// Whether `identity`'s credential may go to the authorization server `issuer`: a pinned
    /// issuer must be `issuer`; without a pin, the pre-registered client's secret goes to no
    /// server at all. Checked before discovery's choice is used, and before a refresh with a
    /// stored binding.
    pub(super) fn check_binding(
        &self,
        issuer: &str,
        identity: &ClientIdentity,
    ) -> Result<(), AuthorizationError> {
        match &self.pinned_issuer {
            Some(pinned) if !same_issuer(pinned, issuer) => {
                Err(AuthorizationError::IssuerChanged {
                    stored: shown_resource(issuer),
                    current: shown_resource(pinned),
                })
            }
            None if self.client.is_pre_registered_secret(identity) => {
                Err(AuthorizationError::CredentialNotPinned {
                    client_id: identity.client_id.clone(),
                    named: shown_resource(issuer),
                })
            }
            _ => Ok(()),
        }
    }

    /// The client identity for `target`'s authorization server, in MCP's order:
    /// pre-registered, a metadata-document URL the server accepts, the registration made
    /// before with this server, a new registration.
    async fn identity(
        &self,
        session: &mut Session,
        target: &Target,
    ) -> Result<ClientIdentity, AuthorizationError> {
        let server = &target.server;
        let supported = server.token_endpoint_auth_methods_supported.as_deref();
        if let Some(identity) = self.client.pre_registered(supported) {
            self.check_binding(&server.issuer, &identity)?;
            return Ok(identity);
        }
        if let Some(url) = &self.client.metadata_url
            && server.client_id_metadata_document_supported
        {
            return Ok(ClientIdentity::metadata_document(url));
        }
        if let Some(registration) = &session.registration {
            return Ok(registration.clone());
        }
        let Some(endpoint) = &server.registration_endpoint else {
            return Err(AuthorizationError::NoClientIdentity {
                issuer: server.issuer.clone(),
            });
        };
        let registration = register(
            &self.http,
            endpoint,
            &self.client.name,
            self.handler.redirect_uri(),
            server,
        )
        .await?;
        session.registration = Some(registration.clone());
        Ok(registration)
    }
}

/// MCP requires PKCE with S256: a server whose metadata does not list it is refused. The
/// 2025-03-26 default endpoints come with no metadata to check.
fn check_pkce(target: &Target) -> Result<(), AuthorizationError> {
    let listed = target
        .server
        .code_challenge_methods_supported
        .as_deref()
        .unwrap_or_default()
        .iter()
        .any(|method| method == S256);
    if target.published && !listed {
        return Err(AuthorizationError::PkceUnsupported {
            issuer: target.server.issuer.clone(),
        });
    }
    Ok(())
}

/// The scopes asked for so far: by this authorizer's requests, and in the current token's grant
/// (which may come from a store, before any request here).
pub(super) fn asked_so_far(session: &Session, granted: Option<&Scopes>) -> Scopes {
    let mut asked = session.asked.clone();
    asked.extend(granted.into_iter().flatten().cloned());
    asked
}
