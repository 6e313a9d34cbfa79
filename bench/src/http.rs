//! The Streamable HTTP server a client runs against with `--transport http`: the command after
//! `--` (`toolport-bench-http-server`) is spawned as a child process, which prints its endpoint
//! on its first stdout line and serves until its stdin closes. Being a child, its CPU time is
//! not in the client's `getrusage(RUSAGE_SELF)`.

use anyhow::{Context, Result};
use tokio::io::{AsyncBufReadExt, BufReader};
use tokio::process::Child;

use crate::args::Args;

/// A running HTTP server process and its endpoint.
#[derive(Debug)]
pub struct HttpServerProcess {
    child: Child,
    /// The MCP endpoint, such as `http://127.0.0.1:41234/mcp`.
    pub url: String,
}

impl HttpServerProcess {
    /// Spawns the server command of `args` and reads its endpoint.
    pub async fn spawn(args: &Args) -> Result<Self> {
        let mut child = args.spawn_server()?;
        let stdout = child.stdout.take().context("no stdout pipe")?;
        let mut url = String::new();
        BufReader::new(stdout).read_line(&mut url).await?;
        let url = url.trim().to_owned();
        anyhow::ensure!(
            url.starts_with("http://"),
            "the HTTP server printed no endpoint (got {url:?})"
        );
        Ok(Self { child, url })
    }

    /// Closes the server's stdin and waits for it to exit.
    pub async fn stop(mut self) -> Result<()> {
        drop(self.child.stdin.take());
        self.child.wait().await?;
        Ok(())
    }
}
