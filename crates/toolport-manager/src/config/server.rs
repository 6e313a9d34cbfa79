//! [`ServerConfig`]: one server's entry in `mcp.json`, as written (before `${...}` expansion).

use std::fmt;
use std::num::NonZeroUsize;
use std::sync::Arc;
use std::time::Duration;

use serde_json::{Map, Value};
use toolport_core::{Connector, Secret};

use super::{ConfigError, NetworkConfig, RestartPolicy};
use crate::{ConnectorFactory as _, ServerToConnect, StandardConnectors};

/// How to reach one server, as its `mcp.json` entry says.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum TransportConfig {
    /// A child process over stdio: `command`, `args`, `env`, `cwd`.
    Stdio {
        /// The program, found on `PATH` unless it holds a `/`.
        command: String,
        /// Its arguments.
        args: Vec<String>,
        /// Variables set for it, beside the few it inherits (`PATH`, `HOME` and the like).
        /// Values are secret: they never reach `Debug` output, a log or an error.
        env: Vec<(String, Secret)>,
        /// Its working directory.
        cwd: Option<String>,
    },
    /// A remote server over Streamable HTTP (`"type": "http"`, or a `url` with no `type`).
    StreamableHttp {
        /// The MCP endpoint.
        url: String,
        /// Headers sent with every request. Values are secret.
        headers: Vec<(String, Secret)>,
    },
    /// A remote server over the legacy HTTP+SSE transport (`"type": "sse"`).
    Sse {
        /// The SSE endpoint.
        url: String,
        /// Headers sent with every request. Values are secret.
        headers: Vec<(String, Secret)>,
    },
    /// A transport Toolport does not know, by its `"type"`: a
    /// [`ConnectorFactory`](crate::ConnectorFactory) of the caller's makes its connector from
    /// the entry's [`other_fields`](ServerConfig::other_fields). The standard connectors refuse
    /// it, naming the types they know.
    Custom {
        /// The entry's `"type"`.
        kind: String,
    },
}

impl TransportConfig {
    /// The transport's name, as `"type"` spells it: `stdio`, `http`, `sse`, or a custom
    /// transport's own.
    pub fn kind(&self) -> &str {
        match self {
            Self::Stdio { .. } => "stdio",
            Self::StreamableHttp { .. } => "http",
            Self::Sse { .. } => "sse",
            Self::Custom { kind } => kind,
        }
    }

    /// The same transport with `map` applied to every value that is expanded when the server
    /// starts, or `map`'s first error. `map` is given the field as an expansion error names it
    /// (`command`, `args[0]`, `env.NAME`, `cwd`, `url`, `headers.NAME`) and the value as written;
    /// what it returns for a secret stays a [`Secret`]. A custom transport has no values here:
    /// its factory expands its own fields ([`ServerToConnect::expand`](crate::ServerToConnect::expand)).
    pub fn try_map_values<E>(
        &self,
        mut map: impl FnMut(&str, &str) -> Result<String, E>,
    ) -> Result<Self, E> {
        Ok(match self {
            Self::Stdio {
                command,
                args,
                env,
                cwd,
            } => Self::Stdio {
                command: map("command", command)?,
                args: (args.iter().enumerate())
                    .map(|(index, arg)| map(&format!("args[{index}]"), arg))
                    .collect::<Result<_, E>>()?,
                env: map_secrets(&mut map, "env", env)?,
                cwd: cwd.as_deref().map(|cwd| map("cwd", cwd)).transpose()?,
            },
            Self::StreamableHttp { url, headers } => Self::StreamableHttp {
                url: map("url", url)?,
                headers: map_secrets(&mut map, "headers", headers)?,
            },
            Self::Sse { url, headers } => Self::Sse {
                url: map("url", url)?,
                headers: map_secrets(&mut map, "headers", headers)?,
            },
            Self::Custom { kind } => Self::Custom { kind: kind.clone() },
        })
    }
}

