//! A named, timed step: runs one child process with its output streamed straight through.

use std::process::Command;
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};

/// Runs `cmd` as the step `name`, with inherited stdio.
///
/// Prints a header before and the elapsed time after. Fails with a message
/// that names the step if the child cannot start or exits unsuccessfully.
pub(crate) fn run(name: &str, cmd: &mut Command) -> Result<Duration> {
    println!("==> {name}");
    let start = Instant::now();
    let status = cmd
        .status()
        .with_context(|| format!("step `{name}`: could not start {}", show(cmd)))?;
    let elapsed = start.elapsed();
    if !status.success() {
        bail!(
            "step `{name}` failed after {:.1}s ({status}): {}",
            elapsed.as_secs_f64(),
            show(cmd)
        );
    }
    println!("<== {name}: ok in {:.1}s", elapsed.as_secs_f64());
    Ok(elapsed)
}

/// Runs `cmd` quietly and returns its trimmed stdout, or `None` if it
/// could not start or did not succeed. For probes such as `--version`.
pub(crate) fn probe(cmd: &mut Command) -> Option<String> {
    let out = cmd.stdin(std::process::Stdio::null()).output().ok()?;
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).trim().to_owned())
}

/// The command line of `cmd`, for messages.
pub(crate) fn show(cmd: &Command) -> String {
    let mut line = format!("`{}", cmd.get_program().to_string_lossy());
    for arg in cmd.get_args() {
        line.push(' ');
        line.push_str(&arg.to_string_lossy());
    }
    line.push('`');
    line
}
