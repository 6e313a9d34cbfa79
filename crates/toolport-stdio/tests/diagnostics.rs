//! What a dead or confused server leaves behind: exit status, stderr tail, non-JSON stdout.

mod common;

use rmcp::transport::Transport;
use toolport_core::{ConnectContext, Connector};
use toolport_stdio::StdioServer;

use common::{as_json, outgoing, receive};
use toolport_testkit::bounded;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn megabytes_of_stderr_do_not_block_and_the_last_line_is_kept() {
    let script = r#"
import sys
line = "x" * 99 + "\n"
for _ in range(50_000):
    sys.stderr.write(line)
sys.stderr.write("fatal: out of cheese\n")
sys.stderr.flush()
print('{"jsonrpc":"2.0","id":1,"result":{}}', flush=True)
sys.exit(3)
"#;
    let server = StdioServer::new("python3").args(["-c", script]);
    let mut connection = bounded(
        "server.connect(&ConnectContext::default())",
        server.connect(&ConnectContext::default()),
    )
    .await
    .unwrap();
    let message = bounded(
        "connection.transport.receive()",
        connection.transport.receive(),
    )
    .await
    .unwrap();
    assert_eq!(as_json(&message)["id"], 1);
    assert!(
        bounded(
            "connection.transport.receive()",
            connection.transport.receive()
        )
        .await
        .is_none()
    );

    let details = connection.diagnostics.failure_details().unwrap();
    assert!(
        details.starts_with("server exited with status 3; stderr: "),
        "{details}"
    );
    assert!(details.ends_with("fatal: out of cheese"), "{details}");
    assert!(details.len() < 600, "{details}");
}

#[tokio::test]
async fn non_json_stdout_is_skipped_and_remembered() {
    let script = r#"echo "Server listening on port 3000"; echo '{"jsonrpc":"2.0","id":1,"result":{}}'; exec cat"#;
    let mut transport = StdioServer::new("sh").args(["-c", script]).spawn().unwrap();
    let message = receive(&mut transport).await.unwrap();
    assert_eq!(as_json(&message)["id"], 1);

    let diagnostics = transport.diagnostics();
    assert_eq!(
        diagnostics.last_non_json_line().as_deref(),
        Some("Server listening on port 3000")
    );
    let details = toolport_core::ConnectionDiagnostics::failure_details(&*diagnostics).unwrap();
    assert!(
        details.contains(
            r#"server wrote a line that is not JSON-RPC: "Server listening on port 3000""#
        ),
        "{details}"
    );

    // The session is still alive: `cat` echoes what we send.
    bounded(
        "transport.send(outgoing(r#\"{\"jsonrpc\":\"2.0\",\"id\":9...",
        transport.send(outgoing(r#"{"jsonrpc":"2.0","id":9,"method":"ping"}"#)),
    )
    .await
    .unwrap();
    let echoed = receive(&mut transport).await.unwrap();
    assert_eq!(as_json(&echoed)["method"], "ping");
    bounded("transport.close()", transport.close())
        .await
        .unwrap();
}

#[tokio::test]
async fn garbage_is_cut_to_200_characters() {
    let script = r#"printf '%0500d\n' 0"#;
    let mut transport = StdioServer::new("sh").args(["-c", script]).spawn().unwrap();
    assert!(receive(&mut transport).await.is_none());
    let garbage = transport.diagnostics().last_non_json_line().unwrap();
    assert_eq!(garbage.chars().count(), 200);
}

#[tokio::test]
async fn stderr_tail_is_bounded() {
    let script = r#"for i in 1 2 3 4 5; do echo "line $i" >&2; done"#;
    let server = StdioServer::new("sh").args(["-c", script]).stderr_lines(2);
    let mut transport = server.spawn().unwrap();
    assert!(receive(&mut transport).await.is_none());
    assert_eq!(transport.diagnostics().stderr_tail(), ["line 4", "line 5"]);
}
