//! The configuration: [`McpConfig`] (a whole `mcp.json`), [`ServerConfig`] (one server's
//! entry), [`RestartPolicy`], and the expansion of `${VAR}` references when a server starts.

mod entry;
mod error;
mod expand;
mod file;
mod restart;
mod server;

pub use error::ConfigError;
pub use expand::ExpandError;
pub use expand::expand;
pub use file::{ConfigForm, McpConfig};
pub use restart::RestartPolicy;
pub use server::{ServerConfig, TransportConfig};
