//! Decoding one stdout line: line-ending and byte-order-mark noise is stripped, then the codec's
//! [`ServerMessageDecoder`] tells messages from garbage.

use rmcp::service::{RoleClient, RxJsonRpcMessage};
use toolport_codec::ServerMessageDecoder;

/// UTF-8 byte order mark, which RFC 8259 lets a parser ignore.
const BOM: &[u8] = b"\xEF\xBB\xBF";

/// Decodes one line (without its `\n`).
///
/// `Ok(Some(_))` is a message for the client. `Ok(None)` is nothing to deliver and nothing
/// wrong: a blank line, or a notification the client cannot represent. `Err(_)` is garbage: not
/// a JSON-RPC message at all, such as a log line printed to stdout by mistake.
pub fn decode(
    decoder: &mut ServerMessageDecoder,
    line: &[u8],
) -> Result<Option<RxJsonRpcMessage<RoleClient>>, serde_json::Error> {
    let line = line.strip_suffix(b"\r").unwrap_or(line);
    let line = line.strip_prefix(BOM).unwrap_or(line);
    decoder.decode(line)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tells_messages_noise_and_garbage_apart() {
        let decode = |line: &[u8]| decode(&mut ServerMessageDecoder::new(), line);
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
