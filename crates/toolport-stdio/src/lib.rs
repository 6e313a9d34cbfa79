//! MCP servers as child processes over stdio, for Toolport.
//!
//! [`StdioServer`] holds the command line and implements [`toolport_core::Connector`]: each
//! connect spawns a fresh child in its own process group, with a minimal environment, and
//! returns a [`StdioTransport`] that speaks newline-delimited JSON-RPC over the child's stdin
//! and stdout. The child's stderr is drained and logged continuously, and its tail, the exit
//! status and any non-JSON stdout feed [`StdioDiagnostics`].
//!
//! Closing the transport closes stdin, waits a grace period, then sends `SIGTERM` and finally
//! `SIGKILL` to the whole process group. Dropping it without closing kills the group at once.
//! [`StreamTransport`] is the same framing and decoding over any byte stream, for a connector
//! of your own (MCP over a Unix socket, say).
//!
//! On Linux the child is also made a child subreaper, so that what it starts stays in its tree
//! even after `setsid` or a double fork, and those descendants, found in `/proc`, get the same
//! signals as the group. And on Linux the child is killed when this process ends, however it
//! ends (`kill -9` included): it is started from a thread that lives as long as the process,
//! since the kernel ties the signal to the thread that started it.
#![deny(missing_docs)]
#![cfg_attr(not(test), deny(clippy::unwrap_used))]
#![warn(unreachable_pub, missing_debug_implementations)]

mod connector;
mod decode;
mod descendants;
mod diagnostics;
mod env;
mod error;
mod last_garbage;
mod line_reader;
mod message_reader;
#[cfg(target_os = "linux")]
mod owner;
mod process;
mod server;
mod shown;
mod signal;
mod spawn;
mod stderr;
mod stderr_tail;
mod stream_transport;
mod transport;
mod writer;

pub use diagnostics::StdioDiagnostics;
pub use error::StdioError;
pub use server::StdioServer;
pub use stream_transport::StreamTransport;
pub use transport::StdioTransport;

// How the transport reads stdout: `LineReader` frames bounded lines and `decode_line` decodes
// one. Public for the fuzz targets in `fuzz/` only; not a stable API.
#[doc(hidden)]
pub use decode::decode as decode_line;
#[doc(hidden)]
pub use line_reader::{Line, LineReader};
