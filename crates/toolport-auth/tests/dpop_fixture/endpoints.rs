//! The fixture's endpoints: the protected resource, both metadata documents, registration,
//! authorization and token.

use std::collections::HashMap;
use std::convert::Infallible;
use std::sync::Arc;
use std::sync::atomic::Ordering;

use bytes::Bytes;
use http::header::{AUTHORIZATION, CONTENT_TYPE, LOCATION, WWW_AUTHENTICATE};
use http::request::Parts;
use http::{Method, Request, Response, StatusCode};
use http_body_util::{BodyExt, Full};
use hyper::body::Incoming;
use serde_json::{Value, json};
use url::Url;

use super::proof::{token_hash, verify};
use super::{AS_NONCE, RS_NONCE, ResourceNonce, ResourceRequest, Shared, TokenRequest};

type Answer = Response<Full<Bytes>>;

/// Routes one request.
pub(super) async fn respond(
    request: Request<Incoming>,
    shared: Arc<Shared>,
) -> Result<Answer, Infallible> {
    let (head, body) = request.into_parts();
    let body = body
        .collect()
        .await
        .map(|b| b.to_bytes())
        .unwrap_or_default();
    let base = &shared.base;
    let answer = match (&head.method, head.uri.path()) {
        (&Method::POST, "/mcp") => resource(&shared, &head),
        (&Method::GET, "/.well-known/oauth-protected-resource/mcp") => json_answer(
            200,
            &json!({
                "resource": format!("{base}/mcp"),
                "authorization_servers": [base],
                "dpop_bound_access_tokens_required": shared.config.resource_requires_dpop,
            }),
        ),
        (&Method::GET, "/.well-known/oauth-authorization-server") => {
            let mut document = json!({
                "issuer": base,
                "authorization_endpoint": format!("{base}/authorize"),
                "token_endpoint": format!("{base}/token"),
                "registration_endpoint": format!("{base}/register"),
                "code_challenge_methods_supported": ["S256"],
                "token_endpoint_auth_methods_supported": ["none"],
                "authorization_response_iss_parameter_supported": true,
            });
            if let Some(algorithms) = &shared.config.algorithms {
                document["dpop_signing_alg_values_supported"] = json!(algorithms);
            }
            json_answer(200, &document)
        }
        (&Method::POST, "/register") => json_answer(
            201,
            &json!({"client_id": "dpop-client", "token_endpoint_auth_method": "none"}),
        ),
        (&Method::GET, "/authorize") => authorize(&shared, head.uri.query().unwrap_or_default()),
        (&Method::POST, "/token") => token(&shared, &head, &body),
        _ => json_answer(404, &json!({})),
    };
    Ok(answer)
}

/// `GET /authorize`: grants at once.
fn authorize(shared: &Shared, query: &str) -> Answer {
    let params: HashMap<String, String> = url::form_urlencoded::parse(query.as_bytes())
        .into_owned()
        .collect();
    let mut redirect = Url::parse(&params["redirect_uri"]).unwrap();
    redirect
        .query_pairs_mut()
        .append_pair("code", "the-code")
        .append_pair("state", &params["state"])
        .append_pair("iss", &shared.base);
    let mut answer = json_answer(302, &json!({}));
    answer
        .headers_mut()
        .insert(LOCATION, redirect.as_str().parse().unwrap());
    answer
}

/// `POST /token`: any code, or a refresh token bound to the proof's key (or to none), for
/// tokens bound to the proof's key: `DPoP` tokens with a proof, `Bearer` ones without.
fn token(shared: &Shared, head: &Parts, body: &[u8]) -> Answer {
    let form: HashMap<String, String> = url::form_urlencoded::parse(body).into_owned().collect();
    let grant_type = form.get("grant_type").cloned().unwrap_or_default();
    let proof = header(head, "dpop");
    let answer = token_answer(shared, &form, proof.as_deref());
    shared
        .record
        .lock()
        .unwrap()
        .token_requests
        .push(TokenRequest {
            grant_type,
            proof,
            status: answer.status().as_u16(),
        });
    answer
}

fn token_answer(shared: &Shared, form: &HashMap<String, String>, proof: Option<&str>) -> Answer {
    let config = &shared.config;
    let proof = match proof.map(verify) {
        None => None,
        Some(Ok(proof))
            if proof.claim("htm") == Some("POST")
                && proof.claim("htu") == Some(&format!("{}/token", shared.base)) =>
        {
            Some(proof)
        }
        Some(Ok(_)) => return oauth_error(400, "invalid_dpop_proof", None),
        Some(Err(why)) => {
            eprintln!("invalid proof at the token endpoint: {why}");
            return oauth_error(400, "invalid_dpop_proof", None);
        }
    };
    if config.token_nonce
        && let Some(proof) = &proof
        && proof.claim("nonce") != Some(AS_NONCE)
    {
        return oauth_error(400, "use_dpop_nonce", Some(AS_NONCE));
    }
    let key = proof.map(|proof| proof.thumbprint);
    if form.get("grant_type").map(String::as_str) == Some("refresh_token") {
        let refresh_token = form.get("refresh_token").cloned().unwrap_or_default();
        let bound_to = shared.bound.lock().unwrap().remove(&refresh_token);
        if !refresh_token.starts_with("rt-") || bound_to != Some(key.clone()) {
            return oauth_error(400, "invalid_grant", None);
        }
    }
    let number = shared.issued.fetch_add(1, Ordering::SeqCst);
    let access_token = format!("at-{number}");
    let mut bound = shared.bound.lock().unwrap();
    bound.insert(access_token.clone(), key.clone());
    let token_type = if key.is_some() { "DPoP" } else { "Bearer" };
    let mut answer = json!({
        "access_token": access_token,
        "token_type": token_type,
        "expires_in": config.expires_in,
    });
    if config.refresh_tokens {
        let refresh_token = format!("rt-{number}");
        bound.insert(refresh_token.clone(), key);
        answer["refresh_token"] = json!(refresh_token);
    }
    json_answer(200, &answer)
}

