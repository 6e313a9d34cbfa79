//! The manager over real child processes (the `toolport-fixture` binary): concurrent starts,
//! a hung handshake that delays nothing else, timeouts, crash loops, restarts in parallel,
//! rollback, the aggregate's names and `autoApprove`, and no child left behind. A restart of
//! one crashed server, read from its trace, is in `restart_trace.rs`.

use std::sync::Arc;
use std::time::Duration;

use serde_json::json;
use toolport_core::Timeouts;
use toolport_manager::{
    ManagerError, ManagerEventKind, McpServerManager, RestartPolicy, ServerStatus,
};
use toolport_tools::{Decision, Tool, ToolCall};

mod common;
use common::{events_until, fixture};
use toolport_fixtures::{processes_with, wait_until_gone};

/// A manager that notices a crash within 50 ms.
fn manager() -> McpServerManager {
    McpServerManager::builder()
        .startup_grace(Duration::MAX)
        .health_interval(Duration::from_millis(50))
        .grace(Duration::from_secs(2))
        .build()
}

#[tokio::test]
async fn twenty_servers_start_at_once_and_their_shared_names_are_prefixed() {
    let manager = manager();
    for n in 0..20 {
        let config = fixture("tasks", &["--lifetime-secs", "120"]);
        manager.add(&format!("tasks{n}"), config).unwrap();
    }
    manager
        .add("lab", fixture("lab", &["--lifetime-secs", "120"]))
        .unwrap();
    let report = manager.start_all().await;
    assert!(
        report.all_started(),
        "{:?}",
        report
            .failures()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
    );
    assert_eq!(report.started(), 21);

    let tools = manager.managed_tools(None).await.unwrap();
    let names: Vec<&str> = tools.iter().map(|tool| tool.name()).collect();
    assert!(names.contains(&"tasks7__list_tasks"), "{names:?}");
    assert!(
        names.contains(&"echo"),
        "the lab's own names stay: {names:?}"
    );
    assert!(!names.contains(&"list_tasks"));
    assert_eq!(tools.len(), 20 * 3 + 7, "{names:?}");

    let add = manager.tool("tasks3__add_task", None).await.unwrap();
    assert_eq!(add.server_id(), "tasks3");
    let added = add.call(json!({"title": "Ship it"}), None).await.unwrap();
    assert_eq!(added.value["title"], "Ship it");
    let list = manager.tool("tasks4__list_tasks", None).await.unwrap();
    let listed = list.call(json!({}), None).await.unwrap();
    assert_eq!(listed.value["count"], 3, "each server has its own state");
    manager.shutdown().await;
}

#[tokio::test]
async fn a_server_that_never_answers_initialize_delays_nothing_else() {
    let manager = Arc::new(manager());
    manager
        .add(
            "hung",
            fixture("hang", &["--lifetime-secs", "60"]).startup_timeout(Duration::from_secs(30)),
        )
        .unwrap();
    manager
        .add("tasks", fixture("tasks", &["--lifetime-secs", "60"]))
        .unwrap();
    let mut events = manager.subscribe();
    let hung = tokio::spawn({
        let manager = Arc::clone(&manager);
        async move { manager.start("hung").await }
    });
    events_until(&mut events, "hung", Duration::from_secs(20), |kind| {
        matches!(kind, ManagerEventKind::Starting)
    })
    .await;
    assert_eq!(manager.status("hung"), Some(ServerStatus::Starting));

    manager.start("tasks").await.unwrap();
    let tools = manager.managed_tools(None).await.unwrap();
    assert_eq!(tools.len(), 3);
    manager
        .add("more", fixture("tasks", &["--lifetime-secs", "60"]))
        .unwrap();
    assert_eq!(manager.ids(), ["hung", "tasks", "more"]);
    manager.disable("more").await.unwrap();
    manager.remove("more").await.unwrap();
    assert_eq!(manager.status("tasks"), Some(ServerStatus::Running));
    // Its start gives up only after 30 s, or when stopped: everything above ran meanwhile.
    assert_eq!(manager.status("hung"), Some(ServerStatus::Starting));

    manager.stop("hung").await.unwrap();
    let outcome = tokio::time::timeout(Duration::from_secs(5), hung)
        .await
        .expect("a stop calls off the hung start")
        .unwrap();
    assert!(
        matches!(outcome, Err(ManagerError::Interrupted(_))),
        "{outcome:?}"
    );
    assert_eq!(manager.status("hung"), Some(ServerStatus::Stopped));
    manager.shutdown().await;
}

