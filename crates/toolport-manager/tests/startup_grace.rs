//! The start-up grace over real child processes: `start_all` waits for required servers and
//! leaves a slower optional one joining, which is offered once it is up; `started` waits for
//! one server's start and names why it failed.

use std::time::Duration;

use toolport_manager::{ManagerError, ManagerEventKind, McpServerManager, ServerStatus};
use toolport_tools::Tool as _;

mod common;
use common::{events_until, fixture};

/// A grace no fixture's start fits in: the slow servers below read nothing for far longer.
const SHORT_GRACE: Duration = Duration::from_millis(20);

/// Long enough for any start here to end, on the most loaded machine.
const PATIENCE: Duration = Duration::from_secs(60);

#[tokio::test]
async fn an_optional_server_slower_than_the_grace_joins_later_and_is_announced() {
    let manager = McpServerManager::builder()
        .startup_grace(SHORT_GRACE)
        .build();
    let quick = fixture("lab", &["--lifetime-secs", "120"]).required(true);
    manager.add("quick", quick).unwrap();
    let slow = fixture(
        "tasks",
        &["--lifetime-secs", "120", "--start-delay-ms", "1500"],
    );
    manager.add("slow", slow).unwrap();
    let mut events = manager.subscribe();

    let report = manager.start_all().await;

    assert_eq!(report.started(), 1, "the required server is awaited");
    assert_eq!(report.joining, ["slow"]);
    assert!(!report.all_started());
    assert_eq!(manager.status("slow"), Some(ServerStatus::Starting));
    let before: Vec<String> = names(&manager).await;
    assert!(before.contains(&"echo".to_owned()), "{before:?}");
    assert!(!before.contains(&"add_task".to_owned()), "{before:?}");

    let seen = events_until(&mut events, "slow", PATIENCE, |kind| {
        *kind == ManagerEventKind::ToolsChanged
    })
    .await;
    assert!(seen.contains(&ManagerEventKind::Running), "{seen:?}");
    manager.started("slow").await.unwrap();
    let after = names(&manager).await;
    assert!(after.contains(&"add_task".to_owned()), "{after:?}");
    assert!(after.contains(&"echo".to_owned()), "{after:?}");
    manager.shutdown().await;
}

#[tokio::test]
async fn started_waits_for_a_joining_server_and_names_why_it_failed() {
    let manager = McpServerManager::builder()
        .startup_grace(SHORT_GRACE)
        .build();
    let hung =
        fixture("hang", &["--lifetime-secs", "60"]).startup_timeout(Duration::from_millis(500));
    manager.add("hung", hung).unwrap();

    let report = manager.start_all().await;
    assert_eq!(report.joining, ["hung"]);

    let error = manager.started("hung").await.unwrap_err();
    assert!(
        matches!(
            &error,
            ManagerError::NotRunning { server, status: ServerStatus::Failed { .. } } if server == "hung"
        ),
        "{error:?}"
    );
    assert_eq!(
        error.to_string(),
        "server `hung` is not running: failed: server `hung` did not start within 500 ms"
    );
    assert!(matches!(
        manager.started("nobody").await,
        Err(ManagerError::UnknownServer(_))
    ));
    manager.shutdown().await;
}

#[tokio::test]
async fn a_required_server_is_awaited_past_the_grace() {
    let manager = McpServerManager::builder()
        .startup_grace(SHORT_GRACE)
        .build();
    let slow = fixture(
        "tasks",
        &["--lifetime-secs", "120", "--start-delay-ms", "300"],
    )
    .required(true);
    manager.add("slow", slow).unwrap();

    let report = manager.start_all().await;

    assert!(report.all_started(), "{:?}", report.joining);
    assert_eq!(manager.status("slow"), Some(ServerStatus::Running));
    manager.shutdown().await;
}

/// The aggregate's names now.
async fn names(manager: &McpServerManager) -> Vec<String> {
    manager
        .managed_tools(None)
        .await
        .unwrap()
        .iter()
        .map(|tool| tool.name().to_owned())
        .collect()
}
