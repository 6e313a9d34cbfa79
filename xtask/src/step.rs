//! Child processes: a named, timed step with its output streamed straight through, quiet
//! probes, and runs bounded by a time limit.

use std::io::Read;
use std::process::{Child, Command, ExitStatus, Stdio};
use std::thread::{self, JoinHandle};
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
    let out = cmd.stdin(Stdio::null()).output().ok()?;
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

/// How a child run under a time limit ended.
#[derive(Debug)]
pub(crate) struct Bounded {
    /// Its exit status, or `None` when it was killed at the time limit.
    pub(crate) status: Option<ExitStatus>,
    /// Everything it printed on stdout.
    pub(crate) stdout: String,
    /// Everything it printed on stderr.
    pub(crate) stderr: String,
}

/// Runs `cmd` with piped output, killing it if it is still running after `limit`.
pub(crate) fn output_within(cmd: &mut Command, limit: Duration) -> Result<Bounded> {
    let mut child = cmd
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .with_context(|| format!("could not start {}", show(cmd)))?;
    let stdout = drain(child.stdout.take());
    let stderr = drain(child.stderr.take());
    let status = wait_within(&mut child, limit)?;
    Ok(Bounded {
        status,
        stdout: stdout.join().unwrap_or_default(),
        stderr: stderr.join().unwrap_or_default(),
    })
}

/// Waits for `child` for at most `limit`; then kills it (by its PID) and returns `None`.
pub(crate) fn wait_within(child: &mut Child, limit: Duration) -> Result<Option<ExitStatus>> {
    let deadline = Instant::now() + limit;
    loop {
        if let Some(status) = child.try_wait().context("waiting for a child process")? {
            return Ok(Some(status));
        }
        if Instant::now() >= deadline {
            // Killing a child that has just exited is harmless; reaping it is what matters.
            let _ = child.kill();
            child.wait().context("reaping a child process")?;
            return Ok(None);
        }
        thread::sleep(Duration::from_millis(20));
    }
}

/// Reads `pipe` to the end on its own thread, so a chatty child never blocks on a full pipe.
fn drain(pipe: Option<impl Read + Send + 'static>) -> JoinHandle<String> {
    thread::spawn(move || {
        let mut text = String::new();
        if let Some(mut pipe) = pipe {
            let mut bytes = Vec::new();
            let _ = pipe.read_to_end(&mut bytes);
            text = String::from_utf8_lossy(&bytes).into_owned();
        }
        text
    })
}
