//! Where things are: the workspace root, the peers folder, the cargo to call, and the
//! binaries cargo builds.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use anyhow::{Context as _, Result, bail};
use serde_json::Value;

use crate::step;

/// The workspace root: the folder above this crate's manifest.
pub(crate) fn root() -> PathBuf {
    let xtask = Path::new(env!("CARGO_MANIFEST_DIR"));
    xtask
        .parent()
        .expect("the xtask crate lives one folder below the workspace root")
        .to_path_buf()
}

/// `target/peers/` under the workspace root, where the peers are installed.
pub(crate) fn peers_dir() -> PathBuf {
    root().join("target").join("peers")
}

/// The cargo that runs this xtask (`$CARGO`), so nested builds use the same toolchain.
pub(crate) fn cargo() -> OsString {
    std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into())
}

/// Builds `bin` of `package` (debug, `--locked`) and returns the path of the executable, as
/// cargo reports it, so a custom `CARGO_TARGET_DIR` is honoured.
pub(crate) fn build_bin(package: &str, bin: &str) -> Result<PathBuf> {
    let mut build = Command::new(cargo());
    build.current_dir(root()).args([
        "build",
        "-q",
        "--locked",
        "-p",
        package,
        "--bin",
        bin,
        "--message-format=json-render-diagnostics",
    ]);
    let output = build
        .stderr(Stdio::inherit())
        .output()
        .with_context(|| format!("could not start {}", step::show(&build)))?;
    if !output.status.success() {
        bail!("{} failed ({})", step::show(&build), output.status);
    }
    String::from_utf8_lossy(&output.stdout)
        .lines()
        .filter_map(|line| serde_json::from_str::<Value>(line).ok())
        .filter(|message| message["target"]["name"] == bin)
        .find_map(|message| message["executable"].as_str().map(PathBuf::from))
        .with_context(|| format!("cargo built `{bin}` but did not say where"))
}
