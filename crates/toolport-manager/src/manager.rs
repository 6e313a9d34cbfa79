//! [`McpServerManager`]: a registry of MCP servers, each started, supervised and stopped on
//! its own, that offers all their tools as one [`Toolset`](toolport_tools::Toolset).

use std::path::Path;
use std::sync::Arc;

use futures_util::future::join_all;
use tokio::sync::broadcast;
use toolport_tools::McpToolset;

use crate::builder::ManagerBuilder;
use crate::shared::Shared;
use crate::slot::Slot;
use crate::{
    ManagerError, ManagerEvent, ManagerEventKind, ServerConfig, ServerStatus, ServerToConnect,
};

/// A fleet of MCP servers, from an `mcp.json` or added at run time, over stdio, Streamable
/// HTTP and SSE.
///
/// - **Registry:** [`add`](Self::add), [`start`](Self::start), [`stop`](Self::stop),
///   [`restart`](Self::restart), [`update`](Self::update) (rolled back if the new
///   configuration fails), [`enable`](Self::enable), [`disable`](Self::disable),
///   [`remove`](Self::remove), [`reload`](Self::reload) (a changed file, applied as a diff),
///   [`save`](Self::save) and [`shutdown`](Self::shutdown). Each server has a lock of its own,
///   held only to read or swap its state: no lock is held across a handshake or a call, so a
///   server that hangs in its handshake delays nothing but its own start.
/// - **Supervision:** a running server whose connection closes (or, with
///   [`ping_every`](ManagerBuilder::ping_every), that stops answering pings) is restarted as
///   its [`RestartPolicy`](crate::RestartPolicy) says, and ends
///   [`Failed`](ServerStatus::Failed), with the stderr tail of its last exit, when it keeps
///   crashing. [`subscribe`](Self::subscribe) streams every [`ManagerEvent`].
/// - **Tools:** the manager is a [`Toolset`](toolport_tools::Toolset) of every running
///   server's tools ([`managed_tools`](Self::managed_tools)); two servers' tools of the same
///   name both become `{server_id}__{tool}`, and no tool passes for another server's.
///
/// Dropping the manager stops supervising and ends every server; [`shutdown`](Self::shutdown)
/// does it gracefully and waits.
///
/// # Examples
///
/// ```no_run
/// # async fn run() -> Result<(), Box<dyn std::error::Error>> {
/// use toolport_manager::McpServerManager;
///
/// let manager = McpServerManager::builder().load("mcp.json")?.build();
/// let report = manager.start_all().await;
/// for failure in report.failures() {
///     eprintln!("{failure}");
/// }
/// report.check_required()?;
/// for tool in manager.managed_tools(None).await? {
///     println!("{} (from {})", tool.declaration().name, tool.server_id());
/// }
/// manager.shutdown().await;
/// # Ok(())
/// # }
/// # use toolport_tools::Tool as _;
/// ```
#[derive(Debug)]
pub struct McpServerManager {
    pub(crate) shared: Arc<Shared>,
}

impl McpServerManager {
    /// A builder, with no servers yet and every setting at its default.
    pub fn builder() -> ManagerBuilder {
        ManagerBuilder::new()
    }

    pub(crate) fn from_builder(builder: ManagerBuilder) -> Self {
        Self {
            shared: Arc::new(Shared::new(builder)),
        }
    }

    /// The ids of every server, in the order they were configured.
    pub fn ids(&self) -> Vec<String> {
        let slots = self.shared.lock_slots();
        slots.iter().map(|slot| slot.id.to_string()).collect()
    }

    /// Server `id`'s configuration, as written (references unexpanded).
    pub fn config(&self, id: &str) -> Option<ServerConfig> {
        let slot = self.shared.slot(id).ok()?;
        let config = slot.lock().config.clone();
        Some(config)
    }

    /// Server `id`'s status.
    pub fn status(&self, id: &str) -> Option<ServerStatus> {
        let slot = self.shared.slot(id).ok()?;
        let status = slot.lock().status.clone();
        Some(status)
    }

    /// Every server's status, in the order they were configured.
    pub fn statuses(&self) -> Vec<(String, ServerStatus)> {
        let slots = self.shared.lock_slots().clone();
        slots
            .iter()
            .map(|slot| (slot.id.to_string(), slot.lock().status.clone()))
            .collect()
    }

    /// The entries of the file that could not be read, each an error naming its server.
    /// [`start_all`](Self::start_all) reports them too.
    pub fn config_errors(&self) -> Vec<crate::ConfigError> {
        let file = self.shared.lock_file();
        file.errors().cloned().collect()
    }

    /// The lifecycle events from now on. A subscriber that falls more than 256 events behind
    /// misses the oldest ([`broadcast::error::RecvError::Lagged`]).
    pub fn subscribe(&self) -> broadcast::Receiver<ManagerEvent> {
        self.shared.events.subscribe()
    }

    /// The running server `id`'s own toolset: its session, resources and prompts.
    pub fn toolset(&self, id: &str) -> Option<Arc<McpToolset>> {
        let slot = self.shared.slot(id).ok()?;
        slot.lock().toolset.clone()
    }

