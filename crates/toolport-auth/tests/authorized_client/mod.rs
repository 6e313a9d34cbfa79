//! The tests' side of an authorizer: [`AuthorizedClient`], a client of a fixture's resource
//! that sends through `toolport-http-client`'s `RequestHeaders` as a transport does (authorize,
//! and on a refusal renew and send once more), [`bounded`] and [`authorization_error`].
//! Shared by the OAuth, DPoP and grant fixtures' tests.

#![allow(dead_code, reason = "each fixture's tests use a part of it")]

use std::future::Future;
use std::time::Duration;

use bytes::Bytes;
use http::header::AUTHORIZATION;
use http::{HeaderMap, HeaderValue, Method, Request, StatusCode, Uri};
use http_body_util::Full;
use toolport_auth::AuthorizationError;
use toolport_http_client::{
    Authorizer, HttpClient, HttpError, HttpOptions, RequestHeaders, RequestTarget, WithHttpOptions,
};

/// The bound on every HTTP exchange of the tests.
pub const TIMEOUT: Duration = Duration::from_secs(5);

/// Runs `test` within a bound, so a hung flow fails the test instead of stalling it.
pub async fn bounded<T>(test: impl Future<Output = T>) -> T {
    tokio::time::timeout(Duration::from_secs(30), test)
        .await
        .expect("the test did not finish in time")
}

/// An MCP client of one fixture's resource, authorized by `A`.
pub struct AuthorizedClient<A> {
    /// The authorizer, for direct calls.
    pub authorizer: A,
    headers: RequestHeaders,
    http: HttpClient,
    uri: Uri,
}

impl<A: Authorizer + Clone + 'static> AuthorizedClient<A> {
    /// A client of the resource at `server_url`, authorized by `authorizer`.
    pub fn with_authorizer(authorizer: A, server_url: &str) -> Self {
        let options = HttpOptions::new().authorizer(authorizer.clone());
        Self {
            authorizer,
            headers: RequestHeaders::new(&options).unwrap(),
            http: HttpClient::plain(TIMEOUT),
            uri: server_url.parse().unwrap(),
        }
    }

    /// `POST /mcp`, authorized, renewed and sent again once when refused; the final status.
    pub async fn call(&self) -> Result<StatusCode, HttpError> {
        self.send(None).await
    }

    /// [`call`](Self::call), needing the scopes `need` (space-separated, in `x-need`).
    pub async fn call_needing(&self, need: &str) -> Result<StatusCode, HttpError> {
        self.send(Some(need)).await
    }

    async fn send(&self, need: Option<&str>) -> Result<StatusCode, HttpError> {
        let mut request = Request::builder()
            .method(Method::POST)
            .uri(self.uri.clone());
        if let Some(need) = need {
            request = request.header("x-need", need);
        }
        let mut request = request.body(Full::new(Bytes::from_static(b"{}"))).unwrap();
        self.headers
            .apply(None, &Method::POST, &self.uri, request.headers_mut())
            .await?;
        Ok(self.headers.send(&self.http, request).await?.status())
    }

    /// The `Authorization` header the authorizer adds now.
    pub async fn header(&self) -> Option<HeaderValue> {
        let mut headers = HeaderMap::new();
        let target = RequestTarget::new(&Method::POST, &self.uri);
        self.authorizer
            .authorize(target, &mut headers)
            .await
            .unwrap();
        headers.get(AUTHORIZATION).cloned()
    }
}

/// The [`AuthorizationError`] a failed call carries.
pub fn authorization_error(error: &HttpError) -> &AuthorizationError {
    match error {
        HttpError::Authorization(source) => source
            .downcast_ref::<AuthorizationError>()
            .unwrap_or_else(|| panic!("not an AuthorizationError: {source}")),
        other => panic!("not an authorization failure: {other}"),
    }
}
