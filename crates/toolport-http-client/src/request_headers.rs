//! [`RequestHeaders`]: static headers, the credential, the authorizer's and the provider's
//! headers, assembled per request for the caller it is made for, and the renewal a refused
//! request gets (one more when a server asks a DPoP proof for its nonce).

use std::fmt;
use std::sync::Arc;

use bytes::Bytes;
use http::header::AUTHORIZATION;
use http::{HeaderMap, HeaderName, HeaderValue, Method, Request, Response, StatusCode, Uri};
use http_body_util::Full;
use hyper::body::Incoming;
use toolport_core::{ConnectError, ReadonlyContext};

use crate::{
    Authorizer, Credential, HeaderProvider, HttpClient, HttpError, HttpOptions, Refusal,
    RequestTarget,
};

/// The response header of a server that wants its nonce in the next DPoP proof (RFC 9449).
const DPOP_NONCE: HeaderName = HeaderName::from_static("dpop-nonce");

/// The headers an [`HttpOptions`] asks for, ready to apply to each request. For transport
/// authors; cheap to clone.
///
/// Static headers are checked and converted once, when this is built; a name given several
/// times is sent several times. The credential, the authorizer and the provider are asked on
/// every [`apply`](Self::apply). Every value is marked sensitive.
#[derive(Clone)]
pub struct RequestHeaders {
    inner: Arc<Inner>,
}

struct Inner {
    fixed: HeaderMap,
    credential: Option<(HeaderName, Credential)>,
    authorizer: Option<Arc<dyn Authorizer>>,
    provider: Option<Arc<dyn HeaderProvider>>,
}

impl RequestHeaders {
    /// Checks and converts the headers of `options`. An invalid header name or value is
    /// [`ConnectError::InvalidSettings`], naming the header but never its value.
    pub fn new(options: &HttpOptions) -> Result<Self, ConnectError> {
        let invalid = |name: &str| {
            ConnectError::invalid_settings(format!("invalid HTTP header `{name}` (name or value)"))
        };
        let mut fixed = HeaderMap::with_capacity(options.headers.len());
        for (name, value) in &options.headers {
            let header = HeaderName::from_bytes(name.as_bytes()).map_err(|_| invalid(name))?;
            let mut value = HeaderValue::from_str(value.expose()).map_err(|_| invalid(name))?;
            value.set_sensitive(true);
            fixed.append(header, value);
        }
        let credential = match &options.credential {
            Some(credential) => {
                let name = credential.header_name().map_err(|error| match error {
                    HttpError::InvalidHeader { name } => invalid(&name),
                    other => ConnectError::invalid_settings(other.to_string()),
                })?;
                Some((name, credential.clone()))
            }
            None => None,
        };
        Ok(Self {
            inner: Arc::new(Inner {
                fixed,
                credential,
                authorizer: options.authorizer.clone(),
                provider: options.header_provider.clone(),
            }),
        })
    }

    /// Adds the headers for one request (`method uri`, made on behalf of `context`) to
    /// `headers`: static headers first (replacing same-named ones already there, every value of
    /// a repeated name kept), then the credential, then the authorizer's, then the provider's
    /// (each replacing same-named ones before it).
    pub async fn apply(
        &self,
        context: Option<&ReadonlyContext>,
        method: &Method,
        uri: &Uri,
        headers: &mut HeaderMap,
    ) -> Result<(), HttpError> {
        let inner = &*self.inner;
        for name in inner.fixed.keys() {
            headers.remove(name);
        }
        for (name, value) in &inner.fixed {
            headers.append(name, value.clone());
        }
        if let Some((name, credential)) = &inner.credential {
            let value = credential.value(name).await?;
            headers.insert(name.clone(), value);
        }
        if let Some(authorizer) = &inner.authorizer {
            authorizer
                .authorize(RequestTarget::new(method, uri), headers)
                .await
                .map_err(HttpError::Authorization)?;
        }
        if let Some(provider) = &inner.provider {
            let provided = provider
                .headers(context)
                .await
                .map_err(HttpError::HeaderProvider)?;
            for (name, value) in provided {
                let header = HeaderName::from_bytes(name.as_bytes())
                    .map_err(|_| HttpError::InvalidHeader { name: name.clone() })?;
                let mut value = HeaderValue::from_str(value.expose())
                    .map_err(|_| HttpError::InvalidHeader { name })?;
                value.set_sensitive(true);
                headers.insert(header, value);
            }
        }
        Ok(())
    }

