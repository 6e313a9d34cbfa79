//! [`LineReader`]: reads `\n`-terminated lines from a pipe without ever buffering more than a
//! fixed number of bytes per line.

use std::io;

use tokio::io::{AsyncBufReadExt, AsyncRead, BufReader};

/// How many of the last bytes of a line cut to the limit are kept beside its start: enough
/// for a response's id where the TypeScript SDK writes it, last.
const TAIL: usize = 128;

/// One line, without its `\n`.
#[derive(Debug)]
pub struct Line<'a> {
    /// The line's bytes, at most the reader's limit.
    pub bytes: &'a [u8],
    /// Whether the line was longer than the limit and its tail was dropped.
    pub truncated: bool,
    /// When it was, the last bytes of what was dropped (at most 128): the end of the line.
    pub tail: &'a [u8],
}

/// Splits a byte stream into lines of bounded length.
///
/// [`next_line`](LineReader::next_line) is cancellation safe: the partial line lives in the
/// struct, and bytes are consumed from the pipe only in the same synchronous step that stores
/// them, so a dropped call loses nothing and the next call resumes the same line.
#[derive(Debug)]
pub struct LineReader<R> {
    inner: BufReader<R>,
    line: Vec<u8>,
    max: usize,
    truncated: bool,
    /// The last [`TAIL`] bytes dropped from the line.
    tail: Vec<u8>,
    /// The previous call returned `line`; clear it before reading on.
    delivered: bool,
}

impl<R: AsyncRead + Unpin> LineReader<R> {
    /// Reads lines from `inner`, keeping at most `max` bytes of each.
    pub fn new(inner: R, max: usize) -> Self {
        Self {
            // tokio's default 8 KiB: every session has two of these (stdout and stderr), and a
            // 64 KiB buffer each was most of a session's memory in a fleet of servers.
            inner: BufReader::new(inner),
            line: Vec::new(),
            max,
            truncated: false,
            tail: Vec::new(),
            delivered: false,
        }
    }

    /// The next line, or `None` at end of stream. A last line without a `\n` is still returned.
    pub async fn next_line(&mut self) -> io::Result<Option<Line<'_>>> {
        if self.delivered {
            self.line.clear();
            self.truncated = false;
            self.tail.clear();
            self.delivered = false;
        }
        loop {
            let chunk = self.inner.fill_buf().await?;
            if chunk.is_empty() {
                if self.line.is_empty() && !self.truncated {
                    return Ok(None);
                }
                return Ok(Some(self.deliver()));
            }
            let newline = chunk.iter().position(|&b| b == b'\n');
            let (take, ends_line) = match newline {
                Some(at) => (at + 1, true),
                None => (chunk.len(), false),
            };
            let body = newline.unwrap_or(chunk.len());
            let room = self.max.saturating_sub(self.line.len());
            let keep = body.min(room);
            self.line.extend_from_slice(&chunk[..keep]);
            if keep < body {
                self.truncated = true;
                keep_tail(&mut self.tail, &chunk[keep..body]);
            }
            self.inner.consume(take);
            if ends_line {
                return Ok(Some(self.deliver()));
            }
        }
    }

    fn deliver(&mut self) -> Line<'_> {
        self.delivered = true;
        Line {
            bytes: &self.line,
            truncated: self.truncated,
            tail: &self.tail,
        }
    }

    /// Frees a large line buffer once it is no longer needed, so one huge message does not
    /// pin its memory for the life of the connection.
    pub(crate) fn shrink(&mut self, keep: usize) {
        if self.delivered && self.line.capacity() > keep {
            self.line = Vec::new();
            self.delivered = false;
            self.truncated = false;
            self.tail.clear();
        }
    }
}

/// Appends `dropped` to `tail`, keeping only the last [`TAIL`] bytes.
fn keep_tail(tail: &mut Vec<u8>, dropped: &[u8]) {
    let excess = (tail.len() + dropped.len()).saturating_sub(TAIL);
    tail.drain(..excess.min(tail.len()));
    tail.extend_from_slice(&dropped[dropped.len().saturating_sub(TAIL)..]);
}

#[cfg(test)]
mod tests {
    use super::*;

    async fn lines(input: &[u8], max: usize) -> Vec<(String, bool)> {
        let mut reader = LineReader::new(input, max);
        let mut out = Vec::new();
        while let Some(line) = reader.next_line().await.unwrap() {
            out.push((
                String::from_utf8_lossy(line.bytes).into_owned(),
                line.truncated,
            ));
        }
        out
    }

    #[tokio::test]
    async fn splits_and_truncates() {
        let got = lines(b"ab\n\nabcdefgh\nxyz", 4).await;
        let want = [("ab", false), ("", false), ("abcd", true), ("xyz", false)];
        let want: Vec<_> = want.iter().map(|(s, t)| (s.to_string(), *t)).collect();
        assert_eq!(got, want);
    }

    #[tokio::test]
    async fn a_cut_line_keeps_its_last_bytes() {
        let end = "e".repeat(TAIL - 3);
        let input = format!("{}{}xyz{end}\nnext\n", "a".repeat(100), "b".repeat(1000));
        let mut reader = LineReader::new(input.as_bytes(), 100);
        let line = reader.next_line().await.unwrap().unwrap();
        assert!(line.truncated);
        assert_eq!(line.tail, format!("xyz{end}").as_bytes());
        let line = reader.next_line().await.unwrap().unwrap();
        assert_eq!(
            (line.bytes, line.truncated, line.tail),
            (&b"next"[..], false, &b""[..])
        );
    }

    #[tokio::test]
    async fn empty_stream_has_no_lines() {
        assert!(lines(b"", 4).await.is_empty());
    }
}
