//! [`LazyHttpClient`]: the one pooled [`HttpClient`] of a server's settings, made on first use.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use toolport_core::ConnectError;

use crate::HttpClient;

/// The pooled client a server's connects share, made on the first connect, with TLS only when
/// the server is `https`. For transport authors: keep one in the server's settings; clones
/// share it.
///
/// The client is made for one connect timeout (the session's
/// [`Timeouts::connect`](toolport_core::Timeouts::connect)); a connect with another bound, or
/// one that needs `https` from a client made for plain `http`, replaces it with a fresh one.
#[derive(Debug, Clone, Default)]
pub struct LazyHttpClient {
    made: Arc<Mutex<Option<Made>>>,
}

#[derive(Debug, Clone)]
struct Made {
    client: HttpClient,
    connect_timeout: Duration,
}

impl LazyHttpClient {
    /// The shared client for a server that is `https` or not, whose connects are bounded by
    /// `connect_timeout`; made now if there is none that fits.
    ///
    /// # Errors
    ///
    /// As [`HttpClient::with_tls`], when a TLS client has to be made.
    pub fn get(&self, https: bool, connect_timeout: Duration) -> Result<HttpClient, ConnectError> {
        let mut made = self.made.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(made) = made.as_ref()
            && made.connect_timeout == connect_timeout
            && (made.client.supports_tls() || !https)
        {
            return Ok(made.client.clone());
        }
        let client = HttpClient::for_scheme(https, connect_timeout)?;
        *made = Some(Made {
            client: client.clone(),
            connect_timeout,
        });
        Ok(client)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SECOND: Duration = Duration::from_secs(1);

    #[cfg(feature = "tls")]
    #[test]
    fn an_https_server_never_gets_the_plain_client_made_first() {
        let lazy = LazyHttpClient::default();
        assert!(!lazy.get(false, SECOND).unwrap().supports_tls());
        assert!(lazy.get(true, SECOND).unwrap().supports_tls());
        // The TLS client serves plain `http` too, so it is kept.
        assert!(lazy.get(false, SECOND).unwrap().supports_tls());
    }

    #[test]
    fn another_connect_bound_makes_a_new_client() {
        let lazy = LazyHttpClient::default();
        let bound = || lazy.made.lock().unwrap().as_ref().unwrap().connect_timeout;
        lazy.get(false, SECOND).unwrap();
        assert_eq!(bound(), SECOND);
        lazy.get(false, 2 * SECOND).unwrap();
        assert_eq!(bound(), 2 * SECOND);
    }
}
