//! [`Listener`]: how a 2026-07-28 connection hears of changes. One `subscriptions/listen`
//! request carries every list change and resource update the session follows; when that set
//! changes, a new request replaces it.

use std::sync::Arc;
use std::time::Duration;

use rmcp::model::{ServerCapabilities, ServerNotification, SubscriptionFilter};
use rmcp::service::{Peer, RoleClient, Subscription, SubscriptionEnd};
use tokio_util::task::AbortOnDropHandle;

use crate::ServerEvent;
use crate::handler::EventHub;
use crate::lock::lock;
use crate::request::RequestFailure;

/// How many times a listening request that ended early is opened again in a row.
const RELISTEN_ATTEMPTS: u32 = 5;
/// The pause after a failed attempt to listen again; it doubles with each attempt.
const RELISTEN_PAUSE: Duration = Duration::from_millis(100);
/// How long the server has to acknowledge a listening request opened again.
const RELISTEN_TIMEOUT: Duration = Duration::from_secs(10);

/// The `subscriptions/listen` request of one connection, if it has one.
#[derive(Debug, Default)]
pub(crate) struct Listener {
    /// Held while a request is opened, so that two changes of the filter do not cross.
    current: tokio::sync::Mutex<Option<Listening>>,
    /// The task that opens the first request a moment after the connection is made, until it
    /// has; dropping it (when the connection closes first) ends the wait.
    starting: std::sync::Mutex<Option<AbortOnDropHandle<()>>>,
}

/// One open `subscriptions/listen` request and the task that reads it.
#[derive(Debug)]
struct Listening {
    wanted: SubscriptionFilter,
    acknowledged: SubscriptionFilter,
    /// Done when the request ended; dropping it drops the request, which rmcp then cancels on
    /// the server.
    reader: AbortOnDropHandle<()>,
}

impl Listener {
    /// Keeps `task`, which will open the first request, until the connection closes.
    pub(crate) fn start_later(&self, task: tokio::task::JoinHandle<()>) {
        *self.lock_starting() = Some(AbortOnDropHandle::new(task));
    }

    /// Ends a wait to open the first request, if one is pending: the connection is closing.
    pub(crate) fn stop_starting(&self) {
        self.lock_starting().take();
    }

    fn lock_starting(&self) -> std::sync::MutexGuard<'_, Option<AbortOnDropHandle<()>>> {
        lock(&self.starting)
    }

    /// Makes the connection listen for `wanted` (the whole set, as [`filter`] builds it), and
    /// returns what the server agreed to. The new request is acknowledged before the one it
    /// replaces ends, so no change falls between them; one that comes meanwhile may arrive
    /// twice. A filter equal to the current one changes nothing, and an empty one ends
    /// listening.
    pub(crate) async fn listen(
        &self,
        peer: &Peer<RoleClient>,
        wanted: SubscriptionFilter,
        hub: &Arc<EventHub>,
        timeout: Duration,
    ) -> Result<SubscriptionFilter, RequestFailure> {
        let mut current = self.current.lock().await;
        if let Some(listening) = current.as_ref()
            && listening.wanted == wanted
            && !listening.reader.is_finished()
        {
            return Ok(listening.acknowledged.clone());
        }
        if wanted == SubscriptionFilter::default() {
            *current = None;
            return Ok(wanted);
        }
        let subscription = open(peer, wanted.clone(), timeout).await?;
        let acknowledged = subscription.acknowledged().clone();
        let reader = tokio::spawn(read(
            subscription,
            peer.clone(),
            wanted.clone(),
            hub.clone(),
        ));
        *current = Some(Listening {
            wanted,
            acknowledged: acknowledged.clone(),
            reader: AbortOnDropHandle::new(reader),
        });
        Ok(acknowledged)
    }
}

/// What a session listens for: every list change the server says it announces, and updates of
/// `resources` when the server offers subscriptions.
pub(crate) fn filter(
    capabilities: &ServerCapabilities,
    resources: impl IntoIterator<Item = String>,
) -> SubscriptionFilter {
    let resources: Vec<String> = resources.into_iter().collect();
    let mut everything = SubscriptionFilter::builder()
        .tools_list_changed()
        .prompts_list_changed()
        .resources_list_changed();
    if !resources.is_empty() {
        everything = everything.resource_subscriptions(resources);
    }
    everything.build().supported_by(capabilities)
}

