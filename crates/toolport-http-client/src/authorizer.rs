//! [`Authorizer`]: credentials that are obtained, renewed and proved per request, such as an
//! OAuth client's, and the one renewal a refused request gets.

use std::fmt;
use std::sync::Arc;

use http::{HeaderMap, HeaderValue, Method, StatusCode, Uri};
use toolport_core::BoxError;

/// Authorizes every request a transport sends, and renews its credentials when the server
/// refuses one. `toolport-auth`'s OAuth client is one; the seam is open to any scheme that needs
/// more than a header from a [`TokenSource`](crate::TokenSource).
///
/// Transports call [`authorize`](Self::authorize) for each request, after the static headers
/// and the credential. When the server answers 401 or 403, they call [`renew`](Self::renew);
/// if it returns `true`, the request is authorized again and sent once more. A second refusal
/// goes to the caller as [`HttpError::Unauthorized`](crate::HttpError::Unauthorized), unless it
/// carries a `DPoP-Nonce`: a server may ask the proof of a token it just issued for its nonce
/// (RFC 9449 §9), so that refusal gets one more renewal.
///
/// Implementations serialize their own renewals: several requests refused together should
/// lead to one authorization, the others seeing (through [`Refusal::sent`]) that the
/// credential they carried is already replaced.
#[async_trait::async_trait]
pub trait Authorizer: Send + Sync + fmt::Debug {
    /// Adds the headers that authorize `request` (`Authorization`, and `DPoP` for a proof of
    /// possession) to `headers`, replacing any of the same name. With no credential yet, adds
    /// nothing: the server's refusal will say how to get one. May refresh a credential about to
    /// expire first.
    async fn authorize(
        &self,
        request: RequestTarget<'_>,
        headers: &mut HeaderMap,
    ) -> Result<(), BoxError>;

    /// The server refused a request with 401 or 403. Returns `true` when the credentials
    /// changed and the request is worth sending again (a new token, a refreshed one, a wider
    /// scope, a server nonce to prove with), `false` to let the refusal stand.
    async fn renew(&self, refusal: Refusal<'_>) -> Result<bool, BoxError>;
}

/// An authorizer shared with other code (to read its state, or to use it for several servers).
#[async_trait::async_trait]
impl<A: Authorizer + ?Sized> Authorizer for Arc<A> {
    async fn authorize(
        &self,
        request: RequestTarget<'_>,
        headers: &mut HeaderMap,
    ) -> Result<(), BoxError> {
        (**self).authorize(request, headers).await
    }

    async fn renew(&self, refusal: Refusal<'_>) -> Result<bool, BoxError> {
        (**self).renew(refusal).await
    }
}

/// The request being authorized: what a proof of possession signs (DPoP's `htm` and `htu`).
#[derive(Debug, Clone, Copy)]
#[non_exhaustive]
pub struct RequestTarget<'a> {
    /// The HTTP method.
    pub method: &'a Method,
    /// The full URL.
    pub uri: &'a Uri,
}

impl<'a> RequestTarget<'a> {
    /// The request `method uri`.
    pub fn new(method: &'a Method, uri: &'a Uri) -> Self {
        Self { method, uri }
    }
}

/// A server's refusal of an authorized request. `Debug` shows no header value.
#[derive(Clone, Copy)]
#[non_exhaustive]
pub struct Refusal<'a> {
    /// 401 or 403.
    pub status: StatusCode,
    /// The response's headers: `WWW-Authenticate`, `DPoP-Nonce`.
    pub headers: &'a HeaderMap,
    /// The `Authorization` header the refused request carried, if any: an authorizer compares
    /// it with its current credential to tell a stale refusal from a fresh one.
    pub sent: Option<&'a HeaderValue>,
    /// The request that was refused.
    pub request: RequestTarget<'a>,
}

impl<'a> Refusal<'a> {
    /// The refusal of `request`, which carried `sent` as its `Authorization`, with `status`
    /// and the response's `headers`: what a transport hands an authorizer, and what a test of
    /// one builds.
    pub fn new(
        status: StatusCode,
        headers: &'a HeaderMap,
        sent: Option<&'a HeaderValue>,
        request: RequestTarget<'a>,
    ) -> Self {
        Self {
            status,
            headers,
            sent,
            request,
        }
    }
}

impl fmt::Debug for Refusal<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Refusal")
            .field("status", &self.status)
            .field("request", &self.request)
            .finish_non_exhaustive()
    }
}
