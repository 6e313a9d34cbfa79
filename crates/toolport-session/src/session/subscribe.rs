//! Resource subscriptions, and the changes a session follows on each connection: on 2025-11-25
//! a `resources/subscribe` for each resource; on 2026-07-28 one `subscriptions/listen` request
//! for the resources and every list change the server announces. The URIs outlive the
//! connection, so each new connection (a reconnect, a restart) subscribes again.

#![expect(
    deprecated,
    reason = "resources/subscribe is how a 2025-11-25 server takes subscriptions"
)]

use std::collections::BTreeSet;
use std::sync::{Arc, MutexGuard};
use std::time::Duration;

use rmcp::model::{
    ClientRequest, ServerCapabilities, ServerResult, SubscribeRequest, SubscribeRequestParams,
    SubscriptionFilter, UnsubscribeRequest, UnsubscribeRequestParams,
};

use super::McpSession;
use crate::connection::LiveConnection;
use crate::method::Method;
use crate::{SessionError, listen};

/// How long after it is made a 2026-07-28 connection without resource subscriptions starts
/// listening for changes.
const LISTEN_DELAY: Duration = Duration::from_millis(250);

impl McpSession {
    /// Subscribes to updates of the resource at `uri`: from now on, and on every later
    /// connection of the session, the server's `notifications/resources/updated` for it reach
    /// the [`on_resource_updated`](crate::SessionBuilder::on_resource_updated) callback and the
    /// [`events`](Self::events). Connects first if needed. Returns once the server took the
    /// subscription (on 2026-07-28: acknowledged it on `subscriptions/listen`). Subscribing
    /// twice is one subscription.
    ///
    /// # Errors
    ///
    /// [`SessionError::Unsupported`] when the server does not declare resource subscriptions
    /// or does not accept this one, [`SessionError::Rpc`] with the server's own error;
    /// otherwise as [`read_resource`](Self::read_resource). The URI is not kept after an
    /// error.
    pub async fn subscribe_resource(&self, uri: impl Into<String>) -> Result<(), SessionError> {
        let uri = uri.into();
        let connection = self.connection().await?;
        if !takes_subscriptions(&connection.capabilities()) {
            return Err(self.unsupported("resource subscriptions"));
        }
        let added = self.lock_subscriptions().insert(uri.clone());
        let subscribed = if connection.is_modern() {
            match self.listen(&connection).await {
                Ok(acknowledged) if !names(&acknowledged, &uri) => {
                    Err(self.unsupported(&format!("a subscription to {uri}")))
                }
                outcome => outcome.map(drop),
            }
        } else {
            let request = SubscribeRequest::new(SubscribeRequestParams::new(uri.clone()));
            let request = ClientRequest::SubscribeRequest(request);
            self.subscription_request(&connection, "resources/subscribe", request)
                .await
        };
        if subscribed.is_err() && added {
            self.lock_subscriptions().remove(&uri);
            if connection.is_modern() {
                // Back to the filter without it; a failure here changes nothing for the caller.
                let _ = self.listen(&connection).await;
            }
        }
        subscribed
    }

    /// Ends the subscription to `uri`. On a live connection the server is told
    /// (`resources/unsubscribe`, or a `subscriptions/listen` without it); without one, the
    /// next connection simply does not subscribe again. Unsubscribing from a resource not
    /// subscribed to does nothing.
    ///
    /// # Errors
    ///
    /// The server's error for `resources/unsubscribe`, or a failed request; the URI is
    /// forgotten all the same.
    pub async fn unsubscribe_resource(&self, uri: &str) -> Result<(), SessionError> {
        if !self.lock_subscriptions().remove(uri) {
            return Ok(());
        }
        let Some(connection) = self.current_if_alive() else {
            return Ok(());
        };
        if connection.is_modern() {
            return self.listen(&connection).await.map(drop);
        }
        let request = UnsubscribeRequest::new(UnsubscribeRequestParams::new(uri));
        let request = ClientRequest::UnsubscribeRequest(request);
        self.subscription_request(&connection, "resources/unsubscribe", request)
            .await
    }

    /// The URIs of the resources subscribed to, in order.
    pub fn subscribed_resources(&self) -> Vec<String> {
        self.lock_subscriptions().iter().cloned().collect()
    }

