//! The report: the printed tables of medians and ratios, and `target/bench/report.json`.

use serde_json::{Value, json};

use super::goals::Goal;
use super::plan::{Plan, Workload};
use super::run::Placement;
use super::summary::{Summary, per_operation, ratio, unit};

/// The medians and goals of one placement.
#[derive(Debug)]
pub(crate) struct PlacementReport {
    /// Where the processes ran.
    pub(crate) placement: Placement,
    /// One per row.
    pub(crate) summaries: Vec<Summary>,
    /// The goals checked against these medians.
    pub(crate) goals: Vec<Goal>,
}

/// Prints the tables of one placement.
pub(crate) fn print(plan: &Plan, report: &PlacementReport) {
    let heading = match report.placement {
        Placement::Pinned => "pinned: client and server on CPU 0 (taskset -c 0)",
        Placement::Unpinned => "unpinned",
    };
    println!(
        "\n=== {heading}, medians of {} rounds ===",
        plan.sizes.rounds
    );
    for workload in Workload::ALL {
        println!("\n{} ({})", workload.title(), unit(workload));
        println!(
            "  {:<36} {:>12} {:>12} {:>12} {:>11} {:>13}",
            "client", "median", "per second", "client CPU", "peak RSS", "RSS/session"
        );
        for s in report.summaries.iter().filter(|s| s.workload == workload) {
            println!(
                "  {:<36} {:>12} {:>12} {:>12} {:>11} {:>13}",
                s.client.label(),
                format!("{:.2}", s.cost),
                s.rate().map_or(String::new(), |r| format!("{r:.0}")),
                s.cpu_us.map_or(String::new(), |c| format!("{c:.1} µs")),
                s.peak_rss_kib
                    .map_or(String::new(), |k| format!("{:.1} MiB", k / 1024.0)),
                s.rss_per_session_kib
                    .map_or(String::new(), |k| format!("{k:.0} KiB")),
            );
        }
        for comparison in plan.comparisons.iter().filter(|c| c.workload == workload) {
            if let Some(r) = ratio(&report.summaries, comparison) {
                let of = match workload {
                    Workload::AgentTurn => " (client CPU per turn)",
                    _ if workload.ratio_on_cpu() => " (client CPU per call)",
                    _ => "",
                };
                println!(
                    "    {} / {}{of}: {r:.3}×",
                    comparison.toolport.label(),
                    comparison.peer.label()
                );
            }
        }
    }
    println!("\ngoals ({}):", report.placement.key());
    for goal in &report.goals {
        let verdict = match goal.met {
            Some(true) => "met   ",
            Some(false) => "MISSED",
            None if goal.for_reference => "ref   ",
            None => "n/a   ",
        };
        let reference = if goal.for_reference {
            " (for reference: the goal is on another placement's figure)"
        } else {
            ""
        };
        println!("  {verdict} {}: {}{reference}", goal.name, goal.measured);
    }
}

/// The whole run as JSON.
pub(crate) fn to_json(
    plan: &Plan,
    machine: Value,
    quick: bool,
    reports: &[PlacementReport],
) -> Value {
    let placements: serde_json::Map<String, Value> = reports
        .iter()
        .map(|report| {
            (
                report.placement.key().to_owned(),
                placement_json(plan, report),
            )
        })
        .collect();
    let sizes = plan.sizes;
    json!({
        "machine": machine,
        "quick": quick,
        "sizes": {
            "rounds": sizes.rounds,
            "calls": sizes.calls,
            "everything_calls": sizes.everything_calls,
            "http_calls": sizes.http_calls,
            "cold_lifecycles_per_run": sizes.cold,
            "cold_warm_up_left_out": sizes.cold_warm_up,
            "processes_per_round": sizes.processes,
            "discovery_turns": sizes.turns,
            "fleet": sizes.fleet,
            "fleet_runs_per_round": sizes.fleet_runs,
            "tenants": sizes.tenants,
        },
        "ratio_meaning": "Toolport's median cost over the peer's (time per call, per turn, per start, or to ready; client CPU per call for the http_* workloads, per turn for agent_turn): below 1 means Toolport is faster",
        "placements": placements,
    })
}

fn placement_json(plan: &Plan, report: &PlacementReport) -> Value {
    let rows: Vec<Value> = report
        .summaries
        .iter()
        .map(|s| {
            json!({
                "workload": s.workload.key(),
                "client": s.client.label(),
                "median": s.cost,
                "unit": unit(s.workload),
                "per_second": per_operation(s.workload).then(|| s.rate()),
                "client_cpu_us_per_op": s.cpu_us,
                "peak_rss_kib": s.peak_rss_kib,
                "rss_per_session_kib": s.rss_per_session_kib,
                "samples": s.samples,
            })
        })
        .collect();
    let ratios: Vec<Value> = plan
        .comparisons
        .iter()
        .filter_map(|c| {
            let r = ratio(&report.summaries, c)?;
            Some(json!({
                "workload": c.workload.key(),
                "toolport": c.toolport.label(),
                "peer": c.peer.label(),
                "ratio": r,
                "of": if c.workload.ratio_on_cpu() { "client_cpu_per_call" } else { "median" },
            }))
        })
        .collect();
    let goals: Vec<Value> = report.goals.iter().map(Goal::to_json).collect();
    json!({ "rows": rows, "ratios": ratios, "goals": goals })
}
