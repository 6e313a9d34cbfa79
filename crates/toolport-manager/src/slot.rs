//! [`Slot`]: one server in the registry, and the state its operations share.

use std::sync::{Arc, Mutex, MutexGuard};

use tokio_util::sync::CancellationToken;
use toolport_tools::McpToolset;

use crate::{ServerConfig, ServerStatus};

/// One server in the registry. Its state sits behind a lock that is only ever held to read or
/// swap a field, never across a handshake, a close or a call.
#[derive(Debug)]
pub(crate) struct Slot {
    pub(crate) id: Arc<str>,
    state: Mutex<SlotState>,
}

/// What one server is now.
#[derive(Debug)]
pub(crate) struct SlotState {
    pub(crate) config: ServerConfig,
    pub(crate) status: ServerStatus,
    /// The running server's toolset; `None` unless it is running or restarting.
    pub(crate) toolset: Option<Arc<McpToolset>>,
    /// Moves on with every start and stop, so that an operation that finishes after a newer
    /// one began leaves the newer one's state alone.
    pub(crate) generation: u64,
    /// Cancelled to call off the current start, and the supervision of the current run.
    pub(crate) stop: CancellationToken,
}

impl Slot {
    pub(crate) fn new(id: &str, config: ServerConfig) -> Self {
        let status = if config.disabled {
            ServerStatus::Disabled
        } else {
            ServerStatus::Stopped
        };
        Self {
            id: Arc::from(id),
            state: Mutex::new(SlotState {
                config,
                status,
                toolset: None,
                generation: 0,
                stop: CancellationToken::new(),
            }),
        }
    }

    /// The state, locked. Hold the guard only to read or swap fields.
    pub(crate) fn lock(&self) -> MutexGuard<'_, SlotState> {
        // Every field stays valid even if a holder panicked.
        self.state
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Sets the status, if `generation` is still the current one; whether it was.
    pub(crate) fn set_status_if(&self, generation: u64, status: ServerStatus) -> bool {
        let mut state = self.lock();
        let current = state.generation == generation;
        if current {
            state.status = status;
        }
        current
    }
}

impl SlotState {
    /// Starts a new generation: calls off whatever the last one was doing, and returns the
    /// new generation's number and stop token.
    pub(crate) fn next_generation(&mut self) -> (u64, CancellationToken) {
        self.stop.cancel();
        self.stop = CancellationToken::new();
        self.generation += 1;
        (self.generation, self.stop.clone())
    }

    /// The status of a server that is not running.
    pub(crate) fn resting_status(&self) -> ServerStatus {
        if self.config.disabled {
            ServerStatus::Disabled
        } else {
            ServerStatus::Stopped
        }
    }
}
