//! A `ConnectorFactory` of the caller's: a fleet whose servers use a transport Toolport does
//! not know (MCP over Unix sockets, written in the test), beside the standard ones; and an
//! authorizer for one server's HTTP requests alone.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use serde_json::json;
use tokio::net::UnixListener;
use toolport_core::BoxError;
use toolport_core::{ConnectContext, ConnectError, Connection, Connector};
use toolport_fixtures::{HttpFixtureServer, LabServer};
use toolport_http_client::{Authorizer, Refusal, RequestTarget, WithHttpOptions};
use toolport_manager::{
    ConfigError, ConnectorFactory, McpConfig, McpServerManager, ServerStatus, ServerToConnect,
    StandardConnectors, TransportConfig,
};
use toolport_testkit::{TaskTracker, bounded, serve};
use toolport_tools::Tool as _;

mod common;
use common::scratch_dir;

/// MCP over a Unix socket: the user's own transport, in the ~20 lines it takes.
#[derive(Debug)]
struct UnixSocket(PathBuf);

#[async_trait::async_trait]
impl Connector for UnixSocket {
    async fn connect(&self, _: &ConnectContext) -> Result<Connection, ConnectError> {
        let stream = tokio::net::UnixStream::connect(&self.0)
            .await
            .map_err(ConnectError::unreachable)?;
        let (read, write) = stream.into_split();
        Ok(toolport_stdio::StreamTransport::new(read, write).into_connection())
    }

    fn target(&self) -> String {
        format!("`{}` over a Unix socket", self.0.display())
    }
}

/// Makes `"type": "unix"` entries' connectors from their `path`, and leaves the rest to the
/// standard connectors.
#[derive(Debug)]
struct WithUnixSockets;

impl ConnectorFactory for WithUnixSockets {
    fn connector(&self, server: &ServerToConnect<'_>) -> Result<Arc<dyn Connector>, ConfigError> {
        let config = server.config();
        if !matches!(&config.transport, TransportConfig::Custom { kind } if kind == "unix") {
            return StandardConnectors.connector(server);
        }
        let path = config
            .other_fields()
            .get("path")
            .and_then(|path| path.as_str());
        let path = path.ok_or_else(|| server.error("`path` is missing: the socket's path"))?;
        Ok(Arc::new(UnixSocket(server.expand("path", path)?.into())))
    }
}

/// A task tracker on every connection to a socket at `path`.
fn serve_task_trackers(path: &PathBuf) {
    let listener = UnixListener::bind(path).unwrap();
    tokio::spawn(async move {
        while let Ok((stream, _)) = listener.accept().await {
            tokio::spawn(serve(TaskTracker::new(), stream));
        }
    });
}

