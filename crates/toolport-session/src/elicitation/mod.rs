//! Elicitation: a server asks the user for input in the middle of a request. The session hands
//! the question to an [`ElicitationHandler`] and guards the answer.

mod answer;
mod defaults;
#[cfg(feature = "jsonschema")]
mod validate;

use serde_json::{Map, Value};
use toolport_core::BoxError;

pub(crate) use answer::{answer, decline};
pub use defaults::apply_schema_defaults;

/// What the server asks the user.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum ElicitationRequest {
    /// Fill in a form: an object whose fields `schema` describes.
    Form {
        /// The question, for the user.
        message: String,
        /// The requested schema (a flat JSON Schema object of primitive fields).
        schema: Value,
    },
    /// Visit a URL (to sign in, pay, or consent) outside the client. Only an `https` URL, or
    /// one on a loopback host, reaches the handler; any other is declined.
    Url {
        /// Why, for the user.
        message: String,
        /// Where to go.
        url: String,
        /// The URL's host, to show the user before they follow it (`login.example.com`).
        domain: String,
        /// The server's id for this elicitation.
        elicitation_id: String,
    },
}

/// The user's answer.
#[derive(Debug, Clone, PartialEq)]
pub enum ElicitationResponse {
    /// The user answered. For a form, the content (checked against the schema before it is
    /// sent); for a URL, `None`.
    Accept(Option<Map<String, Value>>),
    /// The user said no; the request goes on without the input.
    Decline,
    /// The user dismissed the question.
    Cancel,
}

/// Answers a server's elicitations, typically by asking a person.
///
/// Setting a handler (with [`SessionBuilder::elicitation_handler`](crate::SessionBuilder::elicitation_handler))
/// is what makes the session advertise the `elicitation` capability, in both form and URL mode.
/// A handler that fails or panics answers [`ElicitationResponse::Decline`], and the connection
/// stays usable. With the `jsonschema` feature (on by default), a form answer that does not
/// match the requested schema is not sent: the server gets a decline.
///
/// # Examples
///
/// A handler that accepts every form with the schema's defaults:
///
/// ```
/// use serde_json::Map;
/// use toolport_session::{
///     ElicitationHandler, ElicitationRequest, ElicitationResponse, apply_schema_defaults,
/// };
///
/// #[derive(Debug)]
/// struct Defaults;
///
/// #[async_trait::async_trait]
/// impl ElicitationHandler for Defaults {
///     async fn elicit(
///         &self,
///         request: ElicitationRequest,
///     ) -> Result<ElicitationResponse, toolport_core::BoxError> {
///         Ok(match request {
///             ElicitationRequest::Form { schema, .. } => {
///                 let mut answer = Map::new();
///                 apply_schema_defaults(&schema, &mut answer);
///                 ElicitationResponse::Accept(Some(answer))
///             }
///             _ => ElicitationResponse::Decline,
///         })
///     }
/// }
/// ```
#[async_trait::async_trait]
pub trait ElicitationHandler: Send + Sync + std::fmt::Debug {
    /// Answers one elicitation. An error is sent to the server as a decline.
    async fn elicit(&self, request: ElicitationRequest) -> Result<ElicitationResponse, BoxError>;
}
