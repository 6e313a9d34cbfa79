//! The tests' side: an [`OAuthAuthorizer`] against a fixture, driven through
//! `toolport-http-client`'s `RequestHeaders`, as a transport drives it (authorize, and on a
//! refusal renew and send once more).

use std::future::Future;
use std::time::Duration;

use bytes::Bytes;
use http::header::AUTHORIZATION;
use http::{HeaderMap, HeaderValue, Method, Request, StatusCode, Uri};
use http_body_util::Full;
use toolport_auth::{
    AuthorizationError, HeadlessAuthorization, OAuthAuthorizer, OAuthAuthorizerBuilder,
};
use toolport_http_client::{
    Authorizer, HttpClient, HttpError, HttpOptions, RequestHeaders, RequestTarget,
};
use url::Url;

use super::{Fixture, REDIRECT_URI};

/// The bound on every HTTP exchange of the tests.
const TIMEOUT: Duration = Duration::from_secs(5);

/// Runs `test` within a bound, so a hung flow fails the test instead of stalling it.
pub async fn bounded<T>(test: impl Future<Output = T>) -> T {
    tokio::time::timeout(Duration::from_secs(30), test)
        .await
        .expect("the test did not finish in time")
}

/// An MCP client of one fixture's resource, authorized by an [`OAuthAuthorizer`].
pub struct Client {
    /// The authorizer, for direct calls.
    pub authorizer: OAuthAuthorizer,
    headers: RequestHeaders,
    http: HttpClient,
    uri: Uri,
}

impl Client {
    /// A client of `fixture`'s resource, its authorizer built from `configure`d builder (a
    /// headless handler redirecting to [`REDIRECT_URI`] already set).
    pub fn new(
        fixture: &Fixture,
        configure: impl FnOnce(OAuthAuthorizerBuilder) -> OAuthAuthorizerBuilder,
    ) -> Self {
        let handler =
            HeadlessAuthorization::new(Url::parse(REDIRECT_URI).unwrap()).with_timeout(TIMEOUT);
        let builder = OAuthAuthorizer::builder(&fixture.server_url())
            .handler(handler)
            .timeout(TIMEOUT);
        let authorizer = configure(builder).build().unwrap();
        let options = HttpOptions::new().authorizer(authorizer.clone());
        Self {
            authorizer,
            headers: RequestHeaders::new(&options).unwrap(),
            http: HttpClient::plain(TIMEOUT),
            uri: fixture.server_url().parse().unwrap(),
        }
    }

    /// `POST /mcp` needing the scopes `need` (space-separated), authorized, renewed and sent
    /// again once when refused; the final status.
    pub async fn call(&self, need: &str) -> Result<StatusCode, HttpError> {
        let mut request = Request::builder()
            .method(Method::POST)
            .uri(self.uri.clone())
            .header("x-need", need)
            .body(Full::new(Bytes::from_static(b"{}")))
            .unwrap();
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
