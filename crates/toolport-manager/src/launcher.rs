//! [`Launcher`]: makes one server's toolset from its entry and completes its handshake within
//! the startup timeout, with the options every server shares.

use std::sync::Arc;

use toolport_core::Connector;
use toolport_tools::{BeforeCallLayer, McpToolset, McpToolsetBuilder, ToolsetError};

use crate::auto_approve::AutoApproved;
use crate::builder::Options;
use crate::entry_toolset::entry_toolset_builder;
use crate::{ManagerError, ServerConfig, ServerToConnect};

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

    /// The toolset builder for server `id`: the entry's own (timeout, limit on concurrent
    /// calls, tool lists), the shared
    /// settings, its `autoApprove`, then the application's changes.
    fn toolset_builder(
        &self,
        id: &str,
        config: &ServerConfig,
        connector: Arc<dyn Connector>,
    ) -> McpToolsetBuilder {
        let options = &self.options;
        let mut builder = entry_toolset_builder(
            config,
            connector,
            options.timeouts,
            options.max_concurrent_calls,
        );
        if let Some(choice) = &options.protocol {
            let choice = choice.clone();
            builder = builder.session(|session| session.protocol(choice));
        }
        if let Some(provider) = options.provider {
            builder = builder.fit_to(provider);
        }
        if let Some(hook) = &options.before_call {
            builder = builder.layer(BeforeCallLayer::new(AutoApproved {
                tools: config.auto_approve.clone(),
                hook: Arc::clone(hook),
            }));
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
