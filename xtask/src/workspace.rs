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

/// The optional features that every build of `cargo xtask test` turns on, so their code is
/// checked and tested too: each of the facade's that its defaults leave off (the guides' doc
/// tests need them), among them the Redis token store (`redis`, which turns on `auth`), whose
/// tests start the `redis-server` that `cargo xtask peers` installs, and the OpenTelemetry trace
/// propagation (`otel`). `webpki-roots` is left out: it only adds roots to `tls`.
pub(crate) const FEATURES: [&str; 2] = [
    "--features",
    "toolport/redis,toolport/otel,toolport/sse,toolport/tls,toolport/output-budgets,\
     toolport/contract,toolport/tenants,toolport/provider-messages,toolport/search",
];

/// The package and target selection that every build of `cargo xtask test` shares: each
/// workspace crate but xtask, every target, with [`FEATURES`]. The features cargo resolves
/// depend on this selection, so a build with another one (`-p tasks-agent`, say) compiles rmcp
/// and every crate again. xtask is left out because it is the program running the build: cargo would
/// relink `target/debug/xtask` with the workspace's features, under the running binary.
pub(crate) const SHARED_BUILD: [&str; 7] = [
    "--workspace",
    "--exclude",
    "xtask",
    "--all-targets",
    "--locked",
    FEATURES[0],
    FEATURES[1],
];

/// Builds the workspace with [`SHARED_BUILD`] and returns the path of the executable `bin`,
/// as cargo reports it, so a custom `CARGO_TARGET_DIR` is honoured.
///
/// Building everything costs more than building one binary on a cold tree, but it is the
/// build `cargo xtask test` makes anyway, so within a test run this is a no-op, and the
/// binary never comes from a second, differently-featured compile of the workspace.
pub(crate) fn build_bin(bin: &str) -> Result<PathBuf> {
    let mut build = Command::new(cargo());
    build
        .current_dir(root())
        .args(["build", "-q"])
        .args(SHARED_BUILD)
        .arg("--message-format=json-render-diagnostics");
    String::from_utf8_lossy(&stdout_of(&mut build)?)
        .lines()
        .filter_map(|line| serde_json::from_str::<Value>(line).ok())
        .filter(|message| {
            // `--all-targets` also builds each binary's unit tests, under the same name.
            let target = &message["target"];
            target["name"] == bin
                && target["kind"]
                    .as_array()
                    .is_some_and(|kinds| kinds.contains(&"bin".into()))
                && message["profile"]["test"] == false
        })
        .find_map(|message| message["executable"].as_str().map(PathBuf::from))
        .with_context(|| format!("cargo built the workspace but no binary `{bin}`"))
}

/// `cargo package` of every crate that may be published, together, as a registry would take
/// them: each dependency has a version, no dev-dependency makes a cycle, and each crate's files
/// are in its package. Not verified (which would build each package again): the builds and
/// tests of the workspace are the same code. `--allow-dirty`, so it runs on a tree being edited;
/// `--offline`, since the builds before it fetched every dependency (online, cargo updates the
/// index once per package: 30 s instead of 1).
pub(crate) fn package() -> Result<Command> {
    let mut metadata = Command::new(cargo());
    metadata.current_dir(root()).args([
        "metadata",
        "--no-deps",
        "--format-version",
        "1",
        "--locked",
    ]);
    let metadata: Value = serde_json::from_slice(&stdout_of(&mut metadata)?)?;
    // `publish = false` reads as an empty list of registries.
    let unpublished = metadata["packages"]
        .as_array()
        .context("cargo metadata lists no packages")?
        .iter()
        .filter(|package| package["publish"].as_array().is_some_and(Vec::is_empty))
        .filter_map(|package| package["name"].as_str());
    let mut package = Command::new(cargo());
    package.current_dir(root()).args([
        "package",
        "--workspace",
        "--no-verify",
        "--allow-dirty",
        "--locked",
        "--offline",
    ]);
    for name in unpublished {
        package.args(["--exclude", name]);
    }
    Ok(package)
}

/// What `cmd` prints on stdout; its stderr goes to ours. Fails when it cannot start or fails.
fn stdout_of(cmd: &mut Command) -> Result<Vec<u8>> {
    let output = cmd
        .stderr(Stdio::inherit())
        .output()
        .with_context(|| format!("could not start {}", step::show(cmd)))?;
    if !output.status.success() {
        bail!("{} failed ({})", step::show(cmd), output.status);
    }
    Ok(output.stdout)
}
