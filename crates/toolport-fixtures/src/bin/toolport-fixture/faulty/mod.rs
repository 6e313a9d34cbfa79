//! The `faulty` mode: a hand-written MCP server (2025-11-25, newline-delimited JSON-RPC over
//! stdio) that commits one of the fault matrix's faults whenever a tool call asks for it, and
//! writes what it did in a [`FaultLedger`] so the client's side can count it afterwards.
//!
//! ```text
//! toolport-fixture faulty [--ledger PATH] [--hang-initialize-starts N] [--lifetime-secs N]
//! ```
//!
//! - `--ledger PATH`: where to write what it did (`started`, `charged NOTE`, `hanging ID`,
//!   `cancelled ID`, ...); nothing is written without it.
//! - `--hang-initialize-starts N`: the first `N` processes started with this ledger read
//!   `initialize` and never answer anything (counted by the `started` entries before this one).
//! - `--lifetime-secs N`: exit after this long whatever happens (default 60 s).
//!
//! The tools, and the fault each one commits, are listed in `tools.rs`.

mod options;
mod output;
mod server;
mod tools;

use std::time::Duration;

use toolport_fixtures::FaultLedger;

use self::options::Options;
use self::output::Output;
use self::server::Server;

/// Runs the mode with the arguments after `faulty`. Returns the exit status.
pub(crate) fn run(args: &[String]) -> i32 {
    let Some(options) = Options::parse(args) else {
        eprintln!("{}", options::USAGE);
        return 2;
    };
    exit_after(options.lifetime);
    let ledger = options.ledger.map(FaultLedger::new);
    let earlier_starts = ledger.as_ref().map_or(0, |ledger| ledger.count("started"));
    let hang_initialize = earlier_starts < options.hang_initialize_starts;
    let output = Output::new(ledger);
    output.record("started");
    Server::new(output, hang_initialize).serve()
}

/// Exits the process after `lifetime`, from a thread of its own: a fixture whose client forgot
/// it (or that stopped reading on purpose) still goes away.
fn exit_after(lifetime: Duration) {
    std::thread::spawn(move || {
        std::thread::sleep(lifetime);
        eprintln!(
            "toolport-fixture: lifetime of {} s reached, exiting",
            lifetime.as_secs()
        );
        std::process::exit(0);
    });
}
