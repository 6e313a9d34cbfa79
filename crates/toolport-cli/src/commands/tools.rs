//! `toolport tools`: list the server's tools (or a fleet's, with `--config`), or print their
//! function declarations for a model provider.

use std::collections::BTreeSet;

use serde_json::Value;
use toolport::schema::Provider;
use toolport::{Mapping, Timeouts, ToolsetError};

use crate::args::ToolsArgs;
use crate::outcome::Outcome;
use crate::server::{ListedTool, Servers};
use crate::terminal::{self, errln, outln};

pub(crate) async fn run(args: ToolsArgs, timeouts: Timeouts) -> anyhow::Result<Outcome> {
    let servers = Servers::open(&args.server, timeouts, args.provider, Mapping::default()).await?;
    let listed = print_tools(&servers, &args).await;
    servers.close().await;
    listed.map(|()| Outcome::Success)
}

async fn print_tools(servers: &Servers, args: &ToolsArgs) -> anyhow::Result<()> {
    let mut tools = servers.tools().await?;
    if !args.allow.is_empty() {
        tools = allowed(servers, tools, &args.allow)?;
    }
    if let Some(provider) = args.provider {
        print_declarations(&tools, provider);
        return Ok(());
    }
    if args.json {
        let listing = tools
            .iter()
            .map(|tool| listing_json(servers, tool))
            .collect::<Result<Vec<Value>, _>>()?;
        terminal::out_json(&serde_json::to_string_pretty(&listing)?);
        return Ok(());
    }
    let width = tools.iter().map(|tool| tool.name.len()).max().unwrap_or(0);
    let server_width = tools
        .iter()
        .filter_map(|tool| tool.server.as_ref().map(String::len))
        .max();
    for tool in &tools {
        let description = tool.tool.definition().description.as_deref();
        let summary = description
            .unwrap_or_default()
            .lines()
            .next()
            .unwrap_or_default();
        match (&tool.server, server_width) {
            (Some(server), Some(server_width)) => {
                outln!("{:width$}  {server:server_width$}  {summary}", tool.name);
            }
            _ => outln!("{:width$}  {summary}", tool.name),
        }
    }
    Ok(())
}

/// The tools named in `--allow`, or an error naming those the servers lack.
fn allowed(
    servers: &Servers,
    tools: Vec<ListedTool>,
    allow: &[String],
) -> anyhow::Result<Vec<ListedTool>> {
    let available: BTreeSet<&str> = tools.iter().map(|tool| tool.name.as_str()).collect();
    let missing: Vec<String> = allow
        .iter()
        .filter(|name| !available.contains(name.as_str()))
        .cloned()
        .collect();
    if !missing.is_empty() {
        return Err(ToolsetError::MissingTools {
            target: servers.target(),
            missing,
            available: available.into_iter().map(str::to_owned).collect(),
        }
        .into());
    }
    Ok(tools
        .into_iter()
        .filter(|tool| allow.contains(&tool.name))
        .collect())
}

/// The tool as the server listed it, every member kept (those rmcp's model drops put back);
/// in a fleet, under the name the command takes, with the server's id as `server`.
fn listing_json(servers: &Servers, tool: &ListedTool) -> serde_json::Result<Value> {
    let definition = tool.tool.definition();
    let mut listing = match servers.session_of(tool) {
        Some(session) => session.tool_as_listed(definition)?,
        None => serde_json::to_value(definition)?,
    };
    if let (Some(server), Value::Object(fields)) = (&tool.server, &mut listing) {
        fields.insert("name".to_owned(), Value::from(tool.name.as_str()));
        fields.insert("server".to_owned(), Value::from(server.as_str()));
    }
    Ok(listing)
}

/// Prints the provider's declarations as one JSON array (each tool fitted to the provider:
/// its name and its schema), and each loss on stderr.
fn print_declarations(tools: &[ListedTool], provider: Provider) {
    let mut declarations = Vec::with_capacity(tools.len());
    for tool in tools {
        if let Some(adapted) = tool.tool.adapted_schema() {
            for change in adapted.changes.iter().filter(|c| c.is_loss()) {
                errln!("toolport: {provider}: {}: {change}", tool.name);
            }
        }
        declarations.extend(tool.function.clone());
    }
    let json = Value::Array(declarations);
    terminal::out_json(&format!("{json:#}"));
}
