//! `toolport tools`: list the server's tools.

use toolport::{McpToolset, Timeouts, Tool, ToolDefinition};

use crate::args::ToolsArgs;
use crate::outcome::Outcome;
use crate::server::toolset_builder;

pub(crate) async fn run(args: ToolsArgs, timeouts: Timeouts) -> anyhow::Result<Outcome> {
    let mut builder = toolset_builder(&args.server, timeouts)?;
    if !args.allow.is_empty() {
        builder = builder.allow(args.allow).strict(true);
    }
    let toolset = builder.build().await?;
    let listed = print_tools(&toolset, args.json).await;
    toolset.close().await;
    listed.map(|()| Outcome::Success)
}

async fn print_tools(toolset: &McpToolset, json: bool) -> anyhow::Result<()> {
    let tools = toolset.mcp_tools(None).await?;
    if json {
        let listing: Vec<&ToolDefinition> = tools.iter().map(|tool| tool.definition()).collect();
        println!("{}", serde_json::to_string_pretty(&listing)?);
        return Ok(());
    }
    let width = tools
        .iter()
        .map(|tool| tool.name().len())
        .max()
        .unwrap_or(0);
    for tool in &tools {
        let summary = tool
            .declaration()
            .description
            .lines()
            .next()
            .unwrap_or_default();
        println!("{:width$}  {summary}", tool.name());
    }
    Ok(())
}
