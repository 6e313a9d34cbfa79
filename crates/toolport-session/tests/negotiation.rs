//! A negotiating session ([`ProtocolChoice::Negotiate`]) against scripted servers: it probes
//! with `server/discover` at 2026-07-28, stays there with a server that answers, and falls back
//! to `initialize` at 2025-11-25 on the same connection with one that refuses; over a
//! transport that carries only the handshake versions it sends `initialize` at once.

use std::sync::Arc;

use rmcp::model::{ProtocolVersion, Tool};
use serde_json::json;
use tokio::task::JoinHandle;
use toolport_core::{ConnectContext, ConnectError, Connection, Connector, ProtocolChoice};
use toolport_session::{McpSession, SessionError};
use toolport_testkit::MockConnector;
use toolport_testkit::scripted::{
    self, ClientMessage, ScriptedConnection, ScriptedConnector, ScriptedServer, initialize_result,
};

const PROTOCOL_VERSION_META: &str = "io.modelcontextprotocol/protocolVersion";

fn negotiating() -> (Arc<ScriptedConnector>, ScriptedServer, McpSession) {
    let (connector, server) = scripted::pair();
    let connector = Arc::new(connector);
    let session = McpSession::builder_shared(connector.clone())
        .protocol(ProtocolChoice::Negotiate)
        .build();
    (connector, server, session)
}

/// `session` connecting in a task, its connection, and the probe it sent first.
async fn probed(
    server: &ScriptedServer,
    session: &McpSession,
) -> (
    JoinHandle<Result<(), SessionError>>,
    ScriptedConnection,
    ClientMessage,
) {
    let connecting = tokio::spawn({
        let session = session.clone();
        async move { session.connect().await }
    });
    let mut connection = server.accept().await;
    let probe = connection.expect_request("server/discover").await;
    (connecting, connection, probe)
}

/// Takes the client's `initialize` at 2025-11-25, answers it, and takes its
/// `notifications/initialized`.
async fn initialized_on_2025_11_25(connection: &mut ScriptedConnection) {
    let initialize = connection.expect_request("initialize").await;
    assert_eq!(initialize.params()["protocolVersion"], "2025-11-25");
    connection.respond(&initialize, initialize_result());
    connection
        .expect_notification("notifications/initialized")
        .await;
}

/// `session`'s tool listing, to run in a task while the script answers it.
fn listed(session: &McpSession) -> impl Future<Output = Result<Vec<Tool>, SessionError>> + use<> {
    let session = session.clone();
    async move { session.list_tools().await }
}

#[tokio::test]
async fn an_older_server_gets_initialize_on_the_same_connection() {
    let (connector, server, session) = negotiating();
    let (connecting, mut connection, probe) = probed(&server, &session).await;
    assert_eq!(probe.params()["_meta"][PROTOCOL_VERSION_META], "2026-07-28");
    connection.respond_error(&probe, -32601, "Method not found");
    initialized_on_2025_11_25(&mut connection).await;
    connecting.await.unwrap().unwrap();

    assert_eq!(
        session.protocol_version(),
        Some(ProtocolVersion::V_2025_11_25)
    );
    assert_eq!(connector.connect_count(), 1, "one connection for both");
    let listing = tokio::spawn(listed(&session));
    let list = connection.expect_request("tools/list").await;
    assert!(
        list.params()
            .get("_meta")
            .is_none_or(|meta| meta.get(PROTOCOL_VERSION_META).is_none()),
        "2025-11-25 requests carry no version: {}",
        list.params()
    );
    connection.respond(&list, json!({"tools": []}));
    assert!(listing.await.unwrap().unwrap().is_empty());
    session.close().await;
}

/// The refusal of a server on a 2026-aware SDK that serves only the handshake-era versions.
fn older_versions_only(probe: &ClientMessage) -> serde_json::Value {
    json!({
        "jsonrpc": "2.0",
        "id": probe.id().unwrap().clone(),
        "error": {
            "code": -32022,
            "message": "Unsupported protocol version",
            "data": {"supported": ["2024-11-05", "2025-06-18", "2025-11-25"], "requested": "2026-07-28"},
        },
    })
}

#[tokio::test]
async fn a_server_that_serves_only_older_versions_gets_initialize_on_the_same_connection() {
    let (connector, server, session) = negotiating();
    let (connecting, mut connection, probe) = probed(&server, &session).await;
    connection.send(older_versions_only(&probe));
    initialized_on_2025_11_25(&mut connection).await;
    connecting.await.unwrap().unwrap();
    assert_eq!(
        session.protocol_version(),
        Some(ProtocolVersion::V_2025_11_25)
    );
    assert_eq!(connector.connect_count(), 1, "one connection for both");
    session.close().await;
}

