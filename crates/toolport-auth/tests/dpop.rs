//! DPoP (RFC 9449) in `OAuthAuthorizer`: proofs at the token endpoint and on each resource
//! request, checked as a server checks them; the nonce answered at both; refresh with the
//! same key; Bearer when the authorization server does not advertise DPoP; and the key never
//! shown.

mod dpop_fixture;

use std::collections::HashSet;
use std::time::{SystemTime, UNIX_EPOCH};

use dpop_fixture::client::{Client, bounded};
use dpop_fixture::proof::{Proof, token_hash, verify};
use dpop_fixture::{AS_NONCE, Config, Fixture, RS_NONCE, ResourceNonce};
use jsonwebtoken::Algorithm;
use toolport_auth::DpopMode;

/// The verified proof of each token request with one, with the request's status.
fn token_proofs(fixture: &Fixture) -> Vec<(Proof, u16)> {
    let record = fixture.record();
    record
        .token_requests
        .iter()
        .filter_map(|request| Some((verify(request.proof.as_deref()?).unwrap(), request.status)))
        .collect()
}

/// The status and scheme of each resource request, and whether it had a proof.
fn resource_requests(fixture: &Fixture) -> Vec<(u16, Option<String>, bool)> {
    let record = fixture.record();
    record
        .resource_requests
        .iter()
        .map(|request| {
            let scheme = request
                .authorization
                .as_deref()
                .and_then(|value| value.split_once(' '))
                .map(|(scheme, _)| scheme.to_owned());
            (request.status, scheme, request.proof.is_some())
        })
        .collect()
}

fn now() -> i64 {
    let now = SystemTime::now().duration_since(UNIX_EPOCH).unwrap();
    i64::try_from(now.as_secs()).unwrap()
}

#[tokio::test]
async fn proofs_are_well_formed_fresh_and_bound_to_the_token_and_the_request() {
    bounded(async {
        let fixture = Fixture::start(Config::default()).await;
        let client = Client::new(&fixture, |builder| builder);
        for _ in 0..3 {
            assert_eq!(client.call().await.unwrap(), 200);
        }

        let tokens = token_proofs(&fixture);
        assert_eq!(tokens.len(), 1, "one code exchange, with a proof");
        let (at_token, status) = &tokens[0];
        assert_eq!(*status, 200);
        assert_eq!(at_token.header.alg, Algorithm::ES256);
        assert_eq!(at_token.claim("htm"), Some("POST"));
        assert_eq!(at_token.claim("htu"), Some(fixture.token_url().as_str()));
        assert_eq!(at_token.claim("ath"), None, "no token to bind yet");
        assert_eq!(at_token.claim("nonce"), None);
        let jwk = serde_json::to_value(at_token.header.jwk.as_ref().unwrap()).unwrap();
        assert_eq!(
            (jwk["kty"].as_str(), jwk["crv"].as_str()),
            (Some("EC"), Some("P-256"))
        );
        assert!(jwk.get("d").is_none(), "the public key only");

        let record = fixture.record();
        let presented = &record.resource_requests[1..];
        assert_eq!(record.resource_requests[0].authorization, None);
        assert_eq!(presented.len(), 3);
        let mut jtis = HashSet::new();
        jtis.insert(at_token.claim("jti").unwrap().to_owned());
        for request in presented {
            assert_eq!(request.status, 200);
            let token = request
                .authorization
                .as_deref()
                .unwrap()
                .strip_prefix("DPoP ")
                .expect("presented as DPoP");
            let proof = verify(request.proof.as_deref().unwrap()).unwrap();
            assert_eq!(
                proof.thumbprint, at_token.thumbprint,
                "the key of the token request"
            );
            assert_eq!(proof.claim("htm"), Some("POST"));
            assert_eq!(proof.claim("htu"), Some(fixture.server_url().as_str()));
            assert_eq!(proof.claim("ath"), Some(token_hash(token).as_str()));
            let iat = proof.claims["iat"].as_i64().unwrap();
            assert!((now() - iat).abs() <= 5, "iat is now");
            let jti = proof.claim("jti").unwrap().to_owned();
            assert!(jti.len() >= 16, "a random jti");
            assert!(jtis.insert(jti), "a new jti on every proof");
        }
    })
    .await;
}

#[tokio::test]
async fn the_token_endpoint_nonce_is_answered_by_sending_once_more() {
    bounded(async {
        let fixture = Fixture::start(Config {
            token_nonce: true,
            ..Config::default()
        })
        .await;
        let client = Client::new(&fixture, |builder| builder);
        assert_eq!(client.call().await.unwrap(), 200);

        let tokens = token_proofs(&fixture);
        let nonces: Vec<_> = tokens
            .iter()
            .map(|(proof, status)| (proof.claim("nonce"), *status))
            .collect();
        assert_eq!(nonces, [(None, 400), (Some(AS_NONCE), 200)]);
        assert_ne!(tokens[0].0.claim("jti"), tokens[1].0.claim("jti"));
        assert_eq!(
            resource_requests(&fixture),
            [(401, None, false), (200, Some("DPoP".into()), true)]
        );
    })
    .await;
}

