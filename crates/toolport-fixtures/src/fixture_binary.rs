//! [`fixture_binary`]: where the `toolport-fixture` binary is, for tests of other crates that
//! start it as a real child process.

use std::path::PathBuf;

/// The variable that names the `toolport-fixture` binary, when it is not beside the test.
pub const FIXTURE_BINARY_VAR: &str = "TOOLPORT_FIXTURE";

/// The path of the `toolport-fixture` binary: `$TOOLPORT_FIXTURE` when set, else the one cargo
/// built into the running test's target directory (`target/debug/toolport-fixture` for
/// `target/debug/deps/<test>`). A workspace build with `--all-targets`, as `cargo xtask test`
/// makes, builds it.
///
/// # Panics
///
/// When there is no such file, with a message that says how to build it: a test that cannot
/// start its server should say so, not fail on a confusing spawn error.
pub fn fixture_binary() -> PathBuf {
    if let Some(path) = std::env::var_os(FIXTURE_BINARY_VAR) {
        return PathBuf::from(path);
    }
    let test = std::env::current_exe().expect("the running test knows its own path");
    let beside = test
        .parent()
        .and_then(|deps| deps.parent())
        .map(|profile| profile.join("toolport-fixture"));
    match beside {
        Some(path) if path.is_file() => path,
        _ => panic!(
            "no toolport-fixture binary beside {}: run `cargo build -p toolport-fixtures --bin \
             toolport-fixture` first, or set {FIXTURE_BINARY_VAR}",
            test.display()
        ),
    }
}
