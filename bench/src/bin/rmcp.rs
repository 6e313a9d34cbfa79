//! `toolport-bench-rmcp`: the raw rmcp 3.11 client, as its own examples use it: the `()`
//! client handler served over the child's stdout and stdin, with rmcp's defaults. With
//! `--transport http`, the same handler over rmcp's Streamable HTTP client on reqwest
//! (`StreamableHttpClientTransport::from_uri`: one pooled `reqwest::Client`), the
//! rmcp + reqwest peer.

use std::process::ExitCode;
use std::sync::Arc;

use anyhow::{Context, Result};
use rmcp::ServiceExt;
use rmcp::model::{CallToolRequestParams, JsonObject};
use rmcp::service::{RoleClient, RunningService};
use rmcp::transport::StreamableHttpClientTransport;
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
            let transport = StreamableHttpClientTransport::from_uri(process.url.clone());
            let service = ().serve(transport).await?;
            return Ok(Self {
                service,
                server: Server::Http(process),
                args,
            });
        }
        let mut child = args.spawn_server()?;
        let stdin = child.stdin.take().context("no stdin pipe")?;
        let stdout = child.stdout.take().context("no stdout pipe")?;
        let service = ().serve((stdout, stdin)).await?;
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

fn main() -> ExitCode {
    toolport_bench::entry::main::<Rmcp>()
}
