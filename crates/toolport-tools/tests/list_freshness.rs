//! The toolset's cached tool list honours the server's cache hints on 2026-07-28: a `public`
//! list is listed once for every caller, a `private` one once per caller, and a positive
//! `ttlMs` ends a list's freshness. Each test counts the `tools/list` posts an HTTP server saw.

use std::time::Duration;

use rmcp::model::ProtocolVersion;
use serde_json::json;
use toolport_core::{ReadonlyContext, Secret};
use toolport_fixtures::{HttpFixtureServer, PerUserServer};
use toolport_http::{HttpServer, WithHttpOptions};
use toolport_testkit::{TaskTracker, bounded};
use toolport_tools::McpToolset;

fn user(name: &str) -> ReadonlyContext {
    ReadonlyContext::from_json(json!({"user_id": name}))
}

/// A server of per-user tool lists whose lists are fresh for `ttl`.
async fn per_user_server(ttl: Duration) -> HttpFixtureServer {
    let start = HttpFixtureServer::start(move || PerUserServer::new().with_list_ttl(ttl));
    bounded("start", start).await.unwrap()
}

/// A toolset on `server`, on 2026-07-28, whose requests name their caller in `X-User-Id`.
async fn toolset_on(server: &HttpFixtureServer) -> McpToolset {
    let connector =
        HttpServer::new(server.url()).header_provider(|context: Option<&ReadonlyContext>| {
            let user = context
                .and_then(|c| c.get("user_id"))
                .and_then(|id| id.as_str());
            Ok(user
                .map(|user| vec![("X-User-Id".to_owned(), Secret::new(user))])
                .unwrap_or_default())
        });
    McpToolset::builder(connector)
        .session(|session| session.protocol_version(ProtocolVersion::V_2026_07_28))
        .build()
        .await
        .unwrap()
}

async fn names(toolset: &McpToolset, context: &ReadonlyContext) -> Vec<String> {
    let tools = bounded("tools", toolset.tools(Some(context)))
        .await
        .unwrap();
    tools.iter().map(|tool| tool.name().to_owned()).collect()
}

/// How many `tools/list` the server has been sent (2026-07-28 names each post's method).
fn listings(server: &HttpFixtureServer) -> usize {
    server
        .requests()
        .iter()
        .filter(|request| request.header("mcp-method") == Some("tools/list"))
        .count()
}

#[tokio::test]
async fn a_public_list_is_listed_once_for_every_caller() {
    let server = bounded("start", HttpFixtureServer::start(TaskTracker::new))
        .await
        .unwrap();
    let toolset = toolset_on(&server).await;

    let alice = names(&toolset, &user("alice")).await;
    let bob = names(&toolset, &user("bob")).await;

    assert!(alice.contains(&"list_tasks".to_owned()), "{alice:?}");
    assert_eq!(alice, bob, "bob is served the list alice's turn fetched");
    assert_eq!(
        listings(&server),
        1,
        "the task tracker calls its list public"
    );
    toolset.close().await;
}

#[tokio::test]
async fn a_private_list_is_never_shared_across_callers() {
    let server = bounded("start", HttpFixtureServer::start(PerUserServer::new))
        .await
        .unwrap();
    let toolset = toolset_on(&server).await;
    let (alice, bob) = (user("alice"), user("bob"));

    assert_eq!(names(&toolset, &alice).await, ["tools_of_alice"]);
    assert_eq!(names(&toolset, &bob).await, ["tools_of_bob"]);
    assert_eq!(names(&toolset, &alice).await, ["tools_of_alice"]);
    assert_eq!(
        listings(&server),
        2,
        "one list for each caller, and alice's second turn is served from hers"
    );
    toolset.close().await;
}

#[tokio::test]
async fn a_list_is_listed_again_once_its_ttl_runs_out() {
    let ttl = Duration::from_millis(50);
    let server = per_user_server(ttl).await;
    let toolset = toolset_on(&server).await;
    let alice = user("alice");

    names(&toolset, &alice).await;
    tokio::time::sleep(ttl * 3).await;
    assert_eq!(names(&toolset, &alice).await, ["tools_of_alice"]);
    assert_eq!(listings(&server), 2, "the stale list was listed again");
    toolset.close().await;
}

#[tokio::test]
async fn a_list_is_kept_while_its_ttl_holds_and_a_zero_ttl_promises_nothing() {
    for ttl in [Duration::from_secs(600), Duration::ZERO] {
        let server = per_user_server(ttl).await;
        let toolset = toolset_on(&server).await;
        let alice = user("alice");

        for _ in 0..3 {
            assert_eq!(names(&toolset, &alice).await, ["tools_of_alice"]);
        }
        assert_eq!(
            listings(&server),
            1,
            "a ttl of {ttl:?} keeps the list until the server says it changed"
        );
        toolset.close().await;
    }
}
