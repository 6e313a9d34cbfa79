//! [`Target`]: where to authorize for an MCP server. Discovery as the current spec has it, held
//! to the issuer the user pinned, if any, and the 2025-03-26 revision's fallback for servers
//! without protected-resource metadata: the server's origin is the authorization server, its
//! metadata at the root well-known path, or else the default endpoints `/authorize`, `/token`
//! and `/register`.

use url::Url;

use super::AuthorizationError;
use super::transport::OAuthHttp;
use crate::key::shown_resource;
use crate::{
    AuthorizationServerMetadata, BearerChallenge, DiscoveryError, discover_authorization_server,
    discover_protected_resource,
};

/// What the flow needs to know about the MCP server and its authorization server.
#[derive(Debug, Clone)]
pub(crate) struct Target {
    /// The RFC 8707 `resource`: the protected-resource metadata's, or else the server's URL.
    pub(crate) resource: String,
    /// The protected-resource metadata's `scopes_supported`.
    pub(crate) resource_scopes: Option<Vec<String>>,
    /// The protected-resource metadata's `dpop_bound_access_tokens_required`.
    pub(crate) dpop_required: bool,
    /// The authorization server: its validated metadata, or the 2025-03-26 default endpoints.
    pub(crate) server: AuthorizationServerMetadata,
    /// Whether `server` is a metadata document the authorization server published (false for
    /// the default endpoints, which say nothing about PKCE or client authentication).
    pub(crate) published: bool,
}

/// Finds the [`Target`] of the MCP server at `server_url`, given the `WWW-Authenticate`
/// challenge of its refusal, every URL checked against `http`'s policy before it is asked.
///
/// The authorization server is the first one the resource lists, or, when the user `pinned`
/// an issuer, that issuer, which the resource must list. Only the absence of
/// protected-resource metadata (every candidate URL answered with a client error) leads to the
/// pinned issuer's metadata, or else to the 2025-03-26 fallback; a document for another
/// resource, or an authorization server whose metadata is wrong, stops here.
///
/// # Errors
///
/// [`AuthorizationError::IssuerContradicted`] when the resource does not list the pinned
/// issuer (nothing is asked of the servers it lists); discovery's errors otherwise.
pub(crate) async fn find(
    http: &OAuthHttp,
    server_url: &Url,
    challenge: Option<&BearerChallenge>,
    pinned: Option<&str>,
) -> Result<Target, AuthorizationError> {
    let policy = http.policy();
    let target = match discover_protected_resource(http, policy, server_url, challenge).await {
        Ok(found) => {
            let resource = found.metadata;
            let issuer = chosen_issuer(&resource.authorization_servers, pinned)?;
            let server = discover_authorization_server(http, policy, issuer)
                .await?
                .metadata;
            Target {
                resource: resource.resource,
                resource_scopes: resource.scopes_supported,
                dpop_required: resource.dpop_bound_access_tokens_required,
                server,
                published: true,
            }
        }
        Err(DiscoveryError::NotFound { .. }) => match pinned {
            Some(pinned) if !same_issuer(pinned, &origin_of(server_url)) => {
                at_pinned(http, server_url, pinned).await?
            }
            _ => at_origin(http, server_url).await?,
        },
        Err(error) => return Err(error.into()),
    };
    tracing::debug!(
        issuer = %target.server.issuer,
        resource = %target.resource,
        published = target.published,
        "authorization discovery done"
    );
    Ok(target)
}

/// Whether two issuer identifiers name the same authorization server: equal once parsed as
/// URLs (scheme and host without regard to case, a default port the same as none, an empty
/// path the same as `/`), or equal as text.
pub(crate) fn same_issuer(one: &str, other: &str) -> bool {
    one == other
        || matches!((Url::parse(one), Url::parse(other)), (Ok(one), Ok(other)) if one == other)
}

