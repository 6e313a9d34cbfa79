//! A fixture for the DPoP tests: one server on 127.0.0.1 that is a protected resource
//! (`POST /mcp`) and its authorization server, checking DPoP proofs as RFC 9449 has a server
//! check them (signature by the `jwk` of the header, `typ`, `htm`, `htu`, `ath`, the key a token
//! is bound to), and asking for nonces when told. Every token request and resource request is
//! kept in a [`Record`] with its proof.

#[path = "../authorized_client/mod.rs"]
mod authorized_client;
pub mod client;
mod endpoints;
pub mod proof;

use std::collections::HashMap;
use std::sync::atomic::AtomicU32;
use std::sync::{Arc, Mutex, MutexGuard};

use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper_util::rt::TokioIo;
use tokio::net::TcpListener;
use tokio::task::JoinHandle;

/// The nonce the token endpoint asks for.
pub const AS_NONCE: &str = "as-nonce";
/// The nonce the resource asks for (with [`ResourceNonce::Fixed`]).
pub const RS_NONCE: &str = "rs-nonce";

/// Whether the resource asks proofs for a nonce.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ResourceNonce {
    /// No nonce.
    Off,
    /// [`RS_NONCE`], always the same.
    Fixed,
    /// A new one on every request, so no proof ever has the right one.
    Rotating,
}

/// How the fixture behaves. [`Config::default`] is an authorization server that advertises
/// ES256 proofs, with no nonces and no refresh tokens.
#[derive(Debug, Clone)]
pub struct Config {
    /// The authorization server's `dpop_signing_alg_values_supported`.
    pub algorithms: Option<Vec<&'static str>>,
    /// The resource metadata's `dpop_bound_access_tokens_required`.
    pub resource_requires_dpop: bool,
    /// The token endpoint asks for [`AS_NONCE`].
    pub token_nonce: bool,
    /// What the resource asks of a proof's nonce.
    pub resource_nonce: ResourceNonce,
    /// Issue refresh tokens (bound to the key of the proof, if any).
    pub refresh_tokens: bool,
    /// The tokens' `expires_in`.
    pub expires_in: u64,
}

impl Default for Config {
    fn default() -> Self {
        Self {
            algorithms: Some(vec!["ES256"]),
            resource_requires_dpop: false,
            token_nonce: false,
            resource_nonce: ResourceNonce::Off,
            refresh_tokens: false,
            expires_in: 3600,
        }
    }
}

/// A token request as the fixture got it.
#[derive(Debug, Clone)]
pub struct TokenRequest {
    /// Its `grant_type`.
    pub grant_type: String,
    /// Its `DPoP` header.
    pub proof: Option<String>,
    /// The answer's status.
    pub status: u16,
}

/// A `POST /mcp` as the fixture got it.
#[derive(Debug, Clone)]
pub struct ResourceRequest {
    /// Its `Authorization` header.
    pub authorization: Option<String>,
    /// Its `DPoP` header.
    pub proof: Option<String>,
    /// The answer's status.
    pub status: u16,
}

/// Everything the fixture was asked, in order.
#[derive(Debug, Default)]
pub struct Record {
    /// The token requests.
    pub token_requests: Vec<TokenRequest>,
    /// The resource requests.
    pub resource_requests: Vec<ResourceRequest>,
}

/// The state the endpoints share.
struct Shared {
    config: Config,
    base: String,
    record: Mutex<Record>,
    /// Each access token and refresh token issued, with the thumbprint of the key it is bound
    /// to (`None`: a Bearer token).
    bound: Mutex<HashMap<String, Option<String>>>,
    issued: AtomicU32,
}

/// The running fixture; stops when dropped.
pub struct Fixture {
    shared: Arc<Shared>,
    task: JoinHandle<()>,
}

impl Fixture {
    /// Starts a fixture.
    pub async fn start(config: Config) -> Self {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let base = format!("http://{}", listener.local_addr().unwrap());
        let shared = Arc::new(Shared {
            config,
            base,
            record: Mutex::default(),
            bound: Mutex::default(),
            issued: AtomicU32::new(0),
        });
        let serving = shared.clone();
        let task = tokio::spawn(async move {
            let mut connections = tokio::task::JoinSet::new();
            while let Ok((stream, _)) = listener.accept().await {
                let shared = serving.clone();
                let service =
                    service_fn(move |request| endpoints::respond(request, shared.clone()));
                connections
                    .spawn(http1::Builder::new().serve_connection(TokioIo::new(stream), service));
            }
        });
        Self { shared, task }
    }

    /// The MCP server's URL.
    pub fn server_url(&self) -> String {
        format!("{}/mcp", self.shared.base)
    }

    /// The token endpoint's URL.
    pub fn token_url(&self) -> String {
        format!("{}/token", self.shared.base)
    }

    /// What the fixture was asked so far.
    pub fn record(&self) -> MutexGuard<'_, Record> {
        self.shared.record.lock().unwrap()
    }
}

impl Drop for Fixture {
    fn drop(&mut self) {
        self.task.abort();
    }
}