#[tokio::test]
async fn a_fleet_runs_on_a_transport_of_the_callers_own_beside_the_standard_ones() {
    let dir = scratch_dir("unix-sockets");
    serve_task_trackers(&dir.join("tasks.sock"));
    serve_task_trackers(&dir.join("chores.sock"));
    let text = json!({"mcpServers": {
        "tasks": {"type": "unix", "path": "${SOCKETS}/tasks.sock"},
        "chores": {"type": "unix", "path": "${SOCKETS}/chores.sock", "required": true},
        "pathless": {"type": "unix"},
        "chat": {"type": "websocket", "url": "ws://127.0.0.1:9/chat"},
    }});
    let config = McpConfig::parse(&text.to_string(), "mcp.json").unwrap();
    let sockets = dir.display().to_string();
    let manager = McpServerManager::builder()
        .config(config)
        .connectors(WithUnixSockets)
        .env_lookup(move |name| (name == "SOCKETS").then(|| sockets.clone()))
        .startup_grace(Duration::MAX)
        .build();

    let report = bounded("start_all", manager.start_all()).await;
    let mut failures: Vec<String> = report.failures().map(ToString::to_string).collect();
    failures.sort();
    assert_eq!(
        failures,
        [
            "server `chat`: `type` is `websocket`, which Toolport does not know: expected \
             `stdio`, `http` (Streamable HTTP) or `sse`, or give the manager a \
             `ConnectorFactory` that makes `websocket` connectors",
            "server `pathless`: `path` is missing: the socket's path",
        ]
    );
    assert_eq!(report.started(), 2);
    for id in ["tasks", "chores"] {
        assert_eq!(manager.status(id).unwrap(), ServerStatus::Running, "{id}");
    }

    let tools = bounded("tools", manager.managed_tools(None)).await.unwrap();
    let mut names: Vec<&str> = tools.iter().map(|tool| tool.name()).collect();
    names.sort_unstable();
    assert_eq!(
        names,
        [
            "chores__add_task",
            "chores__complete_task",
            "chores__list_tasks",
            "tasks__add_task",
            "tasks__complete_task",
            "tasks__list_tasks",
        ]
    );
    let add = bounded("tool", manager.tool("chores__add_task", None))
        .await
        .unwrap();
    let added = bounded("call", add.call(json!({"title": "Water the plants"}), None))
        .await
        .unwrap();
    assert_eq!(added.value["title"], "Water the plants");

    // A restart makes the connector afresh, through the same factory.
    bounded("restart", manager.restart("tasks")).await.unwrap();
    assert_eq!(manager.status("tasks").unwrap(), ServerStatus::Running);
    bounded("shutdown", manager.shutdown()).await;
}

/// A fixed bearer token, as an OAuth client would add one.
#[derive(Debug)]
struct Bearer(&'static str);

#[async_trait::async_trait]
impl Authorizer for Bearer {
    async fn authorize(
        &self,
        _: RequestTarget<'_>,
        headers: &mut http::HeaderMap,
    ) -> Result<(), BoxError> {
        headers.insert("authorization", format!("Bearer {}", self.0).parse()?);
        Ok(())
    }

    async fn renew(&self, _: Refusal<'_>) -> Result<bool, BoxError> {
        Ok(false)
    }
}

/// Authorizes server `github`'s requests, and no other server's.
#[derive(Debug)]
struct GithubAuthorized;

impl ConnectorFactory for GithubAuthorized {
    fn connector(&self, server: &ServerToConnect<'_>) -> Result<Arc<dyn Connector>, ConfigError> {
        if server.id() != "github" {
            return StandardConnectors.connector(server);
        }
        let http = StandardConnectors::http(server)?.authorizer(Bearer("t0ken"));
        Ok(Arc::new(http))
    }
}

#[tokio::test]
async fn a_factory_gives_one_server_an_authorizer_and_the_others_none() {
    let github = bounded("start", HttpFixtureServer::start(LabServer::new))
        .await
        .unwrap();
    github.require_bearer("t0ken");
    let docs = bounded("start", HttpFixtureServer::start(LabServer::new))
        .await
        .unwrap();
    let text = json!({"mcpServers": {
        "github": {"url": github.url(), "required": true},
        "docs": {"url": docs.url(), "required": true},
    }});
    let config = McpConfig::parse(&text.to_string(), "mcp.json").unwrap();
    let manager = McpServerManager::builder()
        .config(config)
        .connectors(GithubAuthorized)
        .build();
    let report = bounded("start_all", manager.start_all()).await;
    report.check_required().unwrap();

    let authorizations = |server: &HttpFixtureServer| -> Vec<Option<String>> {
        (server.requests().iter())
            .map(|request| request.header("authorization").map(str::to_owned))
            .collect()
    };
    let github_sent = authorizations(&github);
    assert!(!github_sent.is_empty());
    assert!(
        github_sent
            .iter()
            .all(|sent| sent.as_deref() == Some("Bearer t0ken")),
        "{github_sent:?}"
    );
    let docs_sent = authorizations(&docs);
    assert!(!docs_sent.is_empty());
    assert!(docs_sent.iter().all(Option::is_none), "{docs_sent:?}");
    bounded("shutdown", manager.shutdown()).await;
}
