//! [`decode_server_message`]: one framed server message, told apart from noise and garbage.

use rmcp::service::{RoleClient, RxJsonRpcMessage};

/// Decodes one message a server sent (a stdout line, an SSE event's data), for transport
/// authors.
///
/// `Ok(Some(_))` is a message for the client. `Ok(None)` is nothing to deliver and nothing
/// wrong: blank input, or a notification the client cannot represent. `Err(_)` is garbage: not
/// a JSON-RPC message at all, such as a log line printed to stdout by mistake.
pub fn decode_server_message(
    bytes: &[u8],
) -> Result<Option<RxJsonRpcMessage<RoleClient>>, serde_json::Error> {
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return Ok(None);
    }
    match serde_json::from_slice(bytes) {
        Ok(message) => Ok(Some(message)),
        Err(error) if is_notification(bytes) => {
            tracing::debug!(%error, "skipping a notification the client does not know");
            Ok(None)
        }
        Err(error) => Err(error),
    }
}

/// Whether `bytes` is a JSON object with a `method` and no `id`. Only called on input that
/// already failed to decode, so the second parse costs nothing on the hot path.
fn is_notification(bytes: &[u8]) -> bool {
    match serde_json::from_slice::<serde_json::Value>(bytes) {
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
        assert!(matches!(
            decode_server_message(br#"{"jsonrpc":"2.0","id":1,"result":{}}"#),
            Ok(Some(_))
        ));
        assert!(matches!(decode_server_message(b" \n"), Ok(None)));
        let foreign = br#"{"jsonrpc":"2.0","method":"$/progress","params":{}}"#;
        assert!(decode_server_message(foreign).is_ok());
        let odd = br#"{"jsonrpc":"2.0","method":"notifications/x","params":7}"#;
        assert!(decode_server_message(odd).is_ok());
        assert!(decode_server_message(b"hello").is_err());
        assert!(decode_server_message(br#"{"id":1}"#).is_err());
    }
}
