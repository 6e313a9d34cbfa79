//! Resource subscriptions and list changes on both protocol versions, against the fixtures'
//! bulletin board: updates reach the callback and the events, only for what was subscribed,
//! an unsubscribe ends them, a reconnect restores them, and on 2026-07-28 the session listens
//! for tool-list changes by itself, a moment after it connects: a short-lived session sends no
//! listening request, and a list read before it listens counts as changed once it does.

use std::time::Duration;

use rmcp::model::ProtocolVersion;
use tokio::sync::mpsc;
use toolport_fixtures::{BulletinBoard, LibraryServer};
use toolport_session::{McpSession, ServerEvent, ServerEvents, SessionError};
use toolport_testkit::{DuplexConnector, bounded};

const VERSIONS: [ProtocolVersion; 2] =
    [ProtocolVersion::V_2025_11_25, ProtocolVersion::V_2026_07_28];

/// A session to `board` at `version`, and the URIs its update callback hears of.
fn watching(
    board: &BulletinBoard,
    version: ProtocolVersion,
) -> (
    McpSession,
    DuplexConnectorHandle,
    mpsc::UnboundedReceiver<String>,
) {
    let connector = std::sync::Arc::new(DuplexConnector::new({
        let board = board.clone();
        move || board.server()
    }));
    let (updates, heard) = mpsc::unbounded_channel();
    let session = McpSession::builder_shared(connector.clone())
        .protocol_version(version)
        .on_resource_updated(move |uri| {
            let _ = updates.send(uri.to_owned());
        })
        .build();
    (session, connector, heard)
}

type DuplexConnectorHandle = std::sync::Arc<DuplexConnector>;

