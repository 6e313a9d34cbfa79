//! What the `faulty` server writes: its messages to stdout, raw bytes when a fault wants them,
//! and entries in the fault ledger.

use std::io::{self, Write as _};

use serde_json::{Value, json};
use toolport_fixtures::FaultLedger;

/// Where the server's messages and ledger entries go.
#[derive(Debug)]
pub(super) struct Output {
    ledger: Option<FaultLedger>,
}

impl Output {
    pub(super) fn new(ledger: Option<FaultLedger>) -> Self {
        Self { ledger }
    }

    /// Writes `entry` in the ledger, if there is one.
    pub(super) fn record(&self, entry: &str) {
        if let Some(ledger) = &self.ledger
            && let Err(error) = ledger.record(entry)
        {
            eprintln!("toolport-fixture: cannot write the ledger: {error}");
        }
    }

    /// Writes one message and a newline, and flushes.
    pub(super) fn send(&self, message: &Value) {
        let mut line = serde_json::to_vec(message).unwrap_or_default();
        line.push(b'\n');
        self.write_stdout(&line);
    }

    /// Writes bytes to stdout as they are, and flushes.
    pub(super) fn write_stdout(&self, bytes: &[u8]) {
        let mut stdout = io::stdout().lock();
        // A client that is gone shows as the end of stdin, on the next read.
        let _ = stdout.write_all(bytes).and_then(|()| stdout.flush());
    }
}

/// A JSON-RPC response.
pub(super) fn answer(id: &Value, result: Value) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "result": result})
}

/// A JSON-RPC error response.
pub(super) fn failure(id: &Value, error: Value) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "error": error})
}
