//! [`Shared`]: what the manager's handle and its operations (starts, stops, supervision, the
//! aggregate) share: the servers' slots, the file, the events and the supervisors.

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};

use tokio::sync::broadcast;
use tokio_util::task::TaskTracker;

use crate::aggregate_cache::AggregateCache;
use crate::builder::ManagerBuilder;
use crate::launcher::Launcher;
use crate::slot::Slot;
use crate::{ManagerError, ManagerEvent, ManagerEventKind, McpConfig};

/// How many lifecycle events a subscriber may fall behind before it misses some.
const EVENT_BUFFER: usize = 256;

/// What the manager's handle and its operations share.
#[derive(Debug)]
pub(crate) struct Shared {
    pub(crate) launcher: Launcher,
    /// The servers, in the order they were configured.
    slots: Mutex<Vec<Arc<Slot>>>,
    /// The file as it will be saved: the servers' entries, and whatever else it holds.
    file: Mutex<McpConfig>,
    path: Mutex<Option<PathBuf>>,
    pub(crate) events: broadcast::Sender<ManagerEvent>,
    pub(crate) supervisors: TaskTracker,
    /// The aggregate's last answer ([`McpServerManager::managed_tools`](crate::McpServerManager::managed_tools)).
    pub(crate) aggregate: AggregateCache,
    shut_down: AtomicBool,
}

impl Shared {
    /// The servers of `builder`, none started, with its settings.
    pub(crate) fn new(builder: ManagerBuilder) -> Self {
        let slots = builder
            .config
            .servers()
            .map(|(id, config)| Arc::new(Slot::new(id, config.clone())))
            .collect();
        let (events, _) = broadcast::channel(EVENT_BUFFER);
        Self {
            launcher: Launcher {
                options: Arc::new(builder.options),
            },
            slots: Mutex::new(slots),
            file: Mutex::new(builder.config),
            path: Mutex::new(builder.path),
            events,
            supervisors: TaskTracker::new(),
            aggregate: AggregateCache::default(),
            shut_down: AtomicBool::new(false),
        }
    }

    pub(crate) fn lock_slots(&self) -> MutexGuard<'_, Vec<Arc<Slot>>> {
        // A plain list, valid even if a holder panicked.
        self.slots
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    pub(crate) fn lock_file(&self) -> MutexGuard<'_, McpConfig> {
        self.file
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    pub(crate) fn lock_path(&self) -> MutexGuard<'_, Option<PathBuf>> {
        self.path
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Server `id`'s slot.
    pub(crate) fn slot(&self, id: &str) -> Result<Arc<Slot>, ManagerError> {
        let slots = self.lock_slots();
        slots
            .iter()
            .find(|slot| &*slot.id == id)
            .cloned()
            .ok_or_else(|| ManagerError::UnknownServer(id.to_owned()))
    }

    /// Marks the manager shut down: later adds and starts fail.
    pub(crate) fn shut_down(&self) {
        self.shut_down.store(true, Ordering::Release);
    }

    pub(crate) fn is_shut_down(&self) -> bool {
        self.shut_down.load(Ordering::Acquire)
    }

    pub(crate) fn check_open(&self) -> Result<(), ManagerError> {
        if self.is_shut_down() {
            return Err(ManagerError::ShutDown);
        }
        Ok(())
    }

    /// Sends an event to every subscriber, and logs it.
    pub(crate) fn emit(&self, server: &str, kind: ManagerEventKind) {
        let _ = self.events.send(ManagerEvent::new(server, kind));
    }
}

impl Drop for Shared {
    /// Ends every server without waiting: supervision stops, and each toolset, dropped,
    /// closes its session (a child process is killed with its process group).
    fn drop(&mut self) {
        let slots = std::mem::take(&mut *self.lock_slots());
        for slot in slots {
            let mut state = slot.lock();
            state.next_generation();
            state.toolset.take();
        }
    }
}
