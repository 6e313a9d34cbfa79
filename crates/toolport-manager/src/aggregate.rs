//! The manager as a [`Toolset`]: every running server's tools, named apart.

use std::sync::Arc;

use futures_util::future::join_all;
use toolport_tools::names::NameRule;
use toolport_tools::{ReadonlyContext, Tool, Toolset, ToolsetError};

use crate::aggregate_cache::{Aggregate, Listed, Source};
use crate::aggregate_names::aggregate_names;
use crate::{ManagedTool, McpServerManager};

/// How the manager names itself in errors.
const TARGET: &str = "the server manager";

impl McpServerManager {
    /// The tools of every running server, for the caller described by `context`, each under
    /// its aggregate name: its own, or `{server_id}__{tool}` where two servers publish the same
    /// name (or always, with [`always_prefix`](crate::ManagerBuilder::always_prefix)), or where
    /// its own name begins with another known server's `{id}__`, so that no tool passes for
    /// another server's ([`ToolRenamed`]). A tool whose name is still another's is left out
    /// ([`ToolLeftOut`]); a name `{id}__…` stays with server `id`.
    ///
    /// [`ToolRenamed`]: crate::ManagerEventKind::ToolRenamed
    /// [`ToolLeftOut`]: crate::ManagerEventKind::ToolLeftOut
    ///
    /// Each server's list is its toolset's cache, so a server's `tools/list_changed` shows up
    /// here at the next call. While no server's list has changed, the call hands out the
    /// aggregate it made last (names and declarations are not made again). A server that
    /// cannot list its tools is left out and logged; the call fails only when every running
    /// server does.
    pub async fn managed_tools(
        &self,
        context: Option<&ReadonlyContext>,
    ) -> Result<Vec<ManagedTool>, ToolsetError> {
        Ok(self.aggregate(context).await?.managed.clone())
    }

    /// The aggregate for the caller described by `context`: the last one, while no server's
    /// list has changed.
    async fn aggregate(
        &self,
        context: Option<&ReadonlyContext>,
    ) -> Result<Arc<Aggregate>, ToolsetError> {
        let slots = self.shared.lock_slots().clone();
        let ids: Vec<Arc<str>> = slots.iter().map(|slot| Arc::clone(&slot.id)).collect();
        let running: Vec<_> = slots
            .iter()
            .filter_map(|slot| {
                let toolset = slot.lock().toolset.clone()?;
                Some((Arc::clone(&slot.id), toolset))
            })
            .collect();
        let listings = join_all(
            running
                .iter()
                .map(|(_, toolset)| toolset.mcp_tools(context)),
        )
        .await;
        let mut listed: Listed = Vec::new();
        let mut first_error = None;
        for ((id, _), listing) in running.iter().zip(listings) {
            match listing {
                Ok(tools) => listed.push((Arc::clone(id), tools)),
                Err(error) => {
                    tracing::warn!(server = &**id, %error, "server's tools left out");
                    first_error.get_or_insert(error);
                }
            }
        }
        if listed.is_empty()
            && let Some(error) = first_error
        {
            return Err(error);
        }
        let source = Source { ids, listed };
        let cache = &self.shared.aggregate;
        if let Some(aggregate) = cache.get(&source) {
            return Ok(aggregate);
        }
        let options = &self.shared.launcher.options;
        let rule = options
            .provider
            .map_or_else(NameRule::default, |provider| provider.name_rule());
        let ids: Vec<&str> = source.ids.iter().map(|id| &**id).collect();
        let servers: Vec<(&str, Vec<&str>)> = source
            .listed
            .iter()
            .map(|(id, tools)| (&**id, tools.iter().map(|tool| tool.name()).collect()))
            .collect();
        let named = aggregate_names(&rule, options.always_prefix, &ids, &servers);
        for (server, kind) in named.notes {
            self.shared.emit(server, kind);
        }
        let tools: Vec<ManagedTool> = source
            .listed
            .iter()
            .zip(named.names)
            .flat_map(|((id, tools), names)| {
                tools.iter().zip(names).filter_map(|(tool, name)| {
                    Some(ManagedTool::new(
                        Arc::clone(id),
                        Arc::clone(tool),
                        name?,
                        options.provider,
                    ))
                })
            })
            .collect();
        let aggregate = Arc::new(Aggregate::new(tools));
        cache.put(source, &aggregate);
        Ok(aggregate)
    }

    /// The tool the aggregate names `name`, for the caller described by `context`.
    ///
    /// # Errors
    ///
    /// [`ToolsetError::UnknownTool`], naming the tools offered, when there is none; otherwise
    /// as [`managed_tools`](Self::managed_tools).
    pub async fn tool(
        &self,
        name: &str,
        context: Option<&ReadonlyContext>,
    ) -> Result<ManagedTool, ToolsetError> {
        let tools = self.managed_tools(context).await?;
        let available: Vec<String> = tools.iter().map(|tool| tool.name().to_owned()).collect();
        tools
            .into_iter()
            .find(|tool| tool.name() == name)
            .ok_or_else(|| ToolsetError::UnknownTool {
                target: TARGET.to_owned(),
                name: name.to_owned(),
                available,
            })
    }
}

#[async_trait::async_trait]
impl Toolset for McpServerManager {
    /// [`managed_tools`](McpServerManager::managed_tools), each a `dyn Tool`: the very same
    /// `Arc`s turn after turn while no server's list has changed, so a layer over the manager
    /// can tell an unchanged list by its pointers.
    async fn tools(
        &self,
        context: Option<&ReadonlyContext>,
    ) -> Result<Vec<Arc<dyn Tool>>, ToolsetError> {
        Ok(self.aggregate(context).await?.offered.clone())
    }

    /// Shuts the manager down ([`shutdown`](McpServerManager::shutdown)).
    async fn close(&self) {
        self.shutdown().await;
    }
}
