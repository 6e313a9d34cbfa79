//! [`ServerEvent`] and [`ServerEvents`]: the server notifications a session fans out, as a
//! stream that says when a slow reader missed some; and [`ResourceUpdateCallback`], which hears
//! of every resource update without the stream's bound.

#![expect(
    deprecated,
    reason = "logging is deprecated after 2025-11-25, the version Toolport speaks, which still has it"
)]

use std::fmt;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll, ready};

use futures_util::{Stream, StreamExt};
use rmcp::model::{
    LoggingMessageNotificationParam, ProgressNotificationParam, ResourceUpdatedNotificationParam,
};
use tokio::sync::broadcast;
use tokio_stream::wrappers::BroadcastStream;
use tokio_stream::wrappers::errors::BroadcastStreamRecvError;

/// What happened to a session: a notification from the server, a (re)connection, or the news
/// that this reader fell behind. Every [`ServerEvents`] stream sees each of them.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub enum ServerEvent {
    /// The session's first connection was made.
    Connected,
    /// A new connection replaced one that died (or that the server forgot). Anything cached
    /// from the old connection is stale.
    Reconnected,
    /// `notifications/tools/list_changed`: cached tool lists are stale.
    ToolListChanged,
    /// `notifications/resources/list_changed`.
    ResourceListChanged,
    /// `notifications/prompts/list_changed`.
    PromptListChanged,
    /// `notifications/resources/updated` for one resource.
    ResourceUpdated(ResourceUpdatedNotificationParam),
    /// `notifications/progress` for a request in flight.
    Progress(ProgressNotificationParam),
    /// `notifications/message`: a log line from the server.
    Log(LoggingMessageNotificationParam),
    /// Connecting or a listing failed and is tried again on a fresh connection (for a stdio
    /// server, a fresh process), as the [`RetryPolicy`](crate::RetryPolicy) allows.
    Retrying {
        /// The attempt about to start, from 2.
        attempt: u32,
        /// How many attempts the policy allows in all.
        attempts: u32,
        /// Why the last attempt failed.
        reason: String,
    },
    /// This reader fell so far behind that the session dropped `missed` events for it, oldest
    /// first. Treat anything it caches from events as stale.
    Lagged {
        /// How many events this reader will never see.
        missed: u64,
    },
}

/// The events of one session, from the moment [`McpSession::events`](crate::McpSession::events)
/// was called; a `Stream` of [`ServerEvent`]s. A reader that falls more than 64 events behind
/// gets [`ServerEvent::Lagged`] in place of the events it missed. The stream ends when the
/// session is gone.
#[derive(Debug)]
pub struct ServerEvents {
    inner: BroadcastStream<ServerEvent>,
}

impl ServerEvents {
    pub(crate) fn new(receiver: broadcast::Receiver<ServerEvent>) -> Self {
        Self {
            inner: BroadcastStream::new(receiver),
        }
    }

    /// The next event, or `None` once the session is gone; without importing `StreamExt`.
    pub async fn next(&mut self) -> Option<ServerEvent> {
        StreamExt::next(self).await
    }
}

impl Stream for ServerEvents {
    type Item = ServerEvent;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<ServerEvent>> {
        Poll::Ready(match ready!(Pin::new(&mut self.inner).poll_next(cx)) {
            Some(Ok(event)) => Some(event),
            Some(Err(BroadcastStreamRecvError::Lagged(missed))) => {
                Some(ServerEvent::Lagged { missed })
            }
            None => None,
        })
    }
}

/// What a session runs on each update of a resource it subscribed to
/// ([`SessionBuilder::on_resource_updated`](crate::SessionBuilder::on_resource_updated)), with
/// the resource's URI. Unlike [`ServerEvents`], it never misses one. It runs on the session's
/// notification task, so it should return quickly: hand the URI to a task of your own to read
/// the resource again.
#[derive(Clone)]
pub struct ResourceUpdateCallback(Arc<dyn Fn(&str) + Send + Sync>);

impl ResourceUpdateCallback {
    /// A callback that runs `callback`.
    pub fn new(callback: impl Fn(&str) + Send + Sync + 'static) -> Self {
        Self(Arc::new(callback))
    }

    pub(crate) fn run(&self, uri: &str) {
        (self.0)(uri);
    }
}

impl fmt::Debug for ResourceUpdateCallback {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("ResourceUpdateCallback")
    }
}
