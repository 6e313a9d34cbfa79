//! The grant tests' fixture: one server on 127.0.0.1 that is an MCP-like protected resource
//! (`POST /mcp`), its protected-resource metadata, an authorization server whose token
//! endpoint takes any grant, and an identity provider's token-exchange endpoint
//! (`POST /idp/token`). Every request it gets is kept in a [`Record`]; and a [`Client`] drives
//! a [`GrantAuthorizer`] against it as a transport does.

#![allow(dead_code, reason = "each test uses a part of the fixture")]

#[path = "../authorized_client/mod.rs"]
mod authorized_client;
use std::collections::{HashMap, HashSet};
use std::convert::Infallible;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use bytes::Bytes;
use http::header::{AUTHORIZATION, CONTENT_TYPE, WWW_AUTHENTICATE};
use http::{HeaderValue, Method, Request, Response};
use http_body_util::{BodyExt, Full};
use hyper::body::Incoming;
use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper_util::rt::TokioIo;
use serde_json::{Value, json};
use tokio::net::TcpListener;
use tokio::task::JoinHandle;
use toolport_auth::{GrantAuthorizer, GrantAuthorizerBuilder};

/// A P-256 key made for these tests only (`openssl genpkey -algorithm EC -pkeyopt
/// ec_paramgen_curve:P-256`), to sign client assertions.
pub const PRIVATE_KEY: &str = "-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgvFZ6X1rw2gdbzXBd
mGuINQL+8T37fUGFQdNVfibn5J+hRANCAAT5s65JMJVBHK8x2aVBkTuF9aOeT/lr
2ejOoN28TtyKL0HlXRDJsUkPS349QHR+ZO/LRPwGSSGjcA2+rf/QXDrW
-----END PRIVATE KEY-----
";

/// [`PRIVATE_KEY`]'s public key, to verify them.
pub const PUBLIC_KEY: &str = "-----BEGIN PUBLIC KEY-----
MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAE+bOuSTCVQRyvMdmlQZE7hfWjnk/5
a9nozqDdvE7cii9B5V0QybFJD0t+PUB0fmTvy0T8Bkkho3ANvq3/0Fw61g==
-----END PUBLIC KEY-----
";

/// The ID-JAG the identity provider issues.
pub const ID_JAG: &str = "the-id-jag";

/// The bound on every HTTP exchange of the tests.
const TIMEOUT: Duration = Duration::from_secs(5);

/// The `expires_in` of every token: an hour, which no test outlasts.
const TOKEN_LIFETIME_SECS: u64 = 3600;

/// How the fixture behaves. [`Config::default`]: both metadata documents, an authorization
/// server listing `client_secret_basic`, every grant answered.
#[derive(Debug, Clone)]
pub struct Config {
    /// Serve both metadata documents.
    pub metadata: bool,
    /// `token_endpoint_auth_methods_supported`.
    pub auth_methods: Vec<&'static str>,
    /// The `scope` of the 401 challenge.
    pub challenge_scope: Option<&'static str>,
    /// The token endpoint answers every request with this OAuth `error`.
    pub refuse: Option<&'static str>,
    /// The resource refuses every token.
    pub refuse_all_tokens: bool,
    /// The `issued_token_type` of the identity provider's answers.
    pub issued_token_type: &'static str,
}

impl Default for Config {
    fn default() -> Self {
        Self {
            metadata: true,
            auth_methods: vec!["client_secret_basic"],
            challenge_scope: None,
            refuse: None,
            refuse_all_tokens: false,
            issued_token_type: "urn:ietf:params:oauth:token-type:id-jag",
        }
    }
}

/// A token request as the fixture got it.
#[derive(Debug, Clone)]
pub struct TokenRequest {
    /// The form parameters.
    pub form: HashMap<String, String>,
    /// The `Authorization` header.
    pub authorization: Option<String>,
}

/// Everything the fixture was asked, in order.
#[derive(Debug, Default)]
pub struct Record {
    /// The paths of the metadata `GET`s.
    pub metadata_requests: Vec<String>,
    /// The requests to the authorization server's token endpoint.
    pub token_requests: Vec<TokenRequest>,
    /// The requests to the identity provider's token endpoint.
    pub exchanges: Vec<TokenRequest>,
    /// The `Authorization` header of each `POST /mcp`.
    pub mcp_requests: Vec<Option<String>>,
}

