//! Authorizers sharing one `MemoryTokenStore`, as the toolsets of one agent do: a token they
//! all need refreshed at once is refreshed once, under the store's default lease (a lock within
//! the process), and the others adopt the result.

mod common;

use std::sync::Arc;
use std::time::Duration;

use common::client::bounded;
use common::replicas::{authorized_replicas, call_at_once, token_requests_after};
use common::{Config, Fixture};
use toolport_auth::{MemoryTokenStore, TokenStore};

/// Two authorizers on one memory store, the first authorized by `fixture`.
async fn two_sharing_one_store(fixture: &Fixture) -> Vec<Arc<common::client::Client>> {
    let store: Arc<dyn TokenStore> = Arc::new(MemoryTokenStore::new());
    authorized_replicas(fixture, vec![store.clone(), store]).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_authorizers_refused_at_once_refresh_once() {
    bounded(async {
        let fixture = Fixture::start(Config {
            refresh_tokens: true,
            ..Config::default()
        })
        .await;
        let authorizers = two_sharing_one_store(&fixture).await;
        let before = fixture.record().token_requests.len();

        fixture.revoke_access_tokens();
        assert_eq!(call_at_once(&authorizers).await, [200, 200]);
        // One refresh; the other authorizer adopted its result.
        assert_eq!(
            token_requests_after(&fixture, before),
            [("refresh_token".into(), 200)]
        );
        assert_eq!(fixture.record().authorizations.len(), 1, "no new sign-in");
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_authorizers_whose_token_is_about_to_expire_refresh_once() {
    bounded(async {
        // Refreshed from 60 seconds before expiry: 3 seconds after it was issued.
        let fixture = Fixture::start(Config {
            refresh_tokens: true,
            expires_in: 63,
            ..Config::default()
        })
        .await;
        let authorizers = two_sharing_one_store(&fixture).await;
        let before = fixture.record().token_requests.len();

        tokio::time::sleep(Duration::from_millis(3500)).await;
        assert_eq!(call_at_once(&authorizers).await, [200, 200]);
        assert_eq!(
            token_requests_after(&fixture, before),
            [("refresh_token".into(), 200)]
        );
    })
    .await;
}
