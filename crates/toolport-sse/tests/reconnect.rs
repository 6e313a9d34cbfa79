//! Reconnecting a dropped event stream, against a scripted server: the same endpoint carries
//! on (with `Last-Event-ID` and the server's `retry:`), a new endpoint ends the transport, and
//! the attempts are bounded.

mod common;

use common::scripted::ScriptedSse;
use rmcp::model::{JsonRpcMessage, ServerNotification};
use rmcp::transport::Transport;
use toolport_core::{ConnectContext, ConnectError, Connection, Connector};
use toolport_sse::SseServer;
use toolport_testkit::bounded;

async fn open(server: &ScriptedSse) -> Result<Connection, ConnectError> {
    let connector = SseServer::new(server.url());
    bounded("open", connector.connect(&ConnectContext::default())).await
}

const LIST_CHANGED: &str = r#"{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}"#;

#[tokio::test]
async fn same_endpoint_continues_with_last_event_id_then_gives_up() {
    let server = ScriptedSse::start(vec![
        "retry: 20\nid: 1\nevent: endpoint\ndata: /messages?s=fixed\n\n".to_owned(),
        format!(
            "event: endpoint\ndata: /messages?s=fixed\n\nevent: message\ndata: not json\n\n: keep-alive\n\nid: 2\ndata: {LIST_CHANGED}\n\n"
        ),
    ])
    .await;
    let Connection {
        mut transport,
        diagnostics,
        ..
    } = open(&server).await.unwrap();

    let message = bounded("the replayed notification", transport.receive())
        .await
        .expect("a message after reconnecting");
    assert!(
        matches!(
            message,
            JsonRpcMessage::Notification(ref n)
                if matches!(n.notification, ServerNotification::ToolListChangedNotification(_))
        ),
        "{message:?}"
    );
    assert!(
        bounded("the end", transport.receive()).await.is_none(),
        "the transport ends once the reconnect attempts run out"
    );

    let heads = server.heads();
    assert_eq!(heads.len(), 2 + 3, "{heads:#?}");
    assert!(heads[0].starts_with("get /sse http/1.1"), "{}", heads[0]);
    assert!(heads[0].contains("accept: text/event-stream"));
    assert!(!heads[0].contains("last-event-id"));
    assert!(heads[1].contains("last-event-id: 1\r\n"), "{}", heads[1]);
    assert!(heads[2].contains("last-event-id: 2\r\n"), "{}", heads[2]);

    let details = diagnostics.failure_details().unwrap();
    assert!(
        details.contains("the server closed the event stream; gave up after 3 reconnect attempts, the last failed: the server answered HTTP 404: gone"),
        "{details}"
    );
    assert!(
        details.contains(r#"skipped an event that is not JSON-RPC: "not json""#),
        "{details}"
    );
    assert!(transport.close().await.is_ok());
}

#[tokio::test]
async fn a_new_endpoint_on_reconnect_ends_the_transport() {
    let server = ScriptedSse::start(vec![
        "retry: 10\nevent: endpoint\ndata: /messages?s=old\n\n".to_owned(),
        "event: endpoint\ndata: /messages?s=new\n\n".to_owned(),
    ])
    .await;
    let Connection {
        mut transport,
        diagnostics,
        ..
    } = open(&server).await.unwrap();
    assert!(bounded("the end", transport.receive()).await.is_none());
    assert_eq!(server.heads().len(), 2);
    let details = diagnostics.failure_details().unwrap();
    assert!(
        details
            .contains("on reconnecting, the server named a new endpoint, so the session is gone"),
        "{details}"
    );
}

#[tokio::test]
async fn a_stream_without_an_endpoint_fails_the_connect() {
    let server = ScriptedSse::start(vec![": hello\n\n".to_owned()]).await;
    let error = open(&server).await.unwrap_err();
    assert_eq!(
        error.to_string(),
        "the server closed the event stream before sending the `endpoint` event"
    );
}
