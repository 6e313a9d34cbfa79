//! `toolport call`: call one tool and print its result.

use serde_json::Value;
use toolport::{McpToolset, MediaPart, Timeouts, Tool, ToolOutput};

use crate::args::CallArgs;
use crate::arguments::Arguments;
use crate::outcome::Outcome;
use crate::server::toolset_builder;

pub(crate) async fn run(args: CallArgs, timeouts: Timeouts) -> anyhow::Result<Outcome> {
    // Their syntax is checked before connecting; their types need the tool's schema.
    let arguments = Arguments::parse(&args.arguments)?;
    let toolset = toolset_builder(&args.server, timeouts)?
        .mapping(args.mapping)
        .build()
        .await?;
    let called = call(&toolset, &args, arguments).await;
    toolset.close().await;
    called
}

async fn call(
    toolset: &McpToolset,
    args: &CallArgs,
    arguments: Arguments,
) -> anyhow::Result<Outcome> {
    let tool = toolset.tool(&args.tool, None).await?;
    let arguments = arguments.into_object(&tool.definition().input_schema)?;
    if args.raw {
        let result = tool.call_raw(arguments, None).await?;
        println!("{}", serde_json::to_string(&result)?);
        return Ok(outcome(result.is_error == Some(true)));
    }
    let output = tool.call(arguments, None).await?;
    if args.json {
        println!("{}", serde_json::to_string(&output.value)?);
    } else {
        print_human(&output)?;
    }
    Ok(outcome(output.is_error))
}

fn print_human(output: &ToolOutput) -> anyhow::Result<()> {
    match &output.value {
        Value::String(text) => println!("{text}"),
        value => println!("{}", serde_json::to_string_pretty(value)?),
    }
    for part in &output.parts {
        println!("{}", describe_part(part));
    }
    Ok(())
}

fn describe_part(part: &MediaPart) -> String {
    match part {
        MediaPart::Image { mime_type, data } => {
            format!("[image {mime_type}, {} bytes of base64]", data.len())
        }
        MediaPart::Audio { mime_type, data } => {
            format!("[audio {mime_type}, {} bytes of base64]", data.len())
        }
        MediaPart::Resource { uri, mime_type, .. } => {
            format!(
                "[resource {uri}{}]",
                mime_type
                    .as_deref()
                    .map(|m| format!(", {m}"))
                    .unwrap_or_default()
            )
        }
        other => format!("[{other:?}]"),
    }
}

fn outcome(is_error: bool) -> Outcome {
    if is_error {
        Outcome::ToolError
    } else {
        Outcome::Success
    }
}
