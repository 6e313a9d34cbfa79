//! [`ServerToConnect`]: one server about to start, as a [`ConnectorFactory`] sees it.
//!
//! [`ConnectorFactory`]: crate::ConnectorFactory

use std::fmt;
use std::time::Duration;

use crate::config::expand;
use crate::{ConfigError, ServerConfig};

/// Looks up an environment variable, for `${VAR}`.
pub(crate) type Lookup = dyn Fn(&str) -> Option<String> + Send + Sync;

/// The process environment, as [`Lookup`]. A variable that is not valid Unicode is unset.
pub(crate) fn process_env(name: &str) -> Option<String> {
    std::env::var(name).ok()
}

/// One server about to start: its id, its entry as written, and the manager's means to
/// expand the entry's `${...}` references.
pub struct ServerToConnect<'a> {
    id: &'a str,
    config: &'a ServerConfig,
    lookup: &'a Lookup,
    grace: Option<Duration>,
}

impl<'a> ServerToConnect<'a> {
    pub(crate) fn new(
        id: &'a str,
        config: &'a ServerConfig,
        lookup: &'a Lookup,
        grace: Option<Duration>,
    ) -> Self {
        Self {
            id,
            config,
            lookup,
            grace,
        }
    }

    /// The server's id: its key in `mcp.json`.
    pub fn id(&self) -> &'a str {
        self.id
    }

    /// The server's entry, as written: its `${...}` references not yet expanded.
    pub fn config(&self) -> &'a ServerConfig {
        self.config
    }

    /// How long the manager gives the server to close when it stops it
    /// ([`ManagerBuilder::grace`](crate::ManagerBuilder::grace)); `None` when the connector is
    /// made outside a manager ([`ServerConfig::connector`]).
    pub fn grace(&self) -> Option<Duration> {
        self.grace
    }

    /// `template` (the value of the entry's `field`) with its `${VAR}`, `${VAR:-default}` and
    /// `${env:VAR}` references expanded, as the manager expands the standard transports'
    /// fields; or an error naming the server and `field` when a variable is unset and has no
    /// default.
    pub fn expand(&self, field: &str, template: &str) -> Result<String, ConfigError> {
        expand(template, self.lookup).map_err(|source| ConfigError::Expand {
            server: self.id.to_owned(),
            field: field.to_owned(),
            source,
        })
    }

    /// The error for what is wrong with this server's entry, which `problem` describes (and
    /// should name the field of): `server `{id}`: {problem}`.
    pub fn error(&self, problem: impl Into<String>) -> ConfigError {
        ConfigError::entry(self.id, problem)
    }
}

impl fmt::Debug for ServerToConnect<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ServerToConnect")
            .field("id", &self.id)
            .field("config", &self.config)
            .field("grace", &self.grace)
            .finish_non_exhaustive()
    }
}
