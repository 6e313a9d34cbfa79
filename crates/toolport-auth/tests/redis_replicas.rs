//! `RedisTokenStore` against a real `redis-server` the tests start: four replicas of an agent,
//! each with its own connection, refresh a token they all need refreshed at once exactly once
//! and adopt the result; the store's keys, lease and secrets.
//!
//! Needs `redis-server` on the `PATH` (`cargo xtask peers` installs it); without it the tests
//! fail, saying so.
#![cfg(feature = "redis")]

mod common;

use std::sync::Arc;
use std::time::{Duration, Instant, SystemTime};

use common::client::bounded;
use common::redis_server::RedisServer;
use common::replicas::{authorized_replicas, call_at_once, token_requests_after};
use common::{Config, Fixture};
use redis::AsyncCommands;
use toolport_auth::{RedisTokenStore, TokenKey, TokenSet, TokenStore, TokenStoreError, TokenType};
use toolport_core::Secret;

/// How many replicas share the tokens.
const REPLICAS: usize = 4;

/// `REPLICAS` stores on `server`, each with its own connection.
async fn replica_stores(server: &RedisServer) -> Vec<Arc<dyn TokenStore>> {
    let mut stores: Vec<Arc<dyn TokenStore>> = Vec::new();
    for _ in 0..REPLICAS {
        let store = RedisTokenStore::connect(&server.url(None)).await.unwrap();
        stores.push(Arc::new(store));
    }
    stores
}

/// A plain connection to `server`, to look at the keys.
async fn raw_connection(server: &RedisServer) -> redis::aio::MultiplexedConnection {
    redis::Client::open(server.url(None))
        .unwrap()
        .get_multiplexed_async_connection()
        .await
        .unwrap()
}

