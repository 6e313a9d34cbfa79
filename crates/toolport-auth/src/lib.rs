//! MCP authorization (OAuth 2.1) for Toolport's HTTP transports.
//!
//! When it is complete, this crate will hold the whole client side of the MCP authorization
//! flow: protected-resource and authorization-server discovery, client identity (metadata
//! documents, dynamic registration, pre-registered credentials), the authorization-code flow
//! with PKCE, scopes and step-up, refresh, the client-credentials and JWT grants, and DPoP. It
//! plugs into `toolport-http-client`'s [`Authorizer`](toolport_http_client::Authorizer) seam.
//!
//! What it has so far:
//!
//! The authorization-code flow:
//!
//! - [`OAuthAuthorizer`] (built with [`OAuthAuthorizerBuilder`]): an `Authorizer` that sends
//!   the current Bearer token, refreshes it (with rotation) before it expires or when refused,
//!   and on a refusal runs the flow: discovery (with the 2025-03-26 fallback to the server's
//!   origin), a pre-registered client, a Client ID Metadata Document URL or a dynamic
//!   registration kept per authorization server, PKCE S256, `state`, `resource`, the scope
//!   selection strategy with `offline_access`, and step-up on `insufficient_scope`. A
//!   pre-registered client's secret goes only to the issuer pinned with
//!   [`issuer`](OAuthAuthorizerBuilder::issuer), and tokens kept from another issuer are an
//!   error rather than replaced.
//! - [`DpopMode`]: when the authorizer asks for DPoP-bound tokens (RFC 9449); it then signs a
//!   proof for each token and resource request, with the nonce each server asks for.
//! - [`AuthorizationHandler`]: the interactive step (the user visits the authorization URL,
//!   the server redirects back). [`LoopbackAuthorization`] opens the user's browser and takes
//!   the redirect on 127.0.0.1, for an agent on the user's machine; [`HeadlessAuthorization`]
//!   requests the URL itself and returns the redirect, as the conformance suite expects of a
//!   test client.
//! - [`AuthorizationError`]: which step failed (discovery, registration, the handler, the
//!   response check, the token endpoint with the server's `error`, an issuer the pin or the
//!   kept tokens do not allow), never with a secret.
//!
//! The grants that need no user, for agents and services acting as themselves:
//!
//! - [`GrantAuthorizer`] (built with [`GrantAuthorizerBuilder`]): an `Authorizer` that gets
//!   its tokens with a [`Grant`] (client credentials, the JWT bearer grant of workload
//!   identity, or enterprise-managed authorization through an [`IdentityProvider`]), at a
//!   discovered or given token endpoint, the client authenticated as its
//!   [`ClientAuthentication`] says (none, a secret, or a signed [`AssertionKey`] assertion).
//!   A grant that carries a credential goes only to a pinned token endpoint or issuer.
//!
//! Where the tokens live:
//!
//! - [`TokenSet`]: what an authorization leaves for one server (access token and
//!   [`TokenType`], refresh token, expiry, scopes, issuer, and a [`RefreshBinding`]: the
//!   authorization server, client and `resource` a refresh needs, so tokens loaded from a store
//!   can be refreshed), with [`needs_refresh`](TokenSet::needs_refresh). `Debug` shows no token
//!   and no client secret.
//! - [`TokenKey`]: which server (by URL) and which identity the tokens belong to, with a stable
//!   [`storage_key`](TokenKey::storage_key).
//! - [`TokenStore`]: load, save and remove by key, and [`lease`](TokenStore::lease): the
//!   refresh lease of a key ([`TokenLease`]), which makes authorizers sharing a store refresh a
//!   token once and adopt the result; by default a lock within the process. The backends:
//!   [`MemoryTokenStore`] (the default), [`FileTokenStore`] (one JSON file, 0600, written
//!   atomically) and, with the `redis` feature, `RedisTokenStore` (tokens and lease in Redis,
//!   shared by an agent's replicas).
//! - [`TokenStoreError`]: what went wrong, naming the file or the key, never a token.
//!
//! How a server says where to authorize:
//!
//! - [`Challenge`] and [`BearerChallenge`]: a `WWW-Authenticate` header read carefully
//!   (several challenges, quoted strings, any case), and the Bearer parameters MCP acts on:
//!   `resource_metadata`, `scope`, `error` (such as `insufficient_scope`), `error_description`.
//! - Protected-resource metadata (RFC 9728): [`resource_metadata_urls`] (the challenge's URL,
//!   else the well-known path variant, then the root), [`ProtectedResourceMetadata`], and
//!   [`resource_matches`] (its `resource` must name the server), together in
//!   [`discover_protected_resource`].
//! - Authorization-server metadata (RFC 8414 and OpenID Connect Discovery):
//!   [`authorization_server_metadata_urls`] (the path-insertion and path-appending variants in
//!   the spec's order), [`AuthorizationServerMetadata`], and the issuer check, together in
//!   [`discover_authorization_server`]. [`discover`] runs both steps.
//! - [`MetadataFetcher`]: the one `GET` discovery needs, so it runs over any HTTP stack;
//!   [`HttpMetadataFetcher`] is the implementation on `toolport-http-client`'s `HttpClient`,
//!   each request bounded in time and size.
//! - [`DiscoveryError`]: which URL failed and why, shown without its query.
//! - [`EndpointPolicy`]: which URLs a server may send the client to (https, plain http only
//!   to loopback, no private or link-local address unless allowed), checked before every
//!   discovery, registration and token request and before the authorization URL reaches a
//!   handler; [`EndpointRefused`] says which rule refused a URL.
//!
//! And the check of the answer at the redirect URI, before its code goes anywhere:
//!
//! - [`PendingAuthorization::accept`]: the issuer (RFC 9207, an `iss` compared exactly, required
//!   when the server advertises it), then the `state`, then an error the server answered with
//!   ([`AuthorizationResponseError`]).
#![deny(missing_docs)]
#![cfg_attr(not(test), deny(clippy::unwrap_used))]
#![warn(unreachable_pub, missing_debug_implementations)]

