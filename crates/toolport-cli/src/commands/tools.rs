//! `toolport tools`: list the server's tools (or a fleet's, with `--config`), or print their
//! function declarations for a model provider; with `--search`, those an agent with tool
//! search offers.

use std::collections::BTreeSet;

use std::sync::Arc;

use serde_json::{Value, json};
use toolport::provider_messages::{ApiShape, OfferedTools};
use toolport::schema::Provider;
use toolport::search::SearchToolset;
use toolport::{Mapping, Timeouts, Tool, ToolsetError};

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
    if args.search {
        allowed(servers, tools, &args.pin)?;
        return print_search_offer(servers, args).await;
    }
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

/// What the model of an agent with tool search is offered on a conversation's first turn:
/// the pinned tools and the search tool, as names and descriptions, declarations as the
/// model sees them (`--json`), or a provider's declarations.
async fn print_search_offer(servers: &Servers, args: &ToolsArgs) -> anyhow::Result<()> {
    let search = SearchToolset::builder_shared(servers.toolset())
        .pin(args.pin.iter().cloned())
        .build();
    let offered = toolport::Toolset::tools(&search, None).await?;
    if let Some(provider) = args.provider {
        let shape = ApiShape::ALL
            .into_iter()
            .find(|shape| shape.provider() == provider)
            .ok_or_else(|| anyhow::anyhow!("no API of {provider} offers tools"))?;
        let declarations = OfferedTools::new(shape, offered.iter().map(Arc::clone))?.declarations();
        terminal::out_json(&format!("{declarations:#}"));
        return Ok(());
    }
    if args.json {
        let declarations: Vec<Value> = offered
            .iter()
            .map(|tool| declaration_json(&**tool))
            .collect();
        terminal::out_json(&serde_json::to_string_pretty(&declarations)?);
        return Ok(());
    }
    let width = offered
        .iter()
        .map(|tool| tool.name().len())
        .max()
        .unwrap_or(0);
    for tool in &offered {
        let summary = tool
            .declaration()
            .description
            .lines()
            .next()
            .unwrap_or_default();
        outln!("{:width$}  {summary}", tool.name());
    }
    Ok(())
}

/// A tool as the model sees it: its name, description and input schema.
fn declaration_json(tool: &dyn Tool) -> Value {
    let declaration = tool.declaration();
    json!({
        "name": declaration.name,
        "description": declaration.description,
        "inputSchema": declaration.parameters,
    })
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
