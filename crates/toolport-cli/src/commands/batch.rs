//! `toolport batch`: many calls, read from stdin, in one session.

use std::collections::HashMap;
use std::sync::Arc;

use anyhow::Context as _;
use serde_json::{Value, json};
use tokio::io::AsyncBufReadExt as _;
use toolport::{Mapping, McpTool, Timeouts, Tool, ToolOutput};

use crate::args::BatchArgs;
use crate::arguments::{Arguments, shorten};
use crate::outcome::Outcome;
use crate::server::Servers;
use crate::terminal::{self, errln};

/// What the calls of a batch came to: every line whose call failed counts, a tool error (exit
/// 2) as much as an unknown tool, bad JSON or a call that could not be made (exit 1).
#[derive(Debug, Default)]
struct Tally {
    calls: usize,
    failed: usize,
    /// Failed lines other than tool errors.
    broken: usize,
    first_failure: Option<String>,
}

impl Tally {
    fn record_failure(&mut self, line_number: usize, message: &str, is_tool_error: bool) {
        self.failed += 1;
        self.broken += usize::from(!is_tool_error);
        self.first_failure
            .get_or_insert_with(|| format!("line {line_number}: {message}"));
    }

    /// `2 of 3 calls failed; first: line 1: ...`, if any failed.
    fn summary(&self) -> Option<String> {
        let first = self.first_failure.as_ref()?;
        Some(format!(
            "{} of {} calls failed; first: {first}",
            self.failed, self.calls
        ))
    }
}

pub(crate) async fn run(args: BatchArgs, timeouts: Timeouts) -> anyhow::Result<Outcome> {
    let servers = Servers::open(&args.server, timeouts, None, Mapping::default()).await?;
    let tally = async {
        let tools: HashMap<String, Arc<McpTool>> = servers
            .tools()
            .await?
            .into_iter()
            .map(|tool| (tool.name, tool.tool))
            .collect();
        run_lines(&servers, tools).await
    }
    .await;
    servers.close().await;
    let tally = tally?;
    let Some(summary) = tally.summary() else {
        return Ok(Outcome::Success);
    };
    if tally.broken > 0 {
        anyhow::bail!(summary);
    }
    errln!("toolport: {summary}");
    Ok(Outcome::ToolError)
}

/// Runs each stdin line as a call, in order, printing one JSON line per call. Blank lines and
/// lines starting with `#` are skipped. A name not among `tools` is looked up again, as a
/// fleet's server may have joined since.
async fn run_lines(
    servers: &Servers,
    mut tools: HashMap<String, Arc<McpTool>>,
) -> anyhow::Result<Tally> {
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
        let record = match call_line(servers, &mut tools, name, arguments.trim()).await {
            Ok(output) => {
                if output.is_error {
                    let message =
                        format!("{name} reported an error: {}", error_text(&output.value));
                    tally.record_failure(line_number, &message, true);
                }
                json!({"tool": name, "is_error": output.is_error, "result": output.value})
            }
            Err(error) => {
                let message = error.to_string();
                tally.record_failure(line_number, &message, false);
                json!({"tool": name, "error": message})
            }
        };
        terminal::out_json(&record.to_string());
    }
    Ok(tally)
}

/// A tool error's text for the summary: the mapped `error`, or the value itself, shortened.
fn error_text(value: &Value) -> String {
    let text = match value.get("error").unwrap_or(value) {
        Value::String(text) => text.clone(),
        other => other.to_string(),
    };
    shorten(&text)
}

async fn call_line(
    servers: &Servers,
    tools: &mut HashMap<String, Arc<McpTool>>,
    name: &str,
    arguments: &str,
) -> anyhow::Result<ToolOutput> {
    if !tools.contains_key(name) {
        let found = servers.tool(name).await?;
        tools.insert(found.name, found.tool);
    }
    let tool = &tools[name];
    let words = if arguments.starts_with('{') {
        vec![arguments.to_owned()]
    } else {
        shlex::split(arguments).with_context(|| {
            format!(
                "the arguments have an unclosed quote: `{}`",
                shorten(arguments)
            )
        })?
    };
    let arguments = Arguments::parse(&words)?.into_object(&tool.definition().input_schema)?;
    Ok(tool.call(Value::Object(arguments), None).await?)
}
