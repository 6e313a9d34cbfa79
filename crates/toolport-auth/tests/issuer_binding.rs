//! A client's credential goes only to the authorization server the user pinned: a hostile MCP
//! server whose challenge names another one gets an error, and that server gets no secret (no
//! token request, no `Authorization` header, no registration). A pinned issuer the server
//! contradicts is an error naming both; tokens kept from another issuer are an error, not a
//! switch, and so is a stored binding's refresh at an issuer other than the pinned one.

mod common;
mod hostile_server;

use std::sync::Arc;

use common::authorized_client::{AuthorizedClient, authorization_error};
use common::{Config, Fixture};
use hostile_server::{Answer, HostileServer, Seen};
use serde_json::json;
use toolport_auth::{
    AssertionKey, AuthorizationError, ClientAuthentication, Grant, GrantAuthorizer,
    HeadlessAuthorization, MemoryTokenStore, OAuthAuthorizer, TokenStore,
};
use toolport_core::Secret;
use url::Url;

const SECRET: &str = "the-users-client-secret";

/// A P-256 key made for these tests only, to sign client assertions.
const PRIVATE_KEY: &str = "-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgvFZ6X1rw2gdbzXBd
mGuINQL+8T37fUGFQdNVfibn5J+hRANCAAT5s65JMJVBHK8x2aVBkTuF9aOeT/lr
2ejOoN28TtyKL0HlXRDJsUkPS349QHR+ZO/LRPwGSSGjcA2+rf/QXDrW
-----END PRIVATE KEY-----
";

/// A hostile MCP server, and the authorization server its challenge names (the attacker's).
async fn hostile_pair() -> (HostileServer, HostileServer) {
    let attacker = HostileServer::start().await;
    attacker.serve_authorization_server();
    let resource = HostileServer::start().await;
    resource.serve_resource_naming(&attacker.base);
    (resource, attacker)
}

/// Whether any request carried `SECRET` or HTTP Basic, in a header or the body.
fn leaked(seen: &[Seen]) -> bool {
    seen.iter().any(|seen| {
        seen.body.contains(SECRET)
            || seen
                .authorization
                .as_deref()
                .is_some_and(|value| value.starts_with("Basic ") || value.contains(SECRET))
    })
}

fn oauth_client(
    resource: &HostileServer,
    configure: impl FnOnce(
        toolport_auth::OAuthAuthorizerBuilder,
    ) -> toolport_auth::OAuthAuthorizerBuilder,
) -> AuthorizedClient<OAuthAuthorizer> {
    let handler = HeadlessAuthorization::new(Url::parse("http://127.0.0.1:3000/cb").unwrap());
    let builder = OAuthAuthorizer::builder(&resource.url("/mcp")).handler(handler);
    AuthorizedClient::with_authorizer(configure(builder).build().unwrap(), &resource.url("/mcp"))
}

fn grant_client(
    resource: &HostileServer,
    grant: Grant,
    configure: impl FnOnce(
        toolport_auth::GrantAuthorizerBuilder,
    ) -> toolport_auth::GrantAuthorizerBuilder,
) -> AuthorizedClient<GrantAuthorizer> {
    let builder = GrantAuthorizer::builder(&resource.url("/mcp"), grant);
    AuthorizedClient::with_authorizer(configure(builder).build().unwrap(), &resource.url("/mcp"))
}

#[tokio::test]
async fn an_unpinned_pre_registered_secret_never_reaches_the_server_a_challenge_names() {
    let (resource, attacker) = hostile_pair().await;
    let client = oauth_client(&resource, |builder| {
        builder.pre_registered("my-app", Some(Secret::new(SECRET)))
    });

    let error = client.call().await.unwrap_err();

    match authorization_error(&error) {
        AuthorizationError::CredentialNotPinned { client_id, named } => {
            assert_eq!(
                (client_id.as_str(), named.as_str()),
                ("my-app", attacker.base.as_str())
            );
        }
        other => panic!("not CredentialNotPinned: {other}"),
    }
    let text = error.to_string();
    assert!(
        text.contains(&format!("--issuer {}", attacker.base)),
        "{text}"
    );
    assert!(!text.contains(SECRET), "{text}");
    assert!(
        attacker.beyond_metadata().is_empty(),
        "{:?}",
        attacker.seen()
    );
    assert!(!leaked(&attacker.seen()) && !leaked(&resource.seen()));
}

#[tokio::test]
async fn a_pinned_issuer_the_challenge_contradicts_is_an_error_naming_both() {
    let (resource, attacker) = hostile_pair().await;
    let honest = HostileServer::start().await;
    honest.serve_authorization_server();
    let client = oauth_client(&resource, |builder| {
        builder
            .pre_registered("my-app", Some(Secret::new(SECRET)))
            .issuer(&honest.base)
    });

    let error = client.call().await.unwrap_err();

    match authorization_error(&error) {
        AuthorizationError::IssuerContradicted { pinned, named } => {
            assert_eq!(pinned, &honest.base);
            assert_eq!(named, std::slice::from_ref(&attacker.base));
        }
        other => panic!("not IssuerContradicted: {other}"),
    }
    let text = error.to_string();
    assert!(
        text.contains(&honest.base) && text.contains(&attacker.base),
        "{text}"
    );
    assert!(
        attacker.seen().is_empty(),
        "not even its metadata was asked for"
    );
    assert!(honest.seen().is_empty());
}

