//! The SSE parser frames a stream the same whatever chunks it arrives in: regression tests
//! for inputs the `sse_framer` fuzz target (`fuzz/`) found.

use std::time::Duration;

use toolport_http_client::sse::{Parsed, SseParser};

/// Everything `stream` parses to with events of at most `limit` bytes, fed in chunks of
/// `size` bytes, with the last event id and retry the parser kept.
fn parse(
    stream: &[u8],
    limit: usize,
    size: usize,
) -> (Vec<Parsed>, Option<String>, Option<Duration>) {
    let mut parser = SseParser::new(limit);
    let mut events = Vec::new();
    for chunk in stream.chunks(size) {
        parser.feed(chunk);
        events.extend(std::iter::from_fn(|| parser.next_event()));
    }
    let last_event_id = parser.last_event_id().map(str::to_owned);
    (events, last_event_id, parser.retry())
}

#[test]
fn a_retry_line_longer_than_a_line_may_be_is_ignored_in_any_chunks() {
    // 77 bytes, over the 64 a line may hold beyond the limit of 0: in one chunk the parser saw
    // the whole value (5), split it kept only the first 64 bytes (0).
    let mut stream = b"retry:".to_vec();
    stream.extend([b'0'; 70]);
    stream.extend(b"5\n\n");
    let whole = parse(&stream, 0, stream.len());
    for size in 1..stream.len() {
        assert_eq!(parse(&stream, 0, size), whole, "chunks of {size}");
    }
    assert_eq!(
        whole.2, None,
        "an overlong retry is ignored, as an overlong id is"
    );
}
