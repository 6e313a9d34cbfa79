//! Where a server may send the client: every authorization URL is `https` (plain `http` only
//! to a loopback host, and never for an `https` MCP server), and no private, link-local or
//! unspecified literal address is contacted unless the authorizer allows it. Each refusal comes
//! before anything is sent, and reads the same whatever is listening there.

mod hostile_server;

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use hostile_server::{Answer, HostileServer};
use serde_json::json;
use toolport_auth::{
    AuthorizationError, AuthorizationHandler, BearerChallenge, ClientAuthentication,
    DiscoveryError, EndpointPolicy, EndpointRefused, Grant, GrantAuthorizer, MetadataFetcher,
    MetadataResponse, OAuthAuthorizer, discover, discover_protected_resource,
};
use toolport_core::BoxError;
use url::Url;

#[path = "authorized_client/mod.rs"]
mod authorized_client;
use authorized_client::{AuthorizedClient, authorization_error};

/// A fetcher that answers from a table (404 otherwise) and records every URL it is asked for.
#[derive(Debug, Default)]
struct Table {
    documents: HashMap<String, serde_json::Value>,
    asked: Mutex<Vec<String>>,
}

impl Table {
    fn with(documents: &[(&str, serde_json::Value)]) -> Self {
        Self {
            documents: documents
                .iter()
                .map(|(url, document)| ((*url).to_owned(), document.clone()))
                .collect(),
            asked: Mutex::default(),
        }
    }

    fn asked(&self) -> Vec<String> {
        self.asked.lock().unwrap().clone()
    }
}

#[async_trait::async_trait]
impl MetadataFetcher for Table {
    async fn get(&self, url: &Url) -> Result<MetadataResponse, BoxError> {
        self.asked.lock().unwrap().push(url.to_string());
        Ok(match self.documents.get(url.as_str()) {
            Some(document) => MetadataResponse {
                status: 200,
                body: document.to_string().into(),
            },
            None => MetadataResponse {
                status: 404,
                body: Default::default(),
            },
        })
    }
}

const REMOTE_SERVER: &str = "https://mcp.example.com/mcp";

fn challenge_to(resource_metadata: &str) -> BearerChallenge {
    BearerChallenge::parse(&format!(
        r#"Bearer resource_metadata="{resource_metadata}""#
    ))
    .unwrap()
}

#[tokio::test]
async fn an_https_server_never_leads_to_http_discovery() {
    let server = Url::parse(REMOTE_SERVER).unwrap();
    let policy = EndpointPolicy::for_resource(&server);

    // The challenge points at plain http: refused before it is asked.
    let table = Table::default();
    let challenge = challenge_to("http://mcp.example.com/.well-known/oauth-protected-resource");
    let error = discover_protected_resource(&table, &policy, &server, Some(&challenge))
        .await
        .unwrap_err();
    assert!(
        matches!(
            error,
            DiscoveryError::Refused(EndpointRefused::HttpsDowngrade { .. })
        ),
        "{error}"
    );
    assert_eq!(
        error.to_string(),
        "http://mcp.example.com/.well-known/oauth-protected-resource is refused: the MCP server \
         is served over https, so its authorization server must be too"
    );
    assert!(table.asked().is_empty());

    // The resource names an authorization server on plain http: its metadata is not asked.
    let table = Table::with(&[(
        "https://mcp.example.com/.well-known/oauth-protected-resource/mcp",
        json!({"resource": REMOTE_SERVER, "authorization_servers": ["http://auth.example.com"]}),
    )]);
    let error = discover(&table, &policy, &server, None).await.unwrap_err();
    assert!(
        matches!(
            error,
            DiscoveryError::Refused(EndpointRefused::HttpsDowngrade { .. })
        ),
        "{error}"
    );
    assert_eq!(
        table.asked(),
        ["https://mcp.example.com/.well-known/oauth-protected-resource/mcp"]
    );
}

#[tokio::test]
async fn private_link_local_and_unspecified_literals_are_refused_with_one_text() {
    let server = Url::parse(REMOTE_SERVER).unwrap();
    let policy = EndpointPolicy::for_resource(&server);
    // Something listens on one loopback port and nothing on the other: the client cannot be
    // used to tell them apart.
    let listening = HostileServer::start().await;
    listening.route("/meta", Answer::Json(json!({"resource": REMOTE_SERVER})));
    let closed = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let listening_port = listening.base.rsplit(':').next().unwrap().to_owned();
    let targets = [
        "https://10.0.0.1/meta".to_owned(),
        "https://192.168.0.10/meta".to_owned(),
        "https://169.254.169.254/meta".to_owned(),
        "https://[fe80::1]/meta".to_owned(),
        "https://0.0.0.0/meta".to_owned(),
        format!("https://127.0.0.1:{listening_port}/meta"),
        format!("https://127.0.0.1:{closed}/meta"),
    ];

    let table = Table::default();
    let mut causes = Vec::new();
    for target in &targets {
        let error =
            discover_protected_resource(&table, &policy, &server, Some(&challenge_to(target)))
                .await
                .unwrap_err();
        assert!(
            matches!(
                error,
                DiscoveryError::Refused(EndpointRefused::RestrictedAddress { .. })
            ),
            "{error}"
        );
        let text = error.to_string();
        let cause = text
            .strip_prefix(&format!("{target} is refused: "))
            .unwrap_or_else(|| panic!("{text}"));
        causes.push(cause.to_owned());
    }
    causes.dedup();
    assert_eq!(causes.len(), 1, "{causes:?}");
    assert!(causes[0].contains("allow_private_addresses"), "{causes:?}");
    assert!(table.asked().is_empty());
    assert!(listening.seen().is_empty());

    // Allowed, the same URLs are asked for.
    let allowing = policy.allow_private_addresses(true);
    let _ =
        discover_protected_resource(&table, &allowing, &server, Some(&challenge_to(&targets[2])))
            .await;
    assert_eq!(table.asked(), ["https://169.254.169.254/meta"]);
}

