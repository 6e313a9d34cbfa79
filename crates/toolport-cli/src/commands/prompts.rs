//! `toolport prompts` and `toolport complete`: the server's prompts, one prompt filled in, and
//! completions for an argument of a prompt or resource template.

use anyhow::Context as _;
use serde_json::{Map, Value};
use toolport::model::{ArgumentInfo, CompletionContext, Prompt, Reference};
use toolport::{McpSession, Timeouts};

use crate::args::{CompleteArgs, PromptsArgs};
use crate::arguments::Arguments;
use crate::outcome::Outcome;
use crate::server::{build, note_not_offered, toolset_builder};
use crate::terminal::{self, outln};

pub(crate) async fn run(args: PromptsArgs, timeouts: Timeouts) -> anyhow::Result<Outcome> {
    // Bad arguments fail before anything starts.
    let arguments = prompt_arguments(&args.arguments)?;
    let toolset = build(toolset_builder(&args.server, timeouts)?).await?;
    let session = toolset.session();
    let printed = match &args.get {
        Some(name) => print_prompt(session, name, arguments, args.json).await,
        None => print_prompts(session, args.json).await,
    };
    if printed.is_ok() && args.get.is_none() {
        note_not_offered(session, "prompts", |offered| offered.prompts.is_some());
    }
    toolset.close().await;
    printed.map(|()| Outcome::Success)
}

pub(crate) async fn complete(args: CompleteArgs, timeouts: Timeouts) -> anyhow::Result<Outcome> {
    let reference = match (&args.prompt, &args.template) {
        (Some(prompt), _) => Reference::for_prompt(prompt),
        (None, Some(template)) => Reference::for_resource(template),
        (None, None) => anyhow::bail!("name what to complete: --prompt NAME or --template URI"),
    };
    let context = completion_context(&args.context)?;
    let toolset = build(toolset_builder(&args.server, timeouts)?).await?;
    let argument = ArgumentInfo::new(&args.argument, &args.value);
    let completed = toolset
        .session()
        .complete(reference, argument, context)
        .await;
    if completed.is_ok() {
        note_not_offered(toolset.session(), "completions", |offered| {
            offered.completions.is_some()
        });
    }
    toolset.close().await;
    let completion = completed?;
    if args.json {
        terminal::out_json(&serde_json::to_string_pretty(&completion)?);
    } else {
        for value in &completion.values {
            outln!("{value}");
        }
    }
    Ok(Outcome::Success)
}

async fn print_prompts(session: &McpSession, json: bool) -> anyhow::Result<()> {
    let prompts = session.list_prompts().await?;
    if json {
        terminal::out_json(&serde_json::to_string_pretty(&prompts)?);
        return Ok(());
    }
    let signatures: Vec<String> = prompts.iter().map(signature).collect();
    let name_width = prompts.iter().map(|p| p.name.len()).max().unwrap_or(0);
    let signature_width = signatures.iter().map(String::len).max().unwrap_or(0);
    for (prompt, signature) in prompts.iter().zip(&signatures) {
        let summary = prompt
            .description
            .as_deref()
            .and_then(|text| text.lines().next())
            .unwrap_or_default();
        let line = format!(
            "{:name_width$}  {signature:signature_width$}  {summary}",
            prompt.name
        );
        outln!("{}", line.trim_end());
    }
    Ok(())
}

async fn print_prompt(
    session: &McpSession,
    name: &str,
    arguments: serde_json::Map<String, Value>,
    json: bool,
) -> anyhow::Result<()> {
    let prompt = session.get_prompt(name, arguments).await?;
    if json {
        terminal::out_json(&serde_json::to_string_pretty(&prompt)?);
        return Ok(());
    }
    for message in &prompt.messages {
        let role = serde_json::to_value(&message.role)?;
        let role = role.as_str().unwrap_or("?").to_owned();
        let content = serde_json::to_value(&message.content)?;
        match content["text"].as_str() {
            Some(text) => outln!("{role}: {text}"),
            None => outln!("{role}: {content}"),
        }
    }
    Ok(())
}

/// The prompt's arguments as `(name, other?)`: optional ones end in `?`.
fn signature(prompt: &Prompt) -> String {
    let arguments: Vec<String> = prompt
        .arguments
        .iter()
        .flatten()
        .map(|argument| {
            let optional = if argument.required == Some(true) {
                ""
            } else {
                "?"
            };
            format!("{}{optional}", argument.name)
        })
        .collect();
    format!("({})", arguments.join(", "))
}

/// `ARGS_JSON`: one JSON object whose values are strings, as prompt arguments are.
fn prompt_arguments(words: &[String]) -> anyhow::Result<Map<String, Value>> {
    let arguments = Arguments::parse(words)?.into_object(&Map::new())?;
    if let Some((name, _)) = arguments.iter().find(|(_, value)| !value.is_string()) {
        anyhow::bail!("prompt argument `{name}` must be a string");
    }
    Ok(arguments)
}

/// `--context name=value` pairs, or none.
fn completion_context(pairs: &[String]) -> anyhow::Result<Option<CompletionContext>> {
    if pairs.is_empty() {
        return Ok(None);
    }
    let mut arguments = std::collections::HashMap::new();
    for pair in pairs {
        let (name, value) = pair
            .split_once('=')
            .with_context(|| format!("--context `{pair}`: expected NAME=VALUE"))?;
        arguments.insert(name.to_owned(), value.to_owned());
    }
    let mut context = CompletionContext::new();
    context.arguments = Some(arguments);
    Ok(Some(context))
}
