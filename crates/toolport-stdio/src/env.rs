//! The environment policy: which variables a child process gets.

use std::ffi::OsString;

use tokio::process::Command;

/// The parent's variables a child gets by default, when they are set.
pub(crate) const DEFAULT_INHERITED: &[&str] = &["HOME", "LOGNAME", "PATH", "SHELL", "TERM", "USER"];

/// Sets `command`'s environment: either the whole parent environment (`inherit_all`) or only
/// [`DEFAULT_INHERITED`], then the caller's own variables on top.
pub(crate) fn apply(command: &mut Command, inherit_all: bool, extra: &[(OsString, OsString)]) {
    if !inherit_all {
        command.env_clear();
        for key in DEFAULT_INHERITED {
            if let Some(value) = std::env::var_os(key) {
                command.env(key, value);
            }
        }
    }
    command.envs(extra.iter().map(|(key, value)| (key, value)));
}