/// Sends `subscriptions/listen` and waits, within `timeout`, for its acknowledgment.
async fn open(
    peer: &Peer<RoleClient>,
    wanted: SubscriptionFilter,
    timeout: Duration,
) -> Result<Subscription, RequestFailure> {
    match tokio::time::timeout(timeout, peer.listen(wanted)).await {
        Ok(Ok(subscription)) => Ok(subscription),
        Ok(Err(error)) => Err(RequestFailure::Failed {
            error,
            request: None,
        }),
        // Dropping the pending request cancelled it on the server.
        Err(_) => Err(RequestFailure::TimedOut {
            waited: timeout,
            cancelled: true,
        }),
    }
}

/// Hands each notification of `subscription` to the session, until the subscription ends. One
/// that ends because this reader fell behind, or breaks while the connection stays up (a
/// 2026-07-28 answer stream cut off, as when the server restarts), is opened again, and
/// everything the session caches from the server counts as stale, since a change may have been
/// missed.
async fn read(
    mut subscription: Subscription,
    peer: Peer<RoleClient>,
    wanted: SubscriptionFilter,
    hub: Arc<EventHub>,
) {
    loop {
        match subscription.next().await {
            Ok(Some(notification)) => {
                deliver(&hub, notification);
                continue;
            }
            Ok(None) => {}
            Err(error) if peer.is_transport_closed() => {
                tracing::debug!(%error, "subscriptions/listen ended with its connection; the next one listens again");
                return;
            }
            Err(error) => {
                tracing::info!(%error, "subscriptions/listen broke; listening again");
                match listen_again(&peer, &wanted, &hub).await {
                    Some(again) => subscription = again,
                    None => return,
                }
                continue;
            }
        }
        match subscription.end() {
            Some(SubscriptionEnd::Lagged { capacity }) => {
                tracing::warn!(
                    capacity,
                    "fell behind on subscriptions/listen; listening again"
                );
                match listen_again(&peer, &wanted, &hub).await {
                    Some(again) => subscription = again,
                    None => return,
                }
            }
            end => {
                tracing::debug!(?end, "subscriptions/listen ended");
                return;
            }
        }
    }
}

/// Opens the listening request again after the last one ended early, a few times, with a
/// growing pause, and tells the session that what it caches may be stale.
async fn listen_again(
    peer: &Peer<RoleClient>,
    wanted: &SubscriptionFilter,
    hub: &EventHub,
) -> Option<Subscription> {
    hub.publish_lists_stale();
    for attempt in 0..RELISTEN_ATTEMPTS {
        match open(peer, wanted.clone(), RELISTEN_TIMEOUT).await {
            Ok(again) => return Some(again),
            Err(_) if peer.is_transport_closed() => return None,
            Err(failure) => {
                tracing::debug!(?failure, attempt, "listening again failed");
                tokio::time::sleep(RELISTEN_PAUSE * 2u32.pow(attempt)).await;
            }
        }
    }
    tracing::warn!(
        "listening again failed {RELISTEN_ATTEMPTS} times; changes are not followed until the next connection"
    );
    None
}

/// Passes on one notification the server sent on the listening request.
fn deliver(hub: &EventHub, notification: ServerNotification) {
    match notification {
        ServerNotification::ToolListChangedNotification(_) => {
            hub.publish(ServerEvent::ToolListChanged);
        }
        ServerNotification::PromptListChangedNotification(_) => {
            hub.publish(ServerEvent::PromptListChanged);
        }
        ServerNotification::ResourceListChangedNotification(_) => {
            hub.publish(ServerEvent::ResourceListChanged);
        }
        ServerNotification::ResourceUpdatedNotification(update) => {
            hub.resource_updated(update.params);
        }
        // rmcp lets through only what the server acknowledged.
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use rmcp::model::ServerCapabilities;

    use super::*;

    #[test]
    fn a_session_listens_only_for_what_the_server_announces() {
        let tools_only = ServerCapabilities::builder()
            .enable_tools()
            .enable_tool_list_changed()
            .build();
        let wanted = filter(&tools_only, ["notes://a".to_owned()]);
        assert_eq!(
            wanted,
            SubscriptionFilter::builder().tools_list_changed().build()
        );

        let silent = ServerCapabilities::builder().enable_tools().build();
        assert_eq!(filter(&silent, []), SubscriptionFilter::default());

        let subscribable = ServerCapabilities::builder()
            .enable_resources()
            .enable_resources_subscribe()
            .build();
        let wanted = filter(&subscribable, ["notes://a".to_owned()]);
        assert_eq!(
            wanted.resource_subscriptions,
            Some(vec!["notes://a".to_owned()])
        );
        assert_eq!(wanted.tools_list_changed, None);
        assert_eq!(filter(&subscribable, []), SubscriptionFilter::default());
    }
}
