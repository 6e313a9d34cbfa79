//! What the manager's tests share: the `toolport-fixture` binary as a configured server, a
//! scratch directory, and a wait for lifecycle events.

#![allow(dead_code, reason = "each test file uses a part of it")]

use std::path::PathBuf;
use std::time::Duration;

use toolport_manager::{ManagerEvent, ManagerEventKind, ServerConfig};

/// The `toolport-fixture` binary's path, as a string for a config.
pub fn fixture_command() -> String {
    toolport_fixtures::fixture_binary().display().to_string()
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
