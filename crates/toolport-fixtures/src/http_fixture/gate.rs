//! [`Gate`]: what a fixture server does with every request before its routes see it: log it,
//! answer 401 when a required bearer token is missing or wrong, and refuse everything, or one
//! method's requests, when told.

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
    method_refusal: Mutex<Option<MethodRefusal>>,
}

/// A refusal of the requests for one method, told apart by their `Mcp-Method` header.
#[derive(Debug, Clone)]
struct MethodRefusal {
    method: String,
    status: StatusCode,
    body: String,
}

impl Gate {
    pub(crate) fn new() -> Self {
        Self {
            log: RequestLog::new(),
            bearer: Mutex::new(None),
            refusal: Mutex::new(None),
            method_refusal: Mutex::new(None),
        }
    }

    /// From now on, requests whose `Mcp-Method` header names `method` get `status` with the
    /// plain-text `body`.
    pub(crate) fn refuse_method(&self, method: String, status: StatusCode, body: String) {
        let refusal = MethodRefusal {
            method,
            status,
            body,
        };
        *self
            .method_refusal
            .lock()
            .unwrap_or_else(|e| e.into_inner()) = Some(refusal);
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
        let method_refusal = self
            .method_refusal
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone();
        if let Some(refusal) = method_refusal
            && request
                .headers()
                .get("mcp-method")
                .is_some_and(|method| method == refusal.method.as_str())
        {
            return Some(text_response(refusal.status, refusal.body));
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
