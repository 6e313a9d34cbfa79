//! [`DpopMode`]: when the OAuth client asks for DPoP-bound tokens.

use crate::AuthorizationServerMetadata;

/// The one proof algorithm the client signs with.
pub(super) const ES256: &str = "ES256";

/// When an [`OAuthAuthorizer`](crate::OAuthAuthorizer) asks for DPoP-bound access tokens
/// (RFC 9449): it then sends a proof with each token request, and presents the token as
/// `Authorization: DPoP <token>` with a fresh proof on each request. Proofs are signed with
/// ES256, by a key made in memory for the authorizer.
///
/// Whatever the mode, the token type the authorization server answers decides how the token
/// is presented: a server that ignores the proof and answers `Bearer` gets a Bearer token
/// back.
///
/// # Examples
///
/// ```
/// use toolport_auth::{DpopMode, HeadlessAuthorization, OAuthAuthorizer};
/// use url::Url;
///
/// let handler = HeadlessAuthorization::new(Url::parse("http://127.0.0.1:8765/callback").unwrap());
/// let authorizer = OAuthAuthorizer::builder("https://mcp.example.com/mcp")
///     .handler(handler)
///     .dpop(DpopMode::Never)
///     .build()
///     .unwrap();
/// assert!(format!("{authorizer:?}").contains("mode: Never"));
/// assert_eq!(DpopMode::default(), DpopMode::Auto);
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum DpopMode {
    /// DPoP when the authorization server lists `ES256` in its
    /// `dpop_signing_alg_values_supported`, or the protected resource's metadata says
    /// `dpop_bound_access_tokens_required`; Bearer otherwise. The default.
    #[default]
    Auto,
    /// DPoP with every authorization server, advertised or not.
    Always,
    /// Never DPoP: no proof is sent, and a `DPoP` token type in an answer is refused.
    Never,
}

impl DpopMode {
    /// Whether to ask `server` for DPoP-bound tokens, for a resource that requires them or
    /// not.
    pub(crate) fn wanted(
        self,
        server: &AuthorizationServerMetadata,
        resource_requires: bool,
    ) -> bool {
        match self {
            Self::Always => true,
            Self::Never => false,
            Self::Auto => {
                resource_requires
                    || server
                        .dpop_signing_alg_values_supported
                        .as_deref()
                        .unwrap_or_default()
                        .iter()
                        .any(|algorithm| algorithm == ES256)
            }
        }
    }
}
