//! [`StdioError`]: what can go wrong while sending a message to a child process.

/// A message could not be sent to the server's stdin.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum StdioError {
    /// The transport was closed, so the server's stdin is gone.
    #[error("the server's stdin is closed")]
    Closed,
    /// The message could not be serialized as JSON.
    #[error("could not encode a message for the server: {source}")]
    Encode {
        /// The serializer's complaint.
        #[source]
        source: serde_json::Error,
    },
    /// Writing to the server's stdin failed, usually because the server exited.
    #[error("could not write to the server's stdin: {source}")]
    Write {
        /// The operating system's error.
        #[source]
        source: std::io::Error,
    },
}
