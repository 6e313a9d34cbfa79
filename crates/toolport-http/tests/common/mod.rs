//! What the tests of an enterprise network share: a Streamable HTTP server behind a TLS gateway
//! with a certificate from a test CA, a call that goes through the whole stack, and the proxy
//! credentials the tests use.

use std::net::SocketAddr;

use serde_json::json;
use toolport_fixtures::{HttpFixtureServer, LabServer, TestPki, TlsGateway};
use toolport_http::HttpServer;
use toolport_session::{CallOptions, McpSession, SessionError};
use toolport_testkit::{bounded, call_params, first_text};

pub const PROXY_USER: &str = "agent";
pub const PROXY_PASSWORD: &str = "proxy-pw-7f3a";
/// base64 of `agent:proxy-pw-7f3a`.
pub const PROXY_BASIC: &str = "Basic YWdlbnQ6cHJveHktcHctN2YzYQ==";

/// A Streamable HTTP server behind a TLS gateway with `pki`'s certificate.
pub struct Gatewayed {
    pub gateway: TlsGateway,
    _server: HttpFixtureServer,
}

pub async fn gatewayed(pki: &TestPki, require_client_certificate: bool) -> Gatewayed {
    let server = bounded("start", HttpFixtureServer::start(LabServer::new))
        .await
        .unwrap();
    let upstream = SocketAddr::from(([127, 0, 0, 1], server.port()));
    let gateway = TlsGateway::start(pki, upstream, require_client_certificate)
        .await
        .unwrap();
    Gatewayed {
        gateway,
        _server: server,
    }
}

pub async fn echo(server: HttpServer) -> Result<String, SessionError> {
    let session = McpSession::new(server);
    let call = session.call_tool(
        call_params("echo", json!({ "text": "hi" })),
        CallOptions::default(),
    );
    let result = bounded("tools/call echo", call).await;
    session.close().await;
    result.map(|result| first_text(&result).to_owned())
}
