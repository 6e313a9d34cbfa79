//! Protected-resource metadata (RFC 9728): where to look for it, the document, and whether its
//! `resource` is the MCP server's.

use serde::Deserialize;
use toolport_http_client::toolkit::redacted_url;
use url::Url;

use super::probe::{at_path, first_document, is_web_url};
use super::{Discovered, DiscoveryError, MetadataFetcher};
use crate::key::shown_resource;
use crate::{BearerChallenge, EndpointPolicy};

/// The well-known path of protected-resource metadata (RFC 9728 §3).
const WELL_KNOWN: &str = "/.well-known/oauth-protected-resource";

/// An MCP server's protected-resource metadata (RFC 9728 §2): above all, which authorization
/// servers issue its tokens. Fields this crate does not use are ignored.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[non_exhaustive]
pub struct ProtectedResourceMetadata {
    /// The resource identifier, exactly as the document gives it: send this as the `resource`
    /// parameter (RFC 8707), unchanged (no `/` added).
    pub resource: String,
    /// The issuers of the authorization servers that can issue tokens for it, in the server's
    /// order. Discovery refuses a document with none.
    #[serde(default)]
    pub authorization_servers: Vec<String>,
    /// The scopes the server uses; `None` when the document leaves the field out, in which
    /// case an authorization request has no `scope` parameter.
    #[serde(default)]
    pub scopes_supported: Option<Vec<String>>,
    /// How the server accepts bearer tokens (`header`, `body`, `query`).
    #[serde(default)]
    pub bearer_methods_supported: Option<Vec<String>>,
    /// A name for the resource, for people.
    #[serde(default)]
    pub resource_name: Option<String>,
    /// The JWS algorithms the server accepts in DPoP proofs (RFC 9449).
    #[serde(default)]
    pub dpop_signing_alg_values_supported: Option<Vec<String>>,
    /// Whether the server accepts only DPoP-bound access tokens.
    #[serde(default)]
    pub dpop_bound_access_tokens_required: bool,
}

/// Where to look for the protected-resource metadata of the MCP server at `server_url`, in the
/// order MCP's authorization spec gives:
///
/// - the `resource_metadata` URL of the server's `WWW-Authenticate` challenge, alone, when it
///   has one;
/// - otherwise the well-known URI with the server's path inserted (RFC 9728 §3.1: between the
///   host and the path, the query kept; `https://h/public/mcp` gives
///   `https://h/.well-known/oauth-protected-resource/public/mcp`, and a path that ends in `/`
///   keeps it), then the one at the root (`https://h/.well-known/oauth-protected-resource`).
///   A server at the root (path empty or `/`, no query) has the root alone.
///
/// # Errors
///
/// [`DiscoveryError::InvalidUrl`] when the server URL or the challenge's URL is not an `http`
/// or `https` URL with a host.
///
/// # Examples
///
/// ```
/// use toolport_auth::resource_metadata_urls;
/// use url::Url;
///
/// let server = Url::parse("https://example.com/public/mcp").unwrap();
/// let urls: Vec<String> = resource_metadata_urls(&server, None)
///     .unwrap()
///     .iter()
///     .map(|url| url.to_string())
///     .collect();
/// assert_eq!(
///     urls,
///     [
///         "https://example.com/.well-known/oauth-protected-resource/public/mcp",
///         "https://example.com/.well-known/oauth-protected-resource",
///     ]
/// );
/// ```
pub fn resource_metadata_urls(
    server_url: &Url,
    challenge: Option<&BearerChallenge>,
) -> Result<Vec<Url>, DiscoveryError> {
    if !is_web_url(server_url) {
        return Err(DiscoveryError::InvalidUrl {
            url: redacted_url(server_url),
            problem: "the MCP server's URL is not an http or https URL with a host",
        });
    }
    if let Some(raw) = challenge.and_then(BearerChallenge::resource_metadata) {
        let invalid = || DiscoveryError::InvalidUrl {
            url: shown_resource(raw),
            problem: "the resource_metadata URL of the server's challenge is not an http or \
                      https URL with a host",
        };
        let mut url = Url::parse(raw).map_err(|_| invalid())?;
        if !is_web_url(&url) {
            return Err(invalid());
        }
        url.set_fragment(None);
        // Never sent: credentials in a URL would go to every hop and into logs.
        let _ = url.set_username("");
        let _ = url.set_password(None);
        return Ok(vec![url]);
    }
    let path = match server_url.path() {
        "/" => "",
        path => path,
    };
    let mut inserted = at_path(server_url, &format!("{WELL_KNOWN}{path}"));
    inserted.set_query(server_url.query());
    let root = at_path(server_url, WELL_KNOWN);
    Ok(if inserted == root {
        vec![root]
    } else {
        vec![inserted, root]
    })
}

