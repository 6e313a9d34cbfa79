//! The `faulty` server's loop: it reads one JSON-RPC message a line from stdin, answers it
//! (or, as a tool asks, answers it under another id, late, never, or not at all), and writes
//! its answers one a line to stdout.

use std::io::{self, BufRead as _};

use serde_json::{Value, json};

use super::output::{Output, answer, failure};
use super::tools::{self, Reply};

/// The protocol version the server speaks, whatever the client asks for.
const PROTOCOL_VERSION: &str = "2025-11-25";

/// What the loop does after a message.
#[derive(Debug, PartialEq, Eq)]
pub(super) enum Flow {
    /// Read the next message.
    Continue,
    /// Never read stdin again (the process lives on until it is killed or its lifetime ends).
    StopReading,
}

/// The server's state between messages.
#[derive(Debug)]
pub(super) struct Server {
    output: Output,
    /// Whether this process never answers `initialize`.
    hang_initialize: bool,
    /// Set once `initialize` went unanswered: nothing is answered after it either.
    hanging: bool,
    /// The id of the request read before the current one.
    previous_request: Option<Value>,
    /// A `swap_with_next` call waiting for the next request, to trade ids with it.
    held: Option<Value>,
}

impl Server {
    pub(super) fn new(output: Output, hang_initialize: bool) -> Self {
        Self {
            output,
            hang_initialize,
            hanging: false,
            previous_request: None,
            held: None,
        }
    }

    /// Serves until stdin closes (exit status 0) or a tool stops the reading.
    pub(super) fn serve(&mut self) -> i32 {
        let mut stdin = io::stdin().lock();
        let mut line = Vec::new();
        loop {
            line.clear();
            match stdin.read_until(b'\n', &mut line) {
                Ok(0) | Err(_) => return 0,
                Ok(_) => {}
            }
            let Ok(message) = serde_json::from_slice::<Value>(&line) else {
                eprintln!("toolport-fixture: skipped a line that is not JSON");
                continue;
            };
            if self.on_message(&message) == Flow::StopReading {
                self.output.record("stopped reading");
                // Stdin stays open and unread; the lifetime thread or a signal ends the process.
                loop {
                    std::thread::park();
                }
            }
        }
    }

    fn on_message(&mut self, message: &Value) -> Flow {
        let method = message.get("method").and_then(Value::as_str);
        match (method, message.get("id")) {
            (Some(method), Some(id)) => self.on_request(id.clone(), method, &message["params"]),
            (Some("notifications/cancelled"), None) => {
                let id = &message["params"]["requestId"];
                self.output.record(&format!("cancelled {id}"));
                Flow::Continue
            }
            // Other notifications, and answers to requests it never sends.
            _ => Flow::Continue,
        }
    }

    fn on_request(&mut self, id: Value, method: &str, params: &Value) -> Flow {
        let previous = self.previous_request.replace(id.clone());
        if self.hanging {
            return Flow::Continue;
        }
        let reply = match method {
            "initialize" if self.hang_initialize => {
                self.hanging = true;
                self.output.record("hanging in initialize");
                return Flow::Continue;
            }
            "initialize" => Reply::Result(json!({
                "protocolVersion": PROTOCOL_VERSION,
                "capabilities": {"tools": {}},
                "serverInfo": {"name": "toolport-faulty", "version": env!("CARGO_PKG_VERSION")},
            })),
            "ping" => Reply::Result(json!({})),
            "tools/list" => Reply::Result(tools::list()),
            "tools/call" => tools::call(&self.output, &id, params),
            _ => Reply::Error(json!({"code": -32601, "message": format!("no method {method}")})),
        };
        self.send_reply(id, previous, reply)
    }

    /// Sends `reply` to the request `id`, under whichever id the reply says.
    fn send_reply(&mut self, id: Value, previous: Option<Value>, reply: Reply) -> Flow {
        if let Some(held) = self.held.take() {
            // The held call and this request trade ids: each answer goes to the other.
            let held_answer = tools::text_result("the answer to swap_with_next");
            match reply {
                Reply::Result(result) => self.output.send(&answer(&held, result)),
                Reply::Error(error) => self.output.send(&failure(&held, error)),
                _ => {}
            }
            self.output.send(&answer(&id, held_answer));
            return Flow::Continue;
        }
        match reply {
            Reply::Result(result) => self.output.send(&answer(&id, result)),
            Reply::Error(error) => self.output.send(&failure(&id, error)),
            Reply::UnderPreviousId(result) => {
                let stale = previous.unwrap_or(Value::Null);
                self.output.send(&answer(&stale, result));
            }
            Reply::HoldForNextRequest => {
                self.output.record(&format!("holding {id}"));
                self.held = Some(id);
            }
            Reply::Nothing => {}
            Reply::ThenStopReading(result) => {
                self.output.send(&answer(&id, result));
                return Flow::StopReading;
            }
        }
        Flow::Continue
    }
}
