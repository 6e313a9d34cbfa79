//! `toolport search`: the server's tools (or a fleet's, with `--config`) ranked for a need in
//! natural words, as an agent's tool search ranks them.

use serde_json::json;
use toolport::Mapping;
use toolport::Timeouts;
use toolport::search::SearchToolset;

use crate::args::SearchArgs;
use crate::outcome::Outcome;
use crate::server::Servers;
use crate::terminal::{self, outln};

pub(crate) async fn run(args: SearchArgs, timeouts: Timeouts) -> anyhow::Result<Outcome> {
    let servers = Servers::open(&args.server, timeouts, None, Mapping::default()).await?;
    let printed = print_ranking(&servers, &args).await;
    servers.close().await;
    printed.map(|()| Outcome::Success)
}

async fn print_ranking(servers: &Servers, args: &SearchArgs) -> anyhow::Result<()> {
    // Lists the tools first, so that a fleet's renames are reported as `tools` reports them.
    servers.tools().await?;
    let search = SearchToolset::builder_shared(servers.toolset()).build();
    let hits = search
        .search(&args.query, None, usize::from(args.limit))
        .await?;
    if args.json {
        let ranking: Vec<_> = hits
            .iter()
            .map(|hit| {
                let score = (f64::from(hit.score) * 1000.0).round() / 1000.0;
                json!({"name": hit.tool.name(), "server": hit.server, "score": score})
            })
            .collect();
        terminal::out_json(&serde_json::to_string_pretty(&ranking)?);
        return Ok(());
    }
    let width = hits
        .iter()
        .map(|hit| hit.tool.name().len())
        .max()
        .unwrap_or(0);
    let server_width = hits
        .iter()
        .filter_map(|hit| hit.server.as_ref().map(String::len))
        .max();
    for hit in &hits {
        let description = &hit.tool.declaration().description;
        let summary = description.lines().next().unwrap_or_default();
        let name = hit.tool.name();
        let score = hit.score;
        match (&hit.server, server_width) {
            (Some(server), Some(server_width)) => {
                outln!("{name:width$}  {server:server_width$}  {score:>6.2}  {summary}");
            }
            _ => outln!("{name:width$}  {score:>6.2}  {summary}"),
        }
    }
    Ok(())
}
