//! [`ManagerBuilder`]: the settings every managed server shares.

use std::fmt;
use std::num::NonZeroUsize;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use rmcp::model::ProtocolVersion;
use toolport_core::{ProtocolChoice, Timeouts};
use toolport_tools::schema::Provider;
use toolport_tools::{BeforeCall, McpToolsetBuilder};

use crate::server_to_connect::{Lookup, process_env};
use crate::{ConfigError, ConnectorFactory, McpConfig, McpServerManager, StandardConnectors};

/// Changes the toolset builder of one server (by its id) before its toolset is built.
pub(crate) type ConfigureToolset =
    dyn Fn(&str, McpToolsetBuilder) -> McpToolsetBuilder + Send + Sync;

/// The settings every managed server shares; a server's own entry (`timeout`,
/// `startupTimeout`, `maxConcurrentCalls`) takes precedence.
pub(crate) struct Options {
    pub(crate) timeouts: Timeouts,
    pub(crate) startup_timeout: Duration,
    pub(crate) max_concurrent_calls: Option<NonZeroUsize>,
    pub(crate) startup_grace: Duration,
    pub(crate) health_interval: Duration,
    pub(crate) ping_every: Option<Duration>,
    pub(crate) grace: Duration,
    pub(crate) provider: Option<Provider>,
    pub(crate) always_prefix: bool,
    pub(crate) before_call: Option<Arc<dyn BeforeCall>>,
    pub(crate) protocol: Option<ProtocolChoice>,
    pub(crate) configure: Option<Arc<ConfigureToolset>>,
    pub(crate) connectors: Arc<dyn ConnectorFactory>,
    pub(crate) lookup: Arc<Lookup>,
}

impl fmt::Debug for Options {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Options")
            .field("timeouts", &self.timeouts)
            .field("startup_timeout", &self.startup_timeout)
            .field("max_concurrent_calls", &self.max_concurrent_calls)
            .field("startup_grace", &self.startup_grace)
            .field("health_interval", &self.health_interval)
            .field("ping_every", &self.ping_every)
            .field("grace", &self.grace)
            .field("provider", &self.provider)
            .field("always_prefix", &self.always_prefix)
            .field("before_call", &self.before_call.is_some())
            .field("protocol", &self.protocol)
            .field("configure", &self.configure.is_some())
            .field("connectors", &self.connectors)
            .finish_non_exhaustive()
    }
}

/// Builds an [`McpServerManager`]: the servers (a file, or none to add later) and the settings
/// they share.
///
/// # Examples
///
/// ```
/// use std::time::Duration;
/// use toolport_manager::McpServerManager;
/// use toolport_tools::{ApprovalPolicy, schema::Provider};
///
/// let manager = McpServerManager::builder()
///     .provider(Provider::Anthropic)
///     .before_call(ApprovalPolicy::new())
///     .health_interval(Duration::from_secs(2))
///     .build();
/// assert!(manager.ids().is_empty());
/// ```
#[must_use]
pub struct ManagerBuilder {
    pub(crate) options: Options,
    pub(crate) config: McpConfig,
    pub(crate) path: Option<PathBuf>,
}

impl fmt::Debug for ManagerBuilder {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ManagerBuilder")
            .field("options", &self.options)
            .field("path", &self.path)
            .finish_non_exhaustive()
    }
}

impl ManagerBuilder {
    /// Default for [`health_interval`](Self::health_interval): 1 s.
    pub const DEFAULT_HEALTH_INTERVAL: Duration = Duration::from_secs(1);
    /// Default for [`startup_grace`](Self::startup_grace): 2 s.
    pub const DEFAULT_STARTUP_GRACE: Duration = Duration::from_secs(2);
    /// Default for [`grace`](Self::grace): 5 s.
    pub const DEFAULT_GRACE: Duration = Duration::from_secs(5);

    pub(crate) fn new() -> Self {
        let timeouts = Timeouts::default();
        Self {
            options: Options {
                timeouts,
                startup_timeout: timeouts.connect + timeouts.initialize,
                max_concurrent_calls: None,
                startup_grace: Self::DEFAULT_STARTUP_GRACE,
                health_interval: Self::DEFAULT_HEALTH_INTERVAL,
                ping_every: None,
                grace: Self::DEFAULT_GRACE,
                provider: None,
                always_prefix: false,
                before_call: None,
                protocol: None,
                configure: None,
                connectors: Arc::new(StandardConnectors),
                lookup: Arc::new(process_env),
            },
            config: McpConfig::new(crate::ConfigForm::McpServers),
            path: None,
        }
    }

    /// Manages the servers of the file at `path`, which [`save`](McpServerManager::save)
    /// writes back. Fails only when the file as a whole is unusable; a broken entry is
    /// reported by [`start_all`](McpServerManager::start_all) and the others start.
    pub fn load(mut self, path: impl Into<PathBuf>) -> Result<Self, ConfigError> {
        let path = path.into();
        self.config = McpConfig::load(&path)?;
        self.path = Some(path);
        Ok(self)
    }

    /// Manages the servers of `config`, read elsewhere; no file to save to.
    pub fn config(mut self, config: McpConfig) -> Self {
        self.config = config;
        self.path = None;
        self
    }

