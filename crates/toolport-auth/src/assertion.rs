//! [`AssertionKey`]: a private key that signs JWT client assertions (RFC 7523, OAuth's
//! `private_key_jwt`), so a client proves who it is without a shared secret.

use std::fmt;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use jsonwebtoken::{Algorithm, EncodingKey, Header};
use serde::Serialize;
use toolport_core::Secret;

/// How long an assertion is valid: long enough for one token request.
const LIFETIME: Duration = Duration::from_secs(300);

/// The `client_assertion_type` of a JWT assertion (RFC 7523 §2.2).
pub(crate) const JWT_BEARER_ASSERTION_TYPE: &str =
    "urn:ietf:params:oauth:client-assertion-type:jwt-bearer";

/// A private key that signs client assertions: `iss` and `sub` the client ID, `aud` the
/// authorization server's issuer, a unique `jti`, and five minutes of validity. `Debug` shows
/// the algorithm and key ID, never the key.
///
/// # Examples
///
/// ```
/// use toolport_auth::AssertionKey;
///
/// let error = AssertionKey::from_pem(b"not a key", "ES256").unwrap_err();
/// assert!(error.to_string().contains("ES256"));
/// assert!(AssertionKey::from_pem(b"", "none").is_err());
/// ```
#[derive(Clone)]
pub struct AssertionKey {
    key: EncodingKey,
    algorithm: Algorithm,
    key_id: Option<String>,
}

/// The claims of a client assertion (RFC 7523 §3).
#[derive(Serialize)]
struct AssertionClaims<'a> {
    iss: &'a str,
    sub: &'a str,
    aud: &'a str,
    jti: String,
    iat: u64,
    exp: u64,
}

/// A key that cannot sign assertions. Never shows the key.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum AssertionKeyError {
    /// The algorithm is not one a client may sign assertions with.
    #[error(
        "`{0}` is not an assertion algorithm (ES256, ES384, RS256, RS384, RS512, PS256, PS384, PS512, EdDSA)"
    )]
    UnsupportedAlgorithm(String),
    /// The PEM does not hold a private key of the algorithm's kind.
    #[error("the PEM holds no {algorithm} private key: {reason}")]
    InvalidKey {
        /// The algorithm asked for.
        algorithm: String,
        /// Why the key was refused.
        reason: String,
    },
    /// Signing failed.
    #[error("could not sign the assertion: {0}")]
    Signing(String),
}

impl AssertionKey {
    /// The PEM private key `pem` (PKCS#8 for EC and Ed25519, PKCS#1 or PKCS#8 for RSA), to sign
    /// with `algorithm` (`ES256`, `RS256`, `EdDSA`, ...).
    ///
    /// # Errors
    ///
    /// [`AssertionKeyError`] when the algorithm is not asymmetric or the key does not fit it.
    pub fn from_pem(pem: &[u8], algorithm: &str) -> Result<Self, AssertionKeyError> {
        let parsed: Algorithm = algorithm
            .parse()
            .map_err(|_| AssertionKeyError::UnsupportedAlgorithm(algorithm.to_owned()))?;
        let key = match parsed {
            Algorithm::ES256 | Algorithm::ES384 => EncodingKey::from_ec_pem(pem),
            Algorithm::RS256
            | Algorithm::RS384
            | Algorithm::RS512
            | Algorithm::PS256
            | Algorithm::PS384
            | Algorithm::PS512 => EncodingKey::from_rsa_pem(pem),
            Algorithm::EdDSA => EncodingKey::from_ed_pem(pem),
            _ => {
                return Err(AssertionKeyError::UnsupportedAlgorithm(
                    algorithm.to_owned(),
                ));
            }
        }
        .map_err(|error| AssertionKeyError::InvalidKey {
            algorithm: algorithm.to_owned(),
            reason: error.to_string(),
        })?;
        Ok(Self {
            key,
            algorithm: parsed,
            key_id: None,
        })
    }

    /// Names the key in each assertion's `kid` header, for a server that holds several.
    #[must_use]
    pub fn key_id(mut self, key_id: impl Into<String>) -> Self {
        self.key_id = Some(key_id.into());
        self
    }

    /// A signed assertion that `client_id` is the client, for the authorization server whose
    /// issuer is `audience`.
    pub(crate) fn assertion(
        &self,
        client_id: &str,
        audience: &str,
    ) -> Result<Secret, AssertionKeyError> {
        let now = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .unwrap_or_default()
            .as_secs();
        let claims = AssertionClaims {
            iss: client_id,
            sub: client_id,
            aud: audience,
            jti: oauth2::CsrfToken::new_random().into_secret(),
            iat: now,
            exp: now + LIFETIME.as_secs(),
        };
        let mut header = Header::new(self.algorithm);
        header.kid.clone_from(&self.key_id);
        jsonwebtoken::encode(&header, &claims, &self.key)
            .map(Secret::new)
            .map_err(|error| AssertionKeyError::Signing(error.to_string()))
    }
}

impl fmt::Debug for AssertionKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("AssertionKey")
            .field("algorithm", &self.algorithm)
            .field("key_id", &self.key_id)
            .finish_non_exhaustive()
    }
}
