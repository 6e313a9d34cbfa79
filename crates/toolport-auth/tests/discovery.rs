//! Authorization discovery against a metadata server on 127.0.0.1 that serves documents at
//! only some of the candidate URLs: which URLs are tried, in which order, what is found, and
//! where discovery stops (an issuer or resource that does not match, nothing found, a server
//! that errs or never answers).

use std::collections::HashMap;
use std::convert::Infallible;
use std::future::Future;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use bytes::Bytes;
use http::{Request, Response, StatusCode};
use http_body_util::Full;
use hyper::body::Incoming;
use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper_util::rt::TokioIo;
use serde_json::{Value, json};
use tokio::net::TcpListener;
use tokio::task::JoinHandle;
use toolport_auth::{
    BearerChallenge, DiscoveryError, EndpointPolicy, HttpMetadataFetcher, discover,
    discover_authorization_server, discover_protected_resource,
};
use toolport_http_client::HttpClient;
use url::Url;

/// How one path is answered.
#[derive(Clone)]
enum Answer {
    Json(Value),
    Status(u16),
    Text(&'static str),
    /// A `302 Found` to this URL.
    Redirect(String),
    /// Never answers (within any test's bound).
    Hang,
}

/// A metadata server: answers each path (with its query) from a table, 404 otherwise, and
/// records every path it is asked for, in order.
struct MetadataServer {
    base: String,
    seen: Arc<Mutex<Vec<String>>>,
    task: JoinHandle<()>,
}

impl MetadataServer {
    async fn start(routes: impl FnOnce(&str) -> Vec<(&'static str, Answer)>) -> Self {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let base = format!("http://{}", listener.local_addr().unwrap());
        let routes: Arc<HashMap<&'static str, Answer>> =
            Arc::new(routes(&base).into_iter().collect());
        let seen = Arc::new(Mutex::new(Vec::new()));
        let recorded = seen.clone();
        let task = tokio::spawn(async move {
            let mut connections = tokio::task::JoinSet::new();
            while let Ok((stream, _)) = listener.accept().await {
                let (routes, seen) = (routes.clone(), recorded.clone());
                let service =
                    service_fn(move |request| respond(request, routes.clone(), seen.clone()));
                connections
                    .spawn(http1::Builder::new().serve_connection(TokioIo::new(stream), service));
            }
        });
        Self { base, seen, task }
    }

    fn url(&self, path: &str) -> Url {
        Url::parse(&format!("{}{path}", self.base)).unwrap()
    }

    /// The policy for an MCP server on this server's origin (loopback, plain http).
    fn policy(&self) -> EndpointPolicy {
        EndpointPolicy::for_resource(&self.url("/mcp"))
    }

    fn seen(&self) -> Vec<String> {
        self.seen.lock().unwrap().clone()
    }
}

impl Drop for MetadataServer {
    fn drop(&mut self) {
        // The accept loop owns the connections' tasks, so this ends them all.
        self.task.abort();
    }
}

async fn respond(
    request: Request<Incoming>,
    routes: Arc<HashMap<&'static str, Answer>>,
    seen: Arc<Mutex<Vec<String>>>,
) -> Result<Response<Full<Bytes>>, Infallible> {
    let path = request
        .uri()
        .path_and_query()
        .map_or("/", |p| p.as_str())
        .to_owned();
    seen.lock().unwrap().push(path.clone());
    let mut location = None;
    let (status, body) = match routes.get(path.as_str()).cloned() {
        Some(Answer::Json(value)) => (200, value.to_string()),
        Some(Answer::Redirect(to)) => {
            location = Some(to);
            (302, String::new())
        }
        Some(Answer::Status(status)) => (status, String::new()),
        Some(Answer::Text(text)) => (200, text.to_owned()),
        Some(Answer::Hang) => {
            tokio::time::sleep(Duration::from_secs(3600)).await;
            (200, String::new())
        }
        None => (404, "not found".to_owned()),
    };
    let mut response = Response::new(Full::new(Bytes::from(body)));
    *response.status_mut() = StatusCode::from_u16(status).unwrap();
    if let Some(location) = location {
        response
            .headers_mut()
            .insert(http::header::LOCATION, location.parse().unwrap());
    }
    Ok(response)
}

fn fetcher() -> HttpMetadataFetcher {
    HttpMetadataFetcher::new(HttpClient::plain(Duration::from_secs(5)))
        .with_timeout(Duration::from_secs(5))
}

/// Runs `test` within a bound, so a hung discovery fails the test instead of stalling it.
async fn bounded<T>(test: impl Future<Output = T>) -> T {
    tokio::time::timeout(Duration::from_secs(20), test)
        .await
        .expect("the test did not finish in time")
}

fn authorization_server(issuer: &str) -> Value {
    json!({
        "issuer": issuer,
        "authorization_endpoint": format!("{issuer}/authorize"),
        "token_endpoint": format!("{issuer}/token"),
        "registration_endpoint": format!("{issuer}/register"),
        "response_types_supported": ["code"],
        "grant_types_supported": ["authorization_code", "refresh_token"],
        "code_challenge_methods_supported": ["S256"],
        "token_endpoint_auth_methods_supported": ["none"],
        "unknown_extension": {"ignored": true}
    })
}

#[tokio::test]
async fn the_root_resource_metadata_and_the_openid_path_appending_variant_are_found_last() {
    bounded(async {
        let server = MetadataServer::start(|base| {
            let issuer = format!("{base}/tenant1");
            vec![
                (
                    "/.well-known/oauth-protected-resource",
                    Answer::Json(json!({
                        "resource": base,
                        "authorization_servers": [issuer],
                        "scopes_supported": ["mcp:tools"],
                    })),
                ),
                (
                    "/tenant1/.well-known/openid-configuration",
                    Answer::Json(authorization_server(&issuer)),
                ),
            ]
        })
        .await;

        let found = discover(&fetcher(), &server.policy(), &server.url("/mcp"), None)
            .await
            .unwrap();

        assert_eq!(
            server.seen(),
            [
                "/.well-known/oauth-protected-resource/mcp",
                "/.well-known/oauth-protected-resource",
                "/.well-known/oauth-authorization-server/tenant1",
                "/.well-known/openid-configuration/tenant1",
                "/tenant1/.well-known/openid-configuration",
            ]
        );
        assert_eq!(
            found.resource.url,
            server.url("/.well-known/oauth-protected-resource")
        );
        // Kept exactly as published: no `/` added to the pathless identifier.
        assert_eq!(found.resource.metadata.resource, server.base);
        assert_eq!(
            found.resource.metadata.scopes_supported,
            Some(vec!["mcp:tools".to_owned()])
        );
        let metadata = &found.authorization_server.metadata;
        assert_eq!(
            found.authorization_server.url,
            server.url("/tenant1/.well-known/openid-configuration")
        );
        assert_eq!(metadata.issuer, format!("{}/tenant1", server.base));
        assert_eq!(
            metadata.token_endpoint,
            Some(format!("{}/tenant1/token", server.base))
        );
        assert_eq!(
            metadata.code_challenge_methods_supported,
            Some(vec!["S256".to_owned()])
        );
    })
    .await;
}

#[tokio::test]
async fn the_challenge_url_is_used_alone_and_the_openid_configuration_follows_oauth() {
    bounded(async {
        let server = MetadataServer::start(|base| {
            vec![
                // Served, but never asked for: the challenge names another URL.
                (
                    "/.well-known/oauth-protected-resource/mcp",
                    Answer::Json(json!({"resource": "https://wrong.example", "authorization_servers": ["https://wrong.example"]})),
                ),
                (
                    "/custom/metadata/location.json",
                    Answer::Json(json!({"resource": format!("{base}/mcp"), "authorization_servers": [base]})),
                ),
                ("/.well-known/openid-configuration", Answer::Json(authorization_server(base))),
            ]
        })
        .await;
        let header = format!(
            r#"Bearer resource_metadata="{}/custom/metadata/location.json", scope="files:read""#,
            server.base
        );
        let challenge = BearerChallenge::parse(&header).unwrap();

        let found = discover(&fetcher(), &server.policy(), &server.url("/mcp"), Some(&challenge)).await.unwrap();

        assert_eq!(
            server.seen(),
            [
                "/custom/metadata/location.json",
                "/.well-known/oauth-authorization-server",
                "/.well-known/openid-configuration",
            ]
        );
        assert_eq!(found.resource.metadata.resource, format!("{}/mcp", server.base));
        assert_eq!(found.authorization_server.metadata.issuer, server.base);
    })
    .await;
}

#[tokio::test]
async fn metadata_naming_another_issuer_is_refused_and_nothing_after_it_is_tried() {
    bounded(async {
        let server = MetadataServer::start(|base| {
            vec![
                (
                    "/.well-known/oauth-authorization-server",
                    Answer::Json(authorization_server("https://attacker.example.com")),
                ),
                (
                    "/.well-known/openid-configuration",
                    Answer::Json(authorization_server(base)),
                ),
            ]
        })
        .await;

        let error = discover_authorization_server(&fetcher(), &server.policy(), &server.base)
            .await
            .unwrap_err();

        assert!(
            matches!(error, DiscoveryError::IssuerMismatch { .. }),
            "{error}"
        );
        assert_eq!(
            error.to_string(),
            format!(
                "{}/.well-known/oauth-authorization-server: the metadata's issuer is \
                 https://attacker.example.com, not {}",
                server.base, server.base
            )
        );
        assert_eq!(server.seen(), ["/.well-known/oauth-authorization-server"]);
    })
    .await;
}

#[tokio::test]
async fn a_resource_that_is_not_the_server_is_refused() {
    bounded(async {
        let server = MetadataServer::start(|base| {
            vec![
                (
                    "/.well-known/oauth-protected-resource/mcp",
                    Answer::Json(json!({"resource": "https://evil.example.com/mcp", "authorization_servers": [base]})),
                ),
                (
                    "/.well-known/oauth-protected-resource",
                    Answer::Json(json!({"resource": base, "authorization_servers": [base]})),
                ),
            ]
        })
        .await;

        let error = discover(&fetcher(), &server.policy(), &server.url("/mcp"), None).await.unwrap_err();

        assert!(matches!(error, DiscoveryError::ResourceMismatch { .. }), "{error}");
        assert!(error.to_string().contains("https://evil.example.com/mcp"), "{error}");
        assert_eq!(server.seen(), ["/.well-known/oauth-protected-resource/mcp"]);
    })
    .await;
}

#[tokio::test]
async fn not_found_everywhere_lists_every_url_tried_without_the_query() {
    bounded(async {
        let server = MetadataServer::start(|_| Vec::new()).await;

        let error = discover_protected_resource(
            &fetcher(),
            &server.policy(),
            &server.url("/mcp?key=secret-1"),
            None,
        )
        .await
        .unwrap_err();
        let DiscoveryError::NotFound { tried } = &error else {
            panic!("{error}");
        };
        assert_eq!(
            tried,
            &[
                (
                    format!("{}/.well-known/oauth-protected-resource/mcp", server.base),
                    404
                ),
                (
                    format!("{}/.well-known/oauth-protected-resource", server.base),
                    404
                ),
            ]
        );
        assert!(!error.to_string().contains("secret-1"), "{error}");
        // RFC 9728 §3.1 keeps the query in the path variant's URL; the root has none.
        assert_eq!(
            server.seen(),
            [
                "/.well-known/oauth-protected-resource/mcp?key=secret-1",
                "/.well-known/oauth-protected-resource",
            ]
        );

        let error = discover_authorization_server(
            &fetcher(),
            &server.policy(),
            &format!("{}/tenant1", server.base),
        )
        .await
        .unwrap_err();
        let DiscoveryError::NotFound { tried } = &error else {
            panic!("{error}");
        };
        assert_eq!(tried.len(), 3);
        assert_eq!(server.seen().len(), 5);
    })
    .await;
}

#[tokio::test]
async fn a_list_without_an_authorization_server_is_refused() {
    bounded(async {
        let server = MetadataServer::start(|base| {
            vec![(
                "/.well-known/oauth-protected-resource",
                Answer::Json(json!({"resource": base, "authorization_servers": []})),
            )]
        })
        .await;

        let error = discover(&fetcher(), &server.policy(), &server.url("/"), None)
            .await
            .unwrap_err();

        assert!(
            matches!(error, DiscoveryError::NoAuthorizationServer { .. }),
            "{error}"
        );
        assert_eq!(server.seen(), ["/.well-known/oauth-protected-resource"]);
    })
    .await;
}

#[tokio::test]
async fn a_server_error_or_a_body_that_is_not_json_ends_discovery_at_that_url() {
    bounded(async {
        let server = MetadataServer::start(|_| {
            vec![
                (
                    "/.well-known/oauth-protected-resource/a",
                    Answer::Status(500),
                ),
                (
                    "/.well-known/oauth-protected-resource/b",
                    Answer::Text("<html>hello</html>"),
                ),
                (
                    "/.well-known/oauth-protected-resource/c",
                    Answer::Status(401),
                ),
            ]
        })
        .await;

        let error =
            discover_protected_resource(&fetcher(), &server.policy(), &server.url("/a"), None)
                .await
                .unwrap_err();
        assert!(
            matches!(error, DiscoveryError::Status { status: 500, .. }),
            "{error}"
        );

        let error =
            discover_protected_resource(&fetcher(), &server.policy(), &server.url("/b"), None)
                .await
                .unwrap_err();
        assert!(matches!(error, DiscoveryError::Invalid { .. }), "{error}");

        // Any client error moves on to the next URL, as a 404 does.
        let error =
            discover_protected_resource(&fetcher(), &server.policy(), &server.url("/c"), None)
                .await
                .unwrap_err();
        let DiscoveryError::NotFound { tried } = &error else {
            panic!("{error}");
        };
        assert_eq!(tried[0].1, 401);
        assert_eq!(tried[1].1, 404);
    })
    .await;
}

#[tokio::test]
async fn a_redirect_is_not_followed() {
    bounded(async {
        let server = MetadataServer::start(|base| {
            let moved = json!({"resource": format!("{base}/"), "authorization_servers": [base]});
            vec![
                (
                    "/.well-known/oauth-protected-resource",
                    Answer::Redirect(format!("{base}/moved")),
                ),
                ("/moved", Answer::Json(moved)),
            ]
        })
        .await;

        let error =
            discover_protected_resource(&fetcher(), &server.policy(), &server.url("/"), None)
                .await
                .unwrap_err();

        assert!(
            matches!(error, DiscoveryError::Status { status: 302, .. }),
            "{error}"
        );
        assert!(
            !server.seen().contains(&"/moved".to_owned()),
            "{:?}",
            server.seen()
        );
    })
    .await;
}

#[tokio::test]
async fn a_server_that_never_answers_is_bounded_by_the_timeout() {
    bounded(async {
        let server = MetadataServer::start(|_| {
            vec![("/.well-known/oauth-protected-resource", Answer::Hang)]
        })
        .await;
        let fetcher = fetcher().with_timeout(Duration::from_millis(200));

        let error = discover_protected_resource(&fetcher, &server.policy(), &server.url("/"), None)
            .await
            .unwrap_err();

        assert!(matches!(error, DiscoveryError::Fetch { .. }), "{error}");
        assert!(
            error.to_string().contains("no answer within 200ms"),
            "{error}"
        );
    })
    .await;
}

#[tokio::test]
async fn an_oversized_document_is_refused() {
    bounded(async {
        let big = "x".repeat(4096);
        let server = MetadataServer::start(move |base| {
            vec![(
                "/.well-known/oauth-protected-resource",
                Answer::Json(
                    json!({"resource": base, "authorization_servers": [base], "padding": big}),
                ),
            )]
        })
        .await;
        let fetcher = fetcher().with_limit(1024);

        let error = discover_protected_resource(&fetcher, &server.policy(), &server.url("/"), None)
            .await
            .unwrap_err();

        assert!(matches!(error, DiscoveryError::Fetch { .. }), "{error}");
        assert!(error.to_string().contains("1024 bytes"), "{error}");
    })
    .await;
}
