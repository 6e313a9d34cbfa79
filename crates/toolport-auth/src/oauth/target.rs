//! [`Target`]: where to authorize for an MCP server. Discovery as the current spec has it, and
//! the 2025-03-26 revision's fallback for servers without protected-resource metadata: the
//! server's origin is the authorization server, its metadata at the root well-known path, or
//! else the default endpoints `/authorize`, `/token` and `/register`.

use url::Url;

use super::transport::OAuthHttp;
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
/// challenge of its refusal, every URL checked against `http`'s policy before it is asked. Only the absence of protected-resource metadata (every candidate
/// URL answered with a client error) leads to the 2025-03-26 fallback; a document for another
/// resource, or an authorization server whose metadata is wrong, stops here.
pub(crate) async fn find(
    http: &OAuthHttp,
    server_url: &Url,
    challenge: Option<&BearerChallenge>,
) -> Result<Target, DiscoveryError> {
    let policy = http.policy();
    let target = match discover_protected_resource(http, policy, server_url, challenge).await {
        Ok(found) => {
            let resource = found.metadata;
            // `discover_protected_resource` refuses a document that lists no authorization server.
            let issuer = &resource.authorization_servers[0];
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
        Err(DiscoveryError::NotFound { .. }) => at_origin(http, server_url).await?,
        Err(error) => return Err(error),
    };
    tracing::debug!(
        issuer = %target.server.issuer,
        resource = %target.resource,
        published = target.published,
        "authorization discovery done"
    );
    Ok(target)
}

/// The 2025-03-26 revision: the authorization server is at the MCP server's origin.
async fn at_origin(http: &OAuthHttp, server_url: &Url) -> Result<Target, DiscoveryError> {
    let origin = server_url.origin().ascii_serialization();
    let mut resource = server_url.clone();
    resource.set_fragment(None);
    let (server, published) =
        match discover_authorization_server(http, http.policy(), &origin).await {
            Ok(found) => (found.metadata, true),
            Err(DiscoveryError::NotFound { .. }) => (default_endpoints(&origin), false),
            Err(error) => return Err(error),
        };
    tracing::debug!(%origin, "no protected-resource metadata; the server's origin authorizes");
    Ok(Target {
        resource: resource.into(),
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
