//! `cargo xtask test`: everything CI checks, in order, stopping at the first failure.
//!
//! The steps: first the checks that need nothing installed, fastest first, so that a style
//! error fails in seconds: `cargo fmt --check`, `cargo xtask tidy` and clippy with warnings
//! denied. Then the peers, `cargo xtask conformance` and `cargo xtask interop` (this same
//! binary, run again), the example (run, offline), the doc tests (which nextest does not
//! run), then the tests (nextest when installed, else `cargo test`). The tests run last so
//! that the output ends on their summary rather than on the doc tests' often-empty crates,
//! which CI would read as "ran no test". The test steps see the `TOOLPORT_*` peer paths and
//! `RUST_BACKTRACE=1`.

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use anyhow::Result;

use crate::{peers, step, workspace};

/// Runs every step and prints how long each one took.
pub(crate) fn run() -> Result<()> {
    let start = Instant::now();
    let mut times: Vec<(&str, Duration)> = Vec::new();
    let cargo = || {
        let mut cmd = Command::new(workspace::cargo());
        cmd.current_dir(workspace::root());
        cmd
    };
    let xtask = |task: &str| -> Result<Command> {
        let mut cmd = Command::new(std::env::current_exe()?);
        cmd.arg(task);
        Ok(cmd)
    };

    let mut fmt = cargo();
    fmt.args(["fmt", "--all", "--check"]);
    let mut clippy = cargo();
    clippy.args([
        "clippy",
        "--workspace",
        "--all-targets",
        "--locked",
        "--",
        "-D",
        "warnings",
    ]);
    let checks = [
        ("cargo fmt --check", fmt),
        ("cargo xtask tidy", xtask("tidy")?),
        ("cargo clippy", clippy),
    ];
    for (name, mut cmd) in checks {
        times.push((name, step::run(name, &mut cmd)?));
    }

    let peers_start = Instant::now();
    let peers = peers::run()?;
    times.push(("peers", peers_start.elapsed()));
    let test_cmd = |args: &[&str]| {
        let mut cmd = cargo();
        cmd.args(args).envs(peers.env()).env("RUST_BACKTRACE", "1");
        cmd
    };

    let tests = if has_nextest() {
        (
            "cargo nextest run",
            test_cmd(&[
                "nextest",
                "run",
                "--workspace",
                "--all-targets",
                "--locked",
                "--no-fail-fast",
            ]),
        )
    } else {
        println!("cargo-nextest not found; using cargo test");
        (
            "cargo test",
            test_cmd(&["test", "--workspace", "--all-targets", "--locked"]),
        )
    };
    let mut example = cargo();
    example.args(["run", "--quiet", "--locked", "-p", "tasks-agent"]);
    let doc = test_cmd(&["test", "--workspace", "--doc", "--locked"]);

    let steps = [
        ("cargo xtask conformance", xtask("conformance")?),
        ("cargo xtask interop", xtask("interop")?),
        ("example tasks_agent", example),
        ("cargo test --doc", doc),
        tests,
    ];
    for (name, mut cmd) in steps {
        times.push((name, step::run(name, &mut cmd)?));
    }

    println!(
        "xtask test: all steps passed in {:.1}s",
        start.elapsed().as_secs_f64()
    );
    for (name, time) in times {
        println!("  {:>7.1}s  {name}", time.as_secs_f64());
    }
    Ok(())
}

/// Whether `cargo nextest` is installed.
fn has_nextest() -> bool {
    Command::new(workspace::cargo())
        .args(["nextest", "--version"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}
