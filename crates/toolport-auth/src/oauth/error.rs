//! [`AuthorizationError`]: which step of the OAuth flow failed, and why, never with a secret.

use toolport_core::BoxError;

use crate::{
    AssertionKeyError, AuthorizationResponseError, DiscoveryError, EndpointRefused, TokenStoreError,
};

/// A step of an OAuth flow (the authorization code, or a grant that needs no user) failed, or
/// the authorizer cannot be built. Messages name the step and the URL (without its query), and
/// the server's `error` and `error_description` when it gave them; never a token, code,
/// verifier, assertion or client secret.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum AuthorizationError {
    /// The builder's settings cannot work (no handler, a server URL that does not parse, a
    /// metadata-document URL that is not `https` with a path).
    #[error("invalid OAuth settings: {problem}")]
    Settings {
        /// What is wrong.
        problem: String,
    },
    /// Discovering the protected resource or its authorization server failed (including a
    /// protected-resource metadata for another resource).
    #[error("authorization discovery failed: {0}")]
    Discovery(#[source] DiscoveryError),
    /// The authorization server's metadata does not list `S256` in
    /// `code_challenge_methods_supported`: MCP requires PKCE with S256, so the flow stops.
    #[error("the authorization server {issuer} does not support PKCE with S256")]
    PkceUnsupported {
        /// The issuer.
        issuer: String,
    },
    /// An endpoint the authorization server's metadata names (authorization, token,
    /// registration) or a stored refresh binding's token endpoint was refused by the
    /// authorizer's [`EndpointPolicy`](crate::EndpointPolicy); nothing was sent to it.
    #[error(transparent)]
    EndpointRefused(#[from] EndpointRefused),
    /// The authorizer is pinned to an issuer that the MCP server's protected-resource metadata
    /// does not list: nothing was asked of the authorization servers it lists.
    #[error(
        "the authorization server is pinned to {pinned}, but the MCP server names {}: nothing \
         was sent there",
        named.join(", ")
    )]
    IssuerContradicted {
        /// The pinned issuer.
        pinned: String,
        /// The issuers the resource lists.
        named: Vec<String>,
    },
    /// A client whose credential (a secret, a private key, an assertion) goes only to the
    /// authorization server the user pinned, and none is pinned: nothing but metadata was asked
    /// of the one the MCP server names.
    #[error(
        "the client `{client_id}` has a credential that goes only to an authorization server \
         you pin, and none is pinned; the MCP server names {named}, and the credential was not \
         sent there. If {named} issued the client, pin it: `--issuer {named}` for the toolport \
         command, `issuer` on the authorizer's builder"
    )]
    CredentialNotPinned {
        /// The client's ID.
        client_id: String,
        /// The issuer the MCP server names (or whose stored binding would have been used).
        named: String,
    },
    /// The tokens kept for the server came from another authorization server than the one in
    /// use now (the server names another one, or the pinned issuer changed). They are left as
    /// they are, and nothing but metadata was asked of the new one.
    #[error(
        "the tokens kept for this server were issued by {stored}, but the authorization server \
         is now {current}: nothing was sent to {current}. If the server really moved, remove \
         its tokens from the token store (for the toolport command, from its token file) and \
         authorize again"
    )]
    IssuerChanged {
        /// The issuer of the stored tokens.
        stored: String,
        /// The issuer in use now.
        current: String,
    },
    /// The authorization server's metadata lacks an endpoint the flow needs.
    #[error("the authorization server {issuer} has no {endpoint}")]
    MissingEndpoint {
        /// The issuer.
        issuer: String,
        /// The metadata field, such as `token_endpoint`.
        endpoint: &'static str,
    },
    /// No way to get a client ID: nothing pre-registered, no metadata-document URL the server
    /// accepts, and no registration endpoint.
    #[error(
        "no client identity for the authorization server {issuer}: configure a pre-registered \
         client, or a client metadata document URL if the server supports them"
    )]
    NoClientIdentity {
        /// The issuer.
        issuer: String,
    },
    /// Dynamic client registration (RFC 7591) failed.
    #[error("client registration at {url} failed: {problem}")]
    Registration {
        /// The registration endpoint, without its query.
        url: String,
        /// Why: the server's `error` and `error_description`, a status, or a transport error.
        problem: String,
    },
    /// The [`AuthorizationHandler`](crate::AuthorizationHandler) failed.
    #[error("the authorization handler failed: {0}")]
    Handler(#[source] BoxError),
    /// The answer at the redirect URI was refused (issuer, `state`, or an error from the
    /// server).
    #[error("the authorization response was refused: {0}")]
    Response(#[source] AuthorizationResponseError),
    /// The token endpoint answered with an OAuth error.
    #[error(
        "the token endpoint {url} refused: {error}{}",
        description.as_deref().map(|d| format!(" ({d})")).unwrap_or_default()
    )]
    TokenRefused {
        /// The token endpoint, without its query.
        url: String,
        /// The server's `error`, such as `invalid_grant`.
        error: String,
        /// The server's `error_description`.
        description: Option<String>,
    },
    /// The token request failed otherwise: not sent, no answer in time, or an answer that is
    /// not a token response.
    #[error("the token request to {url} failed: {problem}")]
    TokenRequest {
        /// The token endpoint, without its query.
        url: String,
        /// Why, without quoting the answer.
        problem: String,
    },
    /// The tokens could not be loaded or saved.
    #[error("the token store failed: {0}")]
    Store(#[source] TokenStoreError),
    /// The client assertion (`private_key_jwt`) could not be made.
    #[error("the client assertion failed: {0}")]
    ClientAssertion(#[source] AssertionKeyError),
    /// The JWT a grant presents (a workload's JWT, or the ID token taken to the identity
    /// provider) could not be read from its source.
    #[error("could not read the JWT to present: {0}")]
    AssertionSource(#[source] BoxError),
}

impl From<DiscoveryError> for AuthorizationError {
    fn from(error: DiscoveryError) -> Self {
        Self::Discovery(error)
    }
}

impl From<TokenStoreError> for AuthorizationError {
    fn from(error: TokenStoreError) -> Self {
        Self::Store(error)
    }
}

impl From<AuthorizationResponseError> for AuthorizationError {
    fn from(error: AuthorizationResponseError) -> Self {
        Self::Response(error)
    }
}
