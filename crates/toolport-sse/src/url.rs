//! Resolving the endpoint the server names against the event stream's URL, on the same origin
//! only. Parsing and redacting URLs is `toolport-http-client`'s.

use url::Url;

use crate::SseError;

/// Resolves the data of an `endpoint` event against the event stream's URL, exactly as given
/// otherwise (path, trailing slash, query). Refuses another origin (scheme, host or port).
pub(crate) fn resolve_endpoint(stream: &Url, data: &str) -> Result<Url, SseError> {
    let invalid = |reason: String| SseError::InvalidEndpoint { reason };
    let endpoint = stream
        .join(data.trim())
        .map_err(|error| invalid(error.to_string()))?;
    if !matches!(endpoint.scheme(), "http" | "https") {
        return Err(invalid(format!(
            "unsupported scheme `{}`",
            endpoint.scheme()
        )));
    }
    let (ours, theirs) = (stream.origin(), endpoint.origin());
    if ours != theirs {
        return Err(SseError::ForeignEndpoint {
            stream_origin: ours.ascii_serialization(),
            endpoint_origin: theirs.ascii_serialization(),
        });
    }
    if !endpoint.username().is_empty() || endpoint.password().is_some() {
        return Err(invalid("it carries credentials".to_owned()));
    }
    Ok(endpoint)
}

/// The origin (`scheme://host:port`) of a URL as written, which may hold `${VAR}` references
/// and need not parse: the text up to the path, without userinfo.
pub(crate) fn written_origin(text: &str) -> String {
    let shown = toolport_http_client::toolkit::redacted_url_text(text.trim());
    let authority_start = shown.find("://").map_or(0, |scheme_end| scheme_end + 3);
    match shown[authority_start..].find('/') {
        Some(path_start) => shown[..authority_start + path_start].to_owned(),
        None => shown,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn resolves_relative_endpoints_on_the_same_origin_only() {
        let stream = Url::parse("http://127.0.0.1:8080/sse").unwrap();
        let python = resolve_endpoint(&stream, "/messages/?session_id=ab12").unwrap();
        assert_eq!(
            python.as_str(),
            "http://127.0.0.1:8080/messages/?session_id=ab12"
        );
        let npm = resolve_endpoint(&stream, "/message?sessionId=x-1\n").unwrap();
        assert_eq!(npm.as_str(), "http://127.0.0.1:8080/message?sessionId=x-1");
        let absolute = resolve_endpoint(&stream, "http://127.0.0.1:8080/m?s=1").unwrap();
        assert_eq!(absolute.as_str(), "http://127.0.0.1:8080/m?s=1");

        let foreign = resolve_endpoint(&stream, "http://127.0.0.2:9/messages").unwrap_err();
        assert_eq!(
            foreign.to_string(),
            "the server's `endpoint` event points at http://127.0.0.2:9, another origin than the event stream's http://127.0.0.1:8080; refusing to send messages there"
        );
        assert!(resolve_endpoint(&stream, "https://127.0.0.1:8080/m").is_err());
        assert!(resolve_endpoint(&stream, "//evil.example/m").is_err());
        assert!(resolve_endpoint(&stream, "http://u:p@127.0.0.1:8080/m").is_err());
    }

    #[test]
    fn a_written_origin_is_the_text_before_the_path() {
        assert_eq!(
            written_origin("http://user:pw@${HOST}:8080/${TENANT}/sse?key=1"),
            "http://${HOST}:8080"
        );
        assert_eq!(written_origin("https://${HOST}"), "https://${HOST}");
    }
}