/// A handler that records every URL it is given, and never authorizes.
#[derive(Debug, Clone)]
struct Recording {
    redirect_uri: Url,
    given: Arc<Mutex<Vec<Url>>>,
}

impl Recording {
    fn new() -> Self {
        Self {
            redirect_uri: Url::parse("http://127.0.0.1:3000/callback").unwrap(),
            given: Arc::default(),
        }
    }
}

#[async_trait::async_trait]
impl AuthorizationHandler for Recording {
    fn redirect_uri(&self) -> &Url {
        &self.redirect_uri
    }

    async fn authorize(&self, authorization_url: &Url) -> Result<Url, BoxError> {
        self.given.lock().unwrap().push(authorization_url.clone());
        Err("the test's handler never authorizes".into())
    }
}

/// The authorization and token endpoints of an authorization server, given its origin.
type Endpoints = fn(&str) -> (String, String);

/// An MCP server (on loopback) naming an authorization server (on loopback too) whose metadata
/// names the authorization and token endpoints `endpoints` gives for its origin.
async fn servers_with_endpoints(endpoints: Endpoints) -> (HostileServer, HostileServer) {
    let resource = HostileServer::start().await;
    let authorization_server = HostileServer::start().await;
    resource.serve_resource_naming(&authorization_server.base);
    let (authorization_endpoint, token_endpoint) = endpoints(&authorization_server.base);
    authorization_server.route(
        "/.well-known/oauth-authorization-server",
        Answer::Json(json!({
            "issuer": authorization_server.base,
            "authorization_endpoint": authorization_endpoint,
            "token_endpoint": token_endpoint,
            "registration_endpoint": authorization_server.url("/register"),
            "code_challenge_methods_supported": ["S256"],
            "token_endpoint_auth_methods_supported": ["none"],
        })),
    );
    (resource, authorization_server)
}

#[tokio::test]
async fn endpoints_the_metadata_names_are_checked_before_the_flow_sends_anything() {
    let cases: [(Endpoints, &str); 4] = [
        (
            |base| ("file:///etc/passwd".into(), format!("{base}/token")),
            "a `file:` URL is refused",
        ),
        (
            |base| ("javascript:alert(1)".into(), format!("{base}/token")),
            "a `javascript:` URL is refused",
        ),
        (
            |base| {
                (
                    format!("{base}/authorize"),
                    "https://169.254.169.254/token".into(),
                )
            },
            "https://169.254.169.254/token is refused",
        ),
        (
            |base| {
                (
                    format!("{base}/authorize"),
                    "http://auth.example.com/token".into(),
                )
            },
            "http://auth.example.com/token is refused",
        ),
    ];
    for (endpoints, refused) in cases {
        let (resource, authorization_server) = servers_with_endpoints(endpoints).await;
        let handler = Recording::new();
        let authorizer = OAuthAuthorizer::builder(&resource.url("/mcp"))
            .handler(handler.clone())
            .build()
            .unwrap();
        let client = AuthorizedClient::with_authorizer(authorizer, &resource.url("/mcp"));

        let error = client.call().await.unwrap_err();

        assert!(
            matches!(
                authorization_error(&error),
                AuthorizationError::EndpointRefused(_)
            ),
            "{error}"
        );
        assert!(error.to_string().contains(refused), "{error}");
        assert!(
            handler.given.lock().unwrap().is_empty(),
            "no handler saw it"
        );
        assert!(
            authorization_server.beyond_metadata().is_empty(),
            "no registration: {:?}",
            authorization_server.seen()
        );
    }
}

#[tokio::test]
async fn a_grant_never_posts_to_a_link_local_token_endpoint() {
    let (resource, authorization_server) = servers_with_endpoints(|base| {
        (
            format!("{base}/authorize"),
            "https://[fe80::1]/token".into(),
        )
    })
    .await;
    let grant = Grant::client_credentials(ClientAuthentication::public("agent"));
    let authorizer = GrantAuthorizer::builder(&resource.url("/mcp"), grant)
        .build()
        .unwrap();
    let client = AuthorizedClient::with_authorizer(authorizer, &resource.url("/mcp"));

    let error = client.call().await.unwrap_err();

    match authorization_error(&error) {
        AuthorizationError::EndpointRefused(EndpointRefused::RestrictedAddress { url }) => {
            assert_eq!(url, "https://[fe80::1]/token");
        }
        other => panic!("not a refusal: {other}"),
    }
    assert!(authorization_server.beyond_metadata().is_empty());
}
