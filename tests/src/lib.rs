//! Where the tests that span crates find the real peers: servers nobody here wrote, installed
//! by `cargo xtask peers` (and so by `cargo xtask test`) under `target/peers/`.
//!
//! Each path comes from its `TOOLPORT_*` variable, which `cargo xtask test` sets, or else from
//! the default install location. A missing peer fails the test with instructions: the tests
//! never skip quietly.

use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use serde_json::{Value, json};
use toolport::stdio::StdioServer;
use toolport::{McpToolset, ToolOutput};

/// The reference server `@modelcontextprotocol/server-everything`, started in stdio mode.
pub fn server_everything_stdio() -> StdioServer {
    StdioServer::new(peer(
        "TOOLPORT_SERVER_EVERYTHING",
        "node/node_modules/.bin/mcp-server-everything",
    ))
    .arg("stdio")
}

/// The task tracker written with the official Python SDK (`mcp` 2.3.0), started in stdio mode.
pub fn python_task_tracker_stdio() -> StdioServer {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("peers/python_tasks_server.py");
    StdioServer::new(peer("TOOLPORT_PYTHON", "venv/bin/python"))
        .arg(script)
        .arg("stdio")
}

/// The library written with the official Python SDK (resources, a template, a prompt and its
/// completion), started in stdio mode.
pub fn python_library_stdio() -> StdioServer {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("peers/python_library_server.py");
    StdioServer::new(peer("TOOLPORT_PYTHON", "venv/bin/python"))
        .arg(script)
        .arg("stdio")
}

/// The library written with the official TypeScript SDK v2 (`@modelcontextprotocol/server`: a
/// tool, a resource and a prompt), started in stdio mode on Node 22.
pub fn typescript_v2_library_stdio() -> StdioServer {
    StdioServer::new(peer("TOOLPORT_NODE22", "node/node_modules/.bin/node"))
        .args(typescript_v2_library_args())
        .arg("stdio")
}

/// The TypeScript library's script and the SDK folder it loads.
fn typescript_v2_library_args() -> [PathBuf; 2] {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("peers/ts_v2_library_server.mjs");
    let sdk = peer(
        "TOOLPORT_TYPESCRIPT_SERVER_V2",
        "node/node_modules/@modelcontextprotocol/server",
    );
    [script, sdk]
}

/// The order desk written with the official Python SDK, whose tools take nested Pydantic
/// models, started in stdio mode.
pub fn python_orders_stdio() -> StdioServer {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("peers/python_orders_server.py");
    StdioServer::new(peer("TOOLPORT_PYTHON", "venv/bin/python"))
        .arg(script)
        .arg("stdio")
}

/// The command line of a server written with the official Python SDK whose tool `hang` never
/// returns; it appends `started <id>` and, once cancelled, `cancelled <id>` to `log`.
pub fn python_hang_server_command(log: &Path) -> Vec<std::ffi::OsString> {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("peers/python_hang_server.py");
    vec![
        peer("TOOLPORT_PYTHON", "venv/bin/python").into(),
        script.into(),
        "stdio".into(),
        log.into(),
    ]
}

/// The command line of a server written with the official Python SDK whose results come in
/// the shapes its structured output takes: `greet` returns a string wrapped as
/// `{"result": …}`, `snapshot` a model whose structured content holds an image's base64, and
/// `pixel` an image block.
pub fn python_results_server_command() -> Vec<std::ffi::OsString> {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("peers/python_results_server.py");
    vec![
        peer("TOOLPORT_PYTHON", "venv/bin/python").into(),
        script.into(),
        "stdio".into(),
    ]
}

/// A peer server started on a loopback port, stopped (by its PID) when dropped.
#[derive(Debug)]
pub struct RemotePeer {
    child: Child,
    port: u16,
}

impl RemotePeer {
    /// `@modelcontextprotocol/server-everything` in `mode` (`streamableHttp` or `sse`).
    pub async fn server_everything(mode: &str) -> Self {
        let port = free_port();
        let mut command = Command::new(peer(
            "TOOLPORT_SERVER_EVERYTHING",
            "node/node_modules/.bin/mcp-server-everything",
        ));
        command.arg(mode).env("PORT", port.to_string());
        Self::start(command, port).await
    }

