//! Where things are: the workspace root, the peers folder, the cargo to call.

use std::ffi::OsString;
use std::path::{Path, PathBuf};

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