#[tokio::test]
async fn every_handshake_has_a_timeout_and_a_slow_server_may_take_its_time() {
    let manager = manager();
    manager
        .add(
            "hung",
            fixture("hang", &["--lifetime-secs", "60"]).startup_timeout(Duration::from_millis(500)),
        )
        .unwrap();
    manager
        .add(
            "slow",
            fixture(
                "tasks",
                &["--lifetime-secs", "60", "--start-delay-ms", "1500"],
            ),
        )
        .unwrap();
    let report = manager.start_all().await;
    let failures: Vec<String> = report.failures().map(ToString::to_string).collect();
    assert_eq!(failures, ["server `hung` did not start within 500 ms"]);
    assert_eq!(manager.status("slow"), Some(ServerStatus::Running));
    assert!(matches!(
        manager.status("hung"),
        Some(ServerStatus::Failed { .. })
    ));
    manager.shutdown().await;
}

#[tokio::test]
async fn a_crash_looping_server_ends_failed_with_its_stderr() {
    let manager = manager();
    let policy = RestartPolicy::default()
        .with_max_attempts(2)
        .with_backoff(Duration::from_millis(50), Duration::from_millis(100));
    let config = fixture(
        "tasks",
        &["--lifetime-secs", "60", "--exit-after-ms", "300"],
    )
    .restart(policy);
    manager.add("flaky", config).unwrap();
    let mut events = manager.subscribe();
    manager.start("flaky").await.unwrap();
    let seen = events_until(&mut events, "flaky", Duration::from_secs(20), |kind| {
        matches!(kind, ManagerEventKind::Failed { .. })
    })
    .await;
    let restarts: Vec<u32> = seen
        .iter()
        .filter_map(|kind| match kind {
            ManagerEventKind::Restarting { attempt, .. } => Some(*attempt),
            _ => None,
        })
        .collect();
    assert_eq!(restarts, [1, 2], "{seen:?}");
    let crashes = seen
        .iter()
        .filter(|kind| matches!(kind, ManagerEventKind::Crashed { .. }))
        .count();
    assert_eq!(crashes, 3, "{seen:?}");
    let Some(ServerStatus::Failed { error }) = manager.status("flaky") else {
        panic!("{:?}", manager.status("flaky"));
    };
    assert!(
        error.contains("gave up after 2 restarts in a row"),
        "{error}"
    );
    assert!(
        error.contains("fatal: lost the database connection"),
        "{error}"
    );
    assert!(manager.toolset("flaky").is_none());
    manager.shutdown().await;
}

#[tokio::test]
async fn servers_that_crash_together_restart_in_parallel() {
    const SERVERS: usize = 5;
    // Each start takes at least this long, so that of restarts run one after another, one
    // server would run again before the next one's restart began.
    const START_DELAY: Duration = Duration::from_millis(500);
    let manager = manager();
    let policy =
        RestartPolicy::default().with_backoff(Duration::from_millis(20), Duration::from_millis(20));
    let delay = START_DELAY.as_millis().to_string();
    let ids: Vec<String> = (0..SERVERS).map(|n| format!("lab{n}")).collect();
    for id in &ids {
        let config = fixture(
            "lab",
            &["--lifetime-secs", "60", "--start-delay-ms", &delay],
        );
        manager.add(id, config.restart(policy)).unwrap();
    }
    assert!(manager.start_all().await.all_started());
    let mut events = manager.subscribe();
    let mut crashes = Vec::new();
    for id in &ids {
        crashes.push(manager.tool(&format!("{id}__crash"), None).await.unwrap());
    }
    futures_util::future::join_all(crashes.iter().map(|crash| crash.call(json!({}), None))).await;

    // Every server's restart begins before any of them is running again.
    let mut restarting = Vec::new();
    let mut running = Vec::new();
    while running.len() < SERVERS {
        let event = tokio::time::timeout(Duration::from_secs(20), events.recv())
            .await
            .unwrap_or_else(|_| panic!("restarting {restarting:?}, running {running:?}"))
            .unwrap();
        match event.kind {
            ManagerEventKind::Restarting { .. } => {
                assert!(
                    running.is_empty(),
                    "{} began its restart after {running:?} ran again",
                    event.server
                );
                restarting.push(event.server);
            }
            ManagerEventKind::Running => running.push(event.server),
            _ => {}
        }
    }
    assert_eq!(restarting.len(), SERVERS, "{restarting:?}");
    for id in &ids {
        assert_eq!(manager.status(id), Some(ServerStatus::Running), "{id}");
    }
    manager.shutdown().await;
}