    /// Bounds for each server's connect, handshake and requests; a server's `timeout` replaces
    /// the request bound. See [`Timeouts`] for the defaults. Sets the startup timeout to
    /// connect plus initialize, unless [`startup_timeout`](Self::startup_timeout) follows.
    pub fn timeouts(mut self, timeouts: Timeouts) -> Self {
        self.options.timeouts = timeouts;
        self.options.startup_timeout = timeouts.connect + timeouts.initialize;
        self
    }

    /// The bound on one whole start (the process or connection, the handshake and its
    /// retries); a server's `startupTimeout` replaces it. Default 40 s: the default connect and
    /// initialize bounds together.
    pub fn startup_timeout(mut self, timeout: Duration) -> Self {
        self.options.startup_timeout = timeout;
        self
    }

    /// At most `limit` tool calls in flight to each server at once, for every server whose
    /// entry has no `maxConcurrentCalls` of its own. A call past it waits for one to end, in
    /// the order the calls came, within its timeout; calls to the other servers never wait
    /// for it. Default: no limit.
    pub fn max_concurrent_calls(mut self, limit: NonZeroUsize) -> Self {
        self.options.max_concurrent_calls = Some(limit);
        self
    }

    /// How long [`start_all`](McpServerManager::start_all) waits for a server not marked
    /// `required` before it returns without it; the server goes on starting and joins the
    /// aggregate when it is up. Default 2 s. [`Duration::MAX`] waits for every server, as
    /// for a required one, but without failing the start when it does not start.
    pub fn startup_grace(mut self, grace: Duration) -> Self {
        self.options.startup_grace = grace;
        self
    }

    /// How often each running server's connection is checked. Default 1 s; the check reads a
    /// flag and sends nothing.
    pub fn health_interval(mut self, interval: Duration) -> Self {
        self.options.health_interval = interval;
        self
    }

    /// Also pings each running server this often, and restarts one whose ping fails: for
    /// servers that can hang without closing their connection. Off by default.
    pub fn ping_every(mut self, interval: Duration) -> Self {
        self.options.ping_every = Some(interval);
        self
    }

    /// How long each server is given to close at [`stop`](McpServerManager::stop) and
    /// [`shutdown`](McpServerManager::shutdown): a child process has half of it to exit once
    /// its stdin closes and half once it is sent `SIGTERM`, then it is killed. Default 5 s.
    pub fn grace(mut self, grace: Duration) -> Self {
        self.options.grace = grace;
        self
    }

    /// Fits every server's tools to `provider`: its name rule (which the aggregate's prefixed
    /// names follow too) and its schema adapter.
    pub fn provider(mut self, provider: Provider) -> Self {
        self.options.provider = Some(provider);
        self
    }

    /// Names every tool `{server_id}__{tool}`, not only those two servers publish, so that
    /// names stay the same as servers come and go. Off by default.
    pub fn always_prefix(mut self, always: bool) -> Self {
        self.options.always_prefix = always;
        self
    }

    /// Decides about every call of a tool that is not on its server's `autoApprove` list (an
    /// [`ApprovalPolicy`](toolport_tools::ApprovalPolicy), say). With no hook, every call goes
    /// through, and `autoApprove` changes nothing.
    pub fn before_call(mut self, hook: impl BeforeCall + 'static) -> Self {
        self.options.before_call = Some(Arc::new(hook));
        self
    }

    /// Pins the protocol version every server is asked for. Default: the session's.
    pub fn protocol_version(self, version: ProtocolVersion) -> Self {
        self.protocol(ProtocolChoice::Pinned(version))
    }

    /// How every server's session settles on a protocol version: pinned, or negotiated (see
    /// [`ProtocolChoice`]). Default: the session's.
    pub fn protocol(mut self, choice: impl Into<ProtocolChoice>) -> Self {
        self.options.protocol = Some(choice.into());
        self
    }

    /// Changes each server's toolset builder (by the server's id) before its toolset is built:
    /// a result mapping, output budgets, layers.
    pub fn configure_toolsets(
        mut self,
        configure: impl Fn(&str, McpToolsetBuilder) -> McpToolsetBuilder + Send + Sync + 'static,
    ) -> Self {
        self.options.configure = Some(Arc::new(configure));
        self
    }

    /// Makes each server's connector from its entry. Default: [`StandardConnectors`]. A
    /// factory of your own adds a transport, or changes one server's connector, and hands the
    /// rest to the standard connectors (see [`ConnectorFactory`]).
    pub fn connectors(mut self, factory: impl ConnectorFactory) -> Self {
        self.options.connectors = Arc::new(factory);
        self
    }

    /// Where `${VAR}` references are looked up. Default: the process environment.
    pub fn env_lookup(
        mut self,
        lookup: impl Fn(&str) -> Option<String> + Send + Sync + 'static,
    ) -> Self {
        self.options.lookup = Arc::new(lookup);
        self
    }

    /// The manager, its servers registered and none started: call
    /// [`start_all`](McpServerManager::start_all).
    pub fn build(self) -> McpServerManager {
        McpServerManager::from_builder(self)
    }
}