    /// Adds server `id`, not started (call [`start`](Self::start)), and to the file that
    /// [`save`](Self::save) writes.
    pub fn add(&self, id: &str, config: ServerConfig) -> Result<(), ManagerError> {
        self.shared.check_open()?;
        {
            let mut slots = self.shared.lock_slots();
            if slots.iter().any(|slot| &*slot.id == id) {
                return Err(ManagerError::AlreadyExists(id.to_owned()));
            }
            slots.push(Arc::new(Slot::new(id, config.clone())));
        }
        self.shared.lock_file().set(id, config);
        self.shared.emit(id, ManagerEventKind::Added);
        Ok(())
    }

    /// Starts server `id` and completes its handshake, within its startup timeout. A server
    /// that runs already is left alone.
    pub async fn start(&self, id: &str) -> Result<(), ManagerError> {
        let slot = self.shared.slot(id)?;
        self.shared.start_slot(&slot).await
    }

    /// Stops server `id`: calls off its start if one is under way, and closes it within the
    /// grace period.
    pub async fn stop(&self, id: &str) -> Result<(), ManagerError> {
        let slot = self.shared.slot(id)?;
        self.shared.stop_slot(&slot).await;
        Ok(())
    }

    /// Stops server `id`, then starts it again.
    pub async fn restart(&self, id: &str) -> Result<(), ManagerError> {
        let slot = self.shared.slot(id)?;
        self.shared.stop_slot(&slot).await;
        self.shared.start_slot(&slot).await
    }

    /// Replaces server `id`'s configuration. A running server is restarted with the new one;
    /// if that fails, the old configuration is put back and started again, and the error is
    /// [`ManagerError::RolledBack`]. A stopped server is only reconfigured.
    pub async fn update(&self, id: &str, config: ServerConfig) -> Result<(), ManagerError> {
        let slot = self.shared.slot(id)?;
        // References that cannot be expanded fail here, before anything is stopped.
        let options = &self.shared.launcher.options;
        let server = ServerToConnect::new(id, &config, &*options.lookup, None);
        options.connectors.connector(&server)?;
        let (old, was_up) = {
            let state = slot.lock();
            (state.config.clone(), state.toolset.is_some())
        };
        if !was_up || config.disabled {
            self.shared.stop_slot(&slot).await;
            {
                let mut state = slot.lock();
                state.config = config.clone();
                state.status = state.resting_status();
            }
            self.shared.lock_file().set(id, config);
            self.shared.emit(id, ManagerEventKind::Updated);
            return Ok(());
        }
        self.shared.stop_slot(&slot).await;
        slot.lock().config = config.clone();
        match self.shared.start_slot(&slot).await {
            Ok(()) => {
                self.shared.lock_file().set(id, config);
                self.shared.emit(id, ManagerEventKind::Updated);
                Ok(())
            }
            Err(error) => {
                self.shared.stop_slot(&slot).await;
                slot.lock().config = old;
                if let Err(restart) = self.shared.start_slot(&slot).await {
                    tracing::warn!(server = id, error = %restart, "the old configuration did not start again either");
                }
                let message = error.to_string();
                self.shared
                    .emit(id, ManagerEventKind::RolledBack { error: message });
                Err(ManagerError::RolledBack {
                    server: id.to_owned(),
                    source: Box::new(error),
                })
            }
        }
    }

    /// Enables server `id` and starts it.
    pub async fn enable(&self, id: &str) -> Result<(), ManagerError> {
        let slot = self.shared.slot(id)?;
        let config = {
            let mut state = slot.lock();
            state.config.disabled = false;
            if state.status == ServerStatus::Disabled {
                state.status = ServerStatus::Stopped;
            }
            state.config.clone()
        };
        self.shared.lock_file().set(id, config);
        self.shared.start_slot(&slot).await
    }

    /// Disables server `id`, stopping it if it runs.
    pub async fn disable(&self, id: &str) -> Result<(), ManagerError> {
        let slot = self.shared.slot(id)?;
        let config = {
            let mut state = slot.lock();
            state.config.disabled = true;
            state.config.clone()
        };
        self.shared.lock_file().set(id, config);
        self.shared.stop_slot(&slot).await;
        Ok(())
    }

    /// Stops server `id` and removes it from the registry and the file.
    pub async fn remove(&self, id: &str) -> Result<(), ManagerError> {
        let slot = self.shared.slot(id)?;
        self.shared.stop_slot(&slot).await;
        self.shared
            .lock_slots()
            .retain(|other| !Arc::ptr_eq(other, &slot));
        self.shared.lock_file().remove(id);
        self.shared.emit(id, ManagerEventKind::Removed);
        Ok(())
    }

    /// Writes the servers as they are configured now back to the file they were loaded from,
    /// atomically, keeping what the manager does not read.
    pub fn save(&self) -> Result<(), ManagerError> {
        let path = self.shared.lock_path().clone();
        let path = path.ok_or(ManagerError::NoConfigFile)?;
        self.save_to(path)
    }

    /// Writes the servers as they are configured now to `path`, atomically.
    pub fn save_to(&self, path: impl AsRef<Path>) -> Result<(), ManagerError> {
        Ok(self.shared.lock_file().save(path)?)
    }

    /// Stops every server at once, each within the grace period, and ends supervision.
    /// Later adds and starts fail with [`ManagerError::ShutDown`]. Calling it twice is
    /// harmless.
    pub async fn shutdown(&self) {
        self.shared.shut_down();
        let slots = self.shared.lock_slots().clone();
        join_all(slots.iter().map(|slot| self.shared.stop_slot(slot))).await;
        self.shared.supervisors.close();
        self.shared.supervisors.wait().await;
    }
}
