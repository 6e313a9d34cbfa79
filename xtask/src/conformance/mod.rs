//! `cargo xtask conformance`: the official MCP conformance suite against our
//! `conformance-client`, held to the committed expected-failures file.
//!
//! It installs the peers (Node 22 and both releases of the suite, pinned), builds the client,
//! and runs: 0.1.16's `all` at spec 2025-11-25; 0.2.0-alpha.12's `all` at 2025-11-25 and at
//! 2026-07-28, and its `backcompat`, `extensions` and `draft`. Results are written under
//! `target/conformance/<run>/`, and the table has one row per scenario run. Each run is held to
//! one expected-failures file ([`BaselineFile`]). The run fails on a failure its file does not
//! list, on a listed scenario that passes (stale) or that no run held to that file ran, and when
//! the suite itself does not finish cleanly.

mod baseline;
mod results;
mod suite;

use std::collections::BTreeMap;
use std::fs;
use std::time::Instant;

use anyhow::{Context as _, Result, bail};

use self::baseline::{Baseline, BaselineFile, Verdict};
use self::results::ScenarioResult;
use self::suite::{Outputs, SUITES, Suite};
use crate::{peers, workspace};

/// Runs the suites and checks them against the baselines.
pub(crate) fn run() -> Result<()> {
    let start = Instant::now();
    let peers = peers::run()?;
    let client = workspace::build_bin("conformance-client")?;
    if client.to_string_lossy().contains(' ') {
        // The suite splits `--command` on spaces.
        bail!("the client's path has a space in it: {}", client.display());
    }
    let mut baselines = BTreeMap::new();
    for file in BaselineFile::ALL {
        baselines.insert(file, Baseline::load(&file.path())?);
    }
    let out = workspace::root().join("target").join("conformance");
    fs::create_dir_all(&out).with_context(|| format!("creating {}", out.display()))?;

    let mut results: Vec<(Suite, ScenarioResult)> = Vec::new();
    let mut problems: Vec<String> = Vec::new();
    for suite in SUITES {
        let folder = suite.folder_name();
        let log = out.join(format!("{folder}.log"));
        let outputs = Outputs {
            results: &out.join(&folder),
            log: &log,
        };
        let suite_start = Instant::now();
        let status = suite.run(&peers, &client, &outputs)?;
        let found = if outputs.results.is_dir() {
            results::read(outputs.results)?
        } else {
            Vec::new()
        };
        println!(
            "conformance: suite `{}`: {} scenarios in {:.1}s",
            suite.label,
            found.len(),
            suite_start.elapsed().as_secs_f64()
        );
        match status {
            None => problems.push(format!(
                "suite `{}` did not finish in time; see {}",
                suite.label,
                log.display()
            )),
            Some(status) if !status.success() => problems.push(format!(
                "suite `{}` exited with {status}; see {}",
                suite.label,
                log.display()
            )),
            Some(_) if found.is_empty() => problems.push(format!(
                "suite `{}` recorded no scenario; see {}",
                suite.label,
                log.display()
            )),
            Some(_) => {}
        }
        results.extend(found.into_iter().map(|result| (suite, result)));
    }

    print_table(&results, &baselines);
    for (suite, result) in &results {
        let verdict = baselines[&suite.baseline].verdict(&result.scenario, result.passed());
        if verdict.is_problem() {
            problems.push(format!(
                "{} ({}): {}{}; see {}",
                result.scenario,
                suite.label,
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
    for (file, baseline) in &baselines {
        let ran: Vec<&str> = results
            .iter()
            .filter(|(suite, _)| suite.baseline == *file)
            .map(|(_, result)| result.scenario.as_str())
            .collect();
        for scenario in baseline.not_run(&ran) {
            problems.push(format!(
                "{scenario} is listed in {} but no suite held to it ran it",
                file.path().display()
            ));
        }
    }

    if !problems.is_empty() {
        bail!("conformance failed:\n  {}", problems.join("\n  "));
    }
    let passed = results.iter().filter(|(_, r)| r.passed()).count();
    println!(
        "conformance: ok: {passed} of {} scenario runs pass, the rest are expected failures ({:.1}s)",
        results.len(),
        start.elapsed().as_secs_f64()
    );
    Ok(())
}

/// Prints one row per scenario run: suite, scenario, verdict, checks passed.
fn print_table(results: &[(Suite, ScenarioResult)], baselines: &BTreeMap<BaselineFile, Baseline>) {
    let width = |text: fn(&(Suite, ScenarioResult)) -> usize, title: &str| {
        results.iter().map(text).max().unwrap_or(0).max(title.len())
    };
    let suite_width = width(|(suite, _)| suite.label.len(), "suite");
    let scenario_width = width(|(_, result)| result.scenario.len(), "scenario");
    println!(
        "\n{:<suite_width$}  {:<scenario_width$}  {:<27}  checks",
        "suite", "scenario", "result"
    );
    for (suite, result) in results {
        let verdict: Verdict =
            baselines[&suite.baseline].verdict(&result.scenario, result.passed());
        println!(
            "{:<suite_width$}  {:<scenario_width$}  {:<27}  {}/{}",
            suite.label,
            result.scenario,
            verdict.label(),
            result.passed,
            result.judged
        );
    }
    println!();
}
