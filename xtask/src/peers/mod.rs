//! `cargo xtask peers`: installs the programs the tests talk to, cached under `target/peers/`.
//!
//! The npm peers (the reference `server-everything`, the conformance suite, the
//! TypeScript SDK, v1's client and v2's server and client, and a Node 22) go in
//! `target/peers/node/`, the next conformance suite in `target/peers/conformance-next/`, and a
//! Python venv with the `mcp` SDK in `target/peers/venv/`. Each step is skipped when its pinned version
//! is already there, so a second run takes well under a second. `redis-server` (for the Redis
//! token store's tests) comes from Debian's package, installed with apt-get when it is missing.

mod node;
mod python;
mod redis;

use std::path::PathBuf;

use anyhow::Result;

use crate::workspace;

/// Env var: absolute path to the `server-everything` bin (a Node script).
pub(crate) const SERVER_EVERYTHING: &str = "TOOLPORT_SERVER_EVERYTHING";
/// Env var: absolute path to a Node 22 binary.
pub(crate) const NODE22: &str = "TOOLPORT_NODE22";
/// Env var: absolute path to the conformance suite's bin (a Node script).
pub(crate) const CONFORMANCE: &str = "TOOLPORT_CONFORMANCE";
/// Env var: absolute path to the next conformance suite's script (0.2, with 2026-07-28).
pub(crate) const CONFORMANCE_NEXT: &str = "TOOLPORT_CONFORMANCE_NEXT";
/// Env var: absolute path to the TypeScript SDK's package folder.
pub(crate) const TYPESCRIPT_SDK: &str = "TOOLPORT_TYPESCRIPT_SDK";
/// Env var: absolute path to the TypeScript SDK v2 server's package folder.
pub(crate) const TYPESCRIPT_SERVER_V2: &str = "TOOLPORT_TYPESCRIPT_SERVER_V2";
/// Env var: absolute path to the venv's Python, which has the `mcp` SDK.
pub(crate) const PYTHON: &str = "TOOLPORT_PYTHON";
/// Env var: absolute path to `redis-server`.
pub(crate) const REDIS_SERVER: &str = "TOOLPORT_REDIS_SERVER";

/// The installed peers' absolute paths.
#[derive(Debug)]
pub(crate) struct Peers {
    /// The `mcp-server-everything` bin.
    pub(crate) server_everything: PathBuf,
    /// The Node 22 binary.
    pub(crate) node22: PathBuf,
    /// The `conformance` bin.
    pub(crate) conformance: PathBuf,
    /// The next conformance suite's script.
    pub(crate) conformance_next: PathBuf,
    /// The TypeScript SDK's package folder.
    pub(crate) typescript_sdk: PathBuf,
    /// The TypeScript SDK v2 server's package folder.
    pub(crate) typescript_server_v2: PathBuf,
    /// The TypeScript SDK v2 client's package folder, which `cargo xtask bench` uses (no test
    /// does, so it has no env var).
    pub(crate) typescript_client_v2: PathBuf,
    /// The venv's `python`.
    pub(crate) python: PathBuf,
    /// `redis-server`.
    pub(crate) redis_server: PathBuf,
}

impl Peers {
    /// The env vars that hand these paths to a test process, as `(name, path)` pairs.
    pub(crate) fn env(&self) -> Vec<(&'static str, PathBuf)> {
        vec![
            (SERVER_EVERYTHING, self.server_everything.clone()),
            (NODE22, self.node22.clone()),
            (CONFORMANCE, self.conformance.clone()),
            (CONFORMANCE_NEXT, self.conformance_next.clone()),
            (TYPESCRIPT_SDK, self.typescript_sdk.clone()),
            (TYPESCRIPT_SERVER_V2, self.typescript_server_v2.clone()),
            (PYTHON, self.python.clone()),
            (REDIS_SERVER, self.redis_server.clone()),
        ]
    }
}

/// Installs (or finds) every peer and prints where each one is.
pub(crate) fn run() -> Result<Peers> {
    let dir = workspace::peers_dir();
    let node = node::install(&dir.join("node"))?;
    let conformance_next = node::install_conformance_next(&dir.join("conformance-next"))?;
    let python = python::install(&dir.join("venv"))?;
    let redis_server = redis::install()?;
    let peers = Peers {
        server_everything: node.server_everything,
        node22: node.node22,
        conformance: node.conformance,
        conformance_next,
        typescript_sdk: node.typescript_sdk,
        typescript_server_v2: node.typescript_server_v2,
        typescript_client_v2: node.typescript_client_v2,
        python,
        redis_server,
    };
    for (name, path) in peers.env() {
        println!("  {name}={}", path.display());
    }
    Ok(peers)
}
