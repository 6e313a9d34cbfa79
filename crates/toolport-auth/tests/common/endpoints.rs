//! The fixture's endpoints: the protected resource, both metadata documents, registration,
//! authorization and token.

use std::collections::{BTreeSet, HashMap};
use std::convert::Infallible;
use std::sync::Arc;
use std::sync::atomic::Ordering;

use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use bytes::Bytes;
use http::header::{AUTHORIZATION, CONTENT_TYPE, LOCATION, WWW_AUTHENTICATE};
use http::{Method, Request, Response, StatusCode};
use http_body_util::{BodyExt, Full};
use hyper::body::Incoming;
use serde_json::{Value, json};
use sha2::{Digest, Sha256};
use url::Url;

use super::{Grant, Iss, Shared, TokenRequest};

type Answer = Response<Full<Bytes>>;

/// Routes one request.
pub(super) async fn respond(
    request: Request<Incoming>,
    shared: Arc<Shared>,
) -> Result<Answer, Infallible> {
    let config = &shared.config;
    let (head, body) = request.into_parts();
    let body = body
        .collect()
        .await
        .map(|b| b.to_bytes())
        .unwrap_or_default();
    let answer = match (&head.method, head.uri.path()) {
        (&Method::POST, "/mcp") => resource(&shared, &head),
        (&Method::GET, "/.well-known/oauth-protected-resource/mcp") if config.resource_metadata => {
            let mut document = json!({
                "resource": format!("{}/mcp", shared.base),
                "authorization_servers": [shared.authorization_server.lock().unwrap().clone()],
            });
            if let Some(scopes) = &config.resource_scopes {
                document["scopes_supported"] = json!(scopes);
            }
            json_answer(200, &document)
        }
        (&Method::GET, "/.well-known/oauth-authorization-server") if config.server_metadata => {
            json_answer(200, &server_metadata(&shared))
        }
        (&Method::POST, "/register") if config.registration => register(&shared, &body),
        (&Method::GET, "/authorize") => authorize(&shared, head.uri.query().unwrap_or_default()),
        (&Method::POST, "/token") => {
            let authorization = head
                .headers
                .get(AUTHORIZATION)
                .map(|v| v.to_str().unwrap().to_owned());
            token(&shared, &body, authorization)
        }
        _ => plain(404),
    };
    Ok(answer)
}

fn server_metadata(shared: &Shared) -> Value {
    let (config, base) = (&shared.config, &shared.base);
    let mut document = json!({
        "issuer": base,
        "authorization_endpoint": format!("{base}/authorize"),
        "token_endpoint": format!("{base}/token"),
        "response_types_supported": ["code"],
        "grant_types_supported": ["authorization_code", "refresh_token"],
        "token_endpoint_auth_methods_supported": config.auth_methods,
        "authorization_response_iss_parameter_supported": true,
        "client_id_metadata_document_supported": config.metadata_documents,
    });
    if config.registration {
        document["registration_endpoint"] = json!(format!("{base}/register"));
    }
    if let Some(methods) = &config.pkce_methods {
        document["code_challenge_methods_supported"] = json!(methods);
    }
    if let Some(scopes) = &config.server_scopes {
        document["scopes_supported"] = json!(scopes);
    }
    document
}

