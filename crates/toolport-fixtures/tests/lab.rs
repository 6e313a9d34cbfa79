//! The lab server over the in-process duplex connector.

mod common;

use std::sync::Arc;
use std::time::Duration;

use rmcp::ClientHandler;
use rmcp::model::{CallToolRequestParams, ClientConfig, ContentBlock};
use rmcp::service::{NotificationContext, RoleClient};
use serde_json::json;
use tokio::sync::Notify;
use toolport_fixtures::LabServer;
use toolport_testkit::DuplexConnector;

use common::{call, client_config, connect, connect_with, only_text};
use toolport_testkit::{WAIT, bounded};

fn lab() -> (DuplexConnector, LabServer) {
    let lab = LabServer::new();
    let server = lab.clone();
    (DuplexConnector::new(move || server.clone()), lab)
}

#[tokio::test]
async fn echo_returns_plain_and_structured_text() {
    let (connector, _) = lab();
    let client = connect(&connector).await;
    let info = client.peer_info().unwrap();
    assert_eq!(info.server_info.as_ref().unwrap().name, "toolport-lab");

    let result = call(&client, "echo", json!({"text": "hello"})).await;
    assert_eq!(only_text(&result), "hello");
    assert_eq!(result.structured_content, Some(json!({"text": "hello"})));

    let tools = bounded("tools/list", client.list_all_tools())
        .await
        .unwrap();
    let echo = tools.iter().find(|tool| tool.name == "echo").unwrap();
    assert!(echo.output_schema.is_some());
    let add = tools.iter().find(|tool| tool.name == "add").unwrap();
    assert_eq!(add.annotations.as_ref().unwrap().read_only_hint, Some(true));
}

#[tokio::test]
async fn add_sleep_and_image() {
    let (connector, _) = lab();
    let client = connect(&connector).await;

    let sum = call(&client, "add", json!({"a": 2, "b": 40})).await;
    assert_eq!(sum.structured_content, Some(json!({"sum": 42})));

    let slept = call(&client, "sleep", json!({"ms": 5})).await;
    assert_eq!(only_text(&slept), "slept 5 ms");

    let image = call(&client, "get_image", json!({})).await;
    let [ContentBlock::Image(image)] = &image.content[..] else {
        panic!("not one image: {image:?}");
    };
    assert_eq!(image.mime_type, "image/png");
    assert!(image.data.starts_with("iVBORw0KGgo"), "not a PNG");
}

#[tokio::test]
async fn in_process_crash_is_a_tool_error() {
    let (connector, _) = lab();
    let client = connect(&connector).await;
    let result = call(&client, "crash", json!({})).await;
    assert_eq!(result.is_error, Some(true));
    assert!(only_text(&result).contains("kill_all"));
}

#[tokio::test]
async fn a_dropped_call_cancels_the_sleep() {
    let (connector, lab) = lab();
    let cancellations = lab.cancellations();
    let client = connect(&connector).await;

    let mut arguments = serde_json::Map::new();
    arguments.insert("ms".into(), json!(60_000));
    let sleeping = client.call_tool(CallToolRequestParams::new("sleep").with_arguments(arguments));
    // Dropping the call future abandons the request, which sends notifications/cancelled.
    let abandoned = tokio::time::timeout(Duration::from_millis(200), sleeping).await;
    assert!(abandoned.is_err(), "a 60 s sleep answered within 200 ms");

    assert_eq!(cancellations.wait_for(1, WAIT).await, 1);
    // The connection is still usable afterwards.
    let result = call(&client, "echo", json!({"text": "still here"})).await;
    assert_eq!(only_text(&result), "still here");
}

/// Wakes the test when the server says its tool list changed.
#[derive(Clone)]
struct ListChangedWatcher {
    changed: Arc<Notify>,
}

impl ClientHandler for ListChangedWatcher {
    fn get_info(&self) -> ClientConfig {
        client_config()
    }

    async fn on_tool_list_changed(&self, _context: NotificationContext<RoleClient>) {
        self.changed.notify_one();
    }
}

#[tokio::test]
async fn notify_tools_changed_reaches_the_client() {
    let (connector, _) = lab();
    let changed = Arc::new(Notify::new());
    let client = connect_with(
        &connector,
        ListChangedWatcher {
            changed: Arc::clone(&changed),
        },
    )
    .await;
    let info = client.peer_info().unwrap();
    let tools = info.capabilities.tools.as_ref().unwrap();
    assert_eq!(tools.list_changed, Some(true));

    let result = call(&client, "notify_tools_changed", json!({})).await;
    assert_eq!(result.is_error, Some(false));
    bounded("notifications/tools/list_changed", changed.notified()).await;
}
