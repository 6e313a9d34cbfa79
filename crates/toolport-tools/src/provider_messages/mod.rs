//! Provider message shapes for an agent loop written by hand against a model provider's HTTP
//! API: the Gemini API, OpenAI's Chat Completions and Responses APIs, and Anthropic's Messages
//! API ([`ApiShape`]).
//!
//! One turn of such a loop, in any of the four shapes:
//!
//! 1. [`OfferedTools::new`] takes the tools of one or more toolsets and gives each the name the
//!    provider accepts ([`names`](crate::names)) and the declaration its adapter computes
//!    ([`schema`](crate::schema)); [`OfferedTools::declarations`] is the request's `tools`.
//! 2. [`ApiShape::read_response`] reads the body the API answered: the messages to keep in the
//!    conversation, the text, and the [`FunctionCall`]s, in the model's order.
//! 3. [`OfferedTools::call_all`] runs the calls, each under the tool its model-facing name maps
//!    back to: calls of read-only or idempotent tools side by side, the others one at a time,
//!    and gives a [`ToolAnswer`] per call, in the calls' order. A name no tool has, arguments
//!    that are not a JSON object and a tool's own error are answers the model reads; a failed
//!    transport is an `Err` ([`MessageError::CallFailed`]) that ends the loop.
//! 4. [`ApiShape::answer_messages`] writes the answers as the API takes them, with images and
//!    audio where it accepts them.

mod answer;
mod answer_messages;
mod api_shape;
mod call_all;
mod declarations;
mod error;
mod function_call;
mod join;
mod media;
mod model_turn;
mod native_tool_search;
mod offered_tools;
mod read_response;

pub use answer::ToolAnswer;
pub use api_shape::ApiShape;
pub use error::MessageError;
pub use function_call::FunctionCall;
pub use model_turn::ModelTurn;
pub use native_tool_search::ANTHROPIC_TOOL_SEARCH_BETA;
pub use offered_tools::OfferedTools;
