//! [`ChildProcess`]: owns a spawned server's lifetime. A reaper task waits on the child and
//! publishes its exit; closing escalates from a grace period to `SIGTERM` to `SIGKILL` of the
//! process group and of the descendants that left it; dropping kills them all at once.

use std::process::ExitStatus;
use std::time::Duration;

use tokio::process::Child;
use tokio::sync::{oneshot, watch};
use toolport_core::ServerExit;

use crate::descendants::Descendants;
use crate::signal::{Signal, signal_group};

/// How long [`ChildProcess::shutdown`] waits for the reaper after `SIGKILL`. Only a process
/// stuck in the kernel takes longer; the reaper still reaps it whenever it dies.
const REAP_WAIT: Duration = Duration::from_secs(5);

/// Whether the child is still running, as the reaper task last saw it.
#[derive(Debug, Clone, Copy)]
pub(crate) enum ChildState {
    /// Not reaped yet.
    Running,
    /// Exited and reaped.
    Exited(ExitStatus),
    /// Waiting on the child failed, or the reaper was dropped with the runtime.
    Lost,
}

/// The spawned server process, from the transport's side.
#[derive(Debug)]
pub(crate) struct ChildProcess {
    pid: Option<u32>,
    exit: watch::Receiver<ChildState>,
    /// Dropping or firing this makes the reaper kill the child directly (portable fallback).
    kill: Option<oneshot::Sender<()>>,
    /// What the child started outside its process group, signalled with the group.
    descendants: Descendants,
    close_grace: Duration,
    term_grace: Duration,
    /// How `shutdown` ended the child, once it ran to the end; there is nothing left to kill
    /// on drop then.
    finished: Option<ServerExit>,
}

impl ChildProcess {
    /// Hands `child` to a reaper task. Must be called inside a Tokio runtime, on a child not
    /// yet waited for.
    pub(crate) fn spawn_reaper(
        mut child: Child,
        close_grace: Duration,
        term_grace: Duration,
    ) -> Self {
        let pid = child.id();
        // Before the reaper runs: until it reaps the child, `pid` is surely the child's.
        let descendants = Descendants::of(pid);
        let (state_tx, exit) = watch::channel(ChildState::Running);
        let (kill, mut kill_rx) = oneshot::channel::<()>();
        tokio::spawn(async move {
            let waited = tokio::select! {
                waited = child.wait() => waited,
                _ = &mut kill_rx => {
                    // Fires on request and when the transport is dropped.
                    let _ = child.start_kill();
                    child.wait().await
                }
            };
            let state = match waited {
                Ok(status) => ChildState::Exited(status),
                Err(error) => {
                    tracing::warn!(%error, "could not wait for the server process");
                    ChildState::Lost
                }
            };
            let _ = state_tx.send(state);
        });
        Self {
            pid,
            exit,
            kill: Some(kill),
            descendants,
            close_grace,
            term_grace,
            finished: None,
        }
    }

    /// The child's process id, which is also its process group id.
    pub(crate) fn pid(&self) -> Option<u32> {
        self.pid
    }

    /// How long the child may take to exit on its own once its stdin is closed.
    pub(crate) fn close_grace(&self) -> Duration {
        self.close_grace
    }

    /// Notes the child's descendants as they are now, so that closing ends them even if the
    /// child exits first (its orphans then leave its tree). Call it before closing its stdin.
    pub(crate) fn record_descendants(&mut self) {
        self.descendants.record();
    }

    /// A receiver that sees the child's exit.
    pub(crate) fn exit_receiver(&self) -> watch::Receiver<ChildState> {
        self.exit.clone()
    }

    /// Waits up to `limit` for the child to be reaped. Returns whether it was.
    pub(crate) async fn wait_exit(&mut self, limit: Duration) -> bool {
        let exited = self
            .exit
            .wait_for(|state| !matches!(state, ChildState::Running));
        // An inner error means the reaper is gone: there is nothing left to wait for either.
        tokio::time::timeout(limit, exited).await.is_ok()
    }

    /// Stops the child: waits `close_grace` (less `spent`) for it to exit on its own after its
    /// stdin closed, then `SIGTERM`s its group, waits `term_grace`, then `SIGKILL`s the group
    /// and waits for the reaper. Each signal also goes to the descendants seen outside the
    /// group. Stragglers left by an exited leader, in the group or among the descendants
    /// seen, are killed. Returns how the child ended; calling it again returns the same.
    pub(crate) async fn shutdown(&mut self, spent: Duration) -> ServerExit {
        if let Some(exit) = self.finished {
            return exit;
        }
        let grace = self.close_grace.saturating_sub(spent);
        let exit = if self.wait_exit(grace).await {
            match *self.exit.borrow() {
                ChildState::Exited(status) => ServerExit::Exited(status),
                // The reaper lost track of it: there is no status to report.
                ChildState::Running | ChildState::Lost => ServerExit::Disconnected,
            }
        } else {
            tracing::debug!(pid = ?self.pid, "server did not exit after stdin closed; sending SIGTERM");
            self.signal(Signal::Terminate);
            if self.wait_exit(self.term_grace).await {
                ServerExit::Terminated {
                    grace: self.close_grace,
                }
            } else {
                tracing::debug!(pid = ?self.pid, "server ignored SIGTERM; sending SIGKILL");
                self.signal(Signal::Kill);
                if let Some(kill) = self.kill.take() {
                    let _ = kill.send(());
                }
                if !self.wait_exit(REAP_WAIT).await {
                    tracing::warn!(pid = ?self.pid, "server survived SIGKILL; leaving it to the reaper");
                }
                ServerExit::Killed {
                    grace: self.term_grace,
                }
            }
        };
        // Grandchildren (say, `npx` → `node`, or a daemon the server started) may outlive the
        // leader; take them down too.
        self.signal(Signal::Kill);
        self.finished = Some(exit);
        exit
    }

    /// Sends `signal` to the child's process group and to its descendants, seen now (while
    /// the child lives) or before.
    fn signal(&mut self, signal: Signal) {
        if let Some(pid) = self.pid {
            self.descendants.record();
            signal_group(pid, signal);
            self.descendants.signal(signal);
        }
    }
}

impl Drop for ChildProcess {
    fn drop(&mut self) {
        if self.finished.is_none() {
            // Synchronous, so it works even when the runtime is already gone. Dropping `kill`
            // makes the reaper kill and reap the leader; if the reaper itself is gone, tokio's
            // `kill_on_drop` and orphan queue do.
            self.signal(Signal::Kill);
        }
    }
}
