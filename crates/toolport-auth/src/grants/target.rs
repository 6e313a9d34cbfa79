//! [`GrantTarget`]: where a grant's token request goes and what it is for: the token endpoint
//! a user gave, or the one discovery finds (held to the pinned issuer, if any, with the
//! 2025-03-26 fallback), and the resource.

use url::Url;

use crate::oauth::target;
use crate::oauth::transport::OAuthHttp;
use crate::{AuthorizationError, BearerChallenge};

/// The token endpoint, what the request needs to know of its authorization server, and the
/// protected resource the token is for.
#[derive(Debug, Clone)]
pub(crate) struct GrantTarget {
    /// The token endpoint.
    pub(crate) token_url: Url,
    /// The authorization server's issuer, when discovered or pinned.
    pub(crate) issuer: Option<String>,
    /// Its `token_endpoint_auth_methods_supported`.
    pub(crate) auth_methods: Option<Vec<String>>,
    /// The RFC 8707 `resource`.
    pub(crate) resource: String,
    /// The protected resource's `scopes_supported`.
    pub(crate) resource_scopes: Option<Vec<String>>,
}

impl GrantTarget {
    /// The `aud` of the assertions made for this server (a client assertion, an ID-JAG): its
    /// issuer, or the token endpoint's URL when the user gave only that (RFC 7523 §3 allows
    /// either).
    pub(crate) fn audience(&self) -> &str {
        self.issuer.as_deref().unwrap_or(self.token_url.as_str())
    }
}

/// The target for the MCP server at `server_url`: at the `fixed` token endpoint with no
/// discovery (the `pinned` issuer, if any, as its issuer), or else discovered from the
/// server's `challenge` (or its well-known URLs), at the `pinned` issuer if there is one.
///
/// # Errors
///
/// When discovery fails, contradicts the pinned issuer, or finds no `token_endpoint`.
pub(crate) async fn find(
    http: &OAuthHttp,
    server_url: &Url,
    fixed: Option<&Url>,
    pinned: Option<&str>,
    challenge: Option<&BearerChallenge>,
) -> Result<GrantTarget, AuthorizationError> {
    if let Some(token_url) = fixed {
        let mut resource = server_url.clone();
        resource.set_fragment(None);
        return Ok(GrantTarget {
            token_url: token_url.clone(),
            issuer: pinned.map(str::to_owned),
            auth_methods: None,
            resource: resource.into(),
            resource_scopes: None,
        });
    }
    let found = target::find(http, server_url, challenge, pinned).await?;
    let server = found.server;
    let token_url = server
        .token_endpoint
        .as_deref()
        .and_then(|url| Url::parse(url).ok())
        .ok_or_else(|| AuthorizationError::MissingEndpoint {
            issuer: server.issuer.clone(),
            endpoint: "token_endpoint",
        })?;
    Ok(GrantTarget {
        token_url,
        issuer: Some(server.issuer),
        auth_methods: server.token_endpoint_auth_methods_supported,
        resource: found.resource,
        resource_scopes: found.resource_scopes,
    })
}
