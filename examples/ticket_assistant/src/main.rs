//! Runs the ticket assistant offline: a scripted model works ticket T-1042 (a double charge)
//! through the filesystem and billing toolsets, once in each provider's message shape, and the
//! conversation is printed, with the tools offered at each turn where they change.
//!
//! ```text
//! ticket_assistant [--search] [--provider gemini|openai|anthropic]
//! ticket_assistant serve-files DIR
//! ```
//!
//! Without `--provider`, it runs every provider's conversation in turn. With `--search`, the
//! model is offered tool search instead of every tool: it searches for what each step needs, in
//! its own words, and calls the tools it found; its search for a refund tool finds none.
//!
//! The assistant starts the filesystem server as a child process: this same program, with
//! `serve-files`, which serves `DIR` over stdio.

use std::path::PathBuf;
use std::process::ExitCode;
use std::str::FromStr;
use std::sync::Arc;
use std::time::Duration;

use serde_json::json;
use ticket_assistant::{
    Event, ScriptedModel, SupportDesk, TicketAssistant, files_server, script, tickets_dir,
};
use toolport::provider_messages::ApiShape;
use toolport::schema::Provider;
use toolport::{ReadonlyContext, Toolset};
use toolport_fixtures::{FilesystemServer, run_server_process};
use toolport_testkit::serve;

const USAGE: &str = "usage: ticket_assistant [--search] [--provider gemini|openai|anthropic]\n       \
                     ticket_assistant serve-files DIR";

/// The search tool's name: its results are printed as the names found.
const SEARCH_TOOL: &str = "search_tools";

/// How long the filesystem server runs at most, should its client never close its stdin.
const SERVER_LIFETIME: Duration = Duration::from_secs(300);

/// The conversations to run: one per shape, with tool search or without.
struct Conversations {
    shapes: Vec<ApiShape>,
    search: bool,
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if let [command, dir] = args.as_slice()
        && command == "serve-files"
    {
        return serve_files(PathBuf::from(dir));
    }
    match conversations(&args) {
        Ok(conversations) => converse(&conversations),
        Err(problem) => usage(&problem),
    }
}

/// The conversations `args` ask for: `--search` and `--provider NAME`, each at most once.
fn conversations(args: &[String]) -> Result<Conversations, String> {
    let mut shapes = None;
    let mut search = false;
    let mut args = args.iter();
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--search" if !search => search = true,
            "--provider" if shapes.is_none() => {
                let name = args.next().ok_or("--provider needs a provider's name")?;
                let shape = Provider::from_str(name)
                    .ok()
                    .and_then(api_of)
                    .ok_or_else(|| format!("unknown provider {name:?}"))?;
                shapes = Some(vec![shape]);
            }
            _ => return Err(format!("unexpected argument {arg:?}")),
        }
    }
    Ok(Conversations {
        shapes: shapes
            .unwrap_or_else(|| vec![ApiShape::Gemini, ApiShape::OpenAiChat, ApiShape::Anthropic]),
        search,
    })
}

/// The API the assistant talks to for `provider`: OpenAI's is Chat Completions.
fn api_of(provider: Provider) -> Option<ApiShape> {
    match provider {
        Provider::Gemini => Some(ApiShape::Gemini),
        Provider::OpenAi => Some(ApiShape::OpenAiChat),
        Provider::Anthropic => Some(ApiShape::Anthropic),
        _ => None,
    }
}

fn usage(problem: &str) -> ExitCode {
    eprintln!("ticket_assistant: {problem}\n{USAGE}");
    ExitCode::from(2)
}

/// Serves the tickets directory over stdio until the client leaves.
fn serve_files(dir: PathBuf) -> ExitCode {
    run_server_process("ticket_assistant serve-files", async move {
        let server = FilesystemServer::new(dir)?;
        let stdio = tokio::io::join(tokio::io::stdin(), tokio::io::stdout());
        // Past its lifetime the server just stops, as when the client leaves.
        let _ = tokio::time::timeout(SERVER_LIFETIME, serve(server, stdio)).await;
        Ok(())
    })
}

/// Runs the scripted conversation once per shape.
fn converse(conversations: &Conversations) -> ExitCode {
    let runtime = match tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
    {
        Ok(runtime) => runtime,
        Err(error) => {
            eprintln!("ticket_assistant: cannot start the runtime: {error}");
            return ExitCode::FAILURE;
        }
    };
    for &shape in &conversations.shapes {
        if let Err(error) = runtime.block_on(converse_in(shape, conversations.search)) {
            eprintln!("ticket_assistant: {shape}: {error}");
            return ExitCode::FAILURE;
        }
    }
    ExitCode::SUCCESS
}

async fn converse_in(shape: ApiShape, search: bool) -> Result<(), Box<dyn std::error::Error>> {
    let program = std::env::current_exe()?;
    let desk = SupportDesk::open(shape, files_server(program, tickets_dir())).await?;
    let (steps, tools): (_, Arc<dyn Toolset>) = if search {
        let with_search = desk.tools_with_search();
        (script::double_charge_with_search(), Arc::new(with_search))
    } else {
        (script::double_charge(), Arc::new(desk.tools()))
    };
    let model = ScriptedModel::new(shape, steps);
    let mut assistant = TicketAssistant::new(model, shape, tools);
    let caller = ReadonlyContext::from_json(json!({"invocation_id": "ticket-T-1042"}));
    let answered = assistant.ask(script::QUESTION, &caller).await;

    let with_search = if search { ", with tool search" } else { "" };
    println!("== {}{with_search}", shape.provider());
    let mut previous: &[String] = &[];
    for (turn, offered) in assistant.model().offered().iter().enumerate() {
        if offered != previous {
            let turn = format!("turn {}:", turn + 1);
            println!("{turn:<10} offered {}", offered.join(", "));
            previous = offered;
        }
    }
    for event in assistant.events() {
        match event {
            Event::User(text) => println!("user:      {text}"),
            Event::Call { name, arguments } => println!("tool call: {name} {arguments}"),
            Event::Result {
                name,
                value,
                is_error: false,
            } if name == SEARCH_TOOL => {
                let found = value["tools"].as_array().into_iter().flatten();
                let names: Vec<&str> = found.filter_map(|tool| tool["name"].as_str()).collect();
                println!("    found: [{}]", names.join(", "));
            }
            Event::Result {
                value, is_error, ..
            } => {
                let label = if *is_error { "error" } else { "result" };
                println!("{label:>9}: {}", shortened(&value.to_string()));
            }
            Event::Answer(text) => println!("assistant: {text}"),
        }
    }
    println!("refunds issued: {}\n", desk.refunds());
    desk.close().await;
    answered?;
    Ok(())
}

/// `text`, cut to a line's worth for the terminal.
fn shortened(text: &str) -> String {
    const WIDTH: usize = 160;
    match text.char_indices().nth(WIDTH) {
        Some((cut, _)) => format!("{}…", &text[..cut]),
        None => text.to_owned(),
    }
}