/// `pairs` with `map` applied to each value, as field `{field}.{name}`; still secrets.
fn map_secrets<E>(
    map: &mut impl FnMut(&str, &str) -> Result<String, E>,
    field: &str,
    pairs: &[(String, Secret)],
) -> Result<Vec<(String, Secret)>, E> {
    pairs
        .iter()
        .map(|(name, value)| {
            let mapped = map(&format!("{field}.{name}"), value.expose())?;
            Ok((name.clone(), Secret::new(mapped)))
        })
        .collect()
}

/// The fields of an entry Toolport does not read. `Debug` shows their names alone: a custom
/// transport's `env` or `headers` may hold secrets.
#[derive(Clone, Default, PartialEq)]
pub(crate) struct OtherFields(pub(crate) Map<String, Value>);

impl fmt::Debug for OtherFields {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set().entries(self.0.keys()).finish()
    }
}

/// One server's entry in `mcp.json`: how to reach it, and how the manager treats it.
///
/// Values are kept as written: `${VAR}` references are expanded only when the server starts,
/// so a saved file keeps them, and an unset variable fails that server alone. Fields the
/// manager does not know are kept too, and written back by a save.
///
/// # Examples
///
/// ```
/// use std::time::Duration;
/// use toolport_manager::ServerConfig;
///
/// let files = ServerConfig::stdio("npx")
///     .args(["-y", "@modelcontextprotocol/server-filesystem", "${HOME}/notes"])
///     .env("LOG_LEVEL", "warn")
///     .auto_approve(["read_file", "list_directory"])
///     .exclude_tools(["write_file"])
///     .timeout(Duration::from_secs(30));
/// let github = ServerConfig::http("https://api.githubcopilot.com/mcp/")
///     .header("Authorization", "Bearer ${GITHUB_TOKEN}")
///     .required(true);
/// assert_eq!(github.transport.kind(), "http");
/// assert!(!format!("{files:?}").contains("warn"), "env values are secret");
/// ```
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct ServerConfig {
    /// How to reach the server.
    pub transport: TransportConfig,
    /// A remote server's `proxy`, `caFiles`, `clientCert` and `clientKey`; an entry for a
    /// stdio server that sets them is refused when read.
    pub network: NetworkConfig,
    /// `disabled`: the server is known but not started.
    pub disabled: bool,
    /// `autoApprove` (or Cline's `alwaysAllow`): the server's tools that are called without
    /// the manager's before-call hook, by the server's names.
    pub auto_approve: Vec<String>,
    /// `timeout`, in seconds as Cline writes it: the bound on each request, and each tool
    /// call's, the wait for one of its [`max_concurrent_calls`](Self::max_concurrent_calls)
    /// included; one call can have a bound of its own
    /// ([`ManagedTool::call_with_timeout`](crate::ManagedTool::call_with_timeout)). Default:
    /// the manager's.
    pub timeout: Option<Duration>,
    /// `startupTimeout`, in seconds: the bound on starting the server and its handshake.
    /// Default: the manager's.
    pub startup_timeout: Option<Duration>,
    /// `maxConcurrentCalls`: at most this many tool calls to the server in flight at once; a
    /// call past it waits for one to end, in the order the calls came, within its
    /// [`timeout`](Self::timeout). Default: the manager's
    /// ([`ManagerBuilder::max_concurrent_calls`](crate::ManagerBuilder::max_concurrent_calls)),
    /// or no limit.
    pub max_concurrent_calls: Option<NonZeroUsize>,
    /// `restart`: how the server is restarted after a crash.
    pub restart: RestartPolicy,
    /// `includeTools`: when set, only these tools are offered (by the server's names).
    pub include_tools: Option<Vec<String>>,
    /// `excludeTools`: these tools are never offered; this beats `includeTools`.
    pub exclude_tools: Vec<String>,
    /// `required`: when the server cannot start, the whole start fails.
    pub required: bool,
    /// The fields the manager does not read, kept for a save: a custom transport's own, and
    /// any other tool's.
    pub(crate) other: OtherFields,
}

impl ServerConfig {
    /// A server started as `command` over stdio, with every other field at its default.
    pub fn stdio(command: impl Into<String>) -> Self {
        Self::new(TransportConfig::Stdio {
            command: command.into(),
            args: Vec::new(),
            env: Vec::new(),
            cwd: None,
        })
    }

