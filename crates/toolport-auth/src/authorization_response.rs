//! The authorization server's answer at the redirect URI, and its validation before the code
//! goes anywhere: the `state` the client sent, and the issuer (RFC 9207, as MCP's authorization
//! spec tabulates it under "Authorization Response Validation").

use toolport_core::Secret;
use url::Url;

use crate::AuthorizationServerMetadata;

/// What the client recorded before it sent the user to the authorization server: the `state`
/// it put in the request, and the issuer whose validated metadata it used. A response is only
/// accepted against the record of its own request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PendingAuthorization {
    state: String,
    issuer: String,
    issuer_advertised: bool,
}

impl PendingAuthorization {
    /// The record of a request sent with `state` to the authorization server described by
    /// `metadata` (which discovery has validated).
    pub fn new(state: impl Into<String>, metadata: &AuthorizationServerMetadata) -> Self {
        Self {
            state: state.into(),
            issuer: metadata.issuer.clone(),
            issuer_advertised: metadata.authorization_response_iss_parameter_supported,
        }
    }

    /// The issuer the response must come from.
    pub fn issuer(&self) -> &str {
        &self.issuer
    }

    /// Checks the response that reached the redirect URI `redirect` and returns its
    /// authorization code.
    ///
    /// In this order: the issuer, as MCP's table says (an `iss` that is present must equal
    /// the recorded issuer exactly, with no normalization, whether or not the server advertises
    /// it; one that is absent is refused only when the server advertises it); then the `state`,
    /// which must equal the one sent; then an error the server answered with; then the code.
    /// The issuer is checked first because it applies to error responses too.
    ///
    /// # Errors
    ///
    /// [`AuthorizationResponseError`], naming what failed; never the code.
    ///
    /// # Examples
    ///
    /// ```
    /// use toolport_auth::{AuthorizationServerMetadata, PendingAuthorization};
    /// use url::Url;
    ///
    /// let metadata: AuthorizationServerMetadata = serde_json::from_str(
    ///     r#"{"issuer": "https://auth.example.com",
    ///         "authorization_response_iss_parameter_supported": true}"#,
    /// )
    /// .unwrap();
    /// let pending = PendingAuthorization::new("s-1", &metadata);
    /// let redirect = Url::parse(
    ///     "http://127.0.0.1:8765/callback?code=c-1&state=s-1&iss=https%3A%2F%2Fauth.example.com",
    /// )
    /// .unwrap();
    /// assert_eq!(pending.accept(&redirect).unwrap().expose(), "c-1");
    /// ```
    pub fn accept(&self, redirect: &Url) -> Result<Secret, AuthorizationResponseError> {
        let response = Response::read(redirect);
        match (&response.iss, self.issuer_advertised) {
            (Some(iss), _) if *iss != self.issuer => {
                return Err(AuthorizationResponseError::IssuerMismatch {
                    expected: self.issuer.clone(),
                    found: iss.clone(),
                });
            }
            (None, true) => {
                return Err(AuthorizationResponseError::IssuerMissing {
                    issuer: self.issuer.clone(),
                });
            }
            _ => {}
        }
        if response.state.as_deref() != Some(self.state.as_str()) {
            return Err(AuthorizationResponseError::StateMismatch);
        }
        if let Some(error) = response.error {
            return Err(AuthorizationResponseError::Refused {
                error,
                description: response.error_description,
            });
        }
        response.code.ok_or(AuthorizationResponseError::NoCode)
    }
}

/// The parameters of an authorization response, decoded from the redirect URI's query.
struct Response {
    code: Option<Secret>,
    state: Option<String>,
    iss: Option<String>,
    error: Option<String>,
    error_description: Option<String>,
}

impl Response {
    /// The first value of each parameter in `redirect`'s query.
    fn read(redirect: &Url) -> Self {
        let mut response = Self {
            code: None,
            state: None,
            iss: None,
            error: None,
            error_description: None,
        };
        for (name, value) in redirect.query_pairs() {
            let value = value.into_owned();
            match name.as_ref() {
                "code" if response.code.is_none() => response.code = Some(Secret::new(value)),
                "state" if response.state.is_none() => response.state = Some(value),
                "iss" if response.iss.is_none() => response.iss = Some(value),
                "error" if response.error.is_none() => response.error = Some(value),
                "error_description" if response.error_description.is_none() => {
                    response.error_description = Some(value);
                }
                _ => {}
            }
        }
        response
    }
}

/// Why an authorization response was not accepted. No variant holds the code.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum AuthorizationResponseError {
    /// The response names another issuer than the one the request was sent to: a mix-up
    /// (RFC 9207), so the code must not be sent anywhere.
    #[error("the authorization response came from issuer `{found}`, not `{expected}`")]
    IssuerMismatch {
        /// The issuer the request was sent to.
        expected: String,
        /// The `iss` the response carried.
        found: String,
    },
    /// The server advertises `iss` in its responses, and this one has none.
    #[error("the authorization response carries no `iss`, which `{issuer}` says it always sends")]
    IssuerMissing {
        /// The issuer the request was sent to.
        issuer: String,
    },
    /// The `state` is missing or is not the one sent: the response is not for this request.
    #[error("the authorization response's `state` is not the one this request sent")]
    StateMismatch,
    /// The server answered with an error (the user said no, or the request was refused).
    #[error("the authorization server refused: {error}{}", description.as_deref().map(|d| format!(" ({d})")).unwrap_or_default())]
    Refused {
        /// The `error` code, such as `access_denied`.
        error: String,
        /// The server's `error_description`, if any.
        description: Option<String>,
    },
    /// The response has neither a code nor an error.
    #[error("the authorization response carries no code")]
    NoCode,
}

