//! The supervision of one running server: its health is checked, and after a crash it is
//! restarted as its [`RestartPolicy`] says, until it stays up or runs out of attempts.

use std::hash::{BuildHasher, RandomState};
use std::sync::Arc;
use std::time::Instant;

use tokio::sync::broadcast;
use tokio_util::sync::CancellationToken;
use toolport_session::{McpSession, SessionError};
use toolport_tools::McpToolset;

use crate::launcher::{Launcher, list_tools_ahead};
use crate::shared::Shared;
use crate::slot::Slot;
use crate::{ManagerEvent, ManagerEventKind, RestartPolicy, ServerStatus};

/// One server's supervisor: what it watches, and how it reports.
struct Supervisor {
    slot: Arc<Slot>,
    toolset: Arc<McpToolset>,
    generation: u64,
    stop: CancellationToken,
    policy: RestartPolicy,
    launcher: Launcher,
    events: broadcast::Sender<ManagerEvent>,
}

/// Why a running server is taken for dead.
enum Crash {
    /// Its connection closed.
    Closed(Option<String>),
    /// It did not answer a ping.
    Unresponsive(String),
}

impl Shared {
    /// Supervises the server in `slot`, running as `toolset`, until `stop` is cancelled or it
    /// fails for good.
    pub(crate) fn supervise(
        &self,
        slot: Arc<Slot>,
        toolset: Arc<McpToolset>,
        generation: u64,
        stop: CancellationToken,
        policy: RestartPolicy,
    ) {
        let supervisor = Supervisor {
            slot,
            toolset,
            generation,
            stop,
            policy,
            launcher: self.launcher.clone(),
            events: self.events.clone(),
        };
        self.supervisors.spawn(supervisor.run());
    }
}

impl Supervisor {
    async fn run(self) {
        let session = self.toolset.session().clone();
        let mut attempts = 0;
        loop {
            let up_since = Instant::now();
            let Some(crash) = self.watch(&session).await else {
                return;
            };
            let details = match crash {
                Crash::Closed(details) => details,
                Crash::Unresponsive(why) => {
                    // A hung server keeps its connection open: end it, so the restart is real.
                    let grace = self.launcher.options.grace;
                    let _ = tokio::time::timeout(grace, Box::pin(session.disconnect())).await;
                    Some(why)
                }
            };
            self.emit(ManagerEventKind::Crashed {
                details: details.clone(),
            });
            if up_since.elapsed() >= self.policy.stable_after {
                attempts = 0;
            }
            let last = details.unwrap_or_else(|| "its connection closed".to_owned());
            // Boxed, as the ping and the failure are: a request's state is large, and a
            // supervisor that merely watches should not carry it (550 bytes instead of 10 KiB).
            if !Box::pin(self.restart(&session, &mut attempts, last)).await {
                return;
            }
        }
    }

    /// Watches the running server until it crashes (`Some`) or supervision ends (`None`). A
    /// tool list that moved on (`notifications/tools/list_changed`, or a reconnect the session
    /// made by itself) is reported at the next check. The session's event stream is not read:
    /// its buffer would cost every idle server more than the rest of its supervision.
    async fn watch(&self, session: &McpSession) -> Option<Crash> {
        let options = &self.launcher.options;
        let mut last_ping = Instant::now();
        let mut tool_list_epoch = session.tool_list_epoch();
        loop {
            tokio::select! {
                biased;
                () = self.stop.cancelled() => return None,
                () = tokio::time::sleep(options.health_interval) => {}
            }
            if !session.is_connected() {
                return Some(Crash::Closed(session.failure_details()));
            }
            let epoch = session.tool_list_epoch();
            if epoch != tool_list_epoch {
                tool_list_epoch = epoch;
                self.emit(ManagerEventKind::ToolsChanged);
            }
            let Some(every) = options.ping_every else {
                continue;
            };
            if last_ping.elapsed() < every {
                continue;
            }
            last_ping = Instant::now();
            if let Err(error) = Box::pin(session.ping()).await {
                let why = format!("it did not answer a ping: {error}");
                return Some(Crash::Unresponsive(why));
            }
        }
    }

    /// Restarts the server, attempt after attempt, until it runs (`true`) or runs out of
    /// attempts or is stopped (`false`). `last` is why it is down.
    async fn restart(&self, session: &McpSession, attempts: &mut u32, mut last: String) -> bool {
        let options = &self.launcher.options;
        loop {
            *attempts += 1;
            if *attempts > self.policy.max_attempts {
                Box::pin(self.fail(*attempts - 1, &last)).await;
                return false;
            }
            let attempt = *attempts;
            let delay = self.policy.delay(attempt, jitter());
            if !self
                .slot
                .set_status_if(self.generation, ServerStatus::Restarting { attempt })
            {
                return false;
            }
            self.emit(ManagerEventKind::Restarting { attempt, delay });
            tokio::select! {
                biased;
                () = self.stop.cancelled() => return false,
                () = tokio::time::sleep(delay) => {}
            }
            let bound = self
                .slot
                .lock()
                .config
                .startup_timeout
                .unwrap_or(options.startup_timeout);
            let started = tokio::select! {
                biased;
                () = self.stop.cancelled() => return false,
                started = tokio::time::timeout(bound, self.reconnect(session)) => started,
            };
            match started {
                Ok(Ok(())) => {
                    if !self
                        .slot
                        .set_status_if(self.generation, ServerStatus::Running)
                    {
                        return false;
                    }
                    // For the span of the next call, which is the first on the new server.
                    session.note_restart(attempt, &last);
                    self.emit(ManagerEventKind::Running);
                    return true;
                }
                Ok(Err(error)) => last = error.to_string(),
                Err(_) => {
                    let details = session.failure_details();
                    last = format!("it did not start within {} ms", bound.as_millis());
                    if let Some(details) = details {
                        last = format!("{last}: {details}");
                    }
                }
            }
            self.emit(ManagerEventKind::StartFailed {
                error: last.clone(),
            });
        }
    }

    /// Connects the server again and lists its tools ahead, as its first start did.
    async fn reconnect(&self, session: &McpSession) -> Result<(), SessionError> {
        session.connect().await?;
        list_tools_ahead(&self.slot.id, &self.toolset).await;
        Ok(())
    }

    /// Marks the server failed for good after `restarts` restarts, and closes it.
    async fn fail(&self, restarts: u32, last: &str) {
        let error = if self.policy.max_attempts == 0 {
            format!("it crashed, and its restart policy is never: {last}")
        } else {
            format!("gave up after {restarts} restarts in a row; the last failure: {last}")
        };
        let toolset = {
            let mut state = self.slot.lock();
            if state.generation != self.generation {
                return;
            }
            state.status = ServerStatus::Failed {
                error: error.clone(),
            };
            state.toolset.take()
        };
        self.emit(ManagerEventKind::Failed { error });
        if let Some(toolset) = toolset {
            self.launcher.close(&self.slot.id, &toolset).await;
        }
    }

    fn emit(&self, kind: ManagerEventKind) {
        let _ = self.events.send(ManagerEvent::new(&self.slot.id, kind));
    }
}

/// A factor from 0.5 to 1.0 for a restart's delay, different for each call: a hash of the
/// time under std's randomly keyed hasher is random enough to keep restarts apart.
fn jitter() -> f64 {
    let random = RandomState::new().hash_one(Instant::now());
    0.5 + (random % 1_000) as f64 / 2_000.0
}
