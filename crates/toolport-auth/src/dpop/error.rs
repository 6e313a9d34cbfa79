//! [`DpopError`]: a DPoP proof that could not be made. Never quotes a key or a token.

/// A DPoP proof could not be made.
#[derive(Debug, thiserror::Error)]
pub(crate) enum DpopError {
    /// The operating system gave no randomness for the key.
    #[error("could not make a DPoP key: {0}")]
    KeyGeneration(String),
    /// Signing the proof failed.
    #[error("could not sign the DPoP proof: {0}")]
    Signing(String),
    /// The request's URL is not one a proof can name.
    #[error("the request URL cannot go in a DPoP proof")]
    Url,
}
