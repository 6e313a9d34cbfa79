//! [`OAuthHttp`]: every HTTP exchange of the authorizer (metadata `GET`s, the registration
//! `POST`, and `oauth2`'s token requests) on Toolport's pooled client, each bounded in time
//! and in the size of its answer, and each `POST` to a URL its [`EndpointPolicy`] allows.

use std::future::Future;
use std::pin::Pin;
use std::time::Duration;

use bytes::Bytes;
use http::{Request, Response};
use http_body_util::Full;
use toolport_core::{BoxError, ConnectError};
use toolport_http_client::toolkit::read_limited;
use toolport_http_client::{HttpError, LazyHttpClient, NetworkOptions};
use url::Url;

use super::AuthorizationError;
use crate::dpop::DpopError;
use crate::{
    EndpointPolicy, EndpointRefused, HttpMetadataFetcher, MetadataFetcher, MetadataResponse,
};

/// The largest answer read from an authorization server: far above any token response,
/// registration or metadata document.
const RESPONSE_LIMIT: usize = 256 * 1024;

/// The authorizer's HTTP client: TLS only once an `https` URL needs it, every exchange bounded
/// by one timeout (connect included), and the policy every URL of the authorizer's MCP server
/// passes before it is contacted. Clones share the pool.
#[derive(Debug, Clone)]
pub(crate) struct OAuthHttp {
    client: LazyHttpClient,
    network: NetworkOptions,
    timeout: Duration,
    policy: EndpointPolicy,
}

/// An exchange that produced no answer. It never quotes a request or an answer.
#[derive(Debug, thiserror::Error)]
pub(crate) enum ExchangeError {
    /// The client for the URL's scheme could not be made.
    #[error(transparent)]
    Connect(#[from] ConnectError),
    /// The request could not be sent, or the answer was too large.
    #[error(transparent)]
    Http(#[from] HttpError),
    /// No whole answer within the timeout.
    #[error("no answer within {0:?}")]
    Timeout(Duration),
    /// The request's DPoP proof could not be made.
    #[error(transparent)]
    Proof(#[from] DpopError),
    /// The policy refused the URL; nothing was sent.
    #[error(transparent)]
    Refused(#[from] EndpointRefused),
    /// The request's URI is not a URL the policy can judge; nothing was sent.
    #[error("the request's URI is not a URL")]
    NotAUrl,
}

impl ExchangeError {
    /// This error as an [`AuthorizationError`]: a refused URL as itself, anything else as
    /// `otherwise` makes it of the message.
    pub(crate) fn into_authorization_error(
        self,
        otherwise: impl FnOnce(String) -> AuthorizationError,
    ) -> AuthorizationError {
        match self {
            Self::Refused(refused) => AuthorizationError::EndpointRefused(refused),
            other => otherwise(other.to_string()),
        }
    }
}

impl OAuthHttp {
    /// A client with `network`'s proxy and roots whose exchanges each end within `timeout`,
    /// to URLs `policy` allows.
    pub(crate) fn new(timeout: Duration, policy: EndpointPolicy, network: NetworkOptions) -> Self {
        Self {
            client: LazyHttpClient::default(),
            network,
            timeout,
            policy,
        }
    }

    /// The policy every URL passes before it is contacted.
    pub(crate) fn policy(&self) -> &EndpointPolicy {
        &self.policy
    }

    /// Sends `request` (not following redirects) and reads its whole answer, once the policy
    /// allows its URL.
    pub(crate) async fn exchange(
        &self,
        request: Request<Vec<u8>>,
    ) -> Result<Response<Vec<u8>>, ExchangeError> {
        let url = Url::parse(&request.uri().to_string()).map_err(|_| ExchangeError::NotAUrl)?;
        self.policy.check(&url)?;
        let https = url.scheme() == "https";
        let client = self.client.get(&self.network, https, self.timeout)?;
        let request = request.map(|body| Full::new(Bytes::from(body)));
        let exchange = async {
            let (head, body) = client.send(request).await?.into_parts();
            let body = read_limited(body, RESPONSE_LIMIT).await?;
            Ok::<_, ExchangeError>(Response::from_parts(head, body.to_vec()))
        };
        tokio::time::timeout(self.timeout, exchange)
            .await
            .map_err(|_| ExchangeError::Timeout(self.timeout))?
    }
}

/// Metadata `GET`s for discovery, which checks each URL against the policy before asking.
#[async_trait::async_trait]
impl MetadataFetcher for OAuthHttp {
    async fn get(&self, url: &Url) -> Result<MetadataResponse, BoxError> {
        let client = self
            .client
            .get(&self.network, url.scheme() == "https", self.timeout)?;
        HttpMetadataFetcher::new(client)
            .with_timeout(self.timeout)
            .with_limit(RESPONSE_LIMIT)
            .get(url)
            .await
    }
}

/// The exchange of an `oauth2` request.
type Exchange<'c> =
    Pin<Box<dyn Future<Output = Result<oauth2::HttpResponse, ExchangeError>> + Send + 'c>>;

impl<'c> oauth2::AsyncHttpClient<'c> for OAuthHttp {
    type Error = ExchangeError;
    type Future = Exchange<'c>;

    fn call(&'c self, request: oauth2::HttpRequest) -> Self::Future {
        Box::pin(self.exchange(request))
    }
}
