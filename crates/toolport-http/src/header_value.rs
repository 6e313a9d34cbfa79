//! How a value travels in an `Mcp-Name` or `Mcp-Param-*` header (MCP 2026-07-28): as it is
//! when it is plain visible ASCII, otherwise as `=?base64?…?=` of its UTF-8.

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use http::HeaderValue;

const PREFIX: &str = "=?base64?";
const SUFFIX: &str = "?=";

/// `value` as a header value: itself when every character is visible ASCII, space or tab and
/// it neither starts nor ends with whitespace nor looks like the Base64 sentinel; otherwise the
/// sentinel around its Base64.
pub(crate) fn encode(value: &str) -> HeaderValue {
    if is_plain(value)
        && let Ok(plain) = HeaderValue::from_str(value)
    {
        return plain;
    }
    let encoded = format!("{PREFIX}{}{SUFFIX}", STANDARD.encode(value));
    HeaderValue::from_str(&encoded).expect("Base64 is visible ASCII")
}

fn is_plain(value: &str) -> bool {
    let visible = value
        .bytes()
        .all(|byte| byte == b' ' || byte == b'\t' || (0x21..=0x7e).contains(&byte));
    let padded = value.starts_with([' ', '\t']) || value.ends_with([' ', '\t']);
    let sentinel = value.starts_with(PREFIX) && value.ends_with(SUFFIX);
    visible && !padded && !sentinel
}

#[cfg(test)]
mod tests {
    use super::encode;

    /// The specification's own examples.
    #[test]
    fn values_are_plain_or_base64_as_the_specification_shows() {
        let cases = [
            ("us-west1", "us-west1"),
            ("Hello, 世界", "=?base64?SGVsbG8sIOS4lueVjA==?="),
            (" padded ", "=?base64?IHBhZGRlZCA=?="),
            ("line1\nline2", "=?base64?bGluZTEKbGluZTI=?="),
            ("=?base64?literal?=", "=?base64?PT9iYXNlNjQ/bGl0ZXJhbD89?="),
        ];
        for (value, expected) in cases {
            assert_eq!(encode(value), expected, "{value:?}");
        }
    }

    #[test]
    fn inner_spaces_stay_plain() {
        assert_eq!(encode("file:///my docs/a b.txt"), "file:///my docs/a b.txt");
        assert_eq!(encode(""), "");
    }
}
