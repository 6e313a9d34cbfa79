//! [`StdioServer`]: the parameters of a server that runs as a child process, and their builder.

use std::ffi::OsString;
use std::fmt;
use std::path::PathBuf;
use std::time::Duration;

use crate::shown::Shown;

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
/// The command line (in [`target`](toolport_core::Connector::target), log lines, errors and
/// `Debug` output) shows the program, arguments and working directory as given, unless
/// [`command_shown_as`](StdioServer::command_shown_as),
/// [`arg_shown_as`](StdioServer::arg_shown_as) or [`cwd_shown_as`](StdioServer::cwd_shown_as)
/// says what to show in a value's place: the value as written before `${VAR}` expansion, say,
/// so that a secret expanded into an argument is never printed.
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
///
/// let keyed = StdioServer::new("weather-server").arg_shown_as("--api-key=k-123", "--api-key=${KEY}");
/// assert_eq!(keyed.target(), "`weather-server --api-key=${KEY}` over stdio");
/// assert!(!format!("{keyed:?}").contains("k-123"));
/// ```
#[derive(Clone)]
#[must_use]
pub struct StdioServer {
    pub(crate) command: Shown<OsString>,
    pub(crate) args: Vec<Shown<OsString>>,
    pub(crate) env: Vec<(OsString, OsString)>,
    pub(crate) inherit_env: bool,
    pub(crate) cwd: Option<Shown<PathBuf>>,
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
            command: Shown::plain(command.into()),
            args: Vec::new(),
            env: Vec::new(),
            inherit_env: false,
            cwd: None,
            close_grace: Self::DEFAULT_CLOSE_GRACE,
            term_grace: Self::DEFAULT_TERM_GRACE,
            stderr_lines: Self::DEFAULT_STDERR_LINES,
        }
    }

    /// Shows the program as `shown` wherever the command line is shown (target, logs, errors,
    /// `Debug`), in place of the program given to [`new`](StdioServer::new).
    pub fn command_shown_as(mut self, shown: impl Into<String>) -> Self {
        self.command.set_text(shown.into());
        self
    }

    /// Appends one argument.
    pub fn arg(mut self, arg: impl Into<OsString>) -> Self {
        self.args.push(Shown::plain(arg.into()));
        self
    }

    /// Appends one argument, shown as `shown` wherever the command line is shown (target, logs,
    /// errors, `Debug`): for an argument that holds a secret, such as one expanded from
    /// `--api-key=${API_KEY}`, give it as written, or a marker like `<redacted>`.
    pub fn arg_shown_as(mut self, arg: impl Into<OsString>, shown: impl Into<String>) -> Self {
        self.args.push(Shown::with_text(arg.into(), shown.into()));
        self
    }

    /// Appends several arguments.
    pub fn args<I>(mut self, args: I) -> Self
    where
        I: IntoIterator,
        I::Item: Into<OsString>,
    {
        self.args
            .extend(args.into_iter().map(|arg| Shown::plain(arg.into())));
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
        self.cwd = Some(Shown::plain(dir.into()));
        self
    }

    /// The child's working directory, shown as `shown` in `Debug` output.
    pub fn cwd_shown_as(mut self, dir: impl Into<PathBuf>, shown: impl Into<String>) -> Self {
        self.cwd = Some(Shown::with_text(dir.into(), shown.into()));
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

    /// The command and arguments as one line, each as shown, for logs, errors and
    /// [`target`](toolport_core::Connector::target).
    pub(crate) fn command_line(&self) -> String {
        let mut line = self.command.text().into_owned();
        for arg in &self.args {
            line.push(' ');
            line.push_str(&arg.text());
        }
        line
    }
}

impl fmt::Debug for StdioServer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let env_keys: Vec<_> = self.env.iter().map(|(key, _)| key).collect();
        let args: Vec<_> = self.args.iter().map(Shown::text).collect();
        f.debug_struct("StdioServer")
            .field("command", &self.command.text())
            .field("args", &args)
            .field("env_keys", &env_keys)
            .field("inherit_env", &self.inherit_env)
            .field("cwd", &self.cwd.as_ref().map(Shown::text))
            .field("close_grace", &self.close_grace)
            .field("term_grace", &self.term_grace)
            .field("stderr_lines", &self.stderr_lines)
            .finish()
    }
}
