//! Dynamic client registration (RFC 7591): one JSON `POST` to the registration endpoint, with
//! the `application_type` OpenID Connect registration and MCP ask for.

use http::header::{ACCEPT, CONTENT_TYPE};
use http::{Method, Request};
use serde::{Deserialize, Serialize};
use toolport_core::Secret;
use toolport_http_client::toolkit::redacted_url;
use url::Url;

use super::AuthorizationError;
use super::identity::{ClientIdentity, TokenAuthMethod};
use super::transport::OAuthHttp;
use crate::AuthorizationServerMetadata;
use crate::endpoint::is_loopback;
use crate::key::shown_resource;

/// The client metadata sent (RFC 7591 §2, OpenID Connect Registration's `application_type`).
#[derive(Serialize)]
struct ClientMetadata<'a> {
    client_name: &'a str,
    redirect_uris: [&'a str; 1],
    grant_types: [&'static str; 2],
    response_types: [&'static str; 1],
    token_endpoint_auth_method: &'static str,
    application_type: &'static str,
}

/// The fields of the answer the flow uses. No `Debug`: it holds the secret in the clear.
#[derive(Deserialize)]
struct ClientInformation {
    client_id: String,
    #[serde(default)]
    client_secret: Option<String>,
    #[serde(default)]
    token_endpoint_auth_method: Option<String>,
}

/// A refusal (RFC 7591 §3.2.2).
#[derive(Deserialize)]
struct RegistrationRefusal {
    error: String,
    #[serde(default)]
    error_description: Option<String>,
}

/// Registers a client named `client_name` with the redirect URI `redirect_uri` at the
/// authorization server `server`, whose `registration_endpoint` is `endpoint`.
///
/// It asks for the authorization-code and refresh-token grants, and the token-endpoint method
/// [`TokenAuthMethod::to_register`] picks. The identity authenticates the way the answer says,
/// else as [`TokenAuthMethod::choose`] picks from the server's metadata.
pub(crate) async fn register(
    http: &OAuthHttp,
    endpoint: &str,
    client_name: &str,
    redirect_uri: &Url,
    server: &AuthorizationServerMetadata,
) -> Result<ClientIdentity, AuthorizationError> {
    let url = Url::parse(endpoint).map_err(|_| AuthorizationError::Registration {
        url: shown_resource(endpoint),
        problem: "the registration endpoint is not a URL".to_owned(),
    })?;
    let shown = redacted_url(&url);
    let fail = |problem: String| AuthorizationError::Registration {
        url: shown.clone(),
        problem,
    };
    let supported = server.token_endpoint_auth_methods_supported.as_deref();
    let metadata = ClientMetadata {
        client_name,
        redirect_uris: [redirect_uri.as_str()],
        grant_types: ["authorization_code", "refresh_token"],
        response_types: ["code"],
        token_endpoint_auth_method: TokenAuthMethod::to_register(supported).as_str(),
        application_type: application_type(redirect_uri),
    };
    let body = serde_json::to_vec(&metadata).map_err(|error| fail(error.to_string()))?;
    let request = Request::builder()
        .method(Method::POST)
        .uri(url.as_str())
        .header(CONTENT_TYPE, "application/json")
        .header(ACCEPT, "application/json")
        .body(body)
        .map_err(|error| fail(error.to_string()))?;
    let response = http
        .exchange(request)
        .await
        .map_err(|error| error.into_authorization_error(fail))?;
    let status = response.status();
    if !status.is_success() {
        let problem = match serde_json::from_slice::<RegistrationRefusal>(response.body()) {
            Ok(refusal) => format!(
                "HTTP {status}: {}{}",
                refusal.error,
                refusal
                    .error_description
                    .map(|d| format!(" ({d})"))
                    .unwrap_or_default()
            ),
            Err(_) => format!("HTTP {status}"),
        };
        return Err(fail(problem));
    }
    let information: ClientInformation =
        serde_json::from_slice(response.body()).map_err(|error| {
            fail(format!(
                "the answer is not client information (a {:?} error at line {}, column {})",
                error.classify(),
                error.line(),
                error.column()
            ))
        })?;
    let secret = information.client_secret.map(Secret::new);
    let method = information
        .token_endpoint_auth_method
        .as_deref()
        .and_then(TokenAuthMethod::parse)
        .unwrap_or_else(|| TokenAuthMethod::choose(secret.is_some(), supported));
    tracing::debug!(
        client_id = %information.client_id,
        token_endpoint_auth_method = method.as_str(),
        issuer = %server.issuer,
        "registered the client"
    );
    Ok(ClientIdentity {
        client_id: information.client_id,
        secret,
        method,
        registered_at: Some(server.issuer.clone()),
    })
}

/// `native` for a redirect URI on the loopback interface (`localhost`, `127.0.0.1`, `[::1]`)
/// or with a scheme of the application's own; `web` for any other `http` or `https` URI.
fn application_type(redirect_uri: &Url) -> &'static str {
    if !matches!(redirect_uri.scheme(), "http" | "https") {
        return "native";
    }
    if is_loopback(redirect_uri) {
        "native"
    } else {
        "web"
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kind(uri: &str) -> &'static str {
        application_type(&Url::parse(uri).unwrap())
    }

    #[test]
    fn loopback_and_private_schemes_are_native() {
        assert_eq!(kind("http://localhost:3000/callback"), "native");
        assert_eq!(kind("http://127.0.0.1:8765/cb"), "native");
        assert_eq!(kind("http://[::1]:8765/cb"), "native");
        assert_eq!(kind("com.example.app:/oauth"), "native");
        assert_eq!(kind("https://app.example.com/callback"), "web");
    }
}
