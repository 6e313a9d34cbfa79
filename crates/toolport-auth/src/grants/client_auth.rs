//! [`ClientAuthentication`]: how a client proves who it is at a token endpoint, without a
//! user: nothing but its ID, a secret, or a signed assertion.

use std::fmt;

use toolport_core::Secret;

use super::token_request::TokenRequest;
use crate::assertion::JWT_BEARER_ASSERTION_TYPE;
use crate::oauth::identity::TokenAuthMethod;
use crate::{AssertionKey, AuthorizationError};

/// A client ID and how the client authenticates with it at a token endpoint. `Debug` shows
/// the client ID and the method, never the secret or the key.
///
/// # Examples
///
/// ```
/// use toolport_auth::ClientAuthentication;
/// use toolport_core::Secret;
///
/// let client = ClientAuthentication::secret("my-agent", Secret::new("s3cret"));
/// assert_eq!(client.client_id(), "my-agent");
/// assert!(!format!("{client:?}").contains("s3cret"));
/// ```
#[derive(Clone)]
pub struct ClientAuthentication {
    client_id: String,
    proof: Proof,
}

/// What the client presents besides its ID.
#[derive(Clone)]
enum Proof {
    /// Nothing (`none`): a public client.
    Nothing,
    /// A client secret.
    Secret(Secret),
    /// A key that signs client assertions.
    PrivateKey(AssertionKey),
}

impl ClientAuthentication {
    /// A public client (`none`): its ID goes in the form, and nothing proves it.
    pub fn public(client_id: impl Into<String>) -> Self {
        Self::with(client_id, Proof::Nothing)
    }

    /// A client with a secret: HTTP Basic (`client_secret_basic`), or the form
    /// (`client_secret_post`) when the authorization server's
    /// `token_endpoint_auth_methods_supported` lists that and not Basic.
    pub fn secret(client_id: impl Into<String>, secret: Secret) -> Self {
        Self::with(client_id, Proof::Secret(secret))
    }

    /// A client that signs a JWT assertion with `key` for each request (`private_key_jwt`,
    /// RFC 7523 §2.2): `iss` and `sub` the client ID, `aud` the authorization server's issuer.
    pub fn private_key(client_id: impl Into<String>, key: AssertionKey) -> Self {
        Self::with(client_id, Proof::PrivateKey(key))
    }

    fn with(client_id: impl Into<String>, proof: Proof) -> Self {
        Self {
            client_id: client_id.into(),
            proof,
        }
    }

    /// The client ID.
    pub fn client_id(&self) -> &str {
        &self.client_id
    }

    /// Whether the client proves itself with a secret or a key (not a public client).
    pub(crate) fn proves_itself(&self) -> bool {
        !matches!(self.proof, Proof::Nothing)
    }

    /// The method's name (RFC 7591 §2), for `Debug` and traces.
    fn method(&self) -> &'static str {
        match self.proof {
            Proof::Nothing => "none",
            Proof::Secret(_) => "client_secret",
            Proof::PrivateKey(_) => "private_key_jwt",
        }
    }

    /// Authenticates `request` as the server allows: `supported` is its
    /// `token_endpoint_auth_methods_supported` (absent: `client_secret_basic`, RFC 8414 §2),
    /// `audience` what an assertion names as `aud`.
    ///
    /// # Errors
    ///
    /// [`AuthorizationError::ClientAssertion`] when the assertion cannot be signed.
    pub(crate) fn apply(
        &self,
        request: &mut TokenRequest,
        supported: Option<&[String]>,
        audience: &str,
    ) -> Result<(), AuthorizationError> {
        match &self.proof {
            Proof::Nothing => {
                request.param("client_id", &self.client_id);
            }
            Proof::Secret(secret) => {
                if TokenAuthMethod::choose(true, supported) == TokenAuthMethod::Post {
                    request
                        .param("client_id", &self.client_id)
                        .param("client_secret", secret.expose());
                } else {
                    request.basic_auth(&self.client_id, secret);
                }
            }
            Proof::PrivateKey(key) => {
                let assertion = key
                    .assertion(&self.client_id, audience)
                    .map_err(AuthorizationError::ClientAssertion)?;
                request
                    .param("client_id", &self.client_id)
                    .param("client_assertion_type", JWT_BEARER_ASSERTION_TYPE)
                    .param("client_assertion", assertion.expose());
            }
        }
        Ok(())
    }
}

impl fmt::Debug for ClientAuthentication {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ClientAuthentication")
            .field("client_id", &self.client_id)
            .field("method", &self.method())
            .finish()
    }
}
