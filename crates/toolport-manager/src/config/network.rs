//! [`NetworkConfig`]: a remote server's `proxy`, `caFiles`, `clientCert` and `clientKey`, as
//! written (before `${...}` expansion).

use toolport_core::Secret;

/// How a remote server is reached on the network, as its `mcp.json` entry says. Each value may
/// hold `${VAR}` references, expanded when the server starts; the files are read then.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct NetworkConfig {
    /// `proxy`: an `http://` proxy for this server, instead of the environment's
    /// (`HTTPS_PROXY`, `HTTP_PROXY`, `ALL_PROXY`); `NO_PROXY` still applies. A secret: it
    /// may hold a password.
    pub proxy: Option<Secret>,
    /// `caFiles`: PEM files of certificate authorities trusted besides the system's.
    pub ca_files: Vec<String>,
    /// `clientCert`: the PEM file of a client certificate chain (mutual TLS), with `clientKey`.
    pub client_cert: Option<String>,
    /// `clientKey`: the PEM file of `clientCert`'s private key.
    pub client_key: Option<String>,
}

impl NetworkConfig {
    /// Whether every setting is at its default.
    pub fn is_default(&self) -> bool {
        *self == Self::default()
    }
}
