//! [`AuthorizationRequired`]: the server refused our credentials (HTTP 401 or 403).

/// The server answered 401 (no valid credentials) or 403 (not enough permission).
///
/// Transports put this error in the source chain of their failures, so the layers above can
/// recognise it without knowing the transport, and authorization can hook in: the challenge
/// is what an OAuth flow starts from.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{} (HTTP {status}){}", if *.status == 403 { "forbidden" } else { "unauthorized" }, challenge_suffix(.challenge))]
#[non_exhaustive]
pub struct AuthorizationRequired {
    /// 401 or 403.
    pub status: u16,
    /// The `WWW-Authenticate` header, when the server sent one.
    pub challenge: Option<String>,
}

fn challenge_suffix(challenge: &Option<String>) -> String {
    match challenge {
        Some(challenge) => format!("; the server asks for: {challenge}"),
        None => String::new(),
    }
}

impl AuthorizationRequired {
    /// A refusal with `status` (401 or 403) and the server's challenge.
    pub fn new(status: u16, challenge: Option<String>) -> Self {
        Self { status, challenge }
    }

    /// Finds an `AuthorizationRequired` in the source chain of `error`.
    pub fn find<'a>(error: &'a (dyn std::error::Error + 'static)) -> Option<&'a Self> {
        crate::error_chain::sources(error).find_map(|error| error.downcast_ref::<Self>())
    }
}
