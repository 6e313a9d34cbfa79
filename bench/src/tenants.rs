//! The `tenants` workload, Toolport only: N idle Streamable HTTP sessions, one per tenant, in a
//! [`TenantToolsets`] cache against one HTTP server process; the resident set's growth is
//! divided among them. One tenant is connected first, outside the measurement, so the one-time
//! costs (the runtime's first task, the first HTTP client) are not spread over the others.

use anyhow::Result;
use tokio::task::JoinSet;
use toolport::McpToolset;
use toolport::http::HttpServer;
use toolport::model::ProtocolVersion;
use toolport::tenants::{TenantId, TenantToolsets};

use crate::args::Args;
use crate::http::HttpServerProcess;
use crate::measurement::Measurement;
use crate::usage::{self, Mark};

/// Connects `args.n` tenants, `args.concurrency` at a time, each with `initialize` and
/// `tools/list` (and the listening stream unless `--no-listening`), or `server/discover` and
/// `tools/list` with `--protocol 2026-07-28`, and measures the RSS each one adds while idle.
pub async fn run(client: &'static str, args: &Args) -> Result<Measurement> {
    let server = HttpServerProcess::spawn(args).await?;
    // One server's settings, cloned for each tenant (which would add its own credential), so
    // that every tenant's requests share one connection pool.
    let base = HttpServer::new(server.url.clone()).listening_stream(args.listening);
    let version = if args.protocol_2026 {
        ProtocolVersion::V_2026_07_28
    } else {
        ProtocolVersion::V_2025_11_25
    };
    let tenants = TenantToolsets::builder(move |_tenant: &TenantId| {
        McpToolset::builder(base.clone())
            .session(|session| session.protocol_version(version.clone()))
            .build()
    })
    .capacity(args.n + 1)
    .idle_timeout(None)
    .build();
    ready(&tenants, "warm-up".into()).await?;

    let rss_before = usage::rss_kib();
    let mark = Mark::now();
    let mut connecting = JoinSet::new();
    for worker in 0..args.concurrency.min(args.n) {
        let (tenants, n, step) = (tenants.clone(), args.n, args.concurrency);
        connecting.spawn(async move {
            for tenant in (worker..n).step_by(step) {
                ready(&tenants, format!("tenant-{tenant}").into()).await?;
            }
            anyhow::Ok(())
        });
    }
    while let Some(done) = connecting.join_next().await {
        done??;
    }
    let mut measured = Measurement::new(client, args.n, mark.elapsed());
    let grown = usage::rss_kib().saturating_sub(rss_before);
    measured.rss_per_session_kib = Some(grown as f64 / args.n as f64);
    anyhow::ensure!(tenants.len() == args.n + 1, "a tenant was evicted");

    tenants.close().await;
    server.stop().await?;
    Ok(measured)
}

/// `tenant`'s toolset, connected and listed, then left idle.
async fn ready(tenants: &TenantToolsets, tenant: TenantId) -> Result<()> {
    let toolset = tenants.get(tenant.clone()).await?;
    toolset.connect().await?;
    let tools = toolset.tools(None).await?;
    anyhow::ensure!(!tools.is_empty(), "{tenant} has no tools");
    Ok(())
}
