//! `toolport-echo-server`: the [`LabServer`] over stdio on a single-threaded runtime, the one
//! server every client is measured against in `cargo xtask bench`.
//!
//! ```text
//! toolport-echo-server
//! ```
//!
//! It serves until its stdin closes. When stdin and stdout are pipes (as a client spawning it
//! makes them), they are read and written without blocking on the runtime's own thread, so a
//! round trip costs no hop through tokio's blocking pool; otherwise (a terminal, a file) it
//! falls back to rmcp's ordinary stdio transport.

use std::io;
use std::os::fd::AsFd;
use std::process::ExitCode;

use rmcp::ServiceExt;
use rmcp::service::{RoleServer, RunningService};
use tokio::net::unix::pipe;
use toolport_fixtures::{CrashBehavior, LabServer, run_server_process};

fn main() -> ExitCode {
    run_server_process("toolport-echo-server", async {
        let server = LabServer::new().with_crash_behavior(CrashBehavior::ExitProcess);
        let running = start(server).await?;
        running.waiting().await.map_err(io::Error::other)?;
        Ok(())
    })
}

/// Runs the `initialize` handshake over non-blocking pipes when stdio are pipes, else over
/// rmcp's stdio transport.
async fn start(server: LabServer) -> io::Result<RunningService<RoleServer, LabServer>> {
    let started = match stdio_pipes() {
        Ok(pipes) => server.serve(pipes).await,
        Err(_) => server.serve(rmcp::transport::stdio()).await,
    };
    started.map_err(io::Error::other)
}

/// Stdin and stdout as tokio pipe ends, if both are pipes. The fds are duplicated, so the
/// standard handles stay valid.
fn stdio_pipes() -> io::Result<(pipe::Receiver, pipe::Sender)> {
    let stdin = io::stdin().as_fd().try_clone_to_owned()?;
    let stdout = io::stdout().as_fd().try_clone_to_owned()?;
    Ok((
        pipe::Receiver::from_owned_fd(stdin)?,
        pipe::Sender::from_owned_fd(stdout)?,
    ))
}
