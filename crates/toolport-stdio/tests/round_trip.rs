//! Messages cross the pipes intact, raw and through an rmcp client.

mod common;

use rmcp::ServiceExt;
use rmcp::transport::Transport;
use toolport_core::{ConnectContext, Connector};
use toolport_stdio::StdioServer;

use common::{as_json, outgoing, receive};
use toolport_testkit::bounded;

#[tokio::test]
async fn a_message_sent_to_cat_comes_back() {
    let mut transport = StdioServer::new("cat").spawn().unwrap();
    let ping = outgoing(r#"{"jsonrpc":"2.0","id":"a-1","method":"ping"}"#);
    bounded("transport.send(ping)", transport.send(ping))
        .await
        .unwrap();
    let echoed = as_json(&receive(&mut transport).await.unwrap());
    assert_eq!(echoed["id"], "a-1");
    assert_eq!(echoed["method"], "ping");
    bounded("transport.close()", transport.close())
        .await
        .unwrap();

    let late = outgoing(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#);
    assert!(transport.send(late).await.is_err(), "stdin is closed");
}

const SERVER: &str = r#"
import json, sys
for line in sys.stdin:
    message = json.loads(line)
    if "id" not in message:
        continue
    method = message.get("method")
    if method == "initialize":
        result = {
            "protocolVersion": message["params"]["protocolVersion"],
            "capabilities": {"tools": {}},
            "serverInfo": {"name": "py-echo", "version": "0.1.0"},
        }
    elif method == "tools/list":
        result = {"tools": [{"name": "echo", "inputSchema": {"type": "object"}}]}
    else:
        result = {}
    print(json.dumps({"jsonrpc": "2.0", "id": message["id"], "result": result}), flush=True)
"#;

#[tokio::test]
async fn an_rmcp_client_talks_to_a_python_server() {
    let connection = StdioServer::new("python3")
        .args(["-c", SERVER])
        .connect(&ConnectContext::default())
        .await
        .unwrap();
    let client = bounded(
        "().serve(connection.transport)",
        ().serve(connection.transport),
    )
    .await
    .unwrap();
    let info = client.peer_info().unwrap();
    assert_eq!(info.server_info.as_ref().unwrap().name, "py-echo");
    let tools = bounded("client.list_tools(None)", client.list_tools(None))
        .await
        .unwrap();
    assert_eq!(tools.tools[0].name, "echo");
    bounded("client.cancel()", client.cancel()).await.unwrap();
}