#[tokio::test]
async fn the_resource_nonce_is_answered_by_sending_again_and_kept() {
    bounded(async {
        let fixture = Fixture::start(Config {
            resource_nonce: ResourceNonce::Fixed,
            ..Config::default()
        })
        .await;
        let client = Client::new(&fixture, |builder| builder);
        // No token, then a token without the nonce, then with it: one request.
        assert_eq!(client.call().await.unwrap(), 200);
        assert_eq!(client.call().await.unwrap(), 200);

        let dpop = || (200, Some("DPoP".to_owned()), true);
        let refused = (401, Some("DPoP".to_owned()), true);
        assert_eq!(
            resource_requests(&fixture),
            [(401, None, false), refused, dpop(), dpop()]
        );
        let record = fixture.record();
        let nonces: Vec<_> = record.resource_requests[1..]
            .iter()
            .map(|request| {
                let proof = verify(request.proof.as_deref().unwrap()).unwrap();
                proof.claim("nonce").map(str::to_owned)
            })
            .collect();
        assert_eq!(nonces, [None, Some(RS_NONCE.into()), Some(RS_NONCE.into())]);
        assert_eq!(
            record.token_requests.len(),
            1,
            "the nonce is no reason to authorize again"
        );
    })
    .await;
}

#[tokio::test]
async fn a_nonce_never_accepted_ends_in_the_refusal() {
    bounded(async {
        let fixture = Fixture::start(Config {
            resource_nonce: ResourceNonce::Rotating,
            ..Config::default()
        })
        .await;
        let client = Client::new(&fixture, |builder| builder);
        assert_eq!(client.call().await.unwrap(), 401, "the refusal stands");
        // No token, a proof without nonce, then one with the nonce just given: three sends.
        assert_eq!(fixture.record().resource_requests.len(), 3);
    })
    .await;
}

#[tokio::test]
async fn a_refresh_carries_a_proof_by_the_same_key() {
    bounded(async {
        // Every token expires within the refresh margin, so each use refreshes it.
        let fixture = Fixture::start(Config {
            refresh_tokens: true,
            expires_in: 30,
            ..Config::default()
        })
        .await;
        let client = Client::new(&fixture, |builder| builder);
        assert_eq!(client.call().await.unwrap(), 200);
        assert_eq!(client.call().await.unwrap(), 200);

        let record = fixture.record();
        let grants: Vec<_> = record
            .token_requests
            .iter()
            .map(|request| (request.grant_type.as_str(), request.status))
            .collect();
        let refresh = ("refresh_token", 200);
        assert_eq!(grants, [("authorization_code", 200), refresh, refresh]);
        let keys: HashSet<_> = record
            .token_requests
            .iter()
            .map(|request| {
                verify(request.proof.as_deref().unwrap())
                    .unwrap()
                    .thumbprint
            })
            .collect();
        assert_eq!(keys.len(), 1, "the refresh token is bound to the first key");
        let last = record.resource_requests.last().unwrap();
        assert!(last.authorization.as_deref().unwrap().starts_with("DPoP "));
    })
    .await;
}

#[tokio::test]
async fn without_an_advertised_es256_the_tokens_are_bearer() {
    bounded(async {
        for algorithms in [None, Some(vec!["EdDSA"])] {
            let fixture = Fixture::start(Config {
                algorithms,
                ..Config::default()
            })
            .await;
            let client = Client::new(&fixture, |builder| builder);
            assert_eq!(client.call().await.unwrap(), 200);
            let record = fixture.record();
            assert_eq!(record.token_requests.len(), 1);
            assert_eq!(record.token_requests[0].proof, None);
            drop(record);
            assert_eq!(
                resource_requests(&fixture),
                [(401, None, false), (200, Some("Bearer".into()), false)]
            );
        }
    })
    .await;
}

#[tokio::test]
async fn the_mode_and_the_resource_decide_over_the_advertisement() {
    bounded(async {
        let cases = [
            // The resource requires bound tokens: DPoP, advertised or not.
            (None, true, DpopMode::Auto, true),
            (None, false, DpopMode::Always, true),
            (Some(vec!["ES256"]), false, DpopMode::Never, false),
        ];
        for (algorithms, resource_requires_dpop, mode, proved) in cases {
            let fixture = Fixture::start(Config {
                algorithms,
                resource_requires_dpop,
                ..Config::default()
            })
            .await;
            let client = Client::new(&fixture, |builder| builder.dpop(mode));
            assert_eq!(client.call().await.unwrap(), 200, "{mode:?}");
            let scheme = if proved { "DPoP" } else { "Bearer" };
            assert_eq!(
                resource_requests(&fixture)[1],
                (200, Some(scheme.into()), proved),
                "{mode:?}"
            );
            assert_eq!(
                token_proofs(&fixture).len(),
                usize::from(proved),
                "{mode:?}"
            );
        }
    })
    .await;
}

#[tokio::test]
async fn debug_shows_neither_the_key_nor_the_token() {
    bounded(async {
        let fixture = Fixture::start(Config::default()).await;
        let client = Client::new(&fixture, |builder| builder);
        assert_eq!(client.call().await.unwrap(), 200);

        let (proof, _) = token_proofs(&fixture).remove(0);
        let jwk = serde_json::to_value(proof.header.jwk.unwrap()).unwrap();
        let shown = format!("{:?}", client.authorizer);
        assert!(shown.contains("has_key: true"), "{shown}");
        for secret in [
            jwk["x"].as_str().unwrap(),
            jwk["y"].as_str().unwrap(),
            "at-0",
        ] {
            assert!(!shown.contains(secret), "{secret} in {shown}");
        }
    })
    .await;
}
