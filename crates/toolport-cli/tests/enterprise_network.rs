//! The `toolport` command inside a company network, on real sockets on 127.0.0.1: a Streamable
//! HTTP server behind a TLS gateway with a certificate from a CA made in the test, requiring a
//! client certificate, reached through the proxy of `HTTPS_PROXY` or `--proxy`.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::{Command, Output};

use toolport_fixtures::{ConnectProxy, HttpFixtureServer, LabServer, TestPki, TlsGateway};
use toolport_testkit::bounded;

const PROXY_PASSWORD: &str = "proxy-pw-7f3a";
/// base64 of `agent:proxy-pw-7f3a`.
const PROXY_BASIC: &str = "Basic YWdlbnQ6cHJveHktcHctN2YzYQ==";

/// The PEM files of a [`TestPki`], in a directory of their own.
struct PemFiles {
    dir: PathBuf,
}

impl PemFiles {
    fn write(test: &str, pki: &TestPki) -> Self {
        let dir = std::env::temp_dir().join(format!("toolport-cli-{test}-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let files = Self { dir };
        std::fs::write(files.path("ca.pem"), &pki.ca_pem).unwrap();
        std::fs::write(files.path("client.pem"), &pki.client.cert_pem).unwrap();
        std::fs::write(files.path("client.key"), &pki.client.key_pem).unwrap();
        files
    }

    fn path(&self, name: &str) -> String {
        self.dir.join(name).to_str().unwrap().to_owned()
    }
}

impl Drop for PemFiles {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// A company network for test `test`: its CA, the CA's files, and a server behind a gateway
/// that requires a client certificate from that CA.
struct Company {
    pki: TestPki,
    files: PemFiles,
    gateway: TlsGateway,
    server: HttpFixtureServer,
}

async fn company(test: &str) -> Company {
    let pki = TestPki::new("Example Corp Root CA");
    let files = PemFiles::write(test, &pki);
    let (gateway, server) = gatewayed(&pki).await;
    Company {
        pki,
        files,
        gateway,
        server,
    }
}

/// A server behind a gateway that requires a client certificate from `pki`'s CA.
async fn gatewayed(pki: &TestPki) -> (TlsGateway, HttpFixtureServer) {
    let server = bounded("start", HttpFixtureServer::start(LabServer::new))
        .await
        .unwrap();
    let upstream = SocketAddr::from(([127, 0, 0, 1], server.port()));
    let gateway = TlsGateway::start(pki, upstream, true).await.unwrap();
    (gateway, server)
}

/// Runs the command off the runtime with `env` only (no proxy variable of the machine's), and
/// everything traced.
async fn toolport(args: Vec<String>, env: Vec<(&'static str, String)>) -> Output {
    tokio::task::spawn_blocking(move || {
        let mut command = Command::new(env!("CARGO_BIN_EXE_toolport"));
        for name in [
            "HTTPS_PROXY",
            "https_proxy",
            "HTTP_PROXY",
            "http_proxy",
            "ALL_PROXY",
            "all_proxy",
            "NO_PROXY",
            "no_proxy",
            "TOOLPORT_TIMEOUT_MS",
        ] {
            command.env_remove(name);
        }
        command
            .args(args)
            .envs(env)
            .env("RUST_LOG", "trace")
            .output()
            .unwrap()
    })
    .await
    .unwrap()
}

/// `call echo text=through --url URL`, then `flags`.
fn call_echo(url: &str, flags: impl IntoIterator<Item = String>) -> Vec<String> {
    let call = strings(&["call", "echo", "text=through", "--url", url]);
    call.into_iter().chain(flags).collect()
}

fn strings(words: &[&str]) -> Vec<String> {
    words.iter().map(|word| (*word).to_owned()).collect()
}

impl PemFiles {
    /// `--ca-file`.
    fn ca_flag(&self) -> Vec<String> {
        vec!["--ca-file".to_owned(), self.path("ca.pem")]
    }

    /// `--client-cert` and `--client-key`.
    fn client_flags(&self) -> Vec<String> {
        let (cert, key) = (self.path("client.pem"), self.path("client.key"));
        vec![
            "--client-cert".to_owned(),
            cert,
            "--client-key".to_owned(),
            key,
        ]
    }

    /// `--ca-file`, `--client-cert` and `--client-key`.
    fn flags(&self) -> Vec<String> {
        [self.ca_flag(), self.client_flags()].concat()
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_command_reaches_a_server_through_https_proxy_with_its_ca_and_client_certificate() {
    let net = company("through-proxy").await;
    let proxy = ConnectProxy::start().await.unwrap();
    let url = net.gateway.url(TestPki::INTERNAL_HOST);

    let proxy_url = proxy.url_with_credentials("agent", PROXY_PASSWORD);
    let output = toolport(
        call_echo(&url, net.files.flags()),
        vec![("HTTPS_PROXY", proxy_url)],
    )
    .await;
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stderr}");
    assert!(String::from_utf8_lossy(&output.stdout).contains("through"));
    let connects = proxy.requests();
    assert!(!connects.is_empty());
    for request in connects {
        assert_eq!(request.method, "CONNECT");
        assert_eq!(request.proxy_authorization.as_deref(), Some(PROXY_BASIC));
    }
    assert!(stderr.contains("TRACE"), "the command traced: {stderr}");
    let key = net.pki.client.key_pem.lines().nth(1).unwrap();
    for secret in [PROXY_PASSWORD, "YWdlbnQ6cHJveHktcHctN2YzYQ", key] {
        assert!(!stderr.contains(secret), "{secret} logged");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_proxy_sends_a_listed_domain_straight_to_the_server() {
    let net = company("no-proxy").await;
    let proxy = ConnectProxy::start().await.unwrap();
    let url = net.gateway.url(TestPki::INTERNAL_HOST);

    let env = vec![
        ("HTTPS_PROXY", proxy.url()),
        ("NO_PROXY", ".internal.test".to_owned()),
    ];
    let output = toolport(call_echo(&url, net.files.flags()), env).await;
    // Straight to the server means asking the resolver for a `.test` name, which none knows.
    assert!(!output.status.success());
    assert_eq!(proxy.requests(), []);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_proxy_flag_applies_to_a_loopback_server_and_no_proxy_turns_the_variables_off() {
    let net = company("proxy-flag").await;
    let proxy = ConnectProxy::start().await.unwrap();
    let url = net.gateway.url("127.0.0.1");

    let asked = [net.files.flags(), strings(&["--proxy", &proxy.url()])].concat();
    let output = toolport(call_echo(&url, asked), vec![]).await;
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let target = format!("127.0.0.1:{}", net.gateway.port());
    assert!(
        proxy
            .requests()
            .iter()
            .all(|request| request.target == target)
    );
    let proxied = proxy.requests().len();
    assert!(proxied > 0);

    let internal = net.gateway.url(TestPki::INTERNAL_HOST);
    let env = vec![("ALL_PROXY", proxy.url())];
    let output = toolport(
        call_echo(
            &internal,
            [net.files.flags(), strings(&["--no-proxy"])].concat(),
        ),
        env,
    )
    .await;
    assert!(!output.status.success());
    assert_eq!(
        proxy.requests().len(),
        proxied,
        "--no-proxy still went through the proxy"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_wrong_ca_and_a_missing_client_certificate_each_say_what_to_do() {
    let pki = TestPki::new("Example Corp Root CA");
    let other = TestPki::new("Some Other CA");
    let (gateway, _server) = gatewayed(&pki).await;
    let url = gateway.url("localhost");

    let wrong = PemFiles::write("wrong-ca", &other);
    let output = toolport(call_echo(&url, wrong.flags()), vec![]).await;
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("the TLS certificate of localhost is refused: unknown issuer")
            && stderr.contains("--ca-file"),
        "{stderr}"
    );

    let files = PemFiles::write("no-client-cert", &pki);
    let output = toolport(call_echo(&url, files.ca_flag()), vec![]).await;
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("localhost requires a client certificate")
            && stderr.contains("--client-cert FILE --client-key FILE"),
        "{stderr}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn token_requests_take_the_same_proxy_ca_and_client_certificate() {
    let net = company("token-request").await;
    // A 401 sends the client to the token endpoint, behind a gateway of its own so that its
    // tunnel is told apart. The fixture has no token endpoint: the request is made, and refused.
    net.server.require_bearer("a-token-only-the-issuer-gives");
    let upstream = SocketAddr::from(([127, 0, 0, 1], net.server.port()));
    let token_gateway = TlsGateway::start(&net.pki, upstream, true).await.unwrap();
    let proxy = ConnectProxy::start().await.unwrap();
    let url = net.gateway.url(TestPki::INTERNAL_HOST);
    let token_url = format!("{}/token", token_gateway.origin(TestPki::INTERNAL_HOST));

    let auth = strings(&[
        "--auth",
        "client-credentials",
        "--client-id",
        "agent",
        "--client-secret-env",
        "AGENT_SECRET",
        "--token-url",
        &token_url,
    ]);
    let args = call_echo(&url, [net.files.flags(), auth].concat());
    let env = vec![
        ("HTTPS_PROXY", proxy.url()),
        ("AGENT_SECRET", "client-secret-9d".to_owned()),
    ];
    let output = toolport(args, env).await;
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!output.status.success());
    assert!(!stderr.contains("client-secret-9d"), "{stderr}");
    // An HTTP answer: the tunnel, the CA and the client certificate all served the request.
    let answered = format!("the token request to {token_url} failed: the server answered");
    assert!(stderr.contains(&answered), "{stderr}");
    let token_target = format!("{}:{}", TestPki::INTERNAL_HOST, token_gateway.port());
    let requests = proxy.requests();
    assert!(
        requests
            .iter()
            .any(|request| request.method == "CONNECT" && request.target == token_target),
        "no tunnel to the token endpoint: {requests:?}\n{stderr}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ssl_cert_file_adds_the_company_ca_without_a_flag() {
    let net = company("ssl-cert-file").await;
    let url = net.gateway.url("localhost");

    let env = vec![("SSL_CERT_FILE", net.files.path("ca.pem"))];
    let output = toolport(call_echo(&url, net.files.client_flags()), env).await;
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
}
