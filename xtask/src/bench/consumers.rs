//! What a user pays before the first call: the same small program on Toolport and on rmcp
//! (`bench/consumers/`), each measured as a user meets it: the crates of its dependency tree
//! (`cargo tree -e normal`), a release build from a clean target directory (its sources
//! fetched beforehand, so the download is not timed), and the size of its stripped binary.
//! The goals compare each Toolport program with rmcp's that does the same.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use anyhow::{Context, Result};
use serde_json::{Value, json};

use super::size;
use crate::{step, workspace};

/// The programs, by their directory in `bench/consumers/`.
const PROGRAMS: [&str; 4] = [
    "toolport-default",
    "toolport-stdio",
    "rmcp-stdio",
    "rmcp-http",
];

/// The largest stripped binary the default facade's program may make, in bytes (8 MB).
const DEFAULT_BINARY_LIMIT: u64 = 8_000_000;

/// One program's figures.
#[derive(Debug)]
pub(crate) struct Consumer {
    /// Its directory in `bench/consumers/`.
    name: &'static str,
    /// The distinct crates of its dependency tree, itself left out.
    crates: usize,
    /// Its clean release build.
    build: Duration,
    /// The size of its binary, stripped; `None` if `strip` failed.
    stripped_bytes: Option<u64>,
}

/// Measures every program, building each into `target/bench/consumers/`.
pub(crate) fn measure() -> Result<Vec<Consumer>> {
    let out = workspace::root().join("target/bench/consumers");
    PROGRAMS
        .iter()
        .map(|&name| measure_one(name, &out))
        .collect()
}

fn measure_one(name: &'static str, out: &Path) -> Result<Consumer> {
    let root = workspace::root();
    let dir = root.join("bench/consumers").join(name);
    let manifest = dir.join("Cargo.toml");
    // The versions Toolport's own tests use; cargo drops what the program does not need.
    fs::copy(root.join("Cargo.lock"), dir.join("Cargo.lock"))
        .with_context(|| format!("bench: copying Cargo.lock into {}", dir.display()))?;
    let cargo = |args: &[&str]| {
        let mut command = Command::new(workspace::cargo());
        command
            .current_dir(&root)
            .args(args)
            .arg("--manifest-path")
            .arg(&manifest);
        command
    };
    step::probe(&mut cargo(&["fetch", "--quiet"]))
        .with_context(|| format!("bench: cargo fetch for {name}"))?;
    let tree = step::probe(&mut cargo(&["tree", "-e", "normal", "--prefix", "none"]))
        .with_context(|| format!("bench: cargo tree for {name}"))?;
    let target_dir = out.join(name);
    if target_dir.exists() {
        fs::remove_dir_all(&target_dir)
            .with_context(|| format!("bench: cleaning {}", target_dir.display()))?;
    }
    let mut build = cargo(&["build", "--release", "--quiet"]);
    build.arg("--target-dir").arg(&target_dir);
    let started = Instant::now();
    step::run(&format!("bench: clean release build of {name}"), &mut build)?;
    let build = started.elapsed();
    let binary: PathBuf = target_dir.join("release").join(format!("consumer-{name}"));
    Ok(Consumer {
        name,
        crates: distinct_crates(&tree, &format!("consumer-{name}")),
        build,
        stripped_bytes: size::stripped(&binary, &out.join(format!("consumer-{name}.stripped"))),
    })
}

/// The distinct crates (name and version) of `cargo tree --prefix none` output, `own` left
/// out.
fn distinct_crates(tree: &str, own: &str) -> usize {
    let mut crates: Vec<(&str, &str)> = tree
        .lines()
        .filter_map(|line| {
            let mut words = line.split_whitespace();
            Some((words.next()?, words.next()?))
        })
        .filter(|(name, _)| *name != own)
        .collect();
    crates.sort_unstable();
    crates.dedup();
    crates.len()
}

/// Prints the programs' figures and the goals.
pub(crate) fn print(consumers: &[Consumer]) {
    println!("\n11. the same small program: dependencies, clean release build, stripped size");
    println!(
        "  {:<18} {:>7} {:>10} {:>14}",
        "program", "crates", "build", "stripped MiB"
    );
    for consumer in consumers {
        println!(
            "  {:<18} {:>7} {:>9.1}s {:>14}",
            consumer.name,
            consumer.crates,
            consumer.build.as_secs_f64(),
            consumer
                .stripped_bytes
                .map_or("missing".to_owned(), |bytes| format!(
                    "{:.2}",
                    bytes as f64 / (1024.0 * 1024.0)
                )),
        );
    }
    for (goal, measured, met) in goals(consumers) {
        let verdict = match met {
            Some(true) => "met",
            Some(false) => "NOT MET",
            None => "no figure",
        };
        println!("  goal: {goal}: {measured} ({verdict})");
    }
}

