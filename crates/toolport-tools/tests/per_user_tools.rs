//! Callers with different identities never share a cached tool list: against a scripted
//! transport that sees each request's caller, and against an HTTP server that lists different
//! tools per user (the `X-User-Id` a header provider sends).

use serde_json::json;
use toolport_core::{ReadonlyContext, Secret};
use toolport_fixtures::{HttpFixtureServer, PerUserServer};
use toolport_http::{HttpServer, WithHttpOptions};
use toolport_testkit::bounded;
use toolport_testkit::scripted;
use toolport_tools::{ListCaching, McpToolset};

fn user(name: &str) -> ReadonlyContext {
    ReadonlyContext::from_json(json!({"user_id": name}))
}

fn user_id(context: Option<&ReadonlyContext>) -> Option<&str> {
    context
        .and_then(|c| c.get("user_id"))
        .and_then(|id| id.as_str())
}

async fn names(toolset: &McpToolset, context: &ReadonlyContext) -> Vec<String> {
    let tools = bounded("tools", toolset.tools(Some(context)))
        .await
        .unwrap();
    tools.iter().map(|tool| tool.name().to_owned()).collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_users_of_one_toolset_each_see_their_own_tools_over_http() {
    let server = bounded("start", HttpFixtureServer::start(PerUserServer::new))
        .await
        .unwrap();
    let connector =
        HttpServer::new(server.url()).header_provider(|context: Option<&ReadonlyContext>| {
            Ok(user_id(context)
                .map(|user| vec![("X-User-Id".to_owned(), Secret::new(user))])
                .unwrap_or_default())
        });
    let toolset = McpToolset::builder(connector).build().await.unwrap();
    let (alice, bob) = (user("alice"), user("bob"));

    assert_eq!(names(&toolset, &alice).await, ["tools_of_alice"]);
    assert_eq!(
        names(&toolset, &bob).await,
        ["tools_of_bob"],
        "bob is not served alice's list"
    );
    assert_eq!(names(&toolset, &alice).await, ["tools_of_alice"]);

    let call = toolset.tool("tools_of_bob", Some(&bob)).await.unwrap();
    let output = bounded("call", call.call_raw(json!({}), Some(&bob)))
        .await
        .unwrap();
    assert_eq!(toolport_testkit::first_text(&output), "bob");
    toolset.close().await;
}

/// The tool list the scripted server answers to each `tools/list`, named after its caller.
fn listing_for(message: &scripted::ClientMessage) -> serde_json::Value {
    let user = user_id(message.context.as_ref()).unwrap_or("nobody");
    json!({"tools": [{"name": format!("tools_of_{user}"), "inputSchema": {"type": "object"}}]})
}

#[tokio::test]
async fn a_cache_key_on_the_identity_shares_a_list_across_that_users_requests() {
    let (connector, server) = scripted::pair();
    let toolset = McpToolset::builder(connector)
        .list_caching(ListCaching::keyed(|context| {
            user_id(context).unwrap_or_default().to_owned()
        }))
        .build()
        .await
        .unwrap();
    let alice_at_work = ReadonlyContext::from_json(json!({"user_id": "alice", "request": 1}));
    let alice_again = ReadonlyContext::from_json(json!({"user_id": "alice", "request": 2}));

    let script = async {
        let mut connection = server.accept().await;
        connection.complete_handshake().await;
        for _ in 0..2 {
            let list = connection.expect_request("tools/list").await;
            connection.respond(&list, listing_for(&list));
        }
        connection
    };
    let client = async {
        assert_eq!(names(&toolset, &alice_at_work).await, ["tools_of_alice"]);
        assert_eq!(
            names(&toolset, &alice_again).await,
            ["tools_of_alice"],
            "cached"
        );
        assert_eq!(names(&toolset, &user("bob")).await, ["tools_of_bob"]);
    };
    let (mut connection, ()) = tokio::join!(script, client);
    assert!(
        connection.try_recv().is_none(),
        "two listings, for two identities"
    );
    toolset.close().await;
}