#[tokio::test]
async fn every_grant_that_carries_a_credential_needs_a_pin() {
    let key = AssertionKey::from_pem(PRIVATE_KEY.as_bytes(), "ES256").unwrap();
    let grants = [
        Grant::client_credentials(ClientAuthentication::secret("agent", Secret::new(SECRET))),
        Grant::client_credentials(ClientAuthentication::private_key("agent", key)),
        Grant::jwt_bearer(ClientAuthentication::public("agent"), Secret::new(SECRET)),
    ];
    for grant in grants {
        let (resource, attacker) = hostile_pair().await;
        let client = grant_client(&resource, grant, |builder| builder);

        let error = client.call().await.unwrap_err();

        assert!(
            matches!(
                authorization_error(&error),
                AuthorizationError::CredentialNotPinned { client_id, .. } if client_id == "agent"
            ),
            "{error}"
        );
        assert!(
            attacker.beyond_metadata().is_empty(),
            "{:?}",
            attacker.seen()
        );
        assert!(!leaked(&attacker.seen()));
    }
}

#[tokio::test]
async fn client_credentials_go_only_to_the_pinned_issuer_or_token_endpoint() {
    let secret_grant =
        || Grant::client_credentials(ClientAuthentication::secret("agent", Secret::new(SECRET)));

    // Pinned to an issuer the challenge contradicts: an error, and neither server is asked.
    let (resource, attacker) = hostile_pair().await;
    let honest = HostileServer::start().await;
    honest.serve_authorization_server();
    let client = grant_client(&resource, secret_grant(), |builder| {
        builder.issuer(&honest.base)
    });
    let error = client.call().await.unwrap_err();
    assert!(
        matches!(
            authorization_error(&error),
            AuthorizationError::IssuerContradicted { .. }
        ),
        "{error}"
    );
    assert!(attacker.seen().is_empty() && honest.seen().is_empty());

    // Pinned to a token endpoint: the secret goes there, whatever the challenge names.
    honest.route(
        "/token",
        Answer::Json(json!({"access_token": "t-1", "token_type": "Bearer", "expires_in": 3600})),
    );
    let token_url = Url::parse(&honest.url("/token")).unwrap();
    let client = grant_client(&resource, secret_grant(), |builder| {
        builder.token_url(token_url)
    });
    // The hostile resource refuses every token; the answer to the request sent again stands.
    assert_eq!(client.call().await.unwrap(), 401);
    let sent: Vec<Seen> = honest.seen();
    assert_eq!(sent.len(), 1);
    assert_eq!(
        (sent[0].method.as_str(), sent[0].path.as_str()),
        ("POST", "/token")
    );
    assert!(leaked(&sent), "the secret went to the pinned endpoint");
    assert!(attacker.seen().is_empty());
}

#[tokio::test]
async fn with_a_pinned_issuer_a_grant_token_from_another_is_an_error_not_a_switch() {
    let (resource, first) = hostile_pair().await;
    first.route(
        "/token",
        Answer::Json(json!({"access_token": "t-1", "token_type": "Bearer", "expires_in": 3600})),
    );
    let grant = || Grant::client_credentials(ClientAuthentication::public("agent"));
    let store = Arc::new(MemoryTokenStore::new());
    let client = grant_client(&resource, grant(), |builder| {
        builder.store(store.clone()).issuer(first.base.clone())
    });
    // A token from the first server, which the hostile resource refuses.
    assert_eq!(client.call().await.unwrap(), 401);

    // The resource names a second server, and the user pins it; the kept token is the first's.
    let second = HostileServer::start().await;
    second.serve_authorization_server();
    resource.serve_resource_naming(&second.base);
    let client = grant_client(&resource, grant(), |builder| {
        builder.store(store.clone()).issuer(second.base.clone())
    });
    let error = client.call().await.unwrap_err();

    match authorization_error(&error) {
        AuthorizationError::IssuerChanged { stored, current } => {
            assert_eq!((stored, current), (&first.base, &second.base));
        }
        other => panic!("not IssuerChanged: {other}"),
    }
    assert!(second.beyond_metadata().is_empty(), "{:?}", second.seen());
    assert!(client.header().await.is_some(), "the kept token stays");
}

