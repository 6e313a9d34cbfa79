//! One entry's toolset builder: its connector, its own request timeout, its limit on
//! concurrent calls and its tool lists, shared by the manager's starts and by a single server
//! of a file used on its own.

use std::num::NonZeroUsize;
use std::sync::Arc;

use toolport_core::{Connector, Timeouts};
use toolport_tools::{McpToolset, McpToolsetBuilder, ReadonlyContext, ToolDefinition};

use crate::{ConfigError, ServerConfig};

impl ServerConfig {
    /// A toolset builder for this server, named `id` in errors: its connector
    /// ([`connector`](Self::connector)), `timeouts` with the entry's `timeout` as the request
    /// bound, its `maxConcurrentCalls`, and its `includeTools`/`excludeTools`. For one server of a file without a
    /// manager, as `toolport --config FILE --server ID` uses it.
    pub fn toolset_builder(
        &self,
        id: &str,
        timeouts: Timeouts,
    ) -> Result<McpToolsetBuilder, ConfigError> {
        Ok(entry_toolset_builder(
            self,
            self.connector(id)?,
            timeouts,
            None,
        ))
    }
}

/// The toolset builder over `connector` with `config`'s request timeout, limit on concurrent
/// calls (else `max_concurrent_calls`, the manager's) and tool lists.
pub(crate) fn entry_toolset_builder(
    config: &ServerConfig,
    connector: Arc<dyn Connector>,
    timeouts: Timeouts,
    max_concurrent_calls: Option<NonZeroUsize>,
) -> McpToolsetBuilder {
    let timeouts = match config.timeout {
        Some(request) => timeouts.with_request(request),
        None => timeouts,
    };
    let limit = config.max_concurrent_calls.or(max_concurrent_calls);
    let builder = McpToolset::builder_shared(connector).session(|session| {
        let session = session.timeouts(timeouts);
        match limit {
            Some(limit) => session.max_concurrent_calls(limit),
            None => session,
        }
    });
    if config.include_tools.is_none() && config.exclude_tools.is_empty() {
        return builder;
    }
    let lists = config.clone();
    builder
        .filter(move |tool: &ToolDefinition, _: Option<&ReadonlyContext>| lists.offers(&tool.name))
}
