//! The token file's JSON: a format version and every key's tokens.
//!
//! ```json
//! {
//!   "version": 1,
//!   "tokens": {
//!     "https%3A%2F%2Fmcp.example.com%2Fmcp+alice": {
//!       "access_token": "...",
//!       "token_type": "Bearer",
//!       "refresh_token": "...",
//!       "expires_at": 1700000000,
//!       "scopes": ["tools:read"],
//!       "issuer": "https://auth.example.com",
//!       "refresh_binding": {
//!         "issuer": "https://auth.example.com",
//!         "token_endpoint": "https://auth.example.com/token",
//!         "client_id": "...",
//!         "client_secret": "...",
//!         "token_endpoint_auth_method": "client_secret_basic",
//!         "resource": "https://mcp.example.com/mcp"
//!       }
//!     }
//!   }
//! }
//! ```
//!
//! Each entry is keyed by [`TokenKey::storage_key`](crate::TokenKey::storage_key). Entries only
//! ever gain optional fields (`refresh_binding` came later), so the version stays 1: older
//! entries still load, and a build that predates a field ignores it (and leaves it out when it
//! writes the file again; a missing binding only costs a new sign-in). A file whose version is
//! not [`VERSION`] is refused rather than rewritten, so an older build never drops what a newer
//! format wrote.

use std::collections::BTreeMap;
use std::io;
use std::path::Path;

use serde::{Deserialize, Serialize};
use serde_json::error::Category;

use crate::wire::WireTokens;
use crate::{FileAction, TokenStoreError};

/// The format version this build reads and writes.
pub(super) const VERSION: u64 = 1;

/// Every key's tokens, by storage key.
pub(super) type Entries = BTreeMap<String, WireTokens>;

/// The file's first field alone, read before the rest so a newer format is named as such.
#[derive(Deserialize)]
struct Header {
    version: u64,
}

/// The whole file, as read (its version is checked through [`Header`] first).
#[derive(Deserialize)]
struct Document {
    tokens: Entries,
}

/// The whole file, as written.
#[derive(Serialize)]
struct DocumentRef<'a> {
    version: u64,
    tokens: &'a Entries,
}

/// The entries of the file at `path`, whose text is `bytes`.
pub(super) fn parse(path: &Path, bytes: &[u8]) -> Result<Entries, TokenStoreError> {
    let header: Header = serde_json::from_slice(bytes).map_err(|error| corrupt(path, &error))?;
    if header.version != VERSION {
        return Err(TokenStoreError::UnsupportedVersion {
            path: path.to_owned(),
            found: header.version,
            supported: VERSION,
        });
    }
    let document: Document =
        serde_json::from_slice(bytes).map_err(|error| corrupt(path, &error))?;
    Ok(document.tokens)
}

/// The text of a file holding `entries`: pretty JSON, ending in a newline.
pub(super) fn render(path: &Path, entries: &Entries) -> Result<Vec<u8>, TokenStoreError> {
    let document = DocumentRef {
        version: VERSION,
        tokens: entries,
    };
    let mut bytes = serde_json::to_vec_pretty(&document).map_err(|error| {
        // Not reachable with string keys and these fields; serializing says nothing of values.
        TokenStoreError::File {
            action: FileAction::Write,
            path: path.to_owned(),
            source: io::Error::other(error),
        }
    })?;
    bytes.push(b'\n');
    Ok(bytes)
}

/// [`TokenStoreError::Corrupt`] for `error`, by where it broke and of what kind. serde's own
/// message is left out: it may quote the file, and the file holds tokens.
fn corrupt(path: &Path, error: &serde_json::Error) -> TokenStoreError {
    let problem = match error.classify() {
        Category::Syntax => "not valid JSON",
        Category::Eof => "the JSON ends too early",
        Category::Data => "valid JSON, but not the token file's form",
        Category::Io => "unreadable",
    };
    TokenStoreError::Corrupt {
        path: path.to_owned(),
        problem,
        line: error.line(),
        column: error.column(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const PATH: &str = "/tmp/tokens.json";

    fn parse_text(text: &str) -> Result<Entries, TokenStoreError> {
        parse(Path::new(PATH), text.as_bytes())
    }

    #[test]
    fn an_empty_document_has_no_entries_and_renders_back() {
        let entries = parse_text(r#"{"version": 1, "tokens": {}}"#).unwrap();
        assert!(entries.is_empty());
        let text = render(Path::new(PATH), &entries).unwrap();
        assert_eq!(text, b"{\n  \"version\": 1,\n  \"tokens\": {}\n}\n");
    }

    #[test]
    fn a_newer_version_is_refused_by_number() {
        let error = parse_text(r#"{"version": 2, "tokens": {"k": {"new": "shape"}}}"#)
            .err()
            .unwrap();
        assert!(
            matches!(
                error,
                TokenStoreError::UnsupportedVersion {
                    found: 2,
                    supported: 1,
                    ..
                }
            ),
            "{error:?}"
        );
    }

    #[test]
    fn each_kind_of_damage_is_named_with_its_position() {
        let cases = [
            ("", "ends too early", 1),
            ("{\"version\": 1,\n \"tokens\": {", "ends too early", 2),
            ("{\"version\": 1,\n oops}", "not valid JSON", 2),
            ("\"tokens\"", "not the token file's form", 1),
            (
                "{\"version\": 1,\n \"tokens\": []}",
                "not the token file's form",
                2,
            ),
            ("{\"tokens\": {}}", "not the token file's form", 1),
        ];
        for (text, problem, line) in cases {
            match parse_text(text) {
                Err(TokenStoreError::Corrupt {
                    problem: found,
                    line: at,
                    ..
                }) => {
                    assert!(found.contains(problem), "{text:?}: {found}");
                    assert_eq!(at, line, "{text:?}");
                }
                other => panic!(
                    "{text:?}: expected Corrupt, got {other:?}",
                    other = other.err()
                ),
            }
        }
    }
}
