//! The mock connector: queued failures, then the wrapped connector.

mod common;

use serde_json::json;
use toolport_core::{ConnectContext, ConnectError, Connector};
use toolport_testkit::{MockConnector, task_tracker_connector};

use common::{call, connect};

fn refused() -> ConnectError {
    ConnectError::unreachable("connection refused")
}

#[tokio::test]
async fn fails_the_next_connects_then_passes_through() {
    let connector = MockConnector::new(task_tracker_connector());
    connector
        .fail_next(2, refused)
        .fail_next(1, || ConnectError::invalid_settings("no"));
    assert_eq!(connector.pending_failures(), 3);

    for _ in 0..2 {
        let error = connector
            .connect(&ConnectContext::default())
            .await
            .unwrap_err();
        assert!(matches!(error, ConnectError::Unreachable { .. }), "{error}");
        assert!(!error.is_permanent());
    }
    let error = connector
        .connect(&ConnectContext::default())
        .await
        .unwrap_err();
    assert!(error.is_permanent(), "{error}");

    let client = connect(&connector).await;
    let list = call(&client, "list_tasks", json!({})).await;
    assert_eq!(list.structured_content.unwrap()["count"], json!(3));

    assert_eq!(connector.attempts(), 4);
    assert_eq!(connector.pending_failures(), 0);
    assert_eq!(connector.inner().connect_count(), 1);
    assert_eq!(connector.target(), connector.inner().target());
}
