//! Streamable HTTP inside a company network, on real sockets on 127.0.0.1: a server behind a TLS
//! gateway with a certificate from a CA made in the test, that requires a client certificate,
//! reached through a `CONNECT` proxy that the test runs and that alone knows the server's name.

mod common;

use common::{PROXY_BASIC, PROXY_PASSWORD, PROXY_USER, echo, gatewayed};
use toolport_fixtures::{ConnectProxy, HttpFixtureServer, LabServer, TestPki};
use toolport_http::{HttpServer, WithHttpOptions};
use toolport_testkit::bounded;

#[tokio::test]
async fn plain_http_goes_to_the_proxy_in_absolute_form_with_its_credentials() {
    let server = bounded("start", HttpFixtureServer::start(LabServer::new))
        .await
        .unwrap();
    let proxy = ConnectProxy::start().await.unwrap();
    let url = format!("http://{}:{}/mcp", TestPki::INTERNAL_HOST, server.port());

    let client =
        HttpServer::new(&url).proxy(proxy.url_with_credentials(PROXY_USER, PROXY_PASSWORD));
    assert_eq!(echo(client).await.unwrap(), "hi");

    let first = proxy.requests().into_iter().next().unwrap();
    assert_eq!(first.method, "POST");
    assert_eq!(first.target, url);
    assert_eq!(first.proxy_authorization.as_deref(), Some(PROXY_BASIC));
}

#[tokio::test]
async fn a_host_the_bypass_lists_goes_straight_to_the_server() {
    let pki = TestPki::new("Example Corp Root CA");
    let behind = gatewayed(&pki, false).await;
    let proxy = ConnectProxy::start().await.unwrap();

    let server = HttpServer::new(behind.gateway.url("127.0.0.1"))
        .proxy(proxy.url())
        .proxy_bypass("10.0.0.0/8, 127.0.0.0/8, .internal.test")
        .add_root_certificate(pki.ca_pem.clone());
    assert_eq!(echo(server).await.unwrap(), "hi");
    assert_eq!(proxy.requests(), []);
}

#[tokio::test]
async fn a_certificate_from_an_untrusted_ca_fails_naming_the_host_and_the_fix() {
    let pki = TestPki::new("Example Corp Root CA");
    let behind = gatewayed(&pki, false).await;
    let other = TestPki::new("Some Other CA");

    let server = HttpServer::new(behind.gateway.url("localhost"))
        .no_proxy()
        .add_root_certificate(other.ca_pem);
    let error = echo(server).await.unwrap_err().to_string();
    assert!(
        error.contains("the TLS certificate of localhost is refused: unknown issuer"),
        "{error}"
    );
    assert!(error.contains("--ca-file"), "{error}");
}

#[tokio::test]
async fn a_gateway_that_requires_a_client_certificate_says_so_when_none_is_presented() {
    let pki = TestPki::new("Example Corp Root CA");
    let behind = gatewayed(&pki, true).await;

    let server = HttpServer::new(behind.gateway.url("localhost"))
        .no_proxy()
        .add_root_certificate(pki.ca_pem.clone());
    let error = echo(server).await.unwrap_err().to_string();
    assert!(
        error.contains("localhost requires a client certificate"),
        "{error}"
    );
    assert!(error.contains("--client-cert"), "{error}");
}

#[tokio::test]
async fn a_proxy_that_is_not_http_fails_the_connect_without_showing_its_password() {
    let server =
        HttpServer::new("https://tools.example.com/mcp").proxy("socks5://u:hunter2@proxy:1080");
    let error = echo(server).await.unwrap_err().to_string();
    assert!(error.contains("`socks5` proxy is not supported"), "{error}");
    assert!(!error.contains("hunter2"), "{error}");
}

#[tokio::test]
async fn a_certificate_for_another_name_fails_as_a_name_mismatch() {
    let pki = TestPki::new("Example Corp Root CA");
    let behind = gatewayed(&pki, false).await;
    let proxy = ConnectProxy::start().await.unwrap();

    // The proxy takes every name for this machine; the certificate names only three.
    let server = HttpServer::new(behind.gateway.url("elsewhere.internal.test"))
        .proxy(proxy.url())
        .add_root_certificate(pki.ca_pem.clone());
    let error = echo(server).await.unwrap_err().to_string();
    assert!(
        error.contains("the TLS certificate of elsewhere.internal.test is refused: name mismatch"),
        "{error}"
    );
}

#[tokio::test]
async fn a_proxy_that_cannot_be_reached_is_named_in_the_error() {
    let closed = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = closed.local_addr().unwrap().port();
    drop(closed);

    let url = format!("https://{}/mcp", TestPki::INTERNAL_HOST);
    let server =
        HttpServer::new(url).proxy(format!("http://agent:{PROXY_PASSWORD}@127.0.0.1:{port}"));
    let error = echo(server).await.unwrap_err().to_string();
    assert!(
        error.contains(&format!("through the proxy http://127.0.0.1:{port}/")),
        "{error}"
    );
    assert!(!error.contains(PROXY_PASSWORD), "{error}");
}

#[tokio::test]
async fn an_expired_certificate_fails_saying_so() {
    let mut pki = TestPki::new("Example Corp Root CA");
    pki.server = pki.expired_server.clone();
    let behind = gatewayed(&pki, false).await;

    let server = HttpServer::new(behind.gateway.url("localhost"))
        .no_proxy()
        .add_root_certificate(pki.ca_pem.clone());
    let error = echo(server).await.unwrap_err().to_string();
    assert!(
        error.contains("the TLS certificate of localhost is refused: it has expired"),
        "{error}"
    );
}
