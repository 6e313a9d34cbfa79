//! The size of the release `toolport` command and of the Rust bench clients, as built and
//! stripped: start-up costs (page faults, relocations) grow with it.
//!
//! The stripped size is that of a copy run through `strip` (binutils) into
//! `target/bench/stripped/`; the built binaries are left as they are.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::{Value, json};

use super::client::Programs;

/// How the stripped sizes are obtained, for the printed table and the report.
const STRIPPED_BY: &str = "`strip` on a copy in target/bench/stripped/";

/// One binary's sizes.
#[derive(Debug)]
pub(crate) struct Binary {
    /// The file's name.
    name: String,
    /// The package that builds it.
    package: &'static str,
    /// Where it is.
    path: PathBuf,
    /// Its size as built, in bytes.
    bytes: u64,
    /// The size of a stripped copy, in bytes, if `strip` ran.
    stripped_bytes: Option<u64>,
}

/// The sizes of the `toolport` command (if it built) and of the bench clients, stripping
/// copies into `stripped_dir`. A binary that cannot be read is left out, with a message.
pub(crate) fn measure(programs: &Programs, stripped_dir: &Path) -> Vec<Binary> {
    let mut binaries: Vec<(&Path, &'static str)> = Vec::new();
    if let Some(cli) = &programs.cli {
        binaries.push((cli, "toolport-cli"));
    }
    binaries.extend([
        (programs.toolport.as_path(), "toolport-bench"),
        (programs.manager.as_path(), "toolport-bench"),
        (programs.rmcp.as_path(), "toolport-bench"),
        (programs.floor.as_path(), "toolport-bench"),
    ]);
    if let Err(error) = fs::create_dir_all(stripped_dir) {
        println!("bench: cannot create {}: {error}", stripped_dir.display());
    }
    binaries
        .into_iter()
        .filter_map(|(path, package)| {
            let bytes = match fs::metadata(path) {
                Ok(metadata) => metadata.len(),
                Err(error) => {
                    println!("bench: no size for {}: {error}", path.display());
                    return None;
                }
            };
            let name = path.file_name()?.to_string_lossy().into_owned();
            Some(Binary {
                stripped_bytes: stripped(path, &stripped_dir.join(&name)),
                name,
                package,
                path: path.to_owned(),
                bytes,
            })
        })
        .collect()
}

/// The size of `path` stripped into `copy`, or `None` (with a message) if `strip` failed.
pub(crate) fn stripped(path: &Path, copy: &Path) -> Option<u64> {
    let status = Command::new("strip").arg("-o").arg(copy).arg(path).status();
    match status {
        Ok(status) if status.success() => fs::metadata(copy).ok().map(|m| m.len()),
        Ok(status) => {
            println!("bench: `strip` on {} failed: {status}", path.display());
            None
        }
        Err(error) => {
            println!("bench: cannot run `strip`: {error}");
            None
        }
    }
}

/// Prints the table of sizes.
pub(crate) fn print(binaries: &[Binary]) {
    println!("\n=== binary sizes (release; stripped: {STRIPPED_BY}) ===");
    println!(
        "  {:<26} {:<16} {:>12} {:>9} {:>15} {:>13}",
        "binary", "package", "bytes", "MiB", "stripped bytes", "stripped MiB"
    );
    for b in binaries {
        println!(
            "  {:<26} {:<16} {:>12} {:>9.2} {:>15} {:>13}",
            b.name,
            b.package,
            b.bytes,
            mib(b.bytes),
            b.stripped_bytes.map_or(String::new(), |s| s.to_string()),
            b.stripped_bytes
                .map_or(String::new(), |s| format!("{:.2}", mib(s))),
        );
    }
}

/// The sizes as JSON, for the report.
pub(crate) fn to_json(binaries: &[Binary]) -> Value {
    let sizes: Vec<Value> = binaries
        .iter()
        .map(|b| {
            json!({
                "binary": b.name,
                "package": b.package,
                "path": b.path,
                "bytes": b.bytes,
                "mib": mib(b.bytes),
                "stripped_bytes": b.stripped_bytes,
                "stripped_mib": b.stripped_bytes.map(mib),
            })
        })
        .collect();
    json!({ "stripped_by": STRIPPED_BY, "sizes": sizes })
}

fn mib(bytes: u64) -> f64 {
    bytes as f64 / (1024.0 * 1024.0)
}
