//! [`DpopKey`]: the ES256 key pair a client proves possession with, made in memory from the
//! operating system's randomness and never written anywhere.

use std::fmt;

use jsonwebtoken::jwk::Jwk;
use jsonwebtoken::{Algorithm, EncodingKey, Header};
use p256::elliptic_curve::Generate;
use p256::pkcs8::EncodePrivateKey;

use super::DpopError;
use super::proof::ProofClaims;

/// The `typ` of a DPoP proof (RFC 9449 §4.2).
const PROOF_TYPE: &str = "dpop+jwt";

/// An ES256 key pair: the private half signs proofs, the public half goes in each proof's
/// `jwk` header. `Debug` shows neither.
pub(crate) struct DpopKey {
    signing: EncodingKey,
    public: Jwk,
}

impl DpopKey {
    /// A new P-256 key pair.
    pub(crate) fn generate() -> Result<Self, DpopError> {
        let secret = p256::SecretKey::try_generate()
            .map_err(|error| DpopError::KeyGeneration(error.to_string()))?;
        let der = secret
            .to_pkcs8_der()
            .map_err(|error| DpopError::KeyGeneration(error.to_string()))?;
        let signing = EncodingKey::from_ec_der(der.as_bytes());
        let public = Jwk::from_encoding_key(&signing, Algorithm::ES256)
            .map_err(|error| DpopError::KeyGeneration(error.to_string()))?;
        Ok(Self { signing, public })
    }

    /// `claims` signed as a DPoP proof: `typ` `dpop+jwt`, `alg` ES256, the public key as `jwk`.
    pub(crate) fn sign(&self, claims: &ProofClaims<'_>) -> Result<String, DpopError> {
        let mut header = Header::new(Algorithm::ES256);
        header.typ = Some(PROOF_TYPE.to_owned());
        header.jwk = Some(self.public.clone());
        jsonwebtoken::encode(&header, claims, &self.signing)
            .map_err(|error| DpopError::Signing(error.to_string()))
    }
}

impl fmt::Debug for DpopKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("DpopKey")
            .field("algorithm", &Algorithm::ES256)
            .finish_non_exhaustive()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn debug_shows_no_key_material() {
        let key = DpopKey::generate().unwrap();
        let shown = format!("{key:?}");
        assert_eq!(shown, "DpopKey { algorithm: ES256, .. }");
        let public = serde_json::to_value(&key.public).unwrap();
        assert!(public.get("d").is_none(), "the JWK is the public half only");
        assert!(!shown.contains(public["x"].as_str().unwrap()));
    }

    #[test]
    fn each_key_is_new() {
        let (one, two) = (DpopKey::generate().unwrap(), DpopKey::generate().unwrap());
        assert_ne!(one.public, two.public);
    }
}
