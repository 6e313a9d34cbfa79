//! Running one row once: the client process, pinned or not, and what it measured.

use std::process::{Command, Stdio};
use std::time::Instant;

use anyhow::{Context, Result, bail};
use serde_json::Value;

use super::plan::{Row, Workload};

/// Where the client and server processes may run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Placement {
    /// Both on CPU 0 (`taskset -c 0`; the server inherits the client's affinity).
    Pinned,
    /// Wherever the scheduler puts them.
    Unpinned,
}

impl Placement {
    /// Both placements, in the order each round runs them.
    pub(crate) const ALL: [Self; 2] = [Self::Pinned, Self::Unpinned];

    /// The placement's name in the report.
    pub(crate) fn key(self) -> &'static str {
        match self {
            Self::Pinned => "pinned",
            Self::Unpinned => "unpinned",
        }
    }
}

/// One observation of a row.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Sample {
    /// The cost, lower is better: µs per call or turn, or ms per start or fleet.
    pub(crate) cost: f64,
    /// Client CPU per operation, in µs, where it means something.
    pub(crate) cpu_us: Option<f64>,
    /// The client process's peak RSS, in KiB.
    pub(crate) peak_rss_kib: Option<f64>,
    /// For a fleet: the client's RSS growth per session, in KiB.
    pub(crate) rss_per_session_kib: Option<f64>,
}

/// Runs `row` once at `placement` (its [`processes`](Row::processes), one after another) and
/// returns their samples.
pub(crate) fn once(row: &Row, placement: Placement) -> Result<Vec<Sample>> {
    let mut samples = Vec::new();
    for _ in 0..row.processes {
        if row.workload == Workload::Process {
            samples.push(whole_process(row, placement)?);
        } else {
            samples.extend(client_run(row, placement)?);
        }
    }
    Ok(samples)
}

/// Runs the row's client process once and reads the samples in its result line.
fn client_run(row: &Row, placement: Placement) -> Result<Vec<Sample>> {
    let output = command(row, placement)
        .stderr(Stdio::piped())
        .output()
        .with_context(|| format!("cannot start {}", row.client.label()))?;
    if !output.status.success() {
        bail!(
            "{} on {} failed ({}): {}",
            row.client.label(),
            row.workload.key(),
            output.status,
            String::from_utf8_lossy(&output.stderr).trim()
        );
    }
    let stdout = String::from_utf8_lossy(&output.stdout);
    let line = stdout.lines().last().unwrap_or_default();
    let result: Value = serde_json::from_str(line)
        .with_context(|| format!("{}: not a result line: {line:?}", row.client.label()))?;
    let mut samples = samples(row.workload, &result);
    samples.drain(..row.warm_up.min(samples.len()));
    Ok(samples)
}

/// Starts the client with the row's arguments, on the placement's CPUs.
fn command(row: &Row, placement: Placement) -> Command {
    let mut cmd = match placement {
        Placement::Pinned => {
            let mut cmd = Command::new("taskset");
            cmd.args(["-c", "0"]).args(&row.argv);
            cmd
        }
        Placement::Unpinned => {
            let mut cmd = Command::new(&row.argv[0]);
            cmd.args(&row.argv[1..]);
            cmd
        }
    };
    cmd.stdin(Stdio::null());
    cmd
}

/// The wall-clock time of the whole client process, from exec to exit.
fn whole_process(row: &Row, placement: Placement) -> Result<Sample> {
    let mut cmd = command(row, placement);
    cmd.stdout(Stdio::null()).stderr(Stdio::null());
    let started = Instant::now();
    let status = cmd
        .status()
        .with_context(|| format!("cannot start {}", row.client.label()))?;
    let cost = started.elapsed().as_secs_f64() * 1e3;
    if !status.success() {
        bail!("{} (whole process) failed: {status}", row.client.label());
    }
    Ok(Sample {
        cost,
        ..Sample::default()
    })
}

/// The samples in a client's result line.
fn samples(workload: Workload, result: &Value) -> Vec<Sample> {
    let number = |key: &str| result.get(key).and_then(Value::as_f64);
    let ops = number("ops").unwrap_or(1.0).max(1.0);
    let elapsed = number("elapsed_s").unwrap_or(0.0);
    let base = Sample {
        cost: elapsed * 1e6 / ops,
        cpu_us: number("cpu_s").map(|cpu| cpu * 1e6 / ops),
        peak_rss_kib: number("peak_rss_kib"),
        rss_per_session_kib: number("rss_per_session_kib"),
    };
    match workload {
        Workload::Cold => result
            .get("samples_ms")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(Value::as_f64)
            .map(|cost| Sample {
                cost,
                cpu_us: None,
                ..base
            })
            .collect(),
        Workload::Fleet | Workload::Tenants | Workload::QuietTenants | Workload::Tenants2026 => {
            vec![Sample {
                cost: elapsed * 1e3,
                cpu_us: None,
                ..base
            }]
        }
        _ => vec![base],
    }
}
