//! Parsing a server URL, and describing it without secrets.

use url::Url;

/// Parses an `http` or `https` server URL. Credentials in the URL are refused: they would be
/// sent to every hop and shown in logs; use a bearer token or a header instead.
///
/// The error says what is wrong but does not quote the URL: the connectors name it, as
/// [`describe_raw_url`] shows it, in the target every error message starts with, and a
/// message should not say it twice.
///
/// # Examples
///
/// ```
/// use toolport_http_client::toolkit::parse_server_url;
///
/// assert!(parse_server_url("https://example.com/mcp").is_ok());
/// assert_eq!(
///     parse_server_url("notaurl").unwrap_err(),
///     "invalid server URL: relative URL without a base"
/// );
/// ```
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

/// A URL's text as given (not normalized, so a trailing `/` or a case difference stays
/// visible), cut before any query or fragment and without anything that looks like user info.
///
/// # Examples
///
/// ```
/// use toolport_http_client::toolkit::redacted_url_text;
///
/// assert_eq!(
///     redacted_url_text("https://user:pw@auth.example.com/tenant?key=1"),
///     "https://auth.example.com/tenant"
/// );
/// assert_eq!(redacted_url_text("https://auth.example.com"), "https://auth.example.com");
/// ```
pub fn redacted_url_text(text: &str) -> String {
    let text = text.split(['?', '#']).next().unwrap_or_default();
    let (scheme, rest) = match text.split_once("://") {
        Some((scheme, rest)) => (Some(scheme), rest),
        None => (None, text),
    };
    let authority_end = rest.find('/').unwrap_or(rest.len());
    let rest = match rest[..authority_end].rfind('@') {
        Some(at) => &rest[at + 1..],
        None => rest,
    };
    match scheme {
        Some(scheme) => format!("{scheme}://{rest}"),
        None => rest.to_owned(),
    }
}

/// [`redacted_url`] for a URL as a user typed it, which may not parse: then the text itself,
/// cut before any query or fragment and without anything that looks like credentials.
pub fn describe_raw_url(raw: &str) -> String {
    if let Ok(url) = Url::parse(raw)
        && url.has_host()
    {
        return redacted_url(&url);
    }
    let shown = redacted_url_text(raw.trim());
    shown.chars().take(200).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn redaction_drops_userinfo_and_query() {
        assert_eq!(
            describe_raw_url("https://user:pw@example.com:8443/mcp?key=secret#x"),
            "https://example.com:8443/mcp"
        );
        assert_eq!(
            describe_raw_url("http://127.0.0.1:8080/mcp"),
            "http://127.0.0.1:8080/mcp"
        );
        assert!(parse_server_url("https://user:pw@example.com/mcp").is_err());
        assert!(parse_server_url("ftp://example.com/mcp").is_err());
    }

    #[test]
    fn a_url_that_does_not_parse_is_shown_as_typed_without_secrets() {
        assert_eq!(describe_raw_url("notaurl"), "notaurl");
        assert_eq!(
            describe_raw_url("http://user:pw@exa mple.com/mcp?key=secret"),
            "http://exa mple.com/mcp"
        );
        assert_eq!(describe_raw_url("user:pw@host?k=v"), "host");
        let error = parse_server_url("http://user:pw@exa mple.com/mcp?key=secret").unwrap_err();
        assert_eq!(
            error,
            "invalid server URL: invalid international domain name"
        );
        let error = parse_server_url("https://user:pw@example.com/mcp").unwrap_err();
        assert!(!error.contains("pw"), "{error}");
    }
}
