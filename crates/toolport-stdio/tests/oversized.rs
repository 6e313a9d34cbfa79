//! An answer longer than `StdioServer::MAX_MESSAGE_BYTES` fails its request at once with a
//! JSON-RPC error naming the limit, whichever end of the line carries its id, instead of
//! leaving the request to its timeout; an oversized request from the server is dropped, and
//! the messages after it still arrive.

mod common;

use rmcp::transport::Transport;
use toolport_stdio::StdioServer;
use toolport_testkit::bounded;

use common::{as_json, outgoing, receive};

/// A server that reads one line, then writes `first` with a text of more than the limit in
/// its middle (where `BIG` stands), then `{"jsonrpc":"2.0","id":"after","result":{}}`.
fn server_writing(first: &str) -> StdioServer {
    let script = format!(
        "import sys\n\
         sys.stdin.readline()\n\
         big = 'x' * ({limit} + 1024)\n\
         sys.stdout.write({first:?}.replace('BIG', big) + '\\n')\n\
         sys.stdout.write('{{\"jsonrpc\":\"2.0\",\"id\":\"after\",\"result\":{{}}}}\\n')\n\
         sys.stdout.flush()\n\
         sys.stdin.read()\n",
        limit = StdioServer::MAX_MESSAGE_BYTES,
    );
    StdioServer::new("python3").args(["-c", &script])
}

/// Starts `server`, sends it one message and returns what it sends back, as JSON.
async fn received_from(server: StdioServer) -> Vec<serde_json::Value> {
    let mut transport = server.spawn().unwrap();
    let ping = outgoing(r#"{"jsonrpc":"2.0","id":7,"method":"ping"}"#);
    bounded("transport.send(ping)", transport.send(ping))
        .await
        .unwrap();
    let mut messages = Vec::new();
    while messages.len() < 2 {
        let message = receive(&mut transport).await.expect("two messages");
        let message = as_json(&message);
        let last = message["id"] == "after";
        messages.push(message);
        if last {
            break;
        }
    }
    bounded("transport.close()", transport.close())
        .await
        .unwrap();
    messages
}

fn assert_names_the_limit(error: &serde_json::Value) {
    assert_eq!(error["error"]["code"], -32603, "{error}");
    let message = error["error"]["message"].as_str().unwrap();
    let limit = format!("limit of {} bytes", StdioServer::MAX_MESSAGE_BYTES);
    assert!(message.contains(&limit), "{message}");
}

#[tokio::test]
async fn an_oversized_answer_with_its_id_first_fails_its_request_naming_the_limit() {
    let messages = received_from(server_writing(
        r#"{"jsonrpc":"2.0","id":7,"result":{"content":[{"type":"text","text":"BIG"}]}}"#,
    ))
    .await;
    assert_eq!(messages[0]["id"], 7);
    assert_names_the_limit(&messages[0]);
    assert_eq!(messages[1]["id"], "after", "the transport reads on");
}

#[tokio::test]
async fn an_oversized_answer_with_its_id_last_fails_its_request_naming_the_limit() {
    // The TypeScript SDK writes `{result, jsonrpc, id}`.
    let messages = received_from(server_writing(
        r#"{"result":{"content":[{"type":"text","text":"BIG"}]},"jsonrpc":"2.0","id":"call-9"}"#,
    ))
    .await;
    assert_eq!(messages[0]["id"], "call-9");
    assert_names_the_limit(&messages[0]);
    assert_eq!(messages[1]["id"], "after");
}

#[tokio::test]
async fn an_oversized_request_from_the_server_is_dropped() {
    let messages = received_from(server_writing(
        r#"{"jsonrpc":"2.0","id":7,"method":"sampling/createMessage","params":{"text":"BIG"}}"#,
    ))
    .await;
    assert_eq!(messages.len(), 1, "{messages:?}");
    assert_eq!(messages[0]["id"], "after");
}
