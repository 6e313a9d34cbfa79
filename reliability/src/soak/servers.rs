//! The servers the soak talks to: the `toolport-fixture lab` child process over stdio, and the
//! fixtures' lab server over Streamable HTTP or legacy SSE in a child process of the soak
//! binary itself (`toolport-soak serve http|sse`), so that neither the server's memory nor its
//! sockets are counted as the client's.

use std::io::{self, Write as _};
use std::path::Path;
use std::process::Stdio;
use std::sync::Arc;
use std::time::Duration;

use tokio::io::{AsyncBufReadExt as _, AsyncReadExt as _, BufReader};
use tokio::process::{Child, Command};
use toolport::http::HttpServer;
use toolport::sse::SseServer;
use toolport::stdio::StdioServer;
use toolport::{Connector, Tool};
use toolport_fixtures::{HttpFixtureServer, LabServer, LegacySseFixtureServer};

/// How long a served child process may take to print its URL.
const LISTEN_TIMEOUT: Duration = Duration::from_secs(30);

/// How long a served child process may take to exit once its stdin closed.
const EXIT_TIMEOUT: Duration = Duration::from_secs(5);

/// How long a fixture child process lives at most, beyond any phase: an hour.
const FIXTURE_LIFETIME_SECS: &str = "3600";

/// The transports over HTTP, which `toolport-soak serve` serves the lab server over.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ServedTransport {
    /// Streamable HTTP, on `http://127.0.0.1:<port>/mcp`.
    Http,
    /// Legacy HTTP+SSE, on `http://127.0.0.1:<port>/sse`.
    Sse,
}

impl ServedTransport {
    /// The transport named `name` (`http` or `sse`), as `toolport-soak serve` takes it.
    pub fn parse(name: &str) -> Option<ServedTransport> {
        match name {
            "http" => Some(ServedTransport::Http),
            "sse" => Some(ServedTransport::Sse),
            _ => None,
        }
    }

    fn name(self) -> &'static str {
        match self {
            ServedTransport::Http => "http",
            ServedTransport::Sse => "sse",
        }
    }
}

/// Serves the fixtures' lab server over `transport` on an ephemeral port of 127.0.0.1,
/// prints its URL as the first line on stdout, and serves until stdin closes. The main of
/// `toolport-soak serve`.
pub async fn serve(transport: ServedTransport) -> io::Result<()> {
    match transport {
        ServedTransport::Http => {
            let server = HttpFixtureServer::start(LabServer::new).await?;
            announce(&server.url())?;
            until_stdin_closes().await?;
            server.stop().await;
        }
        ServedTransport::Sse => {
            let server = LegacySseFixtureServer::start(LabServer::new).await?;
            announce(&server.url())?;
            until_stdin_closes().await?;
            server.stop().await;
        }
    }
    Ok(())
}

fn announce(url: &str) -> io::Result<()> {
    let mut stdout = io::stdout().lock();
    writeln!(stdout, "{url}")?;
    stdout.flush()
}

async fn until_stdin_closes() -> io::Result<()> {
    let mut stdin = tokio::io::stdin();
    let mut sink = [0_u8; 64];
    while stdin.read(&mut sink).await? > 0 {}
    Ok(())
}

/// The stdio server: `toolport-fixture lab`, alive for an hour at most, crashing after
/// `crash_after` if given.
pub(super) fn fixture_args(crash_after: Option<Duration>) -> Vec<String> {
    let mut args = vec!["lab".to_owned(), "--lifetime-secs".to_owned()];
    args.push(FIXTURE_LIFETIME_SECS.to_owned());
    if let Some(after) = crash_after {
        args.push("--exit-after-ms".to_owned());
        args.push(after.as_millis().to_string());
    }
    args
}

/// Calls the lab server's `echo` with `text`, and checks that the answer is that text: a
/// call answered with another call's result fails.
pub(super) async fn echo(tool: &dyn Tool, text: &str) -> Result<(), String> {
    let output = tool
        .call(serde_json::json!({ "text": text }), None)
        .await
        .map_err(|error| toolport::error_chain(&error))?;
    if output.is_error || output.value["text"] != text {
        return Err(format!("`echo` of {text:?} answered {}", output.value));
    }
    Ok(())
}

