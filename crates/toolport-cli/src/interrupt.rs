//! SIGINT and SIGTERM: the command closes the sessions it opened, as closing a toolset does
//! (a stdio server's stdin closed, then its process group signalled), and exits 130 or 143. A
//! second signal exits at once, dropping the servers, which kills their process groups.

use std::future::Future;
use std::sync::{Mutex, PoisonError};

use tokio::signal::unix::{SignalKind, signal};
use toolport::McpSession;

use crate::outcome::Outcome;
use crate::terminal::errln;

/// The sessions the command opened, to close on a signal.
static OPEN: Mutex<Vec<McpSession>> = Mutex::new(Vec::new());

/// Keeps `session` to close if the command is interrupted.
pub(crate) fn close_on_signal(session: &McpSession) {
    OPEN.lock()
        .unwrap_or_else(PoisonError::into_inner)
        .push(session.clone());
}

/// Runs `command` to its end, or until SIGINT or SIGTERM: then closes every session kept, while
/// the command is still there to see its calls fail, and comes out as
/// [`Outcome::Interrupted`].
pub(crate) async fn run_until_signal(
    command: impl Future<Output = anyhow::Result<Outcome>>,
) -> anyhow::Result<Outcome> {
    let mut signals = Signals::new()?;
    let mut command = std::pin::pin!(command);
    let first = tokio::select! {
        outcome = &mut command => return outcome,
        first = signals.next() => first,
    };
    errln!(
        "toolport: {}: closing the servers (again to stop at once)",
        first.name
    );
    let sessions = std::mem::take(&mut *OPEN.lock().unwrap_or_else(PoisonError::into_inner));
    let mut closing = std::pin::pin!(async {
        for session in &sessions {
            session.close().await;
        }
    });
    // The command is still polled while the sessions close: a connect or a close of its own
    // under way finishes, and closing, which waits for it, does too.
    let mut command_done = false;
    loop {
        tokio::select! {
            () = &mut closing => break,
            _ = &mut command, if !command_done => command_done = true,
            _ = signals.next() => break,
        }
    }
    Ok(Outcome::Interrupted(first.exit_status))
}

/// A signal that ends the command.
#[derive(Debug, Clone, Copy)]
struct Received {
    name: &'static str,
    /// 128 plus the signal's number, as a shell reports a process a signal ended.
    exit_status: u8,
}

/// The signals the command listens for.
struct Signals {
    interrupt: tokio::signal::unix::Signal,
    terminate: tokio::signal::unix::Signal,
}

impl Signals {
    fn new() -> anyhow::Result<Self> {
        Ok(Self {
            interrupt: signal(SignalKind::interrupt())?,
            terminate: signal(SignalKind::terminate())?,
        })
    }

    /// The next SIGINT or SIGTERM.
    async fn next(&mut self) -> Received {
        tokio::select! {
            _ = self.interrupt.recv() => Received { name: "interrupted", exit_status: 130 },
            _ = self.terminate.recv() => Received { name: "terminated", exit_status: 143 },
        }
    }
}
