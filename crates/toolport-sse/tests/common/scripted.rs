//! [`ScriptedSse`]: a raw HTTP server on 127.0.0.1 that answers each `GET` with the next
//! scripted event stream and then closes the connection, or with a 404 once the script is
//! done. It records each request head.

use std::sync::{Arc, Mutex};

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpListener;
use tokio::task::JoinHandle;

/// A running scripted server; dropping it stops it.
pub struct ScriptedSse {
    pub port: u16,
    heads: Arc<Mutex<Vec<String>>>,
    task: JoinHandle<()>,
}

impl ScriptedSse {
    /// Serves `streams` in order, one per `GET`: each is the raw SSE body.
    pub async fn start(streams: Vec<String>) -> Self {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let port = listener.local_addr().unwrap().port();
        let heads = Arc::new(Mutex::new(Vec::new()));
        let record = heads.clone();
        let task = tokio::spawn(async move {
            let mut streams = streams.into_iter();
            loop {
                let Ok((mut socket, _)) = listener.accept().await else {
                    return;
                };
                let mut head = Vec::new();
                let mut byte = [0u8; 1];
                while !head.ends_with(b"\r\n\r\n") {
                    match socket.read(&mut byte).await {
                        Ok(1) => head.push(byte[0]),
                        _ => break,
                    }
                }
                record
                    .lock()
                    .unwrap()
                    .push(String::from_utf8_lossy(&head).into_owned());
                let response = match streams.next() {
                    Some(body) => format!(
                        "HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\nconnection: close\r\n\r\n{body}"
                    ),
                    None => "HTTP/1.1 404 Not Found\r\ncontent-length: 4\r\nconnection: close\r\n\r\ngone"
                        .to_owned(),
                };
                let _ = socket.write_all(response.as_bytes()).await;
                let _ = socket.shutdown().await;
            }
        });
        Self { port, heads, task }
    }

    /// The event stream's URL.
    pub fn url(&self) -> String {
        format!("http://127.0.0.1:{}/sse", self.port)
    }

    /// The request heads received so far, lower-cased.
    pub fn heads(&self) -> Vec<String> {
        self.heads
            .lock()
            .unwrap()
            .iter()
            .map(|head| head.to_ascii_lowercase())
            .collect()
    }
}

impl Drop for ScriptedSse {
    fn drop(&mut self) {
        self.task.abort();
    }
}
