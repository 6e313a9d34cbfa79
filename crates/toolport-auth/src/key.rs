//! [`TokenKey`]: whose tokens for which server, and its stable string form.

use std::fmt;

/// What a [`TokenSet`](crate::TokenSet) belongs to: the MCP server it is for (the protected
/// resource, by URL) and the identity it acts for (a user or tenant, for servers that must act
/// as the end user; one fixed string, such as `"default"`, when there is only one).
///
/// The resource is kept exactly as given, so pass the same canonical form every time (the
/// authorization flow uses the server's URL as its RFC 8707 `resource`). `Debug` and `Display`
/// show the URL without its query, fragment and user info, which may hold a key; the
/// [`storage_key`](Self::storage_key) keeps all of it.
///
/// # Examples
///
/// ```
/// use toolport_auth::TokenKey;
///
/// let key = TokenKey::new("https://mcp.example.com/mcp", "alice");
/// assert_eq!(key.storage_key(), "https%3A%2F%2Fmcp.example.com%2Fmcp+alice");
/// assert_eq!(key.to_string(), "alice at https://mcp.example.com/mcp");
/// ```
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct TokenKey {
    resource: String,
    identity: String,
}

impl TokenKey {
    /// The tokens of `identity` for the MCP server at `resource`.
    pub fn new(resource: impl Into<String>, identity: impl Into<String>) -> Self {
        Self {
            resource: resource.into(),
            identity: identity.into(),
        }
    }

    /// The MCP server's URL, as given.
    pub fn resource(&self) -> &str {
        &self.resource
    }

    /// The user or tenant the tokens act for.
    pub fn identity(&self) -> &str {
        &self.identity
    }

    /// A stable string for the key, the same in every version of Toolport, to name it in a
    /// store: `<resource>+<identity>`, each part percent-encoded so that only ASCII letters,
    /// digits, `-`, `_` and `.` stay as they are (`+` and `%` are encoded too, so two keys never
    /// give the same string).
    ///
    /// It is safe as a Redis key and in a file name on Unix and Windows, with two limits for
    /// file names: it may be longer than a file system allows (often 255 bytes), and a
    /// case-insensitive file system cannot tell identities that differ only in case apart.
    pub fn storage_key(&self) -> String {
        let mut key = String::with_capacity(self.resource.len() + self.identity.len() + 1);
        percent_encode(&self.resource, &mut key);
        key.push('+');
        percent_encode(&self.identity, &mut key);
        key
    }
}

impl fmt::Display for TokenKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} at {}", self.identity, shown_resource(&self.resource))
    }
}

impl fmt::Debug for TokenKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("TokenKey")
            .field("resource", &shown_resource(&self.resource))
            .field("identity", &self.identity)
            .finish()
    }
}

/// Appends `text` to `out`, every byte but ASCII letters, digits, `-`, `_` and `.` as `%XX`.
fn percent_encode(text: &str, out: &mut String) {
    const HEX: &[u8; 16] = b"0123456789ABCDEF";
    for byte in text.bytes() {
        if byte.is_ascii_alphanumeric() || matches!(byte, b'-' | b'_' | b'.') {
            out.push(char::from(byte));
        } else {
            out.push('%');
            out.push(char::from(HEX[usize::from(byte >> 4)]));
            out.push(char::from(HEX[usize::from(byte & 0xF)]));
        }
    }
}

/// `resource` without its query, fragment and user info, for messages; otherwise as given.
pub(crate) fn shown_resource(resource: &str) -> String {
    toolport_http_client::toolkit::redacted_url_text(resource)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_storage_key_encodes_everything_but_the_safe_characters() {
        let key = TokenKey::new("https://h.example:8443/a b/ü?x=1&y=%", "Team+A/b~c");
        assert_eq!(
            key.storage_key(),
            "https%3A%2F%2Fh.example%3A8443%2Fa%20b%2F%C3%BC%3Fx%3D1%26y%3D%25+Team%2BA%2Fb%7Ec"
        );
    }

    #[test]
    fn the_separator_cannot_be_forged_by_either_part() {
        let a = TokenKey::new("https://x/+b", "c");
        let b = TokenKey::new("https://x/", "b+c");
        assert_ne!(a.storage_key(), b.storage_key());
        assert_eq!(a.storage_key().matches('+').count(), 1);
        assert_eq!(b.storage_key().matches('+').count(), 1);
    }

    #[test]
    fn an_empty_identity_still_gives_a_key() {
        assert_eq!(TokenKey::new("u", "").storage_key(), "u+");
    }

    #[test]
    fn messages_leave_out_the_query_fragment_and_user_info() {
        let key = TokenKey::new("https://user:pw@h.example/mcp?api_key=k-123#frag", "bob");
        for shown in [key.to_string(), format!("{key:?}")] {
            assert!(shown.contains("https://h.example/mcp"), "{shown}");
            for hidden in ["k-123", "api_key", "pw", "user", "frag"] {
                assert!(!shown.contains(hidden), "{shown} shows {hidden}");
            }
        }
        assert!(key.storage_key().contains("k-123"));
    }

    #[test]
    fn a_resource_that_is_not_a_url_is_shown_as_it_is() {
        assert_eq!(
            TokenKey::new("local/server", "a").to_string(),
            "a at local/server"
        );
    }
}
