//! [`DpopSigner`]: what an OAuth authorizer's clones share for DPoP: the mode, the key (made
//! on first use), and the servers' nonces. It signs the proof of each request, and reads a
//! resource server's nonce challenge.

use std::fmt;
use std::sync::{Arc, Mutex};

use http::header::WWW_AUTHENTICATE;
use http::{HeaderMap, HeaderValue, Method, StatusCode, Uri};
use toolport_core::Secret;
use toolport_http_client::Refusal;
use url::Url;

use super::key::DpopKey;
use super::nonces::Nonces;
use super::proof::ProofClaims;
use super::{DpopError, DpopMode, USE_DPOP_NONCE};
use crate::{AuthorizationServerMetadata, Challenge};

/// The DPoP side of one authorizer. Its key lives as long as the authorizer, in memory only,
/// so tokens bound to it are usable by this authorizer and its clones alone.
pub(crate) struct DpopSigner {
    mode: DpopMode,
    key: Mutex<Option<Arc<DpopKey>>>,
    nonces: Nonces,
}

impl DpopSigner {
    /// A signer in `mode`, with no key yet.
    pub(crate) fn new(mode: DpopMode) -> Self {
        Self {
            mode,
            key: Mutex::new(None),
            nonces: Nonces::default(),
        }
    }

    /// Whether to ask `server` for DPoP-bound tokens; see [`DpopMode`].
    pub(crate) fn wanted(
        &self,
        server: &AuthorizationServerMetadata,
        resource_requires: bool,
    ) -> bool {
        self.mode.wanted(server, resource_requires)
    }

    /// A proof for `method uri`, with the nonce `uri`'s server gave last, and bound to
    /// `access_token` when the request presents one. The value is marked sensitive.
    pub(crate) fn proof(
        &self,
        method: &Method,
        uri: &Uri,
        access_token: Option<&Secret>,
    ) -> Result<HeaderValue, DpopError> {
        let url = url_of(uri).ok_or(DpopError::Url)?;
        let nonce = self.nonces.get(&url);
        let claims = ProofClaims::new(method.as_str(), &url, nonce.as_deref(), access_token);
        let proof = self.key()?.sign(&claims)?;
        let mut value = HeaderValue::try_from(proof).map_err(|_| DpopError::Url)?;
        value.set_sensitive(true);
        Ok(value)
    }

    /// Keeps the `DPoP-Nonce` of a response from `uri`'s server; whether it had one.
    pub(crate) fn remember_nonce(&self, uri: &Uri, headers: &HeaderMap) -> bool {
        url_of(uri).is_some_and(|url| self.nonces.remember(&url, headers))
    }

    /// Whether `refusal` is a resource server asking for its nonce (RFC 9449 §9): a 401 whose
    /// `DPoP` challenge has `error="use_dpop_nonce"`, with a `DPoP-Nonce`. The nonce is kept,
    /// so the request is worth sending again.
    pub(crate) fn nonce_challenge(&self, refusal: &Refusal<'_>) -> bool {
        let asks_nonce = refusal.status == StatusCode::UNAUTHORIZED
            && refusal
                .headers
                .get_all(WWW_AUTHENTICATE)
                .iter()
                .filter_map(|value| value.to_str().ok())
                .flat_map(Challenge::parse_all)
                .any(|challenge| {
                    challenge.is_scheme("DPoP") && challenge.param("error") == Some(USE_DPOP_NONCE)
                });
        let kept = asks_nonce && self.remember_nonce(refusal.request.uri, refusal.headers);
        if kept {
            tracing::debug!("the server asked for a DPoP nonce; sending the request again");
        }
        kept
    }

    /// The key, made on first use.
    fn key(&self) -> Result<Arc<DpopKey>, DpopError> {
        let mut key = self.key.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(key) = &*key {
            return Ok(key.clone());
        }
        let made = Arc::new(DpopKey::generate()?);
        *key = Some(made.clone());
        Ok(made)
    }
}

/// The URL of a request's target, for a proof's `htu` and a nonce's origin.
fn url_of(uri: &Uri) -> Option<Url> {
    Url::parse(&uri.to_string()).ok()
}

impl fmt::Debug for DpopSigner {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let has_key = self.key.lock().map(|key| key.is_some()).unwrap_or(true);
        f.debug_struct("DpopSigner")
            .field("mode", &self.mode)
            .field("has_key", &has_key)
            .field("nonces", &self.nonces.len())
            .finish()
    }
}