/// The figures and goals as JSON, for the report.
pub(crate) fn to_json(consumers: &[Consumer]) -> Value {
    let programs: Vec<Value> = consumers
        .iter()
        .map(|consumer| {
            json!({
                "program": consumer.name,
                "crates": consumer.crates,
                "clean_release_build_s": consumer.build.as_secs_f64(),
                "stripped_bytes": consumer.stripped_bytes,
            })
        })
        .collect();
    let goals: Vec<Value> = goals(consumers)
        .into_iter()
        .map(|(goal, measured, met)| json!({"goal": goal, "measured": measured, "met": met}))
        .collect();
    json!({"programs": programs, "goals": goals})
}

/// Each goal, its figure as text, and whether it holds.
fn goals(consumers: &[Consumer]) -> Vec<(&'static str, String, Option<bool>)> {
    let find = |name: &str| consumers.iter().find(|consumer| consumer.name == name);
    let figure = |name: &str, of: fn(&Consumer) -> Option<f64>| find(name).and_then(of);
    let crates = |consumer: &Consumer| Some(consumer.crates as f64);
    let build = |consumer: &Consumer| Some(consumer.build.as_secs_f64());
    let stripped = |consumer: &Consumer| consumer.stripped_bytes.map(|bytes| bytes as f64);
    let ratio = |toolport: &str, rmcp: &str, of: fn(&Consumer) -> Option<f64>, limit: f64| {
        let ratio = figure(toolport, of)
            .zip(figure(rmcp, of))
            .map(|(t, r)| t / r);
        (
            ratio.map_or("missing".to_owned(), |ratio| format!("{ratio:.2}x")),
            ratio.map(|ratio| ratio <= limit),
        )
    };
    let mut goals = Vec::new();
    for (goal, toolport, rmcp, of, limit) in [
        (
            "the default facade's crates at most 1.5x rmcp's with its HTTP client",
            "toolport-default",
            "rmcp-http",
            crates as fn(&Consumer) -> Option<f64>,
            1.5,
        ),
        (
            "stdio alone: crates at most 1.3x rmcp's stdio client",
            "toolport-stdio",
            "rmcp-stdio",
            crates,
            1.3,
        ),
        (
            "the default facade's clean release build at most 1.5x rmcp's with its HTTP client",
            "toolport-default",
            "rmcp-http",
            build,
            1.5,
        ),
        (
            "stdio alone: the stripped binary at most 2x rmcp's stdio client",
            "toolport-stdio",
            "rmcp-stdio",
            stripped,
            2.0,
        ),
    ] {
        let (measured, met) = ratio(toolport, rmcp, of, limit);
        goals.push((goal, measured, met));
    }
    let default_bytes = figure("toolport-default", stripped);
    goals.push((
        "the default facade's stripped binary at most 8 MB",
        default_bytes.map_or("missing".to_owned(), |bytes| {
            format!("{:.2} MB", bytes / 1e6)
        }),
        default_bytes.map(|bytes| bytes <= DEFAULT_BINARY_LIMIT as f64),
    ));
    goals
}

#[cfg(test)]
mod tests {
    use super::*;

    fn consumer(name: &'static str, crates: usize, build_s: u64, mb: u64) -> Consumer {
        Consumer {
            name,
            crates,
            build: Duration::from_secs(build_s),
            stripped_bytes: Some(mb * 1_000_000),
        }
    }

    #[test]
    fn the_crates_of_a_tree_are_counted_once_each_without_the_program_itself() {
        let tree = "consumer-x v0.1.0 (/bench/consumers/x)\nrmcp v3.11.0\nserde v1.0.229\n\
                    rmcp v3.11.0 (*)\nsyn v2.0.119\nsyn v3.0.10\n\n";
        assert_eq!(distinct_crates(tree, "consumer-x"), 4);
    }

    #[test]
    fn each_toolport_program_is_judged_against_rmcp_doing_the_same() {
        let lean = [
            consumer("toolport-default", 150, 60, 6),
            consumer("toolport-stdio", 78, 40, 3),
            consumer("rmcp-stdio", 61, 30, 2),
            consumer("rmcp-http", 107, 50, 4),
        ];
        let verdicts: Vec<_> = goals(&lean).into_iter().map(|(_, _, met)| met).collect();
        assert_eq!(verdicts, [Some(true); 5]);
        let heavy = [
            consumer("toolport-default", 224, 90, 16),
            consumer("toolport-stdio", 96, 50, 8),
            consumer("rmcp-stdio", 61, 30, 2),
            consumer("rmcp-http", 107, 50, 4),
        ];
        let verdicts: Vec<_> = goals(&heavy).into_iter().map(|(_, _, met)| met).collect();
        assert_eq!(verdicts, [Some(false); 5]);
        let verdicts: Vec<_> = goals(&[]).into_iter().map(|(_, _, met)| met).collect();
        assert_eq!(verdicts, [None; 5]);
    }
}
