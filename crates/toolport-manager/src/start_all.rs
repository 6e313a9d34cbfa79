//! Starting the whole fleet: [`start_all`](McpServerManager::start_all) waits for the servers
//! marked `required` and gives the others a start-up grace, and [`started`](McpServerManager::started)
//! waits for one server that is still starting.

use std::sync::Arc;

use futures_util::future::join_all;
use tokio::sync::broadcast::error::RecvError;
use tokio::task::{JoinError, JoinHandle};
use tokio::time::Instant;

use crate::shared::Shared;
use crate::slot::Slot;
use crate::{
    ManagerError, ManagerEventKind, McpServerManager, ServerStatus, StartOutcome, StartReport,
};

/// Where one server's start stood when [`McpServerManager::start_all`] returned.
enum Settled {
    /// It ended, one way or the other.
    Ended(Result<(), ManagerError>),
    /// It was still under way at the end of the grace, and goes on.
    Joining,
}

impl McpServerManager {
    /// Starts every enabled server that is not running, all at once, and says how each start
    /// went, the file's broken entries among them. Disabled servers are left out.
    ///
    /// It waits for every server marked `required` to start or fail, and gives the others the
    /// [`startup_grace`](crate::ManagerBuilder::startup_grace) (2 s by default), counted from
    /// the call: one still starting then is named in [`StartReport::joining`] and goes on
    /// starting, so that a slow or hung server delays no other. When it is up, it joins the
    /// aggregate, announced by [`Running`](ManagerEventKind::Running) and then
    /// [`ToolsChanged`](ManagerEventKind::ToolsChanged); [`started`](Self::started) waits for
    /// it.
    pub async fn start_all(&self) -> StartReport {
        let grace_ends = Instant::now().checked_add(self.shared.launcher.options.startup_grace);
        let enabled: Vec<(Arc<Slot>, bool)> = self
            .shared
            .lock_slots()
            .iter()
            .filter_map(|slot| {
                let state = slot.lock();
                let required = state.config.required;
                let wanted = !state.config.disabled;
                drop(state);
                wanted.then(|| (Arc::clone(slot), required))
            })
            .collect();
        let starts = enabled.iter().map(|(slot, required)| {
            // A task each, so that a multi-threaded runtime runs the handshakes in parallel,
            // and so that a start the grace leaves behind goes on.
            let shared = Arc::clone(&self.shared);
            let starting = Arc::clone(slot);
            let start = tokio::spawn(async move { shared.start_slot(&starting).await });
            let deadline = (!*required).then_some(grace_ends).flatten();
            settle(
                Arc::clone(&self.shared),
                Arc::clone(&slot.id),
                start,
                deadline,
            )
        });
        let mut report = StartReport {
            outcomes: Vec::new(),
            joining: Vec::new(),
        };
        for ((slot, required), settled) in enabled.iter().zip(join_all(starts).await) {
            let server = slot.id.to_string();
            match settled {
                Settled::Ended(result) => report.outcomes.push(StartOutcome {
                    server,
                    required: *required,
                    result,
                }),
                Settled::Joining => report.joining.push(server),
            }
        }
        let file = self.shared.lock_file();
        let broken = file
            .broken_entries()
            .map(|(id, error, required)| StartOutcome {
                server: id.to_owned(),
                required,
                result: Err(ManagerError::Config(error.clone())),
            });
        report.outcomes.extend(broken);
        report
    }

    /// Waits for server `id` to be running: at once if it is, until the start under way (or
    /// the restart the supervisor is making) ends if it is starting, as for a server that
    /// [`start_all`](Self::start_all) left [`joining`](StartReport::joining).
    ///
    /// # Errors
    ///
    /// [`ManagerError::UnknownServer`] for an id that is not configured, and
    /// [`ManagerError::NotRunning`] for a server that is not running and not starting, or
    /// whose start failed (with why).
    pub async fn started(&self, id: &str) -> Result<(), ManagerError> {
        let slot = self.shared.slot(id)?;
        // Subscribed before the status is read, so that no change between the two is missed.
        let mut events = self.subscribe();
        loop {
            let status = slot.lock().status.clone();
            match status {
                ServerStatus::Running => return Ok(()),
                ServerStatus::Starting | ServerStatus::Restarting { .. } => {}
                status => {
                    return Err(ManagerError::NotRunning {
                        server: id.to_owned(),
                        status,
                    });
                }
            }
            // Any event may be the one that settles it; the status says.
            match events.recv().await {
                Ok(_) | Err(RecvError::Lagged(_)) => {}
                Err(RecvError::Closed) => return Err(ManagerError::ShutDown),
            }
        }
    }
}

/// Waits for `start` to end, or only until `deadline` when there is one; a start still under
/// way then goes on, and announces the server's tools when it is up.
async fn settle(
    shared: Arc<Shared>,
    id: Arc<str>,
    mut start: JoinHandle<Result<(), ManagerError>>,
    deadline: Option<Instant>,
) -> Settled {
    let Some(deadline) = deadline else {
        return Settled::Ended(outcome(&id, start.await));
    };
    match tokio::time::timeout_at(deadline, &mut start).await {
        Ok(joined) => Settled::Ended(outcome(&id, joined)),
        Err(_) => {
            tokio::spawn(async move {
                if let Ok(Ok(())) = start.await {
                    shared.emit(&id, ManagerEventKind::ToolsChanged);
                }
            });
            Settled::Joining
        }
    }
}

/// How a start's task ended: its own result, or, for a task that did not finish, a start
/// called off.
fn outcome(
    id: &str,
    joined: Result<Result<(), ManagerError>, JoinError>,
) -> Result<(), ManagerError> {
    joined.unwrap_or_else(|_| Err(ManagerError::Interrupted(id.to_owned())))
}
