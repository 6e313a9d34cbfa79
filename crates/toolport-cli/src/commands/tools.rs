//! `toolport tools`: list the server's tools, or print their function declarations for a model
//! provider.

use std::sync::Arc;

use toolport::schema::Provider;
use toolport::{McpTool, McpToolset, Timeouts, Tool, ToolDefinition};

use crate::args::ToolsArgs;
use crate::outcome::Outcome;
use crate::server::toolset_builder;

pub(crate) async fn run(args: ToolsArgs, timeouts: Timeouts) -> anyhow::Result<Outcome> {
    let mut builder = toolset_builder(&args.server, timeouts)?;
    if !args.allow.is_empty() {
        builder = builder.allow(args.allow).strict(true);
    }
    if let Some(provider) = args.provider {
        builder = builder.provider(provider);
    }
    let toolset = builder.build().await?;
    let listed = print_tools(&toolset, args.json, args.provider).await;
    toolset.close().await;
    listed.map(|()| Outcome::Success)
}

async fn print_tools(
    toolset: &McpToolset,
    json: bool,
    provider: Option<Provider>,
) -> anyhow::Result<()> {
    let tools = toolset.mcp_tools(None).await?;
    if let Some(provider) = provider {
        print_declarations(&tools, provider);
        return Ok(());
    }
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

/// Prints the provider's declarations as one JSON array (the toolset fitted each tool to the
/// provider: its name and its schema), and each loss on stderr.
fn print_declarations(tools: &[Arc<McpTool>], provider: Provider) {
    let mut declarations = Vec::with_capacity(tools.len());
    for tool in tools {
        if let Some(adapted) = tool.adapted_schema() {
            for change in adapted.changes.iter().filter(|c| c.is_loss()) {
                eprintln!("toolport: {provider}: {}: {change}", tool.name());
            }
        }
        declarations.extend(tool.function_declaration().cloned());
    }
    let json = serde_json::Value::Array(declarations);
    println!("{json:#}");
}
