//! DPoP (RFC 9449), the client side: the key the OAuth client proves possession with, the
//! proofs it signs for token and resource requests, the nonces servers hand out, and when the
//! client uses DPoP at all.

mod error;
mod key;
mod mode;
mod nonces;
mod proof;
mod signer;

use http::HeaderName;

pub(crate) use error::DpopError;
pub use mode::DpopMode;
pub(crate) use signer::DpopSigner;

/// The request header that carries a proof.
pub(crate) const DPOP: HeaderName = HeaderName::from_static("dpop");
/// The response header in which a server hands out the nonce its proofs must carry.
pub(crate) const DPOP_NONCE: HeaderName = HeaderName::from_static("dpop-nonce");
/// The `error` a server answers when a proof lacks its nonce, or carries an old one.
pub(crate) const USE_DPOP_NONCE: &str = "use_dpop_nonce";
