//! Issue 4's goals, checked against one placement's medians. Printed, never asserted.

use serde_json::{Value, json};

use super::plan::Client::{Python, Rmcp, Toolport, ToolportCli, TypeScript};
use super::plan::Flavour::{Current, Multi};
use super::plan::{Client, Comparison, Workload};
use super::summary::{Summary, find, ratio};

/// One goal and how this run did.
#[derive(Debug)]
pub(crate) struct Goal {
    /// What must hold.
    pub(crate) name: &'static str,
    /// The measured figure, as text.
    pub(crate) measured: String,
    /// Whether it holds; `None` when a figure is missing.
    pub(crate) met: Option<bool>,
}

impl Goal {
    /// The goal as JSON, for the report.
    pub(crate) fn to_json(&self) -> Value {
        json!({ "goal": self.name, "measured": self.measured, "met": self.met })
    }
}

/// Every goal that this benchmark measures.
pub(crate) fn check(summaries: &[Summary]) -> Vec<Goal> {
    let ratio_of = |workload, toolport, peer| {
        ratio(
            summaries,
            &Comparison {
                workload,
                toolport,
                peer,
            },
        )
    };
    let at_most = |name, value: Option<f64>, limit: f64| Goal {
        name,
        measured: value.map_or("missing".to_owned(), |v| format!("{v:.2}×")),
        met: value.map(|v| v <= limit),
    };
    let speedup = |name, peer: Client, at_least: f64| {
        let value = ratio_of(Workload::Concurrent, Toolport(Current), peer).map(|r| 1.0 / r);
        Goal {
            name,
            measured: value.map_or("missing".to_owned(), |v| format!("{v:.1}× faster")),
            met: value.map(|v| v >= at_least),
        }
    };
    let warm = find(summaries, Workload::Discovery, Toolport(Current));
    let warm = warm.and_then(|s| Some((s.cost, s.cpu_us?)));
    let rss =
        find(summaries, Workload::Fleet, Toolport(Current)).and_then(|s| s.rss_per_session_kib);
    vec![
        at_most(
            "stdio sequential, current_thread: ≤ 1.10× raw rmcp's time per call",
            ratio_of(Workload::Seq, Toolport(Current), Rmcp(Current)),
            1.10,
        ),
        at_most(
            "stdio sequential, multi_thread: ≤ 1.10× raw rmcp's time per call",
            ratio_of(Workload::Seq, Toolport(Multi), Rmcp(Multi)),
            1.10,
        ),
        speedup(
            "stdio 32 in flight: ≥ 4× the TypeScript client",
            TypeScript,
            4.0,
        ),
        speedup("stdio 32 in flight: ≥ 10× the Python client", Python, 10.0),
        at_most(
            "whole-process cold start of `toolport tools`: ≤ 1.2× a raw rmcp client process",
            ratio_of(Workload::Process, ToolportCli, Rmcp(Current)),
            1.2,
        ),
        Goal {
            name: "warm per-turn discovery: no round trip (a turn never waits: wall ≤ 1.2× client CPU)",
            measured: warm.map_or("missing".to_owned(), |(wall, cpu)| {
                format!("{wall:.2} µs wall, {cpu:.2} µs CPU per turn")
            }),
            met: warm.map(|(wall, cpu)| wall <= 1.2 * cpu),
        },
        at_most(
            "fleet of 50, current_thread: ready ≤ 1.5× raw rmcp",
            ratio_of(Workload::Fleet, Toolport(Current), Rmcp(Current)),
            1.5,
        ),
        at_most(
            "fleet of 50, multi_thread: ready ≤ 1.5× raw rmcp",
            ratio_of(Workload::Fleet, Toolport(Multi), Rmcp(Multi)),
            1.5,
        ),
        at_most(
            "Streamable HTTP sequential, current_thread: client CPU per call ≤ 0.5× rmcp+reqwest",
            ratio_of(Workload::HttpSeq, Toolport(Current), Rmcp(Current)),
            0.5,
        ),
        at_most(
            "Streamable HTTP 32 in flight, current_thread: client CPU per call ≤ 0.5× rmcp+reqwest",
            ratio_of(Workload::HttpConcurrent, Toolport(Current), Rmcp(Current)),
            0.5,
        ),
        Goal {
            name: "fleet: client RSS per session < 200 KiB",
            measured: rss.map_or("missing".to_owned(), |kib| format!("{kib:.0} KiB")),
            met: rss.map(|kib| kib < 200.0),
        },
    ]
}
