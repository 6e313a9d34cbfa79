//! An answer too large for a transport to keep: which request it answers, read from the two
//! ends of the message (the middle is dropped), and the error that request gets in its place,
//! so that it fails at once, naming the limit, instead of waiting for its timeout.
//!
//! Servers write a response's members in either order: `jsonrpc` and `id` first (rmcp, the
//! Python SDK), or `result` first and `id` last (the TypeScript SDK). A transport keeps the
//! start of the message and its last bytes, so the id is found at either end. An id anywhere
//! else is not found, and the answer is dropped with nobody told: the request then ends at its
//! timeout.

use rmcp::model::{NumberOrString, RequestId};
use serde_json::json;

/// The id of the answer whose message began with `head` and ended with `tail`, the middle
/// having been dropped. `None` unless `head` shows an answer (a top-level `result` or `error`
/// member before any `method`), since a server's own request carries an id of the server's.
///
/// # Examples
///
/// ```
/// use rmcp::model::NumberOrString;
/// use toolport_codec::oversized_answer_id;
///
/// let head = br#"{"jsonrpc":"2.0","id":7,"result":{"content":[{"type":"text","text":"xxxx"#;
/// assert_eq!(oversized_answer_id(head, b"xx\"}]}}"), Some(NumberOrString::Number(7)));
/// let head = br#"{"result":{"content":[{"type":"text","text":"xxxx"#;
/// let tail = br#"xx"}]},"jsonrpc":"2.0","id":"call-2"}"#;
/// assert_eq!(oversized_answer_id(head, tail), Some(NumberOrString::String("call-2".into())));
/// ```
pub fn oversized_answer_id(head: &[u8], tail: &[u8]) -> Option<RequestId> {
    let members = leading_members(head);
    if !members.is_answer {
        return None;
    }
    members.id.or_else(|| last_member_id(tail))
}

/// The JSON-RPC error answer to `id` that a transport delivers in place of an answer it
/// dropped, with `why` as its message (which limit it passed, and how to raise it).
pub fn dropped_answer_error(id: &RequestId, why: &str) -> Vec<u8> {
    let error = json!({
        "jsonrpc": "2.0",
        "id": id,
        "error": {"code": -32603, "message": why},
    });
    serde_json::to_vec(&error).unwrap_or_default()
}

/// What the top-level members at the start of a message say.
#[derive(Debug, Default, PartialEq)]
struct LeadingMembers {
    /// A `result` or `error` member came before any `method`.
    is_answer: bool,
    /// The `id`, when it came whole before the end of the bytes.
    id: Option<RequestId>,
}

/// Reads the top-level members of the object that `bytes` starts, until the bytes end or a
/// member's value is cut off.
fn leading_members(bytes: &[u8]) -> LeadingMembers {
    let mut found = LeadingMembers::default();
    let mut at = skip_space(bytes, 0);
    if bytes.get(at) != Some(&b'{') {
        return found;
    }
    at += 1;
    let mut seen_method = false;
    loop {
        at = skip_space(bytes, at);
        let Some((key, after_key)) = string_at(bytes, at) else {
            return found;
        };
        at = skip_space(bytes, after_key);
        if bytes.get(at) != Some(&b':') {
            return found;
        }
        at = skip_space(bytes, at + 1);
        match key {
            b"method" => seen_method = true,
            b"result" | b"error" if !seen_method => found.is_answer = true,
            b"id" => found.id = scalar_id(&bytes[at..]),
            _ => {}
        }
        let Some(after_value) = skip_value(bytes, at) else {
            return found;
        };
        at = skip_space(bytes, after_value);
        if bytes.get(at) != Some(&b',') {
            return found;
        }
        at += 1;
    }
}

/// The id of a line that ends `,"id":VALUE}`: the last member of the top-level object, since
/// the line's last `}` closes it.
fn last_member_id(tail: &[u8]) -> Option<RequestId> {
    let tail = trim_end(tail).strip_suffix(b"}")?;
    let tail = trim_end(tail);
    let (value, before) = if let Some(open) = tail.strip_suffix(b"\"") {
        let start = open.iter().rposition(|&byte| byte == b'"')?;
        (&tail[start..], &open[..start])
    } else {
        let start = tail
            .iter()
            .rposition(|&byte| !(byte.is_ascii_digit() || byte == b'-'))
            .map_or(0, |at| at + 1);
        (&tail[start..], &tail[..start])
    };
    let before = trim_end(before).strip_suffix(b":")?;
    let before = trim_end(before).strip_suffix(b"\"id\"")?;
    trim_end(before).strip_suffix(b",")?;
    // The value ends where the object does, so it is whole: read it with its closing brace.
    let mut whole = value.to_vec();
    whole.push(b'}');
    scalar_id(&whole)
}

/// An id at the start of `bytes`: a string without escapes, or an integer followed by
/// something that ends it (so a number cut off by the end of `bytes` is not taken).
fn scalar_id(bytes: &[u8]) -> Option<RequestId> {
    if bytes.first() == Some(&b'"') {
        let (text, _) = string_at(bytes, 0)?;
        if text.contains(&b'\\') {
            return None;
        }
        let text = std::str::from_utf8(text).ok()?;
        return Some(NumberOrString::String(text.into()));
    }
    let end = bytes
        .iter()
        .position(|&byte| !(byte.is_ascii_digit() || byte == b'-'))
        .unwrap_or(bytes.len());
    let digits = std::str::from_utf8(&bytes[..end]).ok()?;
    if !matches!(
        bytes.get(end),
        Some(b',' | b'}' | b' ' | b'\t' | b'\r' | b'\n')
    ) {
        return None;
    }
    digits.parse().ok().map(NumberOrString::Number)
}

