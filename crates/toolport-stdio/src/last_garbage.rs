//! [`LastGarbage`]: the start of the most recent line a server wrote that was not JSON-RPC.

use std::sync::{Mutex, PoisonError};

use toolport_core::ConnectionDiagnostics;

/// How many characters of a line that is not JSON-RPC are kept.
const GARBAGE_CHARS: usize = 200;

/// The start of the most recent line from the server that was not JSON-RPC (a log line printed
/// to stdout by mistake, say): what explains a connection that then died. As diagnostics of
/// its own, it is a byte stream's ([`StreamTransport`](crate::StreamTransport)).
#[derive(Debug, Default)]
pub(crate) struct LastGarbage(Mutex<Option<String>>);

impl LastGarbage {
    /// Keeps the start of `line`, replacing the line kept before.
    pub(crate) fn record(&self, line: &[u8]) {
        // Four bytes per char at most, so this prefix holds enough characters.
        let prefix = &line[..line.len().min(GARBAGE_CHARS * 4)];
        let text: String = String::from_utf8_lossy(prefix)
            .chars()
            .take(GARBAGE_CHARS)
            .collect();
        *self.0.lock().unwrap_or_else(PoisonError::into_inner) = Some(text);
    }

    /// The start of the line kept, if any.
    pub(crate) fn get(&self) -> Option<String> {
        self.0
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }

    /// What to say about it in a failure's details.
    pub(crate) fn describe(&self) -> Option<String> {
        self.get()
            .map(|line| format!("server wrote a line that is not JSON-RPC: {line:?}"))
    }
}

impl ConnectionDiagnostics for LastGarbage {
    fn failure_details(&self) -> Option<String> {
        self.describe()
    }
}