/// Waits, a bounded time, until `condition` holds.
async fn until(what: &str, condition: impl Fn() -> bool) {
    bounded(what, async {
        while !condition() {
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
    })
    .await;
}

/// Waits, a bounded time, for the next tool-list change among `events`.
async fn tool_list_change(events: &mut ServerEvents) {
    bounded("the tool-list change", async {
        while !matches!(events.next().await, Some(ServerEvent::ToolListChanged)) {}
    })
    .await;
}

#[tokio::test]
async fn updates_reach_the_callback_and_the_events_for_subscribed_resources_only() {
    for version in VERSIONS {
        let board = BulletinBoard::new();
        let (session, _connector, mut heard) = watching(&board, version.clone());
        let mut events = session.events();
        session.subscribe_resource("notes://welcome").await.unwrap();
        session.subscribe_resource("notes://welcome").await.unwrap();
        assert_eq!(session.subscribed_resources(), ["notes://welcome"]);

        board.post("notes://other", "not followed").await;
        board.post("notes://welcome", "Hello again").await;
        let uri = bounded("the update", heard.recv()).await.unwrap();
        assert_eq!(
            uri, "notes://welcome",
            "{version}: only the subscribed note"
        );
        let updated = bounded("the event", async {
            loop {
                if let Some(ServerEvent::ResourceUpdated(update)) = events.next().await {
                    return update.uri;
                }
            }
        })
        .await;
        assert_eq!(updated, "notes://welcome");
        let read = session.read_resource("notes://welcome").await.unwrap();
        assert!(format!("{read:?}").contains("Hello again"));
        session.close().await;
    }
}

#[tokio::test]
async fn an_unsubscribed_resource_is_no_longer_followed() {
    for version in VERSIONS {
        let board = BulletinBoard::new();
        let (session, _connector, mut heard) = watching(&board, version.clone());
        session.subscribe_resource("notes://welcome").await.unwrap();
        session.subscribe_resource("notes://news").await.unwrap();
        session
            .unsubscribe_resource("notes://welcome")
            .await
            .unwrap();
        session.unsubscribe_resource("notes://never").await.unwrap();
        assert_eq!(session.subscribed_resources(), ["notes://news"]);

        board.post("notes://welcome", "unheard").await;
        board.post("notes://news", "heard").await;
        let uri = bounded("the update", heard.recv()).await.unwrap();
        assert_eq!(uri, "notes://news", "{version}");
        session.close().await;
    }
}

#[tokio::test]
async fn a_reconnect_subscribes_again() {
    for version in VERSIONS {
        let board = BulletinBoard::new();
        let (session, connector, mut heard) = watching(&board, version.clone());
        session.subscribe_resource("notes://welcome").await.unwrap();
        connector.kill_all();
        until("the crash to show", || !session.is_connected()).await;
        session.connect().await.unwrap();
        if version == ProtocolVersion::V_2025_11_25 {
            until("a second subscribe", || board.subscribe_requests() == 2).await;
        } else {
            until("a listen on the new connection", || board.listening() == 1).await;
        }
        board.post("notes://welcome", "after the crash").await;
        let uri = bounded("the update", heard.recv()).await.unwrap();
        assert_eq!(uri, "notes://welcome", "{version}");
        assert_eq!(connector.connect_count(), 2);
        session.close().await;
    }
}

#[tokio::test]
async fn a_2026_session_listens_for_list_changes_with_one_request() {
    let board = BulletinBoard::new();
    let (session, _connector, _heard) = watching(&board, ProtocolVersion::V_2026_07_28);
    let mut events = session.events();
    session.connect().await.unwrap();
    until("the session to listen", || board.listening() == 1).await;
    let filter = board.last_listen_filter().unwrap();
    assert_eq!(filter.tools_list_changed, Some(true));
    assert_eq!(filter.resources_list_changed, Some(true));
    assert_eq!(
        filter.prompts_list_changed, None,
        "the board has no prompts"
    );
    assert_eq!(filter.resource_subscriptions, None);

    let epoch = session.tool_list_epoch();
    board.add_tool("pin_note").await;
    tool_list_change(&mut events).await;
    assert!(session.tool_list_epoch() > epoch);
    let tools = session.list_tools().await.unwrap();
    assert!(tools.iter().any(|tool| tool.name == "pin_note"));

    // A subscription replaces the listening request; it does not add one.
    session.subscribe_resource("notes://welcome").await.unwrap();
    let filter = board.last_listen_filter().unwrap();
    assert_eq!(
        filter.resource_subscriptions,
        Some(vec!["notes://welcome".to_owned()])
    );
    assert_eq!(filter.tools_list_changed, Some(true));
    until("the old request to end", || board.listening() == 1).await;
    assert_eq!(board.listen_requests(), 2);
    session.close().await;
}

#[tokio::test(start_paused = true)]
async fn a_short_lived_2026_session_sends_no_listen() {
    let board = BulletinBoard::new();
    let (session, _connector, _heard) = watching(&board, ProtocolVersion::V_2026_07_28);
    let tools = session.list_tools().await.unwrap();
    assert!(!tools.is_empty());
    tokio::time::sleep(Duration::from_millis(100)).await;
    session.close().await;

    // Past the moment the connection would have started listening.
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert_eq!(board.listen_requests(), 0);
}

#[tokio::test]
async fn a_list_read_before_a_2026_session_listens_counts_as_changed_once_it_does() {
    let board = BulletinBoard::new();
    let (session, _connector, _heard) = watching(&board, ProtocolVersion::V_2026_07_28);
    let mut events = session.events();
    let before = session.list_tools().await.unwrap();
    let epoch = session.tool_list_epoch();
    // Nobody listens yet, so the server tells no one of this change.
    board.add_tool("pin_note").await;
    assert_eq!(board.listen_requests(), 0);

    tool_list_change(&mut events).await;
    assert_eq!(board.listen_requests(), 1);
    assert!(session.tool_list_epoch() > epoch);
    let after = session.list_tools().await.unwrap();
    assert_eq!(after.len(), before.len() + 1);
    session.close().await;
}

#[tokio::test]
async fn a_2025_session_sends_no_listen() {
    let board = BulletinBoard::new();
    let (session, _connector, _heard) = watching(&board, ProtocolVersion::V_2025_11_25);
    let mut events = session.events();
    session.connect().await.unwrap();
    until("the board to see the client", || {
        board.legacy_clients() == 1
    })
    .await;
    board.add_tool("pin_note").await;
    tool_list_change(&mut events).await;
    assert_eq!(board.listen_requests(), 0);
    assert_eq!(board.subscribe_requests(), 0);
    session.close().await;
}

#[tokio::test]
async fn a_server_without_subscriptions_refuses_them_plainly() {
    for version in VERSIONS {
        let session = McpSession::builder(DuplexConnector::new(LibraryServer::new))
            .protocol_version(version.clone())
            .build();
        let error = session.subscribe_resource("notes://a").await.unwrap_err();
        assert!(
            matches!(error, SessionError::Unsupported { .. }),
            "{version}: {error}"
        );
        assert!(error.is_permanent());
        assert!(
            error
                .to_string()
                .contains("does not offer resource subscriptions"),
            "{error}"
        );
        assert!(session.subscribed_resources().is_empty());
        session.close().await;
    }
}
