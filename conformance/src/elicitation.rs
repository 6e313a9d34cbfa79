//! [`AcceptDefaults`]: the elicitation handler of scenario `elicitation-sep1034-client-defaults`.

use serde_json::Map;
use toolport::{BoxError, ElicitationHandler, ElicitationRequest, ElicitationResponse};

/// Accepts every form with the defaults its schema gives (SEP-1034), as a user who presses
/// "OK" without typing would. A URL elicitation is declined: nobody is there to visit it.
#[derive(Debug)]
pub(crate) struct AcceptDefaults;

#[async_trait::async_trait]
impl ElicitationHandler for AcceptDefaults {
    async fn elicit(&self, request: ElicitationRequest) -> Result<ElicitationResponse, BoxError> {
        Ok(match request {
            ElicitationRequest::Form { schema, .. } => {
                let mut answer = Map::new();
                toolport::apply_schema_defaults(&schema, &mut answer);
                ElicitationResponse::Accept(Some(answer))
            }
            _ => ElicitationResponse::Decline,
        })
    }
}
