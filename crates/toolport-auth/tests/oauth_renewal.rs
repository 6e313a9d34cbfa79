//! What `OAuthAuthorizer` does after the first authorization: refresh with rotation (before
//! expiry, and on a 401), step-up on 403 `insufficient_scope` with its limits, and a resource
//! that moves to another authorization server (followed by a public client, as MCP says; an
//! error, with a pinned issuer, until its tokens are removed).

mod common;

use std::sync::Arc;

use common::authorized_client::authorization_error;
use common::client::{Client, bounded};
use common::{Config, Fixture, TokenBook};
use toolport_auth::{
    AuthorizationError, MemoryTokenStore, OAuthAuthorizerBuilder, TokenKey, TokenStore,
};

/// The `grant_type` and `refresh_token` of each token request, with its status.
fn token_requests(fixture: &Fixture) -> Vec<(String, Option<String>, u16)> {
    fixture
        .record()
        .token_requests
        .iter()
        .map(|request| {
            (
                request.form["grant_type"].clone(),
                request.form.get("refresh_token").cloned(),
                request.status,
            )
        })
        .collect()
}

#[tokio::test]
async fn a_token_about_to_expire_is_refreshed_and_the_rotated_refresh_token_used_next() {
    bounded(async {
        // Every token expires within the refresh margin, so each use refreshes it.
        let fixture = Fixture::start(Config {
            refresh_tokens: true,
            expires_in: 30,
            ..Config::default()
        })
        .await;
        let client = Client::new(&fixture, |builder| builder);
        assert_eq!(client.call_needing("").await.unwrap(), 200);
        let first = client.header().await.unwrap();
        let second = client.header().await.unwrap();
        assert_ne!(first, second, "a new token on every refresh");

        // The fixture takes each refresh token once: reusing one would answer 400.
        let code = ("authorization_code".to_owned(), None, 200);
        let refresh = |token: &str| ("refresh_token".to_owned(), Some(token.to_owned()), 200);
        assert_eq!(
            token_requests(&fixture),
            [code, refresh("rt-1"), refresh("rt-2"), refresh("rt-3")]
        );
        let record = fixture.record();
        for request in &record.token_requests[1..] {
            assert_eq!(request.form["resource"], fixture.server_url());
            assert_eq!(request.form["client_id"], "registered-client");
        }
        assert_eq!(record.authorizations.len(), 1);
    })
    .await;
}

#[tokio::test]
async fn a_refused_token_is_refreshed_once_then_the_flow_runs_again() {
    bounded(async {
        let fixture = Fixture::start(Config {
            refresh_tokens: true,
            ..Config::default()
        })
        .await;
        let client = Client::new(&fixture, |builder| builder);
        assert_eq!(client.call_needing("").await.unwrap(), 200);

        fixture.revoke_access_tokens();
        assert_eq!(client.call_needing("").await.unwrap(), 200);
        assert_eq!(fixture.record().authorizations.len(), 1, "a refresh did it");
        let requests = token_requests(&fixture);
        assert_eq!(
            requests[1],
            ("refresh_token".into(), Some("rt-1".into()), 200)
        );

        // The refreshed token refused too: another refresh would not help.
        fixture.revoke_access_tokens();
        assert_eq!(client.call_needing("").await.unwrap(), 200);
        assert_eq!(fixture.record().authorizations.len(), 2);
        assert_eq!(token_requests(&fixture).len(), 3);
    })
    .await;
}

#[tokio::test]
async fn a_step_up_asks_for_the_union_of_scopes_at_most_three_times() {
    bounded(async {
        let fixture = Fixture::start(Config {
            challenge_scope: Some("a"),
            ..Config::default()
        })
        .await;
        let client = Client::new(&fixture, |builder| builder);
        let asked = |fixture: &Fixture| -> Vec<String> {
            let record = fixture.record();
            record
                .authorizations
                .iter()
                .map(|a| a["scope"].clone())
                .collect()
        };
        assert_eq!(client.call_needing("a").await.unwrap(), 200);
        assert_eq!(client.call_needing("b").await.unwrap(), 200);
        assert_eq!(asked(&fixture), ["a", "a b"]);
        assert_eq!(
            client.call_needing("a b").await.unwrap(),
            200,
            "already granted"
        );
        assert_eq!(client.call_needing("c").await.unwrap(), 200);
        assert_eq!(client.call_needing("d").await.unwrap(), 200);
        assert_eq!(asked(&fixture), ["a", "a b", "a b c", "a b c d"]);

        assert_eq!(
            client.call_needing("e").await.unwrap(),
            403,
            "step-ups used up"
        );
        assert_eq!(asked(&fixture).len(), 4);
    })
    .await;
}

#[tokio::test]
async fn a_scope_that_is_never_granted_is_asked_for_once() {
    bounded(async {
        let fixture = Fixture::start(Config {
            challenge_scope: Some("mcp:admin"),
            withheld_scope: Some("mcp:admin"),
            ..Config::default()
        })
        .await;
        let client = Client::new(&fixture, |builder| builder);
        assert_eq!(client.call_needing("mcp:admin").await.unwrap(), 403);
        assert_eq!(client.call_needing("mcp:admin").await.unwrap(), 403);
        let record = fixture.record();
        assert_eq!(record.authorizations.len(), 1);
        assert_eq!(record.authorizations[0]["scope"], "mcp:admin");
    })
    .await;
}

