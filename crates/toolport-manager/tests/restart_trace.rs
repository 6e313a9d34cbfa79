//! A crashed server comes back, and the first call on it says in its span that, and why, the
//! server was restarted.
//!
//! Alone in its test binary: the test reads the spans through a subscriber of its own thread,
//! and `tracing` keeps one answer per callsite for the whole process. With one such subscriber
//! alive, a callsite first reached on another test's thread, which has none, is disabled for
//! every thread, this one's too.

use std::time::Duration;

use serde_json::json;
use toolport_manager::{ManagerEventKind, McpServerManager, RestartPolicy, ServerStatus};
use toolport_tools::Tool;

mod common;
use common::{events_until, fixture};
use toolport_fixtures::{RequestSpans, span_events};
use tracing_subscriber::layer::SubscriberExt as _;

#[tokio::test(flavor = "current_thread")]
async fn a_crashed_server_comes_back_and_its_tools_work_again() {
    // The test's one thread runs every task, so its subscriber sees every span.
    let spans = RequestSpans::default();
    let _guard =
        tracing::subscriber::set_default(tracing_subscriber::registry().with(spans.clone()));
    let manager = McpServerManager::builder()
        .startup_grace(Duration::MAX)
        .health_interval(Duration::from_millis(50))
        .grace(Duration::from_secs(2))
        .build();
    let policy =
        RestartPolicy::default().with_backoff(Duration::from_millis(50), Duration::from_millis(50));
    manager
        .add(
            "lab",
            fixture("lab", &["--lifetime-secs", "60"]).restart(policy),
        )
        .unwrap();
    manager.start("lab").await.unwrap();
    let mut events = manager.subscribe();
    let crash = manager.tool("crash", None).await.unwrap();
    let _ = crash.call(json!({}), None).await;
    let seen = events_until(&mut events, "lab", Duration::from_secs(10), |kind| {
        *kind == ManagerEventKind::Running
    })
    .await;
    // The call that lost its connection let it go; its exit is still known.
    let crashed = seen.iter().find_map(|kind| match kind {
        ManagerEventKind::Crashed { details } => details.clone(),
        _ => None,
    });
    assert!(
        crashed.is_some_and(|details| details.contains("status 3")),
        "{seen:?}"
    );
    let echo = manager.tool("echo", None).await.unwrap();
    let echoed = echo.call(json!({"text": "again"}), None).await.unwrap();
    assert!(
        echoed.value.to_string().contains("again"),
        "{}",
        echoed.value
    );
    assert_eq!(manager.status("lab"), Some(ServerStatus::Running));
    manager.shutdown().await;

    // The first call on the restarted server says, in its span, that and why it was restarted.
    let echo = spans.one("tools/call echo");
    let restart = span_events(&echo)
        .lines()
        .find(|event| event.starts_with("the server was restarted since the last request"))
        .unwrap_or_else(|| panic!("no restart in the call's span: {echo:?}"));
    assert!(restart.contains("attempt=1"), "{restart}");
    assert!(restart.contains("restarts=1"), "{restart}");
    assert!(
        restart.contains("cause=server exited with status 3"),
        "{restart}"
    );
}