/// The issuer of the resource's `listed` authorization servers to use: the first, or the
/// `pinned` one.
fn chosen_issuer<'a>(
    listed: &'a [String],
    pinned: Option<&str>,
) -> Result<&'a str, AuthorizationError> {
    let Some(pinned) = pinned else {
        // `discover_protected_resource` refuses a document that lists no authorization server.
        return Ok(&listed[0]);
    };
    listed
        .iter()
        .find(|issuer| same_issuer(issuer, pinned))
        .map(String::as_str)
        .ok_or_else(|| AuthorizationError::IssuerContradicted {
            pinned: shown_resource(pinned),
            named: listed.iter().map(|issuer| shown_resource(issuer)).collect(),
        })
}

/// The MCP server's origin, as an issuer identifier.
fn origin_of(server_url: &Url) -> String {
    server_url.origin().ascii_serialization()
}

/// The MCP server's URL as the RFC 8707 `resource`, without a fragment.
fn resource_of(server_url: &Url) -> String {
    let mut resource = server_url.clone();
    resource.set_fragment(None);
    resource.into()
}

/// A server without protected-resource metadata, and an issuer the user pinned elsewhere than
/// the server's origin: that issuer's published metadata, with no default endpoints.
async fn at_pinned(
    http: &OAuthHttp,
    server_url: &Url,
    pinned: &str,
) -> Result<Target, DiscoveryError> {
    let server = discover_authorization_server(http, http.policy(), pinned)
        .await?
        .metadata;
    tracing::debug!(issuer = %pinned, "no protected-resource metadata; the pinned issuer authorizes");
    Ok(Target {
        resource: resource_of(server_url),
        resource_scopes: None,
        dpop_required: false,
        server,
        published: true,
    })
}

/// The 2025-03-26 revision: the authorization server is at the MCP server's origin.
async fn at_origin(http: &OAuthHttp, server_url: &Url) -> Result<Target, DiscoveryError> {
    let origin = origin_of(server_url);
    let (server, published) =
        match discover_authorization_server(http, http.policy(), &origin).await {
            Ok(found) => (found.metadata, true),
            Err(DiscoveryError::NotFound { .. }) => (default_endpoints(&origin), false),
            Err(error) => return Err(error),
        };
    tracing::debug!(%origin, "no protected-resource metadata; the server's origin authorizes");
    Ok(Target {
        resource: resource_of(server_url),
        resource_scopes: None,
        dpop_required: false,
        server,
        published,
    })
}

/// The endpoints the 2025-03-26 revision gives a server without metadata.
fn default_endpoints(origin: &str) -> AuthorizationServerMetadata {
    AuthorizationServerMetadata {
        issuer: origin.to_owned(),
        authorization_endpoint: Some(format!("{origin}/authorize")),
        token_endpoint: Some(format!("{origin}/token")),
        registration_endpoint: Some(format!("{origin}/register")),
        scopes_supported: None,
        response_types_supported: None,
        grant_types_supported: None,
        code_challenge_methods_supported: None,
        token_endpoint_auth_methods_supported: None,
        client_id_metadata_document_supported: false,
        dpop_signing_alg_values_supported: None,
        authorization_response_iss_parameter_supported: false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn issuers_are_the_same_up_to_case_default_port_and_an_empty_path() {
        assert!(same_issuer("https://as.example", "https://as.example"));
        assert!(same_issuer("https://AS.example:443", "https://as.example/"));
        assert!(!same_issuer(
            "https://as.example",
            "https://as.example/tenant"
        ));
        assert!(!same_issuer("https://as.example", "http://as.example"));
        assert!(!same_issuer("https://as.example", "https://evil.example"));
    }

    #[test]
    fn the_pinned_issuer_is_chosen_wherever_the_resource_lists_it() {
        let listed = [
            "https://first.example".to_owned(),
            "https://pinned.example".to_owned(),
        ];
        assert_eq!(
            chosen_issuer(&listed, None).unwrap(),
            "https://first.example"
        );
        assert_eq!(
            chosen_issuer(&listed, Some("https://pinned.example/")).unwrap(),
            "https://pinned.example"
        );
        let error = chosen_issuer(&listed, Some("https://other.example")).unwrap_err();
        assert!(
            matches!(error, AuthorizationError::IssuerContradicted { .. }),
            "{error}"
        );
    }
}