/// The state the endpoints share.
struct Shared {
    config: Config,
    base: String,
    record: Mutex<Record>,
    /// The access tokens the resource accepts.
    valid: Mutex<HashSet<String>>,
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
            valid: Mutex::default(),
        });
        let serving = shared.clone();
        let task = tokio::spawn(async move {
            let mut connections = tokio::task::JoinSet::new();
            while let Ok((stream, _)) = listener.accept().await {
                let shared = serving.clone();
                let service = service_fn(move |request| respond(request, shared.clone()));
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

    /// The identity provider's token endpoint.
    pub fn idp_token_url(&self) -> String {
        format!("{}/idp/token", self.shared.base)
    }

    /// What the fixture was asked so far.
    pub fn record(&self) -> MutexGuard<'_, Record> {
        self.shared.record.lock().unwrap()
    }

    /// Makes the resource refuse every access token issued so far.
    pub fn revoke_access_tokens(&self) {
        self.shared.valid.lock().unwrap().clear();
    }
}

impl Drop for Fixture {
    fn drop(&mut self) {
        self.task.abort();
    }
}

type Answer = Response<Full<Bytes>>;

/// Routes one request.
async fn respond(request: Request<Incoming>, shared: Arc<Shared>) -> Result<Answer, Infallible> {
    let (head, body) = request.into_parts();
    let body = body
        .collect()
        .await
        .map(|b| b.to_bytes())
        .unwrap_or_default();
    let authorization = head
        .headers
        .get(AUTHORIZATION)
        .map(|v| v.to_str().unwrap().to_owned());
    let (config, base) = (&shared.config, &shared.base);
    let path = head.uri.path();
    if head.method == Method::GET && path.starts_with("/.well-known/") {
        shared
            .record
            .lock()
            .unwrap()
            .metadata_requests
            .push(path.to_owned());
    }
    let answer = match (&head.method, path) {
        (&Method::POST, "/mcp") => resource(&shared, authorization),
        (&Method::GET, "/.well-known/oauth-protected-resource/mcp") if config.metadata => {
            json_answer(
                200,
                &json!({ "resource": format!("{base}/mcp"), "authorization_servers": [base] }),
            )
        }
        (&Method::GET, "/.well-known/oauth-authorization-server") if config.metadata => {
            json_answer(
                200,
                &json!({
                    "issuer": base,
                    "token_endpoint": format!("{base}/token"),
                    "grant_types_supported": ["client_credentials", "urn:ietf:params:oauth:grant-type:jwt-bearer"],
                    "token_endpoint_auth_methods_supported": config.auth_methods,
                }),
            )
        }
        (&Method::POST, "/token") => token(&shared, &body, authorization),
        (&Method::POST, "/idp/token") => exchange(&shared, &body, authorization),
        _ => json_answer(404, &json!({})),
    };
    Ok(answer)
}

/// `POST /mcp`: 200 for a token the resource accepts, else 401 with a Bearer challenge.
fn resource(shared: &Shared, authorization: Option<String>) -> Answer {
    shared
        .record
        .lock()
        .unwrap()
        .mcp_requests
        .push(authorization.clone());
    let token = authorization.and_then(|header| header.strip_prefix("Bearer ").map(str::to_owned));
    let accepted = token.is_some_and(|token| shared.valid.lock().unwrap().contains(&token));
    if accepted && !shared.config.refuse_all_tokens {
        return json_answer(200, &json!({ "ok": true }));
    }
    let mut challenge = format!(
        r#"Bearer resource_metadata="{}/.well-known/oauth-protected-resource/mcp""#,
        shared.base
    );
    if let Some(scope) = shared.config.challenge_scope {
        challenge.push_str(&format!(r#", scope="{scope}""#));
    }
    let mut answer = json_answer(401, &json!({ "error": "invalid_token" }));
    answer
        .headers_mut()
        .insert(WWW_AUTHENTICATE, HeaderValue::from_str(&challenge).unwrap());
    answer
}

/// `POST /token`: a new Bearer token for any grant, unless configured to refuse.
fn token(shared: &Shared, body: &[u8], authorization: Option<String>) -> Answer {
    let form = parse_form(body);
    let mut record = shared.record.lock().unwrap();
    record.token_requests.push(TokenRequest {
        form: form.clone(),
        authorization,
    });
    if let Some(error) = shared.config.refuse {
        return json_answer(
            400,
            &json!({ "error": error, "error_description": "refused by the fixture" }),
        );
    }
    let token = format!("token-{}", record.token_requests.len());
    shared.valid.lock().unwrap().insert(token.clone());
    let mut answer = json!({
        "access_token": token,
        "token_type": "Bearer",
        "expires_in": TOKEN_LIFETIME_SECS,
    });
    if let Some(scope) = form.get("scope") {
        answer["scope"] = json!(scope);
    }
    json_answer(200, &answer)
}

/// `POST /idp/token`: the ID-JAG, for any request.
fn exchange(shared: &Shared, body: &[u8], authorization: Option<String>) -> Answer {
    shared.record.lock().unwrap().exchanges.push(TokenRequest {
        form: parse_form(body),
        authorization,
    });
    json_answer(
        200,
        &json!({
            "access_token": ID_JAG,
            "issued_token_type": shared.config.issued_token_type,
            "token_type": "N_A",
        }),
    )
}

fn parse_form(body: &[u8]) -> HashMap<String, String> {
    url::form_urlencoded::parse(body).into_owned().collect()
}

fn json_answer(status: u16, body: &Value) -> Answer {
    Response::builder()
        .status(status)
        .header(CONTENT_TYPE, "application/json")
        .body(Full::new(Bytes::from(body.to_string())))
        .unwrap()
}

use authorized_client::AuthorizedClient;
pub use authorized_client::{authorization_error, bounded};

/// An MCP client of one fixture's resource, authorized by a [`GrantAuthorizer`].
pub type Client = AuthorizedClient<GrantAuthorizer>;

impl AuthorizedClient<GrantAuthorizer> {
    /// A client of `fixture`'s resource, authorized by `builder` (its timeout set here).
    pub fn new(fixture: &Fixture, builder: GrantAuthorizerBuilder) -> Self {
        let authorizer = builder.timeout(TIMEOUT).build().unwrap();
        Self::with_authorizer(authorizer, &fixture.server_url())
    }
}