    /// A server over Streamable HTTP at `url`.
    pub fn http(url: impl Into<String>) -> Self {
        Self::new(TransportConfig::StreamableHttp {
            url: url.into(),
            headers: Vec::new(),
        })
    }

    /// A server over the legacy HTTP+SSE transport at `url`.
    pub fn sse(url: impl Into<String>) -> Self {
        Self::new(TransportConfig::Sse {
            url: url.into(),
            headers: Vec::new(),
        })
    }

    /// A server over a custom transport, `"type": kind`, whose fields are given with
    /// [`other_field`](Self::other_field). A [`ConnectorFactory`](crate::ConnectorFactory) of
    /// the caller's makes its connector.
    pub fn custom(kind: impl Into<String>) -> Self {
        Self::new(TransportConfig::Custom { kind: kind.into() })
    }

    /// A server reached by `transport`, with every other field at its default.
    pub fn new(transport: TransportConfig) -> Self {
        Self {
            transport,
            network: NetworkConfig::default(),
            disabled: false,
            auto_approve: Vec::new(),
            timeout: None,
            startup_timeout: None,
            max_concurrent_calls: None,
            restart: RestartPolicy::default(),
            include_tools: None,
            exclude_tools: Vec::new(),
            required: false,
            other: OtherFields::default(),
        }
    }

    /// Appends arguments, for a stdio server; no effect on a remote one.
    #[must_use]
    pub fn args<S: Into<String>>(mut self, more: impl IntoIterator<Item = S>) -> Self {
        if let TransportConfig::Stdio { args, .. } = &mut self.transport {
            args.extend(more.into_iter().map(Into::into));
        }
        self
    }

    /// Sets a variable, for a stdio server; no effect on a remote one.
    #[must_use]
    pub fn env(mut self, name: impl Into<String>, value: impl Into<Secret>) -> Self {
        if let TransportConfig::Stdio { env, .. } = &mut self.transport {
            env.push((name.into(), value.into()));
        }
        self
    }

    /// Sets the working directory, for a stdio server; no effect on a remote one.
    #[must_use]
    pub fn cwd(mut self, dir: impl Into<String>) -> Self {
        if let TransportConfig::Stdio { cwd, .. } = &mut self.transport {
            *cwd = Some(dir.into());
        }
        self
    }

    /// Adds a header, for a remote server; no effect on a stdio one.
    #[must_use]
    pub fn header(mut self, name: impl Into<String>, value: impl Into<Secret>) -> Self {
        if let TransportConfig::StreamableHttp { headers, .. }
        | TransportConfig::Sse { headers, .. } = &mut self.transport
        {
            headers.push((name.into(), value.into()));
        }
        self
    }

    /// Sets a field Toolport does not read (one of a custom transport's, say), as written:
    /// `${...}` in it is expanded only by a factory that asks
    /// ([`ServerToConnect::expand`](crate::ServerToConnect::expand)).
    #[must_use]
    pub fn other_field(mut self, name: impl Into<String>, value: impl Into<Value>) -> Self {
        self.other.0.insert(name.into(), value.into());
        self
    }

    /// The fields Toolport does not read, as written: a custom transport's own (its `url` or
    /// `command` too, which Toolport reads only for its own transports), and any other tool's.
    /// A save writes them back.
    pub fn other_fields(&self) -> &Map<String, Value> {
        &self.other.0
    }

    /// Sets [`disabled`](Self::disabled).
    #[must_use]
    pub fn disabled(mut self, disabled: bool) -> Self {
        self.disabled = disabled;
        self
    }

    /// Adds to [`auto_approve`](Self::auto_approve).
    #[must_use]
    pub fn auto_approve<S: Into<String>>(mut self, tools: impl IntoIterator<Item = S>) -> Self {
        self.auto_approve.extend(tools.into_iter().map(Into::into));
        self
    }

    /// Sets [`timeout`](Self::timeout).
    #[must_use]
    pub fn timeout(mut self, timeout: Duration) -> Self {
        self.timeout = Some(timeout);
        self
    }