    /// Sends `request` (its headers [applied](Self::apply)) with `http`. When the server refuses
    /// it with 401 or 403 and the authorizer renews its credentials, the request is authorized
    /// again and sent once more. When that is refused too and the refusal carries a
    /// `DPoP-Nonce` (a server asking the new proof for its nonce, RFC 9449 §9), the authorizer
    /// gets one more renewal. The answer returned may still be a refusal: the transport turns
    /// it into [`HttpError::Unauthorized`] as it would without an authorizer.
    ///
    /// # Errors
    ///
    /// As [`HttpClient::send`], and [`HttpError::Authorization`] when the renewal fails.
    pub async fn send(
        &self,
        http: &HttpClient,
        request: Request<Full<Bytes>>,
    ) -> Result<Response<Incoming>, HttpError> {
        let Some(authorizer) = &self.inner.authorizer else {
            return http.send(request).await;
        };
        let mut request = request;
        let mut renewals = 0;
        loop {
            let mut again = request.clone();
            let sent = request.headers().get(AUTHORIZATION).cloned();
            let response = http.send(request).await?;
            let status = response.status();
            let refused = status == StatusCode::UNAUTHORIZED || status == StatusCode::FORBIDDEN;
            if !refused || !may_renew(renewals, response.headers()) {
                return Ok(response);
            }
            let (method, uri) = (again.method().clone(), again.uri().clone());
            let target = RequestTarget::new(&method, &uri);
            let refusal = Refusal::new(status, response.headers(), sent.as_ref(), target);
            if !authorizer
                .renew(refusal)
                .await
                .map_err(HttpError::Authorization)?
            {
                return Ok(response);
            }
            renewals += 1;
            tracing::debug!(status = status.as_u16(), %method, "credentials renewed; sending the refused request again");
            authorizer
                .authorize(target, again.headers_mut())
                .await
                .map_err(HttpError::Authorization)?;
            request = again;
        }
    }
}

/// Whether a refused request, renewed `renewals` times already, gets another renewal: the
/// first always, a second only when the refusal carries a `DPoP-Nonce`.
fn may_renew(renewals: u32, refusal: &HeaderMap) -> bool {
    match renewals {
        0 => true,
        1 => refusal.contains_key(DPOP_NONCE),
        _ => false,
    }
}

impl fmt::Debug for RequestHeaders {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names: Vec<&str> = self.inner.fixed.keys().map(HeaderName::as_str).collect();
        f.debug_struct("RequestHeaders")
            .field("static_names", &names)
            .field(
                "credential",
                &self.inner.credential.as_ref().map(|(_, c)| c),
            )
            .field("authorizer", &self.inner.authorizer)
            .field("header_provider", &self.inner.provider.is_some())
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::WithHttpOptions;

    #[tokio::test]
    async fn a_repeated_static_header_sends_every_value_in_order() {
        let options = HttpOptions::new()
            .header("X-A", "1")
            .header("X-B", "b")
            .header("X-A", "2");
        let headers = RequestHeaders::new(&options).unwrap();
        let mut map = HeaderMap::new();
        map.insert("x-a", HeaderValue::from_static("stale"));
        let uri = Uri::from_static("http://127.0.0.1/mcp");
        headers
            .apply(None, &Method::POST, &uri, &mut map)
            .await
            .unwrap();
        let values: Vec<&str> = map
            .get_all("x-a")
            .iter()
            .map(|v| v.to_str().unwrap())
            .collect();
        assert_eq!(values, ["1", "2"]);
        assert_eq!(map["x-b"], "b");
    }
}
