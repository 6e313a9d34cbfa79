//! Legacy HTTP+SSE inside a company network, on real sockets on 127.0.0.1: the event stream and
//! the messages both go through a `CONNECT` proxy to a server behind a TLS gateway with a
//! certificate from a CA made in the test, that requires a client certificate.

mod common;

use std::net::SocketAddr;

use common::echo;
use toolport_fixtures::{ConnectProxy, LabServer, LegacySseFixtureServer, TestPki, TlsGateway};
use toolport_session::McpSession;
use toolport_sse::{SseServer, WithHttpOptions};
use toolport_testkit::{bounded, first_text};

#[tokio::test]
async fn the_stream_and_the_messages_go_through_the_proxy_with_the_ca_and_client_certificate() {
    let pki = TestPki::new("Example Corp Root CA");
    let server = bounded("start", LegacySseFixtureServer::start(LabServer::new))
        .await
        .unwrap();
    let upstream = SocketAddr::from(([127, 0, 0, 1], server.port()));
    let gateway = TlsGateway::start(&pki, upstream, true).await.unwrap();
    let proxy = ConnectProxy::start().await.unwrap();

    let url = format!("{}/sse", gateway.origin(TestPki::INTERNAL_HOST));
    let connector = SseServer::new(url)
        .proxy(proxy.url())
        .add_root_certificate(pki.ca_pem.clone())
        .client_identity(pki.client.cert_pem.clone(), pki.client.key_pem.clone());
    let session = McpSession::new(connector);
    assert_eq!(first_text(&echo(&session, "hi").await.unwrap()), "hi");
    session.close().await;

    // One tunnel for the stream, at least one more for the POSTs beside it.
    let requests = proxy.requests();
    assert!(requests.len() >= 2, "{requests:?}");
    let target = format!("{}:{}", TestPki::INTERNAL_HOST, gateway.port());
    assert!(
        requests
            .iter()
            .all(|r| r.method == "CONNECT" && r.target == target)
    );
}
