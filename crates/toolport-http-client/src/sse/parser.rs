//! [`SseParser`]: server-sent events from raw bytes, as the WHATWG spec parses them, with each
//! event bounded in size so that a server cannot make us buffer without limit.

use std::collections::VecDeque;
use std::time::Duration;

/// UTF-8 byte order mark, which the SSE spec ignores at the start of a stream.
const BOM: &[u8] = b"\xEF\xBB\xBF";
/// Room for a field name and its colon on top of the event limit, so that a line holding an
/// event of exactly the limit still fits.
const LINE_SLACK: usize = 64;
/// Above this, the line buffer is released after a line instead of kept.
const KEEP_LINE_BUFFER: usize = 64 * 1024;
/// How much of the start of an oversized event's data is kept, to read whose answer it was.
const KEPT_HEAD: usize = 4096;
/// How much of the end of an oversized event's data is kept, for an id written last.
const KEPT_TAIL: usize = 128;

/// One event: the fields of the lines before a blank line.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct SseEvent {
    /// The `event:` field, if the event had one; without one it is a `message`.
    pub event: Option<String>,
    /// The `data:` lines, joined with `\n`; `None` when the event had no `data:` line (a
    /// priming event that only carries an `id:` or a `retry:`, say).
    pub data: Option<String>,
    /// The event's `id:` field, if it had one.
    pub id: Option<String>,
    /// The event's `retry:` field, in milliseconds, if it had a valid one.
    pub retry: Option<u64>,
}

impl SseEvent {
    /// The event's type: its `event:` field, or `message`.
    pub fn kind(&self) -> &str {
        self.event.as_deref().unwrap_or("message")
    }
}

/// What the parser hands out.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Parsed {
    /// A complete event.
    Event(SseEvent),
    /// An event whose data was larger than the limit, dropped; its `event:` field, when it got
    /// that far, and the two ends of its data, from which
    /// `toolport_codec::oversized_answer_id` reads whose answer it was.
    Oversized {
        /// The dropped event's `event:` field.
        event: Option<String>,
        /// The first bytes of its data (up to 4 KiB), up to the first bytes dropped unseen.
        head: Vec<u8>,
        /// The last bytes of its data (up to 128).
        tail: Vec<u8>,
    },
}

/// Splits a byte stream into events. Comments (keep-alives) and unknown fields are ignored. A
/// block of lines that set no field is no event. The last `id:` and `retry:` are also kept
/// across events, for reconnecting.
///
/// # Examples
///
/// ```
/// use toolport_http_client::sse::{Parsed, SseParser};
///
/// let mut parser = SseParser::new(1024);
/// parser.feed(b"event: endpoint\ndata: /messages?id=1\n\n: keep-alive\n\nid: 7\nda");
/// parser.feed(b"ta: {}\n\n");
/// let Some(Parsed::Event(endpoint)) = parser.next_event() else { panic!() };
/// assert_eq!((endpoint.kind(), endpoint.data.as_deref()), ("endpoint", Some("/messages?id=1")));
/// let Some(Parsed::Event(message)) = parser.next_event() else { panic!() };
/// assert_eq!((message.kind(), message.id.as_deref()), ("message", Some("7")));
/// assert_eq!(parser.last_event_id(), Some("7"));
/// ```
#[derive(Debug)]
pub struct SseParser {
    limit: usize,
    line: Vec<u8>,
    line_overflow: bool,
    /// The last bytes of the part of the current line that was past the limit.
    line_tail: Vec<u8>,
    after_cr: bool,
    first_line: bool,
    current: SseEvent,
    has_field: bool,
    oversized: bool,
    /// The ends of the current event's data, once it is oversized.
    dropped: DroppedEnds,
    last_event_id: Option<String>,
    retry: Option<Duration>,
    parsed: VecDeque<Parsed>,
}

impl SseParser {
    /// A parser for events of at most `limit` bytes of data.
    pub fn new(limit: usize) -> Self {
        Self {
            limit,
            line: Vec::new(),
            line_overflow: false,
            line_tail: Vec::new(),
            after_cr: false,
            first_line: true,
            current: SseEvent::default(),
            has_field: false,
            oversized: false,
            dropped: DroppedEnds::default(),
            last_event_id: None,
            retry: None,
            parsed: VecDeque::new(),
        }
    }

