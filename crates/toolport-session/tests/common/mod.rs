//! Helpers shared by the session's integration tests.

#![allow(dead_code, unreachable_pub)] // Each test binary uses a different subset.

use toolport_session::McpSession;
use toolport_testkit::scripted::{ScriptedConnection, ScriptedServer};

/// A scripted session's first connection, with the handshake done, while `session` connects.
pub async fn scripted_connection(
    session: &McpSession,
    server: &ScriptedServer,
) -> ScriptedConnection {
    let connecting = tokio::spawn({
        let session = session.clone();
        async move { session.connect().await }
    });
    let mut connection = server.accept().await;
    connection.complete_handshake().await;
    connecting.await.unwrap().unwrap();
    connection
}