#[tokio::test]
async fn a_server_that_hangs_with_its_connection_open_is_caught_by_ping_and_restarted() {
    let manager = McpServerManager::builder()
        .startup_grace(Duration::MAX)
        .health_interval(Duration::from_millis(50))
        .ping_every(Duration::from_millis(100))
        .timeouts(Timeouts::default().with_request(Duration::from_millis(500)))
        .grace(Duration::from_millis(500))
        .build();
    let policy = RestartPolicy::default()
        .with_max_attempts(1)
        .with_backoff(Duration::from_millis(50), Duration::from_millis(50));
    let config = fixture(
        "tasks",
        &["--lifetime-secs", "203", "--freeze-after-ms", "300"],
    )
    .restart(policy);
    manager.add("frozen", config).unwrap();
    let mut events = manager.subscribe();
    manager.start("frozen").await.unwrap();
    let seen = events_until(&mut events, "frozen", Duration::from_secs(20), |kind| {
        matches!(kind, ManagerEventKind::Failed { .. })
    })
    .await;
    let crashed = seen.iter().find_map(|kind| match kind {
        ManagerEventKind::Crashed { details } => details.clone(),
        _ => None,
    });
    let crashed = crashed.expect("a crash is reported");
    assert!(crashed.contains("did not answer a ping"), "{crashed}");
    let runs = seen
        .iter()
        .filter(|kind| **kind == ManagerEventKind::Running)
        .count();
    assert_eq!(runs, 2, "it ran, and ran again after the restart: {seen:?}");
    assert_eq!(
        wait_until_gone(&["toolport-fixture", "--lifetime-secs 203"]).await,
        Vec::<u32>::new(),
        "the frozen children were killed"
    );
    manager.shutdown().await;
}

#[tokio::test]
async fn an_update_that_fails_rolls_back_to_the_old_config() {
    let manager = manager();
    let good = fixture("tasks", &["--lifetime-secs", "60"]);
    manager.add("tasks", good.clone()).unwrap();
    manager.start("tasks").await.unwrap();
    let bad = fixture("exit-during-init", &[]);
    let error = manager.update("tasks", bad).await.unwrap_err();
    assert!(
        matches!(error, ManagerError::RolledBack { .. }),
        "{error:?}"
    );
    assert!(
        error.to_string().contains("fatal: database unreachable"),
        "{error}"
    );
    assert_eq!(manager.config("tasks"), Some(good));
    assert_eq!(manager.status("tasks"), Some(ServerStatus::Running));
    assert_eq!(manager.managed_tools(None).await.unwrap().len(), 3);

    let moved = fixture("lab", &["--lifetime-secs", "60"]);
    manager.update("tasks", moved).await.unwrap();
    assert!(
        manager.tool("echo", None).await.is_ok(),
        "the new config runs"
    );
    manager.shutdown().await;
}

#[tokio::test]
async fn auto_approved_tools_skip_the_hook_and_the_rest_go_through_it() {
    let manager = McpServerManager::builder()
        .startup_grace(Duration::MAX)
        .before_call(|call: &ToolCall| {
            let name = call.tool.name.to_string();
            async move { Decision::deny(format!("{name} needs the user's approval")) }
        })
        .build();
    let config = fixture("tasks", &["--lifetime-secs", "60"]).auto_approve(["list_tasks"]);
    manager.add("tasks", config).unwrap();
    manager.start("tasks").await.unwrap();
    let list = manager.tool("list_tasks", None).await.unwrap();
    let listed = list.call(json!({}), None).await.unwrap();
    assert_eq!(listed.value["count"], 3);
    let add = manager.tool("add_task", None).await.unwrap();
    let refused = add.call(json!({"title": "x"}), None).await.unwrap();
    assert!(refused.is_error);
    assert!(
        refused
            .value
            .to_string()
            .contains("add_task needs the user's approval"),
        "{}",
        refused.value
    );
    manager.shutdown().await;
}

