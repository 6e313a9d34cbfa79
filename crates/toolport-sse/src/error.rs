//! [`SseError`]: what can go wrong on a legacy HTTP+SSE connection.

use std::time::Duration;

use toolport_core::NotDelivered;
use toolport_http_client::HttpError;

/// A legacy SSE connection failed, or a message could not be sent on it. Messages never
/// contain header values, tokens or the session id.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum SseError {
    /// One HTTP exchange failed; the [`HttpError`] is the source. A 401 or 403 is
    /// [`HttpError::Unauthorized`], so
    /// [`AuthorizationRequired::find`](toolport_core::AuthorizationRequired::find) finds it.
    #[error("{0}")]
    Http(#[from] HttpError),
    /// The server answered the `GET` with something other than an event stream.
    #[error("the server did not answer with an event stream (Content-Type: {content_type:?})")]
    NotEventStream {
        /// The `Content-Type` it sent, if any.
        content_type: Option<String>,
    },
    /// The event stream ended before it named the endpoint to post messages to.
    #[error("the server closed the event stream before sending the `endpoint` event")]
    NoEndpoint,
    /// The endpoint event did not arrive within the connect timeout.
    #[error("no `endpoint` event within {} ms (the connect timeout)", .timeout.as_millis())]
    EndpointTimeout {
        /// The bound that expired.
        timeout: Duration,
    },
    /// The endpoint event's data is not a URL, even relative to the event stream's.
    #[error("the server's `endpoint` event is not a valid URL: {reason}")]
    InvalidEndpoint {
        /// What is wrong with it.
        reason: String,
    },
    /// The endpoint event points at another origin than the event stream's. Messages are
    /// never posted there: a server must not redirect them to a third party.
    #[error(
        "the server's `endpoint` event points at {endpoint_origin}, another origin than the event stream's {stream_origin}; refusing to send messages there"
    )]
    ForeignEndpoint {
        /// The origin (scheme, host, port) of the event stream.
        stream_origin: String,
        /// The origin the endpoint event named.
        endpoint_origin: String,
    },
    /// The event stream has ended, so no answer could arrive: the transport is finished.
    /// Nothing was posted.
    #[error("the event stream has ended: {reason}")]
    Ended {
        /// Why it ended.
        reason: String,
        /// Marks the message as never sent, so the session may resend it.
        #[source]
        not_delivered: NotDelivered,
    },
    /// The server forgot the session: its message endpoint answered 404. The message was
    /// refused, so it did not run; nothing more is posted on this transport, and the session
    /// above starts a new one and sends the message there.
    #[error("the server forgot the session: its message endpoint answered HTTP 404 ({body})")]
    SessionGone {
        /// The start of the refusal's body.
        body: String,
        /// Marks the message as never run, so the session may resend it.
        #[source]
        not_delivered: NotDelivered,
    },
    /// The event stream is reconnecting and did not come back within the connect timeout.
    /// Nothing was posted.
    #[error("the event stream is reconnecting and was not back within {} ms", .timeout.as_millis())]
    Reconnecting {
        /// The bound that expired.
        timeout: Duration,
        /// Marks the message as never sent, so the session may resend it.
        #[source]
        not_delivered: NotDelivered,
    },
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_bounds_are_durations_said_in_milliseconds() {
        let timeout = Duration::from_millis(1_500);
        assert_eq!(
            SseError::EndpointTimeout { timeout }.to_string(),
            "no `endpoint` event within 1500 ms (the connect timeout)"
        );
        let reconnecting = SseError::Reconnecting {
            timeout,
            not_delivered: NotDelivered::new(),
        };
        assert_eq!(
            reconnecting.to_string(),
            "the event stream is reconnecting and was not back within 1500 ms"
        );
    }
}
