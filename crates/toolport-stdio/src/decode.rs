//! Decoding one stdout line into a JSON-RPC message, telling garbage from noise.

use rmcp::service::{RoleClient, RxJsonRpcMessage};

/// UTF-8 byte order mark, which RFC 8259 lets a parser ignore.
const BOM: &[u8] = b"\xEF\xBB\xBF";

/// Decodes one line (without its `\n`).
///
/// `Ok(Some(_))` is a message for the client. `Ok(None)` is nothing to deliver and nothing
/// wrong: a blank line, or a notification the client cannot represent. `Err(_)` is garbage: not
/// a JSON-RPC message at all, such as a log line printed to stdout by mistake.
pub(crate) fn decode(
    line: &[u8],
) -> Result<Option<RxJsonRpcMessage<RoleClient>>, serde_json::Error> {
    let line = line.strip_suffix(b"\r").unwrap_or(line);
    let line = line.strip_prefix(BOM).unwrap_or(line);
    if line.iter().all(u8::is_ascii_whitespace) {
        return Ok(None);
    }
    match serde_json::from_slice(line) {
        Ok(message) => Ok(Some(message)),
        Err(error) if is_notification(line) => {
            tracing::debug!(%error, "skipping a notification the client does not know");
            Ok(None)
        }
        Err(error) => Err(error),
    }
}

/// Whether `line` is a JSON object with a `method` and no `id`. Only called on lines that
/// already failed to decode, so the second parse costs nothing on the hot path.
fn is_notification(line: &[u8]) -> bool {
    match serde_json::from_slice::<serde_json::Value>(line) {
        Ok(serde_json::Value::Object(object)) => {
            object
                .get("method")
                .is_some_and(serde_json::Value::is_string)
                && !object.contains_key("id")
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tells_messages_noise_and_garbage_apart() {
        let response = br#"{"jsonrpc":"2.0","id":1,"result":{}}"#;
        assert!(matches!(decode(response), Ok(Some(_))));
        assert!(matches!(decode(b"  \r"), Ok(None)));
        // rmcp keeps unknown notifications as custom ones; either way they are not garbage.
        let foreign = br#"{"jsonrpc":"2.0","method":"$/progress","params":{}}"#;
        assert!(decode(foreign).is_ok());
        let odd = br#"{"jsonrpc":"2.0","method":"notifications/x","params":7}"#;
        assert!(decode(odd).is_ok());
        assert!(decode(b"Server started").is_err());
        assert!(decode(br#"{"id":1}"#).is_err());
    }
}
