//! [`ConnectProxy`]: an HTTP proxy on `127.0.0.1` that tunnels `CONNECT` and forwards plain
//! requests, taking every host name for this machine, and records what it was asked.

use std::io;
use std::sync::{Arc, Mutex};

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio::task::{JoinHandle, JoinSet};

/// What a client asked the proxy: the first request of each connection.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProxiedRequest {
    /// `CONNECT`, or the method of a forwarded request.
    pub method: String,
    /// `host:port` for `CONNECT`, else the absolute URL.
    pub target: String,
    /// The `Proxy-Authorization` header, as sent.
    pub proxy_authorization: Option<String>,
}

/// An HTTP proxy on a port of `127.0.0.1`. Every host name it is asked for is taken to be this
/// machine, so a test can name a server [`TestPki::INTERNAL_HOST`](crate::TestPki::INTERNAL_HOST)
/// that only the proxy reaches. Later requests on a forwarded connection pass unrecorded. Stops
/// (with every connection) when dropped.
#[derive(Debug)]
pub struct ConnectProxy {
    port: u16,
    requests: Arc<Mutex<Vec<ProxiedRequest>>>,
    task: JoinHandle<()>,
}

/// The longest request head the proxy reads.
const HEAD_LIMIT: usize = 16 * 1024;

impl ConnectProxy {
    /// A proxy on a free port.
    pub async fn start() -> io::Result<Self> {
        let listener = TcpListener::bind(("127.0.0.1", 0)).await?;
        let port = listener.local_addr()?.port();
        let requests = Arc::new(Mutex::new(Vec::new()));
        let recorded = Arc::clone(&requests);
        let task = tokio::spawn(async move {
            let mut connections = JoinSet::new();
            while let Ok((client, _)) = listener.accept().await {
                connections.spawn(relay(client, Arc::clone(&recorded)));
            }
        });
        Ok(Self {
            port,
            requests,
            task,
        })
    }

    /// `http://127.0.0.1:{port}`.
    pub fn url(&self) -> String {
        format!("http://127.0.0.1:{}", self.port)
    }

    /// `http://{user}:{password}@127.0.0.1:{port}`.
    pub fn url_with_credentials(&self, user: &str, password: &str) -> String {
        format!("http://{user}:{password}@127.0.0.1:{}", self.port)
    }

    /// Every request recorded so far, in order.
    pub fn requests(&self) -> Vec<ProxiedRequest> {
        self.requests
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }
}

impl Drop for ConnectProxy {
    fn drop(&mut self) {
        self.task.abort();
    }
}

/// Reads one request head, records it, and joins the client to `127.0.0.1` at the port asked.
async fn relay(mut client: TcpStream, recorded: Arc<Mutex<Vec<ProxiedRequest>>>) {
    let mut head = Vec::new();
    let mut chunk = [0; 4096];
    let end = loop {
        if let Some(end) = head.windows(4).position(|w| w == b"\r\n\r\n") {
            break end + 4;
        }
        match client.read(&mut chunk).await {
            Ok(0) | Err(_) => return,
            Ok(n) => head.extend_from_slice(&chunk[..n]),
        }
        if head.len() > HEAD_LIMIT {
            return;
        }
    };
    let text = String::from_utf8_lossy(&head[..end]).into_owned();
    let mut lines = text.split("\r\n");
    let mut first = lines.next().unwrap_or_default().split(' ');
    let method = first.next().unwrap_or_default().to_owned();
    let target = first.next().unwrap_or_default().to_owned();
    let proxy_authorization = lines
        .filter_map(|line| line.split_once(':'))
        .find(|(name, _)| name.trim().eq_ignore_ascii_case("proxy-authorization"))
        .map(|(_, value)| value.trim().to_owned());
    let authority = match method.as_str() {
        "CONNECT" => target.clone(),
        _ => target
            .strip_prefix("http://")
            .and_then(|rest| rest.split('/').next())
            .unwrap_or_default()
            .to_owned(),
    };
    recorded
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .push(ProxiedRequest {
            method: method.clone(),
            target,
            proxy_authorization,
        });
    let port = match authority.rsplit_once(':') {
        Some((_, port)) => port.parse().unwrap_or(80),
        None => 80,
    };
    let Ok(mut server) = TcpStream::connect(("127.0.0.1", port)).await else {
        let _ = client.write_all(b"HTTP/1.1 502 Bad Gateway\r\n\r\n").await;
        return;
    };
    let sent = if method == "CONNECT" {
        let established = client
            .write_all(b"HTTP/1.1 200 Connection established\r\n\r\n")
            .await;
        match established {
            Ok(()) => server.write_all(&head[end..]).await,
            Err(error) => Err(error),
        }
    } else {
        server.write_all(&head).await
    };
    if sent.is_ok() {
        let _ = tokio::io::copy_bidirectional(&mut client, &mut server).await;
    }
}
