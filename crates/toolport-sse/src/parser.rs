//! [`EventParser`]: server-sent events from raw bytes, as the WHATWG spec parses them, with
//! each event bounded in size so that a server cannot make us buffer without limit.

use std::collections::VecDeque;
use std::time::Duration;

/// UTF-8 byte order mark, which the SSE spec ignores at the start of a stream.
const BOM: &[u8] = b"\xEF\xBB\xBF";
/// Room for a field name and its colon on top of the event limit, so that a line holding an
/// event of exactly the limit still fits.
const LINE_SLACK: usize = 64;
/// Above this, the line buffer is released after a line instead of kept.
const KEEP_LINE_BUFFER: usize = 64 * 1024;

/// One dispatched event.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Event {
    /// The `event:` field; `message` when there was none.
    pub(crate) kind: String,
    /// The `data:` lines, joined with `\n`.
    pub(crate) data: String,
}

/// What the parser hands out.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Parsed {
    /// A complete event.
    Event(Event),
    /// An event larger than the limit, dropped; its kind, when it got that far.
    Oversized { kind: String },
}

/// Splits a byte stream into events. Comments (keep-alives) and unknown fields are ignored;
/// `id:` and `retry:` are remembered across events, for reconnecting.
#[derive(Debug)]
pub(crate) struct EventParser {
    limit: usize,
    line: Vec<u8>,
    line_overflow: bool,
    after_cr: bool,
    first_line: bool,
    kind: Option<String>,
    data: String,
    has_data: bool,
    oversized: bool,
    last_event_id: Option<String>,
    retry: Option<Duration>,
    parsed: VecDeque<Parsed>,
}

impl EventParser {
    /// A parser for events of at most `limit` bytes of data, resuming with the event id and
    /// reconnection time an earlier stream left.
    pub(crate) fn new(
        limit: usize,
        last_event_id: Option<String>,
        retry: Option<Duration>,
    ) -> Self {
        Self {
            limit,
            line: Vec::new(),
            line_overflow: false,
            after_cr: false,
            first_line: true,
            kind: None,
            data: String::new(),
            has_data: false,
            oversized: false,
            last_event_id,
            retry,
            parsed: VecDeque::new(),
        }
    }

    /// The next parsed event, if a complete one is buffered.
    pub(crate) fn next(&mut self) -> Option<Parsed> {
        self.parsed.pop_front()
    }

    /// The last `id:` the server sent, to send back as `Last-Event-ID`.
    pub(crate) fn last_event_id(&self) -> Option<&str> {
        self.last_event_id.as_deref()
    }

    /// The last `retry:` the server sent: how long to wait before reconnecting.
    pub(crate) fn retry(&self) -> Option<Duration> {
        self.retry
    }

    /// Feeds the next chunk of the stream.
    pub(crate) fn feed(&mut self, mut chunk: &[u8]) {
        while !chunk.is_empty() {
            if std::mem::take(&mut self.after_cr) && chunk[0] == b'\n' {
                chunk = &chunk[1..]; // the LF of a CRLF split across chunks
                continue;
            }
            let Some(end) = chunk.iter().position(|b| matches!(b, b'\n' | b'\r')) else {
                self.push_line_bytes(chunk);
                return;
            };
            self.push_line_bytes(&chunk[..end]);
            self.after_cr = chunk[end] == b'\r';
            chunk = &chunk[end + 1..];
            self.end_line();
        }
    }

    fn push_line_bytes(&mut self, bytes: &[u8]) {
        let room = (self.limit + LINE_SLACK).saturating_sub(self.line.len());
        if bytes.len() > room {
            self.line.extend_from_slice(&bytes[..room]);
            self.line_overflow = true;
        } else {
            self.line.extend_from_slice(bytes);
        }
    }

    fn end_line(&mut self) {
        let mut line = std::mem::take(&mut self.line);
        let overflow = std::mem::take(&mut self.line_overflow);
        let mut bytes = line.as_slice();
        if std::mem::take(&mut self.first_line) {
            bytes = bytes.strip_prefix(BOM).unwrap_or(bytes);
        }
        match bytes.first() {
            None => self.dispatch(),
            Some(b':') => {} // a comment, such as a keep-alive
            Some(_) => self.field(bytes, overflow),
        }
        if line.capacity() <= KEEP_LINE_BUFFER {
            line.clear();
            self.line = line;
        }
    }

