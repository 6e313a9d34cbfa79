//! What the search tests share: tools made from captured `tools/list` results, and a toolset
//! that offers a list it is given.
#![allow(dead_code, unreachable_pub)]

use std::sync::{Arc, Mutex};

use serde_json::{Value, json};
use toolport_tools::{
    ReadonlyContext, Tool, ToolDeclaration, ToolDefinition, ToolError, ToolOutput, Toolset,
    ToolsetError,
};

/// A tool as a server listed it, which answers every call with its own name.
#[derive(Debug)]
pub struct ListedTool {
    declaration: ToolDeclaration,
    definition: ToolDefinition,
    server: Option<String>,
}

impl ListedTool {
    /// The tool of `listing` (an entry of a `tools/list` result), named `name` for the model,
    /// from `server`.
    pub fn listed(listing: &Value, name: &str, server: Option<&str>) -> Arc<dyn Tool> {
        let definition: ToolDefinition =
            serde_json::from_value(listing.clone()).expect("a tool of tools/list");
        let declaration = ToolDeclaration::new(
            name,
            definition.description.as_deref().unwrap_or_default(),
            Value::Object((*definition.input_schema).clone()),
        );
        Arc::new(Self {
            declaration,
            definition,
            server: server.map(str::to_owned),
        })
    }

    /// A tool named `name` with `description` and no parameters.
    pub fn described(name: &str, description: &str) -> Arc<dyn Tool> {
        Self::listed(
            &json!({"name": name, "description": description, "inputSchema": {"type": "object"}}),
            name,
            None,
        )
    }
}

#[async_trait::async_trait]
impl Tool for ListedTool {
    fn declaration(&self) -> &ToolDeclaration {
        &self.declaration
    }

    fn definition(&self) -> Option<&ToolDefinition> {
        Some(&self.definition)
    }

    fn server(&self) -> Option<&str> {
        self.server.as_deref()
    }

    async fn call(
        &self,
        _arguments: Value,
        _context: Option<&ReadonlyContext>,
    ) -> Result<ToolOutput, ToolError> {
        Ok(ToolOutput::value(
            json!({ "called": self.declaration.name }),
        ))
    }
}

/// A toolset that offers the tools it is given, to callers whose context `role` the tool's
/// name does not start with `admin_` or who are admins; the list can be changed.
#[derive(Debug, Default)]
pub struct GivenToolset {
    tools: Mutex<Vec<Arc<dyn Tool>>>,
    /// How many times the list was asked for.
    pub listings: std::sync::atomic::AtomicUsize,
}

impl GivenToolset {
    pub fn new(tools: Vec<Arc<dyn Tool>>) -> Arc<Self> {
        Arc::new(Self {
            tools: Mutex::new(tools),
            listings: Default::default(),
        })
    }

    /// Offers `tools` from now on.
    pub fn set(&self, tools: Vec<Arc<dyn Tool>>) {
        *self.tools.lock().unwrap() = tools;
    }
}

#[async_trait::async_trait]
impl Toolset for GivenToolset {
    async fn tools(
        &self,
        context: Option<&ReadonlyContext>,
    ) -> Result<Vec<Arc<dyn Tool>>, ToolsetError> {
        self.listings
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let admin = context.and_then(|c| c.get("role")) == Some(&json!("admin"));
        Ok(self
            .tools
            .lock()
            .unwrap()
            .iter()
            .filter(|tool| admin || !tool.name().starts_with("admin_"))
            .cloned()
            .collect())
    }

    async fn close(&self) {}
}

/// The names of `tools`, in order.
pub fn names(tools: &[Arc<dyn Tool>]) -> Vec<String> {
    tools.iter().map(|tool| tool.name().to_owned()).collect()
}
