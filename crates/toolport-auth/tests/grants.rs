//! The grants that need no user, against a fixture authorization server: what each token
//! request carries (grant type, client authentication, assertion claims, `resource`, scopes),
//! token reuse and renewal, and no secret in `Debug` output or errors.

mod grant_server;

use std::time::Duration;

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use grant_server::{
    Client, Config, Fixture, ID_JAG, PRIVATE_KEY, PUBLIC_KEY, authorization_error, bounded,
};
use jsonwebtoken::{Algorithm, DecodingKey, Validation};
use serde_json::Value;
use toolport_auth::{
    AssertionKey, AuthorizationError, ClientAuthentication, Grant, GrantAuthorizer,
    IdentityProvider,
};
use toolport_core::Secret;
use toolport_http_client::RotatingToken;
use url::Url;

const CLIENT_ID: &str = "agent-7";
const SECRET: &str = "s3cret-value";
const JWT_BEARER: &str = "urn:ietf:params:oauth:grant-type:jwt-bearer";

fn secret_client() -> ClientAuthentication {
    ClientAuthentication::secret(CLIENT_ID, Secret::new(SECRET))
}

fn client_credentials(fixture: &Fixture) -> Client {
    Client::new(
        fixture,
        GrantAuthorizer::builder(
            &fixture.server_url(),
            Grant::client_credentials(secret_client()),
        )
        .issuer(fixture.issuer()),
    )
}

#[tokio::test]
async fn client_credentials_discover_the_endpoint_and_authenticate_with_basic() {
    let fixture = Fixture::start(Config {
        challenge_scope: Some("tools:read"),
        ..Config::default()
    })
    .await;
    let client = client_credentials(&fixture);
    bounded(async {
        assert_eq!(client.call().await.unwrap(), 200);
        let record = fixture.record();
        assert_eq!(record.token_requests.len(), 1);
        let request = &record.token_requests[0];
        assert_eq!(request.form["grant_type"], "client_credentials");
        assert_eq!(request.form["resource"], fixture.server_url());
        assert_eq!(request.form["scope"], "tools:read");
        assert!(!request.form.contains_key("client_secret"));
        let expected = format!("Basic {}", STANDARD.encode(format!("{CLIENT_ID}:{SECRET}")));
        assert_eq!(request.authorization.as_deref(), Some(expected.as_str()));
        assert_eq!(
            record.mcp_requests,
            [None, Some("Bearer token-1".to_owned())]
        );
    })
    .await;
}

#[tokio::test]
async fn a_secret_goes_in_the_form_when_the_server_lists_only_client_secret_post() {
    let fixture = Fixture::start(Config {
        auth_methods: vec!["client_secret_post"],
        ..Config::default()
    })
    .await;
    let client = client_credentials(&fixture);
    bounded(async {
        assert_eq!(client.call().await.unwrap(), 200);
        let record = fixture.record();
        let request = &record.token_requests[0];
        assert_eq!(request.form["client_id"], CLIENT_ID);
        assert_eq!(request.form["client_secret"], SECRET);
        assert_eq!(request.authorization, None);
        assert!(!request.form.contains_key("scope"));
    })
    .await;
}

#[tokio::test]
async fn a_private_key_signs_an_assertion_for_the_issuer() {
    let fixture = Fixture::start(Config {
        auth_methods: vec!["private_key_jwt"],
        ..Config::default()
    })
    .await;
    let key = AssertionKey::from_pem(PRIVATE_KEY.as_bytes(), "ES256")
        .unwrap()
        .key_id("k1");
    let grant = Grant::client_credentials(ClientAuthentication::private_key(CLIENT_ID, key));
    let client = Client::new(
        &fixture,
        GrantAuthorizer::builder(&fixture.server_url(), grant).issuer(fixture.issuer()),
    );
    bounded(async {
        assert_eq!(client.call().await.unwrap(), 200);
        let record = fixture.record();
        let form = &record.token_requests[0].form;
        assert_eq!(form["grant_type"], "client_credentials");
        assert_eq!(form["client_id"], CLIENT_ID);
        assert_eq!(
            form["client_assertion_type"],
            "urn:ietf:params:oauth:client-assertion-type:jwt-bearer"
        );
        let mut validation = Validation::new(Algorithm::ES256);
        validation.set_audience(&[fixture.issuer()]);
        validation.set_issuer(&[CLIENT_ID]);
        validation.set_required_spec_claims(&["exp", "iss", "sub", "aud"]);
        let decoding = DecodingKey::from_ec_pem(PUBLIC_KEY.as_bytes()).unwrap();
        let assertion =
            jsonwebtoken::decode::<Value>(&form["client_assertion"], &decoding, &validation)
                .unwrap();
        assert_eq!(assertion.header.kid.as_deref(), Some("k1"));
        assert_eq!(assertion.claims["sub"], CLIENT_ID);
        assert!(
            assertion.claims["jti"]
                .as_str()
                .is_some_and(|jti| !jti.is_empty())
        );
    })
    .await;
}