/// Whether the protected-resource metadata's `resource` names the MCP server at `server_url`,
/// so that its tokens may be requested for it (RFC 9728 §3.3 and §7.3, RFC 8707).
///
/// RFC 9728 asks for the identical URL; MCP servers also publish one document at the root for
/// every endpoint below it, so this accepts a resource that contains the server:
///
/// - `resource` is an absolute `http` or `https` URL without a fragment;
/// - scheme, host and port are the same (scheme and host without regard to case, a default
///   port the same as none);
/// - the resource's path, without one terminating `/`, is empty, the same as the server's
///   (also without one), or a whole-segment prefix of it: `https://h/api` covers
///   `https://h/api/mcp` but not `https://h/apimcp`; paths compare case-sensitively;
/// - a resource with a query names that query exactly.
///
/// # Examples
///
/// ```
/// use toolport_auth::resource_matches;
/// use url::Url;
///
/// let server = Url::parse("https://mcp.example.com/mcp").unwrap();
/// assert!(resource_matches("https://mcp.example.com/mcp", &server));
/// assert!(resource_matches("https://MCP.example.com:443", &server));
/// assert!(!resource_matches("https://evil.example.com/mcp", &server));
/// assert!(!resource_matches("https://mcp.example.com/other", &server));
/// ```
pub fn resource_matches(resource: &str, server_url: &Url) -> bool {
    let Ok(resource) = Url::parse(resource) else {
        return false;
    };
    if !is_web_url(&resource) || resource.fragment().is_some() {
        return false;
    }
    // The url crate lower-cases scheme and host, and leaves out a default port.
    if resource.scheme() != server_url.scheme()
        || resource.host() != server_url.host()
        || resource.port_or_known_default() != server_url.port_or_known_default()
    {
        return false;
    }
    if resource.query().is_some() && resource.query() != server_url.query() {
        return false;
    }
    let trim = |path: &str| path.strip_suffix('/').unwrap_or(path).to_owned();
    let (covering, covered) = (trim(resource.path()), trim(server_url.path()));
    covering.is_empty()
        || covering == covered
        || covered
            .strip_prefix(&covering)
            .is_some_and(|rest| rest.starts_with('/'))
}

