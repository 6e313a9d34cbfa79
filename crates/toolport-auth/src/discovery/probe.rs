//! Trying candidate metadata URLs in order until one answers with a document.

use serde::de::DeserializeOwned;
use toolport_http_client::toolkit::redacted_url;
use url::Url;

use super::{DiscoveryError, MetadataFetcher};
use crate::EndpointPolicy;

/// `GET`s each candidate in order and returns the first successful answer, parsed, with the
/// URL it came from. A candidate `policy` refuses ends the search before it is requested. A
/// client error (4xx, such as 404) moves on to the next candidate; any other failure ends the
/// search at once, since a later candidate would not make it right.
pub(super) async fn first_document<T: DeserializeOwned>(
    fetcher: &dyn MetadataFetcher,
    policy: &EndpointPolicy,
    candidates: &[Url],
) -> Result<(Url, T), DiscoveryError> {
    let mut tried = Vec::new();
    for url in candidates {
        policy.check(url)?;
        let shown = redacted_url(url);
        let response = fetcher
            .get(url)
            .await
            .map_err(|source| DiscoveryError::Fetch {
                url: shown.clone(),
                source,
            })?;
        tracing::debug!(url = %shown, status = response.status, "authorization metadata request");
        match response.status {
            200..=299 => {
                let document = serde_json::from_slice(&response.body).map_err(|error| {
                    DiscoveryError::Invalid {
                        url: shown,
                        problem: error.to_string(),
                    }
                })?;
                return Ok((url.clone(), document));
            }
            400..=499 => tried.push((shown, response.status)),
            status => return Err(DiscoveryError::Status { url: shown, status }),
        }
    }
    Err(DiscoveryError::NotFound { tried })
}

/// `url` with the given path and no query, fragment or user info: the origin plus `path`.
pub(super) fn at_path(url: &Url, path: &str) -> Url {
    let mut url = url.clone();
    url.set_path(path);
    url.set_query(None);
    url.set_fragment(None);
    // Cannot fail for http and https URLs, the only ones discovery builds on.
    let _ = url.set_username("");
    let _ = url.set_password(None);
    url
}

/// Whether `url` is `http` or `https` with a host.
pub(super) fn is_web_url(url: &Url) -> bool {
    matches!(url.scheme(), "http" | "https") && url.host_str().is_some_and(|host| !host.is_empty())
}
