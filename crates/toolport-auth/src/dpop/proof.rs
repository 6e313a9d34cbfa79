//! What a DPoP proof says (RFC 9449 §4.2): the request it is for (`htm`, and `htu` without
//! query or fragment), when (`iat`), a unique `jti`, the server's `nonce`, and for a resource
//! request the access token it goes with (`ath`).

use std::time::{SystemTime, UNIX_EPOCH};

use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use serde::Serialize;
use sha2::{Digest, Sha256};
use toolport_core::Secret;
use url::Url;

/// The claims of one proof.
#[derive(Debug, Serialize)]
pub(crate) struct ProofClaims<'a> {
    jti: String,
    htm: &'a str,
    htu: String,
    iat: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    nonce: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    ath: Option<String>,
}

impl<'a> ProofClaims<'a> {
    /// The claims of a proof for `method url` made now, with a random `jti`, the server's
    /// `nonce`, and the hash of `access_token` when the request presents one.
    pub(crate) fn new(
        method: &'a str,
        url: &Url,
        nonce: Option<&'a str>,
        access_token: Option<&Secret>,
    ) -> Self {
        Self {
            jti: oauth2::CsrfToken::new_random().into_secret(),
            htm: method,
            htu: target_uri(url),
            iat: SystemTime::now()
                .duration_since(UNIX_EPOCH)
                .unwrap_or_default()
                .as_secs(),
            nonce,
            ath: access_token.map(access_token_hash),
        }
    }
}

/// `htu`: the URL without query, fragment or user info.
fn target_uri(url: &Url) -> String {
    let mut target = url.clone();
    target.set_query(None);
    target.set_fragment(None);
    // Only a URL that cannot be a base refuses these, and such a URL has no user info.
    let _ = target.set_username("");
    let _ = target.set_password(None);
    target.into()
}

/// `ath`: the base64url SHA-256 of the access token (RFC 9449 §4.2).
fn access_token_hash(access_token: &Secret) -> String {
    URL_SAFE_NO_PAD.encode(Sha256::digest(access_token.expose().as_bytes()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn htu_leaves_out_query_fragment_and_user_info() {
        let url = Url::parse("https://user:pw@MCP.example.com:443/mcp?session=1#top").unwrap();
        assert_eq!(target_uri(&url), "https://mcp.example.com/mcp");
    }

    #[test]
    fn ath_is_the_rfc_9449_example() {
        // RFC 9449 §7.1: the access token of the example and its `ath`.
        let token = Secret::new("Kz~8mXK1EalYznwH-LC-1fBAo.4Ljp~zsPE_NeO.gxU");
        assert_eq!(
            access_token_hash(&token),
            "fUHyO2r2Z3DZ53EsNrWBb0xWXoaNy59IiKCAqksmQEo"
        );
    }
}
