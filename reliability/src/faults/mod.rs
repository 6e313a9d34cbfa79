//! The fault matrix: each [`Fault`] a server can commit, over each [`Transport`] where it
//! applies, run against a real process or a real socket, with what Toolport must do about it.
//!
//! A cell is an async function that sets up the misbehaving server, drives an `McpSession`
//! (or the layer the fault concerns) into the fault, checks the expectation and tears
//! everything down. The runner wraps every cell in a [`Census`](crate::census::Census) taken
//! before and after, so a cell need not check for leaked children or file descriptors itself.
//!
//! What every cell expects, unless its row in `docs/reliability.md` says otherwise:
//! - a clear, typed error (a `SessionError` whose predicate or `kind()` names the failure)
//!   within the cell's bound, never a hang; a timeout at its own bound, not before (and, under
//!   [`Timing::Strict`], not long after);
//! - the next call working once the server is back;
//! - no replay of a call that may have run (the fixture counts what it executed);
//! - nothing leaked: no child process, zombie or file descriptor left once the session is
//!   closed (checked by the runner).

pub mod http;
mod http_rig;
mod http_scenarios;
pub mod runner;
pub mod sse;
pub mod stdio;
pub mod table;
mod timing;

use std::fmt;
use std::future::Future;
use std::pin::Pin;
use std::time::Duration;

pub use timing::Timing;

/// A way a server can misbehave.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Fault {
    /// The server dies while a call is in flight.
    CrashMidCall,
    /// The server never answers a call.
    HangInCall,
    /// The server never answers `initialize` (or `server/discover`).
    HangInInitialize,
    /// The server writes something that is not JSON-RPC to stdout.
    GarbageOnStdout,
    /// The server writes 2 MiB to stderr while serving.
    StderrFlood,
    /// The server answers with a response larger than the client accepts.
    OversizedResponse,
    /// The server sends its response one byte a second.
    SlowLoris,
    /// The server resets the connection while a response stream is open.
    ResetMidStream,
    /// The server forgets the session and answers 404.
    SessionExpiry,
    /// The server stops and starts again.
    ServerRestart,
    /// The server answers a request with another request's id.
    WrongId,
    /// The server sends a response with an id it never got.
    UnsolicitedId,
    /// The server never reads its stdin.
    NeverReadsStdin,
}

impl Fault {
    /// Every fault, in the order of the table's rows.
    pub const ALL: [Fault; 13] = [
        Fault::CrashMidCall,
        Fault::HangInCall,
        Fault::HangInInitialize,
        Fault::GarbageOnStdout,
        Fault::StderrFlood,
        Fault::OversizedResponse,
        Fault::SlowLoris,
        Fault::ResetMidStream,
        Fault::SessionExpiry,
        Fault::ServerRestart,
        Fault::WrongId,
        Fault::UnsolicitedId,
        Fault::NeverReadsStdin,
    ];

    /// The row's label, as `docs/reliability.md` names it.
    pub fn label(self) -> &'static str {
        match self {
            Fault::CrashMidCall => "crash mid-call",
            Fault::HangInCall => "hang in a call",
            Fault::HangInInitialize => "hang in initialize",
            Fault::GarbageOnStdout => "garbage on stdout",
            Fault::StderrFlood => "2 MiB stderr flood",
            Fault::OversizedResponse => "oversized response",
            Fault::SlowLoris => "slow-loris (a byte a second)",
            Fault::ResetMidStream => "connection reset mid-stream",
            Fault::SessionExpiry => "404 session expiry",
            Fault::ServerRestart => "server restart",
            Fault::WrongId => "answer with another request's id",
            Fault::UnsolicitedId => "response to an id never sent",
            Fault::NeverReadsStdin => "never reads stdin",
        }
    }
}

/// A transport a cell runs over.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Transport {
    /// A child process over its stdin and stdout.
    Stdio,
    /// Streamable HTTP on a `127.0.0.1` socket.
    StreamableHttp,
    /// The legacy HTTP+SSE transport on a `127.0.0.1` socket.
    Sse,
}

impl Transport {
    /// Every transport, in the order of the table's columns.
    pub const ALL: [Transport; 3] = [Transport::Stdio, Transport::StreamableHttp, Transport::Sse];

    /// The column's label.
    pub fn label(self) -> &'static str {
        match self {
            Transport::Stdio => "stdio",
            Transport::StreamableHttp => "Streamable HTTP",
            Transport::Sse => "SSE",
        }
    }
}

/// What a cell saw when its expectation held: a short line for the table, such as
/// `request_timeout in 1.02 s; next call ok`.
pub type Passed = String;

/// Why a cell's expectation did not hold, in one line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Failed(pub String);

impl fmt::Display for Failed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// A running cell.
pub type CellRun = Pin<Box<dyn Future<Output = Result<Passed, Failed>> + Send>>;

/// One cell of the matrix: a fault over a transport, with the bound the whole cell must
/// finish within (set-up and tear-down included).
pub struct Cell {
    /// The fault.
    pub fault: Fault,
    /// The transport.
    pub transport: Transport,
    /// How long the whole cell may take before the runner fails it as a hang.
    pub bound: Duration,
    /// Starts the cell.
    pub run: fn() -> CellRun,
}

impl fmt::Debug for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Cell")
            .field("fault", &self.fault)
            .field("transport", &self.transport)
            .field("bound", &self.bound)
            .finish_non_exhaustive()
    }
}

/// Every cell of the matrix, column by column: stdio, then Streamable HTTP, then SSE.
pub fn all_cells() -> Vec<Cell> {
    let mut cells = stdio::cells();
    cells.extend(http::cells());
    cells.extend(sse::cells());
    cells
}