/// The contents of the string that starts at `at` (without its quotes, escapes left as
/// they are) and the index after its closing quote; `None` if there is none there or it is
/// cut off.
fn string_at(bytes: &[u8], at: usize) -> Option<(&[u8], usize)> {
    if bytes.get(at) != Some(&b'"') {
        return None;
    }
    let mut index = at + 1;
    while index < bytes.len() {
        match bytes[index] {
            b'\\' => index += 2,
            b'"' => return Some((&bytes[at + 1..index], index + 1)),
            _ => index += 1,
        }
    }
    None
}

/// The index after the JSON value that starts at `at`; `None` if it is cut off.
fn skip_value(bytes: &[u8], at: usize) -> Option<usize> {
    match bytes.get(at)? {
        b'"' => string_at(bytes, at).map(|(_, after)| after),
        b'{' | b'[' => {
            let mut depth = 0usize;
            let mut index = at;
            while index < bytes.len() {
                match bytes[index] {
                    b'"' => {
                        index = string_at(bytes, index)?.1;
                        continue;
                    }
                    b'{' | b'[' => depth += 1,
                    b'}' | b']' => {
                        depth -= 1;
                        if depth == 0 {
                            return Some(index + 1);
                        }
                    }
                    _ => {}
                }
                index += 1;
            }
            None
        }
        _ => {
            let end = bytes[at..].iter().position(|byte| {
                matches!(byte, b',' | b'}' | b']') || byte.is_ascii_whitespace()
            })?;
            Some(at + end)
        }
    }
}

fn skip_space(bytes: &[u8], mut at: usize) -> usize {
    while bytes.get(at).is_some_and(u8::is_ascii_whitespace) {
        at += 1;
    }
    at
}

fn trim_end(bytes: &[u8]) -> &[u8] {
    let end = bytes
        .iter()
        .rposition(|byte| !byte.is_ascii_whitespace())
        .map_or(0, |at| at + 1);
    &bytes[..end]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn number(id: i64) -> Option<RequestId> {
        Some(NumberOrString::Number(id))
    }

    #[test]
    fn the_id_is_read_from_the_start_when_it_comes_first() {
        let head = br#"{"jsonrpc":"2.0","id":7,"result":{"content":[{"type":"text","text":"xxxx"#;
        assert_eq!(oversized_answer_id(head, b"xxxx\"}]}}"), number(7));
        let head =
            br#"{ "jsonrpc" : "2.0" , "id" : "call-1" , "error" : {"code": 1, "message": "xx"#;
        assert_eq!(
            oversized_answer_id(head, b""),
            Some(NumberOrString::String("call-1".into()))
        );
    }

    #[test]
    fn the_id_is_read_from_the_end_when_it_comes_last() {
        let head = br#"{"result":{"content":[{"type":"text","text":"xxxx"#;
        assert_eq!(
            oversized_answer_id(head, br#"xxx"}]},"jsonrpc":"2.0","id":12}"#),
            number(12)
        );
        assert_eq!(
            oversized_answer_id(head, b"xx\"}]},\"jsonrpc\":\"2.0\",\"id\": \"abc\" }\r"),
            Some(NumberOrString::String("abc".into()))
        );
    }

    #[test]
    fn a_nested_id_or_one_cut_off_is_not_taken() {
        let head = br#"{"result":{"id":3,"content":[{"type":"text","text":"xxxx"#;
        assert_eq!(oversized_answer_id(head, br#"xxx"}],"id":4}}"#), None);
        // The head ends in the middle of the id: 12 may be the start of 1234.
        assert_eq!(oversized_answer_id(br#"{"result":{},"id":12"#, b""), None);
        assert_eq!(
            oversized_answer_id(br#"{"jsonrpc":"2.0","id":"ab"#, b""),
            None
        );
    }

    #[test]
    fn a_server_request_is_not_an_answer() {
        let head = br#"{"jsonrpc":"2.0","id":1,"method":"sampling/createMessage","params":{"xx"#;
        assert_eq!(oversized_answer_id(head, b"xx\"}}"), None);
        let head = br#"{"method":"sampling/createMessage","params":{"result":"xx"#;
        assert_eq!(
            oversized_answer_id(head, br#"xx"},"jsonrpc":"2.0","id":1}"#),
            None
        );
    }

    #[test]
    fn the_error_keeps_the_id_and_says_why() {
        let id = NumberOrString::String("a\"b".into());
        let line = dropped_answer_error(&id, "larger than the limit of 1024 bytes");
        let error: serde_json::Value = serde_json::from_slice(&line).unwrap();
        assert_eq!(error["id"], "a\"b");
        assert_eq!(error["error"]["code"], -32603);
        assert_eq!(
            error["error"]["message"],
            "larger than the limit of 1024 bytes"
        );
    }
}
