//! [`ManagerEvent`]: what happened to a managed server, sent to every subscriber and logged.

use std::time::Duration;

/// What happened to one managed server. Each event is also a `tracing` event under the target
/// `toolport_manager::lifecycle`: failures, and tools renamed or left out, at `warn`, the rest
/// at `info`.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct ManagerEvent {
    /// The server's id.
    pub server: String,
    /// What happened.
    pub kind: ManagerEventKind,
}

/// What happened, in [`ManagerEvent`].
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum ManagerEventKind {
    /// The server was added to the registry.
    Added,
    /// The server's configuration was replaced.
    Updated,
    /// A new configuration failed to start, and the old one was put back.
    RolledBack {
        /// Why the new one failed.
        error: String,
    },
    /// The server was removed from the registry.
    Removed,
    /// The server is starting.
    Starting,
    /// The server is running: its handshake completed.
    Running,
    /// A start or a restart failed.
    StartFailed {
        /// Why.
        error: String,
    },
    /// The server's connection closed (or a health ping failed) while it was running.
    Crashed {
        /// What the transport knows: for a child process, its exit status and stderr tail.
        details: Option<String>,
    },
    /// Restart number `attempt` happens after `delay`.
    Restarting {
        /// Which restart in a row, from 1.
        attempt: u32,
        /// How long it waits first.
        delay: Duration,
    },
    /// The server stays down: it crashed more often in a row than its restart policy allows.
    Failed {
        /// Why, with the details of its last exit.
        error: String,
    },
    /// The server was stopped (asked to, disabled, removed, or shut down).
    Stopped,
    /// The server announced that its tool list changed, or it joined after
    /// [`start_all`](crate::McpServerManager::start_all) returned without it: the aggregate
    /// lists it again.
    ToolsChanged,
    /// One of the server's tools has a name that begins with another server's `{id}__`, as if
    /// it were that server's: the aggregate offers it under this server's prefix instead, so
    /// that it never passes for the other's.
    ToolRenamed {
        /// The tool's name, as the server's toolset names it.
        tool: String,
        /// The name the aggregate offers it under: `{server_id}__{tool}`, within the name rule.
        name: String,
        /// The server its name claims.
        claimed: String,
    },
    /// One of the server's tools is left out of the aggregate: the name it would get is
    /// another tool's.
    ToolLeftOut {
        /// The tool's name, as the server's toolset names it.
        tool: String,
        /// The name it would get.
        name: String,
        /// The server whose tool has the name (this server itself, when two of its own tools
        /// could not be kept apart).
        holder: String,
    },
}

impl ManagerEvent {
    /// The event, logged.
    pub(crate) fn new(server: &str, kind: ManagerEventKind) -> Self {
        let event = Self {
            server: server.to_owned(),
            kind,
        };
        event.log();
        event
    }

    fn log(&self) {
        let server = self.server.as_str();
        match &self.kind {
            ManagerEventKind::StartFailed { error } => {
                tracing::warn!(target: "toolport_manager::lifecycle", server, %error, "start failed");
            }
            ManagerEventKind::Failed { error } => {
                tracing::warn!(target: "toolport_manager::lifecycle", server, %error, "failed; not restarting");
            }
            ManagerEventKind::RolledBack { error } => {
                tracing::warn!(target: "toolport_manager::lifecycle", server, %error, "update rolled back");
            }
            ManagerEventKind::Crashed { details } => {
                let details = details.as_deref().unwrap_or("no details");
                tracing::warn!(target: "toolport_manager::lifecycle", server, details, "crashed");
            }
            ManagerEventKind::ToolRenamed {
                tool,
                name,
                claimed,
            } => {
                tracing::warn!(target: "toolport_manager::lifecycle", server, tool, name, claimed, "a tool's name claims another server; offered under its own server's prefix");
            }
            ManagerEventKind::ToolLeftOut { tool, name, holder } => {
                tracing::warn!(target: "toolport_manager::lifecycle", server, tool, name, holder, "a tool's name is another tool's; left out");
            }
            ManagerEventKind::Restarting { attempt, delay } => {
                tracing::info!(target: "toolport_manager::lifecycle", server, attempt, delay_ms = delay.as_millis() as u64, "restarting");
            }
            other => {
                tracing::info!(target: "toolport_manager::lifecycle", server, event = ?other, "lifecycle");
            }
        }
    }
}