    /// Sets [`startup_timeout`](Self::startup_timeout).
    #[must_use]
    pub fn startup_timeout(mut self, timeout: Duration) -> Self {
        self.startup_timeout = Some(timeout);
        self
    }

    /// Sets [`max_concurrent_calls`](Self::max_concurrent_calls).
    #[must_use]
    pub fn max_concurrent_calls(mut self, limit: NonZeroUsize) -> Self {
        self.max_concurrent_calls = Some(limit);
        self
    }

    /// Sets [`restart`](Self::restart).
    #[must_use]
    pub fn restart(mut self, policy: RestartPolicy) -> Self {
        self.restart = policy;
        self
    }

    /// Sets [`include_tools`](Self::include_tools).
    #[must_use]
    pub fn include_tools<S: Into<String>>(mut self, tools: impl IntoIterator<Item = S>) -> Self {
        self.include_tools = Some(tools.into_iter().map(Into::into).collect());
        self
    }

    /// Adds to [`exclude_tools`](Self::exclude_tools).
    #[must_use]
    pub fn exclude_tools<S: Into<String>>(mut self, tools: impl IntoIterator<Item = S>) -> Self {
        self.exclude_tools.extend(tools.into_iter().map(Into::into));
        self
    }

    /// Sets [`required`](Self::required).
    #[must_use]
    pub fn required(mut self, required: bool) -> Self {
        self.required = required;
        self
    }

    /// The [standard connector](crate::StandardConnectors) for this server, named `id` in
    /// errors, with its `${...}` references expanded from the process environment now: for
    /// using one server of a file without a manager. Fails on the first reference that cannot
    /// be expanded, naming its field, and on a transport the standard connectors do not make.
    pub fn connector(&self, id: &str) -> Result<Arc<dyn Connector>, ConfigError> {
        let lookup = crate::server_to_connect::process_env;
        StandardConnectors.connector(&ServerToConnect::new(id, self, &lookup, None))
    }

    /// Whether the two configure the server alike, whatever fields Toolport does not know
    /// they carry: a change to those alone needs no restart.
    pub fn same_settings(&self, other: &ServerConfig) -> bool {
        let mut this = self.clone();
        this.other.clone_from(&other.other);
        this == *other
    }

    /// Whether the tool the server names `tool` is offered, by the include and exclude lists.
    pub fn offers(&self, tool: &str) -> bool {
        let included = self
            .include_tools
            .as_ref()
            .is_none_or(|names| names.iter().any(|name| name == tool));
        included && !self.exclude_tools.iter().any(|name| name == tool)
    }

    /// Whether calls of the tool the server names `tool` skip the before-call hook.
    pub fn is_auto_approved(&self, tool: &str) -> bool {
        self.auto_approve.iter().any(|name| name == tool)
    }
}

#[cfg(test)]
mod tests {
    use std::convert::Infallible;

    use super::*;

    #[test]
    fn every_expanded_value_is_mapped_under_its_field_in_order() {
        let config = ServerConfig::stdio("run-${NAME}")
            .args(["--port", "${PORT}"])
            .env("API_KEY", "${key}")
            .cwd("/srv/${NAME}");
        let mut fields = Vec::new();
        let mapped = config
            .transport
            .try_map_values(|field, value| {
                fields.push(field.to_owned());
                Ok::<_, Infallible>(value.to_uppercase())
            })
            .unwrap();
        assert_eq!(
            fields,
            ["command", "args[0]", "args[1]", "env.API_KEY", "cwd"]
        );
        let TransportConfig::Stdio { command, env, .. } = mapped else {
            panic!("not stdio: {mapped:?}");
        };
        assert_eq!(command, "RUN-${NAME}");
        assert_eq!(env[0].1.expose(), "${KEY}");
    }

    #[test]
    fn the_first_error_stops_the_mapping() {
        let config = ServerConfig::http("https://${HOST}/mcp").header("Authorization", "${TOKEN}");
        let mut seen = 0;
        let error = config.transport.try_map_values(|field, _| {
            seen += 1;
            Err(field.to_owned())
        });
        assert_eq!((error, seen), (Err("url".to_owned()), 1));
    }
}
