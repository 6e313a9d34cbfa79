//! What the tests share: tools whose answers and timing a test controls, a log of what they
//! did, and the lab server's tools.

use std::fmt;
use std::future::Future;
use std::pin::Pin;
use std::sync::{Arc, Mutex};

use serde_json::{Value, json};
use toolport_fixtures::LabServer;
use toolport_testkit::DuplexConnector;
use toolport_tools::provider_messages::{ApiShape, FunctionCall, OfferedTools};
use toolport_tools::schema::Provider;
use toolport_tools::{
    McpToolset, ReadonlyContext, Tool, ToolDeclaration, ToolDefinition, ToolError, ToolOutput,
};

/// What a fake tool does with its arguments.
type Answer = dyn Fn(Value) -> Pin<Box<dyn Future<Output = Result<ToolOutput, ToolError>> + Send>>
    + Send
    + Sync;

/// What the fake tools did, in order: `"start name"`, `"end name"`, or whatever a tool adds.
#[derive(Debug, Clone, Default)]
pub struct Log(Arc<Mutex<Vec<String>>>);

impl Log {
    pub fn push(&self, entry: impl Into<String>) {
        self.0.lock().unwrap().push(entry.into());
    }

    pub fn entries(&self) -> Vec<String> {
        self.0.lock().unwrap().clone()
    }
}

/// A tool listed as `definition`, whose calls `answer`; each call is logged as it starts
/// (with its arguments) and ends.
pub struct FakeTool {
    declaration: ToolDeclaration,
    definition: ToolDefinition,
    log: Log,
    answer: Box<Answer>,
}

impl fmt::Debug for FakeTool {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("FakeTool")
            .field("name", &self.declaration.name)
            .finish_non_exhaustive()
    }
}

impl FakeTool {
    /// A tool listed as `listed` (the server's JSON), answering with `answer`.
    pub fn answering<F, Fut>(listed: Value, log: &Log, answer: F) -> Arc<dyn Tool>
    where
        F: Fn(Value) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = Result<ToolOutput, ToolError>> + Send + 'static,
    {
        let definition: ToolDefinition = serde_json::from_value(listed).unwrap();
        Arc::new(Self {
            declaration: ToolDeclaration::from_mcp(&definition),
            definition,
            log: log.clone(),
            answer: Box::new(move |arguments| Box::pin(answer(arguments))),
        })
    }

    /// A tool named `name` with an open schema and `annotations`, answering `{"tool": name}`.
    pub fn echoing(name: &str, annotations: Value, log: &Log) -> Arc<dyn Tool> {
        let answer = json!({"tool": name});
        Self::answering(listed(name, annotations), log, move |_| {
            let answer = answer.clone();
            async move { Ok(ToolOutput::value(answer)) }
        })
    }
}

#[async_trait::async_trait]
impl Tool for FakeTool {
    fn declaration(&self) -> &ToolDeclaration {
        &self.declaration
    }

    fn definition(&self) -> Option<&ToolDefinition> {
        Some(&self.definition)
    }

    async fn call(
        &self,
        arguments: Value,
        _context: Option<&ReadonlyContext>,
    ) -> Result<ToolOutput, ToolError> {
        let name = &self.definition.name;
        self.log.push(format!("start {name} {arguments}"));
        let answer = (self.answer)(arguments).await;
        self.log.push(format!("end {name}"));
        answer
    }
}

/// A tool as a server lists it: `name`, an open object schema, and `annotations` unless null.
pub fn listed(name: &str, annotations: Value) -> Value {
    let mut tool = json!({
        "name": name,
        "description": format!("The {name} tool."),
        "inputSchema": {"type": "object", "properties": {}},
    });
    if !annotations.is_null() {
        tool["annotations"] = annotations;
    }
    tool
}

/// The lab server's tools, fitted to `provider` when one is given.
pub async fn lab_tools(provider: Option<Provider>) -> (McpToolset, Vec<Arc<dyn Tool>>) {
    let mut builder = McpToolset::builder(DuplexConnector::new(LabServer::new));
    if let Some(provider) = provider {
        builder = builder.fit_to(provider);
    }
    let toolset = builder.build().await.unwrap();
    let tools = toolset.tools(None).await.unwrap();
    (toolset, tools)
}

/// The calls of `response`, read in `shape`.
pub fn calls(shape: ApiShape, response: &Value) -> Vec<FunctionCall> {
    shape.read_response(response).unwrap().calls
}

/// The lab's tools offered in `shape`, and the toolset to close.
pub async fn lab(shape: ApiShape) -> (McpToolset, OfferedTools) {
    let (toolset, tools) = lab_tools(Some(shape.provider())).await;
    (toolset, OfferedTools::new(shape, tools).unwrap())
}