/// `POST /mcp`: 401 without a token this resource accepts, 403 when it lacks a scope the
/// request's `x-need` header names.
fn resource(shared: &Shared, head: &http::request::Parts) -> Answer {
    let sent = head
        .headers
        .get(AUTHORIZATION)
        .map(|v| v.to_str().unwrap().to_owned());
    shared
        .record
        .lock()
        .unwrap()
        .mcp_requests
        .push(sent.clone());
    let metadata = format!(
        r#"resource_metadata="{}/.well-known/oauth-protected-resource/mcp""#,
        shared.base
    );
    let granted = sent
        .as_deref()
        .and_then(|value| value.strip_prefix("Bearer "))
        .and_then(|token| shared.book.lock().unwrap().get(token).cloned())
        .filter(|(issuer, _)| *issuer == *shared.authorization_server.lock().unwrap());
    let Some((_, scopes)) = granted else {
        let mut challenge = "Bearer".to_owned();
        if shared.config.resource_metadata {
            challenge.push_str(&format!(" {metadata}"));
        }
        if let Some(scope) = shared.config.challenge_scope {
            let separator = if challenge.contains('=') { "," } else { "" };
            challenge.push_str(&format!(r#"{separator} scope="{scope}""#));
        }
        return refusal(401, &challenge);
    };
    let need = head
        .headers
        .get("x-need")
        .map(|v| v.to_str().unwrap().to_owned())
        .unwrap_or_default();
    if need
        .split(' ')
        .any(|scope| !scope.is_empty() && !scopes.contains(scope))
    {
        let challenge = format!(r#"Bearer error="insufficient_scope", scope="{need}", {metadata}"#);
        return refusal(403, &challenge);
    }
    json_answer(200, &json!({}))
}

fn register(shared: &Shared, body: &[u8]) -> Answer {
    let request: Value = serde_json::from_slice(body).unwrap_or(Value::Null);
    shared.record.lock().unwrap().registrations.push(request);
    let (client_id, secret, method) = shared.config.registered;
    let mut answer = json!({ "client_id": client_id, "redirect_uris": [super::REDIRECT_URI] });
    if let Some(secret) = secret {
        answer["client_secret"] = json!(secret);
    }
    if let Some(method) = method {
        answer["token_endpoint_auth_method"] = json!(method);
    }
    json_answer(201, &answer)
}

/// `GET /authorize`: grants at once, redirecting with a code.
fn authorize(shared: &Shared, query: &str) -> Answer {
    let params: HashMap<String, String> = url::form_urlencoded::parse(query.as_bytes())
        .into_owned()
        .collect();
    shared
        .record
        .lock()
        .unwrap()
        .authorizations
        .push(params.clone());
    let scopes = params
        .get("scope")
        .map(|scope| scope.split(' ').map(str::to_owned).collect())
        .unwrap_or_default();
    let code = format!("code-{}", shared.issued.fetch_add(1, Ordering::SeqCst));
    let grant = Grant {
        scopes,
        challenge: params.get("code_challenge").cloned(),
    };
    shared.codes.lock().unwrap().insert(code.clone(), grant);
    let mut redirect = Url::parse(&params["redirect_uri"]).unwrap();
    redirect.query_pairs_mut().append_pair("code", &code);
    if let Some(state) = params.get("state") {
        redirect.query_pairs_mut().append_pair("state", state);
    }
    match shared.config.iss {
        Iss::Correct => {
            redirect.query_pairs_mut().append_pair("iss", &shared.base);
        }
        Iss::Wrong => {
            redirect
                .query_pairs_mut()
                .append_pair("iss", "https://evil.example.com");
        }
        Iss::Omitted => {}
    }
    let mut answer = plain(302);
    answer
        .headers_mut()
        .insert(LOCATION, redirect.as_str().parse().unwrap());
    answer
}

/// `POST /token`: the code (its PKCE verifier checked) or a refresh token (used once), for
/// new tokens.
fn token(shared: &Shared, body: &[u8], authorization: Option<String>) -> Answer {
    let form: HashMap<String, String> = url::form_urlencoded::parse(body).into_owned().collect();
    let grant = match form.get("grant_type").map(String::as_str) {
        Some("authorization_code") => {
            let grant = form
                .get("code")
                .and_then(|code| shared.codes.lock().unwrap().remove(code));
            grant.filter(|grant| {
                let verifier = form.get("code_verifier").cloned().unwrap_or_default();
                let computed = URL_SAFE_NO_PAD.encode(Sha256::digest(verifier.as_bytes()));
                grant.challenge.as_deref() == Some(computed.as_str())
            })
        }
        Some("refresh_token") => form
            .get("refresh_token")
            .and_then(|token| shared.refresh_tokens.lock().unwrap().remove(token)),
        _ => None,
    };
    let answer = match grant {
        Some(grant) => json_answer(200, &issue(shared, grant)),
        None => json_answer(400, &json!({"error": "invalid_grant"})),
    };
    let status = answer.status().as_u16();
    shared
        .record
        .lock()
        .unwrap()
        .token_requests
        .push(TokenRequest {
            form,
            authorization,
            status,
        });
    answer
}

/// New tokens for `grant`, less the withheld scope.
fn issue(shared: &Shared, mut grant: Grant) -> Value {
    let config = &shared.config;
    if let Some(withheld) = config.withheld_scope {
        grant.scopes.remove(withheld);
    }
    let number = shared.issued.fetch_add(1, Ordering::SeqCst);
    // The port makes it unique among fixtures sharing a token book.
    let port = shared.base.rsplit(':').next().unwrap_or_default();
    let access_token = format!("at-{port}-{number}");
    shared.book.lock().unwrap().insert(
        access_token.clone(),
        (shared.base.clone(), grant.scopes.clone()),
    );
    let scope = grant.scopes.iter().cloned().collect::<Vec<_>>().join(" ");
    let mut answer = json!({
        "access_token": access_token,
        "token_type": "Bearer",
        "expires_in": config.expires_in,
        "scope": scope,
    });
    if config.refresh_tokens {
        let refresh_token = format!("rt-{number}");
        let kept = Grant {
            scopes: grant.scopes.iter().cloned().collect::<BTreeSet<_>>(),
            challenge: None,
        };
        shared
            .refresh_tokens
            .lock()
            .unwrap()
            .insert(refresh_token.clone(), kept);
        answer["refresh_token"] = json!(refresh_token);
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

fn refusal(status: u16, challenge: &str) -> Answer {
    let mut answer = json_answer(status, &json!({"error": "refused"}));
    answer
        .headers_mut()
        .insert(WWW_AUTHENTICATE, challenge.parse().unwrap());
    answer
}

fn plain(status: u16) -> Answer {
    let mut answer = Response::new(Full::new(Bytes::new()));
    *answer.status_mut() = StatusCode::from_u16(status).unwrap();
    answer
}
