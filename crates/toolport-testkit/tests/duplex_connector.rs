//! The in-process connector: fresh servers, connect counting, and simulated crashes.

mod common;

use std::time::Duration;

use serde_json::json;
use toolport_core::Connector;
use toolport_testkit::task_tracker_connector;

use common::{call, connect};
use toolport_testkit::{WAIT, bounded};

#[tokio::test]
async fn kill_all_drops_the_server_and_a_reconnect_starts_fresh() {
    let connector = task_tracker_connector();
    assert_eq!(connector.target(), "the in-process toolport-task-tracker");
    let client = connect(&connector).await;
    call(&client, "add_task", json!({"title": "Lost in the crash"})).await;
    assert_eq!(connector.live_servers(), 1);

    connector.kill_all();
    bounded("the client to see the pipe close", async {
        while !client.is_transport_closed() {
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    })
    .await;
    assert!(client.list_all_tools().await.is_err());
    bounded("the server to go", async {
        while connector.live_servers() != 0 {
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    })
    .await;

    let again = connect(&connector).await;
    let list = call(&again, "list_tasks", json!({})).await;
    assert_eq!(list.structured_content.unwrap()["count"], json!(3));
    assert_eq!(connector.connect_count(), 2);
    assert_eq!(connector.live_servers(), 1);
}

#[tokio::test]
async fn a_server_stops_when_its_client_leaves() {
    let connector = task_tracker_connector();
    let client = connect(&connector).await;
    assert_eq!(connector.live_servers(), 1);
    tokio::time::timeout(WAIT, client.cancel())
        .await
        .unwrap()
        .unwrap();
    bounded("the server to stop", async {
        while connector.live_servers() != 0 {
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    })
    .await;
}
