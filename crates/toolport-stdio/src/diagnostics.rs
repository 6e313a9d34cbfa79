//! [`StdioDiagnostics`]: what a dead child process left behind (exit status, the tail of its
//! stderr, the last non-JSON line on stdout), shared between the transport and the session.

use std::fmt;
use std::process::ExitStatus;
use std::sync::{Mutex, MutexGuard, PoisonError};

use tokio::sync::watch;
use toolport_core::{ConnectionDiagnostics, ServerExit};

use crate::last_garbage::LastGarbage;
use crate::process::ChildState;
use crate::stderr_tail::StderrTail;

/// How many characters of stderr [`failure_details`](ConnectionDiagnostics::failure_details)
/// quotes, counted from the end.
const STDERR_CHARS: usize = 500;

/// Explains why a stdio server's connection died.
///
/// Shared (`Arc`) between the [`StdioTransport`](crate::StdioTransport) that fills it and the
/// session that asks it. Every method returns at once: nothing here waits for the child.
pub struct StdioDiagnostics {
    command: String,
    exit: watch::Receiver<ChildState>,
    stderr: Mutex<StderrTail>,
    garbage: LastGarbage,
    closed: Mutex<Option<ServerExit>>,
}

impl StdioDiagnostics {
    pub(crate) fn new(
        command: String,
        exit: watch::Receiver<ChildState>,
        stderr_lines: usize,
    ) -> Self {
        Self {
            command,
            exit,
            stderr: Mutex::new(StderrTail::new(stderr_lines)),
            garbage: LastGarbage::default(),
            closed: Mutex::new(None),
        }
    }

    /// The child's exit status, once it has exited and been reaped.
    pub fn exit_status(&self) -> Option<ExitStatus> {
        match *self.exit.borrow() {
            ChildState::Exited(status) => Some(status),
            ChildState::Running | ChildState::Lost => None,
        }
    }

    /// The last lines the server wrote to stderr, oldest first.
    pub fn stderr_tail(&self) -> Vec<String> {
        lock(&self.stderr).lines().map(str::to_owned).collect()
    }

    /// The start of the most recent line on stdout that was not JSON-RPC, if any.
    pub fn last_non_json_line(&self) -> Option<String> {
        self.garbage.get()
    }

    pub(crate) fn record_close(&self, exit: ServerExit) {
        *lock(&self.closed) = Some(exit);
    }

    pub(crate) fn record_stderr(&self, line: &str) {
        lock(&self.stderr).push(line);
    }

    pub(crate) fn record_garbage(&self, line: &[u8]) {
        self.garbage.record(line);
    }

    fn describe_exit(&self) -> Option<String> {
        let state = self.exit.borrow();
        match &*state {
            ChildState::Running => None,
            ChildState::Lost => Some("server exited; its exit status is unknown".to_owned()),
            ChildState::Exited(status) => Some(describe_status(*status)),
        }
    }

    fn describe_stderr(&self) -> Option<String> {
        let tail = lock(&self.stderr);
        let joined = tail
            .lines()
            .map(str::trim)
            .filter(|line| !line.is_empty())
            .collect::<Vec<_>>()
            .join(" | ");
        drop(tail);
        if joined.is_empty() {
            return None;
        }
        let chars = joined.chars().count();
        if chars <= STDERR_CHARS {
            return Some(format!("stderr: {joined}"));
        }
        let kept: String = joined.chars().skip(chars - STDERR_CHARS).collect();
        Some(format!("stderr: ...{kept}"))
    }
}

fn describe_status(status: ExitStatus) -> String {
    if let Some(code) = status.code() {
        return format!("server exited with status {code}");
    }
    #[cfg(unix)]
    {
        use std::os::unix::process::ExitStatusExt;
        if let Some(signal) = status.signal() {
            return format!("server was killed by signal {signal}");
        }
    }
    format!("server exited ({status})")
}

/// Locks `mutex`, ignoring poison: the data is plain text and stays usable.
fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

impl ConnectionDiagnostics for StdioDiagnostics {
    fn failure_details(&self) -> Option<String> {
        let garbage = self.garbage.describe();
        let parts: Vec<String> = [self.describe_exit(), self.describe_stderr(), garbage]
            .into_iter()
            .flatten()
            .collect();
        (!parts.is_empty()).then(|| parts.join("; "))
    }

    /// How closing the transport ended the child, once it has.
    fn server_exit(&self) -> Option<ServerExit> {
        *lock(&self.closed)
    }
}

impl fmt::Debug for StdioDiagnostics {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("StdioDiagnostics")
            .field("command", &self.command)
            .field("exit", &*self.exit.borrow())
            .finish_non_exhaustive()
    }
}
