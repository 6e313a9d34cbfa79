//! [`NetworkOptions`]: how a client reaches servers: the proxy, the roots it trusts beyond the
//! system's, and the certificate it presents.

use std::fmt;

use toolport_core::Secret;

use crate::Proxy;

/// The network settings of an HTTP client: the proxy, extra trusted roots and a client
/// certificate. Part of [`HttpOptions`](crate::HttpOptions), which sets them.
///
/// Certificate verification is always on: there is no setting that turns it off.
#[derive(Clone, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct NetworkOptions {
    /// Whether requests go through a proxy. Default: as the environment says.
    pub proxy: Proxy,
    /// A `NO_PROXY` list that replaces the environment's: hosts, `.domains`, IPs, CIDR
    /// ranges, `*`.
    pub proxy_bypass: Option<String>,
    /// Certificate authorities trusted besides the system's, each a PEM text of one or more
    /// certificates.
    pub root_certificates: Vec<Vec<u8>>,
    /// The certificate chain and key presented to servers that ask for one (mutual TLS).
    pub client_identity: Option<ClientIdentity>,
}

/// A client certificate chain and its private key, both PEM. The key is a [`Secret`]: it never
/// shows in `Debug` output.
#[derive(Clone, PartialEq, Eq)]
pub struct ClientIdentity {
    /// The certificate chain, leaf first, PEM.
    pub cert_chain_pem: Vec<u8>,
    /// The private key (PKCS#8, PKCS#1 or SEC1), PEM.
    pub key_pem: Secret,
}

impl fmt::Debug for ClientIdentity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ClientIdentity")
            .field("cert_chain_pem_bytes", &self.cert_chain_pem.len())
            .field("key_pem", &self.key_pem)
            .finish()
    }
}

impl fmt::Debug for NetworkOptions {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("NetworkOptions")
            .field("proxy", &self.proxy)
            .field("proxy_bypass", &self.proxy_bypass)
            .field("root_certificates", &self.root_certificates.len())
            .field("client_identity", &self.client_identity)
            .finish()
    }
}
