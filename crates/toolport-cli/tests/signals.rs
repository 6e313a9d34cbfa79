//! Nothing the command starts outlives it: SIGINT and SIGTERM close its servers before it exits
//! (130, 143), and on Linux even `kill -9` of the command takes its stdio server down. The
//! server here ignores the end of its stdin, so closing stdin alone would not end it.
#![cfg(target_os = "linux")]

mod common;

use std::io::Read as _;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use toolport_fixtures::fixture_binary;

/// `toolport` in the middle of a long call to a server that lives two minutes past the end of
/// its stdin, and the server's pid.
fn command_in_a_long_call() -> (Child, u32) {
    let fixture = fixture_binary();
    let command = Command::new(env!("CARGO_BIN_EXE_toolport"))
        .args(["call", "sleep", "ms:=120000", "--"])
        .arg(fixture)
        .args([
            "lab",
            "--after-stdin-closes-secs",
            "120",
            "--lifetime-secs",
            "150",
        ])
        .env_remove("RUST_LOG")
        .env_remove("TOOLPORT_TIMEOUT_MS")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let owner = command.id();
    let server = wait_for(
        || {
            children_of(owner)
                .into_iter()
                .find(|child| is_fixture(*child))
        },
        "the server started",
    );
    (command, server)
}

/// Waits, up to a minute, for `found` to find something; polling `/proc` is the only way to
/// see another process's state change.
fn wait_for<T>(mut found: impl FnMut() -> Option<T>, what: &str) -> T {
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        if let Some(value) = found() {
            return value;
        }
        assert!(Instant::now() < deadline, "waited a minute for: {what}");
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// The pids whose parent is `pid`, from `/proc`.
fn children_of(pid: u32) -> Vec<u32> {
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    entries
        .filter_map(|entry| entry.ok()?.file_name().to_str()?.parse::<u32>().ok())
        .filter(|candidate| stat_fields(*candidate).is_some_and(|fields| fields.1 == pid))
        .collect()
}

/// The state and parent pid of `pid`, from `/proc/<pid>/stat`.
fn stat_fields(pid: u32) -> Option<(char, u32)> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    let mut fields = stat.rsplit(')').next()?.split_whitespace();
    let state = fields.next()?.chars().next()?;
    let parent = fields.next()?.parse().ok()?;
    Some((state, parent))
}

/// Whether `pid` is a live process (a zombie is dead: PID 1 of a container may never reap it).
fn alive(pid: u32) -> bool {
    stat_fields(pid).is_some_and(|(state, _)| state != 'Z' && state != 'X')
}

/// Whether `pid` runs the fixture (past the fork, its program executed; `comm` holds 15 bytes).
fn is_fixture(pid: u32) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/comm"))
        .is_ok_and(|name| name.trim() == "toolport-fixtur")
}

fn send_signal(pid: u32, signal: libc::c_int) {
    let pid = libc::pid_t::try_from(pid).unwrap();
    // SAFETY: signals a process this test started.
    assert_eq!(unsafe { libc::kill(pid, signal) }, 0);
}

#[test]
fn sigint_and_sigterm_close_the_servers_before_the_command_exits() {
    for (signal, status, said) in [
        (
            libc::SIGINT,
            130,
            "toolport: interrupted: closing the servers",
        ),
        (
            libc::SIGTERM,
            143,
            "toolport: terminated: closing the servers",
        ),
    ] {
        let (mut command, server) = command_in_a_long_call();
        send_signal(command.id(), signal);
        let exit = command.wait().unwrap();
        let mut stderr = String::new();
        command
            .stderr
            .take()
            .unwrap()
            .read_to_string(&mut stderr)
            .unwrap();
        assert_eq!(exit.code(), Some(status), "{stderr}");
        assert!(stderr.contains(said), "{stderr}");
        assert!(!alive(server), "the server ended before the command did");
    }
}

#[test]
fn kill_9_of_the_command_takes_its_server_down() {
    let (mut command, server) = command_in_a_long_call();
    send_signal(command.id(), libc::SIGKILL);
    command.wait().unwrap();
    wait_for(
        || (!alive(server)).then_some(()),
        "the server to die with the command",
    );
}