#[tokio::test]
async fn a_pinned_version_the_server_does_not_serve_names_those_it_does_and_the_way_out() {
    let (connector, server) = scripted::pair();
    let session = McpSession::builder(connector)
        .protocol(ProtocolChoice::Pinned(ProtocolVersion::V_2026_07_28))
        .build();
    let (connecting, mut connection, probe) = probed(&server, &session).await;
    connection.send(older_versions_only(&probe));
    let error = connecting.await.unwrap().unwrap_err().to_string();
    assert!(
        error.contains("does not serve protocol version 2026-07-28; it serves 2024-11-05, 2025-06-18, 2025-11-25"),
        "{error}"
    );
    assert!(error.contains("`--protocol auto`"), "{error}");
    assert!(
        connection.try_recv().is_none(),
        "a pinned session does not fall back"
    );
    session.close().await;
}

#[tokio::test]
async fn a_server_that_answers_the_probe_stays_on_2026_07_28() {
    let (connector, server, session) = negotiating();
    let (connecting, mut connection, probe) = probed(&server, &session).await;
    connection.respond(
        &probe,
        json!({
            "resultType": "complete",
            "supportedVersions": ["2026-07-28", "2025-11-25"],
            "capabilities": {"tools": {}},
            "ttlMs": 0,
            "cacheScope": "public",
        }),
    );
    connecting.await.unwrap().unwrap();
    assert_eq!(
        session.protocol_version(),
        Some(ProtocolVersion::V_2026_07_28)
    );

    let listing = tokio::spawn(listed(&session));
    let list = connection.expect_request("tools/list").await;
    assert_eq!(list.params()["_meta"][PROTOCOL_VERSION_META], "2026-07-28");
    connection.respond(&list, json!({"resultType": "complete", "tools": []}));
    assert!(listing.await.unwrap().unwrap().is_empty());
    assert_eq!(connector.connect_count(), 1);
    session.close().await;
}

#[tokio::test]
async fn a_modern_refusal_is_not_taken_for_an_older_server() {
    let (_, server, session) = negotiating();
    let (connecting, mut connection, probe) = probed(&server, &session).await;
    // A server of a later version that no longer speaks 2026-07-28.
    connection.send(json!({
        "jsonrpc": "2.0",
        "id": probe.id().unwrap().clone(),
        "error": {
            "code": -32022,
            "message": "Unsupported protocol version",
            "data": {"supported": ["2027-01-01"], "requested": "2026-07-28"},
        },
    }));
    let error = connecting.await.unwrap().unwrap_err();
    assert!(
        connection.try_recv().is_none(),
        "no initialize follows a modern refusal"
    );
    assert!(error.to_string().contains("2027-01-01"), "{error}");
    session.close().await;
}

#[tokio::test]
async fn a_reconnect_starts_at_the_settled_version_and_a_failed_one_probes_again() {
    let (connector, server, session) = negotiating();
    let (connecting, mut connection, probe) = probed(&server, &session).await;
    connection.respond_error(&probe, -32601, "Method not found");
    connection.complete_handshake().await;
    connecting.await.unwrap().unwrap();

    // The server goes away; the next connection skips the probe.
    drop(connection);
    let listing = tokio::spawn(listed(&session));
    let mut again = server.accept().await;
    let initialize = again.expect_request("initialize").await;
    assert_eq!(initialize.params()["protocolVersion"], "2025-11-25");
    // It fails, as a server replaced by a newer one might: the attempt after it probes.
    again.respond_error(&initialize, -32600, "initialize is not supported here");
    assert!(
        listing.await.unwrap().is_err(),
        "a refused handshake is not retried"
    );
    let listing = tokio::spawn(listed(&session));
    let mut third = server.accept().await;
    let probe = third.expect_request("server/discover").await;
    third.respond_error(&probe, -32601, "Method not found");
    third.complete_handshake().await;
    let list = third.expect_request("tools/list").await;
    third.respond(&list, json!({"tools": []}));
    assert!(listing.await.unwrap().unwrap().is_empty());
    assert_eq!(connector.connect_count(), 3);
    session.close().await;
}

/// A connector whose transport carries only the versions with an `initialize` handshake, as
/// HTTP+SSE's does.
#[derive(Debug)]
struct HandshakeOnly(ScriptedConnector);

#[async_trait::async_trait]
impl Connector for HandshakeOnly {
    async fn connect(&self, context: &ConnectContext) -> Result<Connection, ConnectError> {
        self.0.connect(context).await
    }

    fn target(&self) -> String {
        self.0.target()
    }

    fn handshake_only(&self) -> bool {
        true
    }
}

#[tokio::test]
async fn a_handshake_only_transport_gets_initialize_without_a_probe() {
    let (connector, server) = scripted::pair();
    // Through a wrapper, which says what the connector it wraps says.
    let connector = MockConnector::new(HandshakeOnly(connector));
    let session = McpSession::builder(connector)
        .protocol(ProtocolChoice::Negotiate)
        .build();
    let connecting = tokio::spawn({
        let session = session.clone();
        async move { session.connect().await }
    });
    let mut connection = server.accept().await;
    initialized_on_2025_11_25(&mut connection).await;
    connecting.await.unwrap().unwrap();
    assert_eq!(
        session.protocol_version(),
        Some(ProtocolVersion::V_2025_11_25)
    );
    session.close().await;
}
