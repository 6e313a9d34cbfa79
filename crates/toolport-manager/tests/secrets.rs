//! A value expanded from `${VAR}` into a server's arguments or URL is shown as written: in the
//! start report, the statuses, the events, every log line and `Debug` output, never expanded.

use std::time::Duration;
use toolport_fixtures::CapturedLog;
use toolport_manager::{McpServerManager, ServerConfig, ServerStatus};

mod common;
use common::fixture;

/// What `${MY_API_KEY}` expands to.
const SECRET: &str = "sk-live-4f9a0c";

#[tokio::test]
async fn a_secret_expanded_into_args_or_a_url_is_shown_as_written() {
    let log = CapturedLog::default();
    let _guard = tracing::subscriber::set_default(log.subscriber());

    let manager = McpServerManager::builder()
        .startup_grace(Duration::MAX)
        .env_lookup(|name| (name == "MY_API_KEY").then(|| SECRET.to_owned()))
        .build();
    let mut events = manager.subscribe();
    // The fixture refuses an argument it does not know: the start fails, naming its command
    // line. Nothing listens on port 9 (discard).
    let servers = [
        (
            "stdio",
            fixture("tasks", &["--api-key=${MY_API_KEY}"]),
            "--api-key=${MY_API_KEY}",
        ),
        (
            "http",
            ServerConfig::http("http://127.0.0.1:9/${MY_API_KEY}/mcp"),
            "http://127.0.0.1:9/${MY_API_KEY}/mcp",
        ),
        (
            "sse",
            ServerConfig::sse("http://127.0.0.1:9/${MY_API_KEY}/sse"),
            "http://127.0.0.1:9/${MY_API_KEY}/sse",
        ),
    ];
    for (id, config, _) in &servers {
        manager.add(id, config.clone()).unwrap();
    }
    let report = manager.start_all().await;

    let failures: Vec<String> = report.failures().map(ToString::to_string).collect();
    assert_eq!(failures.len(), 3, "{failures:?}");
    for (id, _, written) in &servers {
        let failure = failures
            .iter()
            .find(|failure| failure.contains(&format!("`{id}`")))
            .unwrap();
        assert!(failure.contains(written), "{failure}");
        let Some(ServerStatus::Failed { error }) = manager.status(id) else {
            panic!("{id} did not fail");
        };
        assert!(error.contains(written), "{error}");
    }
    let mut seen = Vec::new();
    while let Ok(event) = events.try_recv() {
        seen.push(format!("{event:?}"));
    }
    let shown = [
        failures.join("\n"),
        format!("{:?}", manager.statuses()),
        seen.join("\n"),
        format!("{manager:?}"),
        log.text(),
    ];
    assert!(
        shown[4].contains("--api-key=${MY_API_KEY}"),
        "the test captured the logs"
    );
    for text in shown {
        assert!(!text.contains(SECRET), "{SECRET} shown in {text}");
    }
    manager.shutdown().await;
}