mod assertion;
mod authorization_response;
mod binding;
mod challenge;
mod discovery;
mod dpop;
mod endpoint;
mod error;
mod file;
mod grants;
mod handler;
mod headless;
mod key;
mod lease;
mod loopback;
mod memory;
mod oauth;
#[cfg(feature = "redis")]
mod redis_store;
mod store;
mod tokens;
mod wire;

pub use assertion::{AssertionKey, AssertionKeyError};
pub use authorization_response::{AuthorizationResponseError, PendingAuthorization};
pub use binding::RefreshBinding;
pub use challenge::{BearerChallenge, Challenge};
pub use discovery::{
    AuthorizationServerMetadata, Discovered, Discovery, DiscoveryError, HttpMetadataFetcher,
    MetadataFetcher, MetadataResponse, ProtectedResourceMetadata,
    authorization_server_metadata_urls, discover, discover_authorization_server,
    discover_protected_resource, resource_matches, resource_metadata_urls,
};
pub use dpop::DpopMode;
pub use endpoint::{EndpointPolicy, EndpointRefused};
pub use error::{FileAction, TokenStoreError};
pub use file::FileTokenStore;
pub use grants::{
    ClientAuthentication, Grant, GrantAuthorizer, GrantAuthorizerBuilder, IdentityProvider,
};
pub use handler::AuthorizationHandler;
pub use headless::HeadlessAuthorization;
pub use key::TokenKey;
pub use lease::TokenLease;
pub use loopback::LoopbackAuthorization;
pub use memory::MemoryTokenStore;
pub use oauth::{AuthorizationError, OAuthAuthorizer, OAuthAuthorizerBuilder};
#[cfg(feature = "redis")]
pub use redis_store::RedisTokenStore;
pub use store::TokenStore;
pub use tokens::{TokenSet, TokenType};
