//! The npm peers: `server-everything`, the conformance suite, the TypeScript SDK (v1's client,
//! v2's server and v2's client) and Node 22, in one npm prefix, and the next conformance suite
//! in another.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{Context, Result, bail};
use serde_json::Value;

use crate::step;

/// Which installed versions of a package are good enough.
#[derive(Debug, Clone, Copy)]
enum Want {
    /// Exactly this version.
    Exact(&'static str),
    /// Any version with this major number.
    Major(&'static str),
}

/// One npm package to install.
#[derive(Debug)]
struct Package {
    /// The package name, with its scope.
    name: &'static str,
    /// The version it must have.
    want: Want,
}

impl Package {
    /// The `name@version` spec handed to `npm install`.
    fn spec(&self) -> String {
        match self.want {
            Want::Exact(v) | Want::Major(v) => format!("{}@{v}", self.name),
        }
    }

    /// Whether `version` satisfies [`Package::want`].
    fn accepts(&self, version: &str) -> bool {
        match self.want {
            Want::Exact(v) => version == v,
            Want::Major(major) => version.split('.').next() == Some(major),
        }
    }
}

/// The reference server the interop tests talk to.
const SERVER_EVERYTHING: Package = Package {
    name: "@modelcontextprotocol/server-everything",
    want: Want::Exact("2026.8.31"),
};
/// The official conformance suite, the release whose `all` suite judges 2025-11-25 clients.
const CONFORMANCE: Package = Package {
    name: "@modelcontextprotocol/conformance",
    want: Want::Exact("0.1.16"),
};
/// The next conformance suite, with the 2026-07-28 client scenarios. Same package name, so it
/// gets an npm prefix of its own ([`install_conformance_next`]).
const CONFORMANCE_NEXT: Package = Package {
    name: "@modelcontextprotocol/conformance",
    want: Want::Exact("0.2.0-alpha.12"),
};
/// The official TypeScript SDK, whose client `cargo xtask bench` measures. A library: no bin.
const TYPESCRIPT_SDK: Package = Package {
    name: "@modelcontextprotocol/sdk",
    want: Want::Exact("1.32.2"),
};
/// The TypeScript SDK v2's server package, which the interop tests' TypeScript library server
/// (`tests/peers/ts_v2_library_server.mjs`) is written with. A library: no bin.
const TYPESCRIPT_SERVER_V2: Package = Package {
    name: "@modelcontextprotocol/server",
    want: Want::Exact("2.4.0"),
};
/// The TypeScript SDK v2's client package, whose client `cargo xtask bench` measures beside
/// v1's (`bench/clients/ts_v2_client.mjs`). A library: no bin.
const TYPESCRIPT_CLIENT_V2: Package = Package {
    name: "@modelcontextprotocol/client",
    want: Want::Exact("2.4.0"),
};
/// Node 22 from npm (the `node` package fetches the platform binary as another npm package).
const NODE: Package = Package {
    name: "node",
    want: Want::Major("22"),
};

/// What [`install`] found: absolute paths of the bins.
#[derive(Debug)]
pub(super) struct NodePeers {
    /// `node_modules/.bin/<server-everything's bin>`.
    pub(super) server_everything: PathBuf,
    /// `node_modules/.bin/node`, checked to print `v22.*`.
    pub(super) node22: PathBuf,
    /// `node_modules/.bin/<conformance's bin>`.
    pub(super) conformance: PathBuf,
    /// `node_modules/@modelcontextprotocol/sdk`, the TypeScript SDK's package folder.
    pub(super) typescript_sdk: PathBuf,
    /// `node_modules/@modelcontextprotocol/server`, the TypeScript SDK v2 server's folder.
    pub(super) typescript_server_v2: PathBuf,
    /// `node_modules/@modelcontextprotocol/client`, the TypeScript SDK v2 client's folder.
    pub(super) typescript_client_v2: PathBuf,
}

/// Installs the npm peers into `prefix` unless they are there at the pinned versions.
pub(super) fn install(prefix: &Path) -> Result<NodePeers> {
    install_packages(
        prefix,
        &[
            &SERVER_EVERYTHING,
            &CONFORMANCE,
            &TYPESCRIPT_SDK,
            &TYPESCRIPT_SERVER_V2,
            &TYPESCRIPT_CLIENT_V2,
            &NODE,
        ],
    )?;
    let bin_dir = prefix.join("node_modules").join(".bin");
    let server_everything = bin_dir.join(bin_name(prefix, &SERVER_EVERYTHING)?);
    let conformance = bin_dir.join(bin_name(prefix, &CONFORMANCE)?);
    let node22 = bin_dir.join(bin_name(prefix, &NODE)?);
    for bin in [&server_everything, &conformance, &node22] {
        if !bin.exists() {
            bail!("peers: expected bin {} is missing", bin.display());
        }
    }
    check_node22(&node22)?;
    Ok(NodePeers {
        server_everything,
        node22,
        conformance,
        typescript_sdk: prefix.join("node_modules").join(TYPESCRIPT_SDK.name),
        typescript_server_v2: prefix.join("node_modules").join(TYPESCRIPT_SERVER_V2.name),
        typescript_client_v2: prefix.join("node_modules").join(TYPESCRIPT_CLIENT_V2.name),
    })
}

/// Installs the next conformance suite into `prefix` (not the other peers' prefix: the package
/// name is the same) and returns its script, which Node 22 runs.
pub(super) fn install_conformance_next(prefix: &Path) -> Result<PathBuf> {
    install_packages(prefix, &[&CONFORMANCE_NEXT])?;
    let manifest = manifest(prefix, &CONFORMANCE_NEXT).with_context(|| {
        format!(
            "peers: cannot read {}'s package.json",
            CONFORMANCE_NEXT.name
        )
    })?;
    let script = match manifest.get("bin") {
        Some(Value::String(script)) => script.clone(),
        Some(Value::Object(bins)) if bins.len() == 1 => {
            let script = bins.values().next().and_then(Value::as_str);
            script.unwrap_or_default().to_owned()
        }
        _ => String::new(),
    };
    let script = prefix
        .join("node_modules")
        .join(CONFORMANCE_NEXT.name)
        .join(script);
    if !script.is_file() {
        bail!(
            "peers: the conformance script {} is missing",
            script.display()
        );
    }
    Ok(script)
}

/// Runs one `npm install` into `prefix` for the `packages` that are not there at their pinned
/// versions, then checks that each one is.
fn install_packages(prefix: &Path, packages: &[&Package]) -> Result<()> {
    let present: Vec<bool> = packages
        .iter()
        .map(|p| installed_version(prefix, p).is_some_and(|v| p.accepts(&v)))
        .collect();

    if present.contains(&false) {
        fs::create_dir_all(prefix)
            .with_context(|| format!("peers: creating {}", prefix.display()))?;
        let mut npm = Command::new("npm");
        npm.arg("install")
            .arg("--prefix")
            .arg(prefix)
            .args(["--no-audit", "--no-fund", "--loglevel=error"])
            .args(packages.iter().map(|p| p.spec()));
        step::run("peers: npm install", &mut npm)?;
    }

    for (package, was_present) in packages.iter().zip(present) {
        let Some(version) = installed_version(prefix, package) else {
            bail!(
                "peers: npm install finished but {} is missing",
                package.name
            );
        };
        if !package.accepts(&version) {
            bail!(
                "peers: npm installed {}@{version}, expected {}",
                package.name,
                package.spec()
            );
        }
        let what = if was_present {
            "already present"
        } else {
            "installed"
        };
        println!("peer {}@{version}: {what}", package.name);
    }
    Ok(())
}

/// The parsed `package.json` of `package` inside `prefix`, if it is installed.
fn manifest(prefix: &Path, package: &Package) -> Option<Value> {
    let path = prefix
        .join("node_modules")
        .join(package.name)
        .join("package.json");
    serde_json::from_slice(&fs::read(path).ok()?).ok()
}

/// The installed version of `package`, if any.
fn installed_version(prefix: &Path, package: &Package) -> Option<String> {
    manifest(prefix, package)?
        .get("version")?
        .as_str()
        .map(str::to_owned)
}

/// The name of the one bin that `package` declares in its `package.json`.
///
/// A string `bin` field is named after the package (without its scope);
/// an object must have exactly one entry.
fn bin_name(prefix: &Path, package: &Package) -> Result<String> {
    let manifest = manifest(prefix, package)
        .with_context(|| format!("peers: cannot read {}'s package.json", package.name))?;
    match manifest.get("bin") {
        Some(Value::String(_)) => Ok(package.name.rsplit('/').next().unwrap().to_owned()),
        Some(Value::Object(bins)) if bins.len() == 1 => Ok(bins.keys().next().unwrap().clone()),
        other => bail!(
            "peers: {} should declare exactly one bin, its package.json has `bin: {}`",
            package.name,
            other.map_or_else(|| "null".to_owned(), Value::to_string)
        ),
    }
}

/// Checks that `node --version` prints `v22.*`.
fn check_node22(node: &Path) -> Result<()> {
    let version = step::probe(Command::new(node).arg("--version"))
        .with_context(|| format!("peers: `{} --version` did not run", node.display()))?;
    if !version.starts_with("v22.") {
        bail!(
            "peers: {} prints version {version}, expected v22.*",
            node.display()
        );
    }
    Ok(())
}
