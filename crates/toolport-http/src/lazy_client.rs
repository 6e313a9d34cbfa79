//! [`LazyHttpClient`]: the one pooled [`HttpClient`] of a server's settings, made on first use.

use std::sync::OnceLock;
use std::time::Duration;

use toolport_core::ConnectError;

use crate::HttpClient;

/// The pooled client a server's connects share, made on the first connect, with TLS only when
/// the server is `https`. For transport authors: keep one in the server's settings and replace
/// it with a fresh one when the settings the client is made from (the connect timeout) change.
/// Clones made after the first connect share its pool.
#[derive(Debug, Clone, Default)]
pub struct LazyHttpClient {
    client: OnceLock<HttpClient>,
}

impl LazyHttpClient {
    /// The shared client, made now if there is none yet (or none that speaks `https` when
    /// `https` is asked for).
    pub fn get(&self, https: bool, connect_timeout: Duration) -> Result<HttpClient, ConnectError> {
        if let Some(client) = self.client.get()
            && (client.supports_tls() || !https)
        {
            return Ok(client.clone());
        }
        let client = HttpClient::for_scheme(https, connect_timeout)?;
        Ok(self.client.get_or_init(|| client).clone())
    }
}
