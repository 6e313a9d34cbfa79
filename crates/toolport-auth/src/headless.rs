//! [`HeadlessAuthorization`]: an [`AuthorizationHandler`] with no user, which follows the
//! authorization URL itself and returns where the server redirects, as the MCP conformance
//! suite expects of a test client.

use std::time::Duration;

use bytes::Bytes;
use http::header::LOCATION;
use http::{Method, Request};
use http_body_util::Full;
use toolport_core::BoxError;
use toolport_http_client::toolkit::redacted_url;
use toolport_http_client::{LazyHttpClient, NetworkOptions};
use url::Url;

use crate::AuthorizationHandler;

/// Authorizes without a user: `GET`s the authorization URL, does not follow the redirect, and
/// returns its `Location` (resolved against the authorization URL). For authorization servers
/// that grant at once, such as test servers and the MCP conformance suite's; a real server
/// answers with a login page, which this handler reports as an error.
///
/// # Examples
///
/// ```
/// use toolport_auth::{AuthorizationHandler, HeadlessAuthorization};
/// use url::Url;
///
/// let handler = HeadlessAuthorization::new(Url::parse("http://localhost:3000/callback").unwrap());
/// assert_eq!(handler.redirect_uri().as_str(), "http://localhost:3000/callback");
/// ```
#[derive(Debug, Clone)]
pub struct HeadlessAuthorization {
    redirect_uri: Url,
    timeout: Duration,
    client: LazyHttpClient,
}

impl HeadlessAuthorization {
    /// The default bound on the `GET`, from connecting to the answer's head.
    pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(30);

    /// A handler whose redirect URI is `redirect_uri` (it is never listened on).
    pub fn new(redirect_uri: Url) -> Self {
        Self {
            redirect_uri,
            timeout: Self::DEFAULT_TIMEOUT,
            client: LazyHttpClient::default(),
        }
    }

    /// Sets the bound on the `GET`.
    #[must_use]
    pub fn with_timeout(mut self, timeout: Duration) -> Self {
        self.timeout = timeout;
        self
    }
}

#[async_trait::async_trait]
impl AuthorizationHandler for HeadlessAuthorization {
    fn redirect_uri(&self) -> &Url {
        &self.redirect_uri
    }

    async fn authorize(&self, authorization_url: &Url) -> Result<Url, BoxError> {
        let shown = redacted_url(authorization_url);
        let client = self.client.get(
            &NetworkOptions::default(),
            authorization_url.scheme() == "https",
            self.timeout,
        )?;
        let request = Request::builder()
            .method(Method::GET)
            .uri(authorization_url.as_str())
            .body(Full::new(Bytes::new()))?;
        let response = tokio::time::timeout(self.timeout, client.send(request))
            .await
            .map_err(|_| format!("{shown}: no answer within {:?}", self.timeout))??;
        let status = response.status();
        let location = response
            .headers()
            .get(LOCATION)
            .filter(|_| status.is_redirection())
            .ok_or_else(|| format!("{shown}: answered HTTP {status}, not a redirect"))?;
        let location = location
            .to_str()
            .map_err(|_| format!("{shown}: the redirect's Location is not text"))?;
        Ok(authorization_url
            .join(location)
            .map_err(|error| format!("{shown}: the redirect's Location is not a URL: {error}"))?)
    }
}
