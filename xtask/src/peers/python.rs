//! The Python peer: a venv with the official `mcp` SDK, and the Pydantic it writes schemas
//! with, at pinned versions.

use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{Result, bail};

use crate::step;

/// The pinned `mcp` version.
const MCP_VERSION: &str = "2.3.0";

/// The pinned Pydantic, which writes the input schemas of the SDK's tools: the golden tests of
/// the schema adapters compare their inputs with what the Python servers list.
const PYDANTIC_VERSION: &str = "2.14.4";

/// Creates the venv at `dir` and installs `mcp` and Pydantic into it unless `mcp` is there at
/// [`MCP_VERSION`]. Returns the venv's `python`.
pub(super) fn install(dir: &Path) -> Result<PathBuf> {
    let python = dir.join("bin").join("python");
    let before = mcp_version(&python);
    if before.as_deref() == Some(MCP_VERSION) {
        println!("peer python mcp=={MCP_VERSION}: already present");
        return Ok(python);
    }

    if step::probe(Command::new(&python).arg("--version")).is_none() {
        // Missing or broken (say, the base Python moved): make it afresh.
        let mut venv = Command::new("python3");
        venv.args(["-m", "venv", "--clear"]).arg(dir);
        step::run("peers: python3 -m venv", &mut venv)?;
    }
    let mut pip = Command::new(&python);
    pip.args(["-m", "pip", "install", "--disable-pip-version-check", "-q"])
        .arg(format!("mcp=={MCP_VERSION}"))
        .arg(format!("pydantic=={PYDANTIC_VERSION}"));
    step::run(&format!("peers: pip install mcp=={MCP_VERSION}"), &mut pip)?;

    match mcp_version(&python) {
        Some(v) if v == MCP_VERSION => {
            println!("peer python mcp=={MCP_VERSION}: installed");
            Ok(python)
        }
        other => bail!(
            "peers: after pip install, {} reports mcp {}, expected {MCP_VERSION}",
            python.display(),
            other.as_deref().unwrap_or("missing")
        ),
    }
}

/// The `mcp` version importable by `python`, if it runs and has one.
fn mcp_version(python: &Path) -> Option<String> {
    step::probe(Command::new(python).args([
        "-c",
        "import importlib.metadata as m; print(m.version('mcp'))",
    ]))
}