#[tokio::test]
async fn disabled_servers_wait_and_tool_lists_filter() {
    let manager = manager();
    let config = fixture("tasks", &["--lifetime-secs", "60"])
        .disabled(true)
        .exclude_tools(["complete_task"]);
    manager.add("tasks", config).unwrap();
    let report = manager.start_all().await;
    assert!(report.outcomes.is_empty());
    assert_eq!(manager.status("tasks"), Some(ServerStatus::Disabled));
    assert!(matches!(
        manager.start("tasks").await,
        Err(ManagerError::Disabled(_))
    ));
    manager.enable("tasks").await.unwrap();
    let names: Vec<String> = manager
        .managed_tools(None)
        .await
        .unwrap()
        .iter()
        .map(|tool| tool.name().to_owned())
        .collect();
    assert_eq!(names, ["add_task", "list_tasks"]);
    manager.disable("tasks").await.unwrap();
    assert_eq!(manager.status("tasks"), Some(ServerStatus::Disabled));
    assert!(manager.managed_tools(None).await.unwrap().is_empty());
    manager.shutdown().await;
}

#[tokio::test]
async fn a_tool_list_change_reaches_the_aggregate() {
    let manager = manager();
    manager
        .add("lab", fixture("lab", &["--lifetime-secs", "60"]))
        .unwrap();
    manager.start("lab").await.unwrap();
    let mut events = manager.subscribe();
    let notify = manager.tool("notify_tools_changed", None).await.unwrap();
    notify.call(json!({}), None).await.unwrap();
    events_until(&mut events, "lab", Duration::from_secs(5), |kind| {
        *kind == ManagerEventKind::ToolsChanged
    })
    .await;
    manager.shutdown().await;
}

#[tokio::test]
async fn a_warm_aggregate_is_handed_out_again_until_a_server_changes() {
    let manager = manager();
    for id in ["tasks0", "tasks1"] {
        let config = fixture("tasks", &["--lifetime-secs", "60"]);
        manager.add(id, config).unwrap();
    }
    assert!(manager.start_all().await.all_started());
    let renamed = |tools: &[toolport_manager::ManagedTool]| {
        let tool = tools
            .iter()
            .find(|tool| tool.name() == "tasks0__list_tasks");
        tool.map(|tool| std::ptr::from_ref(tool.declaration()))
    };
    let first = manager.managed_tools(None).await.unwrap();
    let second = manager.managed_tools(None).await.unwrap();
    assert!(renamed(&first).is_some());
    assert_eq!(
        renamed(&first),
        renamed(&second),
        "the same declaration, not a copy"
    );
    let offered = toolport_tools::Toolset::tools(&manager, None)
        .await
        .unwrap();
    let again = toolport_tools::Toolset::tools(&manager, None)
        .await
        .unwrap();
    assert!(
        offered.iter().zip(&again).all(|(a, b)| Arc::ptr_eq(a, b)),
        "as a Toolset, the very same tools"
    );

    manager.stop("tasks1").await.unwrap();
    let alone = manager.managed_tools(None).await.unwrap();
    let names: Vec<&str> = alone.iter().map(|tool| tool.name()).collect();
    assert!(names.contains(&"list_tasks"), "no longer shared: {names:?}");
    let changed = toolport_tools::Toolset::tools(&manager, None)
        .await
        .unwrap();
    assert!(
        !Arc::ptr_eq(&changed[0], &offered[0]),
        "a new aggregate, new tools"
    );
    manager.shutdown().await;
}

#[tokio::test]
async fn no_child_outlives_shutdown() {
    let manager = manager();
    for n in 0..3 {
        manager
            .add(
                &format!("s{n}"),
                fixture("tasks", &["--lifetime-secs", "201"]),
            )
            .unwrap();
    }
    assert!(manager.start_all().await.all_started());
    assert_eq!(
        processes_with(&["toolport-fixture", "--lifetime-secs 201"]).len(),
        3
    );
    manager.shutdown().await;
    assert_eq!(
        wait_until_gone(&["toolport-fixture", "--lifetime-secs 201"]).await,
        Vec::<u32>::new()
    );
    assert!(matches!(
        manager.start("s0").await,
        Err(ManagerError::ShutDown)
    ));
}

#[tokio::test]
async fn no_child_outlives_a_dropped_manager() {
    let manager = manager();
    for n in 0..3 {
        manager
            .add(
                &format!("s{n}"),
                fixture("tasks", &["--lifetime-secs", "202"]),
            )
            .unwrap();
    }
    assert!(manager.start_all().await.all_started());
    assert_eq!(
        processes_with(&["toolport-fixture", "--lifetime-secs 202"]).len(),
        3
    );
    drop(manager);
    assert_eq!(
        wait_until_gone(&["toolport-fixture", "--lifetime-secs 202"]).await,
        Vec::<u32>::new()
    );
}
