//! The authorization-code flow of `OAuthAuthorizer` against a fixture authorization server and
//! resource on 127.0.0.1: discovery, the client identity (dynamic registration, pre-registered
//! with `client_secret_basic` and `client_secret_post`, a metadata-document URL), PKCE, the
//! `resource` and `scope` parameters, and the refusals (a wrong or missing `iss`, no S256).

mod common;

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use common::authorized_client::authorization_error;
use common::client::{Client, bounded};
use common::{Config, Fixture, Iss, REDIRECT_URI};
use toolport_auth::AuthorizationError;
use toolport_core::Secret;
use url::Url;

/// The metadata-document URL the conformance suite expects.
const CIMD_URL: &str = "https://conformance-test.local/client-metadata.json";

#[tokio::test]
async fn the_full_flow_registers_authorizes_with_pkce_and_sends_the_token() {
    bounded(async {
        let fixture = Fixture::start(Config {
            resource_scopes: Some(vec!["mcp:read", "mcp:write"]),
            server_scopes: Some(vec!["mcp:read", "mcp:write", "offline_access"]),
            ..Config::default()
        })
        .await;
        // Not used: the server does not accept metadata documents.
        let client = Client::new(&fixture, |builder| {
            builder
                .client_name("flow-test")
                .client_metadata_url(Url::parse(CIMD_URL).unwrap())
        });
        assert_eq!(client.header().await, None, "no token before a refusal");

        assert_eq!(client.call_needing("").await.unwrap(), 200);

        let sent = {
            let record = fixture.record();
            let [registration] = record.registrations.as_slice() else {
                panic!("one registration expected: {:?}", record.registrations);
            };
            assert_eq!(registration["client_name"], "flow-test");
            assert_eq!(registration["application_type"], "native");
            assert_eq!(registration["redirect_uris"][0], REDIRECT_URI);
            assert_eq!(registration["token_endpoint_auth_method"], "none");
            assert_eq!(
                registration["grant_types"],
                serde_json::json!(["authorization_code", "refresh_token"])
            );
            assert_eq!(registration["response_types"], serde_json::json!(["code"]));

            let [authorization] = record.authorizations.as_slice() else {
                panic!("one authorization expected");
            };
            let resource = fixture.server_url();
            assert_eq!(authorization["client_id"], "registered-client");
            assert_eq!(authorization["response_type"], "code");
            assert_eq!(authorization["code_challenge_method"], "S256");
            assert_eq!(authorization["redirect_uri"], REDIRECT_URI);
            assert_eq!(authorization["resource"], resource);
            assert_eq!(authorization["scope"], "mcp:read mcp:write offline_access");
            assert!(authorization["state"].len() >= 16, "a random state");

            let [exchange] = record.token_requests.as_slice() else {
                panic!("one token request expected");
            };
            // The fixture answers 200 only when the verifier matches the S256 challenge.
            assert_eq!(
                exchange.status,
                200,
                "{:?}",
                exchange.form.get("grant_type")
            );
            assert_eq!(exchange.form["grant_type"], "authorization_code");
            assert_eq!(exchange.form["resource"], resource);
            assert_eq!(exchange.form["client_id"], "registered-client");
            assert_eq!(exchange.form["redirect_uri"], REDIRECT_URI);
            assert!(!exchange.form.contains_key("client_secret"));
            assert_eq!(exchange.authorization, None);

            record.mcp_requests.clone()
        };
        assert_eq!(sent.len(), 2, "refused once, sent again: {sent:?}");
        assert_eq!(sent[0], None);
        let token = sent[1].clone().expect("the retry carries the token");
        assert!(
            fixture
                .book()
                .lock()
                .unwrap()
                .contains_key(&token["Bearer ".len()..])
        );

        let header = client.header().await.expect("a token now");
        assert!(header.is_sensitive());
        assert_eq!(header.to_str().unwrap(), token);
        let shown = format!("{:?}", client.authorizer);
        assert!(!shown.contains(&token["Bearer ".len()..]), "{shown}");
    })
    .await;
}

#[tokio::test]
async fn requests_refused_together_lead_to_one_authorization() {
    bounded(async {
        let fixture = Fixture::start(Config::default()).await;
        let client = Client::new(&fixture, |builder| builder);
        let (first, second) = tokio::join!(client.call_needing(""), client.call_needing(""));
        assert_eq!(first.unwrap(), 200);
        assert_eq!(second.unwrap(), 200);
        assert_eq!(fixture.record().authorizations.len(), 1);
        assert_eq!(fixture.record().registrations.len(), 1);
    })
    .await;
}

