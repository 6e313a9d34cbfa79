//! [`ServerEvent`]: the server notifications a session fans out to its subscribers.

#![expect(
    deprecated,
    reason = "logging is deprecated after 2025-11-25, the version Toolport speaks, which still has it"
)]

use rmcp::model::{
    LoggingMessageNotificationParam, ProgressNotificationParam, ResourceUpdatedNotificationParam,
};

/// A notification from the server, delivered to every
/// [`McpSession::subscribe`](crate::McpSession::subscribe) receiver.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub enum ServerEvent {
    /// `notifications/tools/list_changed`: cached tool lists are stale.
    ToolListChanged,
    /// `notifications/resources/list_changed`.
    ResourceListChanged,
    /// `notifications/prompts/list_changed`.
    PromptListChanged,
    /// `notifications/resources/updated` for one resource.
    ResourceUpdated(ResourceUpdatedNotificationParam),
    /// `notifications/progress` for a request in flight.
    Progress(ProgressNotificationParam),
    /// `notifications/message`: a log line from the server.
    Log(LoggingMessageNotificationParam),
    /// A new connection was made (first use, or a reconnect after the old one died). Anything
    /// cached from the old connection is stale.
    Reconnected,
}