    /// Starts from the event id and reconnection time an earlier stream left, as a reconnected
    /// stream does.
    #[must_use]
    pub fn resuming(mut self, last_event_id: Option<String>, retry: Option<Duration>) -> Self {
        self.last_event_id = last_event_id;
        self.retry = retry;
        self
    }

    /// The next parsed event, if a complete one is buffered.
    pub fn next_event(&mut self) -> Option<Parsed> {
        self.parsed.pop_front()
    }

    /// The last `id:` the server sent, to send back as `Last-Event-ID`.
    pub fn last_event_id(&self) -> Option<&str> {
        self.last_event_id.as_deref()
    }

    /// The last `retry:` the server sent: how long to wait before reconnecting.
    pub fn retry(&self) -> Option<Duration> {
        self.retry
    }

    /// The largest event accepted, in bytes of data.
    pub fn limit(&self) -> usize {
        self.limit
    }

    /// Feeds the next chunk of the stream. A line wholly inside the chunk is parsed in place;
    /// only a line split across chunks is copied.
    pub fn feed(&mut self, mut chunk: &[u8]) {
        while !chunk.is_empty() {
            if std::mem::take(&mut self.after_cr) && chunk[0] == b'\n' {
                chunk = &chunk[1..]; // the LF of a CRLF split across chunks
                continue;
            }
            let Some(end) = memchr::memchr2(b'\n', b'\r', chunk) else {
                self.push_line_bytes(chunk);
                return;
            };
            self.after_cr = chunk[end] == b'\r';
            if self.line.is_empty() && !self.line_overflow {
                // Cut as a line gathered over several chunks is, so that where the chunks
                // split changes nothing.
                let line = &chunk[..end];
                let keep = self.limit + LINE_SLACK;
                if line.len() > keep {
                    keep_tail(&mut self.line_tail, &line[keep..]);
                    self.end_line(&line[..keep], true);
                } else {
                    self.end_line(line, false);
                }
            } else {
                self.push_line_bytes(&chunk[..end]);
                let line = std::mem::take(&mut self.line);
                let overflow = std::mem::take(&mut self.line_overflow);
                self.end_line(&line, overflow);
                self.reuse_line_buffer(line);
            }
            chunk = &chunk[end + 1..];
        }
    }

    fn push_line_bytes(&mut self, bytes: &[u8]) {
        let room = (self.limit + LINE_SLACK).saturating_sub(self.line.len());
        if bytes.len() > room {
            self.line.extend_from_slice(&bytes[..room]);
            keep_tail(&mut self.line_tail, &bytes[room..]);
            self.line_overflow = true;
        } else {
            self.line.extend_from_slice(bytes);
        }
    }

    fn reuse_line_buffer(&mut self, mut line: Vec<u8>) {
        if line.capacity() <= KEEP_LINE_BUFFER {
            line.clear();
            self.line = line;
        }
    }

    fn end_line(&mut self, mut line: &[u8], overflow: bool) {
        if std::mem::take(&mut self.first_line) {
            line = line.strip_prefix(BOM).unwrap_or(line);
        }
        match line.first() {
            None => self.dispatch(),
            Some(b':') => {} // a comment, such as a keep-alive
            Some(_) => self.field(line, overflow),
        }
        self.line_tail.clear();
    }

