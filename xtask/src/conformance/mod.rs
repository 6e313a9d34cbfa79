//! `cargo xtask conformance`: the official MCP conformance suite against our
//! `conformance-client`, held to the committed expected-failures file.
//!
//! It installs the peers (Node 22 and the suite, pinned), builds the client, runs the suites
//! `all` (spec 2025-11-25), `backcompat`, `extensions` and `draft` with results written under
//! `target/conformance/<suite>/`, and prints one row per scenario. The run fails on a failure
//! the baseline does not list, on a listed scenario that passes (stale) or that no suite ran,
//! and when the suite itself does not finish cleanly.

mod baseline;
mod results;
mod suite;

use std::fs;
use std::time::Instant;

use anyhow::{Context as _, Result, bail};

use self::baseline::{Baseline, Verdict};
use self::results::ScenarioResult;
use self::suite::{Outputs, SUITES};
use crate::{peers, workspace};

/// Runs the suites and checks them against the baseline.
pub(crate) fn run() -> Result<()> {
    let start = Instant::now();
    let peers = peers::run()?;
    let client = workspace::build_bin("conformance-client")?;
    if client.to_string_lossy().contains(' ') {
        // The suite splits `--command` on spaces.
        bail!("the client's path has a space in it: {}", client.display());
    }
    let baseline_path = baseline::path();
    let baseline = Baseline::load(&baseline_path)?;
    let out = workspace::root().join("target").join("conformance");
    fs::create_dir_all(&out).with_context(|| format!("creating {}", out.display()))?;

    let mut results: Vec<ScenarioResult> = Vec::new();
    let mut problems: Vec<String> = Vec::new();
    for suite in SUITES {
        let log = out.join(format!("{}.log", suite.name));
        let outputs = Outputs {
            results: &out.join(suite.name),
            log: &log,
        };
        let suite_start = Instant::now();
        let status = suite.run(&peers, &client, &baseline_path, &outputs)?;
        let found = if outputs.results.is_dir() {
            results::read(outputs.results, suite.name)?
        } else {
            Vec::new()
        };
        println!(
            "conformance: suite `{}`: {} scenarios in {:.1}s",
            suite.name,
            found.len(),
            suite_start.elapsed().as_secs_f64()
        );
        match status {
            None => problems.push(format!(
                "suite `{}` did not finish in time; see {}",
                suite.name,
                log.display()
            )),
            Some(status) if !status.success() => problems.push(format!(
                "suite `{}` exited with {status}; see {}",
                suite.name,
                log.display()
            )),
            Some(_) if found.is_empty() => problems.push(format!(
                "suite `{}` recorded no scenario; see {}",
                suite.name,
                log.display()
            )),
            Some(_) => {}
        }
        results.extend(found);
    }

    print_table(&results, &baseline);
    for result in &results {
        let verdict = baseline.verdict(&result.scenario, result.passed());
        if verdict.is_problem() {
            problems.push(format!(
                "{}: {}{}; see {}",
                result.scenario,
                verdict.label(),
                result
                    .first_problem
                    .as_deref()
                    .map(|p| format!(" ({p})"))
                    .unwrap_or_default(),
                result.folder.display()
            ));
        }
    }
    let ran: Vec<&str> = results.iter().map(|r| r.scenario.as_str()).collect();
    for scenario in baseline.not_run(&ran) {
        problems.push(format!(
            "{scenario} is listed in {} but no suite ran it",
            baseline_path.display()
        ));
    }

    if !problems.is_empty() {
        bail!("conformance failed:\n  {}", problems.join("\n  "));
    }
    let passed = results.iter().filter(|r| r.passed()).count();
    println!(
        "conformance: ok: {passed} of {} scenarios pass, the rest are expected failures ({:.1}s)",
        results.len(),
        start.elapsed().as_secs_f64()
    );
    Ok(())
}

/// Prints one row per scenario: suite, scenario, verdict, checks passed.
fn print_table(results: &[ScenarioResult], baseline: &Baseline) {
    let width = results
        .iter()
        .map(|r| r.scenario.len())
        .max()
        .unwrap_or(0)
        .max("scenario".len());
    println!(
        "\n{:<10}  {:<width$}  {:<27}  checks",
        "suite", "scenario", "result"
    );
    for result in results {
        let verdict: Verdict = baseline.verdict(&result.scenario, result.passed());
        println!(
            "{:<10}  {:<width$}  {:<27}  {}/{}",
            result.suite,
            result.scenario,
            verdict.label(),
            result.passed,
            result.judged
        );
    }
    println!();
}
