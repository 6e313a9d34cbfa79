//! `cargo xtask`: the Toolport project's own automation, one subcommand per job.
//!
//! Run `cargo xtask help` for the list. To add a job, write a module with a
//! `run` function, add a variant to [`Task`], and add one arm to
//! [`Task::parse`] and one to [`Task::run`].

mod bench;
mod conformance;
mod interop;
mod peers;
mod step;
mod test;
mod tidy;
mod workspace;

use std::process::ExitCode;

use anyhow::{Result, bail};

/// Usage text printed by `cargo xtask help` and on a bad command line.
const USAGE: &str = "\
usage: cargo xtask <task>

tasks:
  peers   install the peer servers and tools the tests talk to, under target/peers/
  tidy    check the house rules: file docs and lengths, workspace dependencies, layering
  test    peers, then fmt --check, clippy, the tests and the doc tests
  conformance  the official MCP conformance suite against our client (docs/conformance.md)
  interop      the toolport command against real servers over every transport, as a matrix
  bench   [--quick] Toolport against raw rmcp, the TypeScript and Python SDKs and a pipe, side by side
  help    print this text";

/// One job that `cargo xtask` can do.
#[derive(Debug)]
enum Task {
    /// Install the npm and Python peers under `target/peers/`.
    Peers,
    /// Check the house rules.
    Tidy,
    /// Run everything CI runs, in order, failing fast.
    Test,
    /// Run the official conformance suite and compare it with the expected failures.
    Conformance,
    /// Run the `toolport` command against real servers, as a matrix.
    Interop,
    /// Run the benchmarks side by side with the peers; `quick` trims the sizes and rounds.
    Bench {
        /// Fewer calls and rounds, to finish in under two minutes.
        quick: bool,
    },
    /// Print the usage text.
    Help,
}

impl Task {
    /// Parses the command line (without the program name).
    fn parse(args: &[String]) -> Result<Self> {
        let task = match args {
            [] => bail!("no task given\n\n{USAGE}"),
            [task, flag] if task == "bench" && flag == "--quick" => {
                return Ok(Self::Bench { quick: true });
            }
            [task] => task.as_str(),
            [task, rest @ ..] => bail!("`{task}` takes no arguments, got {rest:?}\n\n{USAGE}"),
        };
        Ok(match task {
            "peers" => Self::Peers,
            "tidy" => Self::Tidy,
            "test" => Self::Test,
            "conformance" => Self::Conformance,
            "interop" => Self::Interop,
            "bench" => Self::Bench { quick: false },
            "help" | "-h" | "--help" => Self::Help,
            other => bail!("unknown task `{other}`\n\n{USAGE}"),
        })
    }

    /// Does the job.
    fn run(self) -> Result<()> {
        match self {
            Self::Peers => peers::run().map(drop),
            Self::Tidy => tidy::run(),
            Self::Test => test::run(),
            Self::Conformance => conformance::run(),
            Self::Interop => interop::run(),
            Self::Bench { quick } => bench::run(quick),
            Self::Help => {
                println!("{USAGE}");
                Ok(())
            }
        }
    }
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match Task::parse(&args).and_then(Task::run) {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("xtask: error: {err:#}");
            ExitCode::FAILURE
        }
    }
}