/// Whether any refresh lease is still in `server`, after giving the releases a moment.
async fn a_lease_is_left(server: &RedisServer) -> bool {
    let mut connection = raw_connection(server).await;
    let started = Instant::now();
    loop {
        let leases: Vec<String> = connection.keys("toolport:tokens:*:lease").await.unwrap();
        if leases.is_empty() {
            return false;
        }
        if started.elapsed() > Duration::from_secs(2) {
            return true;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

fn alice() -> TokenKey {
    TokenKey::new("https://mcp.example.com/mcp", "alice")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn four_replicas_refused_at_once_refresh_once() {
    bounded(async {
        let server = RedisServer::start(&[]);
        let fixture = Fixture::start(Config {
            refresh_tokens: true,
            ..Config::default()
        })
        .await;
        let replicas = authorized_replicas(&fixture, replica_stores(&server).await).await;
        let before = fixture.record().token_requests.len();

        fixture.revoke_access_tokens();
        assert_eq!(call_at_once(&replicas).await, [200; REPLICAS]);
        // One refresh; the three other replicas adopted its result.
        assert_eq!(
            token_requests_after(&fixture, before),
            [("refresh_token".into(), 200)]
        );
        assert_eq!(fixture.record().authorizations.len(), 1, "no new sign-in");
        assert!(!a_lease_is_left(&server).await, "every lease let go");
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn four_replicas_whose_token_is_about_to_expire_refresh_once() {
    bounded(async {
        let server = RedisServer::start(&[]);
        // Refreshed from 60 seconds before expiry: 3 seconds after it was issued.
        let fixture = Fixture::start(Config {
            refresh_tokens: true,
            expires_in: 63,
            ..Config::default()
        })
        .await;
        let replicas = authorized_replicas(&fixture, replica_stores(&server).await).await;
        let before = fixture.record().token_requests.len();

        tokio::time::sleep(Duration::from_millis(3500)).await;
        assert_eq!(call_at_once(&replicas).await, [200; REPLICAS]);
        assert_eq!(
            token_requests_after(&fixture, before),
            [("refresh_token".into(), 200)]
        );
    })
    .await;
}

#[tokio::test]
async fn tokens_are_kept_as_json_under_the_prefix_and_removed() {
    let server = RedisServer::start(&[]);
    let store = RedisTokenStore::connect(&server.url(None)).await.unwrap();
    let other = RedisTokenStore::connect(&server.url(None))
        .await
        .unwrap()
        .with_prefix("other:");
    let tokens = TokenSet::new(Secret::new("at-1"), TokenType::Bearer)
        .with_refresh_token(Secret::new("rt-1"))
        .with_expires_at(SystemTime::UNIX_EPOCH + Duration::from_secs(1_900_000_000));

    assert_eq!(store.load(&alice()).await.unwrap(), None);
    store.save(&alice(), &tokens).await.unwrap();
    assert_eq!(store.load(&alice()).await.unwrap(), Some(tokens));
    assert_eq!(other.load(&alice()).await.unwrap(), None, "another prefix");

    let mut connection = raw_connection(&server).await;
    let key = format!("toolport:tokens:{}", alice().storage_key());
    let value: String = connection.get(&key).await.unwrap();
    let value: serde_json::Value = serde_json::from_str(&value).unwrap();
    assert_eq!(value["access_token"], "at-1");
    assert_eq!(value["expires_at"], 1_900_000_000u64);

    store.remove(&alice()).await.unwrap();
    store.remove(&alice()).await.unwrap();
    assert_eq!(store.load(&alice()).await.unwrap(), None);
}

#[tokio::test]
async fn a_lease_is_held_by_one_store_at_a_time_and_lapses_after_its_hold() {
    let server = RedisServer::start(&[]);
    let first = RedisTokenStore::connect(&server.url(None)).await.unwrap();
    let second = RedisTokenStore::connect(&server.url(None)).await.unwrap();
    let hold = Duration::from_millis(400);

    // Let go when dropped: the second takes it as soon as the first lets go.
    let lease = first.lease(&alice(), hold).await.unwrap();
    let waiting = tokio::spawn(async move {
        let started = Instant::now();
        let lease = second.lease(&alice(), hold).await.unwrap();
        (started.elapsed(), lease, second)
    });
    tokio::time::sleep(Duration::from_millis(100)).await;
    drop(lease);
    let (waited, lease, second) = waiting.await.unwrap();
    assert!(waited >= Duration::from_millis(90), "{waited:?}");
    assert!(
        waited < hold,
        "taken before the first one lapsed: {waited:?}"
    );
    drop(lease);

    // Never let go: it lapses after its hold.
    let started = Instant::now();
    std::mem::forget(first.lease(&alice(), hold).await.unwrap());
    second.lease(&alice(), hold).await.unwrap();
    assert!(started.elapsed() >= hold - Duration::from_millis(20));

    // Held for longer than the wait: the waiter gives up.
    std::mem::forget(
        first
            .lease(&alice(), Duration::from_secs(10))
            .await
            .unwrap(),
    );
    let error = second
        .lease(&alice(), Duration::from_millis(50))
        .await
        .unwrap_err();
    assert!(
        matches!(error, TokenStoreError::LeaseTimeout { .. }),
        "{error}"
    );
    assert!(
        error
            .to_string()
            .contains("alice at https://mcp.example.com/mcp")
    );
}

#[tokio::test]
async fn the_password_and_the_tokens_never_show() {
    let server = RedisServer::start(&["--requirepass", "pw-SECRET-9z"]);
    let store = RedisTokenStore::connect(&server.url(Some("pw-SECRET-9z")))
        .await
        .unwrap();
    let shown = format!("{store:?}");
    assert!(shown.contains("redis://127.0.0.1:"), "{shown}");
    assert!(!shown.contains("pw-SECRET"), "{shown}");

    let error = RedisTokenStore::connect(&server.url(Some("wrong-SECRET-8y")))
        .await
        .unwrap_err();
    let shown = format!("{error} {error:?}");
    assert!(shown.contains("redis://127.0.0.1:"), "{shown}");
    assert!(!shown.contains("SECRET"), "{shown}");

    // A value that is not the store's JSON is described, not quoted.
    let mut connection = redis::Client::open(server.url(Some("pw-SECRET-9z")))
        .unwrap()
        .get_multiplexed_async_connection()
        .await
        .unwrap();
    let key = format!("toolport:tokens:{}", alice().storage_key());
    let _: () = connection
        .set(&key, r#"{"access_token": "at-SECRET-7x", "token_type": 5}"#)
        .await
        .unwrap();
    let error = store.load(&alice()).await.unwrap_err();
    let shown = format!("{error} {error:?}");
    assert!(shown.contains("corrupt"), "{shown}");
    assert!(!shown.contains("SECRET"), "{shown}");
}
