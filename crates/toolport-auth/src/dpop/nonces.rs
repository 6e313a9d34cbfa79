//! [`Nonces`]: the last nonce each server gave in a `DPoP-Nonce` header, kept by origin, to
//! put in the next proof for it (RFC 9449 §8 and §9).

use std::collections::HashMap;
use std::sync::{Mutex, MutexGuard};

use http::HeaderMap;
use url::Url;

use super::DPOP_NONCE;

/// The nonce of each origin (scheme, host and port) that gave one.
#[derive(Debug, Default)]
pub(crate) struct Nonces {
    by_origin: Mutex<HashMap<String, String>>,
}

impl Nonces {
    /// The nonce `url`'s server gave last.
    pub(crate) fn get(&self, url: &Url) -> Option<String> {
        self.lock().get(&origin(url)).cloned()
    }

    /// Keeps the `DPoP-Nonce` of a response from `url`'s server, and says whether there was
    /// one.
    pub(crate) fn remember(&self, url: &Url, headers: &HeaderMap) -> bool {
        let Some(nonce) = headers
            .get(DPOP_NONCE)
            .and_then(|value| value.to_str().ok())
            .filter(|nonce| !nonce.is_empty())
        else {
            return false;
        };
        self.lock().insert(origin(url), nonce.to_owned());
        true
    }

    /// How many servers gave a nonce: for `Debug`, which shows no nonce.
    pub(crate) fn len(&self) -> usize {
        self.lock().len()
    }

    fn lock(&self) -> MutexGuard<'_, HashMap<String, String>> {
        self.by_origin.lock().unwrap_or_else(|e| e.into_inner())
    }
}

fn origin(url: &Url) -> String {
    url.origin().ascii_serialization()
}
