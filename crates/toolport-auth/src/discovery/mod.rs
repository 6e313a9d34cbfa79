//! Authorization discovery: from an MCP server's URL (and its `WWW-Authenticate` challenge) to
//! its protected-resource metadata (RFC 9728) and its authorization server's metadata (RFC 8414
//! or OpenID Connect Discovery).

mod error;
mod fetch;
mod probe;
mod resource;
mod server;

use url::Url;

pub use error::DiscoveryError;
pub use fetch::{HttpMetadataFetcher, MetadataFetcher, MetadataResponse};
pub use resource::{
    ProtectedResourceMetadata, discover_protected_resource, resource_matches,
    resource_metadata_urls,
};
pub use server::{
    AuthorizationServerMetadata, authorization_server_metadata_urls, discover_authorization_server,
};

use crate::{BearerChallenge, EndpointPolicy};

/// A metadata document and the URL it was found at.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Discovered<T> {
    /// Where the document was found.
    pub url: Url,
    /// The document, checked.
    pub metadata: T,
}

/// What [`discover`] found: the protected resource's metadata and that of the authorization
/// server it lists first.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Discovery {
    /// The MCP server's protected-resource metadata.
    pub resource: Discovered<ProtectedResourceMetadata>,
    /// The metadata of the first of its `authorization_servers`.
    pub authorization_server: Discovered<AuthorizationServerMetadata>,
}

/// Both discovery steps for the MCP server at `server_url`:
/// [`discover_protected_resource`], then [`discover_authorization_server`] for the first
/// issuer the resource lists (RFC 9728 §7.6 leaves the choice to the client; the first is the
/// server's own preference). Every URL is requested only if `policy` allows it; make it with
/// [`EndpointPolicy::for_resource`] for the same server.
///
/// # Errors
///
/// As the two steps.
///
/// # Examples
///
/// ```no_run
/// use std::time::Duration;
/// use toolport_auth::{BearerChallenge, EndpointPolicy, HttpMetadataFetcher, discover};
/// use toolport_http_client::HttpClient;
/// use url::Url;
///
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
/// let fetcher = HttpMetadataFetcher::new(HttpClient::for_scheme(true, Duration::from_secs(5))?);
/// let server = Url::parse("https://mcp.example.com/mcp")?;
/// // The `WWW-Authenticate` header of the server's 401, if it sent one.
/// let challenge = BearerChallenge::parse(r#"Bearer scope="files:read""#);
///
/// let policy = EndpointPolicy::for_resource(&server);
/// let found = discover(&fetcher, &policy, &server, challenge.as_ref()).await?;
/// println!("token endpoint: {:?}", found.authorization_server.metadata.token_endpoint);
/// # Ok(())
/// # }
/// ```
pub async fn discover(
    fetcher: &dyn MetadataFetcher,
    policy: &EndpointPolicy,
    server_url: &Url,
    challenge: Option<&BearerChallenge>,
) -> Result<Discovery, DiscoveryError> {
    let resource = discover_protected_resource(fetcher, policy, server_url, challenge).await?;
    // `discover_protected_resource` refuses a document that lists no authorization server.
    let issuer = resource.metadata.authorization_servers[0].clone();
    let authorization_server = discover_authorization_server(fetcher, policy, &issuer).await?;
    Ok(Discovery {
        resource,
        authorization_server,
    })
}
