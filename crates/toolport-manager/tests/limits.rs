//! Per-server limits: `maxConcurrentCalls` and `timeout` from `mcp.json` (or the manager's
//! defaults) bound each server's calls, a call can have a bound of its own, and a server that
//! answers slowly to everything stalls only the calls to it. On paused time, over in-process lab
//! servers, so that "promptly" is exact: no virtual time passes.

use std::collections::HashMap;
use std::num::NonZeroUsize;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::json;
use tokio::time::Instant;
use toolport_core::Connector;
use toolport_fixtures::LabServer;
use toolport_manager::{
    ConfigError, ConnectorFactory, McpConfig, McpServerManager, ServerToConnect,
};
use toolport_testkit::{DuplexConnector, WAIT, join_all};
use toolport_tools::Tool as _;

/// Makes every server an in-process lab server of its own, kept by id for the test to watch.
#[derive(Debug, Clone, Default)]
struct Labs(Arc<Mutex<HashMap<String, LabServer>>>);

impl Labs {
    /// Server `id`'s lab.
    fn of(&self, id: &str) -> LabServer {
        let mut labs = self.0.lock().unwrap();
        labs.entry(id.to_owned()).or_default().clone()
    }
}

impl ConnectorFactory for Labs {
    fn connector(&self, server: &ServerToConnect<'_>) -> Result<Arc<dyn Connector>, ConfigError> {
        let lab = self.of(server.id());
        let connector = DuplexConnector::new(move || lab.clone());
        Ok(Arc::new(
            connector.with_target(format!("lab `{}`", server.id())),
        ))
    }
}

/// A started manager of the servers of `mcp_json`, each a lab of `labs`, every tool named
/// `{server}__{tool}`.
async fn fleet(mcp_json: serde_json::Value, labs: &Labs) -> McpServerManager {
    let config = McpConfig::parse(&mcp_json.to_string(), "mcp.json").unwrap();
    let manager = McpServerManager::builder()
        .config(config)
        .connectors(labs.clone())
        .always_prefix(true)
        .max_concurrent_calls(NonZeroUsize::new(8).unwrap())
        .build();
    manager.start_all().await.check_required().unwrap();
    manager
}

#[tokio::test(start_paused = true)]
async fn each_servers_limit_and_timeout_reach_its_session_the_managers_by_default() {
    let labs = Labs::default();
    let manager = fleet(
        json!({"mcpServers": {
            "own": {"type": "lab", "maxConcurrentCalls": 2, "timeout": 5},
            "default": {"type": "lab"}
        }}),
        &labs,
    )
    .await;
    let session = |id: &str| manager.toolset(id).unwrap().session().clone();
    assert_eq!(session("own").max_concurrent_calls(), NonZeroUsize::new(2));
    assert_eq!(session("own").timeouts().request, Duration::from_secs(5));
    assert_eq!(
        session("default").max_concurrent_calls(),
        NonZeroUsize::new(8),
        "the manager's"
    );

    let sleep = manager.tool("own__sleep", None).await.unwrap();
    let calls = (0..6).map(|_| {
        let sleep = sleep.clone();
        async move { sleep.call(json!({"ms": 1_000}), None).await }
    });
    let results = join_all(calls).await;
    assert!(results.iter().all(Result::is_ok), "{results:?}");
    assert_eq!(
        labs.of("own").sleeps().peak(),
        2,
        "never more than its limit"
    );
    manager.shutdown().await;
}

#[tokio::test(start_paused = true)]
async fn a_servers_timeout_bounds_its_calls_and_one_call_can_have_its_own() {
    let labs = Labs::default();
    let manager = fleet(
        json!({"mcpServers": {"slow": {"type": "lab", "timeout": 1}}}),
        &labs,
    )
    .await;
    let sleep = manager.tool("slow__sleep", None).await.unwrap();

    let started = Instant::now();
    let error = sleep.call(json!({"ms": 3_000}), None).await.unwrap_err();
    assert!(error.is_timeout(), "{error}");
    assert_eq!(
        started.elapsed(),
        Duration::from_secs(1),
        "the server's timeout"
    );

    let longer = Duration::from_secs(5);
    let output = sleep
        .call_with_timeout(json!({"ms": 3_000}), None, longer)
        .await
        .unwrap();
    assert_eq!(output.value, "slept 3000 ms");

    let started = Instant::now();
    let shorter = Duration::from_millis(200);
    let error = sleep
        .call_with_timeout(json!({"ms": 500}), None, shorter)
        .await
        .unwrap_err();
    assert!(error.is_timeout(), "{error}");
    assert_eq!(started.elapsed(), shorter);
    manager.shutdown().await;
}

#[tokio::test(start_paused = true)]
async fn a_flooded_server_stalls_only_the_calls_to_it() {
    let labs = Labs::default();
    let manager = fleet(
        json!({"mcpServers": {
            "flooded": {"type": "lab", "maxConcurrentCalls": 4, "timeout": 3600},
            "files": {"type": "lab"},
            "notes": {"type": "lab"}
        }}),
        &labs,
    )
    .await;
    // Forty calls of ten minutes each: four at the server, thirty-six waiting for a slot.
    let flooded = manager.tool("flooded__sleep", None).await.unwrap();
    let flood: Vec<_> = (0..40)
        .map(|_| {
            let sleep = flooded.clone();
            tokio::spawn(async move { sleep.call(json!({"ms": 600_000}), None).await })
        })
        .collect();
    let at_the_server = labs.of("flooded").sleeps();
    assert_eq!(at_the_server.wait_for(4, WAIT).await, 4);

    let started = Instant::now();
    for name in ["files__echo", "notes__echo"] {
        let echo = manager.tool(name, None).await.unwrap();
        for i in 0..10 {
            let text = format!("{name} {i}");
            let output = echo.call(json!({"text": text}), None).await.unwrap();
            assert_eq!(output.value["text"], text);
        }
    }
    assert_eq!(
        started.elapsed(),
        Duration::ZERO,
        "the other servers answered without waiting for any time to pass"
    );
    assert!(
        flood.iter().all(|call| !call.is_finished()),
        "while every call to the flooded server is still pending"
    );
    assert_eq!((at_the_server.now(), at_the_server.peak()), (4, 4));

    // A call of its own that runs out while it waits for a slot says why, and how to fix it.
    let started = Instant::now();
    let waited = Duration::from_secs(2);
    let error = flooded
        .call_with_timeout(json!({"ms": 1}), None, waited)
        .await
        .unwrap_err();
    assert_eq!(started.elapsed(), waited);
    assert!(
        error.is_timeout() && !error.is_outcome_uncertain(),
        "{error}"
    );
    let message = error.to_string();
    for part in [
        "lab `flooded`",
        "the 4 concurrent calls",
        "`maxConcurrentCalls`",
    ] {
        assert!(message.contains(part), "{part}: {message}");
    }
    for call in flood {
        call.abort();
    }
    manager.shutdown().await;
}
