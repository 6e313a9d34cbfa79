//! Resource subscriptions and list changes over Streamable HTTP, on both protocol versions,
//! against the fixtures' bulletin board served by rmcp's `StreamableHttpService`: on
//! 2025-11-25 the updates come on the listening `GET` stream; on 2026-07-28 on the answer to
//! a `subscriptions/listen` post, held open, and a restarted server is listened to again.

use std::time::Duration;

use http::Method;
use rmcp::model::ProtocolVersion;
use tokio::sync::mpsc;
use toolport_fixtures::{BulletinBoard, HttpFixtureServer};
use toolport_http::HttpServer;
use toolport_session::{McpSession, ServerEvent};
use toolport_testkit::bounded;

const VERSIONS: [ProtocolVersion; 2] =
    [ProtocolVersion::V_2025_11_25, ProtocolVersion::V_2026_07_28];

async fn serve(board: &BulletinBoard) -> HttpFixtureServer {
    let served = board.clone();
    bounded("start", HttpFixtureServer::start(move || served.server()))
        .await
        .unwrap()
}

fn watching(
    server: &HttpFixtureServer,
    version: ProtocolVersion,
) -> (McpSession, mpsc::UnboundedReceiver<String>) {
    let (updates, heard) = mpsc::unbounded_channel();
    let session = McpSession::builder(HttpServer::new(server.url()))
        .protocol_version(version)
        .on_resource_updated(move |uri| {
            let _ = updates.send(uri.to_owned());
        })
        .build();
    (session, heard)
}

async fn until(what: &str, condition: impl Fn() -> bool) {
    bounded(what, async {
        while !condition() {
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    })
    .await;
}

/// Posts to `notes://welcome` until the session hears of it (a bounded wait): an update the
/// server sends while the stream that carries it is still being set up is lost, as with any
/// server, and the next one is not.
async fn post_until_heard(
    board: &BulletinBoard,
    heard: &mut mpsc::UnboundedReceiver<String>,
    text: &str,
) -> String {
    bounded("the update", async {
        loop {
            board.post("notes://welcome", text).await;
            if let Ok(Some(uri)) =
                tokio::time::timeout(Duration::from_millis(200), heard.recv()).await
            {
                return uri;
            }
        }
    })
    .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn updates_of_a_subscribed_resource_arrive_on_both_versions() {
    for version in VERSIONS {
        let board = BulletinBoard::new();
        let server = serve(&board).await;
        let (session, mut heard) = watching(&server, version.clone());
        bounded("subscribe", session.subscribe_resource("notes://welcome"))
            .await
            .unwrap();
        if version == ProtocolVersion::V_2025_11_25 {
            // Updates outside an answer ride the listening stream, opened after the handshake.
            until("the listening stream", || {
                server
                    .requests()
                    .iter()
                    .any(|request| request.method == Method::GET)
            })
            .await;
        }
        let uri = post_until_heard(&board, &mut heard, "Hello again").await;
        assert_eq!(uri, "notes://welcome", "{version}");
        // The session goes on working beside its listening request.
        let read = bounded("read", session.read_resource("notes://welcome"))
            .await
            .unwrap();
        assert!(format!("{read:?}").contains("Hello again"), "{version}");
        if version == ProtocolVersion::V_2026_07_28 {
            let listens = server
                .requests()
                .into_iter()
                .filter(|request| request.method == Method::POST)
                .filter(|request| request.header("mcp-method") == Some("subscriptions/listen"))
                .count();
            assert!(listens >= 1, "the listen went out as a post");
        }
        bounded("close", session.close()).await;
        server.stop().await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_2026_session_hears_tool_changes_and_listens_again_by_itself_after_a_restart() {
    let board = BulletinBoard::new();
    let server = serve(&board).await;
    let (session, mut heard) = watching(&server, ProtocolVersion::V_2026_07_28);
    let mut events = session.events();
    bounded("subscribe", session.subscribe_resource("notes://welcome"))
        .await
        .unwrap();
    until("one listening request", || board.listening() == 1).await;
    board.add_tool("pin_note").await;
    bounded("the tool-list change", async {
        while !matches!(events.next().await, Some(ServerEvent::ToolListChanged)) {}
    })
    .await;

    // 2026-07-28 has no session for a restart to end: the listening request's stream breaks,
    // and the session listens again by itself on the same connection.
    let listened = board.listen_requests();
    server.restart().await.unwrap();
    until("a listening request again", || {
        board.listen_requests() > listened
    })
    .await;
    assert!(session.is_connected());
    let uri = post_until_heard(&board, &mut heard, "after the restart").await;
    assert_eq!(uri, "notes://welcome");
    bounded("close", session.close()).await;
    server.stop().await;
}
