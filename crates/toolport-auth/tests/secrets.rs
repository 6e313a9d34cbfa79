//! Secrets stay out of traces: a whole authorization (a pre-registered client with a secret,
//! the code exchange with PKCE, then a refresh) traced at every level never prints the client
//! secret, the code, the PKCE verifier, nor any access or refresh token; neither does the
//! authorizer's `Debug`.

mod common;

use std::sync::Arc;

use common::client::{Client, bounded};
use common::{Config, Fixture};
use toolport_auth::{MemoryTokenStore, TokenKey, TokenStore};
use toolport_core::Secret;
use toolport_fixtures::CapturedLog;

const CLIENT_SECRET: &str = "pre-registered-secret-7f3a";

// One thread, so that the thread-local subscriber sees every task.
#[tokio::test(flavor = "current_thread")]
async fn no_secret_of_a_whole_authorization_reaches_the_traces_or_debug() {
    let captured = CapturedLog::default();
    let _guard = tracing::subscriber::set_default(captured.subscriber());

    let fixture = Fixture::start(Config {
        refresh_tokens: true,
        registration: false,
        auth_methods: vec!["client_secret_post"],
        ..Config::default()
    })
    .await;
    let store = Arc::new(MemoryTokenStore::new());
    let client = Client::new(&fixture, |builder| {
        builder
            .pre_registered("pre-client", Some(Secret::new(CLIENT_SECRET)))
            .issuer(fixture.issuer())
            .store(store.clone())
    });
    bounded(async {
        assert_eq!(client.call_needing("").await.unwrap(), 200, "authorized");
        fixture.revoke_access_tokens();
        assert_eq!(client.call_needing("").await.unwrap(), 200, "refreshed");
    })
    .await;

    let mut secrets = vec![CLIENT_SECRET.to_owned()];
    {
        let record = fixture.record();
        for request in &record.token_requests {
            for field in ["code", "code_verifier", "refresh_token", "client_secret"] {
                secrets.extend(request.form.get(field).cloned());
            }
        }
        for authorization in record.mcp_requests.iter().flatten() {
            secrets.extend(authorization.strip_prefix("Bearer ").map(str::to_owned));
        }
    }
    let key = TokenKey::new(fixture.server_url(), "default");
    let latest = store.load(&key).await.unwrap().expect("tokens stored");
    secrets.push(latest.access_token().expose().to_owned());
    secrets.extend(
        latest
            .refresh_token()
            .map(|token| token.expose().to_owned()),
    );
    secrets.sort();
    secrets.dedup();
    assert!(
        secrets.len() >= 6,
        "a secret, a code, a verifier, two refresh tokens and access tokens: {}",
        secrets.len()
    );

    let traced = captured.text();
    assert!(traced.contains("DEBUG"), "the flow was traced");
    let debug = format!("{:?} {latest:?}", client.authorizer);
    for secret in &secrets {
        assert!(!traced.contains(secret.as_str()), "traced: {secret}");
        assert!(!debug.contains(secret.as_str()), "in Debug: {secret}");
    }
}
