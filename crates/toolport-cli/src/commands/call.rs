//! `toolport call`: call one tool and print its result.

use serde_json::Value;
use toolport::{MediaPart, ServerEvent, ServerEvents, Timeouts, Tool};

use crate::args::CallArgs;
use crate::arguments::Arguments;
use crate::media::{self, MediaDir};
use crate::outcome::Outcome;
use crate::printed_value;
use crate::server::{ListedTool, Servers};
use crate::terminal::{self, errln, outln};

pub(crate) async fn run(args: CallArgs, timeouts: Timeouts) -> anyhow::Result<Outcome> {
    // Their syntax is checked before connecting; their types need the tool's schema.
    let arguments = Arguments::parse(&args.arguments)?;
    let servers = Servers::open(&args.server, timeouts, None, args.mapping).await?;
    let called = async {
        let tool = servers.tool(&args.tool).await?;
        // The command makes one call, so every report of the session's is this call's.
        let reporter = args
            .progress
            .then(|| servers.session_of(&tool))
            .flatten()
            .map(|session| tokio::spawn(print_progress(session.events())));
        let called = call(&tool, &args, arguments).await;
        if let Some(reporter) = reporter {
            reporter.abort();
        }
        called
    }
    .await;
    servers.close().await;
    called
}

/// Prints each progress report among `events` on stderr, until aborted.
async fn print_progress(mut events: ServerEvents) {
    while let Some(event) = events.next().await {
        if let ServerEvent::Progress(report) = event {
            let total = report
                .total
                .map(|total| format!("/{total}"))
                .unwrap_or_default();
            let message = report
                .message
                .map(|message| format!(": {message}"))
                .unwrap_or_default();
            errln!("toolport: progress {}{total}{message}", report.progress);
        }
    }
}

async fn call(tool: &ListedTool, args: &CallArgs, arguments: Arguments) -> anyhow::Result<Outcome> {
    let tool = &tool.tool;
    let arguments = Value::Object(arguments.into_object(&tool.definition().input_schema)?);
    if args.raw {
        let result = tool.call_raw(arguments, None).await?;
        terminal::out_json(&serde_json::to_string(&result)?);
        return Ok(outcome(result.is_error == Some(true)));
    }
    let output = tool.call(arguments, None).await?;
    if args.json {
        terminal::out_json(&serde_json::to_string(&output.value)?);
    } else {
        match printed_value::as_text(&output.value) {
            Some(text) => outln!("{text}"),
            None => terminal::out_json(&printed_value::described_json(&output.value)?),
        }
    }
    // Media the value holds (structured content can copy them) are reported as parts too,
    // once each: a copy of one of the result's own parts is that part.
    let within = printed_value::media_within(&output.value);
    let mut parts = output.parts;
    for part in &within {
        if !parts.contains(part) {
            parts.push(part.clone());
        }
    }
    report_parts(&parts, &within, args)?;
    Ok(outcome(output.is_error))
}

/// Saves the images and audio with `--save-media`, and says what became of every part: on
/// stdout after a human-readable result, on stderr after `--json`, whose stdout is the value
/// alone. That leaves the parts out, except those `within` the value, which `--json` printed.
fn report_parts(parts: &[MediaPart], within: &[MediaPart], args: &CallArgs) -> anyhow::Result<()> {
    let mut media_dir = match &args.save_media {
        Some(dir) if parts.iter().any(media::is_saved) => Some(MediaDir::create(dir, &args.tool)?),
        _ => None,
    };
    for part in parts {
        let described = media::describe(part);
        let saved = match &mut media_dir {
            Some(media_dir) => media_dir.save(part)?,
            None => None,
        };
        if args.json {
            match saved {
                Some(path) => errln!("toolport: saved {described} to {}", path.display()),
                None if within.contains(part) => {}
                None if media::is_saved(part) => errln!(
                    "toolport: --json left out {described}; --save-media DIR writes it to a file"
                ),
                None => errln!("toolport: --json left out {described}"),
            }
        } else {
            match saved {
                Some(path) => outln!("[{described}] saved to {}", path.display()),
                None => outln!("[{described}]"),
            }
        }
    }
    Ok(())
}

fn outcome(is_error: bool) -> Outcome {
    if is_error {
        Outcome::ToolError
    } else {
        Outcome::Success
    }
}
