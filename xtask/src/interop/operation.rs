//! The operations of the interop matrix: each one `toolport` invocation and what it must show.

use std::ffi::OsString;
use std::path::Path;
use std::process::Command;
use std::time::Duration;

use serde_json::Value;

use crate::step::{self, Bounded};

/// One column of the matrix.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Operation {
    /// `toolport tools --json`: initialize, then list the tools.
    List,
    /// `toolport call <tool> <args>`: a call that succeeds.
    Call,
    /// `toolport call` of a call the server answers with `isError`: exit status 2.
    ToolError,
    /// `toolport call` of a tool that returns an image: an image part is shown.
    Image,
}

impl Operation {
    /// Every operation, in the matrix's order.
    pub(crate) const ALL: [Self; 4] = [Self::List, Self::Call, Self::ToolError, Self::Image];

    /// The column heading.
    pub(crate) fn label(self) -> &'static str {
        match self {
            Self::List => "initialize+list",
            Self::Call => "call",
            Self::ToolError => "tool error",
            Self::Image => "image",
        }
    }
}

/// A `tools/call` and a piece of text its output must contain.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Probe {
    /// The tool.
    pub(crate) tool: &'static str,
    /// Its arguments, as JSON.
    pub(crate) args: &'static str,
    /// Text that must appear on stdout.
    pub(crate) shows: &'static str,
}

/// What one server must do in each operation.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Expectations {
    /// A tool the listing must include.
    pub(crate) listed: &'static str,
    /// A call that succeeds.
    pub(crate) call: Probe,
    /// A call that the server answers with a tool error.
    pub(crate) error: Probe,
    /// A call whose result holds an image.
    pub(crate) image: Probe,
}

/// The CLI's own bound on connecting, initializing and each request.
const CLI_TIMEOUT_MS: &str = "15000";
/// The bound on one whole `toolport` run, server startup included.
const RUN_LIMIT: Duration = Duration::from_secs(40);

/// Runs `operation` with the `toolport` binary at `cli` against `server` (the SERVER part of
/// the command line), and says how it went: the cell's text, or why it is red.
pub(crate) fn run(
    operation: Operation,
    cli: &Path,
    server: &[OsString],
    expect: &Expectations,
) -> Result<String, String> {
    let mut cmd = Command::new(cli);
    cmd.args(["--timeout-ms", CLI_TIMEOUT_MS]);
    let probe = match operation {
        Operation::List => {
            cmd.args(["tools", "--json"]);
            None
        }
        Operation::Call => Some(expect.call),
        Operation::ToolError => Some(expect.error),
        Operation::Image => Some(expect.image),
    };
    if let Some(probe) = probe {
        cmd.args(["call", probe.tool, probe.args]);
    }
    // The SERVER part goes last: a stdio command is `-- <command>`.
    cmd.args(server);
    let ran = step::output_within(&mut cmd, RUN_LIMIT).map_err(|e| format!("{e:#}"))?;
    let wanted_status = if operation == Operation::ToolError {
        2
    } else {
        0
    };
    match ran.status.and_then(|status| status.code()) {
        Some(code) if code == wanted_status => {}
        Some(code) => {
            return Err(explain(
                &ran,
                &format!("exit status {code}, expected {wanted_status}"),
            ));
        }
        None => {
            return Err(explain(
                &ran,
                "killed: it did not finish in time, or died of a signal",
            ));
        }
    }
    match probe {
        Some(probe) if ran.stdout.contains(probe.shows) => Ok("ok".to_owned()),
        Some(probe) => Err(explain(
            &ran,
            &format!("the output lacks `{}`", probe.shows),
        )),
        None => count_tools(&ran.stdout, expect.listed).map_err(|why| explain(&ran, &why)),
    }
}

/// Checks a `tools --json` listing and says how many tools it has.
fn count_tools(stdout: &str, listed: &str) -> Result<String, String> {
    let tools: Vec<Value> = serde_json::from_str(stdout)
        .map_err(|e| format!("the listing is not a JSON array: {e}"))?;
    if !tools.iter().any(|tool| tool["name"] == listed) {
        return Err(format!("`{listed}` is not listed"));
    }
    Ok(format!("ok ({} tools)", tools.len()))
}

/// `why`, with the command's stderr (or its stdout) to show what happened.
fn explain(ran: &Bounded, why: &str) -> String {
    let said = if ran.stderr.trim().is_empty() {
        &ran.stdout
    } else {
        &ran.stderr
    };
    let said: String = said.trim().chars().take(300).collect();
    format!("{why}: {said}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_listing_must_include_the_named_tool() {
        let listing = r#"[{"name": "echo"}, {"name": "get-sum"}]"#;
        assert_eq!(count_tools(listing, "echo").unwrap(), "ok (2 tools)");
        assert!(count_tools(listing, "list_tasks").is_err());
        assert!(count_tools("not json", "echo").is_err());
    }
}
