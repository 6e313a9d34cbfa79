//! The environment policy: which variables a child process gets.

use std::ffi::OsString;

use tokio::process::Command;

/// The parent's variables a child gets by default, when they are set.
pub(crate) const DEFAULT_INHERITED: &[&str] = &["HOME", "LOGNAME", "PATH", "SHELL", "TERM", "USER"];

/// Sets `command`'s environment: either the whole parent environment (`inherit_all`) or only
/// [`DEFAULT_INHERITED`], then the caller's own variables on top. The names of the parent's
/// variables the child does not get are logged at debug level, values never.
pub(crate) fn apply(command: &mut Command, inherit_all: bool, extra: &[(OsString, OsString)]) {
    if !inherit_all {
        command.env_clear();
        for key in DEFAULT_INHERITED {
            if let Some(value) = std::env::var_os(key) {
                command.env(key, value);
            }
        }
        if tracing::enabled!(tracing::Level::DEBUG) {
            let left_out = left_out(std::env::vars_os().map(|(key, _)| key), extra);
            if !left_out.is_empty() {
                tracing::debug!(
                    not_passed = %left_out.join(" "),
                    "variables of this process's environment the server does not get: pass \
                     one with `StdioServer::env` (the command: `-e NAME=VALUE`, `--env-pass NAME`)"
                );
            }
        }
    }
    command.envs(extra.iter().map(|(key, value)| (key, value)));
}

/// The names among `parent` that neither [`DEFAULT_INHERITED`] nor `extra` passes, sorted.
fn left_out(parent: impl Iterator<Item = OsString>, extra: &[(OsString, OsString)]) -> Vec<String> {
    let mut names: Vec<String> = parent
        .filter(|key| {
            !DEFAULT_INHERITED.iter().any(|passed| key == passed)
                && !extra.iter().any(|(passed, _)| passed == key)
        })
        .map(|key| key.to_string_lossy().into_owned())
        .collect();
    names.sort_unstable();
    names
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_variables_left_out_are_those_neither_the_defaults_nor_the_caller_pass() {
        let parent = ["PATH", "API_TOKEN", "DATA_FILE", "HOME"].map(OsString::from);
        let extra = [(OsString::from("DATA_FILE"), OsString::from("/tmp/x"))];
        assert_eq!(left_out(parent.into_iter(), &extra), ["API_TOKEN"]);
    }
}
