//! Presenting the current token on a request, after getting a new one when it is about to
//! expire.

use std::time::Duration;

use http::header::AUTHORIZATION;
use http::{HeaderMap, HeaderValue};
use toolport_core::BoxError;

use super::Inner;
use crate::TokenSet;

/// How long before its expiry a token is replaced, at most: half its lifetime when that is
/// shorter, so a short-lived token is still used.
pub(super) const RENEWAL_MARGIN: Duration = Duration::from_secs(60);

impl Inner {
    /// Adds `Authorization: Bearer <token>` (marked sensitive) for the current token, getting
    /// a new one first when it expires within a minute. Adds nothing when there is no token
    /// yet. A failed renewal is not an error: the token is sent as it is, and the server's
    /// refusal leads to another try.
    pub(super) async fn present(&self, headers: &mut HeaderMap) -> Result<(), BoxError> {
        let Some(mut tokens) = self.tokens.current().await? else {
            return Ok(());
        };
        if self.expiring(&tokens)
            // A token request in progress will replace the token; do not wait for it.
            && let Ok(mut session) = self.session.try_lock()
        {
            match self.tokens.current().await? {
                Some(latest) if !self.expiring(&latest) => tokens = latest,
                _ => match self.obtain(&mut session, None).await {
                    Ok(renewed) => tokens = renewed,
                    Err(error) => {
                        tracing::debug!(%error, "renewal failed; sending the current token");
                    }
                },
            }
        }
        headers.insert(AUTHORIZATION, bearer(&tokens)?);
        Ok(())
    }

    /// Whether `tokens` expire within the renewal margin.
    fn expiring(&self, tokens: &TokenSet) -> bool {
        let margin = *self
            .renewal_margin
            .lock()
            .unwrap_or_else(|e| e.into_inner());
        tokens.needs_refresh((self.wall_clock)(), margin)
    }
}

/// The `Authorization` header that presents `tokens`, marked sensitive.
///
/// # Errors
///
/// For a token that cannot be a header value.
pub(super) fn bearer(tokens: &TokenSet) -> Result<HeaderValue, BoxError> {
    let mut value = HeaderValue::try_from(format!("Bearer {}", tokens.access_token().expose()))
        .map_err(|_| "the access token has characters a header cannot carry")?;
    value.set_sensitive(true);
    Ok(value)
}

#[cfg(test)]
mod tests {
    use std::convert::Infallible;
    use std::sync::Arc;
    use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
    use std::time::{Duration, SystemTime};

    use bytes::Bytes;
    use http::header::{AUTHORIZATION, CONTENT_TYPE};
    use http::{HeaderMap, Method, Response, StatusCode, Uri};
    use http_body_util::Full;
    use hyper::server::conn::http1;
    use hyper::service::service_fn;
    use hyper_util::rt::TokioIo;
    use tokio::net::TcpListener;
    use toolport_core::Secret;
    use toolport_http_client::{Authorizer, Refusal, RequestTarget};
    use url::Url;

    use crate::{ClientAuthentication, Grant, GrantAuthorizer};

    const RESOURCE: &str = "http://127.0.0.1:9/mcp";

    /// The test's wall clock, in milliseconds since the epoch: it moves only when the test says.
    static NOW_MILLIS: AtomicU64 = AtomicU64::new(1_700_000_000_000);

    fn test_clock() -> SystemTime {
        SystemTime::UNIX_EPOCH + Duration::from_millis(NOW_MILLIS.load(Ordering::SeqCst))
    }

    fn advance(by: Duration) {
        let millis = u64::try_from(by.as_millis()).unwrap();
        NOW_MILLIS.fetch_add(millis, Ordering::SeqCst);
    }

    /// A token endpoint on 127.0.0.1 that issues `token-1`, `token-2`, ... each for
    /// `expires_in` seconds; its URL, and how many tokens it issued.
    async fn token_endpoint(expires_in: u64) -> (Url, Arc<AtomicUsize>) {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let url = format!("http://{}/token", listener.local_addr().unwrap());
        let issued = Arc::new(AtomicUsize::new(0));
        let counter = Arc::clone(&issued);
        tokio::spawn(async move {
            while let Ok((stream, _)) = listener.accept().await {
                let counter = Arc::clone(&counter);
                let service = service_fn(move |_| {
                    let number = counter.fetch_add(1, Ordering::SeqCst) + 1;
                    let answer = serde_json::json!({
                        "access_token": format!("token-{number}"),
                        "token_type": "Bearer",
                        "expires_in": expires_in,
                    });
                    let response = Response::builder()
                        .header(CONTENT_TYPE, "application/json")
                        .body(Full::new(Bytes::from(answer.to_string())));
                    async move { Ok::<_, Infallible>(response.unwrap()) }
                });
                tokio::spawn(http1::Builder::new().serve_connection(TokioIo::new(stream), service));
            }
        });
        (Url::parse(&url).unwrap(), issued)
    }

    /// The `Authorization` header the authorizer puts on a request now.
    async fn sent(authorizer: &GrantAuthorizer, request: RequestTarget<'_>) -> Option<String> {
        let mut headers = HeaderMap::new();
        authorizer.authorize(request, &mut headers).await.unwrap();
        let sent = headers.get(AUTHORIZATION)?;
        Some(sent.to_str().unwrap().to_owned())
    }

    #[tokio::test]
    async fn a_short_lived_token_is_used_for_half_its_lifetime_then_replaced_before_a_request() {
        let (token_url, issued) = token_endpoint(2).await;
        let client = ClientAuthentication::secret("agent-7", Secret::new("s3cret-value"));
        let mut authorizer = GrantAuthorizer::builder(RESOURCE, Grant::client_credentials(client))
            .token_url(token_url)
            .build()
            .unwrap();
        Arc::get_mut(&mut authorizer.inner)
            .expect("not shared yet")
            .wall_clock = test_clock;
        let (method, uri) = (Method::POST, RESOURCE.parse::<Uri>().unwrap());
        let request = RequestTarget::new(&method, &uri);

        // The first request goes without a token; the server's 401 gets one.
        let mut authorizations = vec![sent(&authorizer, request).await];
        let response_headers = HeaderMap::new();
        let refusal = Refusal::new(StatusCode::UNAUTHORIZED, &response_headers, None, request);
        assert!(
            authorizer.renew(refusal).await.unwrap(),
            "worth sending again"
        );
        authorizations.push(sent(&authorizer, request).await);
        // A 2-second token is replaced a second before it expires: reused until then.
        advance(Duration::from_millis(999));
        authorizations.push(sent(&authorizer, request).await);
        advance(Duration::from_millis(1));
        authorizations.push(sent(&authorizer, request).await);

        assert_eq!(issued.load(Ordering::SeqCst), 2);
        assert_eq!(
            authorizations,
            [
                None,
                Some("Bearer token-1".to_owned()),
                Some("Bearer token-1".to_owned()),
                Some("Bearer token-2".to_owned())
            ]
        );
    }
}
