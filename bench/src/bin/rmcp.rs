//! `toolport-bench-rmcp`: the raw rmcp 3.11 client, as its own examples use it: the `()`
//! client handler served over the child's stdout and stdin, with rmcp's defaults. With
//! `--transport http`, the same handler over rmcp's Streamable HTTP client on reqwest, the
//! rmcp + reqwest peer, in one of two configurations:
//!
//! - by default `StreamableHttpClientTransport::from_uri`, rmcp's own client: a
//!   `reqwest::Client` with `pool_max_idle_per_host(0)`, so every request opens a new TCP
//!   connection;
//! - with `--pooled`, `StreamableHttpClientTransport::with_client` on a `reqwest::Client` built
//!   here: idle connections kept alive and reused, `TCP_NODELAY` on (see [`pooled_client`]).
//!
//! It speaks 2025-11-25 (`initialize`), or with `--protocol 2026-07-28`, 2026-07-28
//! (`server/discover`), as rmcp's `ClientLifecycleMode::Discover` does.

use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

use anyhow::{Context, Result};
use rmcp::ServiceExt;
use rmcp::model::{CallToolRequestParams, JsonObject, ProtocolVersion};
use rmcp::service::{ClientLifecycleMode, RoleClient, RunningService, serve_client_with_lifecycle};
use rmcp::transport::IntoTransport;
use rmcp::transport::StreamableHttpClientTransport;
use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
use tokio::process::Child;
use toolport_bench::ECHO_TEXT;
use toolport_bench::args::{Args, Transport};
use toolport_bench::drive::Client;
use toolport_bench::http::HttpServerProcess;

/// A running rmcp client service and the server process under it.
struct Rmcp {
    service: RunningService<RoleClient, ()>,
    server: Server,
    args: Arc<Args>,
}

/// The server process: on the client's pipes, or serving HTTP.
enum Server {
    Stdio(Child),
    Http(HttpServerProcess),
}

impl Client for Rmcp {
    const NAME: &'static str = "rmcp";

    async fn connect(args: Arc<Args>) -> Result<Self> {
        if args.transport == Transport::Http {
            let process = HttpServerProcess::spawn(&args).await?;
            let service = if args.pooled {
                let config = StreamableHttpClientTransportConfig::with_uri(process.url.clone());
                let transport =
                    StreamableHttpClientTransport::with_client(pooled_client()?, config);
                start(transport, &args).await?
            } else {
                let transport = StreamableHttpClientTransport::from_uri(process.url.clone());
                start(transport, &args).await?
            };
            return Ok(Self {
                service,
                server: Server::Http(process),
                args,
            });
        }
        let mut child = args.spawn_server()?;
        let stdin = child.stdin.take().context("no stdin pipe")?;
        let stdout = child.stdout.take().context("no stdout pipe")?;
        let service = start((stdout, stdin), &args).await?;
        Ok(Self {
            service,
            server: Server::Stdio(child),
            args,
        })
    }

    async fn tools(&self) -> Result<usize> {
        Ok(self.service.peer().list_tools(None).await?.tools.len())
    }

    async fn echo(&self) -> Result<()> {
        let mut arguments = JsonObject::new();
        arguments.insert(self.args.arg.clone(), ECHO_TEXT.into());
        let params = CallToolRequestParams::new("echo").with_arguments(arguments);
        let result = self.service.peer().call_tool(params).await?;
        anyhow::ensure!(result.is_error != Some(true), "echo failed");
        Ok(())
    }

    async fn close(self) -> Result<()> {
        // Cancelling drops the transport, which closes the server's stdin (or ends the HTTP
        // session); it then exits.
        self.service.cancel().await?;
        match self.server {
            Server::Stdio(mut child) => {
                child.wait().await?;
            }
            Server::Http(process) => process.stop().await?,
        }
        Ok(())
    }
}

/// Starts the `()` handler on `transport`: the `initialize` handshake of 2025-11-25, or with
/// `--protocol 2026-07-28`, `server/discover` and that version's per-request `_meta`.
async fn start<T, E, A>(transport: T, args: &Args) -> Result<RunningService<RoleClient, ()>>
where
    T: IntoTransport<RoleClient, E, A>,
    E: std::error::Error + Send + Sync + 'static,
{
    if !args.protocol_2026 {
        return Ok(().serve(transport).await?);
    }
    let lifecycle = ClientLifecycleMode::Discover {
        preferred_versions: vec![ProtocolVersion::V_2026_07_28],
    };
    Ok(serve_client_with_lifecycle((), transport, lifecycle).await?)
}

/// The `reqwest::Client` of the `--pooled` peer, configured the way the notes on rmcp's
/// defaults advise: idle connections are kept (90 s, no per-host cap; `from_uri` sets the cap
/// to 0 to dodge a delayed-ACK stall) and `TCP_NODELAY` is on, so a request's head and body
/// leave at once. Plain HTTP/1.1 (the bench builds reqwest without TLS or HTTP/2).
fn pooled_client() -> Result<reqwest::Client> {
    reqwest::Client::builder()
        .pool_idle_timeout(Duration::from_secs(90))
        .pool_max_idle_per_host(usize::MAX)
        .tcp_nodelay(true)
        .build()
        .context("building the pooled reqwest client")
}

fn main() -> ExitCode {
    toolport_bench::entry::main::<Rmcp>()
}
