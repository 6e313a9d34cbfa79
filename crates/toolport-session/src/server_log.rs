//! [`record`]: a server's log message (`notifications/message`) as a `tracing` event at the
//! matching level, under the target `toolport_session::server_log`.

#![expect(
    deprecated,
    reason = "logging is deprecated after 2025-11-25, the version Toolport speaks, which still has it"
)]

use std::fmt;

use rmcp::model::{LoggingLevel, LoggingMessageNotificationParam};
use serde_json::Value;

/// Emits `params` at the level the server gave it: `debug` for debug; `info` for info and
/// notice; `warn` for warning; `error` for error, critical, alert and emergency. The event
/// names the server (`server`), the server's logger if any (`logger`) and the data (`data`,
/// a string as it is, anything else as JSON).
pub(crate) fn record(server: &str, params: &LoggingMessageNotificationParam) {
    let logger = params.logger.as_deref().unwrap_or_default();
    let data = LogData(&params.data);
    match params.level {
        LoggingLevel::Debug => {
            tracing::debug!(target: "toolport_session::server_log", server, logger, %data, "server log");
        }
        LoggingLevel::Info | LoggingLevel::Notice => {
            tracing::info!(target: "toolport_session::server_log", server, logger, %data, "server log");
        }
        LoggingLevel::Warning => {
            tracing::warn!(target: "toolport_session::server_log", server, logger, %data, "server log");
        }
        LoggingLevel::Error
        | LoggingLevel::Critical
        | LoggingLevel::Alert
        | LoggingLevel::Emergency => {
            tracing::error!(target: "toolport_session::server_log", server, logger, %data, "server log");
        }
    }
}

/// A log message's data: a string as it is, anything else as JSON.
struct LogData<'a>(&'a Value);

impl fmt::Display for LogData<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            Value::String(text) => f.write_str(text),
            other => write!(f, "{other}"),
        }
    }
}
