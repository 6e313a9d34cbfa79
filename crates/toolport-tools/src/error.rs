//! Errors of the tools layer: [`ToolsetError`] when loading tools, [`ToolError`] when calling one.
//! Both answer the same questions as [`SessionError`] (`is_timeout`, `is_connect`, ...).

use rmcp::model::CallToolResult;
use toolport_core::BoxError;
use toolport_session::SessionError;

use crate::MappingError;

/// The predicates an error answers by asking the [`SessionError`] it wraps, if it wraps one;
/// expanded inside the `impl` of a type with a `session(&self) -> Option<&SessionError>`.
macro_rules! session_predicates {
    () => {
        /// Whether a bound expired; see [`SessionError::is_timeout`].
        pub fn is_timeout(&self) -> bool {
            self.session().is_some_and(SessionError::is_timeout)
        }

        /// Whether the server could not be reached, so nothing ran; see
        /// [`SessionError::is_connect`].
        pub fn is_connect(&self) -> bool {
            self.session().is_some_and(SessionError::is_connect)
        }

        /// Whether the server refused our credentials; see [`SessionError::is_unauthorized`].
        pub fn is_unauthorized(&self) -> bool {
            self.session().is_some_and(SessionError::is_unauthorized)
        }

        /// Whether a tool may have run although no answer says so; see
        /// [`SessionError::is_outcome_uncertain`]. Do not repeat such a call blindly.
        pub fn is_outcome_uncertain(&self) -> bool {
            self.session()
                .is_some_and(SessionError::is_outcome_uncertain)
        }
    };
}

/// Tools could not be loaded.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ToolsetError {
    /// The server could not be reached or would not list its tools, after the retries.
    #[error("failed to load tools: {source}")]
    Load {
        /// Why.
        #[from]
        source: SessionError,
    },
    /// No tool of that name is offered to this caller.
    #[error("unknown tool `{name}`: {target} offers {}", offers(.available))]
    UnknownTool {
        /// The server.
        target: String,
        /// The name asked for.
        name: String,
        /// The names offered to the caller.
        available: Vec<String>,
    },
    /// A strict toolset's allowlist names tools the server does not have.
    #[error("{target} has no tool named {}; it offers: {}", join(.missing), join(.available))]
    MissingTools {
        /// The server.
        target: String,
        /// The allowlisted names that are missing.
        missing: Vec<String>,
        /// The names the server offers.
        available: Vec<String>,
    },
    /// Session settings ([`McpToolsetBuilder::session`](crate::McpToolsetBuilder::session))
    /// were given for a toolset over a shared session
    /// ([`McpToolset::with_session`](crate::McpToolset::with_session)), where they cannot
    /// apply: the session was built already.
    #[error(
        "session settings given to a toolset built with_session, whose session is built already: set them on the session's builder (McpSession::builder) instead"
    )]
    SessionSettings,
    /// Two of the toolsets a [`JoinedToolset`](crate::JoinedToolset) joins offer a tool of the
    /// same name, so a call of it could be either.
    #[error(
        "two of the joined toolsets offer a tool named {name}; name one toolset's tools with a prefix (ModelFit::namer)"
    )]
    DuplicateTool {
        /// The name.
        name: String,
    },
}

impl ToolsetError {
    /// Whether retrying can never help (bad settings, a missing command, refused credentials,
    /// a missing tool).
    pub fn is_permanent(&self) -> bool {
        match self {
            Self::Load { source } => source.is_permanent(),
            Self::MissingTools { .. }
            | Self::UnknownTool { .. }
            | Self::SessionSettings
            | Self::DuplicateTool { .. } => true,
        }
    }

    session_predicates!();

    /// The session's error, when that is what failed.
    pub fn session(&self) -> Option<&SessionError> {
        match self {
            Self::Load { source } => Some(source),
            Self::MissingTools { .. }
            | Self::UnknownTool { .. }
            | Self::SessionSettings
            | Self::DuplicateTool { .. } => None,
        }
    }
}

