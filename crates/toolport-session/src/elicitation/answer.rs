//! Turns a handler's answer into the `ElicitResult` sent to the server, guarding against
//! handler errors, panics and answers that break the schema.

use std::panic::AssertUnwindSafe;

use futures_util::FutureExt as _;
use rmcp::model::{ElicitRequestParams, ElicitResult, ElicitationAction};
use serde_json::Value;
use url::{Host, Url};

use super::{ElicitationHandler, ElicitationRequest, ElicitationResponse};

/// Asks `handler` and returns what to send back. Never fails: every failure is a decline.
pub(crate) async fn answer(
    handler: &dyn ElicitationHandler,
    params: ElicitRequestParams,
) -> ElicitResult {
    let request = match request_from(params) {
        Ok(request) => request,
        Err(why) => return decline(&why),
    };
    #[cfg(feature = "jsonschema")]
    let schema = match &request {
        ElicitationRequest::Form { schema, .. } => Some(schema.clone()),
        _ => None,
    };
    let response = match AssertUnwindSafe(handler.elicit(request))
        .catch_unwind()
        .await
    {
        Ok(Ok(response)) => response,
        Ok(Err(error)) => return decline(&format!("the handler failed: {error}")),
        Err(_) => return decline("the handler panicked"),
    };
    match response {
        ElicitationResponse::Accept(content) => {
            #[cfg(feature = "jsonschema")]
            if let (Some(schema), Some(content)) = (&schema, &content)
                && let Some(problem) = super::validate::mismatch(schema, content)
            {
                return decline(&format!(
                    "the answer does not match the requested schema: {problem}"
                ));
            }
            let result = ElicitResult::new(ElicitationAction::Accept);
            match content {
                Some(content) => result.with_content(Value::Object(content)),
                None => result,
            }
        }
        ElicitationResponse::Decline => ElicitResult::new(ElicitationAction::Decline),
        ElicitationResponse::Cancel => ElicitResult::new(ElicitationAction::Cancel),
    }
}

/// The request the handler is shown, or why it is declined unseen.
fn request_from(params: ElicitRequestParams) -> Result<ElicitationRequest, String> {
    match params {
        ElicitRequestParams::FormElicitationParams {
            message,
            requested_schema,
            ..
        } => Ok(ElicitationRequest::Form {
            message,
            schema: serde_json::to_value(requested_schema)
                .map_err(|error| format!("the requested schema: {error}"))?,
        }),
        ElicitRequestParams::UrlElicitationParams {
            message,
            url,
            elicitation_id,
            ..
        } => Ok(ElicitationRequest::Url {
            domain: domain_to_visit(&url)?,
            message,
            url,
            elicitation_id,
        }),
        _ => Err("an elicitation mode this client does not know".to_owned()),
    }
}

/// The host of a URL the user is asked to visit: one that uses `https`, or plain `http` on a
/// loopback host (a local sign-in page); any other is refused.
fn domain_to_visit(url: &str) -> Result<String, String> {
    let parsed = Url::parse(url).map_err(|error| format!("the URL {url:?}: {error}"))?;
    let Some(host) = parsed.host() else {
        return Err(format!("the URL {url:?} names no host"));
    };
    let loopback = match &host {
        Host::Domain(name) => name.eq_ignore_ascii_case("localhost"),
        Host::Ipv4(address) => address.is_loopback(),
        Host::Ipv6(address) => address.is_loopback(),
    };
    match parsed.scheme() {
        "https" => Ok(host.to_string()),
        "http" if loopback => Ok(host.to_string()),
        scheme => Err(format!(
            "the URL {url:?} uses {scheme}; only https (or http on a loopback host) is followed"
        )),
    }
}

/// A decline, logged with `why`.
pub(crate) fn decline(why: &str) -> ElicitResult {
    tracing::warn!(reason = why, "declined an elicitation");
    ElicitResult::new(ElicitationAction::Decline)
}

#[cfg(test)]
mod tests {
    use super::domain_to_visit;

    #[test]
    fn only_https_or_loopback_urls_are_shown_with_their_domain() {
        let shown = |url| domain_to_visit(url);
        assert_eq!(
            shown("https://login.example.com/consent?x=1"),
            Ok("login.example.com".to_owned())
        );
        assert_eq!(
            shown("http://127.0.0.1:8080/callback"),
            Ok("127.0.0.1".to_owned())
        );
        assert_eq!(
            shown("http://localhost/sign-in"),
            Ok("localhost".to_owned())
        );
        assert_eq!(shown("http://[::1]:9000/"), Ok("[::1]".to_owned()));
        for refused in [
            "http://login.example.com/",
            "http://10.0.0.1/",
            "javascript:alert(1)",
            "file:///etc/passwd",
            "not a url",
        ] {
            assert!(shown(refused).is_err(), "{refused} is refused");
        }
    }
}