#[cfg(test)]
mod tests {
    use super::*;

    const ISSUER: &str = "https://auth.example.com/tenant";

    fn pending(advertised: bool) -> PendingAuthorization {
        let metadata = serde_json::json!({
            "issuer": ISSUER,
            "authorization_response_iss_parameter_supported": advertised,
        });
        let metadata: AuthorizationServerMetadata = serde_json::from_value(metadata).unwrap();
        PendingAuthorization::new("s-1", &metadata)
    }

    fn redirect(query: &str) -> Url {
        Url::parse(&format!("http://127.0.0.1:8765/callback?{query}")).unwrap()
    }

    const ISS: &str = "iss=https%3A%2F%2Fauth.example.com%2Ftenant";

    #[test]
    fn a_present_iss_must_be_the_issuer_whether_advertised_or_not() {
        for advertised in [true, false] {
            let accepted =
                pending(advertised).accept(&redirect(&format!("code=c&state=s-1&{ISS}")));
            assert_eq!(accepted.unwrap().expose(), "c");
            let other = "iss=https%3A%2F%2Fevil.example.com";
            let error = pending(advertised)
                .accept(&redirect(&format!("code=c&state=s-1&{other}")))
                .unwrap_err();
            assert!(
                matches!(&error, AuthorizationResponseError::IssuerMismatch { found, .. } if found == "https://evil.example.com"),
                "{error:?}"
            );
        }
    }

    #[test]
    fn an_absent_iss_is_refused_only_when_advertised() {
        let error = pending(true)
            .accept(&redirect("code=c&state=s-1"))
            .unwrap_err();
        assert_eq!(
            error,
            AuthorizationResponseError::IssuerMissing {
                issuer: ISSUER.to_owned()
            }
        );
        let accepted = pending(false).accept(&redirect("code=c&state=s-1"));
        assert_eq!(accepted.unwrap().expose(), "c");
    }

    #[test]
    fn the_issuer_is_compared_without_normalization() {
        for near in [
            "https%3A%2F%2Fauth.example.com%2Ftenant%2F",
            "https%3A%2F%2FAUTH.example.com%2Ftenant",
            "https%3A%2F%2Fauth.example.com%3A443%2Ftenant",
            "HTTPS%3A%2F%2Fauth.example.com%2Ftenant",
        ] {
            let error = pending(false)
                .accept(&redirect(&format!("code=c&state=s-1&iss={near}")))
                .unwrap_err();
            assert!(
                matches!(error, AuthorizationResponseError::IssuerMismatch { .. }),
                "{near}: {error:?}"
            );
        }
    }

    #[test]
    fn the_issuer_is_checked_on_error_responses_before_the_error_is_reported() {
        let error = pending(true)
            .accept(&redirect(
                "error=access_denied&state=s-1&iss=https%3A%2F%2Fevil",
            ))
            .unwrap_err();
        assert!(matches!(
            error,
            AuthorizationResponseError::IssuerMismatch { .. }
        ));

        let error = pending(true)
            .accept(&redirect(&format!(
                "error=access_denied&error_description=no+thanks&state=s-1&{ISS}"
            )))
            .unwrap_err();
        assert_eq!(
            error.to_string(),
            "the authorization server refused: access_denied (no thanks)"
        );
    }

    #[test]
    fn the_state_must_be_the_one_sent() {
        for query in ["code=c", "code=c&state=s-2", "code=c&state="] {
            let error = pending(false).accept(&redirect(query)).unwrap_err();
            assert_eq!(error, AuthorizationResponseError::StateMismatch, "{query}");
        }
    }

    #[test]
    fn a_response_without_code_or_error_is_refused() {
        let error = pending(false).accept(&redirect("state=s-1")).unwrap_err();
        assert_eq!(error, AuthorizationResponseError::NoCode);
    }

    #[test]
    fn the_first_value_of_a_repeated_parameter_counts() {
        let accepted = pending(false).accept(&redirect("code=first&code=second&state=s-1&state=x"));
        assert_eq!(accepted.unwrap().expose(), "first");
    }

    #[test]
    fn no_error_shows_the_code() {
        let queries = [
            "code=c-secret&state=wrong",
            "code=c-secret&state=s-1&iss=https%3A%2F%2Fevil",
        ];
        for query in queries {
            let error = pending(true).accept(&redirect(query)).unwrap_err();
            assert!(
                !format!("{error} {error:?}").contains("c-secret"),
                "{error:?}"
            );
        }
    }
}