/// `POST /mcp`: 200 for a Bearer token presented as Bearer, or a DPoP-bound token presented
/// as DPoP with a valid proof by its key (and the nonce, when one is asked for).
fn resource(shared: &Shared, head: &Parts) -> Answer {
    let authorization = header(head, AUTHORIZATION.as_str());
    let proof = header(head, "dpop");
    let answer = resource_answer(shared, authorization.as_deref(), proof.as_deref());
    shared
        .record
        .lock()
        .unwrap()
        .resource_requests
        .push(ResourceRequest {
            authorization,
            proof,
            status: answer.status().as_u16(),
        });
    answer
}

fn resource_answer(shared: &Shared, authorization: Option<&str>, proof: Option<&str>) -> Answer {
    let config = &shared.config;
    let dpop = config.algorithms.is_some() || config.resource_requires_dpop;
    let scheme = if dpop { "DPoP" } else { "Bearer" };
    let metadata = format!(
        r#"resource_metadata="{}/.well-known/oauth-protected-resource/mcp""#,
        shared.base
    );
    let Some((presented, token)) = authorization.and_then(|value| value.split_once(' ')) else {
        return refusal(&format!("{scheme} {metadata}"), None);
    };
    let bound_to = shared.bound.lock().unwrap().get(token).cloned();
    let Some(bound_to) = bound_to.filter(|_| token.starts_with("at-")) else {
        return refusal(
            &format!(r#"{scheme} error="invalid_token", {metadata}"#),
            None,
        );
    };
    let Some(key) = bound_to else {
        return match presented {
            "Bearer" => json_answer(200, &json!({})),
            _ => refusal(r#"Bearer error="invalid_token""#, None),
        };
    };
    let proof = proof.and_then(|proof| verify(proof).ok());
    let Some(proof) = proof.filter(|proof| {
        presented == "DPoP"
            && proof.thumbprint == key
            && proof.claim("htm") == Some("POST")
            && proof.claim("htu") == Some(&format!("{}/mcp", shared.base))
            && proof.claim("ath") == Some(&token_hash(token))
    }) else {
        return refusal(r#"DPoP error="invalid_dpop_proof""#, None);
    };
    match config.resource_nonce {
        ResourceNonce::Off => json_answer(200, &json!({})),
        ResourceNonce::Fixed if proof.claim("nonce") == Some(RS_NONCE) => {
            json_answer(200, &json!({}))
        }
        ResourceNonce::Fixed => nonce_refusal(RS_NONCE),
        ResourceNonce::Rotating => {
            let number = shared.issued.fetch_add(1, Ordering::SeqCst);
            nonce_refusal(&format!("rs-nonce-{number}"))
        }
    }
}

fn header(head: &Parts, name: &str) -> Option<String> {
    head.headers
        .get(name)
        .map(|value| value.to_str().unwrap().to_owned())
}

fn nonce_refusal(nonce: &str) -> Answer {
    refusal(r#"DPoP error="use_dpop_nonce""#, Some(nonce))
}

fn refusal(challenge: &str, nonce: Option<&str>) -> Answer {
    let mut answer = json_answer(401, &json!({"error": "refused"}));
    answer
        .headers_mut()
        .insert(WWW_AUTHENTICATE, challenge.parse().unwrap());
    if let Some(nonce) = nonce {
        answer
            .headers_mut()
            .insert("dpop-nonce", nonce.parse().unwrap());
    }
    answer
}

fn oauth_error(status: u16, error: &str, nonce: Option<&str>) -> Answer {
    let mut answer = json_answer(status, &json!({ "error": error }));
    if let Some(nonce) = nonce {
        answer
            .headers_mut()
            .insert("dpop-nonce", nonce.parse().unwrap());
    }
    answer
}

fn json_answer(status: u16, value: &Value) -> Answer {
    let mut answer = Response::new(Full::new(Bytes::from(value.to_string())));
    *answer.status_mut() = StatusCode::from_u16(status).unwrap();
    answer
        .headers_mut()
        .insert(CONTENT_TYPE, "application/json".parse().unwrap());
    answer
}
