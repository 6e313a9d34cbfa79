//! `StreamTransport`, a user's transport over any byte stream, reads as stdio does: an
//! oversized answer fails its request at once naming the limit, a line that is not JSON-RPC
//! is skipped and then quoted by the connection's diagnostics, and the 2025-11-25 task
//! capability rmcp's model drops reaches the session.

mod common;

use rmcp::service::{RoleClient, RxJsonRpcMessage};
use rmcp::transport::Transport;
use serde_json::json;
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader, DuplexStream};
use toolport_core::Connection;
use toolport_stdio::{StdioServer, StreamTransport};
use toolport_testkit::bounded;

use common::{as_json, outgoing};

/// A connection over an in-memory pipe, and the server's end of it.
fn connection() -> (Connection, BufReader<DuplexStream>) {
    let (client, server) = tokio::io::duplex(64 * 1024);
    let (read, write) = tokio::io::split(client);
    (
        StreamTransport::new(read, write).into_connection(),
        BufReader::new(server),
    )
}

/// Sends `request` from the client, and reads it on the server's end.
async fn request(connection: &mut Connection, server: &mut BufReader<DuplexStream>, request: &str) {
    bounded("send", connection.transport.send(outgoing(request)))
        .await
        .unwrap();
    let mut line = String::new();
    bounded("the server reads", server.read_line(&mut line))
        .await
        .unwrap();
    let read: serde_json::Value = serde_json::from_str(&line).unwrap();
    let sent: serde_json::Value = serde_json::from_str(request).unwrap();
    assert_eq!(
        (&read["id"], &read["method"]),
        (&sent["id"], &sent["method"])
    );
}

/// Writes `lines` from the server, each a line of its own.
async fn answer(server: &mut BufReader<DuplexStream>, lines: &[String]) {
    for line in lines {
        let server = server.get_mut();
        let written = async {
            server.write_all(line.as_bytes()).await?;
            server.write_all(b"\n").await
        };
        bounded("the server writes", written).await.unwrap();
    }
}

async fn receive(connection: &mut Connection) -> RxJsonRpcMessage<RoleClient> {
    bounded("a message", connection.transport.receive())
        .await
        .expect("a message")
}

#[tokio::test]
async fn an_oversized_answer_fails_its_request_at_once_naming_the_limit() {
    let (mut connection, mut server) = connection();
    request(
        &mut connection,
        &mut server,
        r#"{"jsonrpc":"2.0","id":7,"method":"ping"}"#,
    )
    .await;
    let big = "x".repeat(StdioServer::MAX_MESSAGE_BYTES + 1024);
    let oversized = json!({"jsonrpc": "2.0", "id": 7, "result": {"text": big}}).to_string();
    let after = r#"{"jsonrpc":"2.0","id":"after","result":{}}"#.to_owned();
    // The server's answer outgrows the pipe: write it while the client reads.
    let writing = tokio::spawn(async move {
        answer(&mut server, &[oversized, after]).await;
        server
    });
    let dropped = as_json(&receive(&mut connection).await);
    assert_eq!(dropped["id"], 7, "{dropped}");
    assert_eq!(dropped["error"]["code"], -32603, "{dropped}");
    let message = dropped["error"]["message"].as_str().unwrap();
    let limit = format!(
        "limit of {} bytes for one stream message",
        StdioServer::MAX_MESSAGE_BYTES
    );
    assert!(message.contains(&limit), "{message}");
    assert_eq!(as_json(&receive(&mut connection).await)["id"], "after");
    drop(writing.await.unwrap());
}

#[tokio::test]
async fn a_line_that_is_not_json_rpc_is_skipped_and_quoted_by_the_diagnostics() {
    let (mut connection, mut server) = connection();
    assert_eq!(connection.diagnostics.failure_details(), None);
    request(
        &mut connection,
        &mut server,
        r#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#,
    )
    .await;
    let lines = [
        "Server listening on port 3000".to_owned(),
        r#"{"jsonrpc":"2.0","id":1,"result":{}}"#.to_owned(),
    ];
    answer(&mut server, &lines).await;
    assert_eq!(as_json(&receive(&mut connection).await)["id"], 1);
    drop(server);
    assert!(
        bounded("the end", connection.transport.receive())
            .await
            .is_none()
    );
    assert_eq!(
        connection.diagnostics.failure_details().as_deref(),
        Some(r#"server wrote a line that is not JSON-RPC: "Server listening on port 3000""#)
    );
}

#[tokio::test]
async fn the_2025_11_25_task_capability_and_tool_fields_reach_the_session() {
    let (mut connection, mut server) = connection();
    let unmodeled = (connection.unmodeled_fields.clone()).expect("the decoder keeps them");
    let initialize = json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {},
        "clientInfo": {"name": "test", "version": "1"}}});
    request(&mut connection, &mut server, &initialize.to_string()).await;
    let initialized = json!({"jsonrpc": "2.0", "id": 0, "result": {
        "protocolVersion": "2025-11-25",
        "capabilities": {"tools": {}, "tasks": {"requests": {"tools": {"call": {}}}}},
        "serverInfo": {"name": "tasks", "version": "1"}}});
    answer(&mut server, &[initialized.to_string()]).await;
    receive(&mut connection).await;
    assert!(unmodeled.runs_tool_calls());

    let list = r#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#;
    request(&mut connection, &mut server, list).await;
    let listed = json!({"jsonrpc": "2.0", "id": 1, "result": {"tools": [{
        "name": "render", "inputSchema": {"type": "object"},
        "execution": {"taskSupport": "required"}}]}});
    answer(&mut server, &[listed.to_string()]).await;
    receive(&mut connection).await;
    assert_eq!(
        unmodeled.support_of("render"),
        toolport_core::TaskSupport::Required
    );
}
