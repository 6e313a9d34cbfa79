//! A server's log messages reach `tracing` at the level the server gave them.

mod common;

use std::io;
use std::sync::{Arc, Mutex};

use common::scripted_connection;
use serde_json::json;
use toolport_session::{McpSession, ServerEvent};
use toolport_testkit::{bounded, scripted};

/// Everything the subscriber writes, shared with the test.
#[derive(Clone, Default)]
struct Captured(Arc<Mutex<Vec<u8>>>);

impl io::Write for Captured {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(bytes);
        Ok(bytes.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

#[tokio::test]
async fn each_log_message_is_a_tracing_event_at_its_level() {
    let captured = Captured::default();
    let subscriber = tracing_subscriber::fmt()
        .with_ansi(false)
        .with_max_level(tracing::Level::TRACE)
        .with_writer({
            let captured = captured.clone();
            move || captured.clone()
        })
        .finish();
    let _default = tracing::subscriber::set_default(subscriber);

    let (connector, server) = scripted::pair();
    let session = McpSession::new(connector);
    let connection = scripted_connection(&session, &server).await;
    let mut events = session.events();

    let levels = ["debug", "info", "notice", "warning", "error", "emergency"];
    for level in levels {
        let params = json!({"level": level, "logger": "db", "data": format!("{level} message")});
        connection.notify("notifications/message", params);
    }
    connection.notify(
        "notifications/message",
        json!({"level": "info", "data": {"rows": 3}}),
    );
    for _ in 0..=levels.len() {
        let event = bounded("a log event", events.next()).await.unwrap();
        assert!(matches!(event, ServerEvent::Log(_)), "{event:?}");
    }

    let output = String::from_utf8(captured.0.lock().unwrap().clone()).unwrap();
    let line_of = |data: &str| {
        output
            .lines()
            .find(|line| line.contains(data))
            .unwrap_or_else(|| panic!("no line with {data} in:\n{output}"))
            .to_owned()
    };
    for (level, shown) in [
        ("debug", "DEBUG"),
        ("info", " INFO"),
        ("notice", " INFO"),
        ("warning", " WARN"),
        ("error", "ERROR"),
        ("emergency", "ERROR"),
    ] {
        let line = line_of(&format!("data={level} message"));
        assert!(line.contains(shown), "{level}: {line}");
        assert!(line.contains("toolport_session::server_log"), "{line}");
        assert!(
            line.contains("logger=\"db\"") || line.contains("logger=db"),
            "{line}"
        );
    }
    assert!(line_of(r#"data={"rows":3}"#).contains(" INFO"));
    session.close().await;
}
