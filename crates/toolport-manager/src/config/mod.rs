//! The configuration: [`McpConfig`] (a whole `mcp.json`), [`ServerConfig`] (one server's
//! entry), [`NetworkConfig`] (a remote server's proxy and certificates), [`RestartPolicy`], and the expansion of `${VAR}` references when a server starts.

mod entry;
mod error;
mod expand;
mod file;
mod network;
mod restart;
mod server;

pub use error::ConfigError;
pub use expand::ExpandError;
pub use expand::expand;
pub use file::{ConfigForm, McpConfig};
pub use network::NetworkConfig;
pub use restart::RestartPolicy;
pub use server::{ServerConfig, TransportConfig};
