//! [`CapturedLog`]: a writer that keeps everything written to it, for tests that read what a
//! `tracing` subscriber printed (that no secret is in it, say).

use std::io::Write;
use std::sync::{Arc, Mutex};

/// Keeps every byte written to it. Clones share the bytes, so one clone goes to the
/// subscriber and the test reads another.
///
/// # Examples
///
/// ```
/// use std::io::Write as _;
/// use toolport_testkit::CapturedLog;
///
/// let log = CapturedLog::default();
/// // With tracing-subscriber: `.with_writer({ let log = log.clone(); move || log.clone() })`.
/// log.clone().write_all(b"connected\n").unwrap();
/// assert_eq!(log.text(), "connected\n");
/// ```
#[derive(Debug, Clone, Default)]
pub struct CapturedLog(Arc<Mutex<Vec<u8>>>);

impl CapturedLog {
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
