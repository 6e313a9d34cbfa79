//! Authorization-server metadata (RFC 8414, and OpenID Connect Discovery 1.0): where to look for
//! it, the document, and the issuer check.

use serde::Deserialize;
use toolport_http_client::toolkit::redacted_url;
use url::Url;

use super::probe::{at_path, first_document, is_web_url};
use super::{Discovered, DiscoveryError, MetadataFetcher};
use crate::EndpointPolicy;
use crate::key::shown_resource;

/// RFC 8414's well-known suffix.
const OAUTH: &str = "/.well-known/oauth-authorization-server";
/// OpenID Connect Discovery's well-known suffix.
const OPENID: &str = "/.well-known/openid-configuration";

/// An authorization server's metadata: the fields the MCP authorization flow reads. Others are
/// ignored. A list left out is `None`, and RFC 8414 §2 gives its default (for example
/// `client_secret_basic` for `token_endpoint_auth_methods_supported`).
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[non_exhaustive]
pub struct AuthorizationServerMetadata {
    /// The issuer identifier; discovery checks it is the one the metadata was fetched for.
    pub issuer: String,
    /// Where the user is sent to authorize.
    #[serde(default)]
    pub authorization_endpoint: Option<String>,
    /// Where codes, refresh tokens and client credentials are exchanged for tokens.
    #[serde(default)]
    pub token_endpoint: Option<String>,
    /// Where clients register dynamically (RFC 7591), when the server allows it.
    #[serde(default)]
    pub registration_endpoint: Option<String>,
    /// The scopes the server knows.
    #[serde(default)]
    pub scopes_supported: Option<Vec<String>>,
    /// The `response_type` values it supports (`code`).
    #[serde(default)]
    pub response_types_supported: Option<Vec<String>>,
    /// The grant types it supports (`authorization_code`, `refresh_token`, ...).
    #[serde(default)]
    pub grant_types_supported: Option<Vec<String>>,
    /// The PKCE methods it supports; MCP requires `S256`.
    #[serde(default)]
    pub code_challenge_methods_supported: Option<Vec<String>>,
    /// How clients authenticate at the token endpoint (`client_secret_basic`,
    /// `client_secret_post`, `private_key_jwt`, `none`).
    #[serde(default)]
    pub token_endpoint_auth_methods_supported: Option<Vec<String>>,
    /// Whether it accepts a URL as `client_id`, pointing at a client ID metadata document.
    #[serde(default)]
    pub client_id_metadata_document_supported: bool,
    /// The JWS algorithms it accepts in DPoP proofs (RFC 9449).
    #[serde(default)]
    pub dpop_signing_alg_values_supported: Option<Vec<String>>,
    /// Whether its authorization responses carry `iss` (RFC 9207).
    #[serde(default)]
    pub authorization_response_iss_parameter_supported: bool,
}

