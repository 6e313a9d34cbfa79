//! The Toolport toolset that the adapter clients (`toolport-bench-rig`, `toolport-bench-adk`)
//! hand to their framework: over stdio, pinned to 2025-11-25 as every client of the `turn` row
//! is, and connected.

use anyhow::{Result, bail};
use toolport::McpToolset;
use toolport::model::ProtocolVersion;
use toolport::schema::Provider;
use toolport::stdio::StdioServer;

use crate::args::{Args, Transport};

/// Spawns the server of `args` and connects a toolset to it, its tools fitted to `provider`
/// when one is given.
pub async fn toolset(args: &Args, provider: Option<Provider>) -> Result<McpToolset> {
    if args.transport != Transport::Stdio {
        bail!("the adapter clients reach their server over stdio only");
    }
    let server = StdioServer::new(args.program()).args(args.server_args());
    let mut builder = McpToolset::builder(server)
        .session(|session| session.protocol_version(ProtocolVersion::V_2025_11_25));
    if let Some(provider) = provider {
        builder = builder.fit_to(provider);
    }
    let toolset = builder.build().await?;
    // Spawn and `initialize` now; the toolset would otherwise connect on first use.
    toolset.connect().await?;
    Ok(toolset)
}
