//! `toolport-bench-toolport`: the Toolport client, through its public API only: an
//! [`McpToolset`] over a [`StdioServer`] (or, with `--transport http`, over an [`HttpServer`]),
//! tools found with [`Toolset::tools`](toolport::Toolset::tools) and called with [`Tool::call`] (so the result mapping is
//! measured too). Its `tenants` workload is [`toolport_bench::tenants`]. The `fleet` row runs
//! Toolport through its server manager, in `toolport-bench-manager`, so that this client carries
//! no manager code.

use std::process::ExitCode;
use std::sync::{Arc, OnceLock};

use anyhow::{Context, Result};
use toolport::http::HttpServer;
use toolport::model::ProtocolVersion;
use toolport::schema::Provider;
use toolport::stdio::StdioServer;
use toolport::{ListCaching, McpToolset, Tool};
use toolport_bench::ECHO_TEXT;
use toolport_bench::args::{Args, Transport};
use toolport_bench::drive::Client;
use toolport_bench::http::HttpServerProcess;
use toolport_bench::measurement::Measurement;

/// A toolset, and its `echo` tool once the first [`Client::tools`] found it.
struct Toolport {
    toolset: McpToolset,
    echo: OnceLock<Arc<dyn Tool>>,
    args: Arc<Args>,
    /// The HTTP server process, with `--transport http`.
    http: Option<HttpServerProcess>,
}

impl Client for Toolport {
    const NAME: &'static str = "toolport";

    async fn connect(args: Arc<Args>) -> Result<Self> {
        let (builder, http) = match args.transport {
            Transport::Stdio => {
                let server = StdioServer::new(args.program()).args(args.server_args());
                (McpToolset::builder(server), None)
            }
            Transport::Http => {
                let process = HttpServerProcess::spawn(&args).await?;
                let server = HttpServer::new(process.url.clone());
                (McpToolset::builder(server), Some(process))
            }
        };
        // Pinned, as the peer of each row is: both speak the same wire.
        let version = if args.protocol_2026 {
            ProtocolVersion::V_2026_07_28
        } else {
            ProtocolVersion::V_2025_11_25
        };
        let mut builder = builder
            .session(|session| session.protocol_version(version))
            .list_caching(if args.every_turn {
                ListCaching::every_turn()
            } else {
                ListCaching::default()
            });
        if let Some(provider) = &args.provider {
            builder = builder.fit_to(provider.parse::<Provider>()?);
        }
        let toolset = builder.build().await?;
        // Spawn and `initialize` now; the toolset would otherwise connect on first use.
        toolset.connect().await?;
        Ok(Self {
            toolset,
            echo: OnceLock::new(),
            args,
            http,
        })
    }

    async fn tools(&self) -> Result<usize> {
        let tools = self.toolset.tools(None).await?;
        if self.echo.get().is_none() {
            let echo = tools.iter().find(|tool| tool.name() == "echo");
            let echo = echo.context("the server has no `echo` tool")?;
            let _ = self.echo.set(echo.clone());
        }
        Ok(tools.len())
    }

    async fn echo(&self) -> Result<()> {
        let echo = self.echo.get().context("`tools` runs before `echo`")?;
        let mut arguments = serde_json::Map::new();
        arguments.insert(self.args.arg.clone(), ECHO_TEXT.into());
        let output = echo.call(arguments.into(), None).await?;
        anyhow::ensure!(!output.is_error, "echo failed: {}", output.value);
        Ok(())
    }

    async fn close(self) -> Result<()> {
        self.toolset.close().await;
        if let Some(http) = self.http {
            http.stop().await?;
        }
        Ok(())
    }

    async fn tenants(args: Arc<Args>) -> Result<Measurement> {
        toolport_bench::tenants::run(Self::NAME, &args).await
    }
}

fn main() -> ExitCode {
    toolport_bench::entry::main::<Toolport>()
}
