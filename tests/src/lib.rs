//! Where the tests that span crates find the real peers: servers nobody here wrote, installed
//! by `cargo xtask peers` (and so by `cargo xtask test`) under `target/peers/`.
//!
//! Each path comes from its `TOOLPORT_*` variable, which `cargo xtask test` sets, or else from
//! the default install location. A missing peer fails the test with instructions: the tests
//! never skip quietly.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

use toolport::stdio::StdioServer;

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

/// The `toolport-fixture` binary of `toolport-testkit` serving `mode` over stdio (`tasks`,
/// `lab`, `exit-during-init`, `garbage`, `hang`), built on first use.
pub fn fixture(mode: &str) -> StdioServer {
    StdioServer::new(fixture_binary()).arg(mode)
}

/// Builds `toolport-fixture` once per test process (a no-op when it is fresh) and returns its
/// path. Cargo only builds the binaries of the package under test, so the others are built here.
pub fn fixture_binary() -> &'static Path {
    static BINARY: OnceLock<PathBuf> = OnceLock::new();
    BINARY.get_or_init(|| {
        let status = Command::new(env!("CARGO"))
            .args([
                "build",
                "--quiet",
                "-p",
                "toolport-testkit",
                "--bin",
                "toolport-fixture",
            ])
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .status()
            .expect("cargo runs");
        assert!(status.success(), "building toolport-fixture failed");
        let target_dir = std::env::var_os("CARGO_TARGET_DIR")
            .map(PathBuf::from)
            .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../target"));
        target_dir.join("debug/toolport-fixture")
    })
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
