//! Multi round-trip requests (2026-07-28, SEP-2322): a `tools/call`, `prompts/get` or
//! `resources/read` the server answers with `input_required` is answered and sent again, with
//! the answers and the server's request state, as a new request, up to a bound on rounds.

use std::time::Duration;

use rmcp::model::{
    ClientRequest, InputRequest, InputRequests, InputRequiredResult, InputResponses,
};

use super::McpSession;
use crate::SessionError;
use crate::elicitation;
use crate::method::Method;

/// How many times a request is sent before the session gives up on a server that keeps asking
/// for input, unless the builder says otherwise.
pub(crate) const DEFAULT_MAX_INPUT_ROUNDS: usize = 10;

/// Whether the server may answer `request` with `input_required`: only a `tools/call`, a
/// `prompts/get` or a `resources/read` (the others need not be kept for a second round).
pub(super) fn may_ask_for_input(request: &ClientRequest) -> bool {
    matches!(
        request,
        ClientRequest::CallToolRequest(_)
            | ClientRequest::GetPromptRequest(_)
            | ClientRequest::ReadResourceRequest(_)
    )
}

/// What a round of questions leads to: the same request, sent again with the answers.
pub(crate) struct Retry {
    responses: Option<InputResponses>,
    state: Option<String>,
}

impl McpSession {
    /// Answers the questions of one `input_required` result: each elicitation through the
    /// session's handler (a decline without one, as the capability was not advertised), in
    /// parallel. A result that asks nothing but carries state is retried after a short pause
    /// that grows with each such round in a row (`state_only_rounds`).
    pub(super) async fn answer_input(
        &self,
        method: Method<'_>,
        asked: InputRequiredResult,
        state_only_rounds: &mut u32,
    ) -> Result<Retry, SessionError> {
        let requests = asked.input_requests.unwrap_or_default();
        if requests.is_empty() {
            if asked.request_state.is_none() {
                // Neither questions nor state: retrying would ask the same thing again.
                return Err(self.unexpected(method));
            }
            tokio::time::sleep(state_only_pause(*state_only_rounds)).await;
            *state_only_rounds += 1;
            return Ok(Retry {
                responses: None,
                state: asked.request_state,
            });
        }
        *state_only_rounds = 0;
        Ok(Retry {
            responses: Some(self.answer_requests(method, requests).await?),
            state: asked.request_state,
        })
    }

    /// Answers each of `requests`, asked during `method`, in parallel: an elicitation through
    /// the session's handler (a decline without one, as the capability was not advertised),
    /// anything else with [`SessionError::Unsupported`].
    pub(super) async fn answer_requests(
        &self,
        method: Method<'_>,
        requests: InputRequests,
    ) -> Result<InputResponses, SessionError> {
        let handler = self.inner.handler.elicitation();
        let answers = requests.into_iter().map(|(key, request)| async move {
            let params = match request {
                InputRequest::Elicitation(request) => request.params,
                InputRequest::CreateMessage(_) => {
                    return Err(self.unsupported_input("sampling/createMessage", method));
                }
                InputRequest::ListRoots(_) => {
                    return Err(self.unsupported_input("roots/list", method));
                }
                _ => return Err(self.unsupported_input("an unknown kind of input", method)),
            };
            let result = match handler {
                Some(handler) => elicitation::answer(handler, params).await,
                None => elicitation::decline("no elicitation handler is set"),
            };
            let value = serde_json::to_value(result).map_err(|_| self.unexpected(method))?;
            Ok((key, value))
        });
        let responses = futures_util::future::try_join_all(answers).await?;
        Ok(responses.into_iter().collect())
    }

    /// The error for a server that asked for input this client does not give.
    fn unsupported_input(&self, asked: &str, method: Method<'_>) -> SessionError {
        SessionError::Unsupported {
            target: self.inner.target.clone(),
            feature: format!("{asked} (asked for by its answer to {method})"),
        }
    }

    /// The error for a server still asking for input after every round allowed.
    pub(super) fn too_many_rounds(&self, method: Method<'_>, rounds: usize) -> SessionError {
        SessionError::UnexpectedResponse {
            target: self.inner.target.clone(),
            method: format!("{method} (still asking for input after {rounds} rounds)"),
        }
    }
}

impl Retry {
    /// Puts this round's answers and state in `request`, in place of the last round's. A
    /// request that cannot ask for input ([`may_ask_for_input`]) never gets here, and is left
    /// as it is.
    pub(super) fn apply(self, request: &mut ClientRequest) {
        let (responses, state) = match request {
            ClientRequest::CallToolRequest(call) => (
                &mut call.params.input_responses,
                &mut call.params.request_state,
            ),
            ClientRequest::GetPromptRequest(get) => (
                &mut get.params.input_responses,
                &mut get.params.request_state,
            ),
            ClientRequest::ReadResourceRequest(read) => (
                &mut read.params.input_responses,
                &mut read.params.request_state,
            ),
            _ => return,
        };
        *responses = self.responses;
        *state = self.state;
    }
}

/// The pause before retrying a round that asked nothing: 50 ms, doubling, at most 400 ms.
fn state_only_pause(rounds_in_a_row: u32) -> Duration {
    Duration::from_millis(50 << rounds_in_a_row.min(3))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_round_that_asks_nothing_waits_a_little_longer_each_time() {
        let pauses: Vec<u128> = (0..6).map(|n| state_only_pause(n).as_millis()).collect();
        assert_eq!(pauses, [50, 100, 200, 400, 400, 400]);
    }
}