    fn field(&mut self, line: &[u8], overflow: bool) {
        let (name, value) = match line.iter().position(|b| *b == b':') {
            Some(colon) => {
                let value = &line[colon + 1..];
                (&line[..colon], value.strip_prefix(b" ").unwrap_or(value))
            }
            None => (line, &[][..]),
        };
        match name {
            b"data" => {
                let grown = self.data.len() + value.len() + usize::from(self.has_data);
                if overflow || self.oversized || grown > self.limit {
                    self.oversized = true;
                    self.data = String::new();
                    return;
                }
                if self.has_data {
                    self.data.push('\n');
                }
                self.data.push_str(&String::from_utf8_lossy(value));
                self.has_data = true;
            }
            b"event" if overflow => self.oversized = true,
            b"event" => self.kind = Some(String::from_utf8_lossy(value).into_owned()),
            b"id" if !overflow && !value.contains(&0) => {
                self.last_event_id = Some(String::from_utf8_lossy(value).into_owned());
            }
            b"retry" if !value.is_empty() && value.iter().all(u8::is_ascii_digit) => {
                if let Some(millis) = std::str::from_utf8(value).ok().and_then(|v| v.parse().ok()) {
                    self.retry = Some(Duration::from_millis(millis));
                }
            }
            _ => {} // unknown fields are ignored, as the spec says
        }
    }

    fn dispatch(&mut self) {
        let kind = self.kind.take().unwrap_or_else(|| "message".to_owned());
        if std::mem::take(&mut self.oversized) {
            self.parsed.push_back(Parsed::Oversized { kind });
        } else if std::mem::take(&mut self.has_data) {
            let data = std::mem::take(&mut self.data);
            self.parsed.push_back(Parsed::Event(Event { kind, data }));
        }
        self.has_data = false;
        self.data.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all(parser: &mut EventParser) -> Vec<Parsed> {
        std::iter::from_fn(|| parser.next()).collect()
    }

    fn event(kind: &str, data: &str) -> Parsed {
        Parsed::Event(Event {
            kind: kind.to_owned(),
            data: data.to_owned(),
        })
    }

    #[test]
    fn parses_events_across_chunks_and_line_endings() {
        let mut parser = EventParser::new(1024, None, None);
        let stream = b"\xEF\xBB\xBFevent: endpoint\r\ndata: /messages?id=1\r\n\r\n: ping\n\ndata: {\"a\":\ndata: 1}\rid: 7\rretry: 1500\r\r";
        for byte in stream.chunks(1) {
            parser.feed(byte);
        }
        assert_eq!(
            all(&mut parser),
            vec![
                event("endpoint", "/messages?id=1"),
                event("message", "{\"a\":\n1}")
            ]
        );
        assert_eq!(parser.last_event_id(), Some("7"));
        assert_eq!(parser.retry(), Some(Duration::from_millis(1500)));
    }

    #[test]
    fn ignores_unknown_fields_and_events_without_data() {
        let mut parser = EventParser::new(1024, Some("3".into()), None);
        parser.feed(b"foo: bar\nevent: x\n\nid\ndata\n\nretry: soon\n\n");
        assert_eq!(all(&mut parser), vec![event("message", "")]);
        assert_eq!(parser.last_event_id(), Some(""));
        assert_eq!(parser.retry(), None);
    }

    #[test]
    fn drops_oversized_events_and_keeps_going() {
        let mut parser = EventParser::new(8, None, None);
        parser.feed(b"data: 12345\ndata: 6789\n\n");
        let long = format!("event: message\ndata: {}\n\ndata: ok\n\n", "x".repeat(500));
        parser.feed(long.as_bytes());
        assert_eq!(
            all(&mut parser),
            vec![
                Parsed::Oversized {
                    kind: "message".into()
                },
                Parsed::Oversized {
                    kind: "message".into()
                },
                event("message", "ok"),
            ]
        );
        assert!(parser.line.capacity() <= 2 * (8 + LINE_SLACK));
    }
}