/// Finds the protected-resource metadata of the MCP server at `server_url`: tries the
/// [`resource_metadata_urls`] in order (a client error such as 404 moves on to the next),
/// each only if `policy` allows it, and checks that the document's `resource`
/// [matches](resource_matches) the server and that it lists an authorization server.
///
/// # Errors
///
/// [`DiscoveryError::Refused`] for a URL `policy` refuses (the challenge's
/// `resource_metadata` on another host, say), before it is requested;
/// [`DiscoveryError::NotFound`] when every URL answered with a client error;
/// [`ResourceMismatch`](DiscoveryError::ResourceMismatch) and
/// [`NoAuthorizationServer`](DiscoveryError::NoAuthorizationServer) for a document that must
/// not be used (discovery stops there rather than trying the next URL); the others when a URL
/// is unusable, a request fails, or an answer is not a metadata document.
pub async fn discover_protected_resource(
    fetcher: &dyn MetadataFetcher,
    policy: &EndpointPolicy,
    server_url: &Url,
    challenge: Option<&BearerChallenge>,
) -> Result<Discovered<ProtectedResourceMetadata>, DiscoveryError> {
    let candidates = resource_metadata_urls(server_url, challenge)?;
    let (url, metadata): (Url, ProtectedResourceMetadata) =
        first_document(fetcher, policy, &candidates).await?;
    if !resource_matches(&metadata.resource, server_url) {
        return Err(DiscoveryError::ResourceMismatch {
            url: redacted_url(&url),
            resource: shown_resource(&metadata.resource),
            server: redacted_url(server_url),
        });
    }
    if metadata.authorization_servers.is_empty() {
        return Err(DiscoveryError::NoAuthorizationServer {
            url: redacted_url(&url),
        });
    }
    Ok(Discovered { url, metadata })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn urls(server: &str, challenge: Option<&str>) -> Vec<String> {
        let challenge = challenge.map(|header| BearerChallenge::parse(header).unwrap());
        resource_metadata_urls(&Url::parse(server).unwrap(), challenge.as_ref())
            .unwrap()
            .iter()
            .map(Url::to_string)
            .collect()
    }

    #[test]
    fn a_server_with_a_path_tries_the_path_variant_then_the_root() {
        assert_eq!(
            urls("https://example.com/public/mcp", None),
            [
                "https://example.com/.well-known/oauth-protected-resource/public/mcp",
                "https://example.com/.well-known/oauth-protected-resource",
            ]
        );
    }

    #[test]
    fn a_server_at_the_root_tries_the_root_alone() {
        for server in ["https://example.com", "https://example.com/"] {
            assert_eq!(
                urls(server, None),
                ["https://example.com/.well-known/oauth-protected-resource"]
            );
        }
    }

    #[test]
    fn a_trailing_slash_is_kept_in_the_path_variant() {
        assert_eq!(
            urls("http://127.0.0.1:8080/mcp/", None),
            [
                "http://127.0.0.1:8080/.well-known/oauth-protected-resource/mcp/",
                "http://127.0.0.1:8080/.well-known/oauth-protected-resource",
            ]
        );
    }

    #[test]
    fn the_query_goes_into_the_path_variant_only_and_the_fragment_nowhere() {
        assert_eq!(
            urls("https://example.com/mcp?tenant=a#top", None),
            [
                "https://example.com/.well-known/oauth-protected-resource/mcp?tenant=a",
                "https://example.com/.well-known/oauth-protected-resource",
            ]
        );
        assert_eq!(
            urls("https://example.com/?tenant=a", None),
            [
                "https://example.com/.well-known/oauth-protected-resource?tenant=a",
                "https://example.com/.well-known/oauth-protected-resource",
            ]
        );
    }

    #[test]
    fn the_challenge_url_is_used_alone() {
        assert_eq!(
            urls(
                "https://example.com/mcp",
                Some(r#"Bearer resource_metadata="https://u:p@meta.example.com/custom.json#x""#)
            ),
            ["https://meta.example.com/custom.json"]
        );
        // A challenge without the parameter falls back to the well-known URIs.
        assert_eq!(
            urls("https://example.com/mcp", Some(r#"Bearer scope="a""#)).len(),
            2
        );
    }

    #[test]
    fn unusable_urls_are_refused_without_their_secrets() {
        let server = Url::parse("https://example.com/mcp").unwrap();
        let challenge = BearerChallenge::parse(r#"Bearer resource_metadata="file:///etc/x?k=s""#);
        let error = resource_metadata_urls(&server, challenge.as_ref()).unwrap_err();
        assert!(
            matches!(error, DiscoveryError::InvalidUrl { .. }),
            "{error}"
        );
        assert!(!error.to_string().contains("k=s"), "{error}");
        let error = resource_metadata_urls(&Url::parse("ftp://h/x").unwrap(), None).unwrap_err();
        assert!(
            matches!(error, DiscoveryError::InvalidUrl { .. }),
            "{error}"
        );
    }

    fn matches(resource: &str, server: &str) -> bool {
        resource_matches(resource, &Url::parse(server).unwrap())
    }

    #[test]
    fn the_same_url_matches_up_to_case_default_port_and_a_trailing_slash() {
        let server = "https://mcp.example.com/mcp";
        assert!(matches("https://mcp.example.com/mcp", server));
        assert!(matches("HTTPS://MCP.Example.COM/mcp", server));
        assert!(matches("https://mcp.example.com:443/mcp", server));
        assert!(matches("https://mcp.example.com/mcp/", server));
        assert!(matches(
            "https://mcp.example.com/mcp",
            "https://mcp.example.com/mcp/"
        ));
    }

    #[test]
    fn a_resource_above_the_server_covers_it_by_whole_segments() {
        let server = "https://mcp.example.com/api/v1/mcp";
        assert!(matches("https://mcp.example.com", server));
        assert!(matches("https://mcp.example.com/", server));
        assert!(matches("https://mcp.example.com/api", server));
        assert!(matches("https://mcp.example.com/api/v1/", server));
        assert!(!matches("https://mcp.example.com/ap", server));
        assert!(!matches("https://mcp.example.com/api/v1/mcp/more", server));
    }

    #[test]
    fn another_origin_or_path_does_not_match() {
        let server = "http://localhost:3000/mcp";
        assert!(matches("http://localhost:3000", server));
        assert!(!matches("https://evil.example.com/mcp", server));
        assert!(!matches("https://localhost:3000/mcp", server));
        assert!(!matches("http://localhost:3001/mcp", server));
        assert!(!matches("http://127.0.0.1:3000/mcp", server));
        assert!(!matches("http://localhost:3000/MCP", server));
        assert!(!matches("http://localhost:3000/other", server));
    }

    #[test]
    fn malformed_resources_and_fragments_and_other_queries_do_not_match() {
        let server = "https://h.example/mcp?tenant=a";
        assert!(!matches("h.example/mcp", server));
        assert!(!matches("", server));
        assert!(!matches("urn:example:mcp", server));
        assert!(!matches("https://h.example/mcp#frag", server));
        assert!(!matches("https://h.example/mcp?tenant=b", server));
        assert!(matches("https://h.example/mcp?tenant=a", server));
        assert!(matches("https://h.example/mcp", server));
    }
}
