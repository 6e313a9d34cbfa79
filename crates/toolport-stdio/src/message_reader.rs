//! [`MessageReader`]: the server's messages from a byte stream of newline-delimited JSON-RPC,
//! decoded by the codec's decoder, for the child's stdout and for any stream.

use std::fmt;
use std::sync::Arc;

use rmcp::service::{RoleClient, RxJsonRpcMessage, TxJsonRpcMessage};
use tokio::io::AsyncRead;
use toolport_codec::{ServerMessageDecoder, dropped_answer_error, oversized_answer_id};
use toolport_core::UnmodeledFields;

use crate::decode::decode;
use crate::line_reader::LineReader;

/// Above this, the read buffer is released after a message instead of kept.
const KEEP_LINE_BUFFER: usize = 1024 * 1024;

/// Reads a server's messages: lines of at most the limit, decoded straight into the result
/// type their request asked for, with what rmcp's model drops (2025-11-25 tasks) kept. A line
/// over the limit is dropped, and when it is an answer whose id shows at either end, its
/// request gets a JSON-RPC error naming the limit in its place. A line that is not JSON-RPC
/// is skipped and logged.
pub(crate) struct MessageReader<R> {
    lines: LineReader<R>,
    decoder: ServerMessageDecoder,
    unmodeled_fields: Arc<UnmodeledFields>,
    /// The server, as logs name it.
    server: Arc<str>,
    /// What a dropped answer's error says the limit is for.
    framing: &'static str,
}

impl<R> fmt::Debug for MessageReader<R> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("MessageReader")
            .field("server", &self.server)
            .field("framing", &self.framing)
            .finish_non_exhaustive()
    }
}

impl<R: AsyncRead + Unpin> MessageReader<R> {
    /// Reads `read`, lines of at most `max_message` bytes, from `server` over `framing` (as
    /// in "the limit of N bytes for one {framing} message").
    pub(crate) fn new(
        read: R,
        max_message: usize,
        server: Arc<str>,
        framing: &'static str,
    ) -> Self {
        let unmodeled_fields = Arc::new(UnmodeledFields::default());
        Self {
            lines: LineReader::new(read, max_message),
            decoder: ServerMessageDecoder::new()
                .with_unmodeled_fields(Arc::clone(&unmodeled_fields)),
            unmodeled_fields,
            server,
            framing,
        }
    }

    /// Remembers what `message` asks for, so that its answer decodes straight into it.
    pub(crate) fn note_sent(&mut self, message: &TxJsonRpcMessage<RoleClient>) {
        self.decoder.note_sent(message);
    }

    /// What the server said that rmcp's model drops, as decoded so far.
    pub(crate) fn unmodeled_fields(&self) -> Arc<UnmodeledFields> {
        Arc::clone(&self.unmodeled_fields)
    }

    /// The next message for the client; `None` at the end of the stream, or when it cannot be
    /// read (logged). Each line that is not JSON-RPC goes to `on_garbage`. Cancellation safe:
    /// a line is consumed only in the step that decodes it.
    pub(crate) async fn next_message(
        &mut self,
        mut on_garbage: impl FnMut(&[u8]),
    ) -> Option<RxJsonRpcMessage<RoleClient>> {
        loop {
            let line = match self.lines.next_line().await {
                Ok(Some(line)) => line,
                Ok(None) => return None,
                Err(error) => {
                    tracing::warn!(server = %self.server, %error, "could not read the server's messages");
                    return None;
                }
            };
            if line.truncated {
                let limit = line.bytes.len();
                let answers = oversized_answer_id(line.bytes, line.tail);
                tracing::warn!(
                    server = %self.server,
                    limit,
                    answers = ?answers,
                    "dropped a message from the server: longer than the limit"
                );
                // The request it answers fails now, naming the limit, instead of at its
                // timeout.
                let reason = too_large(limit, self.framing);
                let error = answers.map(|id| dropped_answer_error(&id, &reason));
                if let Some(Ok(Some(message))) =
                    error.map(|error| decode(&mut self.decoder, &error))
                {
                    self.lines.shrink(KEEP_LINE_BUFFER);
                    return Some(message);
                }
                continue;
            }
            match decode(&mut self.decoder, line.bytes) {
                Ok(Some(message)) => {
                    self.lines.shrink(KEEP_LINE_BUFFER);
                    return Some(message);
                }
                Ok(None) => {}
                Err(error) => {
                    let text = String::from_utf8_lossy(&line.bytes[..line.bytes.len().min(200)]);
                    tracing::warn!(
                        server = %self.server,
                        %error,
                        line = %text,
                        "skipped a line from the server that is not JSON-RPC"
                    );
                    on_garbage(line.bytes);
                }
            }
        }
    }
}

/// Why an answer over the limit of `limit` bytes was dropped, for the error its request gets
/// in its place.
fn too_large(limit: usize, framing: &str) -> String {
    format!(
        "the server's answer is larger than the limit of {limit} bytes for one {framing} \
         message, and was dropped"
    )
}