#[tokio::test]
async fn an_unpinned_public_grant_follows_the_server_and_sends_the_new_issuer_nothing_old() {
    let (resource, first) = hostile_pair().await;
    first.route(
        "/token",
        Answer::Json(json!({"access_token": "t-1", "token_type": "Bearer", "expires_in": 3600})),
    );
    let grant = Grant::client_credentials(ClientAuthentication::public("agent"));
    let client = grant_client(&resource, grant, |builder| builder);
    assert_eq!(client.call().await.unwrap(), 401);

    let second = HostileServer::start().await;
    second.serve_authorization_server();
    second.route(
        "/token",
        Answer::Json(json!({"access_token": "t-2", "token_type": "Bearer", "expires_in": 3600})),
    );
    resource.serve_resource_naming(&second.base);
    assert_eq!(client.call().await.unwrap(), 401);

    let sent = second.beyond_metadata();
    assert_eq!(sent.len(), 1, "{sent:?}");
    assert_eq!(sent[0].path, "/token");
    assert!(!sent[0].body.contains("t-1") && sent[0].authorization.is_none());
    let header = client.header().await.expect("a token from the new server");
    assert_eq!(header.to_str().unwrap(), "Bearer t-2");
}

#[tokio::test]
async fn a_stored_binding_is_refreshed_only_at_the_pinned_issuer() {
    let fixture = Fixture::start(Config {
        refresh_tokens: true,
        registration: false,
        auth_methods: vec!["client_secret_basic"],
        ..Config::default()
    })
    .await;
    let elsewhere = HostileServer::start().await;
    elsewhere.serve_authorization_server();
    // The pin changed since the tokens were kept, or tokens kept by a version that sent the
    // secret unpinned: the stored binding would send the secret, and is not used.
    let settings: [(&str, Option<&str>); 2] = [
        ("pinned elsewhere", Some(&elsewhere.base)),
        ("unpinned", None),
    ];
    for (case, pin) in settings {
        let store: Arc<dyn TokenStore> = Arc::new(MemoryTokenStore::new());
        let signing_in = common::client::Client::new(&fixture, |builder| {
            builder
                .store(store.clone())
                .pre_registered("pre-client", Some(Secret::new(SECRET)))
                .issuer(fixture.issuer())
        });
        assert_eq!(signing_in.call().await.unwrap(), 200, "{case}");
        let before = fixture.record().token_requests.len();

        let later = common::client::Client::new(&fixture, |builder| {
            let builder = builder
                .store(store.clone())
                .pre_registered("pre-client", Some(Secret::new(SECRET)));
            match pin {
                Some(pin) => builder.issuer(pin),
                None => builder,
            }
        });
        fixture.revoke_access_tokens();
        let error = later.call().await.unwrap_err();

        assert!(
            matches!(
                authorization_error(&error),
                AuthorizationError::IssuerContradicted { .. }
                    | AuthorizationError::CredentialNotPinned { .. }
            ),
            "{case}: {error}"
        );
        assert_eq!(
            fixture.record().token_requests.len(),
            before,
            "{case}: no refresh with the stored secret"
        );
        assert!(elsewhere.seen().is_empty(), "{case}");
    }
}

#[tokio::test]
async fn without_resource_metadata_the_pinned_issuer_authorizes() {
    // A server of the 2025-03-26 revision: a bare challenge, no metadata at all.
    let resource = HostileServer::start().await;
    resource.route("/mcp", Answer::Challenge("Bearer".to_owned()));
    let pinned = HostileServer::start().await;
    pinned.serve_authorization_server();
    let client = oauth_client(&resource, |builder| {
        builder
            .pre_registered("my-app", Some(Secret::new(SECRET)))
            .issuer(&pinned.base)
    });

    // The pinned server's authorization endpoint answers 404, so the handler fails there.
    let error = client.call().await.unwrap_err();

    assert!(
        matches!(authorization_error(&error), AuthorizationError::Handler(_)),
        "{error}"
    );
    let asked: Vec<String> = pinned.seen().into_iter().map(|seen| seen.path).collect();
    assert_eq!(asked[0], "/.well-known/oauth-authorization-server");
    assert!(asked[1].starts_with("/authorize?"), "{asked:?}");
    assert!(
        resource
            .seen()
            .iter()
            .all(|seen| !seen.path.contains("authorization-server")),
        "the server's origin is not asked to be the authorization server"
    );
}

#[test]
fn a_pinned_issuer_must_be_an_issuer_the_policy_allows() {
    let handler = HeadlessAuthorization::new(Url::parse("http://127.0.0.1:3000/cb").unwrap());
    for (issuer, problem) in [
        ("https://auth.example.com?tenant=a", "query"),
        ("http://auth.example.com", "https"),
        ("https://10.0.0.1", "allow_private_addresses"),
    ] {
        let error = OAuthAuthorizer::builder("https://mcp.example.com/mcp")
            .handler(handler.clone())
            .issuer(issuer)
            .build()
            .unwrap_err();
        assert!(
            matches!(error, AuthorizationError::Settings { .. }),
            "{error}"
        );
        assert!(error.to_string().contains(problem), "{issuer}: {error}");
        let client = ClientAuthentication::public("agent");
        let error = GrantAuthorizer::builder(
            "https://mcp.example.com/mcp",
            Grant::client_credentials(client),
        )
        .issuer(issuer)
        .build()
        .unwrap_err();
        assert!(error.to_string().contains(problem), "{issuer}: {error}");
    }
}
