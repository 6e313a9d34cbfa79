//! [`NotDelivered`]: a marker that a message surely never reached the server.

use std::fmt;

use crate::BoxError;

/// The message was never handed to the server: the connection could not be opened, or the
/// transport was already down. A request failing this way did not run, so it is safe to send
/// again, even a tool call that is neither read-only nor idempotent.
///
/// Transports put this error in the source chain of such failures, with the cause (a refused
/// TCP connect, say) as its own source; the session layer looks for it with
/// [`NotDelivered::find`].
///
/// # Examples
///
/// ```
/// use toolport_core::NotDelivered;
///
/// let refused = std::io::Error::from(std::io::ErrorKind::ConnectionRefused);
/// let error = NotDelivered::because(refused);
/// assert!(NotDelivered::find(&error));
/// assert!(std::error::Error::source(&error).is_some());
/// ```
#[derive(Debug, Default)]
pub struct NotDelivered {
    cause: Option<BoxError>,
}

impl NotDelivered {
    /// A marker with nothing more to say.
    pub fn new() -> Self {
        Self::default()
    }

    /// A marker whose source is `cause`: why the message could not be delivered.
    pub fn because(cause: impl Into<BoxError>) -> Self {
        Self {
            cause: Some(cause.into()),
        }
    }

    /// Whether `error`'s source chain says the message was not delivered.
    pub fn find(error: &(dyn std::error::Error + 'static)) -> bool {
        crate::error_chain::sources(error).any(|error| error.is::<Self>())
    }
}

impl fmt::Display for NotDelivered {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("the message was not delivered")
    }
}

impl std::error::Error for NotDelivered {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        self.cause
            .as_deref()
            .map(|cause| cause as &(dyn std::error::Error + 'static))
    }
}
