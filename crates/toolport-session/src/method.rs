//! [`Method`]: a request's name for messages and spans: the JSON-RPC method and what it is
//! about (the tool, resource, prompt or task).

/// A request's name for messages, formatted only when a message is made.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Method<'a> {
    /// A request named by its method alone, such as `tools/list`.
    Named(&'static str),
    /// `tools/call` of the named tool.
    ToolCall(&'a str),
    /// `resources/read` of the URI.
    Resource(&'a str),
    /// `prompts/get` of the named prompt.
    Prompt(&'a str),
    /// A request about the task running a call of the named tool, such as `tasks/get`.
    Task {
        /// The request.
        request: &'static str,
        /// The tool whose call runs as the task.
        tool: &'a str,
    },
}

impl Method<'_> {
    /// The JSON-RPC method, such as `tools/call`.
    pub(crate) fn name(&self) -> &'static str {
        match self {
            Self::Named(method) => method,
            Self::ToolCall(_) => "tools/call",
            Self::Resource(_) => "resources/read",
            Self::Prompt(_) => "prompts/get",
            Self::Task { request, .. } => request,
        }
    }
}

impl std::fmt::Display for Method<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Named(method) => f.write_str(method),
            Self::ToolCall(tool) => write!(f, "tools/call {tool}"),
            Self::Resource(uri) => write!(f, "resources/read {uri}"),
            Self::Prompt(name) => write!(f, "prompts/get {name}"),
            Self::Task { request, tool } => write!(f, "{request} for tools/call {tool}"),
        }
    }
}
