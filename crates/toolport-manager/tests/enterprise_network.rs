//! A remote server's `proxy`, `caFiles`, `clientCert` and `clientKey` in `mcp.json`, with
//! `${VAR}` references: read, refused where they do not belong, and used on real sockets on
//! 127.0.0.1 to reach a server behind a TLS gateway that requires a client certificate,
//! through a `CONNECT` proxy.

use std::net::SocketAddr;
use std::time::Duration;

use serde_json::json;
use toolport_fixtures::{ConnectProxy, HttpFixtureServer, LabServer, TestPki, TlsGateway};
use toolport_manager::{McpConfig, McpServerManager};
use toolport_testkit::bounded;
use toolport_tools::Tool as _;

const ENTRY: &str = r#"{
  "servers": {
    "internal": {
      "type": "http",
      "url": "${INTERNAL_URL}",
      "proxy": "${CORP_PROXY}",
      "caFiles": ["${PKI_DIR}/ca.pem"],
      "clientCert": "${PKI_DIR}/client.pem",
      "clientKey": "${PKI_DIR}/client.key"
    }
  }
}"#;

#[test]
fn the_network_fields_are_read_as_written_and_saved_back() {
    let config = McpConfig::parse(ENTRY, "mcp.json").unwrap();
    assert_eq!(config.errors().count(), 0);
    let network = &config.server("internal").unwrap().network;
    assert_eq!(network.proxy.as_ref().unwrap().expose(), "${CORP_PROXY}");
    assert_eq!(network.ca_files, ["${PKI_DIR}/ca.pem"]);
    assert_eq!(
        network.client_cert.as_deref(),
        Some("${PKI_DIR}/client.pem")
    );
    assert_eq!(network.client_key.as_deref(), Some("${PKI_DIR}/client.key"));
    assert!(
        !format!("{network:?}").contains("CORP_PROXY"),
        "the proxy is a secret"
    );
    let saved = McpConfig::parse(&config.to_json_string(), "saved.json").unwrap();
    assert_eq!(saved.server("internal"), config.server("internal"));
}

#[test]
fn a_stdio_server_or_a_certificate_without_its_key_is_refused() {
    let text = r#"{"mcpServers": {
      "local": {"command": "server", "proxy": "http://proxy:3128"},
      "half": {"url": "https://mcp.example.com/mcp", "clientCert": "client.pem"}
    }}"#;
    let config = McpConfig::parse(text, "mcp.json").unwrap();
    let errors: Vec<String> = config.errors().map(ToString::to_string).collect();
    assert!(
        errors.contains(&"server `local`: is a stdio server, which takes no `proxy`, `caFiles`, `clientCert` or `clientKey`".to_owned()),
        "{errors:?}"
    );
    assert!(
        errors
            .contains(&"server `half`: `clientCert` needs `clientKey`, its private key".to_owned()),
        "{errors:?}"
    );
}

#[tokio::test]
async fn an_entry_reaches_its_server_through_its_proxy_with_its_ca_and_client_certificate() {
    let pki = TestPki::new("Example Corp Root CA");
    let dir = std::env::temp_dir().join(format!("toolport-manager-pki-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("ca.pem"), &pki.ca_pem).unwrap();
    std::fs::write(dir.join("client.pem"), &pki.client.cert_pem).unwrap();
    std::fs::write(dir.join("client.key"), &pki.client.key_pem).unwrap();
    let server = bounded("start", HttpFixtureServer::start(LabServer::new))
        .await
        .unwrap();
    let upstream = SocketAddr::from(([127, 0, 0, 1], server.port()));
    let gateway = TlsGateway::start(&pki, upstream, true).await.unwrap();
    let proxy = ConnectProxy::start().await.unwrap();

    let variables = [
        ("INTERNAL_URL", gateway.url(TestPki::INTERNAL_HOST)),
        (
            "CORP_PROXY",
            proxy.url_with_credentials("agent", "proxy-pw-7f3a"),
        ),
        ("PKI_DIR", dir.to_str().unwrap().to_owned()),
    ];
    let manager = McpServerManager::builder()
        .startup_grace(Duration::MAX)
        .config(McpConfig::parse(ENTRY, "mcp.json").unwrap())
        .env_lookup(move |name| {
            let found = variables.iter().find(|(variable, _)| *variable == name);
            found.map(|(_, value)| value.clone())
        })
        .build();
    let report = manager.start_all().await;
    let failures: Vec<String> = report.failures().map(ToString::to_string).collect();
    assert!(report.all_started(), "{failures:?}");
    let echo = manager.tool("echo", None).await.unwrap();
    let result = echo.call(json!({"text": "inside"}), None).await.unwrap();
    assert!(result.value.to_string().contains("inside"), "{result:?}");
    manager.shutdown().await;
    std::fs::remove_dir_all(&dir).unwrap();

    let requests = proxy.requests();
    assert!(!requests.is_empty());
    assert!(requests.iter().all(|request| request.method == "CONNECT"));
}
