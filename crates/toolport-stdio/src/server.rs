//! [`StdioServer`]: the parameters of a server that runs as a child process, and their builder.

use std::ffi::OsString;
use std::fmt;
use std::path::PathBuf;
use std::time::Duration;

/// An MCP server started as a child process and spoken to over its stdin and stdout.
///
/// Holds only parameters; every [`connect`](toolport_core::Connector::connect) (or
/// [`spawn`](StdioServer::spawn)) starts a fresh child in its own process group.
///
/// The child's environment is minimal unless you opt in: it gets `HOME`, `LOGNAME`, `PATH`,
/// `SHELL`, `TERM` and `USER` from this process (those that are set) plus whatever
/// [`env`](StdioServer::env) adds. [`inherit_env(true)`](StdioServer::inherit_env) passes the
/// whole environment instead. Its stderr is always captured, never inherited.
///
/// # Examples
///
/// ```
/// use std::time::Duration;
/// use toolport_core::Connector;
/// use toolport_stdio::StdioServer;
///
/// let server = StdioServer::new("npx")
///     .args(["-y", "@modelcontextprotocol/server-everything"])
///     .env("API_KEY", "not shown in target()")
///     .close_grace(Duration::from_secs(1));
/// assert_eq!(
///     server.target(),
///     "`npx -y @modelcontextprotocol/server-everything` over stdio"
/// );
/// ```
#[derive(Clone)]
#[must_use]
pub struct StdioServer {
    pub(crate) command: OsString,
    pub(crate) args: Vec<OsString>,
    pub(crate) env: Vec<(OsString, OsString)>,
    pub(crate) inherit_env: bool,
    pub(crate) cwd: Option<PathBuf>,
    pub(crate) close_grace: Duration,
    pub(crate) term_grace: Duration,
    pub(crate) stderr_lines: usize,
}

impl StdioServer {
    /// The variables a child gets from this process by default, when they are set.
    pub const DEFAULT_ENV_VARS: &'static [&'static str] = crate::env::DEFAULT_INHERITED;
    /// Default for [`close_grace`](StdioServer::close_grace): 2 s.
    pub const DEFAULT_CLOSE_GRACE: Duration = Duration::from_secs(2);
    /// Default for [`term_grace`](StdioServer::term_grace): 2 s.
    pub const DEFAULT_TERM_GRACE: Duration = Duration::from_secs(2);
    /// Default for [`stderr_lines`](StdioServer::stderr_lines): 50.
    pub const DEFAULT_STDERR_LINES: usize = 50;
    /// The longest stderr line kept, in bytes; the rest of a longer line is dropped.
    pub const MAX_STDERR_LINE_BYTES: usize = 4 * 1024;
    /// The longest message accepted on stdout, in bytes; longer lines are dropped.
    pub const MAX_MESSAGE_BYTES: usize = 16 * 1024 * 1024;

    /// A server started as `command`, found on `PATH` unless it contains a `/`.
    pub fn new(command: impl Into<OsString>) -> Self {
        Self {
            command: command.into(),
            args: Vec::new(),
            env: Vec::new(),
            inherit_env: false,
            cwd: None,
            close_grace: Self::DEFAULT_CLOSE_GRACE,
            term_grace: Self::DEFAULT_TERM_GRACE,
            stderr_lines: Self::DEFAULT_STDERR_LINES,
        }
    }

    /// Appends one argument.
    pub fn arg(mut self, arg: impl Into<OsString>) -> Self {
        self.args.push(arg.into());
        self
    }

    /// Appends several arguments.
    pub fn args<I>(mut self, args: I) -> Self
    where
        I: IntoIterator,
        I::Item: Into<OsString>,
    {
        self.args.extend(args.into_iter().map(Into::into));
        self
    }

    /// Sets one environment variable for the child. Values never appear in
    /// [`target`](toolport_core::Connector::target) or `Debug` output.
    pub fn env(mut self, key: impl Into<OsString>, value: impl Into<OsString>) -> Self {
        self.env.push((key.into(), value.into()));
        self
    }

    /// Sets several environment variables for the child.
    pub fn envs<I, K, V>(mut self, vars: I) -> Self
    where
        I: IntoIterator<Item = (K, V)>,
        K: Into<OsString>,
        V: Into<OsString>,
    {
        self.env
            .extend(vars.into_iter().map(|(k, v)| (k.into(), v.into())));
        self
    }

    /// Whether the child inherits this process's whole environment. Off by default: only
    /// [`DEFAULT_ENV_VARS`](StdioServer::DEFAULT_ENV_VARS) pass, so secrets in the parent's
    /// environment do not leak to every server.
    pub fn inherit_env(mut self, inherit: bool) -> Self {
        self.inherit_env = inherit;
        self
    }

    /// The child's working directory. Default: this process's.
    pub fn cwd(mut self, dir: impl Into<PathBuf>) -> Self {
        self.cwd = Some(dir.into());
        self
    }

    /// How long closing waits, after closing the child's stdin, for it to exit on its own
    /// before sending `SIGTERM` to its process group.
    pub fn close_grace(mut self, grace: Duration) -> Self {
        self.close_grace = grace;
        self
    }

    /// How long closing waits after `SIGTERM` before sending `SIGKILL` to the process group.
    pub fn term_grace(mut self, grace: Duration) -> Self {
        self.term_grace = grace;
        self
    }

    /// How many of the last stderr lines to keep for diagnostics.
    pub fn stderr_lines(mut self, lines: usize) -> Self {
        self.stderr_lines = lines;
        self
    }

    /// The command and arguments as one line, for logs and [`target`](toolport_core::Connector::target).
    pub(crate) fn command_line(&self) -> String {
        let mut line = self.command.to_string_lossy().into_owned();
        for arg in &self.args {
            line.push(' ');
            line.push_str(&arg.to_string_lossy());
        }
        line
    }
}

impl fmt::Debug for StdioServer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let env_keys: Vec<_> = self.env.iter().map(|(key, _)| key).collect();
        f.debug_struct("StdioServer")
            .field("command", &self.command)
            .field("args", &self.args)
            .field("env_keys", &env_keys)
            .field("inherit_env", &self.inherit_env)
            .field("cwd", &self.cwd)
            .field("close_grace", &self.close_grace)
            .field("term_grace", &self.term_grace)
            .field("stderr_lines", &self.stderr_lines)
            .finish()
    }
}
