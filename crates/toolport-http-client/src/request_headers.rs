//! [`RequestHeaders`]: static headers, the credential and the provider's headers, assembled per
//! request for the caller it is made for.

use std::fmt;
use std::sync::Arc;

use http::{HeaderMap, HeaderName, HeaderValue};
use toolport_core::{ConnectError, ReadonlyContext};

use crate::{Credential, HeaderProvider, HttpError, HttpOptions};

/// The headers an [`HttpOptions`] asks for, ready to apply to each request. For transport
/// authors; cheap to clone.
///
/// Static headers are checked and converted once, when this is built; a name given several
/// times is sent several times. The credential and the provider are asked on every
/// [`apply`](Self::apply). Every value is marked sensitive.
#[derive(Clone)]
pub struct RequestHeaders {
    inner: Arc<Inner>,
}

struct Inner {
    fixed: HeaderMap,
    credential: Option<(HeaderName, Credential)>,
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
                provider: options.header_provider.clone(),
            }),
        })
    }

    /// Adds the headers for one request made on behalf of `context` to `headers`: static headers
    /// first (replacing same-named ones already there, every value of a repeated name kept),
    /// then the credential, then the provider's (each replacing same-named ones before it).
    pub async fn apply(
        &self,
        context: Option<&ReadonlyContext>,
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
            .field("header_provider", &self.inner.provider.is_some())
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_repeated_static_header_sends_every_value_in_order() {
        let options = HttpOptions::new()
            .header("X-A", "1")
            .header("X-B", "b")
            .header("X-A", "2");
        let headers = RequestHeaders::new(&options).unwrap();
        let mut map = HeaderMap::new();
        map.insert("x-a", HeaderValue::from_static("stale"));
        headers.apply(None, &mut map).await.unwrap();
        let values: Vec<&str> = map
            .get_all("x-a")
            .iter()
            .map(|v| v.to_str().unwrap())
            .collect();
        assert_eq!(values, ["1", "2"]);
        assert_eq!(map["x-b"], "b");
    }
}
