//! What tidy reads from the real repository: the files git tracks (the Rust ones read), the
//! workspace members' manifests (as cargo lists them) and any other file, by path.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{Context as _, Result, bail};
use serde_json::Value;

use super::TextFile;
use crate::{step, workspace};

/// Every `.rs` file that git tracks under `root` (`git ls-files '*.rs'`), read.
pub(super) fn tracked_rust_files(root: &Path) -> Result<Vec<TextFile>> {
    let mut git = Command::new("git");
    git.current_dir(root).args(["ls-files", "-z", "--", "*.rs"]);
    let listing = stdout_of(&mut git)?;
    listing
        .split('\0')
        .filter(|path| !path.is_empty())
        .map(|path| read(root, Path::new(path)))
        .collect()
}

/// The path of every file git tracks under `root` (`git ls-files`).
pub(super) fn tracked_paths(root: &Path) -> Result<Vec<PathBuf>> {
    let mut git = Command::new("git");
    git.current_dir(root).args(["ls-files", "-z"]);
    let listing = stdout_of(&mut git)?;
    Ok(listing
        .split('\0')
        .filter(|path| !path.is_empty())
        .map(PathBuf::from)
        .collect())
}

/// The `Cargo.toml` of every workspace member, as `cargo metadata` lists them, read.
pub(super) fn member_manifests(root: &Path) -> Result<Vec<TextFile>> {
    let mut cargo = Command::new(workspace::cargo());
    cargo
        .current_dir(root)
        .args(["metadata", "--no-deps", "--format-version", "1"]);
    let metadata: Value = serde_json::from_str(&stdout_of(&mut cargo)?)
        .with_context(|| format!("{} printed no JSON", step::show(&cargo)))?;
    let packages = metadata["packages"].as_array().into_iter().flatten();
    packages
        .map(|package| {
            let manifest = package["manifest_path"]
                .as_str()
                .context("`cargo metadata` gave a package without a manifest_path")?;
            let relative = Path::new(manifest)
                .strip_prefix(root)
                .with_context(|| format!("{manifest} is outside the workspace"))?;
            read(root, relative)
        })
        .collect()
}

/// The file at `path` under `root`, read.
pub(super) fn read(root: &Path, path: &Path) -> Result<TextFile> {
    let text = fs::read_to_string(root.join(path))
        .with_context(|| format!("tidy: reading {}", path.display()))?;
    Ok(TextFile {
        path: PathBuf::from(path),
        text,
    })
}

/// What `cmd` prints on stdout, when it succeeds.
fn stdout_of(cmd: &mut Command) -> Result<String> {
    let output = cmd
        .output()
        .with_context(|| format!("tidy: could not start {}", step::show(cmd)))?;
    if !output.status.success() {
        bail!(
            "tidy: {} failed ({}): {}",
            step::show(cmd),
            output.status,
            String::from_utf8_lossy(&output.stderr).trim()
        );
    }
    String::from_utf8(output.stdout)
        .with_context(|| format!("{} printed non-UTF-8", step::show(cmd)))
}
