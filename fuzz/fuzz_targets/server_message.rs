//! The stdio transport's reading of a server's stdout: `toolport_stdio::LineReader` frames any
//! bytes, read in chunks of any size, into exactly their `\n`-separated lines, each cut at the
//! limit and flagged when cut; `toolport_stdio::decode_line` gives every line a message,
//! nothing or an error, never a panic, with requests of each directly decoded kind awaiting
//! their answers; and a message re-encoded decodes to the same JSON.
//!
//! Input: one byte choosing the line limit (times 32), one byte the read size (0: 1), then
//! the stdout bytes.
#![no_main]

use std::future::Future;
use std::io;
use std::pin::{Pin, pin};
use std::sync::Arc;
use std::task::{Context, Poll, Waker};

use libfuzzer_sys::fuzz_target;
use rmcp::model::{
    CallToolRequestParams, ClientJsonRpcMessage, ClientRequest, DiscoverRequestParams,
    InitializeRequestParams, NumberOrString, Request, RequestOptionalParam,
};
use tokio::io::{AsyncRead, ReadBuf};
use toolport_codec::{ServerMessageDecoder, decode_server_message};
use toolport_core::UnmodeledFields;
use toolport_stdio::{LineReader, decode_line};

fuzz_target!(|data: &[u8]| {
    let [limit, read_size, stdout @ ..] = data else {
        return;
    };
    let max = usize::from(*limit) * 32;
    let reader = Chunked {
        bytes: stdout,
        size: usize::from(*read_size).max(1),
    };
    let mut lines = LineReader::new(reader, max);
    let mut expected = expected_lines(stdout, max);
    let mut decoder = awaiting_decoder();
    while let Some(line) = ready(lines.next_line()).expect("memory never fails to read") {
        let (bytes, truncated) = expected.next().expect("the reader found an extra line");
        assert_eq!((line.bytes, line.truncated), (bytes, truncated));
        if !line.truncated {
            // Garbage is an error, which the transport logs and skips.
            let _ = decode_line(&mut decoder, line.bytes);
            assert_reencodes(line.bytes);
        }
    }
    assert!(expected.next().is_none(), "the reader missed a line");
});

/// The lines of `stdout` split at `\n` (a last line without one counts when it is not empty),
/// each cut to `max` bytes, and whether it was cut.
fn expected_lines(stdout: &[u8], max: usize) -> impl Iterator<Item = (&[u8], bool)> {
    let body = stdout.strip_suffix(b"\n").unwrap_or(stdout);
    let has_lines = !stdout.is_empty();
    body.split(|&byte| byte == b'\n')
        .take_while(move |_| has_lines)
        .map(move |line| (&line[..line.len().min(max)], line.len() > max))
}

/// A decoder waiting for the answers to one request of each kind it decodes directly, and
/// keeping what a 2025-11-25 server says of tasks.
fn awaiting_decoder() -> ServerMessageDecoder {
    let mut decoder =
        ServerMessageDecoder::new().with_unmodeled_fields(Arc::new(UnmodeledFields::default()));
    let requests = [
        ClientRequest::CallToolRequest(Request::new(CallToolRequestParams::new("echo"))),
        ClientRequest::ListToolsRequest(RequestOptionalParam::default()),
        ClientRequest::InitializeRequest(Request::new(InitializeRequestParams::default())),
        ClientRequest::DiscoverRequest(Request::new(DiscoverRequestParams {})),
    ];
    for (id, request) in (1..).zip(requests) {
        decoder.note_sent(&ClientJsonRpcMessage::request(
            request,
            NumberOrString::Number(id),
        ));
    }
    decoder
}

/// A message decoded from `line` the generic way, encoded again, decodes to the same JSON.
fn assert_reencodes(line: &[u8]) {
    let Ok(Some(message)) = decode_server_message(line) else {
        return;
    };
    let encoded = serde_json::to_vec(&message).expect("a message serializes");
    let again = decode_server_message(&encoded)
        .unwrap_or_else(|error| panic!("a re-encoded message failed to decode: {error}"))
        .expect("a re-encoded message decodes to a message");
    assert_eq!(
        serde_json::to_value(&again).expect("a message serializes"),
        serde_json::to_value(&message).expect("a message serializes"),
        "a message changed when encoded and decoded again"
    );
}

/// The output of `future`, which must not wait: everything here reads from memory.
fn ready<T>(future: impl Future<Output = T>) -> T {
    match pin!(future).poll(&mut Context::from_waker(Waker::noop())) {
        Poll::Ready(output) => output,
        Poll::Pending => panic!("a read from memory waited"),
    }
}

/// Bytes handed out at most `size` at a time, as a pipe might.
struct Chunked<'a> {
    bytes: &'a [u8],
    size: usize,
}

impl AsyncRead for Chunked<'_> {
    fn poll_read(
        mut self: Pin<&mut Self>,
        _: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let take = self.size.min(self.bytes.len()).min(buf.remaining());
        let (chunk, rest) = self.bytes.split_at(take);
        buf.put_slice(chunk);
        self.bytes = rest;
        Poll::Ready(Ok(()))
    }
}
