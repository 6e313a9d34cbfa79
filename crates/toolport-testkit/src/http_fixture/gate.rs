//! [`Gate`]: what a fixture server does with every request before its routes see it: log it,
//! answer 401 when a required bearer token is missing or wrong, and refuse everything when told.

use std::sync::Mutex;

use http::header::{AUTHORIZATION, WWW_AUTHENTICATE};
use http::{HeaderValue, Request, Response, StatusCode};

use super::body::{FixtureBody, text_response};
use super::request_log::RequestLog;

/// The `WWW-Authenticate` value of a fixture's 401 answer.
pub const BEARER_CHALLENGE: &str = "Bearer realm=\"toolport-test\"";

/// The request log, the bearer token a server requires and the refusal it answers everything
/// with, shared by its generations.
#[derive(Debug)]
pub(crate) struct Gate {
    log: RequestLog,
    bearer: Mutex<Option<String>>,
    refusal: Mutex<Option<(StatusCode, String)>>,
}

impl Gate {
    pub(crate) fn new() -> Self {
        Self {
            log: RequestLog::new(),
            bearer: Mutex::new(None),
            refusal: Mutex::new(None),
        }
    }

    /// From now on, every request gets `status` with `challenge` as its `WWW-Authenticate`.
    pub(crate) fn refuse_all(&self, status: StatusCode, challenge: String) {
        *self.refusal.lock().unwrap_or_else(|e| e.into_inner()) = Some((status, challenge));
    }

    pub(crate) fn log(&self) -> &RequestLog {
        &self.log
    }

    /// From now on, requests without `Authorization: Bearer <token>` get a 401.
    pub(crate) fn require_bearer(&self, token: String) {
        *self.bearer.lock().unwrap_or_else(|e| e.into_inner()) = Some(token);
    }

    /// Logs `request`, and returns the 401 to answer it with if it lacks the required token.
    pub(crate) fn check<B>(&self, request: &Request<B>) -> Option<Response<FixtureBody>> {
        self.log.record(request);
        let refusal = self
            .refusal
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone();
        if let Some((status, challenge)) = refusal {
            let mut refused = text_response(status, "Refused");
            if let Ok(challenge) = HeaderValue::try_from(challenge) {
                refused.headers_mut().insert(WWW_AUTHENTICATE, challenge);
            }
            return Some(refused);
        }
        let bearer = self.bearer.lock().unwrap_or_else(|e| e.into_inner());
        let token = bearer.as_deref()?;
        let presented = request
            .headers()
            .get(AUTHORIZATION)
            .and_then(|value| value.to_str().ok())
            .and_then(|value| value.split_once(' '))
            .filter(|(scheme, _)| scheme.eq_ignore_ascii_case("bearer"))
            .map(|(_, presented)| presented);
        if presented == Some(token) {
            return None;
        }
        let mut denied = text_response(StatusCode::UNAUTHORIZED, "Unauthorized");
        denied
            .headers_mut()
            .insert(WWW_AUTHENTICATE, HeaderValue::from_static(BEARER_CHALLENGE));
        Some(denied)
    }
}
