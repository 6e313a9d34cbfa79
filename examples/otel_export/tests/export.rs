//! The example exports its spans over OTLP/HTTP: run against a stand-in collector on
//! 127.0.0.1 that records what it is sent, the export holds the agent turn and the request
//! spans inside it, with their MCP and GenAI attributes.

use std::io::{BufRead as _, BufReader, Read as _, Write as _};
use std::net::{TcpListener, TcpStream};
use std::process::Command;
use std::sync::mpsc;
use std::time::Duration;

/// One request the stand-in collector received: its request line and body.
struct Received {
    request_line: String,
    body: Vec<u8>,
}

/// Reads one HTTP/1.1 request (headers, then a `Content-Length` body) and answers 200.
fn answer_one(stream: TcpStream) -> std::io::Result<Received> {
    stream.set_read_timeout(Some(Duration::from_secs(10)))?;
    let mut reader = BufReader::new(stream.try_clone()?);
    let mut request_line = String::new();
    reader.read_line(&mut request_line)?;
    let mut length = 0;
    loop {
        let mut header = String::new();
        reader.read_line(&mut header)?;
        let header = header.trim_end();
        if header.is_empty() {
            break;
        }
        if let Some((name, value)) = header.split_once(':')
            && name.eq_ignore_ascii_case("content-length")
        {
            length = value.trim().parse().unwrap_or(0);
        }
    }
    let mut body = vec![0; length];
    reader.read_exact(&mut body)?;
    let mut stream = stream;
    stream.write_all(b"HTTP/1.1 200 OK\r\ncontent-length: 0\r\nconnection: close\r\n\r\n")?;
    Ok(Received {
        request_line: request_line.trim_end().to_owned(),
        body,
    })
}

/// Whether `needle` occurs in `haystack`.
fn contains(haystack: &[u8], needle: &str) -> bool {
    haystack
        .windows(needle.len())
        .any(|window| window == needle.as_bytes())
}

#[test]
fn the_spans_reach_an_otlp_collector() {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let (received, requests) = mpsc::channel();
    std::thread::spawn(move || {
        // A bounded number of exports: the example sends one batch at shutdown.
        for stream in listener.incoming().take(8).flatten() {
            if let Ok(request) = answer_one(stream)
                && received.send(request).is_err()
            {
                return;
            }
        }
    });

    let output = Command::new(env!("CARGO_BIN_EXE_otel_export"))
        .env(
            "OTEL_EXPORTER_OTLP_ENDPOINT",
            format!("http://127.0.0.1:{port}"),
        )
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(stdout.contains("sent the spans"), "{stdout}");

    let export = requests
        .recv_timeout(Duration::from_secs(10))
        .expect("the collector received an export");
    assert_eq!(export.request_line, "POST /v1/traces HTTP/1.1");
    for expected in [
        "agent turn",
        "tools/list",
        "tools/call list_tasks",
        "mcp.method.name",
        "gen_ai.tool.name",
        "mcp.protocol.version",
        "2026-07-28",
        "otel-export",
    ] {
        assert!(
            contains(&export.body, expected),
            "{expected} is not in the export"
        );
    }
}
