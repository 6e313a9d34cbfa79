//! Starting the servers of `--config`, said on stderr: each that failed, which are still being
//! waited for, which the command goes on without after the manager's start-up grace, and
//! which join late.

use std::future::Future;
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use tokio::sync::broadcast::error::RecvError;
use tokio::time::{Instant, MissedTickBehavior};
use toolport::manager::{ManagerBuilder, ManagerEventKind, McpServerManager, ServerStatus};

use crate::interrupt::close_on_signal;
use crate::terminal::errln;

/// How long a start goes unremarked before the command says what it waits for.
const FIRST_NOTICE: Duration = Duration::from_secs(1);

/// Starts every enabled server of `manager`, the file at `path`'s, as
/// [`McpServerManager::start_all`] does, and names on stderr each that failed.
///
/// While it waits, it says which servers it waits for, after a second and then every five.
/// When no server has started by the end of the start-up grace, it waits for those still
/// starting, as there is nothing to go on with; otherwise it names each it goes on without,
/// and says, until the command ends, when one joins late (its session then closes on a signal
/// as the others do) or fails.
///
/// # Errors
///
/// When a `required` server failed, or no server started.
pub(crate) async fn start_fleet(
    manager: &Arc<McpServerManager>,
    path: &Path,
) -> anyhow::Result<()> {
    let began = Instant::now();
    // Subscribed before the start, so that no late join is missed.
    let events = manager.subscribe();
    let report = with_notices(manager, began, manager.start_all()).await;
    for failure in report.failures() {
        errln!("toolport: {failure}");
    }
    let report = report.check_required()?;
    let mut started = report.started();
    if started == 0 && !report.joining.is_empty() {
        // One after the other: the starts go on together, so this waits for the slowest.
        let joining = async {
            let mut results = Vec::with_capacity(report.joining.len());
            for id in &report.joining {
                results.push(manager.started(id).await);
            }
            results
        };
        for result in with_notices(manager, began, joining).await {
            match result {
                Ok(()) => started += 1,
                Err(error) => errln!("toolport: {error}"),
            }
        }
    } else if !report.joining.is_empty() {
        let grace = ManagerBuilder::DEFAULT_STARTUP_GRACE.as_secs();
        for id in &report.joining {
            errln!(
                "toolport: `{id}` has not started after {grace} s; going on without it (mark it \"required\" to wait for it)"
            );
        }
        tokio::spawn(say_late_joins(
            Arc::clone(manager),
            events,
            report.joining.clone(),
            began,
        ));
    }
    if started == 0 {
        anyhow::bail!(
            "no server of {} started ({} failed)",
            path.display(),
            report.failures().count() + report.joining.len()
        );
    }
    Ok(())
}

/// Waits for server `id` of `manager` to be running, saying meanwhile that it waits.
///
/// # Errors
///
/// When its start fails, with why.
pub(crate) async fn wait_for_server(manager: &McpServerManager, id: &str) -> anyhow::Result<()> {
    Ok(with_notices(manager, Instant::now(), manager.started(id)).await?)
}

/// Runs `waiting`, and meanwhile says which servers are still starting, a second after
/// `began` and every five seconds after that.
async fn with_notices<T>(
    manager: &McpServerManager,
    began: Instant,
    waiting: impl Future<Output = T>,
) -> T {
    let mut waiting = std::pin::pin!(waiting);
    let mut ticks = tokio::time::interval_at(began + FIRST_NOTICE, FIRST_NOTICE);
    ticks.set_missed_tick_behavior(MissedTickBehavior::Skip);
    // The first tick gives a notice, then one every five seconds of waiting.
    let mut next_notice = 0;
    loop {
        tokio::select! {
            // Ticks first: a notice that is due is given even when the wait ends as it is.
            biased;
            _ = ticks.tick() => {
                let waited = began.elapsed().as_secs();
                if waited < next_notice {
                    continue;
                }
                next_notice = (waited / 5 + 1) * 5;
                for (id, status) in manager.statuses() {
                    if status == ServerStatus::Starting {
                        errln!("toolport: waiting for `{id}` ({waited} s)…");
                    }
                }
            }
            done = &mut waiting => return done,
        }
    }
}

/// Says when each server of `joining` joins, or fails to, until all have or the command ends.
async fn say_late_joins(
    manager: Arc<McpServerManager>,
    mut events: tokio::sync::broadcast::Receiver<toolport::manager::ManagerEvent>,
    mut joining: Vec<String>,
    began: Instant,
) {
    while !joining.is_empty() {
        let event = match events.recv().await {
            Ok(event) => event,
            Err(RecvError::Lagged(_)) => continue,
            Err(RecvError::Closed) => return,
        };
        let id = &event.server;
        if !joining.contains(id) {
            continue;
        }
        match &event.kind {
            ManagerEventKind::Running => {
                errln!(
                    "toolport: `{id}` joined late ({} s)",
                    began.elapsed().as_secs()
                );
                if let Some(toolset) = manager.toolset(id) {
                    close_on_signal(toolset.session());
                }
            }
            ManagerEventKind::StartFailed { error } => errln!("toolport: {error}"),
            _ => continue,
        }
        joining.retain(|other| other != id);
    }
}
