//! [`TlsGateway`]: TLS on `127.0.0.1` in front of a plain server, with a certificate from a
//! [`TestPki`], requiring a client certificate from the same CA when asked to.

use std::io;
use std::net::SocketAddr;
use std::sync::Arc;

use rustls::ServerConfig;
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, PrivateKeyDer};
use rustls::server::WebPkiClientVerifier;
use tokio::net::{TcpListener, TcpStream};
use tokio::task::{JoinHandle, JoinSet};
use tokio_rustls::TlsAcceptor;

use crate::TestPki;

/// Terminates TLS on a port of `127.0.0.1` and passes the bytes to a plain server, as a
/// company's gateway does. Stops (with every connection) when dropped.
#[derive(Debug)]
pub struct TlsGateway {
    port: u16,
    task: JoinHandle<()>,
}

impl TlsGateway {
    /// A gateway to `upstream` with `pki`'s server certificate; with
    /// `require_client_certificate`, a handshake without a client certificate that `pki`'s CA
    /// issued fails.
    pub async fn start(
        pki: &TestPki,
        upstream: SocketAddr,
        require_client_certificate: bool,
    ) -> io::Result<Self> {
        let config = server_config(pki, require_client_certificate).map_err(io::Error::other)?;
        let acceptor = TlsAcceptor::from(Arc::new(config));
        let listener = TcpListener::bind(("127.0.0.1", 0)).await?;
        let port = listener.local_addr()?.port();
        let task = tokio::spawn(async move {
            // Dropped with the task, so every connection ends with the gateway.
            let mut connections = JoinSet::new();
            while let Ok((tcp, _)) = listener.accept().await {
                let acceptor = acceptor.clone();
                connections.spawn(async move {
                    let Ok(mut tls) = acceptor.accept(tcp).await else {
                        return;
                    };
                    if let Ok(mut server) = TcpStream::connect(upstream).await {
                        let _ = tokio::io::copy_bidirectional(&mut tls, &mut server).await;
                    }
                });
            }
        });
        Ok(Self { port, task })
    }

    /// The gateway's port.
    pub fn port(&self) -> u16 {
        self.port
    }

    /// `https://{host}:{port}`: the origin of the server behind it, by the name `host`.
    pub fn origin(&self, host: &str) -> String {
        format!("https://{host}:{}", self.port)
    }

    /// `https://{host}:{port}/mcp`: the URL of a Streamable HTTP server behind it.
    pub fn url(&self, host: &str) -> String {
        format!("{}/mcp", self.origin(host))
    }
}

impl Drop for TlsGateway {
    fn drop(&mut self) {
        self.task.abort();
    }
}

fn server_config(pki: &TestPki, require_client_certificate: bool) -> Result<ServerConfig, String> {
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let chain = vec![
        CertificateDer::from_pem_slice(pki.server.cert_pem.as_bytes())
            .map_err(|e| e.to_string())?,
    ];
    let key =
        PrivateKeyDer::from_pem_slice(pki.server.key_pem.as_bytes()).map_err(|e| e.to_string())?;
    let builder = ServerConfig::builder_with_provider(Arc::clone(&provider))
        .with_safe_default_protocol_versions()
        .map_err(|e| e.to_string())?;
    let builder = if require_client_certificate {
        let mut roots = rustls::RootCertStore::empty();
        roots
            .add(CertificateDer::from_pem_slice(pki.ca_pem.as_bytes()).map_err(|e| e.to_string())?)
            .map_err(|e| e.to_string())?;
        let verifier = WebPkiClientVerifier::builder_with_provider(Arc::new(roots), provider)
            .build()
            .map_err(|e| e.to_string())?;
        builder.with_client_cert_verifier(verifier)
    } else {
        builder.with_no_client_auth()
    };
    builder
        .with_single_cert(chain, key)
        .map_err(|e| e.to_string())
}
