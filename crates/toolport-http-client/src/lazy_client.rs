//! [`LazyHttpClient`]: the one pooled [`HttpClient`] of a server's settings, made on first use.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use toolport_core::ConnectError;

use crate::{HttpClient, NetworkOptions};

/// The pooled client a server's connects share, made on the first connect, with TLS only when
/// the server is `https`. For transport authors: keep one in the server's settings; clones
/// share it.
///
/// The client is made for one connect timeout (the session's
/// [`Timeouts::connect`](toolport_core::Timeouts::connect)) and one [`NetworkOptions`]; a
/// connect with another bound or other network settings, or one that needs `https` from a
/// client made for plain `http`, replaces it with a fresh one.
#[derive(Debug, Clone, Default)]
pub struct LazyHttpClient {
    made: Arc<Mutex<Option<Made>>>,
}

#[derive(Debug, Clone)]
struct Made {
    client: HttpClient,
    connect_timeout: Duration,
    network: NetworkOptions,
}

impl LazyHttpClient {
    /// The shared client with `network`'s settings for a server that is `https` or not, whose
    /// connects are bounded by `connect_timeout`; made now if there is none that fits.
    ///
    /// # Errors
    ///
    /// As [`HttpClient::new`], when a client has to be made.
    pub fn get(
        &self,
        network: &NetworkOptions,
        https: bool,
        connect_timeout: Duration,
    ) -> Result<HttpClient, ConnectError> {
        let mut made = self.made.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(made) = made.as_ref()
            && made.connect_timeout == connect_timeout
            && made.network == *network
            && (made.client.supports_tls() || !https)
        {
            return Ok(made.client.clone());
        }
        let client = HttpClient::new(network, https, connect_timeout)?;
        *made = Some(Made {
            client: client.clone(),
            connect_timeout,
            network: network.clone(),
        });
        Ok(client)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::WithHttpOptions;

    const SECOND: Duration = Duration::from_secs(1);

    fn get(lazy: &LazyHttpClient, https: bool, bound: Duration) -> HttpClient {
        lazy.get(&NetworkOptions::default(), https, bound).unwrap()
    }

    #[cfg(feature = "tls")]
    #[test]
    fn an_https_server_never_gets_the_plain_client_made_first() {
        let lazy = LazyHttpClient::default();
        assert!(!get(&lazy, false, SECOND).supports_tls());
        assert!(get(&lazy, true, SECOND).supports_tls());
        // The TLS client serves plain `http` too, so it is kept.
        assert!(get(&lazy, false, SECOND).supports_tls());
    }

    #[test]
    fn another_connect_bound_makes_a_new_client() {
        let lazy = LazyHttpClient::default();
        let bound = || lazy.made.lock().unwrap().as_ref().unwrap().connect_timeout;
        get(&lazy, false, SECOND);
        assert_eq!(bound(), SECOND);
        get(&lazy, false, 2 * SECOND);
        assert_eq!(bound(), 2 * SECOND);
    }

    #[test]
    fn other_network_settings_make_a_new_client() {
        let lazy = LazyHttpClient::default();
        let network = || lazy.made.lock().unwrap().as_ref().unwrap().network.clone();
        get(&lazy, false, SECOND);
        assert_eq!(network(), NetworkOptions::default());
        let direct = crate::HttpOptions::new().no_proxy().network;
        lazy.get(&direct, false, SECOND).unwrap();
        assert_eq!(network(), direct);
    }
}
