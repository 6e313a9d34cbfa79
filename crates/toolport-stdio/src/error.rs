//! [`StdioError`]: what can go wrong while sending a message to a child process, or over a
//! [`StreamTransport`](crate::StreamTransport).

/// A message could not be sent to the server: to its stdin, or over the stream of a
/// [`StreamTransport`](crate::StreamTransport).
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum StdioError {
    /// The transport was closed, so the server's stdin (or the stream) is gone.
    #[error("the transport to the server is closed")]
    Closed,
    /// The message could not be serialized as JSON.
    #[error("could not encode a message for the server: {source}")]
    Encode {
        /// The serializer's complaint.
        #[source]
        source: serde_json::Error,
    },
    /// Writing to the server's stdin (or the stream) failed, usually because the server
    /// exited or hung up.
    #[error("could not write to the server: {source}")]
    Write {
        /// The operating system's error.
        #[source]
        source: std::io::Error,
    },
}
