//! Running the `toolport` command as a user would, and reading what it printed.
#![allow(dead_code, reason = "each test file uses a different part")]

use std::io::Write as _;
use std::process::{Command, Output, Stdio};

/// Runs `toolport` with `args` and an empty stdin.
pub fn toolport(args: &[&str]) -> Output {
    toolport_with_stdin(args, "")
}

/// Runs `toolport` with `args`, writing `stdin` to it; no `RUST_LOG` or `TOOLPORT_TIMEOUT_MS`
/// leaks in from the test's environment.
pub fn toolport_with_stdin(args: &[&str], stdin: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_toolport"))
        .args(args)
        .env_remove("RUST_LOG")
        .env_remove("TOOLPORT_TIMEOUT_MS")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(stdin.as_bytes())
        .unwrap();
    child.wait_with_output().unwrap()
}

/// Runs the command off the async runtime, which hosts the fixture server meanwhile.
pub async fn toolport_async(args: &[&str], env: &[(&str, &str)]) -> Output {
    let args: Vec<String> = args.iter().map(|arg| (*arg).to_owned()).collect();
    let env: Vec<(String, String)> = env
        .iter()
        .map(|(key, value)| ((*key).to_owned(), (*value).to_owned()))
        .collect();
    tokio::task::spawn_blocking(move || {
        Command::new(env!("CARGO_BIN_EXE_toolport"))
            .args(&args)
            .envs(env)
            .env_remove("RUST_LOG")
            .env_remove("TOOLPORT_TIMEOUT_MS")
            .output()
            .unwrap()
    })
    .await
    .unwrap()
}

/// Runs `toolport` with `args` and `env` on a pseudo-terminal (`script` from util-linux), as a
/// user at a terminal would, and returns its exit status and what it printed there (stdout and
/// stderr together, each `\r\n` the terminal made back to `\n`).
pub fn toolport_on_terminal(args: &[&str], env: &[(&str, &str)]) -> (Option<i32>, String) {
    let command: Vec<String> = std::iter::once(env!("CARGO_BIN_EXE_toolport"))
        .chain(args.iter().copied())
        .map(shell_quoted)
        .collect();
    let output = Command::new("script")
        .args(["-q", "-e", "-c", &command.join(" "), "/dev/null"])
        .envs(env.iter().copied())
        .env_remove("RUST_LOG")
        .env_remove("TOOLPORT_TIMEOUT_MS")
        .stdin(Stdio::null())
        .output()
        .expect("the terminal tests need `script` from util-linux");
    let printed = String::from_utf8(output.stdout).unwrap();
    (output.status.code(), printed.replace("\r\n", "\n"))
}

/// `arg` quoted for `sh`.
fn shell_quoted(arg: &str) -> String {
    format!("'{}'", arg.replace('\'', r"'\''"))
}

/// What the run printed on stdout.
pub fn stdout(output: &Output) -> String {
    String::from_utf8(output.stdout.clone()).unwrap()
}

/// The start of the one line that says a session's start-up is tried again.
pub const RETRY_NOTICE: &str = "toolport: the session did not start; trying again";

/// The single stderr line of a failed run, besides the notice that its start was retried.
pub fn failure_line(output: &Output) -> String {
    assert_eq!(output.status.code(), Some(1), "stdout: {}", stdout(output));
    let stderr = String::from_utf8(output.stderr.clone()).unwrap();
    let lines: Vec<&str> = stderr
        .lines()
        .filter(|line| !line.starts_with(RETRY_NOTICE))
        .collect();
    assert_eq!(lines.len(), 1, "exactly one stderr line, got: {stderr}");
    lines[0].to_owned()
}
