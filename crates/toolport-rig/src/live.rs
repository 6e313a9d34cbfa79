//! [`LiveTools`]: rig's managed tools following a Toolport toolset as its servers' lists change.

use std::collections::HashMap;

use futures_util::{Stream, StreamExt};
use rig_core::tool::{ManagedToolSink, ManagedToolToken};
use tokio::sync::watch;
use tokio::task::JoinHandle;
use toolport_session::{ServerEvent, ServerEvents};
use toolport_tools::ToolsetError;

use crate::RigToolset;

/// The tools of a [`RigToolset`], installed in a rig [`ManagedToolSink`] (rig-agent's
/// `ToolServerHandle`, which an agent built with `tool_server_handle` reads on every turn) and
/// reconciled with the toolset whenever `changes` yields, so the agent's tools follow its
/// servers without rebuilding the agent.
///
/// `changes` is any stream whose items mean "the list may have changed": for one
/// `McpToolset`, [`tool_list_changes`] of its session's events; for an `McpServerManager`, its
/// `subscribe()` events (a server joined, left, restarted or changed its list). A toolset
/// serves its list from a cache until the server says it changed, so a reconcile that finds no
/// change costs no request. A reconcile that cannot list the tools keeps the tools installed
/// and logs a warning; a call to one of them then fails as its server does.
///
/// Dropping it stops following; the tools stay in the sink.
#[derive(Debug)]
pub struct LiveTools {
    task: JoinHandle<()>,
    reconciles: watch::Receiver<u64>,
}

impl LiveTools {
    /// Installs the tools of `tools` in `sink` and follows `changes` on a task of its own.
    ///
    /// # Errors
    ///
    /// When the first listing fails: the agent should not start without its tools.
    pub async fn start<S, C>(tools: RigToolset, sink: S, changes: C) -> Result<Self, ToolsetError>
    where
        S: ManagedToolSink + Send + Sync + 'static,
        C: Stream + Send + 'static,
    {
        let tokens = tools.install(&sink).await?;
        let (done, reconciles) = watch::channel(0);
        let task = tokio::spawn(follow(tools, sink, changes, tokens, done));
        Ok(Self { task, reconciles })
    }

    /// A receiver of how many reconciles have finished, for waiting on the next one.
    pub fn reconciles(&self) -> watch::Receiver<u64> {
        self.reconciles.clone()
    }
}

impl Drop for LiveTools {
    fn drop(&mut self) {
        self.task.abort();
    }
}

async fn follow<S, C>(
    tools: RigToolset,
    sink: S,
    changes: C,
    mut tokens: HashMap<String, ManagedToolToken>,
    done: watch::Sender<u64>,
) where
    S: ManagedToolSink,
    C: Stream,
{
    let mut changes = std::pin::pin!(changes);
    while changes.next().await.is_some() {
        match tools.tools().await {
            Ok(listed) => tokens = sink.reconcile_managed_tools(tokens, listed),
            Err(error) => tracing::warn!(
                %error,
                "kept the agent's tools as they were: the toolset could not list its tools"
            ),
        }
        done.send_modify(|count| *count += 1);
    }
}

/// The events of one session that may change its tool list: `notifications/tools/list_changed`,
/// a reconnection, and a reader that fell behind (it may have missed either).
pub fn tool_list_changes(events: ServerEvents) -> impl Stream<Item = ()> + Send + 'static {
    events.filter_map(|event| {
        std::future::ready(
            matches!(
                event,
                ServerEvent::ToolListChanged
                    | ServerEvent::Reconnected
                    | ServerEvent::Lagged { .. }
            )
            .then_some(()),
        )
    })
}