    fn field(&mut self, line: &[u8], overflow: bool) {
        let (name, value) = match memchr::memchr(b':', line) {
            Some(colon) => {
                let value = &line[colon + 1..];
                (&line[..colon], value.strip_prefix(b" ").unwrap_or(value))
            }
            None => (line, &[][..]),
        };
        match name {
            b"data" => {
                self.has_field = true;
                let first = self.current.data.is_none();
                let gathered = self.current.data.as_ref().map_or(0, String::len);
                let grown = gathered + value.len() + usize::from(!first);
                if overflow || self.oversized || grown > self.limit {
                    if !std::mem::replace(&mut self.oversized, true) {
                        // What was gathered so far is where the dropped data starts.
                        let gathered = self.current.data.take().unwrap_or_default();
                        self.dropped.push(gathered.as_bytes());
                    }
                    if !first {
                        self.dropped.push(b"\n");
                    }
                    self.dropped.push(value);
                    if overflow {
                        self.dropped.skip_to(&self.line_tail);
                    }
                    self.current.data = Some(String::new());
                    return;
                }
                let data = self.current.data.get_or_insert_with(String::new);
                if !first {
                    data.push('\n');
                }
                data.push_str(&String::from_utf8_lossy(value));
            }
            b"event" if overflow => {
                self.has_field = true;
                self.oversized = true;
            }
            b"event" => {
                self.has_field = true;
                self.current.event = Some(String::from_utf8_lossy(value).into_owned());
            }
            b"id" if !overflow && !value.contains(&0) => {
                self.has_field = true;
                let id = String::from_utf8_lossy(value).into_owned();
                self.last_event_id = Some(id.clone());
                self.current.id = Some(id);
            }
            // A line cut at the limit holds only part of its value, so an overlong `retry:` is
            // ignored, as an overlong `id:` is: read whole it could mean another number.
            b"retry" if !overflow && !value.is_empty() && value.iter().all(u8::is_ascii_digit) => {
                if let Some(millis) = std::str::from_utf8(value).ok().and_then(|v| v.parse().ok()) {
                    self.has_field = true;
                    self.retry = Some(Duration::from_millis(millis));
                    self.current.retry = Some(millis);
                }
            }
            _ => {} // unknown fields are ignored, as the spec says
        }
    }

    fn dispatch(&mut self) {
        let event = std::mem::take(&mut self.current);
        if std::mem::take(&mut self.oversized) {
            let DroppedEnds { head, tail, .. } = std::mem::take(&mut self.dropped);
            self.parsed.push_back(Parsed::Oversized {
                event: event.event,
                head,
                tail,
            });
        } else if std::mem::take(&mut self.has_field) {
            self.parsed.push_back(Parsed::Event(event));
        }
        self.has_field = false;
    }
}

/// The two ends of an oversized event's data: its first bytes up to the first bytes dropped
/// unseen, and its last bytes.
#[derive(Debug, Default)]
struct DroppedEnds {
    head: Vec<u8>,
    tail: Vec<u8>,
    /// Bytes were dropped unseen after the head: it ends here.
    head_ended: bool,
}

impl DroppedEnds {
    /// The data goes on with `bytes`.
    fn push(&mut self, bytes: &[u8]) {
        if !self.head_ended {
            let room = KEPT_HEAD.saturating_sub(self.head.len()).min(bytes.len());
            self.head.extend_from_slice(&bytes[..room]);
        }
        keep_tail(&mut self.tail, bytes);
    }

    /// The data goes on unseen, and ends with `last` (the last bytes of what was unseen).
    fn skip_to(&mut self, last: &[u8]) {
        self.head_ended = true;
        keep_tail(&mut self.tail, last);
    }
}

