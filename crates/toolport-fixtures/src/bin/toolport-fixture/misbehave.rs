//! The misbehaving modes, for error tests: they never complete an MCP handshake.

use std::io::{BufRead, Write};
use std::sync::mpsc;
use std::time::Duration;

/// Reads one line (the `initialize` request), then fails as a server whose backend is down.
pub(crate) fn exit_during_init(lifetime: Duration) -> i32 {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let mut line = String::new();
        let _ = std::io::stdin().lock().read_line(&mut line);
        let _ = tx.send(());
    });
    // Whether the request came, stdin closed or the lifetime ran out, fail the same way.
    let _ = rx.recv_timeout(lifetime);
    eprintln!("fatal: database unreachable");
    1
}

/// Prints a log line to stdout, where JSON-RPC belongs, then says nothing more.
pub(crate) fn garbage(lifetime: Duration) -> i32 {
    let mut stdout = std::io::stdout().lock();
    let _ = writeln!(stdout, "Starting server on port 8080...");
    let _ = stdout.flush();
    drain_stdin(lifetime);
    0
}

/// Reads stdin and never answers.
pub(crate) fn hang(lifetime: Duration) -> i32 {
    drain_stdin(lifetime);
    0
}

/// Discards stdin until it closes or `lifetime` passes, whichever comes first.
fn drain_stdin(lifetime: Duration) {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let _ = std::io::copy(&mut std::io::stdin().lock(), &mut std::io::sink());
        let _ = tx.send(());
    });
    let _ = rx.recv_timeout(lifetime);
}
