//! The Streamable HTTP server a client runs against with `--transport http`: the command after
//! `--` is spawned as a child process, in one of two ways.
//!
//! - By default (`toolport-bench-http-server`) it prints its endpoint on its first stdout line
//!   and serves until its stdin closes.
//! - With `--port-env NAME` (`mcp-server-everything streamableHttp`, `NAME` = `PORT`) the
//!   client picks a free port on 127.0.0.1, hands it to the server in the env var `NAME`, waits
//!   until the port accepts connections (a bounded loop) and talks to
//!   `http://127.0.0.1:<port>/mcp`. The server's stdout (a log line per request) goes to
//!   `/dev/null`; it is stopped by sending `SIGTERM` to its PID.
//!
//! Being a child, the server's CPU time is not in the client's `getrusage(RUSAGE_SELF)`.

use std::net::{Ipv4Addr, SocketAddr, TcpListener};
use std::process::Stdio;
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};
use tokio::io::{AsyncBufReadExt, BufReader};
use tokio::net::TcpStream;
use tokio::process::{Child, Command};

use crate::args::Args;

/// How long a `--port-env` server may take to listen (Node starts in well under a second, but
/// other builds share this machine).
const LISTEN_TIMEOUT: Duration = Duration::from_secs(30);
/// How long between two attempts to connect to a `--port-env` server's port.
const LISTEN_POLL: Duration = Duration::from_millis(10);
/// How long a stopped server may take to exit before it is killed.
const EXIT_TIMEOUT: Duration = Duration::from_secs(5);

/// A running HTTP server process and its endpoint.
#[derive(Debug)]
pub struct HttpServerProcess {
    child: Child,
    /// The MCP endpoint, such as `http://127.0.0.1:41234/mcp`.
    pub url: String,
    /// Whether the server was told its port (and is stopped with a signal) rather than
    /// printing its endpoint (and stopped by closing its stdin).
    on_given_port: bool,
}

impl HttpServerProcess {
    /// Spawns the server command of `args` and finds its endpoint.
    pub async fn spawn(args: &Args) -> Result<Self> {
        match &args.port_env {
            Some(var) => Self::spawn_on_free_port(args, var).await,
            None => Self::spawn_printing_endpoint(args).await,
        }
    }

    /// A server that prints its endpoint on its first stdout line.
    async fn spawn_printing_endpoint(args: &Args) -> Result<Self> {
        let mut child = args.spawn_server()?;
        let stdout = child.stdout.take().context("no stdout pipe")?;
        let mut url = String::new();
        BufReader::new(stdout).read_line(&mut url).await?;
        let url = url.trim().to_owned();
        anyhow::ensure!(
            url.starts_with("http://"),
            "the HTTP server printed no endpoint (got {url:?})"
        );
        Ok(Self {
            child,
            url,
            on_given_port: false,
        })
    }

    /// A server that listens on the port in env var `var`, on `/mcp`.
    async fn spawn_on_free_port(args: &Args, var: &str) -> Result<Self> {
        let port = free_port()?;
        let mut child = Command::new(args.program())
            .args(args.server_args())
            .env(var, port.to_string())
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .kill_on_drop(true)
            .spawn()
            .with_context(|| format!("cannot start `{}`", args.program()))?;
        let address = SocketAddr::from((Ipv4Addr::LOCALHOST, port));
        let started = Instant::now();
        loop {
            if TcpStream::connect(address).await.is_ok() {
                break;
            }
            if let Some(status) = child.try_wait()? {
                bail!("the HTTP server exited before listening on {address}: {status}");
            }
            if started.elapsed() > LISTEN_TIMEOUT {
                bail!("the HTTP server did not listen on {address} within {LISTEN_TIMEOUT:?}");
            }
            tokio::time::sleep(LISTEN_POLL).await;
        }
        Ok(Self {
            child,
            url: format!("http://{address}/mcp"),
            on_given_port: true,
        })
    }

    /// Stops the server (closing its stdin, or `SIGTERM` to its PID) and waits for it to exit.
    pub async fn stop(mut self) -> Result<()> {
        drop(self.child.stdin.take());
        if self.on_given_port
            && let Some(pid) = self.child.id()
        {
            // SAFETY: `kill` only sends a signal; `pid` is our own child, not yet reaped, so
            // the PID cannot name another process.
            unsafe { libc::kill(pid as libc::pid_t, libc::SIGTERM) };
        }
        match tokio::time::timeout(EXIT_TIMEOUT, self.child.wait()).await {
            Ok(status) => {
                status?;
            }
            Err(_) => {
                self.child.kill().await?;
                bail!("the HTTP server did not exit within {EXIT_TIMEOUT:?} of being stopped");
            }
        }
        Ok(())
    }
}

/// A TCP port on 127.0.0.1 that was free a moment ago (the OS's pick for port 0).
fn free_port() -> Result<u16> {
    let listener = TcpListener::bind((Ipv4Addr::LOCALHOST, 0)).context("finding a free port")?;
    Ok(listener.local_addr()?.port())
}
