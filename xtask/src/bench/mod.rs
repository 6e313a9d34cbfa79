//! `cargo xtask bench [--quick]`: Toolport side by side with raw rmcp, the TypeScript SDK (v1,
//! and v2 on both MCP versions), the Python SDK and a bare pipe, interleaved, pinned and
//! unpinned.
//!
//! Builds the bench clients, the echo server and the `toolport` command in release, then runs
//! every row of the [`plan`] once per round, rounds after one another (A B C … A B C …), each
//! row pinned to CPU 0 and then unpinned. It prints the medians and Toolport's ratios to each
//! peer, checks the goals, measures the fleet-of-tools row ([`fleet_of_tools`]: tool search
//! over 100 to 3,000 tools), prints the binaries' sizes ([`size`]) and what the same small
//! program costs a user on Toolport and on rmcp ([`consumers`]: crates, clean build, size), and
//! writes
//! `target/bench/report.json` and `target/bench/ratios.svg`. Nothing here is a test: a slow run prints, it never fails.

mod chart;
mod client;
mod consumers;
mod fleet_of_tools;
mod goals;
mod machine;
mod plan;
mod report;
mod run;
mod size;
mod summary;

use std::fs;
use std::process::Command;
use std::time::Instant;

use anyhow::{Context, Result, bail};

use self::client::Programs;
use self::fleet_of_tools::FleetOfTools;
use self::plan::{Plan, Sizes};
use self::report::PlacementReport;
use self::run::{Placement, Sample};
use self::summary::Summary;
use crate::{peers, step, workspace};

/// Runs the benchmarks; `quick` uses the small sizes.
pub(crate) fn run(quick: bool) -> Result<()> {
    let started = Instant::now();
    let peers = peers::run()?;
    let cli_built = build()?;
    if step::probe(Command::new("taskset").arg("-V")).is_none() {
        bail!("bench: `taskset` (util-linux) is needed for the pinned runs");
    }
    let programs = programs(&peers, cli_built);
    let dir = workspace::root().join("target").join("bench");
    let binaries = size::measure(&programs, &dir.join("stripped"));
    let consumers = consumers::measure()?;
    let plan = Plan::new(&programs, Sizes::new(quick));
    let samples = measure(&plan)?;
    let fleet_of_tools = FleetOfTools::measure(&programs.search)?;

    let reports: Vec<PlacementReport> = Placement::ALL
        .iter()
        .zip(samples)
        .map(|(&placement, samples)| {
            let summaries: Vec<Summary> = plan
                .rows
                .iter()
                .zip(samples)
                .map(|(row, samples)| Summary::of(row.workload, row.client, &samples))
                .collect();
            let goals = goals::check(&summaries, placement);
            PlacementReport {
                placement,
                summaries,
                goals,
            }
        })
        .collect();
    for report in &reports {
        report::print(&plan, report);
    }
    fleet_of_tools.print();
    size::print(&binaries);
    consumers::print(&consumers);

    fs::create_dir_all(&dir).with_context(|| format!("bench: creating {}", dir.display()))?;
    let mut json = report::to_json(&plan, machine::describe(), quick, &reports);
    json["binaries"] = size::to_json(&binaries);
    json["consumers"] = consumers::to_json(&consumers);
    json["fleet_of_tools"] = fleet_of_tools.to_json();
    let json_path = dir.join("report.json");
    fs::write(&json_path, serde_json::to_string_pretty(&json)? + "\n")?;
    let svg_path = dir.join("ratios.svg");
    fs::write(&svg_path, chart::svg(&plan, &reports))?;
    println!(
        "\nwrote {} and {} in {:.0}s",
        json_path.display(),
        svg_path.display(),
        started.elapsed().as_secs_f64()
    );
    Ok(())
}

/// Builds the bench clients and the echo server, then the `toolport` command, in release.
/// Returns whether the command built; without it, its cold-start row is left out.
fn build() -> Result<bool> {
    let release = |packages: &[&str]| {
        let mut cargo = Command::new(workspace::cargo());
        cargo
            .current_dir(workspace::root())
            .args(["build", "--release", "--quiet", "--bins"]);
        for package in packages {
            cargo.args(["-p", package]);
        }
        cargo
    };
    step::run(
        "bench: cargo build --release (clients, echo server)",
        &mut release(&["toolport-bench", "toolport-fixtures"]),
    )?;
    let cli = step::run(
        "bench: cargo build --release (toolport command)",
        &mut release(&["toolport-cli"]),
    );
    if let Err(error) = &cli {
        println!("bench: leaving out the `toolport tools` cold start: {error:#}");
    }
    Ok(cli.is_ok())
}

/// Where every program of the plan is.
fn programs(peers: &peers::Peers, cli_built: bool) -> Programs {
    let root = workspace::root();
    let release = root.join("target").join("release");
    let clients = root.join("bench").join("clients");
    Programs {
        toolport: release.join("toolport-bench-toolport"),
        manager: release.join("toolport-bench-manager"),
        search: release.join("toolport-bench-search"),
        agent_loop: release.join("toolport-bench-loop"),
        rig: release.join("toolport-bench-rig"),
        adk: release.join("toolport-bench-adk"),
        rmcp: release.join("toolport-bench-rmcp"),
        floor: release.join("toolport-bench-floor"),
        cli: cli_built.then(|| release.join("toolport")),
        echo_server: release.join("toolport-echo-server"),
        http_server: release.join("toolport-bench-http-server"),
        node: peers.node22.clone(),
        ts_client: clients.join("ts_client.mjs"),
        ts_sdk: peers.typescript_sdk.clone(),
        ts_v2_client: clients.join("ts_v2_client.mjs"),
        ts_client_v2_sdk: peers.typescript_client_v2.clone(),
        python: peers.python.clone(),
        py_client: clients.join("py_client.py"),
        everything: peers.server_everything.clone(),
    }
}

/// Every row's samples, per placement, from interleaved rounds.
fn measure(plan: &Plan) -> Result<Vec<Vec<Vec<Sample>>>> {
    let mut samples = vec![vec![Vec::new(); plan.rows.len()]; Placement::ALL.len()];
    for round in 1..=plan.sizes.rounds {
        let started = Instant::now();
        for (placement, by_row) in Placement::ALL.iter().zip(&mut samples) {
            for (row, row_samples) in plan.rows.iter().zip(by_row.iter_mut()) {
                row_samples.extend(run::once(row, *placement)?);
            }
        }
        println!(
            "bench: round {round}/{} done in {:.1}s",
            plan.sizes.rounds,
            started.elapsed().as_secs_f64()
        );
    }
    Ok(samples)
}
