//! [`Secret`]: a string that never shows itself in `Debug` or `Display` output.

use std::fmt;

/// A token, key or password. `Debug` and `Display` print `<redacted>`; only
/// [`expose`](Secret::expose) reveals the value, so it cannot reach a log line by accident.
///
/// # Examples
///
/// ```
/// use toolport_core::Secret;
///
/// let token = Secret::new("sk-live-123");
/// assert_eq!(format!("{token:?}"), "Secret(<redacted>)");
/// assert_eq!(token.expose(), "sk-live-123");
/// ```
#[derive(Clone, PartialEq, Eq)]
pub struct Secret(String);

impl Secret {
    /// Wraps a secret value.
    pub fn new(value: impl Into<String>) -> Self {
        Self(value.into())
    }

    /// The secret value. Call this only where the value leaves for the wire.
    pub fn expose(&self) -> &str {
        &self.0
    }
}

impl From<String> for Secret {
    fn from(value: String) -> Self {
        Self(value)
    }
}

impl From<&str> for Secret {
    fn from(value: &str) -> Self {
        Self(value.to_owned())
    }
}

impl fmt::Debug for Secret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Secret(<redacted>)")
    }
}

impl fmt::Display for Secret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("<redacted>")
    }
}
