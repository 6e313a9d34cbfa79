//! A daemon a stdio server started, which left the server's process group (double-forked, in
//! a session of its own), ends with the server when the manager stops or restarts it (Linux).
#![cfg(target_os = "linux")]

use std::time::Duration;

use toolport_fixtures::{processes_with, wait_until_gone};
use toolport_manager::McpServerManager;
use toolport_testkit::WAIT;

mod common;
use common::fixture;

/// Waits up to the testkit's [`WAIT`] for process `pid` to leave those matching `needles`.
async fn wait_until_ended(pid: u32, needles: &[&str]) -> bool {
    let ended = async {
        while processes_with(needles).contains(&pid) {
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    };
    tokio::time::timeout(WAIT, ended).await.is_ok()
}

#[tokio::test]
async fn stop_and_restart_end_the_daemon_a_server_started() {
    let manager = McpServerManager::builder()
        .grace(Duration::from_secs(2))
        .build();
    let needles = ["sleep 1207"];
    manager
        .add("daemonic", fixture("tasks", &["--daemon-secs", "1207"]))
        .unwrap();
    manager.start("daemonic").await.unwrap();
    let first = processes_with(&needles);
    assert_eq!(first.len(), 1, "the server started its daemon");

    manager.restart("daemonic").await.unwrap();
    assert!(
        wait_until_ended(first[0], &needles).await,
        "the first server's daemon ended with it"
    );
    let second = processes_with(&needles);
    assert_eq!(second.len(), 1, "the new server started its own");

    manager.stop("daemonic").await.unwrap();
    assert_eq!(wait_until_gone(&needles).await, Vec::<u32>::new());
    manager.shutdown().await;
}
