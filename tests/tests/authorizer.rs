//! The authorizer seam over both HTTP transports: a request the server refuses gets one
//! renewal and one more try with the new credential; a renewal that gives up leaves the
//! refusal as the caller's error.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use http::header::AUTHORIZATION;
use http::{HeaderMap, HeaderValue};
use toolport::http::{HttpServer, WithHttpOptions};
use toolport::sse::SseServer;
use toolport::{Authorizer, BoxError, McpSession, Refusal, RequestTarget, SessionError};
use toolport_fixtures::{HttpFixtureServer, LabServer, LegacySseFixtureServer};
use toolport_testkit::bounded;

const TOKEN: &str = "granted-on-refusal";

/// Has no credential until the first refusal; then, if willing, grants [`TOKEN`]. Counts the
/// renewals and remembers what each refused request carried.
#[derive(Debug, Default)]
struct GrantOnRefusal {
    unwilling: bool,
    granted: Mutex<bool>,
    renewals: AtomicUsize,
    refused_carrying: Mutex<Vec<Option<String>>>,
}

#[toolport::async_trait]
impl Authorizer for GrantOnRefusal {
    async fn authorize(
        &self,
        _request: RequestTarget<'_>,
        headers: &mut HeaderMap,
    ) -> Result<(), BoxError> {
        if *self.granted.lock().unwrap() {
            let value = HeaderValue::from_str(&format!("Bearer {TOKEN}"))?;
            headers.insert(AUTHORIZATION, value);
        }
        Ok(())
    }

    async fn renew(&self, refusal: Refusal<'_>) -> Result<bool, BoxError> {
        self.renewals.fetch_add(1, Ordering::SeqCst);
        let carried = refusal.sent.map(|v| v.to_str().unwrap_or("?").to_owned());
        self.refused_carrying.lock().unwrap().push(carried);
        if self.unwilling {
            return Ok(false);
        }
        *self.granted.lock().unwrap() = true;
        Ok(true)
    }
}

async fn streamable_http() -> (HttpFixtureServer, String) {
    let server = bounded("start", HttpFixtureServer::start(LabServer::new))
        .await
        .unwrap();
    server.require_bearer(TOKEN);
    let url = server.url();
    (server, url)
}

async fn legacy_sse() -> (LegacySseFixtureServer, String) {
    let server = bounded("start", LegacySseFixtureServer::start(LabServer::new))
        .await
        .unwrap();
    server.require_bearer(TOKEN);
    let url = server.url();
    (server, url)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_refused_request_is_sent_again_once_the_authorizer_renews() {
    let (_http, http_url) = streamable_http().await;
    let (_sse, sse_url) = legacy_sse().await;
    let over_http = Arc::new(GrantOnRefusal::default());
    let over_sse = Arc::new(GrantOnRefusal::default());
    let sessions = [
        McpSession::new(HttpServer::new(http_url).authorizer(over_http.clone())),
        McpSession::new(SseServer::new(sse_url).authorizer(over_sse.clone())),
    ];
    for (session, authorizer) in sessions.iter().zip([&over_http, &over_sse]) {
        let tools = bounded("tools/list", session.list_tools()).await.unwrap();
        assert!(!tools.is_empty());
        assert_eq!(
            authorizer.renewals.load(Ordering::SeqCst),
            1,
            "one refusal, one renewal"
        );
        assert_eq!(*authorizer.refused_carrying.lock().unwrap(), [None]);
        session.close().await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_renewal_that_gives_up_leaves_the_refusal_to_the_caller() {
    let (_http, http_url) = streamable_http().await;
    let (_sse, sse_url) = legacy_sse().await;
    let unwilling = || GrantOnRefusal {
        unwilling: true,
        ..GrantOnRefusal::default()
    };
    let sessions = [
        McpSession::new(HttpServer::new(http_url).authorizer(unwilling())),
        McpSession::new(SseServer::new(sse_url).authorizer(unwilling())),
    ];
    for session in &sessions {
        match bounded("tools/list", session.list_tools()).await {
            Err(SessionError::Unauthorized { refusal, .. }) => assert_eq!(refusal.status, 401),
            other => panic!("expected the 401 to stand, got {other:?}"),
        }
        session.close().await;
    }
}
