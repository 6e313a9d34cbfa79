//! The `oauth2` side of the flow: the client for one authorization server and identity, the
//! authorization URL (PKCE S256, `state`, `resource`, scopes), the code exchange and the
//! refresh, and their answers as a [`TokenSet`].

use std::time::SystemTime;

use oauth2::basic::{BasicClient, BasicErrorResponse, BasicTokenResponse, BasicTokenType};
use oauth2::{
    AuthType, AuthUrl, AuthorizationCode, ClientId, ClientSecret, CsrfToken, EndpointNotSet,
    EndpointSet, PkceCodeChallenge, PkceCodeVerifier, RedirectUrl, RefreshToken, RequestTokenError,
    Scope, TokenResponse, TokenUrl,
};
use toolport_core::Secret;
use toolport_http_client::toolkit::redacted_url;
use url::Url;

use super::AuthorizationError;
use super::identity::{ClientIdentity, TokenAuthMethod};
use super::scopes::{Scopes, joined};
use super::token_http::TokenHttp;
use super::transport::{ExchangeError, OAuthHttp};
use crate::dpop::DpopSigner;
use crate::{AuthorizationServerMetadata, TokenSet, TokenType};

/// The `token_type` of a DPoP-bound token, as `oauth2` gives it (in lower case).
const DPOP_TOKEN_TYPE: &str = "dpop";

/// An `oauth2` client with an authorization and a token endpoint.
type OAuthClient =
    BasicClient<EndpointSet, EndpointNotSet, EndpointNotSet, EndpointNotSet, EndpointSet>;

/// The two endpoints of an authorization server the flow uses, parsed.
#[derive(Debug, Clone)]
pub(crate) struct Endpoints {
    authorization: AuthUrl,
    token: TokenUrl,
}

impl Endpoints {
    /// The endpoints of `server`.
    ///
    /// # Errors
    ///
    /// [`AuthorizationError::MissingEndpoint`] when one is missing or not a URL.
    pub(crate) fn of(server: &AuthorizationServerMetadata) -> Result<Self, AuthorizationError> {
        let missing = |endpoint| AuthorizationError::MissingEndpoint {
            issuer: server.issuer.clone(),
            endpoint,
        };
        let parse = |value: Option<&String>, endpoint| {
            value
                .and_then(|value| Url::parse(value).ok())
                .ok_or_else(|| missing(endpoint))
        };
        Ok(Self {
            authorization: AuthUrl::from_url(parse(
                server.authorization_endpoint.as_ref(),
                "authorization_endpoint",
            )?),
            token: TokenUrl::from_url(parse(server.token_endpoint.as_ref(), "token_endpoint")?),
        })
    }

    /// The endpoints of a refresh at `token`. A refresh builds no authorization URL, so
    /// `token` stands in for the authorization endpoint too.
    pub(crate) fn for_refresh(token: &Url) -> Self {
        Self {
            authorization: AuthUrl::from_url(token.clone()),
            token: TokenUrl::from_url(token.clone()),
        }
    }

    /// The authorization endpoint.
    pub(crate) fn authorization(&self) -> &Url {
        self.authorization.url()
    }

    /// The token endpoint.
    pub(crate) fn token(&self) -> &Url {
        self.token.url()
    }

    /// The token endpoint, for messages.
    fn shown_token(&self) -> String {
        redacted_url(self.token.url())
    }
}

/// The `oauth2` client of `identity` at `endpoints`, redirecting to `redirect_uri`.
pub(crate) struct Client<'a> {
    inner: OAuthClient,
    endpoints: &'a Endpoints,
    http: &'a OAuthHttp,
    /// Signs a DPoP proof for each token request, when the flow asks for DPoP-bound tokens.
    dpop: Option<&'a DpopSigner>,
}

/// An authorization request ready for the handler: the URL, and what checking its answer and
/// exchanging its code need.
pub(crate) struct AuthorizationRequest {
    /// The authorization URL.
    pub(crate) url: Url,
    /// The `state` it carries.
    pub(crate) state: CsrfToken,
    /// The PKCE verifier of its challenge.
    pub(crate) verifier: PkceCodeVerifier,
}

impl<'a> Client<'a> {
    /// The client of `identity` at `endpoints`, redirecting to `redirect_uri`, sending its
    /// requests with `http`.
    pub(crate) fn new(
        http: &'a OAuthHttp,
        endpoints: &'a Endpoints,
        identity: &ClientIdentity,
        redirect_uri: &Url,
    ) -> Self {
        let auth_type = match identity.method {
            TokenAuthMethod::Basic => AuthType::BasicAuth,
            TokenAuthMethod::Post | TokenAuthMethod::None => AuthType::RequestBody,
        };
        let mut inner = BasicClient::new(ClientId::new(identity.client_id.clone()))
            .set_auth_uri(endpoints.authorization.clone())
            .set_token_uri(endpoints.token.clone())
            .set_redirect_uri(RedirectUrl::from_url(redirect_uri.clone()))
            .set_auth_type(auth_type);
        if let Some(secret) = identity
            .secret
            .as_ref()
            .filter(|_| identity.method != TokenAuthMethod::None)
        {
            inner = inner.set_client_secret(ClientSecret::new(secret.expose().to_owned()));
        }
        Self {
            inner,
            endpoints,
            http,
            dpop: None,
        }
    }

