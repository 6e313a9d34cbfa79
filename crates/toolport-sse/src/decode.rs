//! Decoding the data of one `message` event into a JSON-RPC message, telling garbage from
//! noise.

use rmcp::service::{RoleClient, RxJsonRpcMessage};

/// Decodes the data of a `message` event.
///
/// `Ok(Some(_))` is a message for the client. `Ok(None)` is nothing to deliver and nothing
/// wrong: blank data, or a notification the client cannot represent. `Err(_)` is garbage: not a
/// JSON-RPC message at all.
pub(crate) fn decode(
    data: &str,
) -> Result<Option<RxJsonRpcMessage<RoleClient>>, serde_json::Error> {
    if data.trim().is_empty() {
        return Ok(None);
    }
    match serde_json::from_str(data) {
        Ok(message) => Ok(Some(message)),
        Err(error) if is_notification(data) => {
            tracing::debug!(%error, "skipping a notification the client does not know");
            Ok(None)
        }
        Err(error) => Err(error),
    }
}

/// Whether `data` is a JSON object with a `method` and no `id`. Only called on data that
/// already failed to decode.
fn is_notification(data: &str) -> bool {
    match serde_json::from_str::<serde_json::Value>(data) {
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
            decode(r#"{"jsonrpc":"2.0","id":1,"result":{}}"#),
            Ok(Some(_))
        ));
        assert!(matches!(decode(" \n"), Ok(None)));
        assert!(decode(r#"{"jsonrpc":"2.0","method":"notifications/x","params":7}"#).is_ok());
        assert!(decode("hello").is_err());
        assert!(decode(r#"{"id":1}"#).is_err());
    }
}
