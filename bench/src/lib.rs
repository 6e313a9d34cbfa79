//! The shared parts of the benchmark clients that `cargo xtask bench` runs: the command line
//! every client takes, the workload drivers, the process's own CPU and memory readings, and the
//! one JSON line each client prints.
//!
//! Each client is its own small process (`toolport-bench-toolport`, `toolport-bench-manager`
//! for the fleet through the server manager, `toolport-bench-loop`, `toolport-bench-rig` and
//! `toolport-bench-adk` for an agent turn by hand and through the agent-framework adapters,
//! `toolport-bench-rmcp`, `toolport-bench-floor`, and the TypeScript and Python scripts in
//! `bench/clients/`), so its peak RSS and CPU time are its own. `toolport-bench-search`
//! measures the fleet-of-tools row in process ([`fleet_of_tools`]).
#![warn(missing_docs, unreachable_pub, missing_debug_implementations)]

pub mod adapted;
pub mod args;
pub mod drive;
pub mod entry;
pub mod fleet_of_tools;
pub mod http;
pub mod managed_fleet;
pub mod measurement;
pub mod runtime;
pub mod tenants;
pub mod usage;

/// The text every client sends to `echo`, so every request and response has the same size.
pub const ECHO_TEXT: &str = "toolport bench: the same 64-byte text for every client and call.";
