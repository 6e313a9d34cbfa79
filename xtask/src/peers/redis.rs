//! The Redis peer: Debian's `redis-server`, which the tests of toolport-auth's Redis token
//! store start on a port of their own. Installed with apt-get when it is not on the `PATH`.

use std::path::PathBuf;
use std::process::Command;

use anyhow::{Context as _, Result};

use crate::step;

/// The program, and the Debian package that has it.
const REDIS_SERVER: &str = "redis-server";

/// The `redis-server` on the `PATH`; when there is none, installs Debian's package first
/// (running `apt-get update` and trying again when the install fails, as it does on a machine
/// whose package lists were never fetched).
pub(super) fn install() -> Result<PathBuf> {
    if let Some(path) = on_path() {
        println!("peer {REDIS_SERVER}: already present");
        return Ok(path);
    }
    let install = || {
        let mut apt = Command::new("apt-get");
        apt.args(["install", "-y", REDIS_SERVER]);
        apt
    };
    let name = format!("peers: apt-get install -y {REDIS_SERVER}");
    if step::run(&name, &mut install()).is_err() {
        step::run(
            "peers: apt-get update",
            Command::new("apt-get").arg("update"),
        )?;
        step::run(&name, &mut install())?;
    }
    let path = on_path()
        .with_context(|| format!("peers: after apt-get install, no {REDIS_SERVER} on the PATH"))?;
    println!("peer {REDIS_SERVER}: installed");
    Ok(path)
}

/// Where `redis-server` is on the `PATH`, if anywhere.
fn on_path() -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|dir| dir.join(REDIS_SERVER))
        .find(|program| program.is_file())
}