    /// Starts following changes on a new connection, in a task of its own so that connecting
    /// waits for nothing more: on 2026-07-28 the listening request, on 2025-11-25 the
    /// subscriptions the session holds. A failure is logged; the connection stays up.
    ///
    /// On 2026-07-28, a connection that holds no resource subscriptions starts listening
    /// [`LISTEN_DELAY`] after it is made, so that a short-lived one (connect, list, close)
    /// sends nothing more; a list asked for before then counts as changed once listening
    /// starts, so no change is missed.
    pub(super) fn follow_changes(&self, connection: &Arc<LiveConnection>) {
        let resources = self.subscribed_resources();
        if connection.is_modern() {
            let wanted = listen::filter(&connection.capabilities(), resources.iter().cloned());
            if wanted == SubscriptionFilter::default() {
                return;
            }
            let delay = if resources.is_empty() {
                LISTEN_DELAY
            } else {
                Duration::ZERO
            };
            // Weak, so that neither a dropped session nor a dropped connection waits for this;
            // a connection that closes ends the wait.
            let session = Arc::downgrade(&self.inner);
            let weak_connection = Arc::downgrade(connection);
            let starting = tokio::spawn(async move {
                tokio::time::sleep(delay).await;
                let (Some(inner), Some(connection)) =
                    (session.upgrade(), weak_connection.upgrade())
                else {
                    return;
                };
                if connection.is_alive() {
                    // Boxed: the request's state is large, and inline it would be copied into
                    // the task of every connection, most of which end before they listen.
                    Box::pin(McpSession { inner }.start_listening(&connection)).await;
                }
            });
            connection.listener.start_later(starting);
            return;
        }
        if resources.is_empty() || !takes_subscriptions(&connection.capabilities()) {
            return;
        }
        let session = self.clone();
        let connection = connection.clone();
        tokio::spawn(async move {
            for uri in resources {
                let request = SubscribeRequest::new(SubscribeRequestParams::new(uri));
                let request = ClientRequest::SubscribeRequest(request);
                if let Err(error) = session
                    .subscription_request(&connection, "resources/subscribe", request)
                    .await
                {
                    tracing::warn!(%error, "cannot subscribe again after reconnecting");
                }
            }
        });
    }

    /// Opens the first listening request of `connection`; once the server acknowledged it,
    /// every list asked for before counts as changed.
    async fn start_listening(&self, connection: &LiveConnection) {
        match self.listen(connection).await {
            Ok(_) if connection.take_listed() => self.inner.hub.publish_lists_stale(),
            Ok(_) => {}
            Err(error) if connection.is_alive() => {
                tracing::warn!(%error, "cannot follow the server's changes on this connection");
            }
            // The connection closed first: there is nothing left to follow.
            Err(error) => tracing::debug!(%error, "stopped listening for changes"),
        }
    }

    /// Makes `connection` listen for what the session follows now; what the server agreed to.
    async fn listen(
        &self,
        connection: &LiveConnection,
    ) -> Result<SubscriptionFilter, SessionError> {
        let wanted = listen::filter(&connection.capabilities(), self.subscribed_resources());
        connection
            .listener
            .listen(
                &connection.peer,
                wanted,
                &self.inner.hub,
                self.inner.timeouts.request,
            )
            .await
            .map_err(|failure| {
                SessionError::from_failure(
                    &self.inner.target,
                    "subscriptions/listen".to_owned(),
                    failure,
                    connection.diagnostics(),
                )
            })
    }

    /// Sends `resources/subscribe` or `resources/unsubscribe`, whose answer is empty.
    async fn subscription_request(
        &self,
        connection: &LiveConnection,
        method: &'static str,
        request: ClientRequest,
    ) -> Result<(), SessionError> {
        match self
            .send(connection, Method::Named(method), request, None)
            .await?
        {
            ServerResult::EmptyResult(_) => Ok(()),
            _ => Err(self.unexpected(Method::Named(method))),
        }
    }

    fn unsupported(&self, feature: &str) -> SessionError {
        SessionError::Unsupported {
            target: self.inner.target.clone(),
            feature: feature.to_owned(),
        }
    }

    fn lock_subscriptions(&self) -> MutexGuard<'_, BTreeSet<String>> {
        self.inner.hub.subscriptions()
    }
}

/// Whether the server declares resource subscriptions.
fn takes_subscriptions(capabilities: &ServerCapabilities) -> bool {
    capabilities
        .resources
        .as_ref()
        .is_some_and(|resources| resources.subscribe == Some(true))
}

/// Whether the server's acknowledgment names `uri`.
fn names(acknowledged: &SubscriptionFilter, uri: &str) -> bool {
    acknowledged
        .resource_subscriptions
        .as_ref()
        .is_some_and(|uris| uris.iter().any(|taken| taken == uri))
}
