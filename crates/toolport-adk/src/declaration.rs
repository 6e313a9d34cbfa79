//! [`Declarations`]: the function declaration each tool shows the model, adapted for a
//! provider or as the toolset made it.

use serde_json::{Value, json};
use toolport_tools::ToolDeclaration;
use toolport_tools::schema::{Provider, SchemaCache};

/// How an [`AdkToolset`](crate::AdkToolset) declares its tools.
#[derive(Debug)]
pub(crate) enum Declarations {
    /// Input and output schemas adapted for the provider, each distinct schema once.
    Adapted(SchemaCache),
    /// As the Toolport toolset declared them (which may have adapted them itself).
    AsListed,
}

impl Declarations {
    pub(crate) fn for_provider(provider: Provider) -> Self {
        Self::Adapted(SchemaCache::new(provider.adapter()))
    }

    /// The declaration ADK hands the model: `name`, `description`, `parameters` and, when the
    /// tool has an output schema, `response`. `None` when the provider's adapter refuses the
    /// schema (it is too deep), which leaves the tool out.
    pub(crate) fn declare(&self, declaration: &ToolDeclaration) -> Option<Value> {
        let Self::Adapted(cache) = self else {
            return Some(as_listed(declaration));
        };
        let function = match cache.declaration(declaration) {
            Ok(function) => function,
            Err(refused) => {
                tracing::warn!(tool = %declaration.name, "{refused}; the tool is left out");
                return None;
            }
        };
        let mut json = function.json;
        if let Some(response) = &declaration.response {
            let response = ToolDeclaration::new("response", "", response.clone());
            match cache.declaration(&response) {
                Ok(adapted) => json["response"] = adapted.adapted.schema.clone(),
                Err(refused) => {
                    tracing::warn!(tool = %declaration.name, "{refused}; its output schema is left out");
                }
            }
        }
        Some(json)
    }
}

fn as_listed(declaration: &ToolDeclaration) -> Value {
    let mut json = json!({
        "name": declaration.name,
        "description": declaration.description,
        "parameters": declaration.parameters,
    });
    if let Some(response) = &declaration.response {
        json["response"] = response.clone();
    }
    json
}
