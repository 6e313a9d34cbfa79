//! An in-process Streamable HTTP server (rmcp's `StreamableHttpService` serving a `LabServer`)
//! on 127.0.0.1, which records the requests it gets and stops when dropped.
#![allow(dead_code, reason = "each test file uses a different part")]

use std::convert::Infallible;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use http::{HeaderMap, Method, Request, Response, StatusCode};
use http_body_util::{BodyExt, Full, combinators::BoxBody};
use hyper::body::{Bytes, Incoming};
use hyper::service::service_fn;
use hyper_util::rt::TokioIo;
use rmcp::transport::StreamableHttpService;
use rmcp::transport::streamable_http_server::StreamableHttpServerConfig;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use tokio::net::TcpListener;
use tokio::task::JoinSet;
use toolport_testkit::LabServer;

/// Every wait in these tests is bounded by this.
pub const WAIT: Duration = Duration::from_secs(5);

/// What the server saw of one request.
#[derive(Debug, Clone)]
pub struct Seen {
    pub method: Method,
    pub headers: HeaderMap,
}

/// A refusal the server answers every request with, instead of serving MCP.
#[derive(Debug, Clone)]
pub struct Refuse {
    pub status: StatusCode,
    pub challenge: &'static str,
}

/// A running server; dropping it (or [`stop`](Self::stop)) closes the listener and every
/// open connection.
pub struct TestServer {
    pub addr: SocketAddr,
    pub lab: LabServer,
    pub seen: Arc<Mutex<Vec<Seen>>>,
    /// When set, every request is answered with this refusal instead of MCP.
    pub refuse: Arc<Mutex<Option<Refuse>>>,
    task: tokio::task::JoinHandle<()>,
}

impl TestServer {
    pub async fn start() -> Self {
        Self::start_on("127.0.0.1:0".parse().unwrap(), None).await
    }

    pub async fn refusing(refuse: Refuse) -> Self {
        Self::start_on("127.0.0.1:0".parse().unwrap(), Some(refuse)).await
    }

    /// Starts a fresh server (new state, new sessions) on `addr`.
    pub async fn start_on(addr: SocketAddr, refuse: Option<Refuse>) -> Self {
        let listener = TcpListener::bind(addr).await.expect("bind");
        let addr = listener.local_addr().unwrap();
        let lab = LabServer::new();
        let seen = Arc::new(Mutex::new(Vec::new()));
        let factory_lab = lab.clone();
        let service = StreamableHttpService::new(
            move || Ok(factory_lab.clone()),
            Arc::new(LocalSessionManager::default()),
            StreamableHttpServerConfig::default(),
        );
        let record = seen.clone();
        let refuse = Arc::new(Mutex::new(refuse));
        let refusing = refuse.clone();
        let task = tokio::spawn(async move {
            let mut connections = JoinSet::new();
            loop {
                let Ok((stream, _)) = listener.accept().await else {
                    break;
                };
                // As a real server should: no Nagle stall between SSE events.
                let _ = stream.set_nodelay(true);
                let service = service.clone();
                let record = record.clone();
                let refuse = refusing.clone();
                connections.spawn(async move {
                    let handler = service_fn(move |request: Request<Incoming>| {
                        record.lock().unwrap().push(Seen {
                            method: request.method().clone(),
                            headers: request.headers().clone(),
                        });
                        let mut service = service.clone();
                        let refuse = refuse.lock().unwrap().clone();
                        async move {
                            if let Some(refuse) = refuse {
                                return Ok::<_, Infallible>(refusal(&refuse));
                            }
                            tower_service::Service::call(&mut service, request).await
                        }
                    });
                    let _ = hyper::server::conn::http1::Builder::new()
                        .serve_connection(TokioIo::new(stream), handler)
                        .await;
                });
            }
        });
        Self {
            addr,
            lab,
            seen,
            refuse,
            task,
        }
    }

    pub fn url(&self) -> String {
        format!("http://{}/mcp", self.addr)
    }

    pub fn seen(&self) -> Vec<Seen> {
        self.seen.lock().unwrap().clone()
    }

    pub fn count(&self, method: Method) -> usize {
        self.seen()
            .iter()
            .filter(|seen| seen.method == method)
            .count()
    }

    /// Stops accepting and drops every connection, then waits until the port is free.
    pub async fn stop(mut self) -> SocketAddr {
        self.task.abort();
        let task = std::mem::replace(&mut self.task, tokio::spawn(async {}));
        let _ = task.await;
        // Let the client's pooled connections see the close, as they would after any real
        // restart; a request racing the close on a reused connection fails (its outcome unknown).
        // 500 ms leaves room for a loaded CI machine.
        tokio::time::sleep(Duration::from_millis(500)).await;
        self.addr
    }
}

impl Drop for TestServer {
    fn drop(&mut self) {
        self.task.abort();
    }
}

fn refusal(refuse: &Refuse) -> Response<BoxBody<Bytes, Infallible>> {
    Response::builder()
        .status(refuse.status)
        .header(http::header::WWW_AUTHENTICATE, refuse.challenge)
        .body(Full::new(Bytes::from_static(b"no")).boxed())
        .unwrap()
}
