//! Reading a DPoP proof as a server does: verified with the public key in its own header.

use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use jsonwebtoken::jwk::ThumbprintHash;
use jsonwebtoken::{Algorithm, DecodingKey, Header, Validation};
use serde_json::Value;
use sha2::{Digest, Sha256};

/// A proof whose signature verifies with the `jwk` of its header.
#[derive(Debug, Clone)]
pub struct Proof {
    /// Its header.
    pub header: Header,
    /// Its claims.
    pub claims: Value,
    /// The RFC 7638 thumbprint of its key: what a token is bound to (`cnf.jkt`).
    pub thumbprint: String,
}

impl Proof {
    /// A claim as a string.
    pub fn claim(&self, name: &str) -> Option<&str> {
        self.claims.get(name).and_then(Value::as_str)
    }
}

/// Verifies `proof` with the key in its header, and checks its `typ`; why it fails otherwise.
pub fn verify(proof: &str) -> Result<Proof, String> {
    let header = jsonwebtoken::decode_header(proof).map_err(|e| format!("header: {e}"))?;
    if header.typ.as_deref() != Some("dpop+jwt") {
        return Err(format!("typ {:?}", header.typ));
    }
    let jwk = header.jwk.clone().ok_or("no jwk")?;
    let key = DecodingKey::from_jwk(&jwk).map_err(|e| format!("jwk: {e}"))?;
    let mut validation = Validation::new(Algorithm::ES256);
    validation.required_spec_claims.clear();
    validation.validate_exp = false;
    validation.validate_aud = false;
    let claims = jsonwebtoken::decode::<Value>(proof, &key, &validation)
        .map_err(|e| format!("signature: {e}"))?
        .claims;
    let thumbprint = jwk
        .thumbprint(ThumbprintHash::SHA256)
        .map_err(|e| format!("thumbprint: {e}"))?;
    Ok(Proof {
        header,
        claims,
        thumbprint,
    })
}

/// `ath`: the base64url SHA-256 of an access token.
pub fn token_hash(token: &str) -> String {
    URL_SAFE_NO_PAD.encode(Sha256::digest(token.as_bytes()))
}