/// A tool call could not be made, or its outcome is unknown.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ToolError {
    /// The arguments are not a JSON object, or break the tool's input schema.
    #[error("invalid arguments for {tool}: {reason}")]
    InvalidArguments {
        /// The tool.
        tool: String,
        /// What is wrong.
        reason: String,
    },
    /// The tool ran, but its structured content breaks the output schema it declared. The
    /// result is kept, since the call had its effects.
    #[error("the structured content of {tool} breaks its output schema: {reason}")]
    InvalidOutput {
        /// The tool.
        tool: String,
        /// What is wrong, each problem with its place.
        reason: String,
        /// The result as the server sent it.
        result: Box<CallToolResult>,
    },
    /// The session failed (timeout, lost connection, JSON-RPC error).
    #[error(transparent)]
    Session(#[from] SessionError),
    /// A tower layer of the call path failed the call (a timeout, a refusal); see
    /// [`McpToolsetBuilder::layer`](crate::McpToolsetBuilder::layer). A layer cannot say
    /// whether the call reached the server, so its outcome counts as uncertain.
    #[error("a layer of the call path failed: {0}")]
    Layer(#[source] BoxError),
    /// The result cannot be shown to the model in the configured shape.
    #[error("the result of {tool} cannot be mapped: {source}")]
    Mapping {
        /// The tool.
        tool: String,
        /// Why.
        #[source]
        source: MappingError,
    },
}

impl ToolError {
    /// The error a layer's error becomes: a `ToolError` from further in the call path comes
    /// back as it was (tower's timeout boxes its inner service's errors), anything else is
    /// [`ToolError::Layer`].
    pub(crate) fn from_layer(error: impl Into<BoxError>) -> Self {
        match error.into().downcast::<Self>() {
            Ok(error) => *error,
            Err(error) => Self::Layer(error),
        }
    }

    /// Whether calling again the same way can never help: the arguments or the result do not
    /// fit, or the session fails for good ([`SessionError::is_permanent`]). A call whose
    /// output breaks its schema ran, so it is not to be repeated either.
    pub fn is_permanent(&self) -> bool {
        match self {
            Self::InvalidArguments { .. } | Self::InvalidOutput { .. } | Self::Mapping { .. } => {
                true
            }
            Self::Session(source) => source.is_permanent(),
            Self::Layer(_) => false,
        }
    }

    /// Whether a bound expired: the session's ([`SessionError::is_timeout`]), or a layer's
    /// (tower's `Elapsed`, or tokio's, anywhere in the layer's error chain).
    pub fn is_timeout(&self) -> bool {
        match self {
            Self::Layer(source) => {
                std::iter::successors(Some(&**source as &dyn std::error::Error), |e| e.source())
                    .any(|e| {
                        e.is::<tower::timeout::error::Elapsed>()
                            || e.is::<tokio::time::error::Elapsed>()
                    })
            }
            _ => self.session().is_some_and(SessionError::is_timeout),
        }
    }

    /// Whether the server could not be reached, so nothing ran; see
    /// [`SessionError::is_connect`].
    pub fn is_connect(&self) -> bool {
        self.session().is_some_and(SessionError::is_connect)
    }

    /// Whether the server refused our credentials; see [`SessionError::is_unauthorized`].
    pub fn is_unauthorized(&self) -> bool {
        self.session().is_some_and(SessionError::is_unauthorized)
    }

    /// Whether a tool may have run although no answer says so: see
    /// [`SessionError::is_outcome_uncertain`]; always, for a layer's error. Do not repeat such
    /// a call blindly.
    pub fn is_outcome_uncertain(&self) -> bool {
        match self {
            Self::Layer(_) => true,
            _ => self
                .session()
                .is_some_and(SessionError::is_outcome_uncertain),
        }
    }

    /// The session's error, when that is what failed.
    pub fn session(&self) -> Option<&SessionError> {
        match self {
            Self::Session(source) => Some(source),
            Self::InvalidArguments { .. }
            | Self::InvalidOutput { .. }
            | Self::Layer(_)
            | Self::Mapping { .. } => None,
        }
    }
}

fn offers(names: &[String]) -> String {
    if names.is_empty() {
        "no tools".to_owned()
    } else {
        names.join(", ")
    }
}

fn join(names: &[String]) -> String {
    if names.is_empty() {
        "(none)".to_owned()
    } else {
        names.join(", ")
    }
}
