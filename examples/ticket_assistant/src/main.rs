//! Runs the ticket assistant offline: a scripted model works ticket T-1042 (a double charge)
//! through the filesystem and billing toolsets, once in each provider's message shape, and the
//! conversation is printed.
//!
//! ```text
//! ticket_assistant [--provider gemini|openai|anthropic]   (every provider when not given)
//! ticket_assistant serve-files DIR                       (the filesystem server, over stdio)
//! ```
//!
//! The assistant starts the filesystem server as a child process: this same program, with
//! `serve-files`.

use std::path::PathBuf;
use std::process::ExitCode;
use std::str::FromStr;
use std::time::Duration;

use serde_json::json;
use ticket_assistant::{
    Event, ScriptedModel, SupportDesk, TicketAssistant, files_server, script, tickets_dir,
};
use toolport::ReadonlyContext;
use toolport::provider_messages::ApiShape;
use toolport::schema::Provider;
use toolport_fixtures::{FilesystemServer, run_server_process};
use toolport_testkit::serve;

const USAGE: &str = "usage: ticket_assistant [--provider gemini|openai|anthropic]\n       \
                     ticket_assistant serve-files DIR";

/// How long the filesystem server runs at most, should its client never close its stdin.
const SERVER_LIFETIME: Duration = Duration::from_secs(300);

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.as_slice() {
        [] => converse(&[ApiShape::Gemini, ApiShape::OpenAiChat, ApiShape::Anthropic]),
        [flag, name] if flag == "--provider" => {
            match Provider::from_str(name).ok().and_then(api_of) {
                Some(shape) => converse(&[shape]),
                None => usage(&format!("unknown provider {name:?}")),
            }
        }
        [command, dir] if command == "serve-files" => serve_files(PathBuf::from(dir)),
        _ => usage("unexpected arguments"),
    }
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
fn converse(shapes: &[ApiShape]) -> ExitCode {
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
    for &shape in shapes {
        if let Err(error) = runtime.block_on(converse_in(shape)) {
            eprintln!("ticket_assistant: {shape}: {error}");
            return ExitCode::FAILURE;
        }
    }
    ExitCode::SUCCESS
}

async fn converse_in(shape: ApiShape) -> Result<(), Box<dyn std::error::Error>> {
    let program = std::env::current_exe()?;
    let desk = SupportDesk::open(shape, files_server(program, tickets_dir())).await?;
    let model = ScriptedModel::new(shape, script::double_charge());
    let mut assistant = TicketAssistant::new(model, shape, desk.toolsets());
    let caller = ReadonlyContext::from_json(json!({"invocation_id": "ticket-T-1042"}));
    let answered = assistant.ask(script::QUESTION, &caller).await;

    let offered = assistant
        .model()
        .offered()
        .first()
        .cloned()
        .unwrap_or_default();
    println!(
        "== {}: {} tools offered: {}",
        shape.provider(),
        offered.len(),
        offered.join(", ")
    );
    for event in assistant.events() {
        match event {
            Event::User(text) => println!("user:      {text}"),
            Event::Call { name, arguments } => println!("tool call: {name} {arguments}"),
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
