//! A remote server's [`NetworkOptions`], made from its entry's [`NetworkConfig`] when it starts:
//! each `${...}` expanded, the proxy kept a secret, and the PEM files read.

use toolport_core::Secret;
use toolport_http_client::{HttpOptions, NetworkOptions, WithHttpOptions};

use crate::ServerToConnect;
use crate::config::{ConfigError, NetworkConfig};

/// The network settings of `server`, from `config`, or the first field that cannot be
/// expanded or read. An error names a file as written, never expanded.
pub(crate) fn network_options(
    server: &ServerToConnect<'_>,
    config: &NetworkConfig,
) -> Result<NetworkOptions, ConfigError> {
    let expanded = |field: &str, template: &str| server.expand(field, template);
    let read = |field: &str, written: &str| {
        let path = expanded(field, written)?;
        std::fs::read(&path)
            .map_err(|error| server.error(format!("`{field}`: cannot read `{written}`: {error}")))
    };
    let mut options = HttpOptions::new();
    if let Some(proxy) = &config.proxy {
        options = options.proxy(Secret::new(expanded("proxy", proxy.expose())?));
    }
    for (index, file) in config.ca_files.iter().enumerate() {
        options = options.add_root_certificate(read(&format!("caFiles[{index}]"), file)?);
    }
    if let (Some(cert), Some(key)) = (&config.client_cert, &config.client_key) {
        let key = String::from_utf8(read("clientKey", key)?)
            .map_err(|_| server.error(format!("`clientKey`: `{key}` is not a PEM text")))?;
        options = options.client_identity(read("clientCert", cert)?, Secret::new(key));
    }
    Ok(options.network)
}