/// Where to look for the metadata of the authorization server whose issuer identifier is
/// `issuer`, in the order MCP's authorization spec gives. One terminating `/` of the issuer's
/// path is left out first (RFC 8414 §3.1, OpenID Connect Discovery §4).
///
/// With a path (`https://auth.example.com/tenant1`):
/// 1. `https://auth.example.com/.well-known/oauth-authorization-server/tenant1`
/// 2. `https://auth.example.com/.well-known/openid-configuration/tenant1`
/// 3. `https://auth.example.com/tenant1/.well-known/openid-configuration`
///
/// Without (`https://auth.example.com`):
/// 1. `https://auth.example.com/.well-known/oauth-authorization-server`
/// 2. `https://auth.example.com/.well-known/openid-configuration`
///
/// # Errors
///
/// [`DiscoveryError::InvalidUrl`] when `issuer` is not an `http` or `https` URL with a host,
/// or has a query, a fragment or user info, which an issuer identifier never has (RFC 8414
/// §2).
///
/// # Examples
///
/// ```
/// use toolport_auth::authorization_server_metadata_urls;
///
/// let urls: Vec<String> = authorization_server_metadata_urls("https://auth.example.com")
///     .unwrap()
///     .iter()
///     .map(|url| url.to_string())
///     .collect();
/// assert_eq!(
///     urls,
///     [
///         "https://auth.example.com/.well-known/oauth-authorization-server",
///         "https://auth.example.com/.well-known/openid-configuration",
///     ]
/// );
/// ```
pub fn authorization_server_metadata_urls(issuer: &str) -> Result<Vec<Url>, DiscoveryError> {
    let invalid = |problem| DiscoveryError::InvalidUrl {
        url: shown_resource(issuer),
        problem,
    };
    let url = Url::parse(issuer)
        .map_err(|_| invalid("the authorization server's issuer is not a URL"))?;
    if !is_web_url(&url) {
        return Err(invalid(
            "the authorization server's issuer is not an http or https URL with a host",
        ));
    }
    if url.query().is_some() || url.fragment().is_some() {
        return Err(invalid(
            "the authorization server's issuer has a query or a fragment",
        ));
    }
    if !url.username().is_empty() || url.password().is_some() {
        return Err(invalid("the authorization server's issuer has user info"));
    }
    let path = url.path().strip_suffix('/').unwrap_or(url.path());
    Ok(if path.is_empty() {
        vec![at_path(&url, OAUTH), at_path(&url, OPENID)]
    } else {
        vec![
            at_path(&url, &format!("{OAUTH}{path}")),
            at_path(&url, &format!("{OPENID}{path}")),
            at_path(&url, &format!("{path}{OPENID}")),
        ]
    })
}

/// Finds the metadata of the authorization server `issuer` (an entry of the protected
/// resource's `authorization_servers`): tries the [`authorization_server_metadata_urls`] in
/// order (a client error such as 404 moves on to the next), each only if `policy` allows it,
/// and checks that the document's `issuer` is identical to `issuer`, character for character
/// (RFC 8414 §3.3).
///
/// # Errors
///
/// [`DiscoveryError::Refused`] for an issuer `policy` refuses (plain `http` for an `https`
/// MCP server, a private address), before anything is requested;
/// [`DiscoveryError::IssuerMismatch`] for a document naming another issuer (discovery stops
/// there: such a document must not be used); [`NotFound`](DiscoveryError::NotFound) when
/// every URL answered with a client error; the others when the issuer is unusable, a request
/// fails, or an answer is not a metadata document.
pub async fn discover_authorization_server(
    fetcher: &dyn MetadataFetcher,
    policy: &EndpointPolicy,
    issuer: &str,
) -> Result<Discovered<AuthorizationServerMetadata>, DiscoveryError> {
    let candidates = authorization_server_metadata_urls(issuer)?;
    let (url, metadata): (Url, AuthorizationServerMetadata) =
        first_document(fetcher, policy, &candidates).await?;
    check_issuer(&url, &metadata, issuer)?;
    Ok(Discovered { url, metadata })
}