    /// The same client asking for DPoP-bound tokens: each token request carries a proof
    /// signed by `dpop`, and a `DPoP` token type is accepted.
    pub(crate) fn with_dpop(mut self, dpop: &'a DpopSigner) -> Self {
        self.dpop = Some(dpop);
        self
    }

    /// The HTTP client of the token requests.
    fn token_http(&self) -> TokenHttp<'a> {
        TokenHttp::new(self.http, self.dpop)
    }

    /// An authorization request for `scopes` (no `scope` parameter when empty) and the RFC
    /// 8707 `resource`, with a fresh PKCE S256 challenge and a random `state`.
    pub(crate) fn authorization_request(
        &self,
        scopes: &Scopes,
        resource: &str,
    ) -> AuthorizationRequest {
        let (challenge, verifier) = PkceCodeChallenge::new_random_sha256();
        let (url, state) = self
            .inner
            .authorize_url(CsrfToken::new_random)
            .add_scopes(scopes.iter().cloned().map(Scope::new))
            .set_pkce_challenge(challenge)
            .add_extra_param("resource", resource.to_owned())
            .url();
        AuthorizationRequest {
            url,
            state,
            verifier,
        }
    }

    /// Exchanges `code` with its PKCE `verifier`, for `resource`.
    pub(crate) async fn exchange_code(
        &self,
        code: Secret,
        verifier: PkceCodeVerifier,
        resource: &str,
    ) -> Result<BasicTokenResponse, AuthorizationError> {
        self.inner
            .exchange_code(AuthorizationCode::new(code.expose().to_owned()))
            .set_pkce_verifier(verifier)
            .add_extra_param("resource", resource.to_owned())
            .request_async(&self.token_http())
            .await
            .map_err(|error| self.failed(error))
    }

    /// Exchanges `refresh_token` for new tokens, for `resource`.
    pub(crate) async fn refresh(
        &self,
        refresh_token: &Secret,
        resource: &str,
    ) -> Result<BasicTokenResponse, AuthorizationError> {
        let refresh_token = RefreshToken::new(refresh_token.expose().to_owned());
        self.inner
            .exchange_refresh_token(&refresh_token)
            .add_extra_param("resource", resource.to_owned())
            .request_async(&self.token_http())
            .await
            .map_err(|error| self.failed(error))
    }

    /// A failed token request as an [`AuthorizationError`]: the server's `error` and
    /// `error_description`, or what went wrong, never the answer's text.
    fn failed(
        &self,
        error: RequestTokenError<ExchangeError, BasicErrorResponse>,
    ) -> AuthorizationError {
        let url = self.endpoints.shown_token();
        match error {
            RequestTokenError::ServerResponse(response) => AuthorizationError::TokenRefused {
                url,
                error: response.error().to_string(),
                description: response.error_description().cloned(),
            },
            RequestTokenError::Request(error) => error.into_authorization_error(|problem| {
                AuthorizationError::TokenRequest { url, problem }
            }),
            RequestTokenError::Parse(error, _answer) => AuthorizationError::TokenRequest {
                url,
                problem: format!("the answer is not a token response (at `{}`)", error.path()),
            },
            RequestTokenError::Other(problem) => AuthorizationError::TokenRequest { url, problem },
        }
    }

    /// The tokens of `response`, received at `received_at`, issued by `issuer`. The scopes
    /// are the answer's, else `asked` (RFC 6749 §5.1: the same as requested); the refresh
    /// token is the answer's, else `kept` (a refresh the server did not rotate).
    pub(crate) fn token_set(
        &self,
        response: &BasicTokenResponse,
        received_at: SystemTime,
        asked: &Scopes,
        issuer: &str,
        kept: Option<&Secret>,
    ) -> Result<TokenSet, AuthorizationError> {
        let token_type = match response.token_type() {
            BasicTokenType::Bearer => TokenType::Bearer,
            BasicTokenType::Extension(name) if name == DPOP_TOKEN_TYPE && self.dpop.is_some() => {
                TokenType::DPoP
            }
            other => {
                let accepted = if self.dpop.is_some() {
                    "Bearer and DPoP"
                } else {
                    "only Bearer, as no DPoP proof was sent"
                };
                return Err(AuthorizationError::TokenRequest {
                    url: self.endpoints.shown_token(),
                    problem: format!(
                        "the token type `{}` is not supported ({accepted})",
                        other.as_ref()
                    ),
                });
            }
        };
        let access_token = Secret::new(response.access_token().secret().clone());
        let scopes: Scopes = match response.scopes() {
            Some(granted) => granted.iter().map(|scope| scope.to_string()).collect(),
            None => asked.clone(),
        };
        let mut tokens = TokenSet::new(access_token, token_type)
            .with_scopes(scopes)
            .with_issuer(issuer);
        if let Some(expires_at) = response
            .expires_in()
            .and_then(|lifetime| received_at.checked_add(lifetime))
        {
            tokens = tokens.with_expires_at(expires_at);
        }
        let refresh_token = response
            .refresh_token()
            .map(|token| Secret::new(token.secret().clone()))
            .or_else(|| kept.cloned());
        if let Some(refresh_token) = refresh_token {
            tokens = tokens.with_refresh_token(refresh_token);
        }
        tracing::debug!(
            issuer,
            token_type = %token_type,
            scopes = %joined(tokens.scopes()),
            expires_in = ?response.expires_in(),
            refresh_token = tokens.refresh_token().is_some(),
            "token obtained"
        );
        Ok(tokens)
    }
}