    /// The Python SDK library in `mode` (`streamable-http`).
    pub async fn python_library(mode: &str) -> Self {
        let port = free_port();
        let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("peers/python_library_server.py");
        let mut command = Command::new(peer("TOOLPORT_PYTHON", "venv/bin/python"));
        command.arg(script).arg(mode).arg(port.to_string());
        Self::start(command, port).await
    }

    /// The TypeScript SDK v2 library in `mode` (`streamable-http`), on Node 22.
    pub async fn typescript_v2_library(mode: &str) -> Self {
        let port = free_port();
        let mut command = Command::new(peer("TOOLPORT_NODE22", "node/node_modules/.bin/node"));
        command
            .args(typescript_v2_library_args())
            .arg(mode)
            .arg(port.to_string());
        Self::start(command, port).await
    }

    /// The Python SDK task tracker in `mode` (`streamable-http` or `sse`).
    pub async fn python_task_tracker(mode: &str) -> Self {
        let port = free_port();
        let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("peers/python_tasks_server.py");
        let mut command = Command::new(peer("TOOLPORT_PYTHON", "venv/bin/python"));
        command.arg(script).arg(mode).arg(port.to_string());
        Self::start(command, port).await
    }

    async fn start(mut command: Command, port: u16) -> Self {
        let child = command
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("the peer starts");
        let peer = Self { child, port };
        toolport_fixtures::wait_for_port(port, Duration::from_secs(20))
            .await
            .expect("the peer listens within 20 s");
        peer
    }

    /// `http://127.0.0.1:<port><path>`.
    pub fn url(&self, path: &str) -> String {
        format!("http://127.0.0.1:{}{path}", self.port)
    }
}

impl Drop for RemotePeer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A loopback port that was free a moment ago.
fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .and_then(|listener| listener.local_addr())
        .expect("a free port")
        .port()
}

/// The path of one installed peer.
///
/// # Panics
///
/// When the peer is not installed: run `cargo xtask peers` (or `cargo xtask test`).
pub fn peer(variable: &str, default_under_peers: &str) -> PathBuf {
    let path = std::env::var_os(variable)
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("../target/peers")
                .join(default_under_peers)
        });
    assert!(
        path.exists(),
        "{} is not installed (looked for {}); run `cargo xtask peers` or `cargo xtask test`",
        variable,
        path.display()
    );
    path
}

/// Calls the tool `name` of `toolset` as a model would.
///
/// # Panics
///
/// When the tool is not listed or the call fails.
pub async fn call(toolset: &McpToolset, name: &str, arguments: Value) -> ToolOutput {
    let tools = toolset.tools(None).await.unwrap();
    let tool = tools
        .iter()
        .find(|tool| tool.name() == name)
        .unwrap_or_else(|| panic!("{name} is listed"));
    tool.call(arguments, None).await.unwrap()
}

/// Checks the task tracker's behaviour, whichever SDK serves it over whichever transport: the
/// seed tasks, state kept between calls, and the unknown-id tool error.
///
/// # Panics
///
/// When the server behaves otherwise.
pub async fn exercise_task_tracker(toolset: &McpToolset) {
    let listing = call(toolset, "list_tasks", json!({})).await;
    assert_eq!(listing.value["count"], 3, "{}", listing.value);
    let added = call(toolset, "add_task", json!({"title": "Tag v1.2"})).await;
    assert_eq!(added.value["title"], "Tag v1.2", "{}", added.value);
    let listing = call(toolset, "list_tasks", json!({})).await;
    assert_eq!(listing.value["count"], 4, "the session kept its state");
    assert!(listing.value.to_string().contains("Tag v1.2"));
    let missing = call(toolset, "complete_task", json!({"task_id": "T-9"})).await;
    assert!(missing.is_error);
    assert!(
        missing.value["error"]
            .as_str()
            .unwrap()
            .contains("No task with ID T-9. Call list_tasks to see the valid IDs."),
        "{}",
        missing.value
    );
}