/// RFC 8414 §3.3: the document's `issuer` must be the issuer its URL was built from.
fn check_issuer(
    url: &Url,
    metadata: &AuthorizationServerMetadata,
    issuer: &str,
) -> Result<(), DiscoveryError> {
    if metadata.issuer == issuer {
        return Ok(());
    }
    Err(DiscoveryError::IssuerMismatch {
        url: redacted_url(url),
        expected: shown_resource(issuer),
        found: shown_resource(&metadata.issuer),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn urls(issuer: &str) -> Vec<String> {
        authorization_server_metadata_urls(issuer)
            .unwrap()
            .iter()
            .map(Url::to_string)
            .collect()
    }

    #[test]
    fn an_issuer_with_a_path_tries_the_three_variants_in_the_spec_order() {
        let expected = [
            "https://auth.example.com/.well-known/oauth-authorization-server/tenant1",
            "https://auth.example.com/.well-known/openid-configuration/tenant1",
            "https://auth.example.com/tenant1/.well-known/openid-configuration",
        ];
        assert_eq!(urls("https://auth.example.com/tenant1"), expected);
        assert_eq!(urls("https://auth.example.com/tenant1/"), expected);
        assert_eq!(
            urls("http://127.0.0.1:9000/a/b"),
            [
                "http://127.0.0.1:9000/.well-known/oauth-authorization-server/a/b",
                "http://127.0.0.1:9000/.well-known/openid-configuration/a/b",
                "http://127.0.0.1:9000/a/b/.well-known/openid-configuration",
            ]
        );
    }

    #[test]
    fn an_issuer_without_a_path_tries_oauth_then_openid() {
        let expected = [
            "https://auth.example.com/.well-known/oauth-authorization-server",
            "https://auth.example.com/.well-known/openid-configuration",
        ];
        assert_eq!(urls("https://auth.example.com"), expected);
        assert_eq!(urls("https://auth.example.com/"), expected);
    }

    #[test]
    fn an_issuer_with_a_query_fragment_or_user_info_is_refused() {
        for issuer in [
            "https://auth.example.com?x=secret",
            "https://auth.example.com/#f",
            "https://u:secret@auth.example.com",
            "auth.example.com",
            "mailto:a@example.com",
        ] {
            let error = authorization_server_metadata_urls(issuer).unwrap_err();
            assert!(
                matches!(error, DiscoveryError::InvalidUrl { .. }),
                "{error}"
            );
            assert!(!error.to_string().contains("secret"), "{error}");
        }
    }

    fn metadata(issuer: &str) -> AuthorizationServerMetadata {
        serde_json::from_value(serde_json::json!({ "issuer": issuer })).unwrap()
    }

    #[test]
    fn the_issuer_must_be_identical() {
        let url = Url::parse("https://as.example/.well-known/oauth-authorization-server").unwrap();
        let issuer = "https://as.example";
        assert!(check_issuer(&url, &metadata("https://as.example"), issuer).is_ok());
        for other in [
            "https://as.example/",
            "https://AS.example",
            "https://honest.example",
            "http://as.example",
        ] {
            let error = check_issuer(&url, &metadata(other), issuer).unwrap_err();
            assert!(
                matches!(error, DiscoveryError::IssuerMismatch { .. }),
                "{other}"
            );
        }
    }

    #[test]
    fn the_document_keeps_the_fields_the_flow_reads_and_ignores_the_rest() {
        let document: AuthorizationServerMetadata = serde_json::from_value(serde_json::json!({
            "issuer": "https://as.example",
            "authorization_endpoint": "https://as.example/authorize",
            "token_endpoint": "https://as.example/token",
            "registration_endpoint": "https://as.example/register",
            "scopes_supported": ["openid", "offline_access"],
            "response_types_supported": ["code"],
            "grant_types_supported": ["authorization_code", "refresh_token"],
            "code_challenge_methods_supported": ["S256"],
            "token_endpoint_auth_methods_supported": ["none", "client_secret_basic"],
            "client_id_metadata_document_supported": true,
            "dpop_signing_alg_values_supported": ["ES256"],
            "authorization_response_iss_parameter_supported": true,
            "jwks_uri": "https://as.example/jwks",
            "something_new": {"nested": [1, 2]}
        }))
        .unwrap();
        assert_eq!(
            document.token_endpoint.as_deref(),
            Some("https://as.example/token")
        );
        assert_eq!(
            document.code_challenge_methods_supported,
            Some(vec!["S256".to_owned()])
        );
        assert!(document.client_id_metadata_document_supported);
        assert!(document.authorization_response_iss_parameter_supported);
        let bare = metadata("https://as.example");
        assert_eq!(bare.scopes_supported, None);
        assert!(!bare.client_id_metadata_document_supported);
    }
}
