//! Starting and stopping one server: [`Launcher`] makes its toolset and completes the
//! handshake within the startup timeout; [`Shared`]'s `start_slot` and `stop_slot` move its
//! state, holding no lock across either.

use std::sync::Arc;

use toolport_core::Connector;
use toolport_tools::{McpToolset, McpToolsetBuilder, ToolsetError};

use crate::auto_approve::AutoApproved;
use crate::builder::Options;
use crate::entry_toolset::entry_toolset_builder;
use crate::manager::Shared;
use crate::slot::Slot;
use crate::{ManagerError, ManagerEventKind, ServerConfig, ServerStatus, ServerToConnect};

/// Makes and connects servers' toolsets, with the options every server shares.
#[derive(Debug, Clone)]
pub(crate) struct Launcher {
    pub(crate) options: Arc<Options>,
}

impl Launcher {
    /// Server `id`'s toolset, connected: its process started (or its connection opened), its
    /// handshake complete and its tools listed, within its startup timeout.
    pub(crate) async fn launch(
        &self,
        id: &str,
        config: &ServerConfig,
    ) -> Result<Arc<McpToolset>, ManagerError> {
        let options = &self.options;
        let server = ServerToConnect::new(id, config, &*options.lookup, Some(options.grace));
        let connector = options.connectors.connector(&server)?;
        let toolset = self
            .toolset_builder(id, config, connector)
            .build()
            .await
            .map_err(|source| ManagerError::StartFailed {
                server: id.to_owned(),
                source: Box::new(source),
            })?;
        let toolset = Arc::new(toolset);
        let bound = config
            .startup_timeout
            .unwrap_or(self.options.startup_timeout);
        let ready = async {
            toolset.connect().await?;
            list_tools_ahead(id, &toolset).await;
            Ok::<_, ToolsetError>(())
        };
        match tokio::time::timeout(bound, ready).await {
            Ok(Ok(())) => Ok(toolset),
            Ok(Err(source)) => {
                self.close(id, &toolset).await;
                Err(ManagerError::StartFailed {
                    server: id.to_owned(),
                    source: Box::new(source),
                })
            }
            Err(_) => {
                let details = toolset.session().failure_details();
                self.close(id, &toolset).await;
                Err(ManagerError::StartTimeout {
                    server: id.to_owned(),
                    after: bound,
                    details,
                })
            }
        }
    }

    /// Closes a server's toolset, giving it the grace period; a server still not closed then
    /// is killed as its transport is dropped.
    pub(crate) async fn close(&self, id: &str, toolset: &McpToolset) {
        match tokio::time::timeout(self.options.grace, toolset.close()).await {
            Ok(exit) => tracing::debug!(server = id, %exit, "server closed"),
            Err(_) => tracing::warn!(
                server = id,
                grace_ms = self.options.grace.as_millis() as u64,
                "server did not close within its grace period; killing it"
            ),
        }
    }

    /// The toolset builder for server `id`: the entry's own (timeout, tool lists), the shared
    /// settings, its `autoApprove`, then the application's changes.
    fn toolset_builder(
        &self,
        id: &str,
        config: &ServerConfig,
        connector: Arc<dyn Connector>,
    ) -> McpToolsetBuilder {
        let options = &self.options;
        let mut builder = entry_toolset_builder(config, connector, options.timeouts);
        if let Some(choice) = &options.protocol {
            builder = builder.protocol(choice.clone());
        }
        if let Some(provider) = options.provider {
            builder = builder.provider(provider);
        }
        if let Some(hook) = &options.before_call {
            builder = builder.before_call(AutoApproved {
                tools: config.auto_approve.clone(),
                hook: Arc::clone(hook),
            });
        }
        match &options.configure {
            Some(configure) => configure(id, builder),
            None => builder,
        }
    }
}

/// Lists server `id`'s tools into its toolset's cache as part of its start, in the start's own
/// task, so that the aggregate's first turn reads every server's cache instead of asking them
/// all at once. A server that declares no tools is not asked; one whose listing fails still
/// runs, and the aggregate asks it again (and logs) at its next turn.
pub(crate) async fn list_tools_ahead(id: &str, toolset: &McpToolset) {
    let capabilities = toolset.session().server_capabilities();
    if capabilities.is_none_or(|capabilities| capabilities.tools.is_none()) {
        return;
    }
    if let Err(error) = toolset.mcp_tools(None).await {
        tracing::warn!(server = id, %error, "server's tools could not be listed as it started");
    }
}

impl Shared {
    /// Starts the server in `slot`, unless it runs already. Only this server's own later
    /// operations (a stop, a newer start) can call it off; nothing else waits for it.
    pub(crate) async fn start_slot(&self, slot: &Arc<Slot>) -> Result<(), ManagerError> {
        let id = slot.id.to_string();
        if self.is_shut_down() {
            return Err(ManagerError::ShutDown);
        }
        let (generation, stop, config) = {
            let mut state = slot.lock();
            if state.config.disabled {
                return Err(ManagerError::Disabled(id));
            }
            if state.toolset.is_some() {
                return Ok(());
            }
            let (generation, stop) = state.next_generation();
            state.status = ServerStatus::Starting;
            (generation, stop, state.config.clone())
        };
        self.emit(&id, ManagerEventKind::Starting);
        let launched = tokio::select! {
            biased;
            () = stop.cancelled() => Err(ManagerError::Interrupted(id.clone())),
            // Boxed: the handshake's state is large, and the start's task (moved as it is
            // spawned, polled and read) should not carry it inline.
            launched = Box::pin(self.launcher.launch(&id, &config)) => launched,
        };
        let toolset = match launched {
            Ok(toolset) => toolset,
            Err(ManagerError::Interrupted(id)) => return Err(ManagerError::Interrupted(id)),
            Err(error) => {
                let status = ServerStatus::Failed {
                    error: error.to_string(),
                };
                if slot.set_status_if(generation, status) {
                    let error = error.to_string();
                    self.emit(&id, ManagerEventKind::StartFailed { error });
                }
                return Err(error);
            }
        };
        let installed = {
            let mut state = slot.lock();
            let current = state.generation == generation;
            if current {
                state.toolset = Some(Arc::clone(&toolset));
                state.status = ServerStatus::Running;
            }
            current
        };
        if !installed {
            self.launcher.close(&id, &toolset).await;
            return Err(ManagerError::Interrupted(id));
        }
        self.emit(&id, ManagerEventKind::Running);
        self.supervise(Arc::clone(slot), toolset, generation, stop, config.restart);
        Ok(())
    }

    /// Stops the server in `slot`: calls off a start under way and its supervision, and closes
    /// its toolset within the grace period.
    pub(crate) async fn stop_slot(&self, slot: &Slot) {
        let (toolset, was_up) = {
            let mut state = slot.lock();
            let was_up = matches!(
                state.status,
                ServerStatus::Starting | ServerStatus::Running | ServerStatus::Restarting { .. }
            );
            state.next_generation();
            state.status = state.resting_status();
            (state.toolset.take(), was_up)
        };
        if was_up {
            self.emit(&slot.id, ManagerEventKind::Stopped);
        }
        if let Some(toolset) = toolset {
            self.launcher.close(&slot.id, &toolset).await;
        }
    }
}
