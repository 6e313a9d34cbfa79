//! The SSE framer (`toolport_http_client::sse::SseParser`): any bytes, split into chunks at
//! any points, frame into the same events, event id and retry as the same bytes in one chunk,
//! and no event's data passes the limit.
//!
//! Input: one byte choosing the event limit, one byte `n`, `n` chunk sizes (a 0 feeds an empty
//! chunk, then one byte), then the stream. Without sizes the stream goes in byte by byte.
#![no_main]

use libfuzzer_sys::fuzz_target;
use toolport_http_client::sse::{Parsed, SseParser};

fuzz_target!(|data: &[u8]| {
    let Some((&limit, rest)) = data.split_first() else {
        return;
    };
    let Some((&count, rest)) = rest.split_first() else {
        return;
    };
    let (sizes, stream) = rest.split_at(usize::from(count).min(rest.len()));
    // Small limits make lines overflow; the high bit gives the transports' order of size.
    let limit = if limit & 0x80 == 0 {
        usize::from(limit)
    } else {
        1 << 20
    };

    let mut whole = SseParser::new(limit);
    whole.feed(stream);
    let whole_events: Vec<Parsed> = std::iter::from_fn(|| whole.next_event()).collect();

    let mut chunked = SseParser::new(limit);
    let mut chunked_events = Vec::new();
    let mut rest = stream;
    for &size in sizes.iter().cycle() {
        if rest.is_empty() {
            break;
        }
        if size == 0 {
            chunked.feed(&[]);
        }
        let (chunk, after) = rest.split_at(usize::from(size).clamp(1, rest.len()));
        chunked.feed(chunk);
        // Events are taken between chunks, as a transport reading a body does.
        chunked_events.extend(std::iter::from_fn(|| chunked.next_event()));
        rest = after;
    }
    for byte in rest.chunks(1) {
        chunked.feed(byte);
    }
    chunked_events.extend(std::iter::from_fn(|| chunked.next_event()));

    assert_eq!(whole_events, chunked_events, "chunking changed the events");
    assert_eq!(whole.last_event_id(), chunked.last_event_id());
    assert_eq!(whole.retry(), chunked.retry());
    for parsed in &whole_events {
        if let Parsed::Event(event) = parsed {
            // Each byte read is at most one character of the data (an invalid one becomes one
            // U+FFFD), so this bounds the bytes read.
            let read = event.data.as_deref().unwrap_or_default().chars().count();
            assert!(
                read <= limit,
                "an event of {read} bytes passed the limit of {limit}"
            );
        }
    }
});