/// The lab server of a phase, started before its census and stopped after it, so that a
/// connection the client failed to close is still open to be counted: over stdio each
/// session starts a child of its own; over HTTP one child process serves every session.
#[derive(Debug)]
pub(super) enum LabEndpoint {
    /// `toolport-fixture lab`, started by each connect.
    Stdio(StdioServer),
    /// A `toolport-soak serve` child process.
    Served(ServerProcess),
}

impl LabEndpoint {
    /// A stdio server running `fixture`.
    pub(super) fn stdio(fixture: &Path) -> LabEndpoint {
        LabEndpoint::Stdio(StdioServer::new(fixture).args(fixture_args(None)))
    }

    /// Starts `toolport-soak serve` over `transport`.
    pub(super) async fn served(
        soak_binary: &Path,
        transport: ServedTransport,
    ) -> Result<LabEndpoint, String> {
        Ok(LabEndpoint::Served(
            ServerProcess::start(soak_binary, transport).await?,
        ))
    }

    /// A fresh connector to this server, as a new session would be configured: its HTTP
    /// connection pool, if it has one, is the session's own and goes with it.
    pub(super) fn connector(&self) -> Arc<dyn Connector> {
        match self {
            LabEndpoint::Stdio(server) => Arc::new(server.clone()),
            LabEndpoint::Served(process) => match process.transport {
                ServedTransport::Http => Arc::new(HttpServer::new(process.url.clone())),
                ServedTransport::Sse => Arc::new(SseServer::new(process.url.clone())),
            },
        }
    }

    /// Stops the served child process, if there is one, and waits until it has exited.
    pub(super) async fn stop(self) -> Result<(), String> {
        match self {
            LabEndpoint::Stdio(_) => Ok(()),
            LabEndpoint::Served(process) => process.stop().await,
        }
    }
}

/// A `toolport-soak serve` child process and the URL it serves on.
#[derive(Debug)]
pub(super) struct ServerProcess {
    child: Child,
    transport: ServedTransport,
    url: String,
}

impl ServerProcess {
    async fn start(soak_binary: &Path, transport: ServedTransport) -> Result<Self, String> {
        let mut child = Command::new(soak_binary)
            .args(["serve", transport.name()])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .kill_on_drop(true)
            .spawn()
            .map_err(|error| format!("cannot start {}: {error}", soak_binary.display()))?;
        let stdout = child.stdout.take().ok_or("the server has no stdout pipe")?;
        let mut stdout = BufReader::new(stdout);
        let mut url = String::new();
        match tokio::time::timeout(LISTEN_TIMEOUT, stdout.read_line(&mut url)).await {
            Ok(Ok(_)) if url.starts_with("http://") => {}
            outcome => {
                let _ = child.kill().await;
                return Err(format!(
                    "`toolport-soak serve {}` printed no URL: {outcome:?}",
                    transport.name()
                ));
            }
        }
        Ok(ServerProcess {
            child,
            transport,
            url: url.trim().to_owned(),
        })
    }

    /// Closes its stdin and waits for it to exit; kills it if it does not within
    /// [`EXIT_TIMEOUT`], which is an error.
    async fn stop(mut self) -> Result<(), String> {
        drop(self.child.stdin.take());
        match tokio::time::timeout(EXIT_TIMEOUT, self.child.wait()).await {
            Ok(Ok(status)) if status.success() => Ok(()),
            Ok(Ok(status)) => Err(format!("the served lab server exited with {status}")),
            Ok(Err(error)) => Err(format!("waiting for the served lab server: {error}")),
            Err(_) => {
                let _ = self.child.kill().await;
                Err(format!(
                    "the served lab server did not exit within {EXIT_TIMEOUT:?} of its stdin closing"
                ))
            }
        }
    }
}
