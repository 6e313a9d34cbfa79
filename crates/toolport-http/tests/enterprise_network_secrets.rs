//! Through a proxy with credentials, to a server that requires a client certificate, traced at
//! every level: neither the proxy's password nor the client key reaches a log line or `Debug`.
//! Alone in its binary, so that no other test's callsites race the thread-local subscriber.

mod common;

use common::{PROXY_BASIC, PROXY_PASSWORD, PROXY_USER, echo, gatewayed};
use toolport_fixtures::{CapturedLog, ConnectProxy, TestPki};
use toolport_http::{HttpServer, WithHttpOptions};

// One thread, so that the thread-local subscriber sees every task.
#[tokio::test(flavor = "current_thread")]
async fn a_server_behind_a_proxy_an_internal_ca_and_mutual_tls_answers() {
    let log = CapturedLog::default();
    let _guard = tracing::subscriber::set_default(log.subscriber());
    let pki = TestPki::new("Example Corp Root CA");
    let behind = gatewayed(&pki, true).await;
    let proxy = ConnectProxy::start().await.unwrap();

    let server = HttpServer::new(behind.gateway.url(TestPki::INTERNAL_HOST))
        .proxy(proxy.url_with_credentials(PROXY_USER, PROXY_PASSWORD))
        .add_root_certificate(pki.ca_pem.clone())
        .client_identity(pki.client.cert_pem.clone(), pki.client.key_pem.clone());
    let shown = format!("{server:?}");
    assert_eq!(echo(server).await.unwrap(), "hi");

    let requests = proxy.requests();
    assert!(!requests.is_empty());
    for request in &requests {
        assert_eq!(request.method, "CONNECT");
        let target = format!("{}:{}", TestPki::INTERNAL_HOST, behind.gateway.port());
        assert_eq!(request.target, target);
        assert_eq!(request.proxy_authorization.as_deref(), Some(PROXY_BASIC));
    }
    let logs = log.text();
    assert!(
        logs.contains("Streamable HTTP"),
        "the test captured the logs"
    );
    for secret in [PROXY_PASSWORD, PROXY_BASIC, "YWdlbnQ6cHJveHktcHctN2YzYQ"] {
        assert!(!logs.contains(secret), "{secret} logged");
        assert!(!shown.contains(secret), "{secret} in {shown}");
    }
    let key = pki.client.key_pem.lines().nth(1).unwrap();
    assert!(
        !logs.contains(key) && !shown.contains(key),
        "the client key shown"
    );
}
