//! [`TokenRequest`]: one form `POST` to a token endpoint (an authorization server's, or an
//! identity provider's), and its answer: tokens, or the server's OAuth error.

use std::time::SystemTime;

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use http::header::{ACCEPT, AUTHORIZATION, CONTENT_TYPE};
use http::{HeaderValue, Method, Request};
use serde::Deserialize;
use toolport_core::Secret;
use toolport_http_client::toolkit::redacted_url;
use url::Url;
use url::form_urlencoded::{Serializer, byte_serialize};

use crate::oauth::scopes::{Scopes, joined};
use crate::oauth::transport::OAuthHttp;
use crate::{AuthorizationError, TokenSet, TokenType};

/// A token request being put together: the endpoint, the form, and HTTP Basic client
/// authentication if the client uses it. It has no `Debug`: the form holds secrets.
pub(crate) struct TokenRequest {
    url: Url,
    /// The form, encoded so far.
    form: String,
    basic: Option<HeaderValue>,
}

/// A successful answer (RFC 6749 §5.1), with RFC 8693's `issued_token_type` for a token
/// exchange. It has no `Debug`: it holds the token.
#[derive(Deserialize)]
pub(crate) struct TokenAnswer {
    access_token: String,
    token_type: String,
    #[serde(default)]
    expires_in: Option<u64>,
    #[serde(default)]
    scope: Option<String>,
    #[serde(default)]
    issued_token_type: Option<String>,
}

/// An error answer (RFC 6749 §5.2).
#[derive(Deserialize)]
struct ErrorAnswer {
    error: String,
    #[serde(default)]
    error_description: Option<String>,
}

impl TokenRequest {
    /// A request to `url` for the grant `grant_type`.
    pub(crate) fn new(url: &Url, grant_type: &str) -> Self {
        let mut request = Self {
            url: url.clone(),
            form: String::new(),
            basic: None,
        };
        request.param("grant_type", grant_type);
        request
    }

    /// Adds the form parameter `name=value`.
    pub(crate) fn param(&mut self, name: &str, value: &str) -> &mut Self {
        let mut form = Serializer::new(std::mem::take(&mut self.form));
        form.append_pair(name, value);
        self.form = form.finish();
        self
    }

    /// Adds `scope`, unless `scopes` is empty.
    pub(crate) fn scopes(&mut self, scopes: &Scopes) -> &mut Self {
        if !scopes.is_empty() {
            self.param("scope", &joined(scopes));
        }
        self
    }

    /// Authenticates the client with HTTP Basic (`client_secret_basic`): the client ID and
    /// secret, each form-encoded first (RFC 6749 §2.3.1).
    pub(crate) fn basic_auth(&mut self, client_id: &str, secret: &Secret) -> &mut Self {
        let encode = |text: &str| byte_serialize(text.as_bytes()).collect::<String>();
        let credentials = format!("{}:{}", encode(client_id), encode(secret.expose()));
        let header = format!("Basic {}", STANDARD.encode(credentials));
        // Base64 is always a valid header value.
        if let Ok(mut value) = HeaderValue::try_from(header) {
            value.set_sensitive(true);
            self.basic = Some(value);
        }
        self
    }

    /// The endpoint, for messages.
    pub(crate) fn shown_url(&self) -> String {
        redacted_url(&self.url)
    }

    /// Sends the request and reads its answer.
    ///
    /// # Errors
    ///
    /// [`AuthorizationError::TokenRefused`] with the server's `error` and
    /// `error_description`; [`AuthorizationError::TokenRequest`] when no answer came, or one
    /// that is neither tokens nor an OAuth error. Neither quotes the answer.
    pub(crate) async fn send(
        mut self,
        http: &OAuthHttp,
    ) -> Result<TokenAnswer, AuthorizationError> {
        let url = self.shown_url();
        let failed = |problem: String| AuthorizationError::TokenRequest {
            url: url.clone(),
            problem,
        };
        let mut request = Request::builder()
            .method(Method::POST)
            .uri(self.url.as_str())
            .header(CONTENT_TYPE, "application/x-www-form-urlencoded")
            .header(ACCEPT, "application/json");
        if let Some(basic) = self.basic.take() {
            request = request.header(AUTHORIZATION, basic);
        }
        let request = request
            .body(self.form.into_bytes())
            .map_err(|error| failed(error.to_string()))?;
        let response = http
            .exchange(request)
            .await
            .map_err(|error| error.into_authorization_error(failed))?;
        let status = response.status();
        if status.is_success() {
            return serde_json::from_slice(response.body())
                .map_err(|_| failed("the answer is not a token response".to_owned()));
        }
        match serde_json::from_slice::<ErrorAnswer>(response.body()) {
            Ok(answer) => Err(AuthorizationError::TokenRefused {
                url,
                error: answer.error,
                description: answer.error_description,
            }),
            Err(_) => Err(failed(format!("the server answered {status}"))),
        }
    }
}

impl TokenAnswer {
    /// The token a token exchange issued, if it is of the type `expected` (RFC 8693's
    /// `issued_token_type`).
    pub(crate) fn issued(self, expected: &str, url: &str) -> Result<Secret, AuthorizationError> {
        match self.issued_token_type.as_deref() {
            Some(issued) if issued == expected => Ok(Secret::new(self.access_token)),
            issued => Err(AuthorizationError::TokenRequest {
                url: url.to_owned(),
                problem: format!(
                    "the exchange issued `{}`, not `{expected}`",
                    issued.unwrap_or("no issued_token_type")
                ),
            }),
        }
    }

    /// The answer as a Bearer [`TokenSet`] received at `received_at` from `url`, issued by
    /// `issuer`. The scopes are the answer's, else `asked` (RFC 6749 §5.1: the same as
    /// requested). A refresh token is not kept: the grant itself gets the next token.
    pub(crate) fn tokens(
        self,
        received_at: SystemTime,
        asked: &Scopes,
        issuer: Option<&str>,
        url: &str,
    ) -> Result<TokenSet, AuthorizationError> {
        if !self.token_type.eq_ignore_ascii_case("bearer") {
            return Err(AuthorizationError::TokenRequest {
                url: url.to_owned(),
                problem: format!(
                    "the token type `{}` is not supported here (only Bearer)",
                    self.token_type
                ),
            });
        }
        let scopes: Scopes = match &self.scope {
            Some(granted) => granted.split_whitespace().map(str::to_owned).collect(),
            None => asked.clone(),
        };
        let mut tokens =
            TokenSet::new(Secret::new(self.access_token), TokenType::Bearer).with_scopes(scopes);
        if let Some(issuer) = issuer {
            tokens = tokens.with_issuer(issuer);
        }
        if let Some(expires_at) = self
            .expires_in
            .and_then(|seconds| received_at.checked_add(std::time::Duration::from_secs(seconds)))
        {
            tokens = tokens.with_expires_at(expires_at);
        }
        Ok(tokens)
    }
}
