//! The tests' side: an [`OAuthAuthorizer`] against the fixture, driven through
//! `toolport-http-client`'s `RequestHeaders` as a transport drives it (authorize, and on a
//! refusal renew and send again).

use std::future::Future;
use std::time::Duration;

use bytes::Bytes;
use http::{Method, Request, StatusCode, Uri};
use http_body_util::Full;
use toolport_auth::{HeadlessAuthorization, OAuthAuthorizer, OAuthAuthorizerBuilder};
use toolport_http_client::{HttpClient, HttpError, HttpOptions, RequestHeaders};
use url::Url;

use super::Fixture;

/// The bound on every HTTP exchange of the tests.
const TIMEOUT: Duration = Duration::from_secs(5);

/// Runs `test` within a bound, so a hung flow fails the test instead of stalling it.
pub async fn bounded<T>(test: impl Future<Output = T>) -> T {
    tokio::time::timeout(Duration::from_secs(30), test)
        .await
        .expect("the test did not finish in time")
}

/// An MCP client of the fixture's resource, authorized by an [`OAuthAuthorizer`].
pub struct Client {
    /// The authorizer.
    pub authorizer: OAuthAuthorizer,
    headers: RequestHeaders,
    http: HttpClient,
    uri: Uri,
}

impl Client {
    /// A client of `fixture`'s resource, its authorizer built from the `configure`d builder (a
    /// headless handler already set).
    pub fn new(
        fixture: &Fixture,
        configure: impl FnOnce(OAuthAuthorizerBuilder) -> OAuthAuthorizerBuilder,
    ) -> Self {
        let redirect = Url::parse("http://localhost:3000/callback").unwrap();
        let handler = HeadlessAuthorization::new(redirect).with_timeout(TIMEOUT);
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

    /// `POST /mcp`, authorized, and renewed and sent again when refused; the final status.
    pub async fn call(&self) -> Result<StatusCode, HttpError> {
        let mut request = Request::builder()
            .method(Method::POST)
            .uri(self.uri.clone())
            .body(Full::new(Bytes::from_static(b"{}")))
            .unwrap();
        self.headers
            .apply(None, &Method::POST, &self.uri, request.headers_mut())
            .await?;
        Ok(self.headers.send(&self.http, request).await?.status())
    }
}
