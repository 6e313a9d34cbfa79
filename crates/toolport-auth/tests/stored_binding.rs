//! Tokens loaded from a store are refreshed with the `RefreshBinding` saved beside them: an
//! authorizer started again on the same `FileTokenStore` refreshes without authorizing, and a
//! token file written before bindings existed still loads.

mod common;

use std::path::Path;
use std::sync::Arc;

use common::client::{Client, bounded};
use common::{Config, Fixture};
use toolport_auth::{FileTokenStore, TokenKey, TokenStore};
use toolport_core::Secret;

/// A client of `fixture` keeping its tokens in the file at `path`, as the CLI does across
/// restarts.
fn client_on_file(fixture: &Fixture, path: &Path) -> Client {
    let store: Arc<dyn TokenStore> = Arc::new(FileTokenStore::new(path));
    Client::new(fixture, |builder| builder.store(store))
}

/// The `grant_type` of each token request, with its status.
fn grants(fixture: &Fixture) -> Vec<(String, u16)> {
    fixture
        .record()
        .token_requests
        .iter()
        .map(|request| (request.form["grant_type"].clone(), request.status))
        .collect()
}

#[tokio::test]
async fn an_authorizer_started_again_refreshes_a_refused_token_without_authorizing() {
    bounded(async {
        let fixture = Fixture::start(Config {
            refresh_tokens: true,
            ..Config::default()
        })
        .await;
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("tokens.json");
        let first = client_on_file(&fixture, &path);
        assert_eq!(first.call_needing("").await.unwrap(), 200);
        drop(first);

        let second = client_on_file(&fixture, &path);
        fixture.revoke_access_tokens();
        assert_eq!(second.call_needing("").await.unwrap(), 200);

        assert_eq!(
            grants(&fixture),
            [
                ("authorization_code".into(), 200),
                ("refresh_token".into(), 200)
            ]
        );
        let record = fixture.record();
        assert_eq!(record.authorizations.len(), 1, "no new authorization");
        assert_eq!(record.registrations.len(), 1, "no new registration");
        let refresh = &record.token_requests[1];
        assert_eq!(refresh.form["client_id"], "registered-client");
        assert_eq!(refresh.form["resource"], fixture.server_url());
    })
    .await;
}

#[tokio::test]
async fn an_authorizer_started_again_refreshes_before_expiry_with_the_stored_client_secret() {
    bounded(async {
        // Every token expires within the refresh margin, so the next use refreshes it.
        let fixture = Fixture::start(Config {
            refresh_tokens: true,
            expires_in: 30,
            auth_methods: vec!["client_secret_basic"],
            registration: false,
            ..Config::default()
        })
        .await;
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("tokens.json");
        let pre_registered = |path: &Path| {
            let store: Arc<dyn TokenStore> = Arc::new(FileTokenStore::new(path));
            Client::new(&fixture, |builder| {
                builder
                    .store(store)
                    .pre_registered("pre-client", Some(Secret::new("pre-secret")))
                    .issuer(fixture.issuer())
            })
        };
        let first = pre_registered(&path);
        assert_eq!(first.call_needing("").await.unwrap(), 200);
        let signed_in = fixture.record().token_requests[0].authorization.clone();
        assert!(signed_in.is_some(), "HTTP Basic at the code exchange");
        drop(first);
        let before = fixture.record().token_requests.len();

        let second = client_on_file(&fixture, &path);
        assert_eq!(second.call_needing("").await.unwrap(), 200);

        assert_eq!(grants(&fixture)[before..], [("refresh_token".into(), 200)]);
        let record = fixture.record();
        assert_eq!(record.authorizations.len(), 1, "no new authorization");
        assert_eq!(
            record.token_requests[before].authorization, signed_in,
            "the stored secret, sent as the sign-in sent it"
        );
    })
    .await;
}

#[tokio::test]
async fn a_token_file_written_before_refresh_bindings_still_loads() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("tokens.json");
    let key = TokenKey::new("https://mcp.example.com/mcp", "default");
    let document = serde_json::json!({
        "version": 1,
        "tokens": {
            key.storage_key(): {
                "access_token": "at",
                "token_type": "Bearer",
                "refresh_token": "rt",
                "expires_at": 1_700_000_000u64,
                "scopes": ["tools:read"],
                "issuer": "https://auth.example.com",
            }
        }
    });
    std::fs::write(&path, document.to_string()).unwrap();

    let tokens = FileTokenStore::new(&path)
        .load(&key)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(tokens.access_token().expose(), "at");
    assert_eq!(tokens.refresh_token().map(Secret::expose), Some("rt"));
    assert_eq!(tokens.issuer(), Some("https://auth.example.com"));
    assert_eq!(tokens.refresh_binding(), None);
}
