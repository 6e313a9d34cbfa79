//! [`StopOnTransportFailure`]: the rig hook that ends a run when a tool call failed below the
//! tool.

use rig_agent::agent::{AgentHook, HookContext, OutcomeAction, OutcomeEvent};

use crate::TRANSPORT_FAILURE;

/// Ends the run when a Toolport tool call failed below the tool (its error carries
/// [`TRANSPORT_FAILURE`]: the connection is lost, a bound expired, the server is gone). A tool
/// error, which the model can act on, goes to the model as usual. Without this hook rig hands
/// every failure to the model, which would then answer from a call whose outcome is unknown.
///
/// Add it with `AgentBuilder::add_hook(StopOnTransportFailure)`; the run's error then names the
/// tool and the failure.
#[derive(Debug, Clone, Copy, Default)]
pub struct StopOnTransportFailure;

impl AgentHook for StopOnTransportFailure {
    async fn on_outcome(&self, _context: &HookContext, event: OutcomeEvent<'_>) -> OutcomeAction {
        let failure = event
            .tool_result()
            .and_then(|result| result.error())
            .filter(|error| error.code() == Some(TRANSPORT_FAILURE));
        match failure {
            Some(error) => OutcomeAction::stop(format!(
                "the call of {} failed below the tool, so its outcome is unknown: {}",
                event.tool_name().unwrap_or("a tool"),
                error.message()
            )),
            None => OutcomeAction::proceed(),
        }
    }
}
