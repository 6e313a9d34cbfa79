//! The demo server over a pipe, spoken to line by line as a client would: the four methods it
//! answers, the notifications it ignores, and the errors for everything else.

use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt as _, AsyncWriteExt as _, BufReader, DuplexStream, Lines};
use tokio::io::{ReadHalf, WriteHalf};

/// A client end of a pipe to a fresh demo session.
struct Client {
    lines: Lines<BufReader<ReadHalf<DuplexStream>>>,
    write: WriteHalf<DuplexStream>,
}

impl Client {
    fn start() -> Self {
        let (client, server) = tokio::io::duplex(64 * 1024);
        tokio::spawn(toolport_demo::serve(server));
        let (read, write) = tokio::io::split(client);
        Self {
            lines: BufReader::new(read).lines(),
            write,
        }
    }

    async fn send(&mut self, line: &str) {
        self.write.write_all(line.as_bytes()).await.unwrap();
        self.write.write_all(b"\n").await.unwrap();
    }

    async fn next(&mut self) -> Value {
        let line = self.lines.next_line().await.unwrap().expect("an answer");
        serde_json::from_str(&line).unwrap()
    }

    async fn request(&mut self, id: u64, method: &str, params: Value) -> Value {
        let request = json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params});
        self.send(&request.to_string()).await;
        let answer = self.next().await;
        assert_eq!(answer["id"], id, "{answer}");
        answer
    }
}

#[tokio::test]
async fn initialize_names_the_server_and_its_tools_capability() {
    let mut client = Client::start();
    let answer = client
        .request(
            1,
            "initialize",
            json!({"protocolVersion": "2025-11-25",
            "capabilities": {}, "clientInfo": {"name": "test", "version": "0"}}),
        )
        .await;
    let result = &answer["result"];
    assert_eq!(result["protocolVersion"], "2025-11-25");
    assert_eq!(result["serverInfo"]["name"], "toolport-task-tracker");
    assert_eq!(result["capabilities"], json!({"tools": {}}));
    assert_eq!(result["instructions"], toolport_demo::INSTRUCTIONS);
}

#[tokio::test]
async fn initialize_keeps_an_older_version_and_answers_an_unknown_one_with_its_newest() {
    let mut client = Client::start();
    let older = client
        .request(1, "initialize", json!({"protocolVersion": "2024-11-05"}))
        .await;
    assert_eq!(older["result"]["protocolVersion"], "2024-11-05");
    let unknown = client
        .request(2, "initialize", json!({"protocolVersion": "1999-01-01"}))
        .await;
    assert_eq!(unknown["result"]["protocolVersion"], "2025-11-25");
}

#[tokio::test]
async fn notifications_are_not_answered() {
    let mut client = Client::start();
    client
        .send(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#)
        .await;
    client.send("").await;
    let answer = client.request(7, "ping", json!({})).await;
    assert_eq!(answer, json!({"jsonrpc": "2.0", "id": 7, "result": {}}));
}

#[tokio::test]
async fn tools_list_and_tools_call_share_the_session_s_tasks() {
    let mut client = Client::start();
    let list = client.request(1, "tools/list", json!({})).await;
    assert_eq!(
        list["result"]["tools"],
        json!(toolport_demo::tool_definitions())
    );

    let added = client
        .request(
            2,
            "tools/call",
            json!({"name": "add_task", "arguments": {"title": "x"}}),
        )
        .await;
    assert_eq!(added["result"]["structuredContent"]["id"], "T-4");
    let listed = client
        .request(3, "tools/call", json!({"name": "list_tasks"}))
        .await;
    assert_eq!(listed["result"]["structuredContent"]["count"], 4);
}

#[tokio::test]
async fn every_session_starts_from_the_seed() {
    let mut first = Client::start();
    first
        .request(
            1,
            "tools/call",
            json!({"name": "add_task", "arguments": {"title": "x"}}),
        )
        .await;
    let mut second = Client::start();
    let listed = second
        .request(
            1,
            "tools/call",
            json!({"name": "list_tasks", "arguments": {}}),
        )
        .await;
    assert_eq!(listed["result"]["structuredContent"]["count"], 3);
}

#[tokio::test]
async fn errors_are_json_rpc_errors_with_the_request_s_id() {
    let mut client = Client::start();
    let code = |answer: &Value| answer["error"]["code"].as_i64().unwrap();

    let unknown_method = client.request(1, "resources/list", json!({})).await;
    assert_eq!(code(&unknown_method), -32601, "{unknown_method}");
    let unknown_tool = client
        .request(2, "tools/call", json!({"name": "delete_task"}))
        .await;
    assert_eq!(code(&unknown_tool), -32602, "{unknown_tool}");
    let no_name = client.request(3, "tools/call", json!({})).await;
    assert_eq!(code(&no_name), -32602, "{no_name}");
    let bad_arguments = client
        .request(
            4,
            "tools/call",
            json!({"name": "list_tasks", "arguments": [1]}),
        )
        .await;
    assert_eq!(code(&bad_arguments), -32602, "{bad_arguments}");

    client.send("{not json").await;
    let garbage = client.next().await;
    assert_eq!(
        (garbage["id"].clone(), code(&garbage)),
        (Value::Null, -32700)
    );
    client.send("[1, 2]").await;
    let batch = client.next().await;
    assert_eq!(code(&batch), -32600, "{batch}");
}
