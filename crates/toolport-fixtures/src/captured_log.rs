//! [`CapturedLog`]: a writer that keeps everything written to it, for tests that read what a
//! `tracing` subscriber printed (that no secret is in it, say), and the subscriber that prints
//! everything to it.

use std::io::Write;
use std::sync::{Arc, Mutex};

/// Keeps every byte written to it. Clones share the bytes, so one clone goes to the
/// subscriber and the test reads another.
///
/// # Examples
///
/// ```
/// use std::io::Write as _;
/// use toolport_fixtures::CapturedLog;
///
/// let log = CapturedLog::default();
/// // Or `tracing::subscriber::set_default(log.subscriber())`, for everything traced.
/// log.clone().write_all(b"connected\n").unwrap();
/// assert_eq!(log.text(), "connected\n");
/// ```
#[derive(Debug, Clone, Default)]
pub struct CapturedLog(Arc<Mutex<Vec<u8>>>);

impl CapturedLog {
    /// A subscriber that writes every event and span of every level here, without colours:
    /// what a test that no secret reaches a log line installs, with
    /// `tracing::subscriber::set_default` (this thread) or `set_global_default`.
    pub fn subscriber(&self) -> impl tracing::Subscriber + Send + Sync + 'static {
        let writer = self.clone();
        tracing_subscriber::fmt()
            .with_max_level(tracing::Level::TRACE)
            .with_ansi(false)
            .with_writer(move || writer.clone())
            .finish()
    }

    /// Everything written so far, as text (invalid UTF-8 replaced).
    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.0.lock().unwrap_or_else(|e| e.into_inner())).into_owned()
    }
}

impl Write for CapturedLog {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.0
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .extend_from_slice(bytes);
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}
