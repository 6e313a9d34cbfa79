//! The stderr drain: a task that reads the child's stderr for as long as it is open, logs each
//! line and keeps the tail for diagnostics, so the child never blocks on a full pipe.

use std::sync::Arc;

use tokio::process::ChildStderr;
use tokio::task::JoinHandle;

use crate::StdioDiagnostics;
use crate::line_reader::LineReader;

/// The `tracing` target of the servers' stderr lines.
pub(crate) const TARGET: &str = "toolport_stdio::server_stderr";

/// Starts draining `stderr`. Each line is cut to `max_line` bytes. The task ends at EOF.
pub(crate) fn spawn_drain(
    stderr: ChildStderr,
    diagnostics: Arc<StdioDiagnostics>,
    server: Arc<str>,
    max_line: usize,
) -> JoinHandle<()> {
    tokio::spawn(async move {
        let mut lines = LineReader::new(stderr, max_line);
        loop {
            match lines.next_line().await {
                Ok(Some(line)) => {
                    let text = String::from_utf8_lossy(line.bytes);
                    let text = text.trim_end_matches('\r');
                    tracing::debug!(target: TARGET, server = %server, truncated = line.truncated, "{text}");
                    diagnostics.record_stderr(text);
                }
                Ok(None) => break,
                Err(error) => {
                    tracing::debug!(target: TARGET, server = %server, %error, "stopped reading stderr");
                    break;
                }
            }
        }
    })
}