/// The resource of `first` and its authorization server, which registers `as1-client` with a
/// secret, and a `second` that registers `as2-client` as a public client, sharing one token
/// book: the resource can move from the one to the other.
async fn two_authorization_servers() -> (Fixture, Fixture) {
    let book = TokenBook::default();
    let first = Fixture::start_with(
        Config {
            registered: ("as1-client", Some("as1-secret"), None),
            ..Config::default()
        },
        book.clone(),
    )
    .await;
    let second = Fixture::start_with(
        Config {
            registered: ("as2-client", None, Some("none")),
            ..Config::default()
        },
        book,
    )
    .await;
    (first, second)
}

#[tokio::test]
async fn a_resource_moving_to_another_authorization_server_leads_to_a_new_registration() {
    bounded(async {
        let (first, second) = two_authorization_servers().await;
        let client = Client::new(&first, |builder| builder);
        assert_eq!(client.call_needing("").await.unwrap(), 200);
        assert_eq!(first.record().registrations.len(), 1);

        first.move_to(second.issuer());
        assert_eq!(client.call_needing("").await.unwrap(), 200);

        assert_eq!(first.record().registrations.len(), 1);
        assert_eq!(first.record().authorizations.len(), 1);
        let record = second.record();
        assert_eq!(record.registrations.len(), 1, "registered again");
        assert_eq!(record.authorizations.len(), 1);
        assert_eq!(record.authorizations[0]["client_id"], "as2-client");
        let exchange = &record.token_requests[0];
        assert_eq!(exchange.status, 200);
        assert_eq!(exchange.form["client_id"], "as2-client");
        assert_eq!(exchange.authorization, None, "no AS1 credentials at AS2");
    })
    .await;
}

#[tokio::test]
async fn the_tokens_of_the_old_authorization_server_are_dropped_even_when_the_new_one_fails() {
    bounded(async {
        let book = TokenBook::default();
        let first = Fixture::start_with(Config::default(), book.clone()).await;
        let second = Fixture::start_with(
            Config {
                pkce_methods: None,
                ..Config::default()
            },
            book,
        )
        .await;
        let client = Client::new(&first, |builder| builder);
        assert_eq!(client.call_needing("").await.unwrap(), 200);
        assert!(client.header().await.is_some());

        first.move_to(second.issuer());
        assert!(
            client.call_needing("").await.is_err(),
            "the new server has no PKCE"
        );
        assert_eq!(
            client.header().await,
            None,
            "the old server's tokens are gone"
        );
    })
    .await;
}

#[tokio::test]
async fn with_a_pinned_issuer_a_move_is_an_error_until_the_tokens_are_removed() {
    bounded(async {
        let (first, second) = two_authorization_servers().await;
        let store = Arc::new(MemoryTokenStore::new());
        let pinned_first = Client::new(&first, |builder| {
            builder.store(store.clone()).issuer(first.issuer())
        });
        assert_eq!(pinned_first.call_needing("").await.unwrap(), 200);
        let signed_in = pinned_first.header().await;
        assert!(signed_in.is_some());

        // The resource now names another authorization server, and the user pins it: the kept
        // tokens are the first's.
        first.move_to(second.issuer());
        let client = Client::new(&first, |builder| {
            builder.store(store.clone()).issuer(second.issuer())
        });
        let error = client.call_needing("").await.unwrap_err();
        match authorization_error(&error) {
            AuthorizationError::IssuerChanged { stored, current } => {
                assert_eq!(
                    (stored.as_str(), current.as_str()),
                    (first.issuer(), second.issuer())
                );
            }
            other => panic!("not an issuer change: {other}"),
        }
        assert!(error.to_string().contains(first.issuer()), "{error}");
        assert!(error.to_string().contains(second.issuer()), "{error}");
        assert_eq!(client.header().await, signed_in, "the kept tokens stay");
        {
            let record = second.record();
            assert!(
                record.registrations.is_empty(),
                "nothing sent to the new server"
            );
            assert!(record.authorizations.is_empty());
            assert!(record.token_requests.is_empty());
        }

        // Removing the tokens is saying yes: the client registers with the new server, and no
        // credential of the first goes there.
        let key = TokenKey::new(first.server_url(), OAuthAuthorizerBuilder::DEFAULT_IDENTITY);
        store.remove(&key).await.unwrap();
        assert_eq!(client.call_needing("").await.unwrap(), 200);
        assert_eq!(first.record().registrations.len(), 1);
        let record = second.record();
        assert_eq!(record.registrations.len(), 1, "registered again");
        assert_eq!(record.authorizations[0]["client_id"], "as2-client");
        let exchange = &record.token_requests[0];
        assert_eq!(exchange.status, 200);
        assert_eq!(exchange.form["client_id"], "as2-client");
        assert_eq!(exchange.authorization, None, "no AS1 credentials at AS2");
    })
    .await;
}
