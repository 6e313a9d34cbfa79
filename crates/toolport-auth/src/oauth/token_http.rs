//! [`TokenHttp`]: how the token requests go out: on [`OAuthHttp`], with a DPoP proof when the
//! flow asks for DPoP-bound tokens, and once more with the server's nonce when the
//! authorization server answers `use_dpop_nonce` (RFC 9449 §8).

use std::future::Future;
use std::pin::Pin;

use http::StatusCode;
use serde::Deserialize;

use super::transport::{ExchangeError, OAuthHttp};
use crate::dpop::{DPOP, DpopSigner, USE_DPOP_NONCE};

/// `oauth2`'s HTTP client for token requests: [`OAuthHttp`], and DPoP when `dpop` is set.
#[derive(Debug)]
pub(crate) struct TokenHttp<'a> {
    http: &'a OAuthHttp,
    dpop: Option<&'a DpopSigner>,
}

/// The `error` of an OAuth error answer.
#[derive(Deserialize)]
struct ErrorAnswer {
    error: String,
}

impl<'a> TokenHttp<'a> {
    /// Token requests on `http`, each with a proof signed by `dpop` when set.
    pub(crate) fn new(http: &'a OAuthHttp, dpop: Option<&'a DpopSigner>) -> Self {
        Self { http, dpop }
    }

    /// Sends `request`. With DPoP, it carries a proof (with the nonce the server gave last),
    /// the server's new nonce is kept from any answer, and a `400 use_dpop_nonce` that
    /// brings one is answered by sending the request once more with it.
    async fn send(
        &self,
        request: oauth2::HttpRequest,
    ) -> Result<oauth2::HttpResponse, ExchangeError> {
        let Some(dpop) = self.dpop else {
            return self.http.exchange(request).await;
        };
        let uri = request.uri().clone();
        let answer = self
            .http
            .exchange(with_proof(dpop, request.clone())?)
            .await?;
        if !dpop.remember_nonce(&uri, answer.headers()) || !asks_for_nonce(&answer) {
            return Ok(answer);
        }
        tracing::debug!(
            "the authorization server asked for a DPoP nonce; sending the token request again"
        );
        let answer = self.http.exchange(with_proof(dpop, request)?).await?;
        dpop.remember_nonce(&uri, answer.headers());
        Ok(answer)
    }
}

/// `request` with a fresh proof in its `DPoP` header.
fn with_proof(
    dpop: &DpopSigner,
    mut request: oauth2::HttpRequest,
) -> Result<oauth2::HttpRequest, ExchangeError> {
    let proof = dpop.proof(request.method(), request.uri(), None)?;
    request.headers_mut().insert(DPOP, proof);
    Ok(request)
}

/// Whether `answer` is a `400` with the OAuth error `use_dpop_nonce`.
fn asks_for_nonce(answer: &oauth2::HttpResponse) -> bool {
    answer.status() == StatusCode::BAD_REQUEST
        && serde_json::from_slice::<ErrorAnswer>(answer.body())
            .is_ok_and(|answer| answer.error == USE_DPOP_NONCE)
}

/// The exchange of an `oauth2` token request.
type Exchange<'c> =
    Pin<Box<dyn Future<Output = Result<oauth2::HttpResponse, ExchangeError>> + Send + 'c>>;

impl<'c> oauth2::AsyncHttpClient<'c> for TokenHttp<'_> {
    type Error = ExchangeError;
    type Future = Exchange<'c>;

    fn call(&'c self, request: oauth2::HttpRequest) -> Self::Future {
        Box::pin(self.send(request))
    }
}
