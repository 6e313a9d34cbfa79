//! The stdio column of the fault matrix: every cell a real child process, the
//! `toolport-fixture faulty` server (or, for garbage alone, its `garbage` mode), driven by an
//! `McpSession` pinned to protocol 2025-11-25 with short bounds (connect 2 s, initialize 1 s,
//! each request 1 s).
//!
//! The fixture commits each fault when a tool call asks for it and writes what it did in a
//! ledger (`started`, `charged NOTE`, `hanging ID`, `cancelled ID`, ...), which the cells read
//! to count processes started, side effects run and cancellations received.
//!
//! Slow-loris, a reset mid-stream and a 404 session expiry are HTTP faults: a pipe has no
//! such thing, and those rows have no stdio cell.

mod bad_output;
mod harness;
mod ids;
mod lost_calls;
mod stuck_stdin;

use std::time::Duration;

use super::{Cell, CellRun, Fault, Transport};

/// How the stdio cells are set up, for the table's header.
pub const SETUP: &str = "stdio: a child process per cell (`toolport-fixture faulty`), protocol \
     2025-11-25 pinned; bounds: connect 2 s, initialize 1 s, request 1 s.";

/// The stdio cells, in the order of the table's rows.
pub fn cells() -> Vec<Cell> {
    let cell = |fault, bound_secs, run: fn() -> CellRun| Cell {
        fault,
        transport: Transport::Stdio,
        bound: Duration::from_secs(bound_secs),
        run,
    };
    vec![
        cell(Fault::CrashMidCall, 10, lost_calls::crash_mid_call),
        cell(Fault::HangInCall, 10, lost_calls::hang_in_call),
        cell(Fault::HangInInitialize, 10, lost_calls::hang_in_initialize),
        cell(Fault::GarbageOnStdout, 10, bad_output::garbage_on_stdout),
        cell(Fault::StderrFlood, 10, bad_output::stderr_flood),
        cell(Fault::OversizedResponse, 15, bad_output::oversized_response),
        cell(Fault::ServerRestart, 10, lost_calls::server_restart),
        cell(Fault::WrongId, 10, ids::wrong_id),
        cell(Fault::UnsolicitedId, 10, ids::unsolicited_id),
        cell(Fault::NeverReadsStdin, 15, stuck_stdin::never_reads_stdin),
    ]
}
