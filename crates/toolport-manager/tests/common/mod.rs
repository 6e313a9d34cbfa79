//! What the manager's tests share: the `toolport-fixture` binary as a configured server, a
//! scratch directory, and a scan of `/proc` for children left running.

#![allow(dead_code, reason = "each test file uses a part of it")]

use std::path::PathBuf;
use std::time::{Duration, Instant};

use toolport_manager::{ManagerEvent, ManagerEventKind, ServerConfig};

/// The `toolport-fixture` binary's path, as a string for a config.
pub fn fixture_command() -> String {
    toolport_testkit::fixture_binary().display().to_string()
}

/// A stdio server running the fixture in `mode` with `args`.
pub fn fixture(mode: &str, args: &[&str]) -> ServerConfig {
    ServerConfig::stdio(fixture_command())
        .args([mode])
        .args(args.iter().copied())
}

/// A fresh directory under the system's temporary one, named for `test`.
pub fn scratch_dir(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("toolport-manager-{test}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The PIDs of live processes whose command line contains `needle`.
pub fn processes_with(needle: &str) -> Vec<u32> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let Ok(pid) = entry.file_name().to_string_lossy().parse::<u32>() else {
            continue;
        };
        let Ok(cmdline) = std::fs::read(entry.path().join("cmdline")) else {
            continue;
        };
        let cmdline = String::from_utf8_lossy(&cmdline).replace('\0', " ");
        let state = std::fs::read_to_string(entry.path().join("stat")).unwrap_or_default();
        let zombie_or_dead = state
            .rsplit(')')
            .next()
            .is_some_and(|rest| rest.trim_start().starts_with(['Z', 'X']));
        if !zombie_or_dead && cmdline.contains(needle) && cmdline.contains("toolport-fixture") {
            found.push(pid);
        }
    }
    found
}

/// Waits up to 10 s for no fixture process to have `needle` on its command line; returns
/// those still there.
pub async fn wait_until_gone(needle: &str) -> Vec<u32> {
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let left = processes_with(needle);
        if left.is_empty() || Instant::now() > deadline {
            return left;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// Waits up to `within` for an event of `server` that `wanted` accepts, and returns the
/// events of that server seen until then, the accepted one last.
pub async fn events_until(
    events: &mut tokio::sync::broadcast::Receiver<ManagerEvent>,
    server: &str,
    within: Duration,
    wanted: impl Fn(&ManagerEventKind) -> bool,
) -> Vec<ManagerEventKind> {
    let mut seen = Vec::new();
    let deadline = tokio::time::Instant::now() + within;
    loop {
        let event = tokio::time::timeout_at(deadline, events.recv())
            .await
            .unwrap_or_else(|_| panic!("no such event of {server} within {within:?}; saw {seen:?}"))
            .expect("the manager's events go on");
        if event.server != server {
            continue;
        }
        let done = wanted(&event.kind);
        seen.push(event.kind);
        if done {
            return seen;
        }
    }
}