/// Keeps in `tail` the last [`KEPT_TAIL`] bytes of what it held followed by `more`.
fn keep_tail(tail: &mut Vec<u8>, more: &[u8]) {
    let excess = (tail.len() + more.len()).saturating_sub(KEPT_TAIL);
    tail.drain(..excess.min(tail.len()));
    tail.extend_from_slice(&more[more.len().saturating_sub(KEPT_TAIL)..]);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all(parser: &mut SseParser) -> Vec<Parsed> {
        std::iter::from_fn(|| parser.next_event()).collect()
    }

    fn event(kind: Option<&str>, data: Option<&str>, id: Option<&str>) -> Parsed {
        Parsed::Event(SseEvent {
            event: kind.map(str::to_owned),
            data: data.map(str::to_owned),
            id: id.map(str::to_owned),
            retry: None,
        })
    }

    /// Every split of `stream` into chunks of `size` parses the same.
    fn parse_in_chunks(stream: &[u8], limit: usize, size: usize) -> (Vec<Parsed>, SseParser) {
        let mut parser = SseParser::new(limit);
        for chunk in stream.chunks(size) {
            parser.feed(chunk);
        }
        (all(&mut parser), parser)
    }

    #[test]
    fn parses_events_across_chunks_and_line_endings() {
        let stream = b"\xEF\xBB\xBFevent: endpoint\r\ndata: /messages?id=1\r\n\r\n: ping\n\ndata: {\"a\":\ndata: 1}\rid: 7\rretry: 1500\r\r";
        let expected = vec![
            event(Some("endpoint"), Some("/messages?id=1"), None),
            Parsed::Event(SseEvent {
                event: None,
                data: Some("{\"a\":\n1}".to_owned()),
                id: Some("7".to_owned()),
                retry: Some(1500),
            }),
        ];
        for size in 1..=stream.len() {
            let (events, parser) = parse_in_chunks(stream, 1024, size);
            assert_eq!(events, expected, "chunks of {size}");
            assert_eq!(parser.last_event_id(), Some("7"));
            assert_eq!(parser.retry(), Some(Duration::from_millis(1500)));
        }
    }

    #[test]
    fn a_block_that_sets_fields_is_an_event_even_without_data() {
        let mut parser = SseParser::new(1024).resuming(Some("3".into()), None);
        parser.feed(b"foo: bar\n\nevent: x\n\nid\ndata\ndata\n\nretry: soon\n\n");
        assert_eq!(
            all(&mut parser),
            vec![
                event(Some("x"), None, None),
                event(None, Some("\n"), Some("")),
            ]
        );
        assert_eq!(parser.last_event_id(), Some(""));
        assert_eq!(parser.retry(), None);
    }

    #[test]
    fn drops_oversized_events_and_keeps_going() {
        let mut parser = SseParser::new(8);
        parser.feed(b"data: 12345\ndata: 6789\n\n");
        let long = format!("event: message\ndata: {}\n\ndata: ok\n\n", "x".repeat(500));
        for chunk in long.as_bytes().chunks(7) {
            parser.feed(chunk);
        }
        assert_eq!(
            all(&mut parser),
            vec![
                Parsed::Oversized {
                    event: None,
                    head: b"12345\n6789".to_vec(),
                    tail: b"12345\n6789".to_vec(),
                },
                Parsed::Oversized {
                    event: Some("message".into()),
                    // The line was cut at the limit and its slack, past `data: `.
                    head: vec![b'x'; 8 + LINE_SLACK - "data: ".len()],
                    tail: vec![b'x'; KEPT_TAIL],
                },
                event(None, Some("ok"), None),
            ]
        );
        assert!(parser.line.capacity() <= 2 * (8 + LINE_SLACK));
    }

    #[test]
    fn an_event_may_fill_the_limit_but_not_pass_it() {
        let (events, _) = parse_in_chunks(b"data: 1234\n\ndata: 12345\n\n", 4, 3);
        assert_eq!(
            events,
            vec![
                event(None, Some("1234"), None),
                Parsed::Oversized {
                    event: None,
                    head: b"12345".to_vec(),
                    tail: b"12345".to_vec(),
                }
            ]
        );
    }

    #[test]
    fn an_oversized_answer_keeps_both_ends_whatever_the_chunks() {
        let text = "x".repeat(20_000);
        let first = format!(r#"{{"jsonrpc":"2.0","id":7,"result":{{"text":"{text}"}}}}"#);
        let last = format!(r#"{{"result":{{"text":"{text}"}},"jsonrpc":"2.0","id":9}}"#);
        let stream = format!("data: {first}\n\ndata: {last}\n\n");
        let (whole, _) = parse_in_chunks(stream.as_bytes(), 1024, stream.len());
        for size in [1, 7, 100, 4096] {
            let (events, _) = parse_in_chunks(stream.as_bytes(), 1024, size);
            assert_eq!(events, whole, "chunks of {size}");
        }
        let [
            Parsed::Oversized { head, .. },
            Parsed::Oversized {
                head: other_head,
                tail,
                ..
            },
        ] = &whole[..]
        else {
            panic!("{whole:?}");
        };
        assert!(head.starts_with(br#"{"jsonrpc":"2.0","id":7,"#));
        assert!(other_head.starts_with(br#"{"result":"#));
        assert!(tail.ends_with(br#"xx"},"jsonrpc":"2.0","id":9}"#));
    }
}
