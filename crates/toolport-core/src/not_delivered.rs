//! [`NotDelivered`]: a marker that a message surely never reached the server.

/// The message was never handed to the server: the connection could not be opened, or the
/// transport was already down. A request failing this way did not run, so it is safe to send
/// again, even a tool call that is neither read-only nor idempotent.
///
/// Transports put this error in the source chain of such failures; the session layer looks for
/// it with [`NotDelivered::find`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, thiserror::Error)]
#[error("the message was not delivered")]
pub struct NotDelivered;

impl NotDelivered {
    /// Whether `error`'s source chain says the message was not delivered.
    pub fn find(error: &(dyn std::error::Error + 'static)) -> bool {
        let mut current = Some(error);
        while let Some(error) = current {
            if error.is::<Self>() {
                return true;
            }
            current = error.source();
        }
        false
    }
}
