//! A scripted server on 127.0.0.1 for the tests of what a hostile MCP server cannot make the
//! client do: it answers each path from a table (404 otherwise) and records every request it
//! gets, with its `Authorization` header and body, so a test can show that nothing (or no
//! secret) reached it. One plays the MCP server, another the authorization server it names.

#![allow(dead_code, reason = "each test file uses a part of the fixture")]

use std::collections::HashMap;
use std::convert::Infallible;
use std::sync::{Arc, Mutex};

use bytes::Bytes;
use http::header::{AUTHORIZATION, CONTENT_TYPE, WWW_AUTHENTICATE};
use http::{Request, Response, StatusCode};
use http_body_util::{BodyExt, Full};
use hyper::body::Incoming;
use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper_util::rt::TokioIo;
use serde_json::{Value, json};
use tokio::net::TcpListener;
use tokio::task::JoinHandle;

/// How one path is answered.
#[derive(Debug, Clone)]
pub enum Answer {
    /// 200 with this JSON.
    Json(Value),
    /// 401 with this `WWW-Authenticate`.
    Challenge(String),
}

/// A request the server got.
#[derive(Debug, Clone)]
pub struct Seen {
    /// `GET`, `POST`, ...
    pub method: String,
    /// The path and query.
    pub path: String,
    /// The `Authorization` header.
    pub authorization: Option<String>,
    /// The body, as text.
    pub body: String,
}

/// The running server; stops when dropped.
pub struct HostileServer {
    /// `http://127.0.0.1:<port>`.
    pub base: String,
    routes: Arc<Mutex<HashMap<String, Answer>>>,
    seen: Arc<Mutex<Vec<Seen>>>,
    task: JoinHandle<()>,
}

impl HostileServer {
    /// Starts a server answering nothing but 404 until [`route`](Self::route) says otherwise.
    pub async fn start() -> Self {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let base = format!("http://{}", listener.local_addr().unwrap());
        let routes = Arc::new(Mutex::new(HashMap::new()));
        let seen = Arc::new(Mutex::new(Vec::new()));
        let (serving, recording) = (routes.clone(), seen.clone());
        let task = tokio::spawn(async move {
            let mut connections = tokio::task::JoinSet::new();
            while let Ok((stream, _)) = listener.accept().await {
                let (routes, seen) = (serving.clone(), recording.clone());
                let service =
                    service_fn(move |request| respond(request, routes.clone(), seen.clone()));
                connections
                    .spawn(http1::Builder::new().serve_connection(TokioIo::new(stream), service));
            }
        });
        Self {
            base,
            routes,
            seen,
            task,
        }
    }

    /// Answers `path` (with its query, if any) with `answer` from now on.
    pub fn route(&self, path: &str, answer: Answer) {
        self.routes.lock().unwrap().insert(path.to_owned(), answer);
    }

    /// `base` followed by `path`.
    pub fn url(&self, path: &str) -> String {
        format!("{}{path}", self.base)
    }

    /// Every request so far, in order.
    pub fn seen(&self) -> Vec<Seen> {
        self.seen.lock().unwrap().clone()
    }

    /// Plays an MCP server at `/mcp` that refuses every request with a challenge pointing at
    /// its protected-resource metadata, which names `issuer` as its authorization server.
    pub fn serve_resource_naming(&self, issuer: &str) {
        let metadata = self.url("/.well-known/oauth-protected-resource/mcp");
        self.route(
            "/mcp",
            Answer::Challenge(format!(r#"Bearer resource_metadata="{metadata}""#)),
        );
        self.route(
            "/.well-known/oauth-protected-resource/mcp",
            Answer::Json(json!({
                "resource": self.url("/mcp"),
                "authorization_servers": [issuer],
            })),
        );
    }

    /// Plays an authorization server whose issuer is its own origin, with every endpoint the
    /// flows use (none of which it answers but with 404) and every client authentication.
    pub fn serve_authorization_server(&self) {
        let base = &self.base;
        self.route(
            "/.well-known/oauth-authorization-server",
            Answer::Json(json!({
                "issuer": base,
                "authorization_endpoint": format!("{base}/authorize"),
                "token_endpoint": format!("{base}/token"),
                "registration_endpoint": format!("{base}/register"),
                "response_types_supported": ["code"],
                "code_challenge_methods_supported": ["S256"],
                "token_endpoint_auth_methods_supported":
                    ["client_secret_basic", "client_secret_post", "private_key_jwt", "none"],
            })),
        );
    }

    /// The requests that are not metadata `GET`s: what a client sends once it trusts a server.
    pub fn beyond_metadata(&self) -> Vec<Seen> {
        self.seen()
            .into_iter()
            .filter(|seen| !(seen.method == "GET" && seen.path.contains("/.well-known/")))
            .collect()
    }
}

impl Drop for HostileServer {
    fn drop(&mut self) {
        // The accept loop owns the connections' tasks, so this ends them all.
        self.task.abort();
    }
}

async fn respond(
    request: Request<Incoming>,
    routes: Arc<Mutex<HashMap<String, Answer>>>,
    seen: Arc<Mutex<Vec<Seen>>>,
) -> Result<Response<Full<Bytes>>, Infallible> {
    let (head, body) = request.into_parts();
    let body = body
        .collect()
        .await
        .map(|b| b.to_bytes())
        .unwrap_or_default();
    let path = head
        .uri
        .path_and_query()
        .map_or("/", |p| p.as_str())
        .to_owned();
    seen.lock().unwrap().push(Seen {
        method: head.method.to_string(),
        path: path.clone(),
        authorization: head
            .headers
            .get(AUTHORIZATION)
            .map(|v| v.to_str().unwrap_or_default().to_owned()),
        body: String::from_utf8_lossy(&body).into_owned(),
    });
    let answer = routes.lock().unwrap().get(&path).cloned();
    let response = match answer {
        Some(Answer::Json(value)) => {
            let mut response = Response::new(Full::new(Bytes::from(value.to_string())));
            response
                .headers_mut()
                .insert(CONTENT_TYPE, "application/json".parse().unwrap());
            response
        }
        Some(Answer::Challenge(challenge)) => {
            let mut response = Response::new(Full::new(Bytes::new()));
            *response.status_mut() = StatusCode::UNAUTHORIZED;
            response
                .headers_mut()
                .insert(WWW_AUTHENTICATE, challenge.parse().unwrap());
            response
        }
        None => {
            let mut response = Response::new(Full::new(Bytes::from_static(b"not found")));
            *response.status_mut() = StatusCode::NOT_FOUND;
            response
        }
    };
    Ok(response)
}
