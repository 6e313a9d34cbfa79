//! [`Credential`]: a bearer token or API key, asked of its [`TokenSource`] on every request.

use std::fmt;
use std::sync::Arc;

use http::{HeaderName, HeaderValue};

use crate::{HttpError, TokenSource};

/// Where the credential goes, and where it comes from. Its `Debug` output never shows a token.
#[derive(Clone)]
#[non_exhaustive]
pub enum Credential {
    /// `Authorization: Bearer <token>`.
    Bearer(Arc<dyn TokenSource>),
    /// `<header>: <key>`.
    ApiKey {
        /// The header's name, such as `X-API-Key`.
        header: String,
        /// Where the key comes from.
        source: Arc<dyn TokenSource>,
    },
}

impl Credential {
    /// The header name, checked.
    pub(crate) fn header_name(&self) -> Result<HeaderName, HttpError> {
        match self {
            Self::Bearer(_) => Ok(http::header::AUTHORIZATION),
            Self::ApiKey { header, .. } => {
                HeaderName::from_bytes(header.as_bytes()).map_err(|_| HttpError::InvalidHeader {
                    name: header.clone(),
                })
            }
        }
    }

    /// The current value, marked sensitive so it is never logged by hyper.
    pub(crate) async fn value(&self, name: &HeaderName) -> Result<HeaderValue, HttpError> {
        let (source, bearer) = match self {
            Self::Bearer(source) => (source, true),
            Self::ApiKey { source, .. } => (source, false),
        };
        let token = source.token().await.map_err(HttpError::Token)?;
        let text = if bearer {
            let mut text = String::with_capacity(7 + token.expose().len());
            text.push_str("Bearer ");
            text.push_str(token.expose());
            text
        } else {
            token.expose().to_owned()
        };
        let mut value = HeaderValue::try_from(text).map_err(|_| HttpError::InvalidHeader {
            name: name.to_string(),
        })?;
        value.set_sensitive(true);
        Ok(value)
    }
}

impl fmt::Debug for Credential {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Bearer(_) => f.write_str("Bearer(<redacted>)"),
            Self::ApiKey { header, .. } => write!(f, "ApiKey({header}: <redacted>)"),
        }
    }
}