/// A pre-registered confidential client against a server that lists only `method`.
async fn pre_registered(method: &'static str) -> (Fixture, common::TokenRequest) {
    let fixture = Fixture::start(Config {
        registration: false,
        auth_methods: vec![method],
        ..Config::default()
    })
    .await;
    let client = Client::new(&fixture, |builder| {
        builder
            .pre_registered("pre-client", Some(Secret::new("pre-secret")))
            .issuer(fixture.issuer())
    });
    assert!(!format!("{:?}", client.authorizer).contains("pre-secret"));
    assert_eq!(client.call_needing("").await.unwrap(), 200);
    let record = fixture.record();
    assert!(record.registrations.is_empty());
    assert_eq!(record.authorizations[0]["client_id"], "pre-client");
    let exchange = record.token_requests[0].clone();
    drop(record);
    (fixture, exchange)
}

#[tokio::test]
async fn a_pre_registered_client_authenticates_with_http_basic() {
    bounded(async {
        let (_fixture, exchange) = pre_registered("client_secret_basic").await;
        let expected = format!("Basic {}", STANDARD.encode("pre-client:pre-secret"));
        assert_eq!(exchange.authorization.as_deref(), Some(expected.as_str()));
        assert!(!exchange.form.contains_key("client_secret"));
    })
    .await;
}

#[tokio::test]
async fn a_pre_registered_client_authenticates_in_the_body_when_the_server_says_so() {
    bounded(async {
        let (_fixture, exchange) = pre_registered("client_secret_post").await;
        assert_eq!(exchange.authorization, None);
        assert_eq!(exchange.form["client_id"], "pre-client");
        assert_eq!(exchange.form["client_secret"], "pre-secret");
    })
    .await;
}

#[tokio::test]
async fn a_metadata_document_url_is_the_client_id_where_the_server_supports_them() {
    bounded(async {
        let fixture = Fixture::start(Config {
            metadata_documents: true,
            ..Config::default()
        })
        .await;
        let client = Client::new(&fixture, |builder| {
            builder.client_metadata_url(Url::parse(CIMD_URL).unwrap())
        });
        assert_eq!(client.call_needing("").await.unwrap(), 200);
        let record = fixture.record();
        assert!(record.registrations.is_empty(), "no registration needed");
        assert_eq!(record.authorizations[0]["client_id"], CIMD_URL);
        assert_eq!(record.token_requests[0].form["client_id"], CIMD_URL);
        assert_eq!(record.token_requests[0].authorization, None);
    })
    .await;
}

#[tokio::test]
async fn a_wrong_or_missing_issuer_in_the_response_stops_the_flow_before_the_token_request() {
    bounded(async {
        for iss in [Iss::Wrong, Iss::Omitted] {
            let fixture = Fixture::start(Config {
                iss,
                ..Config::default()
            })
            .await;
            let client = Client::new(&fixture, |builder| builder);
            let error = client.call_needing("").await.unwrap_err();
            let cause = authorization_error(&error);
            assert!(
                matches!(cause, AuthorizationError::Response(_)),
                "{iss:?}: {cause}"
            );
            assert!(!cause.to_string().contains("code-"), "{cause}");
            let record = fixture.record();
            assert_eq!(record.authorizations.len(), 1);
            assert!(
                record.token_requests.is_empty(),
                "{iss:?}: the code was sent"
            );
        }
    })
    .await;
}

#[tokio::test]
async fn a_server_without_pkce_s256_is_refused_before_anything_is_sent_to_it() {
    bounded(async {
        for methods in [Some(vec!["plain"]), None] {
            let fixture = Fixture::start(Config {
                pkce_methods: methods.clone(),
                ..Config::default()
            })
            .await;
            let client = Client::new(&fixture, |builder| builder);
            let error = client.call_needing("").await.unwrap_err();
            let cause = authorization_error(&error);
            assert!(
                matches!(cause, AuthorizationError::PkceUnsupported { .. }),
                "{methods:?}: {cause}"
            );
            let record = fixture.record();
            assert!(record.registrations.is_empty());
            assert!(record.authorizations.is_empty());
        }
    })
    .await;
}

#[tokio::test]
async fn a_2025_03_26_server_without_metadata_is_authorized_at_its_default_endpoints() {
    bounded(async {
        let fixture = Fixture::start(Config {
            resource_metadata: false,
            server_metadata: false,
            ..Config::default()
        })
        .await;
        let client = Client::new(&fixture, |builder| builder);
        assert_eq!(client.call_needing("").await.unwrap(), 200);
        let record = fixture.record();
        assert_eq!(record.registrations.len(), 1);
        let authorization = &record.authorizations[0];
        assert_eq!(authorization["code_challenge_method"], "S256");
        assert_eq!(authorization["resource"], fixture.server_url());
        assert_eq!(record.token_requests[0].status, 200);
        assert_eq!(
            record.token_requests[0].form["resource"],
            fixture.server_url()
        );
    })
    .await;
}
