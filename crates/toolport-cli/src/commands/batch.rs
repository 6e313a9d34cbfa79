//! `toolport batch`: many calls, read from stdin, in one session.

use std::collections::HashMap;
use std::sync::Arc;

use serde_json::{Value, json};
use tokio::io::AsyncBufReadExt as _;
use toolport::{McpTool, Timeouts, Tool, ToolOutput};

use crate::args::BatchArgs;
use crate::commands::call::parse_arguments;
use crate::outcome::Outcome;
use crate::server::toolset_builder;

/// What the calls of a batch came to.
#[derive(Debug, Default)]
struct Tally {
    tool_errors: usize,
    failures: Vec<String>,
    calls: usize,
}

pub(crate) async fn run(args: BatchArgs, timeouts: Timeouts) -> anyhow::Result<Outcome> {
    let toolset = toolset_builder(&args.server, timeouts)?.build().await?;
    let tally = async {
        let tools: HashMap<String, Arc<McpTool>> = toolset
            .mcp_tools(None)
            .await?
            .into_iter()
            .map(|tool| (tool.name().to_owned(), tool))
            .collect();
        run_lines(&tools).await
    }
    .await;
    toolset.close().await;
    let tally = tally?;
    if let Some(first) = tally.failures.first() {
        anyhow::bail!(
            "{} of {} calls failed; first: {first}",
            tally.failures.len(),
            tally.calls
        );
    }
    Ok(if tally.tool_errors > 0 {
        Outcome::ToolError
    } else {
        Outcome::Success
    })
}

/// Runs each stdin line as a call, in order, printing one JSON line per call.
async fn run_lines(tools: &HashMap<String, Arc<McpTool>>) -> anyhow::Result<Tally> {
    let mut lines = tokio::io::BufReader::new(tokio::io::stdin()).lines();
    let mut tally = Tally::default();
    let mut line_number = 0;
    while let Some(line) = lines.next_line().await? {
        line_number += 1;
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        tally.calls += 1;
        let (name, arguments) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
        let record = match call_line(tools, name, arguments.trim()).await {
            Ok(output) => {
                tally.tool_errors += usize::from(output.is_error);
                json!({"tool": name, "is_error": output.is_error, "result": output.value})
            }
            Err(error) => {
                let message = error.to_string();
                tally
                    .failures
                    .push(format!("line {line_number}: {message}"));
                json!({"tool": name, "is_error": true, "result": {"error": message}})
            }
        };
        println!("{record}");
    }
    Ok(tally)
}

async fn call_line(
    tools: &HashMap<String, Arc<McpTool>>,
    name: &str,
    arguments: &str,
) -> anyhow::Result<ToolOutput> {
    let arguments: Value = parse_arguments((!arguments.is_empty()).then_some(arguments))?;
    let tool = tools
        .get(name)
        .ok_or_else(|| anyhow::anyhow!("unknown tool `{name}`"))?;
    Ok(tool.call(arguments, None).await?)
}
