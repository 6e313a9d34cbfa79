//! `toolport`: list and call the tools of any MCP server from the shell, and read its resources
//! and prompts.
//!
//! Exit status: 0 ok; 2 the tool reported an error (`isError`; the result is still printed);
//! 1 any other failure, a usage error included, with exactly one line on stderr naming the
//! cause; 130 or 143 after SIGINT or SIGTERM, once the servers are closed.

mod args;
mod arguments;
mod auth;
mod commands;
mod fleet_start;
mod hoist;
mod interrupt;
mod logging;
mod media;
mod outcome;
mod printed_value;
mod server;
mod terminal;
mod usage;

use std::ffi::OsString;
use std::process::ExitCode;

use clap::{CommandFactory as _, Parser as _};

use crate::args::{Cli, Command};
use crate::outcome::Outcome;

fn main() -> ExitCode {
    let mut cli = Cli::command();
    cli.build();
    let args: Vec<OsString> =
        hoist::options_after_the_subcommand(&cli, std::env::args_os().collect());
    if let Some(error) = usage::empty_command(&args) {
        return error;
    }
    let cli = match Cli::try_parse_from(&args) {
        Ok(cli) => cli,
        Err(error) => return usage::report(&error, &args),
    };
    logging::init(cli.verbose);
    let runtime = match tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
    {
        Ok(runtime) => runtime,
        Err(error) => return fail(&anyhow::anyhow!("cannot start the async runtime: {error}")),
    };
    match runtime.block_on(interrupt::run_until_signal(run(cli))) {
        Ok(Outcome::Success) => ExitCode::SUCCESS,
        Ok(Outcome::ToolError) => ExitCode::from(2),
        Ok(Outcome::Interrupted(status)) => ExitCode::from(status),
        Err(error) => fail(&error),
    }
}

async fn run(cli: Cli) -> anyhow::Result<Outcome> {
    let timeouts = args::timeouts(cli.timeout_ms)?;
    match cli.command {
        Command::Tools(tools) => commands::tools::run(tools, timeouts).await,
        Command::Search(search) => commands::search::run(search, timeouts).await,
        Command::Call(call) => commands::call::run(call, timeouts).await,
        Command::Batch(batch) => commands::batch::run(batch, timeouts).await,
        Command::Resources(resources) => commands::resources::list(resources, timeouts).await,
        Command::Read(read) => commands::resources::read(read, timeouts).await,
        Command::Prompts(prompts) => commands::prompts::run(prompts, timeouts).await,
        Command::Complete(complete) => commands::prompts::complete(complete, timeouts).await,
        Command::Lock(lock) => commands::contract::lock(lock, timeouts).await,
        Command::Check(check) => commands::contract::check(check, timeouts).await,
    }
}

/// Prints the one line that names the cause.
fn fail(error: &anyhow::Error) -> ExitCode {
    let line = error.to_string().replace('\n', " ");
    terminal::errln!("toolport: {line}");
    ExitCode::FAILURE
}
