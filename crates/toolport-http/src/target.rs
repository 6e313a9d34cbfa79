//! Parsing a server URL, and describing it without secrets. Public for transport authors.

use url::Url;

/// Parses an `http` or `https` server URL. Credentials in the URL are refused: they would be
/// sent to every hop and shown in logs; use a bearer token or a header instead.
pub fn parse_server_url(raw: &str) -> Result<Url, String> {
    let url = Url::parse(raw).map_err(|error| format!("invalid server URL: {error}"))?;
    match url.scheme() {
        "http" | "https" => {}
        other => {
            return Err(format!(
                "unsupported URL scheme `{other}` (use http or https)"
            ));
        }
    }
    if url.host_str().is_none_or(str::is_empty) {
        return Err("the server URL has no host".to_owned());
    }
    if !url.username().is_empty() || url.password().is_some() {
        return Err(
            "credentials in the server URL are not supported; use bearer_token, api_key or header"
                .to_owned(),
        );
    }
    Ok(url)
}

/// `scheme://host:port/path`: no userinfo, no query (it may hold a key or a session id), no
/// fragment. For messages and `Debug` output.
pub fn redacted_url(url: &Url) -> String {
    let mut shown = format!("{}://{}", url.scheme(), url.host_str().unwrap_or(""));
    if let Some(port) = url.port() {
        shown.push_str(&format!(":{port}"));
    }
    shown.push_str(url.path());
    shown
}

/// [`redacted_url`] for a URL that may not parse.
pub fn redacted_raw_url(raw: &str) -> String {
    Url::parse(raw).map_or_else(|_| "<invalid URL>".to_owned(), |url| redacted_url(&url))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn redaction_drops_userinfo_and_query() {
        assert_eq!(
            redacted_raw_url("https://user:pw@example.com:8443/mcp?key=secret#x"),
            "https://example.com:8443/mcp"
        );
        assert_eq!(
            redacted_raw_url("http://127.0.0.1:8080/mcp"),
            "http://127.0.0.1:8080/mcp"
        );
        assert!(parse_server_url("https://user:pw@example.com/mcp").is_err());
        assert!(parse_server_url("ftp://example.com/mcp").is_err());
    }
}
