//! Turns a handler's answer into the `ElicitResult` sent to the server, guarding against
//! handler errors, panics and answers that break the schema.

use std::panic::AssertUnwindSafe;

use futures_util::FutureExt as _;
use rmcp::model::{ElicitRequestParams, ElicitResult, ElicitationAction};
use serde_json::Value;

use super::{ElicitationHandler, ElicitationRequest, ElicitationResponse};

/// Asks `handler` and returns what to send back. Never fails: every failure is a decline.
pub(crate) async fn answer(
    handler: &dyn ElicitationHandler,
    params: ElicitRequestParams,
) -> ElicitResult {
    let Some(request) = request_from(params) else {
        return decline("an elicitation mode this client does not know");
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

fn request_from(params: ElicitRequestParams) -> Option<ElicitationRequest> {
    match params {
        ElicitRequestParams::FormElicitationParams {
            message,
            requested_schema,
            ..
        } => Some(ElicitationRequest::Form {
            message,
            schema: serde_json::to_value(requested_schema).ok()?,
        }),
        ElicitRequestParams::UrlElicitationParams {
            message,
            url,
            elicitation_id,
            ..
        } => Some(ElicitationRequest::Url {
            message,
            url,
            elicitation_id,
        }),
        _ => None,
    }
}

fn decline(why: &str) -> ElicitResult {
    tracing::warn!(reason = why, "declined an elicitation");
    ElicitResult::new(ElicitationAction::Decline)
}
