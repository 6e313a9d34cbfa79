//! A fixture for the OAuth tests: one server on 127.0.0.1 that is an MCP-like protected
//! resource (`POST /mcp`), its protected-resource metadata, and an authorization server
//! (metadata, registration, authorization and token endpoints). What it serves is set by a
//! [`Config`]; every request it gets is kept in a [`Record`].

#![allow(
    dead_code,
    unused_imports,
    reason = "each test file uses a part of the fixture"
)]

#[path = "../authorized_client/mod.rs"]
pub mod authorized_client;
pub mod client;
mod endpoints;
#[cfg(feature = "redis")]
pub mod redis_server;
pub mod replicas;

use std::collections::{BTreeSet, HashMap};
use std::sync::atomic::AtomicU32;
use std::sync::{Arc, Mutex, MutexGuard};

use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper_util::rt::TokioIo;
use serde_json::Value;
use tokio::net::TcpListener;
use tokio::task::JoinHandle;

/// The redirect URI the tests' handler registers (never listened on).
pub const REDIRECT_URI: &str = "http://localhost:3000/callback";

/// What `iss` the authorization endpoint's redirect carries.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Iss {
    /// The issuer.
    Correct,
    /// Another issuer.
    Wrong,
    /// None.
    Omitted,
}

/// How the fixture behaves. [`Config::default`] is a server the current spec describes: a
/// protected-resource metadata document, authorization-server metadata with PKCE S256 and
/// `iss`, dynamic registration answering a public client, Bearer tokens for an hour, no
/// refresh tokens.
#[derive(Debug, Clone)]
pub struct Config {
    /// Serve protected-resource metadata at `/.well-known/oauth-protected-resource/mcp`.
    pub resource_metadata: bool,
    /// Serve authorization-server metadata at `/.well-known/oauth-authorization-server`.
    pub server_metadata: bool,
    /// The resource's `scopes_supported`.
    pub resource_scopes: Option<Vec<&'static str>>,
    /// The `scope` of the 401 challenge.
    pub challenge_scope: Option<&'static str>,
    /// The authorization server's `scopes_supported`.
    pub server_scopes: Option<Vec<&'static str>>,
    /// `code_challenge_methods_supported`.
    pub pkce_methods: Option<Vec<&'static str>>,
    /// `token_endpoint_auth_methods_supported`.
    pub auth_methods: Vec<&'static str>,
    /// Advertise a registration endpoint.
    pub registration: bool,
    /// `client_id_metadata_document_supported`.
    pub metadata_documents: bool,
    /// What the redirect's `iss` is.
    pub iss: Iss,
    /// Issue refresh tokens (rotated on every refresh).
    pub refresh_tokens: bool,
    /// The tokens' `expires_in`.
    pub expires_in: u64,
    /// A scope asked for but never granted.
    pub withheld_scope: Option<&'static str>,
    /// The registration's answer: `client_id`, `client_secret`, `token_endpoint_auth_method`.
    pub registered: (&'static str, Option<&'static str>, Option<&'static str>),
}

impl Default for Config {
    fn default() -> Self {
        Self {
            resource_metadata: true,
            server_metadata: true,
            resource_scopes: None,
            challenge_scope: None,
            server_scopes: None,
            pkce_methods: Some(vec!["S256"]),
            auth_methods: vec!["none"],
            registration: true,
            metadata_documents: false,
            iss: Iss::Correct,
            refresh_tokens: false,
            expires_in: 3600,
            withheld_scope: None,
            registered: ("registered-client", None, Some("none")),
        }
    }
}

/// A token request as the fixture got it, and the status it answered.
#[derive(Debug, Clone)]
pub struct TokenRequest {
    /// The form parameters.
    pub form: HashMap<String, String>,
    /// The `Authorization` header.
    pub authorization: Option<String>,
    /// The answer's status.
    pub status: u16,
}

/// Everything the fixture was asked, in order.
#[derive(Debug, Default)]
pub struct Record {
    /// The registration requests' bodies.
    pub registrations: Vec<Value>,
    /// The authorization requests' query parameters.
    pub authorizations: Vec<HashMap<String, String>>,
    /// The token requests.
    pub token_requests: Vec<TokenRequest>,
    /// The `Authorization` header of each `POST /mcp`.
    pub mcp_requests: Vec<Option<String>>,
}

/// The access tokens the resource accepts: each with its issuer and scopes. Fixtures standing
/// for several authorization servers share one.
pub type TokenBook = Arc<Mutex<HashMap<String, (String, BTreeSet<String>)>>>;

/// What a code or a refresh token was granted for.
#[derive(Debug, Clone)]
struct Grant {
    scopes: BTreeSet<String>,
    challenge: Option<String>,
}

/// The state the endpoints share.
struct Shared {
    config: Config,
    base: String,
    /// The authorization server the resource metadata names, and whose tokens it accepts.
    authorization_server: Mutex<String>,
    record: Mutex<Record>,
    codes: Mutex<HashMap<String, Grant>>,
    refresh_tokens: Mutex<HashMap<String, Grant>>,
    book: TokenBook,
    issued: AtomicU32,
}

/// The running fixture; stops when dropped.
pub struct Fixture {
    shared: Arc<Shared>,
    task: JoinHandle<()>,
}

impl Fixture {
    /// Starts a fixture with a token book of its own.
    pub async fn start(config: Config) -> Self {
        Self::start_with(config, TokenBook::default()).await
    }

    /// Starts a fixture whose issued tokens go to (and whose resource reads) `book`.
    pub async fn start_with(config: Config, book: TokenBook) -> Self {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let base = format!("http://{}", listener.local_addr().unwrap());
        let shared = Arc::new(Shared {
            config,
            authorization_server: Mutex::new(base.clone()),
            base,
            record: Mutex::default(),
            codes: Mutex::default(),
            refresh_tokens: Mutex::default(),
            book,
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

    /// The authorization server's issuer: the fixture's origin.
    pub fn issuer(&self) -> &str {
        &self.shared.base
    }

    /// What the fixture was asked so far.
    pub fn record(&self) -> MutexGuard<'_, Record> {
        self.shared.record.lock().unwrap()
    }

    /// The token book.
    pub fn book(&self) -> TokenBook {
        self.shared.book.clone()
    }

    /// Makes the resource name `issuer` as its authorization server, and accept only its
    /// tokens.
    pub fn move_to(&self, issuer: &str) {
        *self.shared.authorization_server.lock().unwrap() = issuer.to_owned();
    }

    /// Makes the resource refuse every access token issued so far.
    pub fn revoke_access_tokens(&self) {
        self.shared.book.lock().unwrap().clear();
    }
}

impl Drop for Fixture {
    fn drop(&mut self) {
        self.task.abort();
    }
}