#[tokio::test]
async fn a_fixed_token_endpoint_needs_no_discovery() {
    let fixture = Fixture::start(Config {
        metadata: false,
        ..Config::default()
    })
    .await;
    let token_url = Url::parse(&format!("{}/token", fixture.issuer())).unwrap();
    let builder = GrantAuthorizer::builder(
        &fixture.server_url(),
        Grant::client_credentials(secret_client()),
    )
    .token_url(token_url)
    .scopes(["a", "b"]);
    let client = Client::new(&fixture, builder);
    bounded(async {
        assert_eq!(client.call().await.unwrap(), 200);
        let record = fixture.record();
        assert!(record.metadata_requests.is_empty());
        let request = &record.token_requests[0];
        assert_eq!(request.form["resource"], fixture.server_url());
        assert_eq!(request.form["scope"], "a b");
        assert!(
            request
                .authorization
                .as_deref()
                .unwrap()
                .starts_with("Basic ")
        );
    })
    .await;
}

/// Replacing a token that is about to expire is tested on a clock of the test's own, in
/// `src/grants/present.rs`.
#[tokio::test]
async fn a_token_is_reused_while_it_is_fresh() {
    let fixture = Fixture::start(Config::default()).await;
    let client = client_credentials(&fixture);
    bounded(async {
        for _ in 0..3 {
            assert_eq!(client.call().await.unwrap(), 200);
        }
        let record = fixture.record();
        assert_eq!(record.token_requests.len(), 1);
        assert_eq!(
            record.mcp_requests,
            [
                None,
                Some("Bearer token-1".to_owned()),
                Some("Bearer token-1".to_owned()),
                Some("Bearer token-1".to_owned())
            ]
        );
    })
    .await;
}

#[tokio::test]
async fn a_refused_token_is_replaced_once_per_refusal() {
    let fixture = Fixture::start(Config::default()).await;
    let client = client_credentials(&fixture);
    bounded(async {
        assert_eq!(client.call().await.unwrap(), 200);
        fixture.revoke_access_tokens();
        assert_eq!(client.call().await.unwrap(), 200);
        assert_eq!(fixture.record().token_requests.len(), 2);
        assert_eq!(
            client.header().await.unwrap().to_str().unwrap(),
            "Bearer token-2"
        );
    })
    .await;

    let fixture = Fixture::start(Config {
        refuse_all_tokens: true,
        ..Config::default()
    })
    .await;
    let client = client_credentials(&fixture);
    bounded(async {
        for _ in 0..2 {
            assert_eq!(client.call().await.unwrap(), 401);
        }
        // One new token for each of the two refusals of a current token, none for the
        // refusals of the tokens just obtained.
        assert_eq!(fixture.record().token_requests.len(), 2);
    })
    .await;
}

#[tokio::test]
async fn the_jwt_bearer_grant_reads_the_current_assertion_each_time() {
    let fixture = Fixture::start(Config {
        auth_methods: vec!["none"],
        ..Config::default()
    })
    .await;
    let workload_jwt = RotatingToken::new(Secret::new("workload-jwt-1"));
    let grant = Grant::jwt_bearer(
        ClientAuthentication::public("workload"),
        workload_jwt.clone(),
    );
    let client = Client::new(
        &fixture,
        GrantAuthorizer::builder(&fixture.server_url(), grant).issuer(fixture.issuer()),
    );
    bounded(async {
        assert_eq!(client.call().await.unwrap(), 200);
        workload_jwt.set(Secret::new("workload-jwt-2"));
        fixture.revoke_access_tokens();
        assert_eq!(client.call().await.unwrap(), 200);
        let record = fixture.record();
        let forms: Vec<_> = record.token_requests.iter().map(|r| &r.form).collect();
        assert_eq!(forms.len(), 2);
        for (form, jwt) in forms.iter().zip(["workload-jwt-1", "workload-jwt-2"]) {
            assert_eq!(form["grant_type"], JWT_BEARER);
            assert_eq!(form["assertion"], jwt);
            assert_eq!(form["client_id"], "workload");
            assert_eq!(form["resource"], fixture.server_url());
        }
        assert_eq!(record.token_requests[0].authorization, None);
    })
    .await;
}

