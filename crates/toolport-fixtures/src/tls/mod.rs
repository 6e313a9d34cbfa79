//! What the tests of an enterprise network need, on `127.0.0.1` (the `tls` feature): a
//! certificate authority made in the test ([`TestPki`]), a TLS gateway in front of any server
//! that may require client certificates ([`TlsGateway`]), and an HTTP proxy that tunnels
//! `CONNECT` and forwards plain requests, recording each ([`ConnectProxy`]).

mod connect_proxy;
mod gateway;
mod pki;

pub use connect_proxy::{ConnectProxy, ProxiedRequest};
pub use gateway::TlsGateway;
pub use pki::{TestIdentity, TestPki};
