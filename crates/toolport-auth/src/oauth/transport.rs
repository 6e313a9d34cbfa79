//! [`OAuthHttp`]: every HTTP exchange of the authorizer (metadata `GET`s, the registration
//! `POST`, and `oauth2`'s token requests) on Toolport's pooled client, each bounded in time
//! and in the size of its answer.

use std::future::Future;
use std::pin::Pin;
use std::time::Duration;

use bytes::Bytes;
use http::{Request, Response};
use http_body_util::Full;
use toolport_core::{BoxError, ConnectError};
use toolport_http_client::{HttpError, LazyHttpClient, read_limited};
use url::Url;

use crate::dpop::DpopError;
use crate::{HttpMetadataFetcher, MetadataFetcher, MetadataResponse};

/// The largest answer read from an authorization server: far above any token response,
/// registration or metadata document.
const RESPONSE_LIMIT: usize = 256 * 1024;

/// The authorizer's HTTP client: TLS only once an `https` URL needs it, every exchange bounded
/// by one timeout (connect included). Clones share the pool.
#[derive(Debug, Clone)]
pub(crate) struct OAuthHttp {
    client: LazyHttpClient,
    timeout: Duration,
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
}

impl OAuthHttp {
    /// A client whose exchanges each end within `timeout`.
    pub(crate) fn new(timeout: Duration) -> Self {
        Self {
            client: LazyHttpClient::default(),
            timeout,
        }
    }

    /// Sends `request` (not following redirects) and reads its whole answer.
    pub(crate) async fn exchange(
        &self,
        request: Request<Vec<u8>>,
    ) -> Result<Response<Vec<u8>>, ExchangeError> {
        let https = request.uri().scheme_str() == Some("https");
        let client = self.client.get(https, self.timeout)?;
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

#[async_trait::async_trait]
impl MetadataFetcher for OAuthHttp {
    async fn get(&self, url: &Url) -> Result<MetadataResponse, BoxError> {
        let client = self.client.get(url.scheme() == "https", self.timeout)?;
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