#[tokio::test]
async fn a_refused_grant_is_an_error_and_is_not_retried() {
    let fixture = Fixture::start(Config {
        refuse: Some("invalid_grant"),
        ..Config::default()
    })
    .await;
    let grant = Grant::jwt_bearer(
        ClientAuthentication::public("workload"),
        Secret::new("expired-workload-jwt"),
    );
    let client = Client::new(
        &fixture,
        GrantAuthorizer::builder(&fixture.server_url(), grant).issuer(fixture.issuer()),
    );
    bounded(async {
        let error = client.call().await.unwrap_err();
        match authorization_error(&error) {
            AuthorizationError::TokenRefused { error, .. } => assert_eq!(error, "invalid_grant"),
            other => panic!("not a refusal: {other}"),
        }
        assert_eq!(fixture.record().token_requests.len(), 1);
        for shown in [error.to_string(), format!("{error:?}")] {
            assert!(!shown.contains("expired-workload-jwt"), "{shown}");
        }
    })
    .await;
}

fn enterprise(fixture: &Fixture) -> Client {
    let provider = IdentityProvider::new(
        Url::parse(&fixture.idp_token_url()).unwrap(),
        ClientAuthentication::public("idp-client"),
        Secret::new("the-users-id-token"),
    );
    let grant = Grant::enterprise_managed(secret_client(), provider);
    Client::new(
        fixture,
        GrantAuthorizer::builder(&fixture.server_url(), grant).issuer(fixture.issuer()),
    )
}

#[tokio::test]
async fn enterprise_managed_authorization_exchanges_the_id_token_then_presents_the_id_jag() {
    let fixture = Fixture::start(Config::default()).await;
    let client = enterprise(&fixture);
    bounded(async {
        assert_eq!(client.call().await.unwrap(), 200);
        let record = fixture.record();
        let exchange = &record.exchanges[..];
        assert_eq!(exchange.len(), 1);
        let form = &exchange[0].form;
        assert_eq!(
            form["grant_type"],
            "urn:ietf:params:oauth:grant-type:token-exchange"
        );
        assert_eq!(
            form["requested_token_type"],
            "urn:ietf:params:oauth:token-type:id-jag"
        );
        assert_eq!(form["audience"], fixture.issuer());
        assert_eq!(form["resource"], fixture.server_url());
        assert_eq!(form["subject_token"], "the-users-id-token");
        assert_eq!(
            form["subject_token_type"],
            "urn:ietf:params:oauth:token-type:id_token"
        );
        assert_eq!(form["client_id"], "idp-client");

        let request = &record.token_requests[0];
        assert_eq!(request.form["grant_type"], JWT_BEARER);
        assert_eq!(request.form["assertion"], ID_JAG);
        let expected = format!("Basic {}", STANDARD.encode(format!("{CLIENT_ID}:{SECRET}")));
        assert_eq!(request.authorization.as_deref(), Some(expected.as_str()));
    })
    .await;
}

#[tokio::test]
async fn an_exchange_that_issues_anything_but_an_id_jag_stops_there() {
    let fixture = Fixture::start(Config {
        issued_token_type: "urn:ietf:params:oauth:token-type:access_token",
        ..Config::default()
    })
    .await;
    let client = enterprise(&fixture);
    bounded(async {
        let error = client.call().await.unwrap_err();
        assert!(
            matches!(
                authorization_error(&error),
                AuthorizationError::TokenRequest { .. }
            ),
            "{error}"
        );
        assert!(error.to_string().contains("access_token"), "{error}");
        assert!(fixture.record().token_requests.is_empty());
    })
    .await;
}

#[tokio::test]
async fn no_secret_shows_in_debug_output() {
    let fixture = Fixture::start(Config::default()).await;
    let client = enterprise(&fixture);
    bounded(async {
        assert_eq!(client.call().await.unwrap(), 200);
    })
    .await;
    let shown = format!("{:?}", client.authorizer);
    for secret in [SECRET, "the-users-id-token", ID_JAG, "token-1"] {
        assert!(!shown.contains(secret), "{secret} in {shown}");
    }
    assert!(shown.contains(CLIENT_ID), "{shown}");

    let key = AssertionKey::from_pem(PRIVATE_KEY.as_bytes(), "ES256").unwrap();
    let builder = GrantAuthorizer::builder(
        "https://mcp.example.com/mcp",
        Grant::client_credentials(ClientAuthentication::private_key(CLIENT_ID, key)),
    )
    .timeout(Duration::from_secs(1));
    let shown = format!("{builder:?}");
    assert!(!shown.contains("PRIVATE"), "{shown}");
    assert!(shown.contains("private_key_jwt"), "{shown}");
}
